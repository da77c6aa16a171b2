#include "plan/knob_table.h"

#include <catch2/catch.hpp>
#include <exception>
#include <map>
#include <set>
#include <string>

#include "config/resolve.h"

using namespace paraplan;

TEST_CASE("the knob table lists each knob once, in Knob order, by a distinct name", "[plan]") {
  std::set<std::string> names;
  for (size_t i = 0; i < kKnobs; ++i) {
    const KnobRow& row = KnobTable()[i];
    CHECK(static_cast<size_t>(row.knob) == i);
    CHECK(!row.name.empty());
    CHECK(names.insert(std::string(row.name)).second);
    CHECK(std::string(KnobName(row.knob)) == std::string(row.name));
  }
  CHECK(names.size() == kKnobs);
  CHECK(std::string(KnobName(Knob::kMoeRouting)) == "moe_routing");
  CHECK(KnobReadBy(Knob::kMoeRouting, kReadByRules));  // under moe_pad_to_capacity
  CHECK(!KnobReadBy(Knob::kRecompute, kReadByRules));
  CHECK(KnobReadBy(Knob::kRecompute, kReadByLayerCost | kReadByMemory));
}

TEST_CASE("every knob name the table holds is one --plan accepts", "[plan]") {
  // Every knob of the table parses under its table name (the parser's own list, its aliases
  // aside, agrees with the table).
  const std::map<std::string, std::string> values = {
      {"placement", "tp-cp-ep-dp-pp"},
      {"recompute", "selective"},
      {"precision", "bf16"},
      {"schedule", "1f1b"},
      {"moe_routing", "drop"},
      {"dp_comm_dtype", "bf16"},
      {"pp_layers", "4/4"},
      {"pp_layout", "'Et|tL'"},
      {"pp_split_points", "4"},
      {"recompute_modules", "core_attn"},
      {"optimizer_moments", "fp32"},
      {"moe_probs", "output"},
      {"ema", "none"},
      {"fusion", "te"},
  };
  for (const KnobRow& row : KnobTable()) {
    const std::string name(row.name);
    std::string value = "1";
    if (values.count(name) != 0) value = values.at(name);
    INFO(name << "=" << value);
    bool parsed = true;
    try {
      ParsePlanString("global_batch=8," + name + "=" + value);
    } catch (const std::exception& e) {
      // A value the knob refuses is fine here; an unknown knob is not.
      parsed = std::string(e.what()).find("unknown plan knob") == std::string::npos;
    }
    CHECK(parsed);
  }
}
