// How a framework turns a layer into kernels (issue 14): which element-wise ops it fuses and how
// the host launches them. One fixed value per plan, set by the user (`fusion`, `cuda_graphs`) or
// by the framework a published run names; never searched and never fitted. What each profile
// fuses, with the framework code it reads, is in docs/framework-fusion.md; the bytes and kernel
// counts it implies are costed by cost/elementwise_cost.h.
#pragma once

#include "core/name_table.h"

namespace paraplan {

enum class Fusion {
  kTe,       // Megatron-Core with TransformerEngine (Megatron-LM ≥ 2023, NeMo, Megatron-Bridge)
  kApex,     // Megatron-LM 2020-22 / Megatron-DeepSpeed: apex and jit fused kernels, no Flash
  kEager,    // PyTorch eager (torchtitan without torch.compile): one kernel per ATen op
  kCompile,  // torch.compile (Inductor): element-wise chains fused per region
};

struct KernelRecipe {
  Fusion fusion = Fusion::kTe;
  bool cuda_graphs = false;  // kernels replayed from a CUDA graph: no per-kernel host launch

  bool IsDefault() const { return fusion == Fusion::kTe && !cuda_graphs; }
  bool FlashAttention() const { return fusion != Fusion::kApex; }
  // PyTorch runs the layer (torchtitan, eager or compiled): SDPA's FlashAttention-2, torchtitan's
  // separate Linear per projection, torchao's float8 casts.
  bool Pytorch() const { return fusion == Fusion::kEager || fusion == Fusion::kCompile; }
};

const NameTable<Fusion>& FusionNames();
const char* ToString(Fusion v);

}  // namespace paraplan
