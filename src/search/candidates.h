// The small containers each search thread keeps: the best N candidates under a total order, and
// the Pareto front of (step time, peak memory). Both are exact and merge into the same result
// whatever the order plans arrive in, which makes the search deterministic for any thread count.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace paraplan {

// A plan by its flat index in the PlanSpace, with what the search measured about it.
struct Candidate {
  double score = 0;  // what the ranking minimises (objective, or memory over capacity)
  double step_s = 0;
  double memory_bytes = 0;
  int64_t index = 0;  // the canonical key: ties are broken by it
};

// Total order: score, then step time (so `--objective memory` prefers the faster of two plans
// with one footprint), then index.
inline bool ScoreLess(const Candidate& a, const Candidate& b) {
  if (a.score != b.score) return a.score < b.score;
  return a.step_s != b.step_s ? a.step_s < b.step_s : a.index < b.index;
}

// Keeps the `capacity` smallest candidates by ScoreLess.
class BestN {
 public:
  explicit BestN(size_t capacity) : capacity_(capacity) {}
  void Add(const Candidate& c);
  void Merge(const BestN& other);
  // Sorted best first.
  std::vector<Candidate> Sorted() const;
  size_t size() const { return heap_.size(); }
  bool full() const { return capacity_ > 0 && heap_.size() >= capacity_; }
  // The worst kept candidate (the one a better one replaces); only when size() > 0.
  const Candidate& worst() const { return heap_.front(); }

 private:
  size_t capacity_;
  std::vector<Candidate> heap_;  // max-heap by ScoreLess
};

// Points no other point dominates in (step_s, memory_bytes), ties broken by index: a dominates b
// when a ≤ b in both and (step, memory, index) of a is lexicographically smaller.
class ParetoFront {
 public:
  void Add(const Candidate& c);
  void Merge(const ParetoFront& other);
  // By step time ascending (memory then strictly descending).
  const std::vector<Candidate>& points() const { return points_; }
  // True when some point dominates every plan with step ≥ step_s and memory ≥ memory_bytes
  // (whatever its index): a point with step < step_s and memory ≤ memory_bytes, or step ≤ step_s
  // and memory < memory_bytes.
  bool DominatesAllAbove(double step_s, double memory_bytes) const;

 private:
  std::vector<Candidate> points_;
};

}  // namespace paraplan
