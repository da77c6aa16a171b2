#include "cost/plan_evaluation.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <vector>

#include "cost/stage_key.h"
#include "cost/stage_memory.h"
#include "evaluate/step_model.h"
#include "test_specs.h"

using namespace paraplan;

namespace {

// Dense and MoE layers every other layer after two dense ones, sliding windows every third:
// stages of equal size can hold different mixes of layer kinds.
ModelSpec MixedKinds() {
  ModelSpec m = test::Mixtral8x7B();
  m.layers = 30;
  m.moe->dense_layers = 2;
  m.moe->every = 2;
  m.sliding_window = 1024;
  m.sliding_window_every = 3;
  return m;
}

struct Evaluated {
  PlanEvaluation eval;
  CostGraph dims;
};

void EvaluatePipe(const ModelSpec& m, const Cluster& c, const ParallelPlan& p, Evaluated* out) {
  out->dims = BuildCostGraph(m);
  EvaluatePlanTime(out->dims, c, ResolveNetworkLinks(c), p, &out->eval);
}

double MaxOverStages(const Evaluated& e, const ParallelPlan& p) {
  double peak = 0;
  for (int64_t s = 0; s < p.pp; ++s) {
    peak = std::max(peak, EvaluateStageMemory(e.dims, p, e.eval, s).TotalBytes());
  }
  return peak;
}

ParallelPlan PipePlan(int64_t pp, int64_t dp, Schedule schedule, int64_t vpp) {
  ParallelPlan p;
  p.pp = pp;
  p.dp = dp;
  p.global_batch = 8 * dp * pp;
  p.schedule = schedule;
  p.vpp = vpp;
  return p;
}

}  // namespace

TEST_CASE("the peak over stages is the largest stage, for every schedule and layer mix", "[cost]") {
  const Cluster c = test::DgxH100();
  const std::vector<ModelSpec> models = {test::Gpt3_175B(), MixedKinds()};
  const Schedule schedules[] = {Schedule::k1F1B, Schedule::kGpipe, Schedule::kZeroBubble,
                                Schedule::kDualPipe};
  for (const ModelSpec& m : models) {
    for (int64_t pp : {1, 2, 3, 5, 8, 16, 30}) {
      if (pp > m.layers) continue;
      for (Schedule schedule : schedules) {
        ParallelPlan p = PipePlan(pp, 2, schedule, 1);
        p.zero = pp % 2 == 0 ? 1 : 3;
        Evaluated e;
        EvaluatePipe(m, c, p, &e);
        CHECK(EvaluatePeakMemory(e.dims, p, e.eval) == MaxOverStages(e, p));
      }
      if (pp >= 2 && m.layers % (2 * pp) == 0) {
        const ParallelPlan p = PipePlan(pp, 2, Schedule::kInterleaved, 2);
        Evaluated e;
        EvaluatePipe(m, c, p, &e);
        CHECK(EvaluatePeakMemory(e.dims, p, e.eval) == MaxOverStages(e, p));
      }
    }
  }
}

TEST_CASE("the peak from the candidate stages is the peak, for every plan sharing the layers",
          "[cost]") {
  // The search computes PeakMemoryCandidates once per layout and uses them for every plan with
  // the same layers and DualPipe bit: other schedules, ZeRO levels and micro-batch counts.
  const Cluster c = test::DgxH100();
  const std::vector<ModelSpec> models = {test::Gpt3_175B(), MixedKinds()};
  int sharing = 0;
  for (const ModelSpec& m : models) {
    for (int64_t pp : {1, 2, 3, 5, 8, 16, 30}) {
      if (pp > m.layers) continue;
      for (Schedule first : {Schedule::k1F1B, Schedule::kDualPipe}) {
        Evaluated e;
        EvaluatePipe(m, c, PipePlan(pp, 2, first, 1), &e);
        const PeakMemoryStages stages = PeakMemoryCandidates(PipePlan(pp, 2, first, 1), e.eval);
        REQUIRE(stages.count > 0);
        CHECK(stages.count <= pp);
        if (stages.count < (first == Schedule::kDualPipe ? (pp + 1) / 2 : pp)) ++sharing;
        const std::vector<Schedule> others =
            first == Schedule::kDualPipe
                ? std::vector<Schedule>{Schedule::kDualPipe}
                : std::vector<Schedule>{Schedule::k1F1B, Schedule::kGpipe, Schedule::kZeroBubble};
        for (Schedule schedule : others) {
          for (int zero = 0; zero <= 3; ++zero) {
            for (int64_t per_rank : {1, 4, 64}) {
              ParallelPlan p = PipePlan(pp, 2, schedule, 1);
              p.zero = zero;
              p.global_batch = per_rank * p.dp * p.micro_batch;  // few or many micro-batches
              const double all = MaxOverStages(e, p);
              CHECK(EvaluatePeakMemory(e.dims, p, e.eval, stages) == all);
              CHECK(EvaluatePeakMemory(e.dims, p, e.eval) == all);
            }
          }
        }
      }
    }
  }
  CHECK(sharing > 0);  // some layouts have stages that cannot be the peak
}

TEST_CASE("stages with the same layers get the same times, uneven pp_layers are kept", "[cost]") {
  const Cluster c = test::DgxH100();
  ParallelPlan p = PipePlan(4, 2, Schedule::k1F1B, 1);
  p.pp_layers = {3, 9, 9, 9};
  Evaluated mixed;
  EvaluatePipe(MixedKinds(), c, p, &mixed);
  CHECK(mixed.eval.layers[0] == 3);
  CHECK(mixed.eval.begins[3] == 21);
  CHECK(mixed.eval.times[1].f != mixed.eval.times[2].f);  // 9 layers, another mix of kinds
  p = PipePlan(8, 2, Schedule::k1F1B, 1);
  p.zero = 3;
  Evaluated gpt;
  EvaluatePipe(test::Gpt3_175B(), c, p, &gpt);
  const PlanEvaluation& e = gpt.eval;
  int pairs = 0;
  for (int64_t a = 1; a < p.pp - 1; ++a) {
    for (int64_t b = a + 1; b < p.pp - 1; ++b) {
      if (e.layers[a] != e.layers[b]) continue;
      ++pairs;
      CHECK(e.times[a].f == e.times[b].f);
      CHECK(e.times[a].b == e.times[b].b);
      CHECK(e.dp[a].grad_s == e.dp[b].grad_s);
      CHECK(e.dp[a].zero3_gather_s == e.dp[b].zero3_gather_s);
    }
  }
  CHECK(pairs > 0);
  CHECK(EvaluatePeakMemory(gpt.dims, p, e) == MaxOverStages(gpt, p));
}

TEST_CASE("pipelines deeper than the inline stage storage evaluate the same way", "[cost]") {
  ModelSpec m = test::Gpt3_175B();
  m.layers = 2 * kInlineStages + 4;
  const Cluster c = test::DgxH100();
  const int64_t pp = kInlineStages + 2;  // 2 layers on most stages, 3 on two
  const ParallelPlan p = PipePlan(pp, 1, Schedule::k1F1B, 1);
  const StepModel model(m, c, pp);
  const StepResult r = model.Estimate(p);
  CHECK(r.memory.size() == static_cast<size_t>(pp));
  CHECK(model.EstimateStepSeconds(p) == r.step_time_s);
  CHECK(model.PeakMemoryBytes(p) == r.peak_memory_bytes);
  Evaluated e;
  EvaluatePipe(m, c, p, &e);
  int64_t layers = 0;
  for (int64_t s = 0; s < pp; ++s) layers += e.eval.layers[s];
  CHECK(layers == m.layers);
}

TEST_CASE("Megatron-LM 2021 sends 1/tp of a stage's output and all-gathers it over TP", "[cost]") {
  const ModelSpec m = test::Gpt3_175B();  // h 12288, seq 2048
  const Cluster c = test::DgxA100();
  ParallelPlan p;
  p.tp = 8;
  p.pp = 4;
  p.dp = 1;
  p.micro_batch = 1;
  p.global_batch = 8;
  p.sequence_parallel = false;
  p.kernels.fusion = Fusion::kApex;
  Evaluated apex;
  EvaluatePipe(m, c, p, &apex);
  const NetworkLinks links = ResolveNetworkLinks(c);
  const double bytes = 2.0 * 2048 * 12288;  // one micro-batch's activation, replicated over TP
  const GroupPlacement pair = PlaceGroup(2, apex.eval.shape.groups.pp.stride, c);
  CHECK(
      apex.eval.p2p_s ==
      Approx(CollectiveSeconds(CollectiveOp::kSendRecv, bytes / 8, pair, links) +
             CollectiveSeconds(CollectiveOp::kAllGather, bytes, apex.eval.shape.groups.tp, links)));
  // Megatron-Core sends the whole tensor without sequence parallelism (its 1/tp with it).
  p.kernels.fusion = Fusion::kTe;
  Evaluated te;
  EvaluatePipe(m, c, p, &te);
  CHECK(te.eval.p2p_s == Approx(CollectiveSeconds(CollectiveOp::kSendRecv, bytes, pair, links)));
  CHECK(apex.eval.p2p_s < te.eval.p2p_s);  // the stages sit on different nodes: 1/8 on the NIC
}

TEST_CASE("PyTorch's ring passes K/V gradients in fp32, repeat_kv passes the query heads",
          "[cost]") {
  const ModelSpec m = test::Llama3_70B();  // 64 q / 8 kv heads x 128, 8192 tokens
  const Cluster c = test::DgxH100();
  const NetworkLinks links = ResolveNetworkLinks(c);
  const CostGraph d = BuildCostGraph(m);
  ParallelPlan p;
  p.cp = 4;
  p.dp = 1;
  p.micro_batch = 1;
  p.global_batch = 1;
  const auto busy = [&](const ParallelPlan& plan, double* fwd, double* bwd) {
    const PlanShape shape = MakePlanShape(d, plan, c);
    const LayerCost l = ComputeLayerCost(d, 0, shape, c);
    *fwd = l.comm_busy_fwd_s[kCommCp];
    *bwd = l.comm_busy_bwd_s[kCommCp];
    return shape.groups.cp;
  };
  const auto step = [&](const GroupPlacement& g, double bytes) {
    return CollectiveSeconds(CollectiveOp::kSendRecv, bytes, g, links);
  };
  const double kv_bytes = 2.0 * (8192 / 4) * 8 * 256;  // bf16 K and V of 2048 local tokens
  double fwd = 0, bwd = 0;
  // Transformer Engine: K/V forward, K/V and their bf16 gradients backward, cp - 1 steps each.
  GroupPlacement g = busy(p, &fwd, &bwd);
  CHECK(fwd == Approx(3 * step(g, kv_bytes)));
  CHECK(bwd == Approx(2 * fwd));
  // PyTorch: the gradients travel in fp32 and make all cp steps (the last brings them home).
  p.kernels.fusion = Fusion::kEager;
  g = busy(p, &fwd, &bwd);
  CHECK(fwd == Approx(3 * step(g, kv_bytes)));
  CHECK(bwd == Approx(fwd + 4 * step(g, 2 * kv_bytes)));
  // torchtitan's repeat_kv: everything at the 64 query heads, 8x the bytes.
  p.kernels.repeat_kv = true;
  g = busy(p, &fwd, &bwd);
  CHECK(fwd == Approx(3 * step(g, 8 * kv_bytes)));
  CHECK(bwd == Approx(fwd + 4 * step(g, 16 * kv_bytes)));
}

TEST_CASE("full recompute replays the forward's collectives inside the backward", "[cost]") {
  const ModelSpec m = test::Gpt3_175B();
  const Cluster c = test::DgxH100();
  const CostGraph d = BuildCostGraph(m);
  ParallelPlan p;
  p.tp = 8;
  p.cp = 2;
  p.dp = 1;
  p.micro_batch = 1;
  p.global_batch = 1;
  p.sequence_parallel = true;
  p.recompute = Recompute::kSelective;
  const LayerCost kept = ComputeLayerCost(d, 0, MakePlanShape(d, p, c), c);
  p.recompute = Recompute::kFull;
  const LayerCost full = ComputeLayerCost(d, 0, MakePlanShape(d, p, c), c);
  REQUIRE(kept.tp_comm_fwd_s > 0);
  CHECK(full.tp_comm_fwd_s == Approx(kept.tp_comm_fwd_s));
  CHECK(full.tp_comm_s == Approx(kept.tp_comm_s + kept.tp_comm_fwd_s));
  CHECK(full.cp_comm_s == Approx(kept.cp_comm_s + kept.cp_comm_fwd_s));
  CHECK(full.net_bwd_s == Approx(kept.net_bwd_s + kept.net_fwd_s));
}

TEST_CASE("every pipeline hop is costed on the link its stage boundary crosses", "[cost]") {
  // tp=4, pp=4 on two 8-GPU nodes: stages 0 and 1 share node 0, stages 2 and 3 node 1; the
  // 1 -> 2 hop crosses the network, 0 -> 1 and 2 -> 3 stay on NVLink.
  const ModelSpec m = test::Gpt3_175B();  // h 12288, seq 2048
  Cluster c = test::DgxH100();
  ParallelPlan p;
  p.tp = 4;
  p.pp = 4;
  p.dp = 1;
  p.micro_batch = 1;
  p.global_batch = 8;
  Evaluated e;
  EvaluatePipe(m, c, p, &e);
  const NetworkLinks links = ResolveNetworkLinks(c);
  const double bytes = 2.0 * 2048 * 12288;  // one micro-batch's bf16 activations
  const double nvlink = CollectiveSeconds(CollectiveOp::kSendRecv, bytes, PairOnTier(0, 4), links);
  const double net = CollectiveSeconds(CollectiveOp::kSendRecv, bytes, PairOnTier(1, 4), links);
  REQUIRE(e.eval.hops.size() == 4);
  CHECK(e.eval.hops[0].tier == 0);
  CHECK(e.eval.hops[1].tier == 1);
  CHECK(e.eval.hops[2].tier == 0);
  CHECK(e.eval.hops[0].s == Approx(nvlink));
  CHECK(e.eval.hops[1].s == Approx(net));
  CHECK(e.eval.p2p_s == Approx(net));  // the slowest hop
  // Stage 1 sends forward across the network and backward over NVLink; stage 2 the reverse.
  CHECK(StageSendHop(p, e.eval, 1, true).s == Approx(net));
  CHECK(StageSendHop(p, e.eval, 1, false).s == Approx(nvlink));
  CHECK(StageSendHop(p, e.eval, 2, false).s == Approx(net));
  CHECK(StageSendHop(p, e.eval, 0, true).s == Approx(nvlink));
  // Fill and drain pay each boundary once per direction.
  CHECK(e.eval.pp_comm_s == Approx(2 * (nvlink + net + nvlink)));

  // The network's bandwidth now reaches the step, in the estimate and in the simulation.
  const StepModel fast(m, c, 16);
  Cluster slow_net = c;
  slow_net.network[1].bandwidth_GBps = 0.5;
  const StepModel slow(m, slow_net, 16);
  CHECK(slow.Estimate(p).step_time_s > fast.Estimate(p).step_time_s + 1e-3);
  CHECK(slow.Simulate(p).step_time_s > fast.Simulate(p).step_time_s + 1e-3);
  // With the pipeline innermost (stride 1, each pipeline inside one node) no hop crosses.
  p.placement = {ParallelDim::kPp, ParallelDim::kTp, ParallelDim::kCp, ParallelDim::kEp,
                 ParallelDim::kDp};
  Evaluated inner;
  EvaluatePipe(m, c, p, &inner);
  for (int64_t b = 0; b < 3; ++b) CHECK(inner.eval.hops[b].tier == 0);
  // The tiers follow the cluster's spans too, not only the pipeline's shape (a thread remembers
  // the last pipeline's hop tiers, keyed by both): 16-GPU NVLink domains hold the whole pipeline.
  p.placement = ParallelPlan{}.placement;
  Cluster wide = c;
  wide.network[0].span = 16;
  REQUIRE(wide.network[1].span > 16);
  Evaluated spanned;
  EvaluatePipe(m, wide, p, &spanned);
  for (int64_t b = 0; b < 3; ++b) CHECK(spanned.eval.hops[b].tier == 0);
  Evaluated again;
  EvaluatePipe(m, c, p, &again);
  CHECK(again.eval.hops[1].tier == 1);
}

TEST_CASE("stage classes found once per layout give every sharing plan the same times", "[cost]") {
  // The search finds StageClassesOf once per layout and steps every plan with the same layers
  // from them (other schedules of one vpp, ZeRO levels, DP knobs, overlap switches).
  const Cluster c = test::DgxH100();
  const NetworkLinks links = ResolveNetworkLinks(c);
  const std::vector<ModelSpec> models = {test::Gpt3_175B(), MixedKinds()};
  int shared_keys = 0;
  for (const ModelSpec& m : models) {
    const CostGraph dims = BuildCostGraph(m);
    for (int64_t pp : {1, 2, 3, 5, 8, 30}) {
      if (pp > m.layers) continue;
      PlanEvaluation layers;
      EvaluatePlanLayers(dims, c, links, PipePlan(pp, 2, Schedule::k1F1B, 1), &layers);
      StageClasses classes;
      StageClassesOf(PipePlan(pp, 2, Schedule::k1F1B, 1), layers, &classes);
      REQUIRE(classes.of.size() == static_cast<size_t>(pp));
      if (classes.keys.size() < static_cast<size_t>(pp)) ++shared_keys;
      for (Schedule schedule : {Schedule::k1F1B, Schedule::kGpipe, Schedule::kZeroBubble}) {
        for (int zero = 0; zero <= 3; ++zero) {
          for (bool overlap : {false, true}) {
            ParallelPlan p = PipePlan(pp, 2, schedule, 1);
            p.zero = zero;
            p.overlap_grad_reduce = overlap;
            p.overlap_param_gather = overlap;
            p.overlap_pp_comm = !overlap;
            p.dp_bucket_MB = overlap ? 0 : 40;
            // `layers` is reused from plan to plan, as the search reuses its memo's evaluation.
            PlanEvaluation& with = layers;
            PlanEvaluation without;
            EvaluatePlanLayers(dims, c, links, PipePlan(pp, 2, Schedule::k1F1B, 1), &without);
            EvaluatePlanTimeAfterLayers(dims, c, links, p, &with, &classes);
            EvaluatePlanTimeAfterLayers(dims, c, links, p, &without);
            CHECK(with.step_s == without.step_s);
            CHECK(with.dp_exposed_s == without.dp_exposed_s);
            for (int64_t s = 0; s < pp; ++s) {
              CHECK(with.times[s].f == without.times[s].f);
              CHECK(with.times[s].b == without.times[s].b);
              CHECK(with.times[s].w == without.times[s].w);
              CHECK(with.dp[s].grad_exposed_s == without.dp[s].grad_exposed_s);
              CHECK(with.comm[s].ExposedS() == without.comm[s].ExposedS());
            }
          }
        }
      }
    }
  }
  CHECK(shared_keys > 0);  // some layouts have stages with equal keys
}
