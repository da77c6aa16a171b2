// The search's per-shape caches (search_core.cpp) change its speed, never its result: a rule
// verdict reused across the knobs PlanViolations does not read (StepModelEvaluator::RulesRead)
// equals the verdict of the plan itself, and the layer costs cached across the knobs
// MakePlanShape does not read (LayerCostKnob), with the communicator groups lent by a plan of the
// same placement, give the same peak memory and step time, bit for bit, as costing the plan alone,
// and so does the evaluator's layers memo, fresh, reused or recycled from another plan.
#include <catch2/catch.hpp>
#include <map>
#include <utility>

#include "../cost/test_specs.h"
#include "config/resolve.h"
#include "cost/memory_model.h"
#include "evaluate/step_model.h"
#include "plan/plan_string.h"
#include "sanitized_build.h"
#include "search/plan_space.h"
#include "search/step_model_evaluator.h"

using namespace paraplan;

namespace {

struct Always : StepGate {
  bool NeedStep(double) const override { return true; }
};

struct Never : StepGate {
  bool NeedStep(double) const override { return false; }
};

std::string FirstBroken(const StepModelEvaluator& evaluator, const ParallelPlan& p) {
  const std::vector<std::string> broken = evaluator.Violations(p, true);
  return broken.empty() ? std::string() : broken.front();
}

// Under the sanitizers, one cache key in kKeyStride is checked (every plan of it): the property
// over every key is the Release pass's; the sanitizer pass looks for memory errors and UB.
constexpr int64_t kKeyStride = testing::kSanitizedBuild ? 4 : 1;

// Every plan of the space: its first broken rule equals that of the first plan of its shape with
// the same digits in the knobs the rules read.
void CheckRuleVerdicts(const ModelSpec& m, const Cluster& c, int64_t gpus,
                       const std::string& plan) {
  const PlanSpace space(m, gpus, ParsePlanString(plan));
  const StepModel model(m, c, gpus);
  const StepModelEvaluator evaluator(model);
  std::map<std::pair<size_t, int64_t>, std::string> seen;
  int64_t reused = 0, broken = 0, visited = 0;
  for (PlanCursor cursor(space, 0); !cursor.AtEnd(); cursor.Next()) {
    const SpaceShape& s = space.shapes()[cursor.shape_index()];
    int64_t key = 0;
    for (int k = kSpaceKnobs - 1; k >= 0; --k) {
      if (evaluator.RulesRead(static_cast<SpaceKnob>(k))) {
        key = key * s.radix[k] + cursor.digits()[k];
      }
    }
    if (key % kKeyStride != 0) continue;
    ++visited;
    const std::string verdict = FirstBroken(evaluator, cursor.plan());
    broken += verdict.empty() ? 0 : 1;
    const auto [it, inserted] = seen.emplace(std::make_pair(cursor.shape_index(), key), verdict);
    if (inserted) continue;
    ++reused;
    INFO(PlanString(cursor.plan(), 0));
    REQUIRE(it->second == verdict);
  }
  CHECK(reused > visited / 2);
  CHECK(broken > 0);
}

// Every k-th valid plan: Cost with the terms of the first plan of its shape with the same
// layer-cost digits (and DualPipe bit), those terms built with the groups of the first plan of
// the shape with the same placement, equals PeakMemoryBytes and EstimateStepSeconds exactly.
void CheckCachedCosts(const ModelSpec& m, const Cluster& c, int64_t gpus, const std::string& plan,
                      int64_t every) {
  const PlanSpace space(m, gpus, ParsePlanString(plan));
  const StepModel model(m, c, gpus);
  const StepModelEvaluator evaluator(model);
  std::map<std::pair<size_t, int64_t>, PlanBoundTerms> terms;
  std::map<std::pair<size_t, int64_t>, PlanBoundTerms> groups;
  std::map<std::pair<size_t, int64_t>, PlanBoundTerms> loose_terms;
  int64_t checked = 0, shared = 0;
  std::unique_ptr<CostMemo> recycled;
  for (PlanCursor cursor(space, 0); !cursor.AtEnd(); cursor.Next()) {
    const ParallelPlan& p = cursor.plan();
    if (!evaluator.Violations(p, true).empty()) continue;
    const SpaceShape& s = space.shapes()[cursor.shape_index()];
    int64_t key = 0;
    for (int k = kSpaceKnobs - 1; k >= 0; --k) {
      key = key * s.radix[k] + (LayerCostKnob(static_cast<SpaceKnob>(k)) ? cursor.digits()[k] : 0);
    }
    key = 2 * key + (p.schedule == Schedule::kDualPipe ? 1 : 0);
    const int64_t placement = cursor.digits()[static_cast<int>(SpaceKnob::kPlacement)];
    const auto at = std::make_pair(cursor.shape_index(), placement);
    if (groups.find(at) == groups.end()) groups.emplace(at, evaluator.BoundTerms(p));
    int64_t loose_key = 0;
    for (int k = kSpaceKnobs - 1; k >= 0; --k) {
      loose_key = loose_key * s.radix[k] +
                  (AnyOverlapKnob(static_cast<SpaceKnob>(k)) ? cursor.digits()[k] : 0);
    }
    const auto loose_at = std::make_pair(cursor.shape_index(), loose_key);
    if (loose_terms.find(loose_at) == loose_terms.end()) {
      loose_terms.emplace(loose_at, evaluator.BoundTerms(p, nullptr, true));
    }
    const auto slot = std::make_pair(cursor.shape_index(), key);
    auto it = terms.find(slot);
    if (it == terms.end()) {
      it = terms.emplace(slot, evaluator.BoundTerms(p, &groups.at(at))).first;
    } else {
      ++shared;
    }
    if (cursor.index() % (every * kKeyStride) != 0) continue;
    INFO(PlanString(p, 0));
    const PlanCost cost = evaluator.Cost(p, &it->second, Always());
    REQUIRE(cost.stepped);
    CHECK(cost.memory_bytes == evaluator.PeakMemoryBytes(p));
    CHECK(cost.step_s == evaluator.EstimateStepSeconds(p));
    const PlanCost alone = evaluator.Cost(p, nullptr, Always());
    CHECK(alone.memory_bytes == cost.memory_bytes);
    CHECK(alone.step_s == cost.step_s);
    // A memo filled for an earlier plan (another shape, pp, vpp), handed over unfilled.
    if (recycled != nullptr) recycled->filled = false;
    const PlanCost refilled = evaluator.Cost(p, &it->second, Always(), &recycled);
    CHECK(refilled.memory_bytes == cost.memory_bytes);
    CHECK(refilled.step_s == cost.step_s);
    // And reused as filled: the step again from the same layers.
    const PlanCost again = evaluator.Cost(p, &it->second, Always(), &recycled);
    CHECK(again.memory_bytes == cost.memory_bytes);
    CHECK(again.step_s == cost.step_s);
    const PlanCost memory_only = evaluator.Cost(p, &it->second, Never());
    CHECK(!memory_only.stepped);
    CHECK(memory_only.memory_bytes == cost.memory_bytes);
    // The bounds from the cached terms are those from the plan's own.
    const PlanBounds cached = evaluator.Bounds(p, it->second);
    const PlanBounds own = evaluator.Bounds(p, evaluator.BoundTerms(p));
    CHECK(cached.step_s == own.step_s);
    CHECK(cached.memory_bytes == own.memory_bytes);
    // Any-overlap terms of the first plan of the class (other overlap switches, DualPipe or
    // not): the same memory bound, a step bound at most the exact one.
    const PlanBounds loose = evaluator.Bounds(p, loose_terms.at(loose_at));
    CHECK(loose.memory_bytes == own.memory_bytes);
    CHECK(loose.step_s <= own.step_s);
    ++checked;
  }
  CHECK(checked > 20);
  CHECK(shared > checked);
}

}  // namespace

TEST_CASE("cached rule verdicts equal the plan's own", "[search][cache]") {
  CheckRuleVerdicts(test::Llama3_70B(), test::DgxH100(), 64,
                    "global_batch=128,dp_comm_dtype=fp32|bf16,zero3_keep_gathered=true|false");
  CheckRuleVerdicts(test::Mixtral8x7B(), test::Nvl72(), 72,
                    "global_batch=144,moe_routing=dropless|drop,seq_len=4096|4095");
  CheckRuleVerdicts(LoadModel("deepseek-v3"), LoadCluster("gb200-nvl72"), 256,
                    "global_batch=512,pp=1|2|4|8|16");
  ModelSpec uneven = test::Llama3_70B();
  uneven.layers = 126;
  CheckRuleVerdicts(uneven, test::DgxH100(), 128, "global_batch=256");
}

TEST_CASE("cached layer costs give the plan's own memory and step time", "[search][cache]") {
  CheckCachedCosts(test::Gpt3_175B(), test::DgxH100(), 64,
                   "global_batch=128,dp_comm_dtype=fp32|bf16,overlap_grad_reduce=true|false", 7);
  CheckCachedCosts(test::Mixtral8x7B(), test::Nvl72(), 72,
                   "global_batch=144,placement=tp-cp-ep-dp-pp|tp-dp-cp-ep-pp", 5);
  CheckCachedCosts(LoadModel("deepseek-v3"), LoadCluster("gb200-nvl72"), 1024, "global_batch=2048",
                   193);
  ModelSpec uneven = test::Llama3_70B();
  uneven.layers = 126;
  CheckCachedCosts(uneven, test::DgxH100(), 128, "global_batch=256", 3);
}

TEST_CASE("the held micro-batch profile in closed form equals the sum over the stages",
          "[search][prune]") {
  int64_t checked = 0;
  for (Schedule schedule :
       {Schedule::kGpipe, Schedule::k1F1B, Schedule::kInterleaved, Schedule::kZeroBubble}) {
    for (int64_t pp : {2, 3, 4, 7, 8, 16, 61, 64}) {
      for (int64_t vpp : {1, 2, 3, 8}) {
        if (vpp > 1 && schedule != Schedule::kInterleaved) continue;
        for (int64_t m : {1, 2, 3, 5, 8, 15, 16, 17, 63, 64, 65, 128, 1000}) {
          ParallelPlan p;
          p.pp = pp;
          p.vpp = vpp;
          p.schedule = schedule;
          p.dp = 1;
          p.micro_batch = 1;
          p.global_batch = m;
          double inv_sum = 0, max = 0, last = 0;
          for (int64_t s = 0; s < pp; ++s) {
            const double held = MicroBatchesHeld(p, s);
            inv_sum += 1.0 / held;
            max = std::max(max, held);
            last = held;
          }
          const HeldProfile h = MicroBatchesHeldProfile(p);
          INFO(ToString(schedule) << " pp=" << pp << " vpp=" << vpp << " m=" << m);
          CHECK(h.inv_sum == Approx(inv_sum).epsilon(1e-12));
          CHECK(h.max == max);
          CHECK(h.last == last);
          ++checked;
        }
      }
    }
  }
  CHECK(checked > 100);
}
