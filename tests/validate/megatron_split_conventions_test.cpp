// validate's pipeline split for Megatron-LM and NeMo (recipes) runs that state no layout:
// Megatron-LM's num_layers / pp on every rank (framework_conventions.cpp, MegatronEvenSplit;
// docs/frameworks.md, "Megatron-LM's defaults by version").
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "validate/convention_fixtures.h"
#include "validate/framework_conventions.h"

using namespace paraplan;
using paraplan::testing::Layers;
using paraplan::testing::V;

namespace {

bool Noted(const std::vector<std::string>& notes, const std::string& start) {
  for (const std::string& n : notes) {
    if (n.rfind(start, 0) == 0) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("a Megatron run without a layout splits its layers evenly, as Megatron-LM does",
          "[validate][layout]") {
  const FrameworkProfile* megatron = FindProfile(Framework::kMegatron);
  PlanConstraints c;
  c.pp = V<int64_t>(2);
  std::vector<std::string> notes;
  PlanConstraints out = ApplyFrameworkConventions(megatron, Layers(32), c, &notes);
  REQUIRE(out.layout);
  CHECK(out.layout->even_split);
  CHECK(Noted(notes, "pp_even_split=true (Megatron-LM builds num_layers / pp"));

  SECTION("NeMo's recipes run Megatron-Core's split too") {
    out =
        ApplyFrameworkConventions(FindProfile(Framework::kNemo, "recipes"), Layers(32), c, nullptr);
    REQUIRE(out.layout);
    CHECK(out.layout->even_split);
  }
  SECTION("so does NeMo 1.11 (NeMo Megatron 22.08)") {
    out = ApplyFrameworkConventions(FindProfile(Framework::kNemo, "22.08"), Layers(32), c, nullptr);
    REQUIRE(out.layout);
    CHECK(out.layout->even_split);
  }
  SECTION("a stated layout is kept") {
    c.pp_layers = std::vector<int64_t>{17, 15};
    out = ApplyFrameworkConventions(megatron, Layers(32), c, nullptr);
    CHECK(!out.layout);
    CHECK(*out.pp_layers == std::vector<int64_t>{17, 15});
    c.pp_layers.reset();
    StageLayoutRule first_last;
    first_last.first_stage_layers = 15;
    c.layout = first_last;
    out = ApplyFrameworkConventions(megatron, Layers(32), c, nullptr);
    CHECK_FALSE(out.layout->even_split);
    CHECK(out.layout->first_stage_layers == 15);
  }
  SECTION("pp 1 needs no split") {
    c.pp = V<int64_t>(1);
    out = ApplyFrameworkConventions(megatron, Layers(32), c, nullptr);
    CHECK(!out.layout);
  }
  SECTION("where Megatron-LM refuses the even split, the run gave an unstated flag: balanced") {
    c.pp = V<int64_t>(8);
    c.vpp = V<int64_t>(4);  // Qwen3-235B's 94 layers over 32 virtual stages
    notes.clear();
    out = ApplyFrameworkConventions(megatron, Layers(94), c, &notes);
    CHECK(!out.layout);
    CHECK(Noted(notes, "pp layout balanced (Megatron-LM refuses its even split of 94 layers"));
  }
  SECTION("a searched pp takes the rule: its candidates resolve or are refused one by one") {
    c.pp = std::vector<int64_t>{2, 3};
    out = ApplyFrameworkConventions(megatron, Layers(32), c, nullptr);
    REQUIRE(out.layout);
    CHECK(out.layout->even_split);
  }
  SECTION("other frameworks keep their own split") {
    out = ApplyFrameworkConventions(FindProfile(Framework::kTorchtitan, "9dec370"), Layers(32), c,
                                    nullptr);
    CHECK((!out.layout || !out.layout->even_split));
    CHECK(ApplyFrameworkConventions(nullptr, Layers(32), c, nullptr).layout == std::nullopt);
  }
}
