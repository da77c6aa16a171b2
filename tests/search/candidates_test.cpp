#include "search/candidates.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <random>

namespace paraplan {
namespace {

std::vector<Candidate> RandomCandidates(unsigned seed, int n) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> small(0, 20);  // coarse values: many ties
  std::vector<Candidate> out;
  for (int i = 0; i < n; ++i) {
    const double step = small(rng);
    const double memory = small(rng);
    out.push_back({step + memory, step, memory, i});
  }
  std::shuffle(out.begin(), out.end(), rng);
  return out;
}

TEST_CASE("BestN keeps the smallest by score then index, in any arrival order", "[search]") {
  const auto all = RandomCandidates(1, 500);
  BestN a(17), b(17), c(17);
  for (size_t i = 0; i < all.size(); ++i) {
    a.Add(all[i]);
    (i % 3 == 0 ? b : c).Add(all[i]);
  }
  b.Merge(c);
  auto sorted = all;
  std::sort(sorted.begin(), sorted.end(), ScoreLess);
  sorted.resize(17);
  for (const BestN* keeper : {&a, &b}) {
    const auto got = keeper->Sorted();
    REQUIRE(got.size() == 17);
    for (size_t i = 0; i < got.size(); ++i) CHECK(got[i].index == sorted[i].index);
  }
}

TEST_CASE("ParetoFront equals the brute-force non-dominated set", "[search]") {
  for (unsigned seed = 0; seed < 5; ++seed) {
    const auto all = RandomCandidates(seed, 400);
    ParetoFront whole, left, right;
    for (size_t i = 0; i < all.size(); ++i) {
      whole.Add(all[i]);
      (i % 2 == 0 ? left : right).Add(all[i]);
    }
    left.Merge(right);
    std::vector<int64_t> expected;
    for (const Candidate& x : all) {
      bool dominated = false;
      for (const Candidate& y : all) {
        const bool le = y.step_s <= x.step_s && y.memory_bytes <= x.memory_bytes;
        const bool better =
            y.step_s < x.step_s || y.memory_bytes < x.memory_bytes || y.index < x.index;
        dominated = dominated || (y.index != x.index && le && better);
      }
      if (!dominated) expected.push_back(x.index);
    }
    std::sort(expected.begin(), expected.end());
    for (const ParetoFront* f : {&whole, &left}) {
      std::vector<int64_t> got;
      for (const Candidate& p : f->points()) got.push_back(p.index);
      std::sort(got.begin(), got.end());
      CHECK(got == expected);
    }
  }
}

}  // namespace
}  // namespace paraplan
