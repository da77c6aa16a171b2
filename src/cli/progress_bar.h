// Progress of a long command on stderr: a one-line bar with the share done, what is counted
// ("plans", "points", "source folds", "GPU counts") and an ETA, drawn only on a terminal (never
// when stderr is piped or a file, never with --quiet), and only once the work has run for more
// than a second (PARAPLAN_PROGRESS_DELAY_S, docs/cli.md); erased when the work ends. It never
// writes to stdout, so results stay the same with or without it.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>

namespace paraplan {

struct CliContext;

class ProgressBar {
 public:
  // `stream` is where the bar goes (stderr); enabled = a terminal and not --quiet; `unit` names
  // what `total` counts; nothing is drawn before `delay_s` have passed.
  ProgressBar(std::FILE* stream, bool enabled, std::string unit = "plans", double delay_s = 1.0)
      : stream_(stream), enabled_(enabled), unit_(std::move(unit)), delay_s_(delay_s) {}
  ~ProgressBar() { Finish(); }
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  // `done` of `total` units.
  void Update(int64_t done, int64_t total);
  // A share in [0, 1] of `total` units (a sweep: counts finished plus the running one's share).
  void UpdateShare(double share, int64_t total);
  void Finish();

 private:
  using Clock = std::chrono::steady_clock;
  std::FILE* stream_;
  bool enabled_;
  std::string unit_;
  double delay_s_;
  bool drawn_ = false;
  int last_percent_ = -1;
  Clock::time_point start_ = Clock::now();
};

// The bar a command draws on stderr: enabled when ctx writes to the process's stderr, that is a
// terminal and --quiet is off; the delay from PARAPLAN_PROGRESS_DELAY_S when set (seconds).
ProgressBar StderrProgressBar(const CliContext& ctx, std::string unit);

// "[#########.....................]  30 % of 1,234,567 plans, ETA 12 s" (the line the bar draws).
std::string ProgressLine(double share, int64_t total, const std::string& unit, double elapsed_s);

}  // namespace paraplan
