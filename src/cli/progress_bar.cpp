#include "cli/progress_bar.h"

#include <cmath>

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

}  // namespace

std::string ProgressLine(int64_t done, int64_t total, double elapsed_s) {
  const int percent = total > 0 ? static_cast<int>(100 * done / total) : 100;
  const int filled = percent * kWidth / 100;
  std::string line = "[" + std::string(static_cast<size_t>(filled), '#') +
                     std::string(static_cast<size_t>(kWidth - filled), '.') + "] ";
  line += (percent < 10    ? "  "
           : percent < 100 ? " "
                           : "") +
          std::to_string(percent) + " % of " + GroupThousands(total) + " plans";
  if (done > 0 && done < total && elapsed_s > 0) {
    const double remaining =
        elapsed_s * static_cast<double>(total - done) / static_cast<double>(done);
    line += ", ETA " + Duration(remaining);
  }
  return line;
}

void ProgressBar::Update(int64_t done, int64_t total) {
  if (!enabled_ || total <= 0) return;
  const double elapsed_s = std::chrono::duration<double>(Clock::now() - start_).count();
  if (elapsed_s < 1.0) return;
  const int percent = static_cast<int>(100 * done / total);
  if (percent == last_percent_) return;
  last_percent_ = percent;
  std::fprintf(stream_, "\r%s\033[K", ProgressLine(done, total, elapsed_s).c_str());
  std::fflush(stream_);
  drawn_ = true;
}

void ProgressBar::Finish() {
  if (drawn_) std::fprintf(stream_, "\r\033[K");
  drawn_ = false;
}

}  // namespace paraplan
