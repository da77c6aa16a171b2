#include "search/rerank.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>
#include <vector>

namespace paraplan {

namespace {

// Applies `order` (indices into the old plans) to the plans and their fold counts together.
void Reorder(SearchResult& r, const std::vector<size_t>& order) {
  std::vector<StepResult> plans;
  std::vector<int64_t> folded;
  plans.reserve(order.size());
  for (size_t i : order) {
    plans.push_back(std::move(r.plans[i]));
    if (i < r.plans_folded.size()) folded.push_back(r.plans_folded[i]);
  }
  r.plans = std::move(plans);
  if (folded.size() == r.plans.size()) r.plans_folded = std::move(folded);
}

std::vector<size_t> Identity(size_t n) {
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t{0});
  return order;
}

}  // namespace

void RankByWallClock(SearchResult& result, int64_t gpus, int64_t model_seq_len,
                     const BudgetRequest& request) {
  if (request.tokens <= 0) return;
  std::vector<double> days;
  days.reserve(result.plans.size());
  for (const StepResult& r : result.plans) {
    const int64_t seq = r.plan.seq_len > 0 ? r.plan.seq_len : model_seq_len;
    days.push_back(ComputeBudget(r, gpus, seq, request).wall_days.value);
  }
  std::vector<size_t> order = Identity(result.plans.size());
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return days[a] < days[b]; });
  Reorder(result, order);
}

bool InsideHeadroom(const StepResult& r, double headroom_pct) {
  return r.peak_memory_bytes <= (1.0 - headroom_pct / 100.0) * r.memory_capacity_bytes;
}

void RankByHeadroom(SearchResult& result, double headroom_pct) {
  std::vector<size_t> order = Identity(result.plans.size());
  const std::vector<StepResult>& p = result.plans;
  std::stable_partition(order.begin(), order.end(),
                        [&](size_t i) { return InsideHeadroom(p[i], headroom_pct); });
  // Neighbours with the same step time (to 1 ms, as plan folding rounds): lower memory first.
  auto same_step = [&](size_t a, size_t b) {
    return std::llround(p[a].step_time_s * 1e3) == std::llround(p[b].step_time_s * 1e3) &&
           InsideHeadroom(p[a], headroom_pct) == InsideHeadroom(p[b], headroom_pct);
  };
  for (size_t begin = 0; begin < order.size();) {
    size_t end = begin + 1;
    while (end < order.size() && same_step(order[begin], order[end])) ++end;
    std::stable_sort(order.begin() + static_cast<std::ptrdiff_t>(begin),
                     order.begin() + static_cast<std::ptrdiff_t>(end), [&](size_t a, size_t b) {
                       return p[a].peak_memory_bytes < p[b].peak_memory_bytes;
                     });
    begin = end;
  }
  Reorder(result, order);
}

}  // namespace paraplan
