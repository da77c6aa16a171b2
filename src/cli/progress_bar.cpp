#include "cli/progress_bar.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>

#include "cli/command.h"
#include "core/text_table.h"

namespace paraplan {

namespace {

constexpr int kWidth = 30;

std::string Duration(double seconds) {
  const auto s = static_cast<int64_t>(std::ceil(seconds));
  if (s < 60) return std::to_string(s) + " s";
  if (s < 3600) return std::to_string(s / 60) + " min " + std::to_string(s % 60) + " s";
  return std::to_string(s / 3600) + " h " + std::to_string(s % 3600 / 60) + " min";
}

int Percent(double share) {
  return static_cast<int>(std::floor(100 * std::clamp(share, 0.0, 1.0) + 1e-9));
}

// PARAPLAN_PROGRESS_DELAY_S: seconds before the bar appears (default 1; tests set 0).
double DelayFromEnvironment() {
  const char* text = std::getenv("PARAPLAN_PROGRESS_DELAY_S");
  if (text == nullptr || *text == '\0') return 1.0;
  char* end = nullptr;
  const double v = std::strtod(text, &end);
  return end != text && *end == '\0' && std::isfinite(v) && v >= 0 ? v : 1.0;
}

}  // namespace

std::string ProgressLine(double share, int64_t total, const std::string& unit, double elapsed_s) {
  share = std::clamp(share, 0.0, 1.0);
  const int percent = Percent(share);
  const int filled = percent * kWidth / 100;
  std::string line = "[" + std::string(static_cast<size_t>(filled), '#') +
                     std::string(static_cast<size_t>(kWidth - filled), '.') + "] ";
  line += (percent < 10    ? "  "
           : percent < 100 ? " "
                           : "") +
          std::to_string(percent) + " % of " + GroupThousands(total) + " " + unit;
  if (share > 0 && share < 1 && elapsed_s > 0) {
    line += ", ETA " + Duration(elapsed_s * (1 - share) / share);
  }
  return line;
}

void ProgressBar::Update(int64_t done, int64_t total) {
  if (total <= 0) return;
  UpdateShare(static_cast<double>(done) / static_cast<double>(total), total);
}

void ProgressBar::UpdateShare(double share, int64_t total) {
  if (!enabled_ || total <= 0) return;
  const double elapsed_s = std::chrono::duration<double>(Clock::now() - start_).count();
  if (elapsed_s < delay_s_) return;
  const int percent = Percent(share);
  if (percent == last_percent_) return;
  last_percent_ = percent;
  std::fprintf(stream_, "\r%s\033[K", ProgressLine(share, total, unit_, elapsed_s).c_str());
  std::fflush(stream_);
  drawn_ = true;
}

void ProgressBar::Finish() {
  if (drawn_) {
    std::fprintf(stream_, "\r\033[K");
    std::fflush(stream_);
  }
  drawn_ = false;
}

ProgressBar StderrProgressBar(const CliContext& ctx, std::string unit) {
  const bool enabled = !ctx.quiet && ctx.err == &std::cerr && isatty(STDERR_FILENO) != 0;
  return ProgressBar(stderr, enabled, std::move(unit), DelayFromEnvironment());
}

}  // namespace paraplan
