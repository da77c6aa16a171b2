#include "config/knob_setters.h"

#include <catch2/catch.hpp>
#include <set>
#include <string>

namespace paraplan {
namespace {

TEST_CASE("knob setters: every knob of the table once, its switches from the table", "[config]") {
  std::set<std::string> table, setters;
  for (const KnobRow& row : KnobTable()) table.emplace(row.name);
  for (const KnobSetter& s : KnobSetters()) {
    INFO(s.name);
    CHECK(setters.emplace(s.name).second);  // once
    // A recipe switch is set through its row; every other knob by its own setter.
    CHECK((s.row != nullptr) != (s.set != nullptr));
    if (s.row != nullptr) {
      CHECK(s.row->recipe_switch.IsSwitch());
      CHECK(s.row->name == s.name);
    }
  }
  CHECK(setters == table);
}

TEST_CASE("knob setters: a switch sets its member in its recipe and nothing else", "[config]") {
  for (const KnobSetter& s : KnobSetters()) {
    if (s.row == nullptr) continue;
    INFO(s.name);
    const RecipeSwitch& sw = s.row->recipe_switch;
    PlanConstraints plan;
    SetKnob(s, plan, {sw.Default() ? "false" : "true"});
    CHECK(plan.kernels.has_value() == (sw.kernels != nullptr));
    CHECK(plan.recipe.has_value() == (sw.memory != nullptr));
    CHECK(sw.Of(plan.kernels.value_or(KernelRecipe{}), plan.recipe.value_or(MemoryRecipe{})) ==
          !sw.Default());
  }
}

}  // namespace
}  // namespace paraplan
