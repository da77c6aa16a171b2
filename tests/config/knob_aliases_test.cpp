#include "config/knob_aliases.h"

#include <catch2/catch.hpp>

#include "core/error.h"

namespace paraplan {
namespace {

TEST_CASE("other tools' knob names map to paraplan's", "[config]") {
  CHECK(KnobForAlias("mbs") == "micro_batch");
  CHECK(KnobForAlias("--micro-batch-size") == "micro_batch");
  CHECK(KnobForAlias("GBS") == "global_batch");
  CHECK(KnobForAlias("tensor-model-parallel-size") == "tp");
  CHECK(KnobForAlias("nonsense").empty());
}

TEST_CASE("Megatron-LM's names for the memory-recipe knobs are taken as they are", "[config]") {
  CHECK(KnobForAcceptedAlias("exp_avg_dtype") == "optimizer_moments");
  CHECK(KnobForAcceptedAlias("--optimizer-offload-fraction") == "optimizer_offload");
  CHECK(KnobForAcceptedAlias("recompute_module") == "recompute_modules");
  CHECK(KnobForAcceptedAlias("fp8_activation_cache") == "fp8_act_cache");
  CHECK(KnobForAcceptedAlias("weights_ema") == "ema");
  CHECK(KnobForAcceptedAlias("--moe-pad-expert-input-to-capacity") == "moe_pad_to_capacity");
  CHECK(KnobForAcceptedAlias("--moe-enable-deepep") == "moe_deepep");
  CHECK(KnobForAcceptedAlias("--cross-entropy-loss-fusion") == "cross_entropy_fusion");
  // DeepSpeed's zero_optimization keys for its ZeRO-3 coordinator (cost/zero3_fetch.h).
  CHECK(KnobForAcceptedAlias("stage3_max_live_parameters") == "zero3_max_live_params");
  CHECK(KnobForAcceptedAlias("stage3_max_reuse_distance") == "zero3_max_reuse_distance");
  CHECK(KnobForAcceptedAlias("mbs").empty());  // only a hint, not taken
  CHECK(AcceptedAliasNames().size() == 10);
}

TEST_CASE("knobs separated by spaces are refused with the corrected string", "[config]") {
  CHECK_NOTHROW(CheckKnobSeparators("tp=8, pp=2"));
  CHECK_NOTHROW(CheckKnobSeparators(" tp = 4 | 8 ,pp_layers=15 / 16 "));
  try {
    CheckKnobSeparators("tp=8 pp=2  recompute=full");
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK_THAT(e.what(), Catch::Contains("did you mean \"tp=8,pp=2,recompute=full\"?"));
    CHECK_THAT(e.what(), Catch::StartsWith("--plan: "));
  }
}

}  // namespace
}  // namespace paraplan
