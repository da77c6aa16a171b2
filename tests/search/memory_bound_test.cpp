// The search's memory lower bound (search/memory_bound.h) as a property: for random plans of
// dense and MoE models (DeepSeek-V3 with MTP and DualPipe), every ZeRO stage, kept-gathered
// ZeRO-3, DP bucket sizes and dtypes, EMA, optimizer offload and fixed layouts with uneven
// first and last stages, it never exceeds the exact peak the cost model gives.
#include <catch2/catch.hpp>
#include <random>
#include <string>

#include "../cost/test_specs.h"
#include "config/resolve.h"
#include "evaluate/step_model.h"
#include "plan/plan_resolve.h"
#include "plan/plan_string.h"
#include "search/plan_space.h"
#include "search/step_model_evaluator.h"

using namespace paraplan;

namespace {

// The knobs the bound reads beyond the shape, set at random.
void Mutate(std::mt19937_64& rng, ParallelPlan& p) {
  auto pick = [&rng](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };
  p.zero = pick(4);
  p.zero3_keep_gathered = pick(2) == 1;
  p.kernels.zero3_keep_after_forward = pick(2) == 1;
  p.grad_reduce_in_fp32 = pick(2) == 1;
  p.dp_comm_dtype = static_cast<CommDtype>(pick(3));
  const double buckets[] = {0, 1, 25, 4000, 1e6};
  p.dp_bucket_MB = buckets[pick(5)];
  p.recipe.ema = static_cast<EmaPlace>(pick(3));
  p.recipe.optimizer_moments = pick(2) == 1 ? MomentDtype::kBf16 : MomentDtype::kFp32;
  p.recipe.optimizer_offload = pick(3) == 0 ? 0.5 : 0.0;
}

struct Tally {
  int64_t checked = 0;
  double tightest = 0;  // the largest bound / peak seen
};

void CheckOne(const StepModelEvaluator& evaluator, const ParallelPlan& p, Tally& tally) {
  if (!evaluator.Violations(p, true).empty()) return;
  const double bound = evaluator.Bounds(p, evaluator.BoundTerms(p)).memory_bytes;
  const double peak = evaluator.PeakMemoryBytes(p);
  INFO(PlanString(p, 0));
  INFO("bound " << bound << " peak " << peak);
  CHECK(bound <= peak);
  CHECK(bound > 0);
  tally.tightest = std::max(tally.tightest, bound / peak);
  ++tally.checked;
}

// `samples` random plans of the space, each with random memory knobs.
Tally CheckSpace(const ModelSpec& m, const Cluster& c, int64_t gpus, const std::string& plan,
                 int samples, uint64_t seed) {
  const PlanSpace space(m, gpus, ParsePlanString(plan));
  const StepModel model(m, c, gpus);
  const StepModelEvaluator evaluator(model);
  std::mt19937_64 rng(seed);
  Tally tally;
  for (int i = 0; i < samples; ++i) {
    ParallelPlan p = space.At(static_cast<int64_t>(rng() % static_cast<uint64_t>(space.size())));
    Mutate(rng, p);
    CheckOne(evaluator, p, tally);
  }
  return tally;
}

// A fixed plan (a layout string), under each schedule it allows and random memory knobs.
Tally CheckFixed(const ModelSpec& m, const Cluster& c, int64_t gpus, const std::string& plan,
                 int samples, uint64_t seed) {
  const StepModel model(m, c, gpus);
  const StepModelEvaluator evaluator(model);
  const ParallelPlan base = ResolvePlan(ParsePlanString(plan), gpus, m);
  std::mt19937_64 rng(seed);
  Tally tally;
  const Schedule schedules[] = {Schedule::k1F1B, Schedule::kGpipe, Schedule::kZeroBubble,
                                Schedule::kInterleaved, Schedule::kDualPipe};
  for (int i = 0; i < samples; ++i) {
    ParallelPlan p = base;
    Mutate(rng, p);
    if (base.vpp <= 1) p.schedule = schedules[rng() % 5];
    CheckOne(evaluator, p, tally);
  }
  return tally;
}

}  // namespace

TEST_CASE("memory bound <= exact peak: random plans of dense and MoE models",
          "[search][memory][prune]") {
  const Tally dense =
      CheckSpace(test::Llama3_70B(), test::DgxH100(), 256, "global_batch=512", 400, 1);
  CHECK(dense.checked > 100);
  const Tally moe =
      CheckSpace(test::Mixtral8x7B(), test::Nvl72(), 144, "global_batch=288", 2000, 2);
  CHECK(moe.checked > 100);
  const Tally dsv3 = CheckSpace(LoadModel("deepseek-v3"), LoadCluster("gb200-nvl72"), 4096,
                                "global_batch=8192", 1500, 3);
  CHECK(dsv3.checked > 100);
  ModelSpec uneven = test::Llama3_70B();
  uneven.layers = 126;  // pp * vpp dividing layers + 2 only: balanced unevenly
  const Tally odd = CheckSpace(uneven, test::DgxH100(), 128, "global_batch=256", 400, 4);
  CHECK(odd.checked > 100);
}

TEST_CASE("memory bound <= exact peak: fixed layouts, uneven first and last stages",
          "[search][memory][prune]") {
  const ModelSpec dsv3 = LoadModel("deepseek-v3");
  const Cluster h800 = LoadCluster("hgx-h800");
  int64_t checked = 0;
  for (const char* plan : {
           "tp=1,pp=16,vpp=2,ep=64,micro_batch=1,global_batch=4096,pp_layout='Et*3|(tt|)*29,m|L'",
           "tp=1,pp=16,ep=64,micro_batch=1,global_batch=4096,pp_layers=3/4*14/2",
           "tp=2,pp=4,ep=64,micro_batch=1,global_batch=4096,pp_layers=1/20/20/20",
           "tp=2,pp=4,ep=64,micro_batch=1,global_batch=4096,pp_layers=28/11/11/11",
           "tp=2,pp=4,ep=64,micro_batch=1,global_batch=4096,pp_layout='Et*15|t*16|t*15m|t*15L'",
       }) {
    INFO(plan);
    checked += CheckFixed(dsv3, h800, 2048, plan, 120, 5).checked;
  }
  CHECK(checked > 200);
  checked = 0;
  for (const char* plan : {"tp=8,pp=8,micro_batch=1,global_batch=512,pp_layers=2/11*6/12",
                           "tp=8,pp=4,micro_batch=2,global_batch=512,pp_layers=30/17/17/16"}) {
    INFO(plan);
    checked += CheckFixed(test::Llama3_70B(), test::DgxH100(), 512, plan, 120, 6).checked;
  }
  CHECK(checked > 100);
}

TEST_CASE("memory bound: ZeRO-3's layer buffers and the last stage's extras are counted",
          "[search][memory][prune]") {
  // DeepSeek-V3 without expert parallelism under ZeRO-3: two gathered MoE layers (all 256
  // experts) dominate every stage; the bound holds them, so it is close to the peak.
  const ModelSpec m = LoadModel("deepseek-v3");
  const Cluster c = LoadCluster("gb200-nvl72");
  const StepModel model(m, c, 131072);
  const StepModelEvaluator evaluator(model);
  // The bound over the exact peak of one plan, which must be valid.
  auto bound_over_peak = [&](const char* plan_string) {
    INFO(plan_string);
    const ParallelPlan p = ResolvePlan(ParsePlanString(plan_string), 131072, m);
    REQUIRE(evaluator.Violations(p, true).empty());
    return evaluator.Bounds(p, evaluator.BoundTerms(p)).memory_bytes / evaluator.PeakMemoryBytes(p);
  };
  const double zero3 = bound_over_peak(
      "tp=16,pp=2,dp=2,cp=2048,ep=1,etp=1,micro_batch=4,global_batch=16384,"
      "recompute=none,zero=3,schedule=dualpipe");
  CHECK(zero3 <= 1.0);
  CHECK(zero3 >= 0.8);
  // ZeRO 2 with whole-stage buckets, 1F1B on 8 stages: the output layer, the logits and the MTP
  // modules on the last stage alone put the bound past half the peak.
  const double last_stage = bound_over_peak(
      "tp=1,pp=8,dp=16384,cp=1,ep=32,etp=1,micro_batch=1,global_batch=16384,"
      "recompute=full,sequence_parallel=false,zero=2,schedule=1f1b");
  CHECK(last_stage <= 1.0);
  CHECK(last_stage >= 0.5);
}
