// Models and clusters built in code for the cost-model tests (no files needed).
#pragma once

#include "hardware/cluster.h"
#include "model/model_spec.h"

namespace paraplan::test {

// GPT-3 175B (Brown et al. 2020): 96 layers, h=12288, 96 heads, seq 2048.
inline ModelSpec Gpt3_175B() {
  ModelSpec m;
  m.name = "gpt3-175b";
  m.layers = 96;
  m.hidden = 12288;
  m.heads = 96;
  m.kv_heads = 96;
  m.head_dim = 128;
  m.ffn_hidden = 4 * 12288;
  m.vocab = 51200;
  m.seq_len = 2048;
  return m;
}

// Llama-3 70B: GQA 64/8 heads, SwiGLU 28672, vocab 128256, seq 8192.
inline ModelSpec Llama3_70B() {
  ModelSpec m;
  m.name = "llama3-70b";
  m.layers = 80;
  m.hidden = 8192;
  m.heads = 64;
  m.kv_heads = 8;
  m.head_dim = 128;
  m.ffn_hidden = 28672;
  m.vocab = 128256;
  m.seq_len = 8192;
  m.activation = Activation::kSwiglu;
  m.norm = Norm::kRmsNorm;
  m.position = Position::kRope;
  m.attention_kind = AttentionKind::kGqa;
  return m;
}

// A two-layer Llama-style model small enough to count by hand: per layer q, k, v, o 4 x 1024^2 =
// 4,194,304, the SwiGLU MLP 3 x 1024 x 4096 = 12,582,912 and two RMSNorms 2,048 (16,779,264);
// untied embedding and head 2 x 32,000 x 1024 = 65,536,000, the final norm 1,024. Total
// 2 x 16,779,264 + 65,536,000 + 1,024 = kTwoLayerParams.
inline ModelSpec TwoLayers() {
  ModelSpec m = Llama3_70B();
  m.name = "two-layers";
  m.layers = 2;
  m.hidden = 1024;
  m.heads = 8;
  m.kv_heads = 8;
  m.head_dim = 128;
  m.ffn_hidden = 4096;
  m.vocab = 32000;
  m.seq_len = 4096;
  m.attention_kind = AttentionKind::kMha;
  return m;
}
inline constexpr double kTwoLayerParams = 99095552.0;

// Mixtral 8x7B: 32 layers, 8 experts top-2, expert width 14336.
inline ModelSpec Mixtral8x7B() {
  ModelSpec m = Llama3_70B();
  m.name = "mixtral-8x7b";
  m.layers = 32;
  m.hidden = 4096;
  m.heads = 32;
  m.kv_heads = 8;
  m.ffn_hidden = 14336;
  m.vocab = 32000;
  m.seq_len = 4096;
  MoeSpec moe;
  moe.experts = 8;
  moe.top_k = 2;
  moe.expert_ffn_hidden = 14336;
  m.moe = moe;
  return m;
}

inline Cluster Dgx(const char* gpu, double mem_GiB, double hbm_GBps, double bf16, double fp8,
                   double nvlink_GBps, double nic_GBps) {
  Cluster c;
  c.name = "test";
  c.gpu.name = gpu;
  c.gpu.memory_GiB = mem_GiB;
  c.gpu.memory_bandwidth_GBps = hbm_GBps;
  c.gpu.peak_tflops = {bf16 / 2, bf16 / 2, bf16, bf16, fp8};
  c.network = {{"nvlink", 8, nvlink_GBps, 3, 1.0, false},
               {"scaleout", 32768, nic_GBps, 10, 1.0, false}};
  return c;
}

inline Cluster DgxA100() {
  return Dgx("A100-SXM4-80GB", 80, 2039, 312, 0, 300, 25);
}
inline Cluster DgxH100() {
  return Dgx("H100-SXM5-80GB", 80, 3350, 989, 1979, 450, 50);
}
// The same with the SMs and NCCL channels hardware/dgx-h100.yaml states (132 SMs, 24 NVLink and
// 16 network channels): the SM cost of overlap applies (cost/overlap_sm.h).
inline Cluster DgxH100WithSms() {
  Cluster c = DgxH100();
  c.gpu.sm_count = 132;
  c.network[0].nccl_channels = 24;
  c.network[1].nccl_channels = 16;
  return c;
}

inline Cluster Nvl72() {
  Cluster c = Dgx("B200", 186, 8000, 2500, 5000, 900, 100);
  c.network[0].span = 72;
  c.network[0].nvls = true;
  return c;
}

}  // namespace paraplan::test
