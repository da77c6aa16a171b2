#include "search/skip_tally.h"

#include <algorithm>
#include <cctype>

namespace paraplan {

namespace {

bool IsWordChar(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_';
}

bool IsDigit(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

}  // namespace

std::string RuleKey(const std::string& message) {
  std::string out;
  out.reserve(message.size());
  for (size_t i = 0; i < message.size();) {
    const char c = message[i];
    if (!IsDigit(c) || (i > 0 && IsWordChar(message[i - 1]))) {
      out += c;
      ++i;
      continue;
    }
    size_t end = i;
    while (end < message.size() &&
           (IsDigit(message[end]) ||
            (message[end] == '.' && end + 1 < message.size() && IsDigit(message[end + 1])))) {
      ++end;
    }
    out += 'N';
    i = end;
  }
  return out;
}

void SkipTally::Merge(const SkipTally& other) {
  for (const auto& [rule, count] : other.counts_) counts_[rule] += count;
}

int64_t SkipTally::Total() const {
  int64_t total = 0;
  for (const auto& entry : counts_) total += entry.second;
  return total;
}

std::vector<SkipReason> SkipTally::Sorted() const {
  std::vector<SkipReason> out;
  out.reserve(counts_.size());
  for (const auto& [rule, count] : counts_) out.push_back({rule, count});
  std::stable_sort(out.begin(), out.end(), [](const SkipReason& a, const SkipReason& b) {
    return a.count > b.count;  // map order (by rule) breaks ties
  });
  return out;
}

std::string SkipSummaryLine(const std::vector<SkipReason>& reasons, size_t limit) {
  int64_t total = 0;
  for (const SkipReason& r : reasons) total += r.count;
  std::string text = std::to_string(total) + " skipped for breaking a rule";
  for (size_t i = 0; i < reasons.size() && i < limit; ++i) {
    text += (i == 0 ? ": " : "; ") + std::to_string(reasons[i].count) + " x " + reasons[i].rule;
  }
  if (reasons.size() > limit) {
    text += "; and " + std::to_string(reasons.size() - limit) + " more rules (--format json)";
  }
  return text;
}

}  // namespace paraplan
