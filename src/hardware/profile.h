// A calibration profile: numbers measured on real GPUs (calibrate/ harness, `paraplan calibrate
// fit`). Where the profile has a number, the cost model uses it instead of the built-in default.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace paraplan {

// One measured size of a collective sweep: the median time of `bytes` (nccl-tests' "size") at
// the fit's rank count.
struct CollectivePoint {
  int64_t bytes = 0;
  double time_us = 0;
};

// α–β fit of one collective on one tier, time = latency + bus_bytes / bandwidth, and the measured
// sizes it was fitted to (the per-size curve, which follows NCCL's changes of protocol and
// algorithm with size where one line cannot).
struct CollectiveFit {
  double latency_us = 0;      // the whole collective's latency at `ranks`
  double bandwidth_GBps = 0;  // bus bandwidth (nccl-tests convention)
  double r2 = 0;
  int points = 0;
  int ranks = 0;  // the rank count the sweep ran at; 0 = not recorded (profiles before stop 25)
  std::vector<CollectivePoint> curve;  // ascending bytes; empty = the α–β line only
  // Ranks per innermost-tier domain (node) in a sweep across several: the fit is then the whole
  // hierarchical collective, not one tier's level. 0 = not recorded (one domain, or a harness CSV).
  int ranks_per_node = 0;
};

struct GemmPoint {
  int64_t m = 0, n = 0, k = 0;
  double tflops = 0;
};

struct AttentionPoint {
  int64_t seq = 0, heads = 0, head_dim = 0;
  bool causal = true;
  double fwd_tflops = 0;
  double bwd_tflops = 0;
};

struct CalibrationProfile {
  // collectives[op][tier]: op is all_reduce | all_gather | reduce_scatter | all_to_all | send_recv.
  std::map<std::string, std::map<std::string, CollectiveFit>> collectives;
  // gemm[dtype]: measured points; dtype is bf16 | fp16 | fp8 (found by a name without copying).
  std::map<std::string, std::vector<GemmPoint>, std::less<>> gemm;
  std::vector<AttentionPoint> attention;
  double memory_bandwidth_GBps = 0;  // 0 = not measured
  // memory_ops[op]: achieved GB/s of the harness's kernel of one element-wise op (`ops` mode),
  // at the bytes the cost model counts for it (hardware/memory_ops.h); empty = not measured.
  std::map<std::string, double, std::less<>> memory_ops;
  // Standard deviation of one GPU's compute time over the median GPU's, measured on the
  // cluster's own GPUs (the same GEMM timed on each); 0 = not measured
  // (hardware/gpu_variability.h).
  double gpu_speed_sigma = 0;
  std::map<std::string, std::string> metadata;  // gpu, driver, cuda, nccl, date, ...
  std::string source_path;
};

}  // namespace paraplan
