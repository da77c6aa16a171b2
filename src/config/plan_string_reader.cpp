// The `--plan` string form of the plan knobs (ParsePlanString, config/resolve.h): knob=value pairs
// separated by commas, alternatives by `|`, quotes keeping a value's own separators.
#include <string>
#include <utility>
#include <vector>

#include "config/knob_aliases.h"
#include "config/plan_loader.h"
#include "config/resolve.h"

namespace paraplan {
namespace {

// Splits on `separator` outside single quotes (pp_layout='Et|tL' keeps its '|' and ','); the
// quotes themselves are dropped, as are spaces and tabs.
std::vector<std::string> SplitOn(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string current;
  bool quoted = false;
  for (char c : text + std::string(1, separator)) {
    if (c == '\'') {
      quoted = !quoted;
      current += c;
    } else if (c == separator && !quoted) {
      parts.push_back(current);
      current.clear();
    } else if (c != ' ' && c != '\t') {
      current += c;
    }
  }
  if (quoted) throw InputError(SourceLocation{"--plan", 0, 0}, "plan", "unbalanced ' quote");
  return parts;
}

std::string Unquote(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c != '\'') out += c;
  }
  return out;
}

}  // namespace

PlanConstraints ParsePlanString(const std::string& text) {
  CheckKnobSeparators(text);
  PlanConstraints plan;
  std::vector<std::pair<std::string, std::string>> seen;  // knob, as written
  for (const std::string& item : SplitOn(text, ',')) {
    if (item.empty()) continue;
    const size_t equals = item.find('=');
    const std::string knob = item.substr(0, equals);
    const SourceLocation where{"--plan", 0, 0};
    if (equals == std::string::npos || equals == 0 || equals + 1 == item.size()) {
      throw InputError(where, knob,
                       "expected knob=value (e.g. tp=8 or tp=4|8), got '" + item + "'");
    }
    const std::string canonical = CanonicalKnob(knob);
    for (const auto& [s, written] : seen) {
      if (s != canonical) continue;
      if (written == knob) throw InputError(where, knob, "given twice");
      throw InputError(where, knob, AliasClash(knob, canonical, written));
    }
    seen.emplace_back(canonical, knob);
    std::vector<std::string> values = SplitOn(item.substr(equals + 1), '|');
    for (std::string& v : values) {
      v = Unquote(v);
      if (v.empty()) throw InputError(where, knob, "empty alternative in '" + item + "'");
    }
    try {
      SetPlanKnob(plan, knob, values);
    } catch (const InputError& e) {
      throw InputError(where, knob, e.message());
    }
  }
  return plan;
}

}  // namespace paraplan
