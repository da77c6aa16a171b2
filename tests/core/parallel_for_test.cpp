#include <atomic>
#include <catch2/catch.hpp>
#include <stdexcept>
#include <vector>

#include "core/thread_pool.h"

using namespace paraplan;

TEST_CASE("ParallelFor runs every index exactly once", "[validate]") {
  for (int threads : {0, 1, 3, 16}) {
    std::vector<std::atomic<int>> hits(100);
    ParallelFor(hits.size(), threads, [&](size_t i) { ++hits[i]; });
    for (const auto& h : hits) CHECK(h.load() == 1);
  }
  ParallelFor(0, 4, [](size_t) { FAIL("called for an empty range"); });
}

TEST_CASE("ParallelFor rethrows the first exception", "[validate]") {
  CHECK_THROWS_AS(ParallelFor(50, 4,
                              [](size_t i) {
                                if (i == 17) throw std::runtime_error("boom");
                              }),
                  std::runtime_error);
}
