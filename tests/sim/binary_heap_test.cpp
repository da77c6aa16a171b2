#include "sim/binary_heap.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

using namespace paraplan;

namespace {

// (time, sequence) keys as the event engine orders them.
struct Key {
  int64_t time = 0;
  uint64_t seq = 0;
};
struct Later {
  bool operator()(const Key& a, const Key& b) const {
    return a.time != b.time ? a.time > b.time : a.seq > b.seq;
  }
};

void Push(std::vector<Key>& heap, Key key) {
  heap.push_back(key);
  HeapSiftUp(heap, heap.size() - 1, key, Later{});
}

Key Pop(std::vector<Key>& heap) {
  const Key top = heap.front();
  const Key last = heap.back();
  heap.pop_back();
  if (!heap.empty()) HeapSiftDown(heap, 0, last, Later{});
  return top;
}

}  // namespace

TEST_CASE("HeapSiftUp and HeapSiftDown pop keys in their order, ties by sequence", "[sim]") {
  std::mt19937_64 rng(34);
  std::uniform_int_distribution<int64_t> time(0, 40);  // many equal times
  std::vector<Key> heap, pushed;
  std::vector<std::pair<int64_t, uint64_t>> popped;
  uint64_t seq = 0;
  for (int round = 0; round < 2000; ++round) {
    // Pushes and pops interleaved, as a simulation does; never a time before the last pop's.
    const int64_t now = popped.empty() ? 0 : popped.back().first;
    if (heap.empty() || rng() % 3 != 0) {
      const Key k{now + time(rng), seq++};
      Push(heap, k);
      pushed.push_back(k);
    } else {
      const Key k = Pop(heap);
      popped.emplace_back(k.time, k.seq);
    }
  }
  while (!heap.empty()) {
    const Key k = Pop(heap);
    popped.emplace_back(k.time, k.seq);
  }
  REQUIRE(popped.size() == pushed.size());
  // Every key came out once, and (time, seq) never went backwards.
  CHECK(std::is_sorted(popped.begin(), popped.end()));
  std::vector<uint64_t> seqs;
  for (const auto& p : popped) seqs.push_back(p.second);
  std::sort(seqs.begin(), seqs.end());
  for (size_t i = 0; i < seqs.size(); ++i) CHECK(seqs[i] == i);
}

TEST_CASE("HeapSiftDown fills a hole at the root with a new key", "[sim]") {
  // The pipeline runner's move: the popped root's place taken by the next key pushed.
  std::vector<Key> heap;
  for (uint64_t i = 0; i < 7; ++i) Push(heap, Key{static_cast<int64_t>(10 * (i + 1)), i});
  REQUIRE(heap.front().time == 10);
  HeapSiftDown(heap, 0, Key{45, 7}, Later{});  // replaces the root (10)
  std::vector<int64_t> order;
  while (!heap.empty()) order.push_back(Pop(heap).time);
  CHECK(order == std::vector<int64_t>{20, 30, 40, 45, 50, 60, 70});
}
