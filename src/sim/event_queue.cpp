#include "sim/event_queue.h"

#include <stdexcept>

namespace paraplan {
namespace {

constexpr uint8_t kFree = 0;
constexpr uint8_t kPending = 1;
constexpr uint8_t kCancelled = 2;

// Strict "runs later than": the heap keeps the earliest (time, seq) at the front.
bool Later(const EventOrder::Key& a, const EventOrder::Key& b) {
  return a.time != b.time ? a.time > b.time : a.seq > b.seq;
}

void SiftUp(std::vector<EventOrder::Key>& heap, size_t i) {
  EventOrder::Key key = heap[i];
  while (i > 0) {
    size_t parent = (i - 1) / 2;
    if (!Later(heap[parent], key)) break;
    heap[i] = heap[parent];
    i = parent;
  }
  heap[i] = key;
}

void SiftDown(std::vector<EventOrder::Key>& heap, size_t i) {
  const size_t n = heap.size();
  EventOrder::Key key = heap[i];
  while (true) {
    size_t child = 2 * i + 1;
    if (child >= n) break;
    if (child + 1 < n && Later(heap[child], heap[child + 1])) ++child;
    if (!Later(key, heap[child])) break;
    heap[i] = heap[child];
    i = child;
  }
  heap[i] = key;
}

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
  SiftUp(heap_, heap_.size() - 1);
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
    if (!heap_.empty()) SiftDown(heap_, 0);
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
