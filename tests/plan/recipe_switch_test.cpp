// Every recipe switch of the knob table round-trips through each place that once listed the
// switches by hand: the loader (`--plan` strings and YAML `plan:` mappings, with their errors),
// the plan string, the step-result JSON and docs/formats.md. A switch added to the table cannot be
// forgotten by one of them, and a bool added to a recipe without its row in the table fails here.
#include "plan/recipe_switch.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "config/config_test_util.h"
#include "config/plan_loader.h"
#include "config/resolve.h"
#include "model/model_spec.h"
#include "plan/knob_table.h"
#include "plan/plan_resolve.h"
#include "plan/plan_string.h"
#include "report/step_result_json.h"

namespace paraplan {
namespace {

using Catch::Matchers::Contains;
using testing::ErrorOf;

std::vector<const KnobRow*> Switches() {
  std::vector<const KnobRow*> out;
  for (const KnobRow& row : KnobTable()) {
    if (row.recipe_switch.IsSwitch()) out.push_back(&row);
  }
  return out;
}

std::string ReadRepoFile(const std::string& path) {
  std::ifstream in(std::filesystem::path(PARAPLAN_SOURCE_DIR) / path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The `bool name = ...;` members declared in `struct NAME { ... };` of a header's text.
std::vector<std::string> BoolMembers(const std::string& header, const std::string& name) {
  const size_t begin = header.find("struct " + name + " {");
  const size_t end = header.find("\n};", begin);
  if (begin == std::string::npos || end == std::string::npos) return {};
  const std::string body = header.substr(begin, end - begin);
  const std::regex member(R"(\n\s*bool (\w+) = (true|false);)");
  std::vector<std::string> out;
  for (auto it = std::sregex_iterator(body.begin(), body.end(), member);
       it != std::sregex_iterator(); ++it) {
    out.push_back((*it)[1].str());
  }
  return out;
}

// The plan `text` resolves to on 8 GPUs.
ParallelPlan ResolveRecipe(const std::string& text) {
  ModelSpec model;
  model.layers = 32;
  model.seq_len = 4096;
  return ResolvePlan(ParsePlanString(text), 8, model);
}

// A JSON value as text ("true").
std::string JsonText(const Json& value) {
  std::string text = value.Dump();
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

PlanConstraints FromYaml(const std::string& text) {
  const YamlDocument doc = ParseYamlText(text, "r.yaml");
  return ReadPlanConstraints(YamlMap(doc.Root(), {"plan"}).Required("plan"));
}

TEST_CASE("Every bool of the kernel and memory recipes is a switch in the knob table", "[plan]") {
  struct Recipe {
    const char* header;
    const char* name;
    RecipePart part;
  };
  for (const Recipe& r :
       {Recipe{"src/plan/kernel_recipe.h", "KernelRecipe", RecipePart::kKernels},
        Recipe{"src/plan/memory_recipe.h", "MemoryRecipe", RecipePart::kMemory}}) {
    INFO(r.name);
    const std::vector<std::string> members = BoolMembers(ReadRepoFile(r.header), r.name);
    REQUIRE(members.size() >= 2);
    size_t rows = 0;
    for (const KnobRow* row : Switches()) rows += row->recipe_switch.In(r.part) ? 1 : 0;
    CHECK(rows == members.size());
    for (const std::string& member : members) {
      INFO(member << ": give it a row with KernelSwitch / MemorySwitch in plan/knob_table.cpp");
      const auto rows_named = Switches();
      const auto row = std::find_if(rows_named.begin(), rows_named.end(),
                                    [&](const KnobRow* k) { return k->name == member; });
      REQUIRE(row != rows_named.end());
      CHECK((*row)->recipe_switch.In(r.part));
    }
  }
  // The parser sees through the declarations it should.
  CHECK(BoolMembers("struct X {\n  int a = 0;\n  bool b = true;  // c\n  bool d = false;\n};",
                    "X") == std::vector<std::string>{"b", "d"});
}

TEST_CASE("Every recipe switch round-trips through the loader, the plan string and the JSON",
          "[plan]") {
  const std::vector<const KnobRow*> switches = Switches();
  REQUIRE(switches.size() >= 14);
  const ParallelPlan plain = ResolveRecipe("global_batch=8");
  for (const KnobRow* row : switches) {
    const std::string name(row->name);
    const RecipeSwitch& s = row->recipe_switch;
    INFO(name);
    const bool flipped = !s.Default();
    const std::string text = name + "=" + KnobValueText(flipped);

    // --plan sets exactly this member, and nothing else.
    const ParallelPlan p = ResolveRecipe("global_batch=8," + text);
    ParallelPlan want = plain;
    if (s.kernels != nullptr) {
      want.kernels.*s.kernels = flipped;
    } else {
      want.recipe.*s.memory = flipped;
    }
    CHECK(p.kernels == want.kernels);
    CHECK(p.recipe == want.recipe);
    CHECK(s.Of(p.kernels, p.recipe) == flipped);
    // A YAML `plan:` mapping too.
    const PlanConstraints y = FromYaml("plan: {" + name + ": " + KnobValueText(flipped) + "}\n");
    CHECK(s.Of(y.kernels.value_or(KernelRecipe{}), y.recipe.value_or(MemoryRecipe{})) == flipped);

    // The plan string writes it off its default, and reads back to the same plan.
    const std::string written = PlanString(p, 4096);
    CHECK_THAT(written, Contains(text));
    CHECK(PlanString(ResolveRecipe(written), 4096) == written);
    CHECK(PlanString(plain, 4096).find(name + "=") == std::string::npos);

    // The JSON writes it off its default, with its value; never for the default plan.
    const Json json = PlanToJson(p);  // held while `value` points into it
    const Json* value = json.Find(name);
    REQUIRE(value != nullptr);
    CHECK(JsonText(*value) == KnobValueText(flipped));
    CHECK(PlanToJson(plain).Find(name) == nullptr);

    // Bad values name the knob (and the file, line and column) and list the valid ones.
    CHECK_THAT(ErrorOf([&] { ParsePlanString(name + "=maybe"); }),
               Contains("--plan: " + name + ": 'maybe' is not one of: true, false"));
    CHECK_THAT(ErrorOf([&] { ParsePlanString(name + "=true|false"); }),
               Contains("--plan: " + name + ": takes one value, not alternatives"));
    CHECK_THAT(ErrorOf([&] { FromYaml("plan:\n  " + name + ": maybe\n"); }),
               Contains("r.yaml:2:" + std::to_string(name.size() + 5) + ": plan." + name +
                        ": 'maybe' is not one of: true, false"));
    CHECK_THAT(ErrorOf([&] { FromYaml("plan:\n  " + name + ": [true, false]\n"); }),
               Contains("r.yaml:2:" + std::to_string(name.size() + 5) + ": plan." + name +
                        ": takes one value, not alternatives"));
  }
}

TEST_CASE("The JSON writes each switch as its row's SwitchJson says", "[plan]") {
  // A recipe off its defaults by another member: kAlways rows are written at their default,
  // kChanged rows are not; a MoE switch off its default brings the whole MoE group.
  const ParallelPlan eager = ResolveRecipe("global_batch=8,fusion=eager,cross_entropy_fusion=true");
  const Json plain = PlanToJson(eager);
  const ParallelPlan moe = ResolveRecipe("global_batch=8,moe_deepep=true");
  const Json with_moe = PlanToJson(moe);
  for (const KnobRow* row : Switches()) {
    const std::string name(row->name);
    const RecipeSwitch& s = row->recipe_switch;
    INFO(name);
    if (s.memory != nullptr) {
      CHECK((plain.Find(name) != nullptr) == (s.Of(eager.kernels, eager.recipe) != s.Default()));
      continue;
    }
    CHECK((plain.Find(name) != nullptr) == (s.json == SwitchJson::kAlways));
    const bool moe_written = s.json != SwitchJson::kChanged || s.Of(moe.kernels, moe.recipe);
    CHECK((with_moe.Find(name) != nullptr) == moe_written);
  }
}

TEST_CASE("docs/formats.md documents every recipe switch with its default", "[plan]") {
  const std::string formats = ReadRepoFile("docs/formats.md");
  REQUIRE(!formats.empty());
  for (const KnobRow* row : Switches()) {
    const std::string line = "| `" + std::string(row->name) + "` | bool (default " +
                             KnobValueText(row->recipe_switch.Default());
    INFO(line);
    CHECK(formats.find(line) != std::string::npos);
  }
}

}  // namespace
}  // namespace paraplan
