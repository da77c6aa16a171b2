// The search's caches and bounds change what it costs, never what it returns (issue 36): for
// every searchable knob of the knob table (plan/knob_table.h), fixed to a value other than the
// base plan's and searched over a list, alone and in pairs (both searched, or one fixed and one
// searched), the pruned search, the exhaustive one and an exhaustive one whose rule cache shares
// no verdict across any knob return the same plans, front, counts and skip tally — on a small
// dense model (with roomy and with tight memory) and a small MoE model, the MoE one also with
// moe_pad_to_capacity (where the rules read moe_routing). Run alone with
// `paraplan_tests "[knob-property]"`: about 3,000 searches, a few CPU-seconds in the Release
// build (15 s on the shared 2-core machine under load).
#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

#include "../cost/test_specs.h"
#include "config/resolve.h"
#include "evaluate/step_model.h"
#include "plan/knob_table.h"
#include "plan/plan_string.h"
#include "search/plan_space.h"
#include "search/search.h"
#include "search/search_core.h"
#include "search/space_knobs.h"
#include "search/step_model_evaluator.h"
#include "search_helpers.h"

using namespace paraplan;

namespace {

using test::Describe;
using test::Skips;

// The same evaluator with every verdict checked (RulesRead true for every knob, the
// PlanEvaluator default): the reference the cached rules must equal.
class UncachedRules : public StepModelEvaluator {
 public:
  using StepModelEvaluator::StepModelEvaluator;
  bool RulesRead(SpaceKnob) const override { return true; }
};

ModelSpec SmallDense() {
  ModelSpec m = test::Llama3_70B();
  m.name = "small-dense";
  m.layers = 8;
  m.hidden = 2048;
  m.heads = 16;
  m.kv_heads = 4;
  m.ffn_hidden = 8192;
  m.vocab = 32000;
  m.seq_len = 2048;
  return m;
}

ModelSpec SmallMoe() {
  ModelSpec m = test::Mixtral8x7B();
  m.name = "small-moe";
  m.layers = 8;
  m.hidden = 2048;
  m.heads = 16;
  m.kv_heads = 4;
  m.ffn_hidden = 4096;
  m.seq_len = 2048;
  m.moe->experts = 4;
  m.moe->expert_ffn_hidden = 4096;
  return m;
}

// A value other than the base plan's (fixed) and a list (searched) for each searchable knob.
struct KnobValues {
  std::string fixed, searched;
};

const std::map<std::string, KnobValues>& Values() {
  static const std::map<std::string, KnobValues> values = {
      {"tp", {"4", "1|2|4"}},
      {"pp", {"4", "1|2|4"}},
      {"dp", {"2", "1|2|4"}},
      {"cp", {"2", "1|2"}},
      {"ep", {"2", "1|2|4"}},
      {"etp", {"2", "1|2"}},
      {"vpp", {"2", "1|2"}},
      {"micro_batch", {"2", "1|2|4"}},
      {"global_batch", {"32", "16|32"}},
      {"seq_len", {"4096", "2048|4096"}},
      {"recompute", {"selective", "none|selective|full|op"}},
      {"sequence_parallel", {"false", "false|true"}},
      {"zero", {"3", "0|1|2|3"}},
      {"precision", {"fp8", "bf16|fp8"}},
      {"schedule", {"interleaved", "gpipe|1f1b|interleaved|zero-bubble|dualpipe"}},
      {"moe_routing", {"drop", "dropless|drop"}},
      {"moe_capacity_factor", {"1.25", "1|1.25"}},
      {"moe_imbalance", {"1.3", "1|1.3"}},
      {"dp_comm_dtype", {"bf16", "fp32|bf16"}},
      {"grad_reduce_in_fp32", {"false", "true|false"}},
      {"dp_bucket_MB", {"25", "0|25"}},
      {"placement", {"tp-dp-cp-ep-pp", "tp-cp-ep-dp-pp|tp-dp-cp-ep-pp"}},
      {"overlap_grad_reduce", {"false", "true|false"}},
      {"overlap_param_gather", {"false", "true|false"}},
      {"overlap_tp_comm", {"true", "false|true"}},
      {"overlap_ep_comm", {"true", "false|true"}},
      {"overlap_pp_comm", {"false", "true|false"}},
      {"zero3_keep_gathered", {"true", "false|true"}},
  };
  return values;
}

// Every knob pinned but the micro-batch and ZeRO (a few dozen plans, so that the bounds prune
// and the rule cache shares verdicts), 8 GPUs as tp 2 × pp 2 × dp 2.
const char* const kBase =
    "tp=2,pp=2,cp=1,ep=1,etp=1,vpp=1,global_batch=16,seq_len=2048,recompute=none,"
    "sequence_parallel=true,precision=bf16,schedule=1f1b,moe_routing=dropless,"
    "moe_capacity_factor=1,moe_imbalance=1,dp_comm_dtype=fp32,grad_reduce_in_fp32=true,"
    "dp_bucket_MB=0,placement=tp-cp-ep-dp-pp,overlap_grad_reduce=true,"
    "overlap_param_gather=true,overlap_tp_comm=false,overlap_ep_comm=false,"
    "overlap_pp_comm=true,zero3_keep_gathered=false";

// The base with `knob=value` in place of the base's value (or added).
std::string With(std::string plan, const std::string& knob, const std::string& value) {
  std::string out;
  bool replaced = false;
  size_t at = 0;
  while (at <= plan.size()) {
    const size_t end = std::min(plan.find(',', at), plan.size());
    const std::string item = plan.substr(at, end - at);
    std::string put = item;
    if (item.rfind(knob + "=", 0) == 0) {
      put = knob + "=" + value;
      replaced = true;
    }
    out += (out.empty() ? "" : ",") + put;
    at = end + 1;
  }
  if (!replaced) out += "," + knob + "=" + value;
  return out;
}

void CheckSameResults(const SearchResult& a, const SearchResult& b) {
  CHECK(Describe(a.plans) == Describe(b.plans));
  CHECK(a.plans_folded == b.plans_folded);
  CHECK(Describe(a.pareto) == Describe(b.pareto));
  CHECK(a.pareto_total == b.pareto_total);
  CHECK(a.searched == b.searched);
  CHECK(Skips(a) == Skips(b));
  CHECK(a.skipped_total == b.skipped_total);
  CHECK(a.why_nothing_fits == b.why_nothing_fits);
  CHECK(Describe(a.closest) == Describe(b.closest));
}

struct KnobContext {
  const ModelSpec& model;
  const Cluster& cluster;
  const StepModelEvaluator& evaluator;
  const UncachedRules& uncached;
  int64_t searches = 0;
  int64_t plans = 0;
  int64_t unfit = 0;  // rule-valid plans that do not fit in memory
};

// Pruned, exhaustive and exhaustive with uncached rules give one answer.
void CheckPlan(KnobContext& ctx, const std::string& plan) {
  INFO(ctx.model.name << ": --plan \"" << plan << "\"");
  const PlanSpace space(ctx.model, 8, ParsePlanString(plan));
  SearchOptions o;
  o.threads = 2;
  o.top_k = 3;
  o.simulate_top = 3;
  o.pareto_k = 3;
  const SearchResult pruned = SearchSpace(space, ctx.evaluator, ctx.model.seq_len, o);
  o.exhaustive = true;
  const SearchResult exhaustive = SearchSpace(space, ctx.evaluator, ctx.model.seq_len, o);
  const SearchResult reference = SearchSpace(space, ctx.uncached, ctx.model.seq_len, o);
  CheckSameResults(pruned, exhaustive);
  CheckSameResults(exhaustive, reference);
  CHECK(exhaustive.evaluated == reference.evaluated);
  CHECK(exhaustive.feasible == reference.feasible);
  CHECK(pruned.evaluated + pruned.pruned == exhaustive.evaluated);
  ++ctx.searches;
  ctx.plans += space.size();
  ctx.unfit += exhaustive.evaluated - exhaustive.feasible;
}

// Each searchable knob fixed and searched alone, then every pair: both searched, and one fixed
// with the other searched.
void CheckEveryKnob(const ModelSpec& m, const std::string& base, double memory_GiB = 80) {
  Cluster c = test::DgxH100();
  c.gpu.memory_GiB = memory_GiB;
  const StepModel model(m, c, 8);
  const StepModelEvaluator evaluator(model);
  const UncachedRules uncached(model);
  KnobContext ctx{m, c, evaluator, uncached};
  std::vector<std::string> knobs;
  for (const KnobRow& row : KnobTable()) {
    if (!row.searched) continue;
    const std::string name(row.name);
    INFO("knob " << name);
    REQUIRE(Values().count(name) == 1);  // a new searchable knob needs its values here
    knobs.push_back(name);
  }
  CheckPlan(ctx, base);
  for (const std::string& k : knobs) {
    CheckPlan(ctx, With(base, k, Values().at(k).fixed));
    CheckPlan(ctx, With(base, k, Values().at(k).searched));
  }
  for (size_t i = 0; i < knobs.size(); ++i) {
    for (size_t j = 0; j < knobs.size(); ++j) {
      if (i == j) continue;
      const KnobValues& a = Values().at(knobs[i]);
      const std::string searched = Values().at(knobs[j]).searched;
      if (i < j) CheckPlan(ctx, With(With(base, knobs[i], a.searched), knobs[j], searched));
      CheckPlan(ctx, With(With(base, knobs[i], a.fixed), knobs[j], searched));
    }
  }
  const auto n = static_cast<int64_t>(knobs.size());
  CHECK(ctx.searches == 1 + 2 * n + n * (n - 1) / 2 + n * (n - 1));
  CHECK(ctx.plans > ctx.searches);
  if (memory_GiB < 16) CHECK(ctx.unfit > 0);  // plans that do not fit: the memory side runs
}

}  // namespace

TEST_CASE("every searchable knob has test values and its space knob's stages", "[knob-property]") {
  for (const KnobRow& row : KnobTable()) {
    if (row.searched) CHECK(Values().count(std::string(row.name)) == 1);
  }
  // The caches read the table: the rules read moe_routing (under moe_pad_to_capacity), not
  // recompute; the layer cost reads the overlap switches, not ZeRO.
  CHECK(SpaceKnobReadBy(SpaceKnob::kMoeRouting, kReadByRules));
  CHECK(!SpaceKnobReadBy(SpaceKnob::kRecompute, kReadByRules));
  CHECK(SpaceKnobReadBy(SpaceKnob::kOverlapTp, kReadByLayerCost));
  CHECK(!SpaceKnobReadBy(SpaceKnob::kZero, kReadByLayerCost));
}

TEST_CASE("pruned equals exhaustive for every knob: small dense model", "[knob-property]") {
  CheckEveryKnob(SmallDense(), kBase);
}

TEST_CASE("pruned equals exhaustive for every knob: small MoE model", "[knob-property]") {
  CheckEveryKnob(SmallMoe(), kBase);
}

TEST_CASE("pruned equals exhaustive for every knob: tight memory", "[knob-property]") {
  // 12 GiB: many plans do not fit, so the memory bounds prune and some spaces fit nothing.
  CheckEveryKnob(SmallDense(), kBase, 12);
}

TEST_CASE("pruned equals exhaustive for every knob: MoE padded to capacity", "[knob-property]") {
  // The rules read moe_routing here (padding needs moe_routing=drop): the issue-36 cache bug.
  CheckEveryKnob(SmallMoe(), std::string(kBase) + ",moe_pad_to_capacity=true");
}

TEST_CASE("moe_routing searched under moe_pad_to_capacity: the rules judge each routing",
          "[knob-property]") {
  // Issue 36: the rule cache handed drop's verdict to dropless (or the reverse), so the tally
  // depended on which came first in a chunk.
  const ModelSpec m = SmallMoe();
  const Cluster c = test::DgxH100();
  const PlanSpace space(
      m, 8, ParsePlanString("global_batch=16,moe_pad_to_capacity=true,moe_routing=drop|dropless"));
  const StepModel model(m, c, 8);
  const StepModelEvaluator evaluator(model);
  SearchOptions o;
  o.threads = 2;
  o.exhaustive = true;
  const SearchResult r = SearchSpace(space, evaluator, m.seq_len, o);
  int64_t padded = 0;
  for (const SkipReason& s : r.skipped) {
    if (s.rule.rfind("moe_pad_to_capacity needs moe_routing=drop", 0) == 0) padded = s.count;
  }
  // The padding rule's tally is the dropless plans whose first broken rule it is (no drop plan
  // breaks it), counted here plan by plan without any cache.
  int64_t dropless_padding_first = 0;
  for (int64_t i = 0; i < space.size(); ++i) {
    const ParallelPlan p = space.At(i);
    if (p.moe_routing != MoeRouting::kDropless) continue;
    const std::vector<std::string> v = evaluator.Violations(p, true);
    if (!v.empty() && v.front().rfind("moe_pad_to_capacity", 0) == 0) ++dropless_padding_first;
  }
  CHECK(padded > 0);
  CHECK(padded == dropless_padding_first);
  for (const StepResult& p : r.plans) CHECK(p.plan.moe_routing == MoeRouting::kDrop);
}

TEST_CASE("plan --plan vpp=2 returns only vpp=2 plans", "[knob-property]") {
  // Issue 34: one-stage shapes ignored the fixed vpp and led the ranking with vpp = 1.
  const ModelSpec m = SmallDense();
  SearchOptions o;
  o.threads = 2;
  o.top_k = 5;
  const SearchResult r =
      SearchPlans(m, test::DgxH100(), 8, ParsePlanString("global_batch=16,vpp=2"), o);
  REQUIRE(!r.plans.empty());
  for (const StepResult& p : r.plans) {
    CHECK(p.plan.vpp == 2);
    CHECK(p.plan.pp > 1);
  }
  bool one_stage_skipped = false;
  for (const SkipReason& s : r.skipped) {
    one_stage_skipped |= s.rule == "schedule=interleaved needs pp >= N";
  }
  CHECK(one_stage_skipped);
}
