// Cluster: a GPU type and its network tiers, as described by hardware/*.yaml.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hardware/efficiency.h"
#include "hardware/profile.h"

namespace paraplan {

struct PeakTflops {
  double fp32 = 0, tf32 = 0, bf16 = 0, fp16 = 0, fp8 = 0;  // dense, TFLOP/s
};

struct GpuSpec {
  std::string name;
  double memory_GiB = 0;
  double memory_bandwidth_GBps = 0;
  PeakTflops peak_tflops;
  double host_link_GBps = 0;  // GPU <-> host memory, per direction (PCIe, NVLink-C2C); 0 = unknown
  // Streaming multiprocessors (datasheet); the GEMM model's wave quantization needs it. 0 =
  // unknown: the min-dimension curve instead (cost/compute_cost.h).
  int64_t sm_count = 0;
};

// One level of the network, innermost first. span = how many GPUs can talk inside this tier
// (8 for a DGX node's NVLink, 72 for NVL72); bandwidth is per GPU, per direction.
struct NetworkTier {
  std::string name;
  int64_t span = 0;
  double bandwidth_GBps = 0;
  double latency_us = 0;
  double oversubscription = 1.0;  // ≥ 1; the tier's bandwidth is divided by it
  bool nvls = false;              // NVLink SHARP in-switch reduction available
};

struct Cluster {
  std::string name;
  GpuSpec gpu;
  std::vector<NetworkTier> network;                   // innermost first; spans strictly increase
  std::shared_ptr<const CalibrationProfile> profile;  // null = built-in defaults
  Efficiency efficiency;  // defaults for the GPU family (hardware/efficiency.yaml), overridable
};

}  // namespace paraplan
