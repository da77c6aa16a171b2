// End-to-end: pipeline layouts on the command line (issue 15's done-when examples).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "cli_runner.h"

using Catch::Matchers::Contains;
using paraplan::testing::RunParaplan;

namespace {

const char* const kLlama405bKnobs = "tp=8,pp=16,vpp=8,micro_batch=1,recompute=none,zero=1";
const std::string kLlama405bPlan = std::string(kLlama405bKnobs) + ",global_batch=2048";

}  // namespace

TEST_CASE("Llama 3.1 405B's 126 layers on pp=16, vpp=8 simulate", "[cli][layout]") {
  const auto r = RunParaplan({"simulate", "-m", "llama3.1-405b", "-c", "dgx-h100", "-g", "16384",
                              "--plan", kLlama405bPlan, "--format", "json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  // Balanced automatically: the embedding and the loss alone on their virtual stages.
  CHECK_THAT(r.out, Contains("\"megatron\": \"E|(t|)*126L\""));
  CHECK_THAT(r.out, Contains("\"layers\": 7"));
  // Without recompute the activations of 8 layers x ~18 micro-batches in flight exceed 80 GiB
  // in paraplan's activation model; with full recompute the plan fits.
  const auto full =
      RunParaplan({"simulate", "-m", "llama3.1-405b", "-c", "dgx-h100", "-g", "16384", "--plan",
                   "tp=8,pp=16,vpp=8,micro_batch=1,global_batch=2048,recompute=full,"
                   "zero=1",
                   "--format", "json"});
  REQUIRE(full.code == 0);
  CHECK_THAT(full.out, Contains("\"fits\": true"));
  const auto megatron =
      RunParaplan({"plan", "-m", "llama3.1-405b", "-c", "dgx-h100", "-g", "16384", "--plan",
                   kLlama405bKnobs, "--global-batch", "2048", "--format", "megatron"});
  INFO(megatron.err);
  REQUIRE(megatron.code == 0);
  CHECK_THAT(megatron.out, Contains("--account-for-embedding-in-pipeline-split") &&
                               Contains("--account-for-loss-in-pipeline-split") &&
                               Contains("--num-virtual-stages-per-pipeline-rank 8"));
  // torchtitan shards with FSDP2 (zero=3 here; zero=1 is not a torchtitan mode).
  const auto titan =
      RunParaplan({"plan", "-m", "llama3.1-405b", "-c", "dgx-h100", "-g", "16384", "--plan",
                   "tp=8,pp=16,vpp=8,micro_batch=1,recompute=none,zero=3", "--global-batch", "2048",
                   "--framework", "torchtitan", "--format", "torchtitan"});
  INFO(titan.err);
  REQUIRE(titan.code == 0);
  CHECK_THAT(titan.out, Contains("module_fqns_per_model_part = [[\"tok_embeddings\"], "
                                 "[\"layers.0\"]"));
}

TEST_CASE("DeepSeek-V3 with MTP: a Megatron layout string and DualPipe", "[cli][layout]") {
  auto r = RunParaplan({"simulate", "-m", "deepseek-v3", "-c", "hgx-h800", "-g", "2048", "--plan",
                        "tp=1,pp=16,vpp=2,ep=64,micro_batch=1,global_batch=4096,zero=1,"
                        "pp_layout='Et*3|(tt|)*29,m|L'",
                        "--format", "json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Contains("\"megatron\": \"Et*3|(tt|)*29m|L\""));
  r = RunParaplan({"simulate", "-m", "deepseek-v3", "-c", "hgx-h800", "-g", "2048", "--plan",
                   "tp=1,pp=16,ep=64,micro_batch=1,global_batch=4096,zero=1,schedule=dualpipe,"
                   "pp_layers=3/4*14/2",
                   "--format", "json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Contains("\"megatron\": \"Et*3|(t*4|)*14ttmL\""));
}

TEST_CASE("bad layouts are input errors naming the knob", "[cli][layout]") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"pp_layers=8*15/7", "vpp=8 does not divide stage 15's 7 layers"},
      {"pp_layers=0/1*127", "pp_layers sums to 127"},
      {"pp_layers=2*63", "pp_layers (or pp_layout) has 63 entries"},
      {"pp_layers=0/1*63/0/1*63", "virtual stage 64 holds no layer"},
      {"pp_layout='Et|(tt|)*62|L'", "pp_layout) has 65 entries"},
      {"pp_layout='Ett|tE|L'", "'E' (embedding) must be in the first stage"},
      {"pp_layout='Et|(t|)*125,m|L'", "pp_layout places MTP modules"},
      {"pp_account_embedding=true", "pp_account_embedding: layers=126"},
      {"pp_split_points=layers.x", "pp_split_points"},
      {"pp_layout='Et|L", "unbalanced ' quote"},
  };
  for (const auto& [knob, message] : cases) {
    const auto r = RunParaplan({"simulate", "-m", "llama3.1-405b", "-c", "dgx-h100", "-g", "16384",
                                "--plan", kLlama405bPlan + "," + knob});
    INFO(knob << ": " << r.err);
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Contains(message));
  }
}

TEST_CASE("plan over uneven interleaved layouts is the same whatever the threads",
          "[cli][layout]") {
  auto plan = [](const char* threads) {
    return RunParaplan({"plan", "-m", "qwen3-235b-a22b", "-c", "dgx-h100", "-g", "1024",
                        "--global-batch", "1024", "--plan", "tp=4,pp=16,schedule=interleaved",
                        "--top", "3", "--format", "json", "--threads", threads});
  };
  const auto one = plan("1"), three = plan("3");
  INFO(one.err);
  REQUIRE(one.code == 0);
  CHECK_THAT(one.out, Contains("\"schedule\": \"interleaved\""));  // 94 layers: uneven chunks
  CHECK(one.out.substr(0, one.out.find("\"seconds\"")) ==
        three.out.substr(0, three.out.find("\"seconds\"")));
}
