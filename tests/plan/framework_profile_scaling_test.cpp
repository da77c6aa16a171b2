// Aleph Alpha Scaling 737f855 (docs/frameworks.md): the defaults and refusals as read in the
// trainer's code, each with the file it was read from.
#include <catch2/catch.hpp>
#include <string>

#include "plan/framework_profile.h"

using namespace paraplan;

namespace {

const KnobDefault* DefaultOf(const FrameworkProfile& p, const std::string& knob) {
  for (const KnobDefault& d : p.defaults) {
    if (knob == d.knob) return &d;
  }
  return nullptr;
}

bool Cites(const KnobDefault* d, const std::string& file) {
  return d && std::string(d->source).find(file) != std::string::npos;
}

}  // namespace

TEST_CASE("Aleph Alpha Scaling 737f855: the defaults as its code has them", "[plan][framework]") {
  const FrameworkProfile* found = FindProfile(Framework::kScaling);
  REQUIRE(found);
  const FrameworkProfile& p = *found;
  CHECK(std::string(p.version) == "737f855");
  CHECK(std::string(p.date) == "2024-10-30");
  CHECK(FindProfile(Framework::kScaling, "unread") == nullptr);  // read now
  // TopologyConfig: sequence_parallel = False, activation_checkpointing_type = disabled.
  const KnobDefault* sp = DefaultOf(p, "sequence_parallel");
  REQUIRE(sp);
  CHECK(std::string(sp->value) == "false");
  CHECK(sp->when == DefaultWhen::kAlways);
  CHECK(Cites(sp, "src/scaling/core/topology/topology_config.py"));
  CHECK(std::string(DefaultOf(p, "recompute")->value) == "none");
  // Plain torch.distributed collectives: no TP, PP, gradient or gather overlap.
  for (const char* knob :
       {"overlap_tp_comm", "overlap_pp_comm", "overlap_grad_reduce", "overlap_param_gather"}) {
    INFO(knob);
    REQUIRE(DefaultOf(p, knob));
    CHECK(std::string(DefaultOf(p, knob)->value) == "false");
  }
  CHECK(Cites(DefaultOf(p, "overlap_tp_comm"), "src/scaling/core/nn/linear/utils.py"));
  CHECK(Cites(DefaultOf(p, "overlap_grad_reduce"), "src/scaling/core/optimizer/optimizer.py"));
  CHECK(std::string(DefaultOf(p, "schedule")->value) == "1f1b");
  CHECK(std::string(DefaultOf(p, "vpp")->value) == "1");
  CHECK(std::string(DefaultOf(p, "dp_bucket_MB")->value) == "2000");  // 500M fp32 elements
  CHECK(DefaultOf(p, "zero") == nullptr);  // searched over the stages it runs: 0 and 1
  CHECK(DefaultOf(p, "micro_batch") == nullptr);
  // ZeRO-1 only; one pipeline schedule; whole-layer checkpointing.
  CHECK_FALSE(RefusalReason(p, "zero", "2").empty());
  CHECK_FALSE(RefusalReason(p, "zero", "3").empty());
  CHECK(RefusalReason(p, "zero", "1").empty());
  CHECK_FALSE(RefusalReason(p, "schedule", "interleaved").empty());
  CHECK_FALSE(RefusalReason(p, "recompute", "selective").empty());
  CHECK(RefusalReason(p, "recompute", "full").empty());
  CHECK_FALSE(RefusalReason(p, "overlap_tp_comm", "true").empty());
  // Runtime: PyTorch ops around FlashAttention-2; ZeRO-1 all-reduces instead of reduce-scattering.
  REQUIRE(p.runtime.fusion);
  CHECK(*p.runtime.fusion == Fusion::kEager);
  CHECK(p.runtime.zero1_all_reduce);
}
