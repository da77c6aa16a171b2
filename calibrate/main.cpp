// paraplan-calibrate: measures GEMMs, attention, memory bandwidth and NCCL collectives on the
// GPUs at hand and writes raw CSV for `paraplan calibrate fit`. Exit codes: 0 done, 1 a CUDA /
// cuBLAS / NCCL call failed, 2 bad options or no GPU.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <sstream>

#include "csv_writer.h"
#include "cuda_check.h"
#include "device_info.h"
#include "modes.h"
#include "ops_kernels.h"
#include "options.h"

namespace paraplan::calibrate {
namespace {

std::vector<GemmShape> ParseShapes(const std::vector<std::string>& texts) {
  std::vector<GemmShape> shapes;
  for (const auto& text : texts) {
    GemmShape s;
    char x1 = 0, x2 = 0;
    std::istringstream in(text);
    if (!(in >> s.m >> x1 >> s.n >> x2 >> s.k) || x1 != 'x' || x2 != 'x' || s.m < 1 || s.n < 1 ||
        s.k < 1 || !in.eof()) {
      throw CLI::ValidationError("--shapes",
                                 "expected MxNxK with positive sizes, got '" + text + "'");
    }
    shapes.push_back(s);
  }
  return shapes;
}

void AddCommonOptions(CLI::App& sub, HarnessOptions& o) {
  sub.add_option("-o,--output", o.output, "raw CSV to write (atomically)")->capture_default_str();
  sub.add_flag("--resume", o.resume, "keep the rows already in --output and measure the rest");
  sub.add_option("--warmup", o.warmup, "untimed runs before measuring")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  sub.add_option("--iters", o.iters, "timed runs; the median is recorded")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
}

void AddGemmOptions(CLI::App& app, HarnessOptions& o, std::vector<std::string>& shapes) {
  auto* sub = app.add_subcommand("gemm", "cuBLASLt matmuls (bf16, fp8) over model and grid shapes");
  AddCommonOptions(*sub, o);
  sub->add_option("--dtypes", o.dtypes, "bf16 and/or fp8")->delimiter(',')->capture_default_str();
  sub->add_option("--shapes", shapes, "explicit shapes MxNxK,...")->delimiter(',');
  sub->add_flag("!--no-grid", o.generic_grid, "leave out the built-in generic grid");
  sub->add_option("--hidden", o.hidden, "model hidden size: adds the layer GEMMs");
  sub->add_option("--ffn", o.ffn, "MLP width (default 4·hidden)");
  sub->add_option("--seq", o.seq, "sequence length")->capture_default_str();
  sub->add_option("--heads", o.heads, "attention heads (default hidden/128)");
  sub->add_option("--kv-heads", o.kv_heads, "key/value heads (default: heads)");
  sub->add_option("--head-dim", o.head_dim, "head dimension (default hidden/heads)");
  sub->add_flag("!--no-gated", o.gated_mlp, "the MLP is not gated (GELU instead of SwiGLU)");
  sub->add_option("--tp-list", o.tp_list, "tensor-parallel sizes")->delimiter(',');
  sub->add_option("--mb-list", o.mb_list, "micro-batch sizes")->delimiter(',');
}

void AddOpsOptions(CLI::App& app, HarnessOptions& o) {
  auto* ops = app.add_subcommand(
      "ops",
      "our kernels of the memory-bound ops (RMSNorm/LayerNorm, RoPE, SwiGLU/GeLU, residual add, "
      "softmax-cross-entropy, Adam, grad-norm), rows at the cost model's bytes");
  AddCommonOptions(*ops, o);
  ops->add_option("--hidden-list", o.ops_hidden, "hidden sizes (multiples of 2048, <= 8192)")
      ->delimiter(',')
      ->capture_default_str();
  ops->add_option("--tokens-list", o.ops_tokens, "tokens per micro-batch")
      ->delimiter(',')
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  ops->add_option("--vocab", o.ops_vocab, "vocabulary of the loss (a multiple of 4)")
      ->capture_default_str();
  ops->add_option("--params-list", o.ops_params, "parameter counts of Adam and grad-norm")
      ->delimiter(',')
      ->capture_default_str();
  ops->add_flag("!--skip-check", o.ops_check,
                "leave out the comparison of each kernel with its host reference");
}

void AddOtherModes(CLI::App& app, HarnessOptions& o, std::string& min_b, std::string& max_b,
                   std::string& mem_max) {
  auto* attn = app.add_subcommand(
      "attention", "causal attention (cuDNN forward and backward, or a naive forward kernel)");
  AddCommonOptions(*attn, o);
  attn->add_option("--seq-list", o.seq_list, "sequence lengths")->delimiter(',');
  attn->add_option("--heads", o.attn_heads, "heads")->capture_default_str();
  attn->add_option("--head-dim", o.attn_head_dim, "head dimension (64 or 128)")
      ->capture_default_str();
  attn->add_option("--batch", o.attn_batch, "sequences per launch")->capture_default_str();
  attn->add_option("--backend", o.attn_backend,
                   "cudnn (fused flash attention, forward and backward) or naive (our forward "
                   "kernel, op naive_fwd_causal)")
      ->capture_default_str()
      ->check(CLI::IsMember({"cudnn", "naive"}));
  attn->add_option("--tokens", o.attn_tokens,
                   "cudnn: tokens per launch; the batch becomes max(1, tokens / seq) for each "
                   "sequence length (overrides --batch), as calibrate/tools/attention_sdpa.py")
      ->check(CLI::NonNegativeNumber);
  attn->add_flag("!--skip-check", o.attn_check,
                 "cudnn: leave out the comparison with a host reference before timing");

  auto* mem = app.add_subcommand("memory", "device copy and RMSNorm-like kernel bandwidth");
  AddCommonOptions(*mem, o);
  mem->add_option("--max-bytes", mem_max, "largest bytes read + written (K/M/G)");

  AddOpsOptions(app, o);

  auto* nccl = app.add_subcommand("nccl", "NCCL collectives over a size sweep (nccl-tests-like)");
  AddCommonOptions(*nccl, o);
  nccl->add_option("-b,--minbytes", min_b, "smallest size (K/M/G)");
  nccl->add_option("-e,--maxbytes", max_b, "largest size (K/M/G)");
  nccl->add_option("-f,--stepfactor", o.factor, "size multiplier")
      ->capture_default_str()
      ->check(CLI::Range(1.01, 1024.0));
  nccl->add_option("--ops", o.ops, "collectives to measure")->delimiter(',');
}

void CheckOpsOptions(const HarnessOptions& o) {
  for (int64_t tokens : o.ops_tokens) {
    // The loss backward launches one row of blocks per token (gridDim.y <= 65535).
    if (tokens > 65535) throw HarnessError("ops: --tokens-list: at most 65535 tokens");
  }
  for (int64_t hidden : o.ops_hidden) {
    for (int64_t params : o.ops_params) {
      const std::string why = OpsShapeError(hidden, 128, o.ops_vocab, params);
      if (!why.empty()) throw HarnessError("ops: " + why);
    }
  }
}

int Run(int argc, char** argv) {
  HarnessOptions o;
  std::vector<std::string> shapes;
  std::string min_b = "1K", max_b = "4G", mem_max = "2G";
  CLI::App app{
      "paraplan-calibrate: measure this machine for `paraplan calibrate fit`.\n\n"
      "Examples:\n"
      "  paraplan-calibrate gemm --hidden 8192 --ffn 28672 --heads 64 --kv-heads 8 -o gemm.csv\n"
      "  paraplan-calibrate memory -o mem.csv\n"
      "  paraplan-calibrate ops -o ops.csv\n"
      "  paraplan-calibrate nccl -b 1K -e 4G -f 2 -o nccl.csv\n"
      "  mpirun -np 16 --map-by ppr:8:node paraplan-calibrate nccl -o nccl_2nodes.csv\n"
      "  paraplan calibrate fit gemm.csv mem.csv ops.csv nccl.csv -o profile.yaml",
      "paraplan-calibrate"};
  app.require_subcommand(1);
  AddGemmOptions(app, o, shapes);
  AddOtherModes(app, o, min_b, max_b, mem_max);
  try {
    app.parse(argc, argv);
    o.mode = app.get_subcommands().front()->get_name();
    o.shapes = ParseShapes(shapes);
    o.min_bytes = ParseBytes(min_b);
    o.max_bytes = ParseBytes(max_b);
    o.mem_max_bytes = ParseBytes(mem_max);
    if (o.mode == "ops") CheckOpsOptions(o);
#ifndef PARAPLAN_WITH_CUDNN
    if (o.mode == "attention" && o.attn_backend == "cudnn") {
      throw HarnessError("--backend cudnn: this paraplan-calibrate was built without cuDNN");
    }
#endif
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  } catch (const HarnessError& e) {
    std::fprintf(stderr, "paraplan-calibrate: %s\n", e.what());
    return 2;
  }
  std::string why;
  if (VisibleDeviceCount(&why) < 1) {
    std::fprintf(stderr,
                 "paraplan-calibrate: no CUDA GPU is visible (%s). The harness measures real GPUs; "
                 "run it on a GPU machine, then `paraplan calibrate fit` anywhere.\n",
                 why.c_str());
    return 2;
  }
  CsvWriter writer(o.output, o.resume, DescribeDevice(0));
  if (o.mode == "gemm") RunGemmMode(o, writer);
#ifdef PARAPLAN_WITH_CUDNN
  if (o.mode == "attention" && o.attn_backend == "cudnn") RunCudnnAttentionMode(o, writer);
#endif
  if (o.mode == "attention" && o.attn_backend == "naive") RunAttentionMode(o, writer);
  if (o.mode == "memory") RunMemoryMode(o, writer);
  if (o.mode == "ops") RunOpsMode(o, writer);
  if (o.mode == "nccl") RunNcclMode(o, writer, &argc, &argv);
  std::fprintf(stderr, "paraplan-calibrate: %zu rows in %s\n", writer.rows(), o.output.c_str());
  return 0;
}

}  // namespace
}  // namespace paraplan::calibrate

int main(int argc, char** argv) {
  try {
    return paraplan::calibrate::Run(argc, argv);
  } catch (const paraplan::calibrate::HarnessError& e) {
    std::fprintf(stderr, "paraplan-calibrate: error: %s\n", e.what());
    return 1;
  }
}
