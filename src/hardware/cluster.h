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

// Which GEMM efficiency model the cost model uses (cost/compute_cost.h): the min-dimension curve
// (the default for a file without the key) or the shape-aware tile-and-wave model
// (`gpu.gemm_model: tile`, which the shipped Hopper files state: its constants were measured on
// Hopper).
enum class GemmModel { kCurve, kTile };

struct GpuSpec {
  std::string name;
  double memory_GiB = 0;
  double memory_bandwidth_GBps = 0;
  PeakTflops peak_tflops;
  double host_link_GBps = 0;  // GPU <-> host memory, per direction (PCIe, NVLink-C2C); 0 = unknown
  // The host DRAM bandwidth each GPU's share of its node gets (the CPUs' datasheet bandwidth over
  // the GPUs that share them), what a CPU optimizer step streams through; 0 = unknown.
  double host_memory_GBps = 0;
  // Streaming multiprocessors (datasheet). What a communication kernel beside compute takes a
  // share of (cost/overlap_sm.h), and the tile GEMM model's wave quantization. 0 = unknown: no
  // SM cost of overlap, and the tile model falls back to the curve.
  int64_t sm_count = 0;
  GemmModel gemm_model = GemmModel::kCurve;
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
  // Channels (CTAs, one SM each) NCCL's ring/tree collectives launch on a communicator whose
  // outermost tier is this one (hardware/nccl_channels.h); 0 = unknown: no SM cost.
  int64_t nccl_channels = 0;
};

struct Cluster {
  std::string name;
  GpuSpec gpu;
  std::vector<NetworkTier> network;                   // innermost first; spans strictly increase
  std::shared_ptr<const CalibrationProfile> profile;  // null = built-in defaults
  Efficiency efficiency;  // defaults for the GPU family (hardware/efficiency.yaml), overridable
};

}  // namespace paraplan
