// Cluster: a GPU type and its network tiers, as described by hardware/*.yaml.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hardware/efficiency.h"
#include "hardware/measured_rate.h"
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
  // One GPU's compute time over the median GPU's: its standard deviation (a fraction), what the
  // slowest of N ranks adds to a step (cost/straggler.h), and where it comes from. The cluster
  // loader fills it: the file's `gpu.speed_sigma`, else a calibration profile's
  // `gpu_speed_sigma`, else the family's published spread (hardware/gpu_variability.h). A
  // cluster built in code keeps 0: no slowdown.
  double speed_sigma = 0;
  std::string speed_sigma_source;
  // Kernel rates measured on this part outside any framework, with their sources (the file's
  // `gpu.measured`; hardware/measured_rate.h). Empty: none stated, its family's are used.
  std::vector<MeasuredRate> measured;
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
  // Measured algorithm bandwidth of NCCL's NVLS all-reduce over the whole NVLink domain at its
  // largest sizes (nccl-tests all_reduce_perf algbw), GB/s; caps the NVLS and NVLS-tree rate of
  // every collective on this tier (hardware/nccl_algorithms.h). 0 = none measured.
  double nvls_algbw_GBps = 0;
  // Channels (CTAs, one SM each) NCCL's ring/tree collectives launch on a communicator whose
  // outermost tier is this one (hardware/nccl_channels.h); 0 = unknown: no SM cost.
  int64_t nccl_channels = 0;
};

// What a long run loses to failures and checkpoints (cost/goodput.h). The hardware file's optional
// `reliability:` and `storage:` sections; a file without them gets these defaults, each with its
// source in docs/formats.md ("reliability, storage, power").
struct ClusterReliability {
  // Unexpected job interruptions per GPU per day: Llama 3 (Grattafiori et al. 2024, sec. 3.3.4):
  // 419 unexpected interruptions in 54 days on 16,384 H100 = 419 / (54 x 16,384).
  double failures_per_gpu_day = 419.0 / (54.0 * 16384.0);
  double relaunch_s = 300;  // scheduler, container and process start to the first NCCL call
  // NCCL communicator init grows with the square of the ranks (ring search, NVIDIA/nccl PR 1789:
  // 26 s of ncclBuildRing at 98,304 ranks): seconds per rank squared.
  double nccl_init_s_per_rank2 = 26.0 / (98304.0 * 98304.0);
};

// Where checkpoints go: the parallel file system as one node and the whole job see it.
struct ClusterStorage {
  double write_GBps_per_node = 40;  // DGX SuperPOD (H100) reference architecture: >40 GB/s a node
  double read_GBps_per_node = 40;
  double aggregate_GBps = 2000;  // Llama 3 sec. 3.1: Tectonic sustains 2 TB/s (7 TB/s peak)
};

// Power (cost/energy.h). 0 = unknown: no energy figures.
struct ClusterPower {
  double gpu_tdp_W = 0;     // datasheet TDP (or the power limit the cluster runs at)
  double gpu_idle_W = 0;    // the GPU's draw with no kernel running
  double node_other_W = 0;  // CPUs, memory, NICs, fans and switches' share, per node
  int64_t gpus_per_node = 8;
  double pue = 1.0;  // facility power / IT power
};

struct Cluster {
  std::string name;
  GpuSpec gpu;
  std::vector<NetworkTier> network;                   // innermost first; spans strictly increase
  std::shared_ptr<const CalibrationProfile> profile;  // null = built-in defaults
  Efficiency efficiency;  // defaults for the GPU family (hardware/efficiency.yaml), overridable
  ClusterReliability reliability;
  ClusterStorage storage;
  ClusterPower power;
};

}  // namespace paraplan
