#include "validate/ranking_by_knob.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <tuple>

#include "plan/knob_table.h"

namespace paraplan {

namespace {

using Knobs = PlanKnobItems;

bool IsNumber(const std::string& text, double& value) {
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  return ec == std::errc() && ptr == end;
}

// Whether value `a` sorts before `b`: by number when both are numbers, else by name.
bool Before(const std::string& a, const std::string& b) {
  double x = 0;
  double y = 0;
  if (IsNumber(a, x) && IsNumber(b, y)) return x < y;
  return a < b;
}

// The knob's value, or kUnwritten when PlanString leaves it out (a rarer knob at its default).
std::string Value(const Knobs& knobs, const std::string& name) {
  for (const auto& [key, value] : knobs) {
    if (key == name) return value;
  }
  return kUnwritten;
}

// The one knob two plans differ in ("" when none or several), dp and the batch aside.
std::string OnlyDifference(const Knobs& a, const Knobs& b) {
  const std::string pp = KnobName(Knob::kPp);
  const bool pp_differs = Value(a, pp) != Value(b, pp);
  std::vector<std::string> names;
  for (const Knobs* side : {&a, &b}) {
    for (const auto& [key, value] : *side) {
      if (key == KnobName(Knob::kDp) || key == KnobName(Knob::kGlobalBatch) ||
          key == KnobName(Knob::kSeqLen)) {
        continue;
      }
      if (pp_differs && key.rfind(pp + "_", 0) == 0) continue;
      if (Value(a, key) == Value(b, key)) continue;
      if (std::find(names.begin(), names.end(), key) == names.end()) names.push_back(key);
    }
  }
  return names.size() == 1 ? names.front() : "";
}

}  // namespace

double KnobChange::Agreement() const {
  return Concordance(concordant, tied, ordered);
}

std::vector<KnobChange> RankingByKnob(const RankingReport& report) {
  std::map<std::tuple<std::string, std::string, std::string>, KnobChange> changes;
  std::map<std::tuple<std::string, std::string, std::string>, double> log_sums;
  for (const RankingGroup& g : report.groups) {
    for (size_t i = 0; i < g.runs.size(); ++i) {
      for (size_t j = i + 1; j < g.runs.size(); ++j) {
        const std::string knob = OnlyDifference(g.runs[i].knobs, g.runs[j].knobs);
        if (knob.empty()) continue;
        const RankedRun* from = &g.runs[i];
        const RankedRun* to = &g.runs[j];
        if (Before(Value(to->knobs, knob), Value(from->knobs, knob))) std::swap(from, to);
        const auto key = std::make_tuple(knob, Value(from->knobs, knob), Value(to->knobs, knob));
        KnobChange& c = changes[key];
        c.knob = knob;
        c.from = std::get<1>(key);
        c.to = std::get<2>(key);
        ++c.pairs;
        const double measured = to->measured / from->measured;
        const double predicted = to->predicted / from->predicted;
        log_sums[key] += std::log(predicted / measured);
        if (std::find(c.sources.begin(), c.sources.end(), g.source) == c.sources.end()) {
          c.sources.push_back(g.source);
        }
        const PairOrder order = JudgePair(*from, *to, report.tolerance).order;
        if (order == PairOrder::kWithinTolerance) continue;
        ++c.ordered;
        if (order == PairOrder::kTied) ++c.tied;
        if (order == PairOrder::kConcordant) ++c.concordant;
      }
    }
  }
  std::vector<KnobChange> out;
  for (auto& [key, change] : changes) {
    change.ratio_error_pct =
        (std::exp(log_sums[key] / static_cast<double>(change.pairs)) - 1.0) * 100.0;
    out.push_back(std::move(change));
  }
  std::stable_sort(out.begin(), out.end(), [](const KnobChange& a, const KnobChange& b) {
    if (a.knob != b.knob) return a.knob < b.knob;
    if (a.from != b.from) return Before(a.from, b.from);
    return Before(a.to, b.to);
  });
  return out;
}

}  // namespace paraplan
