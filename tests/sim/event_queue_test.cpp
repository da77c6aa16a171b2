#include "sim/event_queue.h"

#include <catch2/catch.hpp>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

using namespace paraplan;

TEST_CASE("EventQueue runs events in time order", "[sim]") {
  EventQueue<int> q;
  q.Schedule(30, 3);
  q.Schedule(10, 1);
  q.Schedule(20, 2);
  std::vector<int> seen;
  std::vector<Nanos> at;
  q.Run([&](int v) {
    seen.push_back(v);
    at.push_back(q.Now());
  });
  CHECK(seen == std::vector<int>{1, 2, 3});
  CHECK(at == std::vector<Nanos>{10, 20, 30});
  CHECK(q.Processed() == 3);
  CHECK(q.Empty());
}

TEST_CASE("EventQueue runs same-time events in scheduling order", "[sim]") {
  EventQueue<int> q;
  for (int i = 0; i < 50; ++i) q.Schedule(7, i);
  q.Schedule(5, -1);
  std::vector<int> seen;
  q.Run([&](int v) {
    seen.push_back(v);
    if (v == 10) q.Schedule(7, 100);  // scheduled later at the same time: runs after the others
  });
  REQUIRE(seen.size() == 52);
  CHECK(seen.front() == -1);
  for (int i = 0; i < 50; ++i) CHECK(seen[i + 1] == i);
  CHECK(seen.back() == 100);
}

TEST_CASE("EventQueue cancels by id and ids stay unique after slot reuse", "[sim]") {
  EventQueue<std::string> q;
  const EventId a = q.Schedule(1, "a");
  const EventId b = q.Schedule(2, "b");
  q.Schedule(3, "c");
  CHECK(q.Cancel(b));
  CHECK_FALSE(q.Cancel(b));  // already cancelled
  CHECK(q.Pending() == 2);
  std::vector<std::string> seen;
  q.RunOne([&](std::string s) { seen.push_back(s); });
  CHECK_FALSE(q.Cancel(a));              // already ran
  const EventId d = q.Schedule(4, "d");  // may reuse a's slot
  CHECK(d.seq != a.seq);
  CHECK_FALSE(q.Cancel(EventId{d.slot, a.seq}));  // a stale id does not cancel d
  q.Run([&](std::string s) { seen.push_back(s); });
  CHECK(seen == std::vector<std::string>{"a", "c", "d"});
}

TEST_CASE("EventQueue refuses events in the past", "[sim]") {
  EventQueue<int> q;
  q.Schedule(10, 0);
  q.RunOne([](int) {});
  CHECK_THROWS_AS(q.Schedule(9, 1), std::logic_error);
  CHECK_NOTHROW(q.ScheduleAfter(0, 1));
}

TEST_CASE("EventQueue with callbacks is deterministic", "[sim]") {
  auto run = [] {
    EventQueue<std::function<void()>> q;
    std::vector<std::pair<Nanos, int>> log;
    // Each event spawns two more at pseudo-random delays, many colliding in time.
    std::function<void(int)> spawn = [&](int depth) {
      log.emplace_back(q.Now(), depth);
      if (depth >= 10) return;
      for (int j = 0; j < 2; ++j) {
        q.ScheduleAfter((depth * 7 + j * 3) % 5, [&, depth] { spawn(depth + 1); });
      }
    };
    q.Schedule(0, [&] { spawn(0); });
    q.Run([](std::function<void()> f) { f(); });
    return log;
  };
  const auto first = run();
  CHECK(first.size() == 2047);
  CHECK(first == run());
}
