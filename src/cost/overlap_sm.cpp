#include "cost/overlap_sm.h"

#include <algorithm>

namespace paraplan {

double SmShare(int64_t sms, const GpuSpec& gpu) {
  if (sms <= 0 || gpu.sm_count <= 0) return 0.0;
  return std::min(1.0, static_cast<double>(sms) / static_cast<double>(gpu.sm_count));
}

OverlapCost OverlapSeconds(double comm_s, double window_s, double floor_s, double share) {
  OverlapCost out;
  if (comm_s <= 0) return out;
  const double floor = std::min(std::max(floor_s, 0.0), comm_s);
  const double rest = comm_s - floor;
  const double excess = std::max(0.0, rest - std::max(window_s, 0.0));
  out.exposed_s = floor + excess;
  out.sm_loss_s = std::max(0.0, rest * share - excess);
  return out;
}

double ConcurrentLossSeconds(double hidden_s, double excess_s, double share) {
  if (hidden_s <= 0 || share <= 0) return 0.0;
  return std::max(0.0, (hidden_s + std::max(excess_s, 0.0)) * share - std::max(excess_s, 0.0));
}

double MarginLossSeconds(double gemm_s, int64_t sms, const GpuSpec& gpu) {
  if (gemm_s <= 0 || sms <= 0 || gpu.sm_count <= sms) return 0.0;
  return gemm_s * static_cast<double>(sms) / static_cast<double>(gpu.sm_count - sms);
}

GatherWait ParamGatherWait(double gather_s, double buckets, double forward_s, double nic_rate,
                           double share, bool overlap) {
  GatherWait out;
  if (gather_s <= 0) return out;
  if (!overlap) {
    out.wait_s = gather_s;
    return out;
  }
  const double rate = std::min(nic_rate, 1.0);
  out.wait_s = std::max(gather_s / std::max(buckets, 1.0), gather_s - rate * forward_s);
  out.wait_s = std::min(out.wait_s, gather_s);
  // The rest runs beside the forward at the rate its free NIC time allows (none: it waits).
  if (rate > 0) out.sm_loss_s = (gather_s - out.wait_s) / rate * share;
  return out;
}

}  // namespace paraplan
