#include "config/plan_loader.h"

#include <catch2/catch.hpp>

#include "config/resolve.h"
#include "config_test_util.h"

namespace paraplan {
namespace {

using Catch::Matchers::Contains;
using testing::ErrorOf;

TEST_CASE("plan string: fixed values, alternatives, splits and placement", "[config]") {
  const PlanConstraints p = ParsePlanString(
      "tp=4|8,pp=2,recompute=selective|full,pp_layers=15/16/16/15,placement=tp-cp-ep-dp-pp,"
      "overlap_grad_reduce=true,zero=1,schedule=zero-bubble,precision=fp8,moe_imbalance=1.5,"
      "dp_comm_dtype=bf16,sequence_parallel=false,global_batch=1024");
  REQUIRE(p.tp);
  CHECK(*p.tp == std::vector<int64_t>{4, 8});
  CHECK(*p.pp == std::vector<int64_t>{2});
  CHECK(*p.recompute == std::vector<Recompute>{Recompute::kSelective, Recompute::kFull});
  CHECK(*p.pp_layers == std::vector<int64_t>{15, 16, 16, 15});
  CHECK(PlacementToString(p.placement->at(0)) == "tp-cp-ep-dp-pp");
  CHECK(*p.overlap_grad_reduce == std::vector<bool>{true});
  CHECK(*p.zero == std::vector<int>{1});
  CHECK(*p.schedule == std::vector<Schedule>{Schedule::kZeroBubble});
  CHECK(*p.precision == std::vector<Precision>{Precision::kFp8});
  CHECK(p.moe_imbalance->at(0) == 1.5);
  CHECK(*p.dp_comm_dtype == std::vector<CommDtype>{CommDtype::kBf16});
  CHECK(*p.sequence_parallel == std::vector<bool>{false});
  CHECK(*p.global_batch == std::vector<int64_t>{1024});
  CHECK_FALSE(p.dp);  // left out: searched
  CHECK_FALSE(p.vpp);
}

TEST_CASE("plan string: every DESIGN knob is known", "[config]") {
  const std::vector<std::string> names = PlanKnobNames();
  for (const char* knob : {"tp",
                           "pp",
                           "dp",
                           "cp",
                           "ep",
                           "etp",
                           "vpp",
                           "micro_batch",
                           "global_batch",
                           "seq_len",
                           "recompute",
                           "sequence_parallel",
                           "zero",
                           "precision",
                           "schedule",
                           "moe_routing",
                           "moe_capacity_factor",
                           "moe_imbalance",
                           "dp_comm_dtype",
                           "dp_bucket_MB",
                           "placement",
                           "pp_layers",
                           "overlap_grad_reduce",
                           "overlap_param_gather",
                           "overlap_tp_comm",
                           "overlap_ep_comm",
                           "overlap_pp_comm",
                           "zero3_keep_gathered"}) {
    CHECK(std::find(names.begin(), names.end(), knob) != names.end());
  }
}

TEST_CASE("plan string: mistakes name the knob and the valid values", "[config]") {
  const std::string unknown = ErrorOf([] { ParsePlanString("tpp=4"); });
  CHECK_THAT(unknown, Contains("--plan: tpp: unknown plan knob 'tpp' (did you mean 'tp'?)"));
  CHECK_THAT(unknown, Contains("valid knobs: tp, pp, dp"));
  CHECK_THAT(ErrorOf([] { ParsePlanString("recompute=some"); }),
             Contains("'some' is not one of: none, selective, full, op"));
  CHECK_THAT(ErrorOf([] { ParsePlanString("tp=0"); }), Contains("tp: must be >= 1, got 0"));
  CHECK_THAT(ErrorOf([] { ParsePlanString("tp=4,tp=8"); }), Contains("given twice"));
  CHECK_THAT(ErrorOf([] { ParsePlanString("tp"); }), Contains("expected knob=value"));
  CHECK_THAT(ErrorOf([] { ParsePlanString("zero=4"); }), Contains("must be 0, 1, 2 or 3"));
  CHECK_THAT(ErrorOf([] { ParsePlanString("placement=tp-dp"); }), Contains("must order all of"));
  CHECK_THAT(ErrorOf([] { ParsePlanString("moe_imbalance=0.5"); }), Contains("must be >= 1"));
  CHECK_THAT(ErrorOf([] { ParsePlanString("pp_layers=4|5"); }), Contains("takes one split"));
}

TEST_CASE("plan string: the memory recipe's knobs and their Megatron-LM names", "[config]") {
  const PlanConstraints p = ParsePlanString("moe_probs=output,ema=cpu");
  REQUIRE(p.recipe);
  CHECK(p.recipe->moe_probs == MoeProbs::kOutput);
  CHECK(p.recipe->ema == EmaPlace::kCpu);
  const PlanConstraints m = ParsePlanString(
      "exp_avg_dtype=bf16,optimizer_offload_fraction=0.25,recompute_module=layernorm+moe_act,"
      "fp8_activation_cache=true,weights_ema=gpu");
  REQUIRE(m.recipe);
  CHECK(m.recipe->optimizer_moments == MomentDtype::kBf16);
  CHECK(m.recipe->optimizer_offload == 0.25);
  CHECK(m.recipe->recompute_modules == (static_cast<uint32_t>(RecomputeModule::kLayernorm) |
                                        static_cast<uint32_t>(RecomputeModule::kMoeAct)));
  CHECK(m.recipe->fp8_act_cache);
  CHECK(m.recipe->ema == EmaPlace::kGpu);
  CHECK(ParsePlanString("--exp-avg-dtype=bf16").recipe->optimizer_moments == MomentDtype::kBf16);
  const PlanConstraints ce = ParsePlanString("cross_entropy_loss_fusion=true");
  REQUIRE(ce.recipe);
  CHECK(ce.recipe->cross_entropy_fusion);
  CHECK_FALSE(ParsePlanString("tp=2").recipe);  // unstated: no recipe, the unfused loss
  // Bad values name the key as written and list the valid ones.
  CHECK_THAT(ErrorOf([] { ParsePlanString("exp_avg_dtype=fp8"); }),
             Contains("--plan: exp_avg_dtype: 'fp8' is not one of: fp32, bf16"));
  CHECK_THAT(ErrorOf([] { ParsePlanString("weights_ema=host"); }),
             Contains("weights_ema: 'host' is not one of: none, gpu, cpu"));
  CHECK_THAT(ErrorOf([] { ParsePlanString("moe_probs=expert"); }),
             Contains("moe_probs: 'expert' is not one of: auto, activation, input, output"));
  CHECK_THAT(ErrorOf([] { ParsePlanString("optimizer_offload_fraction=2"); }),
             Contains("optimizer_offload_fraction: must be a fraction in [0, 1]"));
  // A knob and its alias at once is given twice.
  CHECK_THAT(ErrorOf([] { ParsePlanString("ema=cpu,weights_ema=gpu"); }),
             Contains("weights_ema: 'weights_ema' sets ema, as 'ema' does: give it once"));
  // Megatron-LM flags paraplan does not take as they are point at the knob.
  CHECK_THAT(ErrorOf([] { ParsePlanString("moe_apply_probs_on_input=true"); }),
             Contains("did you mean 'moe_probs'?"));
}

TEST_CASE("plan string: TransformerEngine's FP8 recipe and its mistakes", "[config]") {
  CHECK_FALSE(ParsePlanString("tp=2").kernels);  // unset: the framework profile's default
  const PlanConstraints p = ParsePlanString("precision=fp8,fp8_recipe=tensorwise");
  REQUIRE(p.kernels);
  CHECK(p.kernels->fp8_recipe == Fp8Recipe::kTensorwise);
  CHECK(ParsePlanString("fp8_recipe=mxfp8").kernels->fp8_recipe == Fp8Recipe::kMxfp8);
  CHECK_THAT(ErrorOf([] { ParsePlanString("fp8_recipe=current"); }),
             Contains("fp8_recipe: 'current' is not one of: delayed, tensorwise, mxfp8"));
  const YamlDocument bad = ParseYamlText("plan:\n  fp8_recipe: mxfp4\n", "r.yaml");
  CHECK_THAT(ErrorOf([&] { ReadPlanConstraints(YamlMap(bad.Root(), {"plan"}).Required("plan")); }),
             Contains("r.yaml:2:15: plan.fp8_recipe: 'mxfp4' is not one of"));
}

TEST_CASE("plan string: the MoE kernel knobs and their mistakes", "[config]") {
  const PlanConstraints p = ParsePlanString(
      "moe_grouped_gemm=false,moe_router_fusion=true,moe_permute_fusion=true,"
      "moe_pad_expert_input_to_capacity=true");  // Megatron-Core's name is taken as it is
  REQUIRE(p.kernels);
  CHECK_FALSE(p.kernels->moe_grouped_gemm);
  CHECK(p.kernels->moe_router_fusion);
  CHECK(p.kernels->moe_permute_fusion);
  CHECK(p.kernels->moe_pad_to_capacity);
  CHECK_THAT(ErrorOf([] { ParsePlanString("moe_grouped_gemm=yes"); }),
             Contains("moe_grouped_gemm: 'yes' is not one of: true, false"));
  CHECK_THAT(ErrorOf([] { ParsePlanString("moe_pad_to_capacity=ture"); }),
             Contains("did you mean 'true'?"));
  const YamlDocument bad = ParseYamlText("plan:\n  moe_permute_fusion: maybe\n", "r.yaml");
  CHECK_THAT(ErrorOf([&] { ReadPlanConstraints(YamlMap(bad.Root(), {"plan"}).Required("plan")); }),
             Contains("r.yaml:2:23: plan.moe_permute_fusion: 'maybe' is not one of: true, false"));
}

TEST_CASE("plan mapping in YAML", "[config]") {
  const YamlDocument doc = ParseYamlText(
      "plan: {tp: 8, pp: [2, 4], recompute: full, pp_layers: [15, 16, 16, 15], zero: [0, 1]}\n",
      "r.yaml");
  const PlanConstraints p = ReadPlanConstraints(YamlMap(doc.Root(), {"plan"}).Required("plan"));
  CHECK(*p.tp == std::vector<int64_t>{8});
  CHECK(*p.pp == std::vector<int64_t>{2, 4});
  CHECK(*p.pp_layers == std::vector<int64_t>{15, 16, 16, 15});
  CHECK(*p.zero == std::vector<int>{0, 1});
  const YamlDocument bad = ParseYamlText("plan:\n  tp: 8\n  schedule: 2f2b\n", "r.yaml");
  CHECK_THAT(ErrorOf([&] { ReadPlanConstraints(YamlMap(bad.Root(), {"plan"}).Required("plan")); }),
             Contains("r.yaml:3:13: plan.schedule: '2f2b' is not one of: gpipe, 1f1b"));
  const YamlDocument alias =
      ParseYamlText("plan: {exp_avg_dtype: bf16, weights_ema: cpu}\n", "r.yaml");
  const PlanConstraints a = ReadPlanConstraints(YamlMap(alias.Root(), {"plan"}).Required("plan"));
  REQUIRE(a.recipe);
  CHECK(a.recipe->optimizer_moments == MomentDtype::kBf16);
  CHECK(a.recipe->ema == EmaPlace::kCpu);
  const YamlDocument twice = ParseYamlText("plan: {ema: cpu, weights_ema: gpu}\n", "r.yaml");
  CHECK_THAT(
      ErrorOf([&] { ReadPlanConstraints(YamlMap(twice.Root(), {"plan"}).Required("plan")); }),
      Contains("'weights_ema' sets ema, as 'ema' does"));
  const YamlDocument badema = ParseYamlText("plan: {weights_ema: host}\n", "r.yaml");
  CHECK_THAT(
      ErrorOf([&] { ReadPlanConstraints(YamlMap(badema.Root(), {"plan"}).Required("plan")); }),
      Contains("'host' is not one of: none, gpu, cpu"));
  const YamlDocument typo = ParseYamlText("plan: {tp: 8, micro_bach: 1}\n", "r.yaml");
  CHECK_THAT(ErrorOf([&] { ReadPlanConstraints(YamlMap(typo.Root(), {"plan"}).Required("plan")); }),
             Contains("unknown key 'micro_bach' (did you mean 'micro_batch'?)"));
}

}  // namespace
}  // namespace paraplan
