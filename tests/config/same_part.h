// The checks that a cluster file's GPU is another file's part (the same chip, memory and peaks),
// for the cluster files that change only the node or the network (hgx-h200-4gpu,
// gcp-a3mega-h100): the efficiency fit and the held-out grouping then treat their rows as that
// part's.
#pragma once

#include <catch2/catch.hpp>
#include <string>

#include "config/resolve.h"
#include "hardware/gpu_family.h"

namespace paraplan::testing {

inline void CheckSamePart(const Cluster& cluster, const Cluster& reference,
                          const std::string& gpu_model) {
  CHECK(cluster.gpu.name == reference.gpu.name);
  CHECK(GpuModel(cluster.gpu.name) == gpu_model);
  CHECK(cluster.gpu.memory_GiB == reference.gpu.memory_GiB);
  CHECK(cluster.gpu.memory_bandwidth_GBps == reference.gpu.memory_bandwidth_GBps);
  CHECK(cluster.gpu.peak_tflops.bf16 == reference.gpu.peak_tflops.bf16);
  CHECK(cluster.gpu.peak_tflops.fp8 == reference.gpu.peak_tflops.fp8);
  CHECK(cluster.gpu.sm_count == reference.gpu.sm_count);
}

}  // namespace paraplan::testing
