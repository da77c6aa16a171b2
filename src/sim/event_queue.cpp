#include "sim/event_queue.h"

#include <stdexcept>

#include "sim/binary_heap.h"

namespace paraplan {
namespace {

constexpr uint8_t kFree = 0;
constexpr uint8_t kPending = 1;
constexpr uint8_t kCancelled = 2;

// Strict "runs later than": the heap keeps the earliest (time, seq) at the front. A function
// object, so that the heap's moves (binary_heap.h) inline it.
struct Later {
  bool operator()(const EventOrder::Key& a, const EventOrder::Key& b) const {
    return a.time != b.time ? a.time > b.time : a.seq > b.seq;
  }
};

}  // namespace

EventId EventOrder::Push(Nanos time) {
  if (time < now_) throw std::logic_error("event scheduled in the past");
  uint32_t slot;
  if (free_slots_.empty()) {
    slot = static_cast<uint32_t>(slot_seq_.size());
    slot_seq_.push_back(0);
    slot_state_.push_back(kFree);
  } else {
    slot = free_slots_.back();
    free_slots_.pop_back();
  }
  const uint64_t seq = next_seq_++;
  slot_seq_[slot] = seq;
  slot_state_[slot] = kPending;
  heap_.push_back(Key{time, seq, slot});
  HeapSiftUp(heap_, heap_.size() - 1, heap_.back(), Later{});
  ++live_;
  return EventId{slot, seq};
}

bool EventOrder::Cancel(EventId id) {
  if (id.slot >= slot_seq_.size() || slot_seq_[id.slot] != id.seq) return false;
  if (slot_state_[id.slot] != kPending) return false;
  slot_state_[id.slot] = kCancelled;  // the key stays in the heap and is skipped when popped
  --live_;
  return true;
}

bool EventOrder::Pop(Key* key) {
  while (!heap_.empty()) {
    const Key top = heap_.front();
    heap_.front() = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) HeapSiftDown(heap_, 0, heap_.front(), Later{});
    const bool live = slot_state_[top.slot] == kPending;
    slot_state_[top.slot] = kFree;
    free_slots_.push_back(top.slot);
    if (!live) continue;
    --live_;
    now_ = top.time;
    ++processed_;
    *key = top;
    return true;
  }
  return false;
}

}  // namespace paraplan
