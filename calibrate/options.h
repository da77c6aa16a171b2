// Command-line options of paraplan-calibrate, shared by all modes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace paraplan::calibrate {

struct GemmShape {
  int64_t m = 0, n = 0, k = 0;
};

struct HarnessOptions {
  std::string mode;  // gemm | attention | memory | ops | nccl
  std::string output = "calibrate_raw.csv";
  bool resume = false;  // skip rows already present in `output`
  int warmup = 5;       // untimed runs before measuring
  int iters = 20;       // timed runs; the median is recorded

  // gemm
  std::vector<std::string> dtypes = {"bf16", "fp8"};
  std::vector<GemmShape> shapes;  // --shapes MxNxK,...
  bool generic_grid = true;       // add the built-in grid
  int64_t hidden = 0, ffn = 0, seq = 4096, heads = 0, kv_heads = 0, head_dim = 0;
  bool gated_mlp = true;  // SwiGLU: the first MLP GEMM is 2·ffn wide
  std::vector<int64_t> tp_list = {1, 2, 4, 8};
  std::vector<int64_t> mb_list = {1, 2, 4};

  // attention
  std::vector<int64_t> seq_list = {1024, 2048, 4096, 8192};
  int64_t attn_heads = 32, attn_head_dim = 128, attn_batch = 1;
#ifdef PARAPLAN_WITH_CUDNN
  std::string attn_backend = "cudnn";  // cudnn | naive
#else
  std::string attn_backend = "naive";
#endif
  int64_t attn_tokens = 0;  // cudnn: > 0 sets the batch per sequence length to tokens / seq
  bool attn_check = true;   // cudnn: compare a small case with a host reference first

  // memory
  int64_t mem_min_bytes = int64_t{1} << 20;
  int64_t mem_max_bytes = int64_t{2} << 30;

  // ops (mode_ops.cu): norms, residual add, RoPE and activations at each hidden × tokens; the
  // loss at each tokens × vocab; Adam and grad-norm at each parameter count
  std::vector<int64_t> ops_hidden = {4096, 8192};
  std::vector<int64_t> ops_tokens = {4096, 8192, 16384, 32768};
  int64_t ops_vocab = 128256;  // Llama 3
  std::vector<int64_t> ops_params = {int64_t{1} << 24, int64_t{1} << 26, int64_t{1} << 28,
                                     int64_t{1} << 30};
  bool ops_check = true;  // compare each kernel with its host reference first

  // nccl
  int64_t min_bytes = 1024;              // -b
  int64_t max_bytes = int64_t{4} << 30;  // -e
  double factor = 2;                     // -f
  std::vector<std::string> ops = {"all_reduce", "all_gather", "reduce_scatter", "all_to_all",
                                  "send_recv"};
};

// The GEMM shapes of one transformer layer (QKV, attention output, MLP up and down; forward,
// input-gradient and weight-gradient) for every tp and micro-batch in the options. Empty when
// --hidden is not given.
std::vector<GemmShape> LayerGemmShapes(const HarnessOptions& options);

// The built-in generic grid: square and skinny shapes from 512 to 16384.
std::vector<GemmShape> GenericGemmGrid();

// "1K", "64M", "4G", "123" → bytes (binary multiples, as nccl-tests).
int64_t ParseBytes(const std::string& text);

}  // namespace paraplan::calibrate
