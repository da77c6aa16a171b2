// The search's progress on stderr: a one-line bar with the share done, the plans per second and
// an ETA, drawn only on a terminal (never when stderr is piped or a file, never with --quiet),
// and only once the search has run for more than a second; erased when the search ends.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace paraplan {

class ProgressBar {
 public:
  // `stream` is where the bar goes (stderr); enabled = a terminal and not --quiet.
  ProgressBar(std::FILE* stream, bool enabled) : stream_(stream), enabled_(enabled) {}
  ~ProgressBar() { Finish(); }
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  void Update(int64_t done, int64_t total);
  void Finish();

 private:
  using Clock = std::chrono::steady_clock;
  std::FILE* stream_;
  bool enabled_;
  bool drawn_ = false;
  int last_percent_ = -1;
  Clock::time_point start_ = Clock::now();
};

// "[#########.....................]  30 % of 1,234,567 plans, ETA 12 s" (the line the bar draws).
std::string ProgressLine(int64_t done, int64_t total, double elapsed_s);

}  // namespace paraplan
