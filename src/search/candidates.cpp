#include "search/candidates.h"

#include <algorithm>
#include <tuple>

namespace paraplan {

void BestN::Add(const Candidate& c) {
  if (capacity_ == 0) return;
  if (heap_.size() < capacity_) {
    heap_.push_back(c);
    std::push_heap(heap_.begin(), heap_.end(), ScoreLess);
    return;
  }
  if (!ScoreLess(c, heap_.front())) return;
  std::pop_heap(heap_.begin(), heap_.end(), ScoreLess);
  heap_.back() = c;
  std::push_heap(heap_.begin(), heap_.end(), ScoreLess);
}

void BestN::Merge(const BestN& other) {
  for (const Candidate& c : other.heap_) Add(c);
}

std::vector<Candidate> BestN::Sorted() const {
  std::vector<Candidate> out = heap_;
  std::sort(out.begin(), out.end(), ScoreLess);
  return out;
}

namespace {

bool FrontLess(const Candidate& a, const Candidate& b) {
  return std::tie(a.step_s, a.memory_bytes, a.index) < std::tie(b.step_s, b.memory_bytes, b.index);
}

}  // namespace

void ParetoFront::Add(const Candidate& c) {
  auto pos = std::lower_bound(points_.begin(), points_.end(), c, FrontLess);
  // Memory strictly decreases along the front, so the only possible dominator is the predecessor.
  if (pos != points_.begin() && std::prev(pos)->memory_bytes <= c.memory_bytes) return;
  auto last = pos;
  while (last != points_.end() && last->memory_bytes >= c.memory_bytes) ++last;
  pos = points_.erase(pos, last);
  points_.insert(pos, c);
}

bool ParetoFront::DominatesAllAbove(double step_s, double memory_bytes) const {
  // Memory strictly decreases along the front: the last point at or below a step has the least.
  const auto below = std::lower_bound(points_.begin(), points_.end(), step_s,
                                      [](const Candidate& c, double s) { return c.step_s < s; });
  if (below != points_.begin() && std::prev(below)->memory_bytes <= memory_bytes) return true;
  const auto at = std::upper_bound(points_.begin(), points_.end(), step_s,
                                   [](double s, const Candidate& c) { return s < c.step_s; });
  return at != points_.begin() && std::prev(at)->memory_bytes < memory_bytes;
}

void ParetoFront::Merge(const ParetoFront& other) {
  for (const Candidate& c : other.points_) Add(c);
}

}  // namespace paraplan
