#include "search/skip_tally.h"

#include <algorithm>

namespace paraplan {

namespace {

// ASCII, as std::isalpha and std::isdigit are in the "C" locale, which paraplan never leaves;
// without their table lookups (the search generalises ~10^6 messages).
bool IsWordChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool IsDigit(char c) {
  return c >= '0' && c <= '9';
}

}  // namespace

std::string RuleKey(const std::string& message) {
  std::string out(message.size(), '\0');  // never longer than the message
  size_t n = 0;
  for (size_t i = 0; i < message.size();) {
    const char c = message[i];
    if (!IsDigit(c) || (i > 0 && IsWordChar(message[i - 1]))) {
      out[n++] = c;
      ++i;
      continue;
    }
    size_t end = i;
    while (end < message.size() &&
           (IsDigit(message[end]) ||
            (message[end] == '.' && end + 1 < message.size() && IsDigit(message[end + 1])))) {
      ++end;
    }
    out[n++] = 'N';
    i = end;
  }
  out.resize(n);
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
