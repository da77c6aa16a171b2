#include "cli/gpu_count_list.h"

#include <algorithm>
#include <cctype>

#include "core/error.h"

namespace paraplan {

namespace {

[[noreturn]] void Fail(const std::string& text, const std::string& why) {
  throw InputError("-g/--gpus: " + why + ", got '" + text +
                   "' (one count, a list 256,512,1024 or a power-of-two range 256:4096)");
}

int64_t ParseCount(const std::string& item, const std::string& text) {
  if (item.empty() ||
      !std::all_of(item.begin(), item.end(), [](unsigned char c) { return std::isdigit(c); })) {
    Fail(text, "'" + item + "' is not a whole number");
  }
  // More than 9 digits is past the bound whatever the digits (and past int64 at 19).
  const int64_t n = item.size() > 9 ? kMaxGpuCount + 1 : std::stoll(item);
  if (n < 1 || n > kMaxGpuCount) {
    Fail(text, "must be a whole number from 1 to " + std::to_string(kMaxGpuCount));
  }
  return n;
}

std::vector<int64_t> PowersOfTwo(int64_t low, int64_t high, const std::string& text) {
  if (low > high) Fail(text, "the range's start is above its end");
  std::vector<int64_t> counts;
  for (int64_t n = 1; n <= high; n *= 2) {
    if (n >= low) counts.push_back(n);
  }
  if (counts.empty()) Fail(text, "no power of two lies in the range");
  return counts;
}

}  // namespace

std::vector<int64_t> ParseGpuCounts(const std::string& text) {
  std::vector<int64_t> counts;
  const size_t colon = text.find(':');
  if (colon != std::string::npos) {
    counts = PowersOfTwo(ParseCount(text.substr(0, colon), text),
                         ParseCount(text.substr(colon + 1), text), text);
  } else {
    size_t start = 0;
    while (true) {
      const size_t comma = text.find(',', start);
      counts.push_back(ParseCount(text.substr(start, comma - start), text));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  std::vector<int64_t> sorted = counts;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
    Fail(text, "a GPU count is repeated");
  }
  if (counts.size() > kMaxGpuCounts) {
    Fail(text, "at most " + std::to_string(kMaxGpuCounts) + " counts per sweep");
  }
  return counts;
}

}  // namespace paraplan
