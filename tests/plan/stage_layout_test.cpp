#include "plan/stage_layout.h"

#include <catch2/catch.hpp>
#include <vector>

#include "config/megatron_layout.h"

using namespace paraplan;
using Catch::Matchers::Contains;

namespace {

ParallelPlan Pipeline(int64_t pp, int64_t vpp) {
  ParallelPlan p;
  p.pp = pp;
  p.vpp = vpp;
  return p;
}

std::vector<int64_t> Resolve(int64_t layers, const ParallelPlan& p, std::string* error = nullptr) {
  std::vector<int64_t> out;
  const std::string e = ResolveVirtualLayers(layers, 0, p, &out);
  if (error) *error = e;
  return out;
}

}  // namespace

TEST_CASE("an automatic layout resolves to nothing", "[plan][layout]") {
  std::string error;
  CHECK(Resolve(126, Pipeline(16, 8), &error).empty());
  CHECK(error.empty());
  CHECK_FALSE(HasFixedLayout(Pipeline(16, 8)));
}

TEST_CASE("pp_layers per stage or per virtual stage", "[plan][layout]") {
  ParallelPlan p = Pipeline(4, 1);
  p.pp_layers = {15, 16, 16, 15};
  CHECK(Resolve(62, p) == std::vector<int64_t>{15, 16, 16, 15});
  p = Pipeline(2, 2);
  p.pp_layers = {4, 6};  // each stage split evenly over its two chunks, model order
  CHECK(Resolve(10, p) == std::vector<int64_t>{2, 3, 2, 3});
  p.pp_layers = {1, 4, 4, 1};
  CHECK(Resolve(10, p) == std::vector<int64_t>{1, 4, 4, 1});
  CHECK(PhysicalStageLayers({1, 4, 4, 1}, 2) == std::vector<int64_t>{5, 5});
}

TEST_CASE("Megatron-LM split flags", "[plan][layout]") {
  SECTION("embedding and loss accounted: Llama 3.1 405B on pp=16, vpp=8") {
    ParallelPlan p = Pipeline(16, 8);
    p.layout.account_embedding = true;
    p.layout.account_loss = true;
    const std::vector<int64_t> l = Resolve(126, p);
    REQUIRE(l.size() == 128);
    CHECK(l.front() == 0);
    CHECK(l.back() == 0);
    CHECK(PhysicalStageLayers(l, 16).front() == 7);  // one fewer on the first and last stage
    CHECK(PhysicalStageLayers(l, 16).back() == 7);
    CHECK(PhysicalStageLayers(l, 16)[1] == 8);
  }
  SECTION("first and last stage sizes") {
    ParallelPlan p = Pipeline(4, 1);
    p.layout.first_stage_layers = 14;
    p.layout.last_stage_layers = 14;
    CHECK(Resolve(62, p) == std::vector<int64_t>{14, 17, 17, 14});
  }
  SECTION("torchtitan split points") {
    ParallelPlan p = Pipeline(4, 1);
    p.layout.split_points = {3, 6, 9};
    CHECK(Resolve(11, p) == std::vector<int64_t>{3, 3, 3, 2});
  }
}

TEST_CASE("Megatron-LM's split without a flag, stated as pp_even_split", "[plan][layout]") {
  ParallelPlan p = Pipeline(2, 1);
  p.layout.even_split = true;
  CHECK(HasFixedLayout(p));
  // Llama 3 8B at PP 2: 16 and 16, the output layer and loss uncounted (not the 17/15 the
  // automatic balance gives).
  CHECK(Resolve(32, p) == std::vector<int64_t>{16, 16});
  p = Pipeline(4, 2);  // 40 layers: 10 a rank, 5 a model chunk
  p.layout.even_split = true;
  CHECK(Resolve(40, p) == std::vector<int64_t>(8, 5));
  p = Pipeline(1, 1);
  p.layout.even_split = true;
  CHECK(Resolve(61, p) == std::vector<int64_t>{61});
  std::string error;
  p = Pipeline(8, 4);  // Qwen3-235B's 94 layers: Megatron-LM refuses the even split
  p.layout.even_split = true;
  CHECK(Resolve(94, p, &error).empty());
  CHECK_THAT(error, Contains("pp_even_split") && Contains("94") && Contains("pp=8") &&
                        Contains("divisible by the pipeline-model-parallel size"));
  p = Pipeline(4, 3);  // 40 / 4 = 10 a rank, which vpp 3 does not divide
  p.layout.even_split = true;
  Resolve(40, p, &error);
  CHECK_THAT(error, Contains("vpp=3") && Contains("10 layers of each pipeline rank"));
  p = Pipeline(2, 1);
  p.layout.even_split = true;
  p.pp_layers = {17, 15};
  Resolve(32, p, &error);
  CHECK_THAT(error, Contains("give one of them"));
}

TEST_CASE("bad layouts name the knob and the reason", "[plan][layout]") {
  std::string error;
  ParallelPlan p = Pipeline(4, 1);
  p.pp_layers = {15, 16, 16, 16};
  Resolve(62, p, &error);
  CHECK_THAT(error, Contains("pp_layers sums to 63") && Contains("62 layers"));
  p.pp_layers = {31, 31};
  Resolve(62, p, &error);
  CHECK_THAT(error, Contains("pp_layers (or pp_layout) has 2 entries"));
  p.pp_layers = {31, 0, 16, 15};
  Resolve(62, p, &error);
  CHECK_THAT(error, Contains("virtual stage 1 holds no layer"));
  p = Pipeline(16, 8);
  p.layout.account_embedding = true;
  Resolve(126, p, &error);
  CHECK_THAT(error, Contains("pp_account_embedding") && Contains("127"));
  p = Pipeline(4, 1);
  p.layout.first_stage_layers = 14;
  Resolve(63, p, &error);
  CHECK_THAT(error, Contains("pp_first_layers=14") && Contains("evenly"));
  p.pp_layers = {15, 16, 16, 16};
  Resolve(63, p, &error);
  CHECK_THAT(error, Contains("give one of them"));
  p = Pipeline(4, 1);
  p.layout.split_points = {3, 3, 9};
  Resolve(11, p, &error);
  CHECK_THAT(error, Contains("pp_split_points must increase"));
  p.layout.mtp_stage = 2;
  Resolve(11, p, &error);
  CHECK_THAT(error, Contains("mtp_layers=0"));
}

TEST_CASE("Megatron layout strings parse and print back", "[plan][layout]") {
  // DeepSeek-V3's example (Megatron-LM docs): 61 layers and one MTP module on pp=16, vpp=2.
  const MegatronLayout dsv3 = ParseMegatronLayout("Et*3|(tt|)*29,m|L");
  REQUIRE(dsv3.layers.size() == 32);
  CHECK(dsv3.layers.front() == 3);
  CHECK(dsv3.layers[29] == 2);
  CHECK(dsv3.layers[30] == 0);
  CHECK(dsv3.layers[31] == 0);
  CHECK(dsv3.mtp_stage == 30);
  CHECK(dsv3.mtp_layers == 1);
  const std::string text = MegatronLayoutString(dsv3.layers, dsv3.mtp_stage, dsv3.mtp_layers);
  CHECK(text == "Et*3|(tt|)*29m|L");
  const MegatronLayout back = ParseMegatronLayout(text);
  CHECK(back.layers == dsv3.layers);
  CHECK(back.mtp_stage == 30);
  CHECK(MegatronLayoutString({0, 1, 1, 0}, -1, 0) == "E|(t|)*2L");
}

TEST_CASE("bad Megatron layout strings say what is wrong", "[plan][layout]") {
  auto error = [](const std::string& text) {
    try {
      ParseMegatronLayout(text);
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK_THAT(error("Ett|tEt|L"), Contains("'E' (embedding) must be in the first stage"));
  CHECK_THAT(error("Et|Lt|t"), Contains("'L' (loss) must be in the last stage"));
  CHECK_THAT(error("Et|xt|L"), Contains("unknown character 'x'"));
  CHECK_THAT(error("E(tt|L"), Contains("unbalanced '('"));
  CHECK_THAT(error("Et*|L"), Contains("repeat count"));
  CHECK_THAT(error("Etm|tm|L"), Contains("'m' (MTP) in two stages"));
  CHECK_THAT(error("tt|tt"), Contains("needs 'E'"));
  CHECK_THAT(error("E(t*1000)*1000000|L"), Contains("expands past"));
}
