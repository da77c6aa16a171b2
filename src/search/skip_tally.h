// A search is total: a candidate that breaks a rule (or that a cost stage refuses) is skipped and
// counted, never an abort. SkipTally counts skipped candidates by rule, with the numbers of each
// message generalised ("tp=3 does not divide heads=64" → "tp=N does not divide heads=N") so that
// one rule is one line however many shapes broke it. Merging tallies is order-independent.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace paraplan {

struct SkipReason {
  std::string rule;  // the violation with its numbers replaced by N
  int64_t count = 0;
};

// Replaces every number that is not part of a word (fp8, bf16 stay) with "N".
std::string RuleKey(const std::string& message);

class SkipTally {
 public:
  void Add(const std::string& message) { ++counts_[RuleKey(message)]; }
  // Add for a message whose RuleKey the caller already has.
  void AddKey(const std::string& rule_key) { ++counts_[rule_key]; }
  void Merge(const SkipTally& other);
  int64_t Total() const;
  // Most frequent first; equal counts by rule text.
  std::vector<SkipReason> Sorted() const;

 private:
  std::map<std::string, int64_t> counts_;
};

// "4032 skipped: 3000 × schedule=dualpipe needs ...; 1032 × ..." (the top `limit` reasons).
std::string SkipSummaryLine(const std::vector<SkipReason>& reasons, size_t limit);

}  // namespace paraplan
