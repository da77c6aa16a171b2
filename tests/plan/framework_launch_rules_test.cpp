// The rules learnt from the frameworks' own configuration checks (framework_launch_rules.h):
// each refuses what it names and nothing else, and the search's FrameworkViolations carries it.
#include "plan/framework_launch_rules.h"

#include <catch2/catch.hpp>

namespace paraplan {
namespace {

using F = Framework;
using Catch::Matchers::Contains;

ModelSpec Moe(bool bias) {
  ModelSpec m;
  m.name = "moe";
  m.layers = 16;
  m.hidden = 2048;
  m.heads = 16;
  m.kv_heads = 16;
  m.head_dim = 128;
  m.ffn_hidden = 4096;
  m.vocab = 32000;
  m.seq_len = 4096;
  m.activation = Activation::kSwiglu;
  m.norm = Norm::kRmsNorm;
  m.position = Position::kRope;
  m.linear_bias = bias;
  m.moe = MoeSpec{};
  m.moe->experts = 8;
  m.moe->top_k = 2;
  m.moe->expert_ffn_hidden = 4096;
  return m;
}

std::vector<std::string> Broken(F f, const ModelSpec* m, const ParallelPlan& p) {
  std::vector<std::string> out;
  AddLaunchRuleViolations(f, m, p, out);
  return out;
}

TEST_CASE("launch rules: each is named, versioned and sourced", "[framework]") {
  REQUIRE(LaunchRules().size() >= 6);
  for (const LaunchRule& r : LaunchRules()) {
    CHECK(std::string(r.name).find('/') != std::string::npos);
    CHECK_THAT(std::string(r.version), Contains("20"));
    CHECK_FALSE(std::string(r.source).empty());
  }
}

TEST_CASE("launch rules: Megatron-LM's EP overlap, MoE bias and torchtitan's async TP",
          "[framework]") {
  const ModelSpec moe = Moe(false);
  ParallelPlan p;
  p.tp = 2;
  p.pp = 4;
  p.dp = 8;
  p.ep = 8;
  p.global_batch = 256;
  p.sequence_parallel = true;
  p.overlap_ep_comm = true;
  CHECK_THAT(Broken(F::kMegatron, &moe, p).at(0), Contains("megatron/ep-overlap-needs-vpp"));
  p.vpp = 2;
  p.schedule = Schedule::kInterleaved;
  CHECK(Broken(F::kMegatron, &moe, p).empty());
  p.recompute = Recompute::kFull;
  CHECK_THAT(Broken(F::kMegatron, &moe, p).at(0), Contains("no-full-recompute"));
  p.recompute = Recompute::kNone;
  p.ep = 1;
  CHECK_THAT(Broken(F::kMegatron, &moe, p).at(0), Contains("ep-overlap-needs-ep"));
  p.ep = 8;
  p.etp = 2;
  CHECK(Broken(F::kMegatron, &moe, p).empty());
  const ModelSpec biased = Moe(true);
  CHECK_THAT(Broken(F::kMegatron, &biased, p).at(0), Contains("moe-bias-needs-etp1"));
  // Megatron's rules are not torchtitan's, and the search sees them through FrameworkViolations.
  CHECK(Broken(F::kTorchtitan, &biased, p).empty());
  bool found = false;
  for (const std::string& v : FrameworkViolations(F::kMegatron, &biased, p)) {
    found = found || v.find("moe-bias-needs-etp1") != std::string::npos;
  }
  CHECK(found);

  ParallelPlan t;
  t.tp = 4;
  t.dp = 2;
  t.sequence_parallel = true;
  t.overlap_tp_comm = true;
  t.kernels.fusion = Fusion::kEager;
  CHECK_THAT(Broken(F::kTorchtitan, nullptr, t).at(0),
             Contains("torchtitan/async-tp-needs-compile"));
  t.kernels.fusion = Fusion::kCompile;
  CHECK(Broken(F::kTorchtitan, nullptr, t).empty());
}

}  // namespace
}  // namespace paraplan
