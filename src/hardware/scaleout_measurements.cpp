#include "hardware/scaleout_measurements.h"

#include <algorithm>

#include "core/units.h"
#include "hardware/nccl_algorithms.h"

namespace paraplan {

namespace {
constexpr int64_t kGpusPerNode = 8;
}  // namespace

double ScaleoutFraction(const ScaleoutMeasurement& m) {
  const double line = static_cast<double>(kGpusPerNode) * m.nic_GBps * kGB;
  if (m.bytes <= 0) return m.busbw_GBps * kGB / line;
  NcclFabric f;  // NCCL's own hop latencies; the bandwidths do not enter the latency
  f.ranks = kGpusPerNode * m.nodes;
  f.ppn = kGpusPerNode;
  f.channels = 16;  // dgx-h100 / dgx-b200 scale-out `nccl_channels`; only the plateau reads it
  const NcclCost ring = NcclPairCost(m.op, NcclAlgorithm::kRing, NcclProtocol::kSimple, m.bytes, f);
  const double bus_bytes = m.bytes * BusFactor(m.op, f.ranks);
  const double measured_s = bus_bytes / (m.busbw_GBps * kGB);
  return bus_bytes / ((measured_s - ring.latency_s) * line);
}

const std::vector<ScaleoutMeasurement>& ScaleoutMeasurements() {
  using Op = CollectiveOp;
  static const std::vector<ScaleoutMeasurement> kRows = {
      // NCCL's maintainer (AddyLaddy), NVIDIA/nccl #812, 2023-03-31: "On an Nvidia DGX-A100 system
      // we have 8x200Gbit/s IB cards and we measure 192GB/s AllReduce BusBW" (ring, multi-node).
      {"NVIDIA/nccl#812 (DGX A100, 8 x HDR, all-reduce)", "A100", Op::kAllReduce, 2, 0, 192.0,
       25.0},
      // NCCL's maintainer, NVIDIA/nccl-tests #290, 2025-03-03: "For NDR @ 400Gbps you should see
      // 46-48GB/s per NIC" (with NCCL_ALGO=RING across nodes); both ends of the stated span.
      {"NVIDIA/nccl-tests#290 (H100, NDR, ring, low end)", "H100", Op::kAllReduce, 2, 0, 8 * 46.0,
       50.0},
      {"NVIDIA/nccl-tests#290 (H100, NDR, ring, high end)", "H100", Op::kAllReduce, 2, 0, 8 * 48.0,
       50.0},
      // NVIDIA/nccl #1229 (user report, H100, 8 GPUs and NICs per node, 2024-03): reduce-scatter
      // 360 GB/s at 4 nodes, size not stated (its larger node counts fall as the model's ring
      // latency does at 2-4 GB: lessons.md "Stop 40"); the 4-node point only.
      {"NVIDIA/nccl#1229 (H100, NDR, reduce-scatter, 4 nodes)", "H100", Op::kReduceScatter, 4, 0,
       360.0, 50.0},
      // togethercomputer/together-nccl-tests @ 0492bede,
      // baselines/use3a-ss/2026-05-02_nccl_collective_scaling_report.md, re-run table (B200,
      // 8 x ConnectX-7 NDR per node, NCCL 2.29.7, NCCL_ALGO=Ring, 16 GB = 16 GiB: nccl-tests reads
      // "-e 16G" in binary units): 2 and 46 nodes.
      {"together-nccl-tests@0492bede use3a-ss (B200, ring all-reduce 16 GB, 2 nodes)", "B200",
       Op::kAllReduce, 2, 16 * kGiB, 344.7, 50.0},
      {"together-nccl-tests@0492bede use3a-ss (B200, ring all-reduce 16 GB, 46 nodes)", "B200",
       Op::kAllReduce, 46, 16 * kGiB, 291.4, 50.0},
      {"together-nccl-tests@0492bede use3a-ss (B200, ring all-gather 16 GB, 46 nodes)", "B200",
       Op::kAllGather, 46, 16 * kGiB, 293.3, 50.0},
      // togethercomputer/together-dgxc-benchmarking @ 661e8e1,
      // worklog/2026-04-25_nccl_benchmark_full_report.md (the same cluster, NCCL 2.29.7, ring at
      // 8 GB): 64 nodes.
      {"together-dgxc-benchmarking@661e8e1 (B200, ring all-reduce 8 GB, 64 nodes)", "B200",
       Op::kAllReduce, 64, 8 * kGiB, 288.1, 50.0},
      {"together-dgxc-benchmarking@661e8e1 (B200, ring all-gather 8 GB, 64 nodes)", "B200",
       Op::kAllGather, 64, 8 * kGiB, 286.0, 50.0},
  };
  return kRows;
}

MeasuredRange ScaleoutFractionRange() {
  const auto& rows = ScaleoutMeasurements();
  const double first = ScaleoutFraction(rows.front());
  MeasuredRange r{first, first};
  for (size_t i = 1; i < rows.size(); ++i) {
    const double f = ScaleoutFraction(rows[i]);
    r.lo = std::min(r.lo, f);
    r.hi = std::max(r.hi, f);
  }
  return r;
}

}  // namespace paraplan
