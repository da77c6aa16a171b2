// Discrete-event engine: an integer-nanosecond clock and a queue of typed events ordered by
// (time, sequence number), so that events at the same time run in the order they were scheduled
// and every run repeats exactly (the ns-3 design, without its global simulator).
//
// EventOrder (event_queue.cpp) keeps the ordering, the ids and the cancel flags; EventQueue<P>
// adds the payloads. A payload is any movable type: a small struct that a handler dispatches on
// (no allocation per event), or a std::function<void()>. The pipeline runner
// (sim/pipeline_run.cpp) needs no queue: its times are fixed by each task's stage order and
// producer, so it walks the stages as their inputs arrive and gets the times this engine's run
// gives (tests/sim/pipeline_run_test.cpp runs both).
// Cost: Schedule and the pop in RunOne are O(log n) in the number of pending events.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "sim/pipeline_input.h"

namespace paraplan {

// Names one scheduled event; stays unique for the lifetime of its queue.
struct EventId {
  uint32_t slot = 0;
  uint64_t seq = 0;
};

// The ordering half of the engine: a binary heap of (time, seq, slot) keys and per-slot state.
class EventOrder {
 public:
  struct Key {
    Nanos time = 0;
    uint64_t seq = 0;
    uint32_t slot = 0;
  };

  // Reserves a slot for an event at `time` (>= Now(), else std::logic_error).
  EventId Push(Nanos time);
  // Marks a pending event cancelled; false when it already ran, was cancelled or never existed.
  bool Cancel(EventId id);
  // Pops the earliest live event, advances the clock to it and frees its slot (the caller reads
  // the payload of `key->slot` before the next Push). False when nothing is pending.
  bool Pop(Key* key);

  Nanos Now() const { return now_; }
  int64_t Processed() const { return processed_; }
  int64_t Pending() const { return live_; }

 private:
  std::vector<Key> heap_;
  std::vector<uint64_t> slot_seq_;   // seq of the event holding each slot
  std::vector<uint8_t> slot_state_;  // 0 free, 1 pending, 2 cancelled
  std::vector<uint32_t> free_slots_;
  uint64_t next_seq_ = 0;
  Nanos now_ = 0;
  int64_t processed_ = 0;
  int64_t live_ = 0;
};

template <typename Payload>
class EventQueue {
 public:
  EventId Schedule(Nanos time, Payload payload) {
    EventId id = order_.Push(time);
    if (id.slot == payloads_.size()) {
      payloads_.push_back(std::move(payload));
    } else {
      payloads_[id.slot] = std::move(payload);
    }
    return id;
  }
  EventId ScheduleAfter(Nanos delay, Payload payload) {
    return Schedule(order_.Now() + delay, std::move(payload));
  }
  bool Cancel(EventId id) { return order_.Cancel(id); }

  // Runs the earliest pending event: handler(Payload&&) with Now() at the event's time. The
  // handler may schedule and cancel events. False when nothing was pending.
  template <typename Handler>
  bool RunOne(Handler&& handler) {
    EventOrder::Key key;
    if (!order_.Pop(&key)) return false;
    Payload payload = std::move(payloads_[key.slot]);
    handler(std::move(payload));
    return true;
  }
  // Runs events until none is pending; returns how many ran.
  template <typename Handler>
  int64_t Run(Handler&& handler) {
    int64_t ran = 0;
    while (RunOne(handler)) ++ran;
    return ran;
  }

  Nanos Now() const { return order_.Now(); }
  int64_t Processed() const { return order_.Processed(); }
  int64_t Pending() const { return order_.Pending(); }
  bool Empty() const { return order_.Pending() == 0; }

 private:
  EventOrder order_;
  std::vector<Payload> payloads_;
};

}  // namespace paraplan
