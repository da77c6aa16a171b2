#include "sim/dp_tail.h"

#include <algorithm>
#include <cmath>

namespace paraplan {
namespace {

// Buckets of each window: dp.buckets spread over the windows (at least one each), ready evenly
// through the window, each carrying an equal share of the gradient communication.
std::vector<DpBucket> MakeBuckets(const StageDpWork& dp, const std::vector<GradWindow>& windows,
                                  Nanos compute_end, bool overlap) {
  std::vector<DpBucket> buckets;
  const int64_t n_windows = static_cast<int64_t>(windows.size());
  if (n_windows == 0 || dp.grad_comm == 0) return buckets;
  const int64_t total = std::max(dp.buckets, n_windows);
  for (int64_t w = 0; w < n_windows; ++w) {
    const GradWindow& win = windows[w];
    const int64_t n = total / n_windows + (w < total % n_windows ? 1 : 0);
    const Nanos length = win.end - win.start;
    for (int64_t k = 0; k < n; ++k) {
      const Nanos ready = overlap ? win.start + length * (k + 1) / n : compute_end;
      buckets.push_back(DpBucket{win.chunk, ready, 0, 0});
    }
  }
  std::stable_sort(buckets.begin(), buckets.end(),
                   [](const DpBucket& a, const DpBucket& b) { return a.ready < b.ready; });
  const int64_t count = static_cast<int64_t>(buckets.size());
  for (int64_t j = 0; j < count; ++j) {
    // Exact shares: bucket j carries comm * (j + 1) / count - comm * j / count.
    buckets[j].end = dp.grad_comm * (j + 1) / count - dp.grad_comm * j / count;
  }
  return buckets;
}

// End of a bucket of `length` (NIC time) that starts at `start`: before compute_end it advances
// at `rate` (the NIC's share left by the stage's own TP/CP/EP traffic), after it at full speed.
Nanos BucketEnd(Nanos start, Nanos length, Nanos compute_end, double rate) {
  if (start >= compute_end || rate >= 1.0) return start + length;
  const double before = rate * static_cast<double>(compute_end - start);
  if (rate > 0 && static_cast<double>(length) <= before) {
    return start + static_cast<Nanos>(std::llround(static_cast<double>(length) / rate));
  }
  return compute_end + length - static_cast<Nanos>(std::llround(before));
}

}  // namespace

StageTail RunStageTail(const StageDpWork& dp, const std::vector<GradWindow>& windows,
                       Nanos compute_end, bool overlap_grad_reduce) {
  StageTail tail;
  tail.compute_end = compute_end;
  tail.param_gather_end = dp.param_gather;
  tail.buckets = MakeBuckets(dp, windows, compute_end, overlap_grad_reduce);
  Nanos stream_free = dp.param_gather;  // the all-gather occupies the DP stream first
  tail.grads_done = compute_end;
  const double rate = dp.nic_rate_bwd;
  double beside = 0;  // wall time buckets run before compute_end
  for (DpBucket& b : tail.buckets) {
    const Nanos length = b.end;
    b.start = std::max(b.ready, stream_free);
    b.end = BucketEnd(b.start, length, compute_end, rate);
    beside += static_cast<double>(std::max<Nanos>(0, std::min(b.end, compute_end) - b.start));
    stream_free = b.end;
    tail.grads_done = std::max(tail.grads_done, b.end);
  }
  tail.sm_loss = static_cast<Nanos>(std::llround(beside * dp.sm_share));
  tail.optimizer_start = std::max(compute_end + tail.sm_loss, tail.grads_done);
  tail.optimizer_end = tail.optimizer_start + dp.optimizer;
  return tail;
}

}  // namespace paraplan
