// PRIVATE to src/config: one plan knob's value from its text, as `--plan` strings and YAML `plan:`
// mappings give it ("8", "true", "selective", "15/16/16/15", "tp-cp-ep-dp-pp"). Each parser throws
// InputError with the message only (no location): the caller knows the knob and where it was.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "config/yaml_reader.h"
#include "core/error.h"
#include "plan/knob_bounds.h"
#include "plan/parallel_plan.h"

namespace paraplan {

// A count in [min_value, kMaxKnobCount] (plan/knob_bounds.h).
int64_t ParseInt(const std::string& text, int64_t min_value);

// A finite number above min_value (or at it when `inclusive`) and at most max_value.
double ParseNumber(const std::string& text, double min_value, bool inclusive,
                   double max_value = kMaxKnobNumber);

// One of a name table's names (an enum's, or true/false); the error lists them.
template <typename T>
T ParseEnum(const std::string& text, const std::vector<std::pair<const char*, T>>& table) {
  std::vector<std::string> names;
  for (const auto& [name, value] : table) {
    if (text == name) return value;
    names.emplace_back(name);
  }
  throw InputError(YamlNode::EnumMessage(text, names));
}

bool ParseBool(const std::string& text);

// Every alternative of a searchable knob ({"4", "8"}) through `parse`.
template <typename T, typename F>
std::vector<T> Each(const std::vector<std::string>& values, F parse) {
  std::vector<T> out;
  out.reserve(values.size());
  for (const std::string& v : values) out.push_back(parse(v));
  return out;
}

std::vector<int64_t> Ints(const std::vector<std::string>& values, int64_t min_value);

// The single value of a knob that takes no alternatives.
std::string OneValue(const std::vector<std::string>& values);

// "tp-cp-ep-dp-pp": every dimension once, innermost first.
std::array<ParallelDim, 5> ParsePlacement(const std::string& text);

// "15/16/16/15"; an entry may repeat as N*k ("7/8*14/7"). 0 is allowed (a virtual stage that
// holds only the embedding, the loss or the MTP modules); plan/stage_layout.cpp checks where.
std::vector<int64_t> ParseLayerSplit(const std::vector<std::string>& values);

// Megatron-LM's --recompute-modules as one value, names joined by '+' ("core_attn+moe_act").
uint32_t ParseRecomputeModules(const std::string& text);

}  // namespace paraplan
