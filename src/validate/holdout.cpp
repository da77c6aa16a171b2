#include "validate/holdout.h"

#include <algorithm>
#include <map>

namespace paraplan {

std::vector<bool> HeldOutRuns(const std::vector<HoldoutKey>& runs, int64_t every) {
  std::vector<bool> held(runs.size(), false);
  if (every <= 0) return held;
  std::map<std::string, std::vector<size_t>> by_family;
  for (size_t i = 0; i < runs.size(); ++i) by_family[runs[i].family].push_back(i);
  for (auto& [family, indices] : by_family) {
    std::stable_sort(indices.begin(), indices.end(),
                     [&runs](size_t a, size_t b) { return runs[a].id < runs[b].id; });
    for (size_t k = 0; k < indices.size(); ++k) {
      if (static_cast<int64_t>(k + 1) % every == 0) held[indices[k]] = true;
    }
  }
  return held;
}

}  // namespace paraplan
