#include "calib/fit_memo.h"

namespace paraplan {

namespace {

// The entry of `entries` searched with `searched_with` (Entry or const Entry), else nullptr.
template <typename Entries>
auto FindEntry(Entries& entries, const Efficiency& searched_with) -> decltype(&entries[0]) {
  for (auto& entry : entries) {
    if (entry.searched_with == searched_with) return &entry;
  }
  return nullptr;
}

}  // namespace

const FitMemo::Entry* FitMemo::Find(const std::string& run_id,
                                    const Efficiency& searched_with) const {
  auto it = runs_.find(run_id);
  return it == runs_.end() ? nullptr : FindEntry(it->second, searched_with);
}

std::optional<FitSearch> FitMemo::Search(const std::string& run_id,
                                         const Efficiency& efficiency) const {
  const std::lock_guard<std::mutex> lock(mutex_);
  const Entry* entry = Find(run_id, efficiency);
  if (!entry) return std::nullopt;
  ++hits_;
  return entry->search;
}

void FitMemo::RecordSearch(const std::string& run_id, const Efficiency& efficiency,
                           const FitSearch& search) {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (Find(run_id, efficiency)) return;
  runs_[run_id].push_back({efficiency, search, {}});
}

std::optional<double> FitMemo::Step(const std::string& run_id, const Efficiency& searched_with,
                                    const Efficiency& efficiency) const {
  const std::lock_guard<std::mutex> lock(mutex_);
  const Entry* entry = Find(run_id, searched_with);
  if (!entry) return std::nullopt;
  for (const auto& [at, seconds] : entry->steps) {
    if (at == efficiency) {
      ++hits_;
      return seconds;
    }
  }
  return std::nullopt;
}

void FitMemo::RecordStep(const std::string& run_id, const Efficiency& searched_with,
                         const Efficiency& efficiency, double seconds) {
  const std::lock_guard<std::mutex> lock(mutex_);
  auto it = runs_.find(run_id);
  if (it == runs_.end()) return;
  Entry* entry = FindEntry(it->second, searched_with);
  if (!entry) return;
  for (const auto& step : entry->steps) {
    if (step.first == efficiency) return;
  }
  entry->steps.emplace_back(efficiency, seconds);
}

int64_t FitMemo::Hits() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return hits_;
}

}  // namespace paraplan
