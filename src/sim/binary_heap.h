// The binary heap's two moves, used by the event engine's queue (EventOrder, event_queue.cpp; the
// pipeline runner's own queue used them too until stop 44): a key sifted up from a leaf or down
// from a place in a std::vector kept as an implicit binary tree (children of i at 2i + 1 and 2i +
// 2), with the earliest key at the front. `later(a, b)` is a strict "a comes out after b"; keys
// that compare equal both ways keep no particular order, so a caller that needs a total order (the
// engine's (time, sequence number)) puts it in `later`. Both moves copy the key to place first (it
// may be an element of the heap) and write it once, where it lands (a hole moves instead of
// swapping); O(log n) comparisons. Always inlined: the queue sits on the event engine's hottest
// loop, and GCC otherwise keeps a called copy where the queue's own members were inlined.
#pragma once

#include <cstddef>
#include <vector>

namespace paraplan {

// Places `key` at position `i` (a leaf, or a hole left there), moving it up past every parent
// that comes out after it.
template <typename Key, typename Later>
[[gnu::always_inline]] inline void HeapSiftUp(std::vector<Key>& heap, size_t i, const Key& to_place,
                                              Later later) {
  const Key key = to_place;  // it may be an element of `heap`
  while (i > 0) {
    const size_t parent = (i - 1) / 2;
    if (!later(heap[parent], key)) break;
    heap[i] = heap[parent];
    i = parent;
  }
  heap[i] = key;
}

// Places `key` at position `i` (typically the root, after a pop), moving it down past the
// earlier of its children while that child comes out before it. Reads heap.size() elements.
template <typename Key, typename Later>
[[gnu::always_inline]] inline void HeapSiftDown(std::vector<Key>& heap, size_t i,
                                                const Key& to_place, Later later) {
  const Key key = to_place;  // it may be an element of `heap`
  const size_t n = heap.size();
  while (true) {
    size_t child = 2 * i + 1;
    if (child >= n) break;
    if (child + 1 < n && later(heap[child], heap[child + 1])) ++child;
    if (!later(key, heap[child])) break;
    heap[i] = heap[child];
    i = child;
  }
  heap[i] = key;
}

}  // namespace paraplan
