#include "plan/plan_string.h"

#include <catch2/catch.hpp>

#include "config/resolve.h"
#include "core/error.h"
#include "model/model_spec.h"
#include "plan/knob_table.h"
#include "plan/plan_resolve.h"

namespace paraplan {
namespace {

TEST_CASE("PlanString round-trips through ParsePlanString and ResolvePlan", "[plan]") {
  ParallelPlan p;
  p.tp = 4;
  p.pp = 2;
  p.dp = 8;
  p.vpp = 5;
  p.micro_batch = 2;
  p.global_batch = 480;
  p.recompute = Recompute::kSelective;
  p.sequence_parallel = true;
  p.zero = 1;
  p.schedule = Schedule::kInterleaved;
  p.overlap_tp_comm = true;
  p.dp_comm_dtype = CommDtype::kBf16;
  p.moe_imbalance = 1.25;
  p.pp_layers = {41, 39};
  p.placement = {ParallelDim::kTp, ParallelDim::kDp, ParallelDim::kCp, ParallelDim::kEp,
                 ParallelDim::kPp};
  const std::string text = PlanString(p, 8192);
  CHECK_THAT(text, Catch::StartsWith("tp=4,pp=2,dp=8,cp=1,ep=1,etp=1,vpp=5,micro_batch=2,"
                                     "global_batch=480,seq_len=8192,recompute=selective,"
                                     "sequence_parallel=true,zero=1"));
  ModelSpec model;
  model.layers = 80;
  model.seq_len = 8192;
  const ParallelPlan back = ResolvePlan(ParsePlanString(text), 64, model);
  CHECK(PlanString(back, 8192) == text);
  CHECK(back.seq_len == 8192);
  CHECK(back.pp_layers == p.pp_layers);
  CHECK(back.placement == p.placement);
  CHECK(back.moe_imbalance == p.moe_imbalance);
  CHECK(back.dp_comm_dtype == p.dp_comm_dtype);
}

TEST_CASE("PlanString keeps the memory recipe's moe_probs and ema", "[plan]") {
  ParallelPlan p;
  p.dp = 8;
  p.global_batch = 64;
  CHECK(PlanString(p, 4096).find("moe_probs") == std::string::npos);  // defaults left out
  CHECK(PlanString(p, 4096).find("ema") == std::string::npos);
  p.recipe.moe_probs = MoeProbs::kOutput;
  p.recipe.ema = EmaPlace::kCpu;
  const std::string text = PlanString(p, 4096);
  CHECK_THAT(text, Catch::Contains(",moe_probs=output,ema=cpu"));
  ModelSpec model;
  model.layers = 32;
  model.seq_len = 4096;
  const ParallelPlan back = ResolvePlan(ParsePlanString(text), 8, model);
  CHECK(back.recipe.moe_probs == MoeProbs::kOutput);
  CHECK(back.recipe.ema == EmaPlace::kCpu);
  CHECK(PlanString(back, 4096) == text);
}

TEST_CASE("ResolvePlan turns sequence parallelism on with tp > 1, as plan does", "[plan]") {
  ModelSpec model;
  CHECK(ResolvePlan(ParsePlanString("tp=2,global_batch=8"), 8, model).sequence_parallel);
  CHECK_FALSE(ResolvePlan(ParsePlanString("tp=1,global_batch=8"), 8, model).sequence_parallel);
  CHECK_FALSE(ResolvePlan(ParsePlanString("tp=2,sequence_parallel=false,global_batch=8"), 8, model)
                  .sequence_parallel);
}

TEST_CASE("PlanString keeps the MoE kernel knobs", "[plan]") {
  ParallelPlan p;
  p.dp = 8;
  p.global_batch = 64;
  CHECK(PlanString(p, 4096).find("moe_grouped_gemm") == std::string::npos);  // defaults left out
  CHECK(PlanString(p, 4096).find("moe_pad_to_capacity") == std::string::npos);
  p.moe_routing = MoeRouting::kDrop;
  p.kernels.moe_grouped_gemm = false;
  p.kernels.moe_router_fusion = true;
  p.kernels.moe_permute_fusion = true;
  p.kernels.moe_pad_to_capacity = true;
  p.kernels.moe_deepep = true;
  const std::string text = PlanString(p, 4096);
  CHECK_THAT(text, Catch::Contains("moe_grouped_gemm=false,moe_router_fusion=true,"
                                   "moe_permute_fusion=true,moe_pad_to_capacity=true,"
                                   "moe_deepep=true"));
  ModelSpec model;
  model.layers = 32;
  model.seq_len = 4096;
  const ParallelPlan back = ResolvePlan(ParsePlanString(text), 8, model);
  CHECK_FALSE(back.kernels.moe_grouped_gemm);
  CHECK(back.kernels.moe_router_fusion);
  CHECK(back.kernels.moe_permute_fusion);
  CHECK(back.kernels.moe_pad_to_capacity);
  CHECK(back.kernels.moe_deepep);
  CHECK(PlanString(back, 4096) == text);
}

TEST_CASE("PlanString keeps a layout rule as the rule", "[plan]") {
  ParallelPlan p;
  p.pp = 4;
  p.global_batch = 8;
  p.layout.split_points = {7, 15, 23};
  std::string text = PlanString(p, 4096);
  CHECK_THAT(text, Catch::Contains("pp_split_points=7/15/23"));
  ModelSpec model;
  model.layers = 30;
  model.seq_len = 4096;
  ParallelPlan back = ResolvePlan(ParsePlanString(text), 4, model);
  CHECK(back.layout.split_points == p.layout.split_points);
  CHECK(PlanString(back, 4096) == text);
  p.layout = StageLayoutRule{};
  p.layout.first_stage_layers = 6;
  p.layout.last_stage_layers = 6;
  p.layout.account_embedding = true;
  p.layout.account_loss = true;
  text = PlanString(p, 4096);
  CHECK_THAT(text, Catch::Contains("pp_first_layers=6,pp_last_layers=6,pp_account_embedding=true,"
                                   "pp_account_loss=true"));
  back = ResolvePlan(ParsePlanString(text), 4, model);
  CHECK(PlanString(back, 4096) == text);
  p.layout = StageLayoutRule{};
  p.layout.even_split = true;  // Megatron-LM's split without a flag, as validate states it
  text = PlanString(p, 4096);
  CHECK_THAT(text, Catch::Contains("pp_even_split=true"));
  back = ResolvePlan(ParsePlanString(text), 4, model);
  CHECK(back.layout.even_split);
  CHECK(PlanString(back, 4096) == text);
}

TEST_CASE("PlanString writes the kernel recipe's switches right after the fusion profile",
          "[plan]") {
  for (const KnobRow& row : KnobTable()) {
    const RecipeSwitch& s = row.recipe_switch;
    if (!s.In(RecipePart::kKernels)) continue;
    const std::string name(row.name);
    INFO(name);
    ParallelPlan p;
    p.pp = 2;
    p.vpp = 2;
    p.schedule = Schedule::kInterleaved;
    p.global_batch = 8;
    CHECK(PlanString(p, 4096).find(name) == std::string::npos);  // the default
    p.kernels.fusion = Fusion::kCompile;
    p.kernels.*s.kernels = !s.Default();
    const std::string text = PlanString(p, 4096);
    CHECK_THAT(text, Catch::Contains("fusion=compile," + name + "=" + KnobValueText(!s.Default())));
    ModelSpec model;
    model.layers = 32;
    model.seq_len = 4096;
    const ParallelPlan back = ResolvePlan(ParsePlanString(text), 2, model);
    CHECK(back.kernels == p.kernels);
    CHECK(PlanString(back, 4096) == text);
    CHECK_THROWS_AS(ParsePlanString(name + "=sometimes"), InputError);
  }
}

TEST_CASE("PlanString keeps DeepSpeed's ZeRO-3 coordinator limits", "[plan][zero3_fetch]") {
  ParallelPlan p;
  p.dp = 8;
  p.zero = 3;
  p.global_batch = 8;
  CHECK(PlanString(p, 4096).find("zero3_max") == std::string::npos);  // unset: FSDP's units
  p.kernels.zero3_max_live_params = 3e9;
  p.kernels.zero3_max_reuse_distance = 1e9;
  const std::string text = PlanString(p, 4096);
  CHECK_THAT(text, Catch::Contains("zero3_max_live_params=3e+09"));
  ModelSpec model;
  model.layers = 32;
  model.seq_len = 4096;
  const ParallelPlan back = ResolvePlan(ParsePlanString(text), 8, model);
  CHECK(back.kernels.zero3_max_live_params == 3e9);
  CHECK(back.kernels.zero3_max_reuse_distance == 1e9);
  CHECK(PlanString(back, 4096) == text);
  // DeepSpeed's own key is taken as the knob; a negative or absurd limit is refused.
  CHECK(ResolvePlan(ParsePlanString("dp=8,zero=3,global_batch=8,stage3_max_live_parameters=2e9"), 8,
                    model)
            .kernels.zero3_max_live_params == 2e9);
  CHECK_THROWS_AS(ParsePlanString("zero3_max_live_params=-1"), InputError);
  CHECK_THROWS_AS(ParsePlanString("zero3_max_reuse_distance=1e16"), InputError);
}

TEST_CASE("PlanString keeps TransformerEngine's FP8 recipe", "[plan]") {
  ParallelPlan p;
  p.global_batch = 8;
  p.precision = Precision::kFp8;
  CHECK(PlanString(p, 4096).find("fp8_recipe") == std::string::npos);  // delayed: the default
  for (Fp8Recipe r : {Fp8Recipe::kTensorwise, Fp8Recipe::kMxfp8}) {
    p.kernels.fp8_recipe = r;
    const std::string text = PlanString(p, 4096);
    CHECK_THAT(text, Catch::Contains(std::string("fp8_recipe=") + ToString(r)));
    ModelSpec model;
    model.layers = 32;
    model.seq_len = 4096;
    const ParallelPlan back = ResolvePlan(ParsePlanString(text), 1, model);
    CHECK(back.kernels.fp8_recipe == r);
    CHECK(PlanString(back, 4096) == text);
  }
}

TEST_CASE("PlanString keeps a Megatron-LM layout's MTP stage", "[plan]") {
  ParallelPlan p;
  p.pp = 4;
  p.global_batch = 8;
  p.pp_layers = {3, 4, 4, 3};
  CHECK_THAT(PlanString(p, 4096), Catch::Contains("pp_layers=3/4/4/3"));  // MTP on the last
  p.layout.mtp_stage = 2;  // 'm' on the third stage: the layers alone would lose it
  const std::string text = PlanString(p, 4096);
  CHECK_THAT(text, Catch::Contains("pp_layout='Et*3|t*4|t*4m|t*3L'"));
  CHECK(text.find("pp_layers") == std::string::npos);
  ModelSpec model;
  model.layers = 14;
  model.seq_len = 4096;
  model.mtp_layers = 1;
  const ParallelPlan back = ResolvePlan(ParsePlanString(text), 4, model);
  CHECK(back.pp_layers == p.pp_layers);
  CHECK(back.layout.mtp_stage == 2);
  CHECK(PlanString(back, 4096) == text);
}

}  // namespace
}  // namespace paraplan
