#include "sim/pipeline_simulator.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <tuple>

#include "core/error.h"

using namespace paraplan;

namespace {

PipelineInput UniformInput(Schedule schedule, int64_t pp, int64_t vpp, int64_t m, Nanos f,
                           Nanos b) {
  PipelineInput in;
  in.schedule = schedule;
  in.pp = pp;
  in.vpp = vpp;
  in.micro_batches = m;
  const int64_t chunks = schedule == Schedule::kInterleaved ? vpp : 1;
  ChunkCost cost;
  cost.forward = f;
  cost.backward_input = b / 2;
  cost.backward_weight = b - b / 2;
  in.stages.assign(pp, StageCost{});
  for (StageCost& s : in.stages) s.chunks.assign(chunks, cost);
  return in;
}

// Every task starts no earlier than its input arrived (the producer's end + p2p on another
// stage), and the compute stream of a stage never runs two tasks at once.
void CheckDependencies(const PipelineInput& in, const PipelineResult& r) {
  std::map<std::tuple<char, int64_t, int64_t, int64_t>, const TimelineEvent*> by_key;
  std::map<int64_t, std::vector<const TimelineEvent*>> compute;
  for (const TimelineEvent& e : r.timeline) {
    if (e.stream != "compute" || e.micro_batch < 0) continue;
    by_key[{e.name[0], e.micro_batch, e.stage, e.chunk}] = &e;
    compute[e.stage].push_back(&e);
  }
  const bool dual = in.schedule == Schedule::kDualPipe;
  const int64_t chunks = in.schedule == Schedule::kInterleaved ? in.vpp : 1;
  for (const auto& [key, e] : by_key) {
    const auto [kind, mb, s, c] = key;
    if (kind == 'F') {
      int64_t ps = dual ? (c == 0 ? s - 1 : s + 1) : s - 1, pc = c;
      if (!dual && ps < 0) ps = in.pp - 1, pc = c - 1;
      if (ps < 0 || ps >= in.pp || pc < 0) continue;
      const TimelineEvent* prev = by_key.at({'F', mb, ps, pc});
      CHECK(e->start >= prev->end + (ps == s ? 0 : in.p2p));
    } else if (kind == 'B') {
      int64_t ns = dual ? (c == 0 ? s + 1 : s - 1) : s + 1, nc = c;
      if (!dual && ns >= in.pp) ns = 0, nc = c + 1;
      if (ns < 0 || ns >= in.pp || nc >= chunks) {
        CHECK(e->start >= by_key.at({'F', mb, s, c})->end);
        continue;
      }
      CHECK(e->start >= by_key.at({'B', mb, ns, nc})->end + (ns == s ? 0 : in.p2p));
    } else if (kind == 'W') {
      CHECK(e->start >= by_key.at({'B', mb, s, c})->end);
    }
  }
  for (auto& [s, events] : compute) {
    std::sort(events.begin(), events.end(), [](auto* a, auto* b) { return a->start < b->start; });
    for (size_t i = 1; i < events.size(); ++i) CHECK(events[i]->start >= events[i - 1]->end);
  }
}

}  // namespace

TEST_CASE("1F1B makespan matches (m + pp - 1)(t_f + t_b)", "[sim]") {
  for (int64_t pp : {1, 2, 4, 7}) {
    for (int64_t m : {1, 3, 8, 32}) {
      const Nanos f = 1000, b = 2200;
      const PipelineResult r = SimulatePipeline(UniformInput(Schedule::k1F1B, pp, 1, m, f, b));
      INFO("pp " << pp << " m " << m);
      CHECK(r.pipeline == (m + pp - 1) * (f + b));
      CHECK(r.bubble == (pp - 1) * (f + b));
      CHECK(r.compute == m * (f + b));
      CHECK(r.step == r.pipeline);
      CHECK(r.peak_in_flight[0] == std::min(pp, m));
      for (int64_t s = 0; s < pp; ++s) CHECK(r.peak_in_flight[s] == std::min(pp - s, m));
    }
  }
}

TEST_CASE("GPipe has the 1F1B makespan but holds all m micro-batches", "[sim]") {
  const int64_t pp = 4, m = 12;
  const PipelineResult r = SimulatePipeline(UniformInput(Schedule::kGpipe, pp, 1, m, 300, 600));
  CHECK(r.pipeline == (m + pp - 1) * 900);
  for (int64_t s = 0; s < pp; ++s) CHECK(r.peak_in_flight[s] == m);
}

TEST_CASE("Interleaved makespan matches (m + (pp - 1)/vpp)(t_f + t_b)", "[sim]") {
  for (int64_t pp : {2, 4, 8}) {
    for (int64_t vpp : {2, 3, 4}) {
      for (int64_t groups : {1, 2, 5}) {
        const int64_t m = groups * pp;
        const Nanos f = 1200, b = 2400;  // whole-stage times; each chunk takes 1/vpp
        const PipelineResult r =
            SimulatePipeline(UniformInput(Schedule::kInterleaved, pp, vpp, m, f / vpp, b / vpp));
        INFO("pp " << pp << " vpp " << vpp << " m " << m);
        CHECK(r.pipeline == m * (f + b) + (pp - 1) * (f + b) / vpp);
        // Megatron: stage 0 holds (pp - 1) * 2 + (vpp - 1) * pp + 1 chunks at its peak.
        CHECK(r.peak_chunks_in_flight[0] == std::min((pp - 1) * 2 + (vpp - 1) * pp + 1, m * vpp));
      }
    }
  }
}

TEST_CASE("ZB-H1 has a smaller bubble than 1F1B at the same memory", "[sim]") {
  const int64_t pp = 4, m = 16;
  const Nanos t = 1000;  // F = B = W = t
  const PipelineResult one = SimulatePipeline(UniformInput(Schedule::k1F1B, pp, 1, m, t, 2 * t));
  const PipelineResult zb =
      SimulatePipeline(UniformInput(Schedule::kZeroBubble, pp, 1, m, t, 2 * t));
  CHECK(one.bubble == (pp - 1) * 3 * t);
  CHECK(zb.bubble < one.bubble);
  CHECK(zb.bubble == (pp - 1) * t);  // Qi et al.: (pp - 1)(T_F + T_B - T_W)
  CHECK(zb.compute == one.compute);
  CHECK(zb.peak_in_flight == one.peak_in_flight);
}

TEST_CASE("Every schedule honours its dependencies", "[sim]") {
  struct Case {
    Schedule schedule;
    int64_t pp, vpp, m;
  };
  for (const Case& c :
       {Case{Schedule::kGpipe, 4, 1, 6}, Case{Schedule::k1F1B, 4, 1, 9},
        Case{Schedule::kInterleaved, 4, 2, 8}, Case{Schedule::kInterleaved, 4, 3, 10},
        Case{Schedule::kZeroBubble, 5, 1, 7}, Case{Schedule::kDualPipe, 4, 1, 8},
        Case{Schedule::kDualPipe, 8, 1, 20}}) {
    for (bool overlap : {true, false}) {
      PipelineInput in = UniformInput(c.schedule, c.pp, c.vpp, c.m, 700, 1500);
      in.p2p = 90;
      in.overlap_pp_comm = overlap;
      in.record_timeline = true;
      in.stages.back().chunks[0].forward += 400;  // an uneven last stage
      const PipelineResult r = SimulatePipeline(in);
      INFO(ToString(c.schedule) << " pp " << c.pp << " m " << c.m << " overlap " << overlap);
      CheckDependencies(in, r);
      CHECK(r.step >= r.compute);
      CHECK(r.pipeline == r.compute + r.bubble);
      CHECK(r.pp_comm_exposed > 0);
    }
  }
}

TEST_CASE("DualPipe with mirrored stages runs both directions", "[sim]") {
  PipelineInput in = UniformInput(Schedule::kDualPipe, 4, 1, 16, 1000, 2000);
  in.record_timeline = true;
  const PipelineResult r = SimulatePipeline(in);
  int64_t forwards = 0;
  for (const TimelineEvent& e : r.timeline) forwards += e.name[0] == 'F';
  CHECK(forwards == 4 * 16);
  CHECK(r.compute == 16 * 3000);  // every rank runs each micro-batch once, in one direction
  const PipelineResult one = SimulatePipeline(UniformInput(Schedule::k1F1B, 4, 1, 16, 1000, 2000));
  CHECK(r.pipeline < one.pipeline);
}

TEST_CASE("Overlapping the gradient reduce hides DP communication", "[sim]") {
  PipelineInput in = UniformInput(Schedule::k1F1B, 4, 1, 8, 1000, 2000);
  for (StageCost& s : in.stages) {
    s.dp_grad_comm = 3000;
    s.dp_buckets = 4;
    s.optimizer = 500;
  }
  in.overlap_grad_reduce = false;
  const PipelineResult off = SimulatePipeline(in);
  in.overlap_grad_reduce = true;
  const PipelineResult on = SimulatePipeline(in);
  CHECK(off.dp_comm_exposed == 3000);
  CHECK(on.dp_comm_exposed < off.dp_comm_exposed);
  CHECK(on.dp_comm_exposed >= 3000 / 4);  // the last bucket is ready only at the end
  CHECK(on.optimizer == 500);
  CHECK(on.step == on.pipeline + on.dp_comm_exposed + on.optimizer);
  CHECK(off.step == off.pipeline + off.dp_comm_exposed + off.optimizer);
  CHECK(on.critical_path.back() == "optimizer@s0");
}

TEST_CASE("A parameter gather that is not overlapped delays the first forward", "[sim]") {
  PipelineInput in = UniformInput(Schedule::k1F1B, 2, 1, 4, 1000, 2000);
  for (StageCost& s : in.stages) {
    s.param_gather = 700;
    s.dp_buckets = 7;
  }
  const PipelineResult overlapped = SimulatePipeline(in);
  in.overlap_param_gather = false;
  const PipelineResult exposed = SimulatePipeline(in);
  // Overlapped, the first forward still waits for the first bucket (as the estimate exposes).
  CHECK(overlapped.dp_comm_exposed == 100);
  CHECK(exposed.dp_comm_exposed == 700);
  CHECK(exposed.step == overlapped.step + 600);
  CHECK(exposed.critical_path.front() == "param gather");
  // A gather longer than the first forward exposes what outlasts it.
  for (StageCost& s : in.stages) s.param_gather = 2100;
  in.overlap_param_gather = true;
  CHECK(SimulatePipeline(in).dp_comm_exposed == 1100);
}

TEST_CASE("Recompute runs before each backward and lengthens the step", "[sim]") {
  PipelineInput in = UniformInput(Schedule::k1F1B, 2, 1, 4, 1000, 2000);
  const PipelineResult plain = SimulatePipeline(in);
  for (StageCost& s : in.stages) s.chunks[0].recompute = 1000;
  in.record_timeline = true;
  const PipelineResult r = SimulatePipeline(in);
  CHECK(r.pipeline == (4 + 2 - 1) * 4000);
  CHECK(r.pipeline > plain.pipeline);
  int64_t recomputes = 0;
  for (const TimelineEvent& e : r.timeline) recomputes += e.name[0] == 'R';
  CHECK(recomputes == 2 * 4);
}

TEST_CASE("A blocking pipeline send costs more than an overlapped one", "[sim]") {
  PipelineInput in = UniformInput(Schedule::k1F1B, 4, 1, 8, 1000, 2000);
  in.p2p = 200;
  const PipelineResult on = SimulatePipeline(in);
  in.overlap_pp_comm = false;
  const PipelineResult off = SimulatePipeline(in);
  CHECK(off.pipeline > on.pipeline);
  // Even overlapped, the transfers sit on the critical path of the fill and the drain (and of
  // 1F1B's steady state, whose B waits for the round trip to the next stage).
  CHECK(on.pipeline >= (8 + 4 - 1) * 3000 + 2 * (4 - 1) * 200);
  CHECK(on.pp_comm_exposed >= 2 * (4 - 1) * 200);
  CHECK(on.pipeline - on.pp_comm_exposed <= (8 + 4 - 1) * 3000);
}

TEST_CASE("Simulation is deterministic and never shorter than the busiest stage", "[sim]") {
  PipelineInput in = UniformInput(Schedule::kInterleaved, 4, 2, 12, 500, 1100);
  in.p2p = 37;
  for (int64_t s = 0; s < 4; ++s) {
    in.stages[s].chunks[s % 2].forward += 131 * s;
    in.stages[s].chunks[(s + 1) % 2].backward_input += 77 * s;
    in.stages[s].dp_grad_comm = 900 + 10 * s;
    in.stages[s].dp_buckets = 3;
    in.stages[s].optimizer = 120;
  }
  in.record_timeline = true;
  const PipelineResult a = SimulatePipeline(in);
  const PipelineResult b = SimulatePipeline(in);
  CHECK(a.step == b.step);
  CHECK(a.critical_path == b.critical_path);
  REQUIRE(a.timeline.size() == b.timeline.size());
  for (size_t i = 0; i < a.timeline.size(); ++i) {
    CHECK(a.timeline[i].start == b.timeline[i].start);
    CHECK(a.timeline[i].name == b.timeline[i].name);
  }
  CHECK(a.step >= a.compute);
  CHECK(a.critical_stage == 3);
  CHECK(a.events >= 4 * 12 * 2 * 2);
}

TEST_CASE("SimulatePipeline rejects inconsistent input", "[sim]") {
  PipelineInput in = UniformInput(Schedule::k1F1B, 4, 1, 8, 1000, 2000);
  in.stages.pop_back();
  CHECK_THROWS_AS(SimulatePipeline(in), InputError);
  in = UniformInput(Schedule::kInterleaved, 4, 2, 8, 1000, 2000);
  in.stages[1].chunks.pop_back();
  CHECK_THROWS_WITH(SimulatePipeline(in), Catch::Contains("stages[1].chunks"));
  in = UniformInput(Schedule::k1F1B, 2, 1, 2, 1000, 2000);
  in.stages[0].chunks[0].forward = -1;
  CHECK_THROWS_AS(SimulatePipeline(in), InputError);
}

TEST_CASE("PyTorch's lock-step runtime waits on every step's sends and receives", "[sim]") {
  // pp 2, vpp 2, m 2, F = 1, B = 2 per chunk (schedule_test.cpp has the grid). Event-driven,
  // rank 0's last backward ends at 15; in lock-step each rank also waits, at the end of every
  // step, for the neighbour it exchanges with, and the step ends at 16.
  PipelineInput in = UniformInput(Schedule::kInterleaved, 2, 2, 2, 1000, 2000);
  CHECK(SimulatePipeline(in).pipeline == 15000);
  in.lockstep = true;
  in.record_timeline = true;
  PipelineResult r = SimulatePipeline(in);
  CHECK(r.pipeline == 16000);
  CheckDependencies(in, r);
  // A step with an exchange ends a transfer after both sides finished computing: rank 0's last
  // backward waits on the eight such steps before it (t = 0, 1, 2, 3, 5, 7, 9, 11).
  in.p2p = 100;
  r = SimulatePipeline(in);
  CheckDependencies(in, r);
  CHECK(r.pipeline == 16000 + 8 * 100);
  // Never faster than the event-driven run, uneven stages included.
  for (int64_t pp : {2, 4, 8}) {
    for (int64_t vpp : {2, 3}) {
      PipelineInput e = UniformInput(Schedule::kInterleaved, pp, vpp, 2 * pp, 700, 1500);
      e.p2p = 50;
      e.stages.back().chunks.back().forward += 300;
      e.stages.front().chunks.front().backward_input += 200;
      const Nanos event_driven = SimulatePipeline(e).pipeline;
      e.lockstep = true;
      e.record_timeline = true;
      const PipelineResult l = SimulatePipeline(e);
      INFO("pp " << pp << " vpp " << vpp);
      CheckDependencies(e, l);
      CHECK(l.pipeline >= event_driven);
      CHECK(l.pipeline == l.compute + l.bubble);
    }
  }
  // PyTorch refuses micro-batches that are not a multiple of pp; the event-driven run stands.
  PipelineInput odd = UniformInput(Schedule::kInterleaved, 4, 2, 6, 700, 1500);
  const Nanos plain = SimulatePipeline(odd).pipeline;
  odd.lockstep = true;
  CHECK(SimulatePipeline(odd).pipeline == plain);
}

TEST_CASE("each pipeline hop takes its own send time", "[sim]") {
  // GPipe, 3 stages, one micro-batch: F0 F1 F2 then B2 B1 B0 one after another, each boundary
  // crossed once each way: pipeline = 3 f + 3 b + 2 (hop0 + hop1).
  PipelineInput in = UniformInput(Schedule::kGpipe, 3, 1, 1, 1000, 2000);
  in.p2p = 10;
  in.hops = {10, 500, 0};  // 0 -> 1 on NVLink, 1 -> 2 across nodes; no wrap without chunks
  const PipelineResult r = SimulatePipeline(in);
  CHECK(r.pipeline == 3 * 1000 + 3 * 2000 + 2 * (10 + 500));
  // All hops equal to p2p: the same as no per-hop times.
  in.hops = {10, 10, 10};
  const PipelineResult same = SimulatePipeline(in);
  in.hops.clear();
  CHECK(SimulatePipeline(in).pipeline == same.pipeline);
  CHECK(same.pipeline == 3 * 1000 + 3 * 2000 + 2 * (10 + 10));
  // Blocking sends hold the sender's compute stream for the hop they take.
  in.hops = {10, 500, 0};
  in.overlap_pp_comm = false;
  CHECK(SimulatePipeline(in).pipeline == 3 * 1000 + 3 * 2000 + 2 * (10 + 500));
  in.hops = {10, 500};
  CHECK_THROWS_AS(SimulatePipeline(in), InputError);
}
