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
  // Memory strictly decreases along the front, so the last point at or below a step has the
  // least memory of those; and the step strictly increases (of two points with one step, one
  // dominates the other), so only that point can have the step itself: one search finds both
  // the last point at or below step_s and the last one below it.
  const auto at = std::upper_bound(points_.begin(), points_.end(), step_s,
                                   [](double s, const Candidate& c) { return s < c.step_s; });
  if (at == points_.begin()) return false;
  const Candidate& last = *std::prev(at);
  if (last.memory_bytes < memory_bytes) return true;  // step <= step_s, memory < memory_bytes
  if (last.step_s < step_s) return last.memory_bytes <= memory_bytes;
  // last.step_s == step_s: the point before it is the last with a smaller step.
  return std::prev(at) != points_.begin() && std::prev(at, 2)->memory_bytes <= memory_bytes;
}

void ParetoFront::Merge(const ParetoFront& other) {
  for (const Candidate& c : other.points_) Add(c);
}

}  // namespace paraplan
