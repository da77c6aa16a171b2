#include "search/plan_folding.h"

#include <cmath>

#include "core/units.h"

namespace paraplan {

FoldKey FoldKeyOf(const StepResult& r) {
  return {static_cast<int64_t>(std::llround(r.step_time_s * 1e3)),
          static_cast<int64_t>(std::llround(BytesToGiB(r.peak_memory_bytes) * 10.0))};
}

std::vector<size_t> SpreadEvenly(size_t n, size_t count) {
  std::vector<size_t> out;
  if (n == 0 || count == 0) return out;
  if (count >= n) {
    for (size_t i = 0; i < n; ++i) out.push_back(i);
    return out;
  }
  for (size_t i = 0; i < count; ++i) {
    const size_t at = count == 1 ? 0 : i * (n - 1) / (count - 1);
    if (out.empty() || out.back() != at) out.push_back(at);
  }
  return out;
}

}  // namespace paraplan
