#include "config/plan_loader.h"

#include "config/knob_aliases.h"
#include "config/knob_setters.h"
#include "core/strings.h"

namespace paraplan {

std::vector<std::string> PlanKnobNames() {
  std::vector<std::string> names;
  for (const KnobSetter& knob : KnobSetters()) names.emplace_back(knob.name);
  return names;
}

std::string CanonicalKnob(const std::string& name) {
  for (const KnobSetter& entry : KnobSetters()) {
    if (name == entry.name) return name;
  }
  const std::string knob = KnobForAcceptedAlias(name);
  return knob.empty() ? name : knob;
}

std::string AliasClash(const std::string& written, const std::string& knob,
                       const std::string& before) {
  std::string text = "'";
  text += written;
  text += "' sets ";
  text += knob;
  text += ", as '";
  text += before;
  text += "' does: give it once";
  return text;
}

void SetPlanKnob(PlanConstraints& plan, const std::string& name,
                 const std::vector<std::string>& values) {
  const std::string knob = CanonicalKnob(name);
  for (const KnobSetter& entry : KnobSetters()) {
    if (knob != entry.name) continue;
    if (values.empty()) throw InputError("needs at least one value");
    SetKnob(entry, plan, values);
    return;
  }
  std::string message = "unknown plan knob '" + knob + "'";
  const std::string alias = KnobForAlias(knob);
  const std::string close = alias.empty() ? ClosestMatch(knob, PlanKnobNames()) : alias;
  if (!close.empty()) message += " (did you mean '" + close + "'?)";
  throw InputError(message + "; valid knobs: " + Join(PlanKnobNames()));
}

PlanConstraints ReadPlanConstraints(const YamlNode& node) {
  std::vector<std::string> allowed = PlanKnobNames();
  for (const std::string& alias : AcceptedAliasNames()) allowed.push_back(alias);
  const YamlMap checked(node, allowed);  // rejects unknown knobs
  PlanConstraints plan;
  std::vector<std::pair<std::string, std::string>> seen;  // knob, as written
  // A YAML list of these is one split, not alternatives.
  const std::string layers = KnobName(Knob::kPpLayers), points = KnobName(Knob::kPpSplitPoints);
  for (const auto& [knob, value] : MapEntries(node)) {
    const std::string canonical = CanonicalKnob(knob);
    for (const auto& [s, written] : seen) {
      if (s == canonical) value.Fail(AliasClash(knob, canonical, written));
    }
    seen.emplace_back(canonical, knob);
    std::vector<std::string> values;
    if (value.IsSequence()) {
      std::string split;
      for (const YamlNode& item : value.Elements()) {
        if (knob == layers) {
          split += (split.empty() ? "" : "/") + std::to_string(item.AsNonNegativeInt());
        } else if (knob == points) {
          split += (split.empty() ? "" : "/") + item.AsString();
        } else {
          values.push_back(item.AsString());
        }
      }
      if (knob == layers || knob == points) values.push_back(split);
    } else {
      values.push_back(value.AsString());
    }
    try {
      SetPlanKnob(plan, knob, values);
    } catch (const InputError& e) {
      value.Fail(e.message());
    }
  }
  return plan;
}

}  // namespace paraplan
