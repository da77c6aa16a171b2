#include "cost/stage_times.h"

#include <algorithm>

#include "core/as_double.h"
#include "cost/overlap_sm.h"
#include "cost/zero3_comm.h"
#include "plan/stage_layout.h"

namespace paraplan {
namespace {

// n layers' TP/CP/EP collective time, hidden or not, into the stage's busy streams.
void AddBusy(const LayerCost& l, double n, StageBusy* busy) {
  if (!busy) return;
  for (int g = 0; g < kCommZero3; ++g) {
    busy->fwd_s[g] += n * l.comm_busy_fwd_s[g];
    busy->bwd_s[g] += n * l.comm_busy_bwd_s[g];
    busy->sm_loss_fwd_s[g] += n * l.sm_loss_fwd_s[g];
    busy->sm_loss_bwd_s[g] += n * l.sm_loss_bwd_s[g];
  }
}

// n layers' compute lost to the SMs their overlapped TP/CP/EP kernels hold: into the forward and
// the input-gradient backward, and per stream into the stage's tally.
void AddSmLoss(const LayerCost& l, double n, StageTimes& t, StageComm& comm) {
  t.f += n * l.SmLossFwd();
  t.b += n * l.SmLossBwd();
  for (int g = 0; g < kCommZero3; ++g) {
    comm.sm_loss_s[g] += n * (l.sm_loss_fwd_s[g] + l.sm_loss_bwd_s[g]);
  }
}

}  // namespace

void StageTimesOf(const CostGraph& d, const ParallelPlan& p, const PlanEvaluation& e,
                  const StageKey& key, const Zero3Comm& zero3, double sends, StageTimes* times,
                  StageComm* stage_comm, StageBusy* busy) {
  StageTimes t;
  StageComm comm;
  double net_fwd = 0, net_bwd = 0;  // network-tier time of the stage's TP/CP/EP collectives
  // n layers' TP/CP/EP communication, its network-tier share, busy time and SM loss: the decoder
  // layers and the MTP module's alike.
  auto add_comm = [&](const LayerCost& l, double n) {
    comm.tp_s += n * l.tp_comm_s;
    comm.cp_s += n * l.cp_comm_s;
    comm.ep_s += n * l.ep_comm_s;
    net_fwd += n * l.net_fwd_s;
    net_bwd += n * l.net_bwd_s;
    AddBusy(l, n, busy);
    AddSmLoss(l, n, t, comm);
  };
  for (int k = 0; k < kLayerKinds; ++k) {
    if (key.counts[k] == 0) continue;
    const LayerCost& l = e.kinds[k];
    const double n = key.counts[k];
    t.f += n * l.fwd_s;
    t.b += n * (l.bwd_s - l.bwd_weight_s + l.recompute_s);
    t.w += n * l.bwd_weight_s;
    add_comm(l, n);
    t.f += n * (l.tp_comm_fwd_s + l.cp_comm_fwd_s + l.ep_comm_fwd_s);
    t.b += n * (l.tp_comm_s - l.tp_comm_fwd_s + l.cp_comm_s - l.cp_comm_fwd_s + l.ep_comm_s -
                l.ep_comm_fwd_s);
  }
  if (key.first) {
    t.f += e.embed_fwd_s;
    t.b += 2 * e.embed_fwd_s;
  }
  if (key.last) {
    t.f += e.logits_fwd_s;
    t.b += e.logits_bwd_s;
  }
  if (key.mtp) {
    const LayerCost& l = e.kinds[d.mtp_kind];
    const double n = D(d.mtp_layers);
    t.f += n * (l.fwd_s + l.tp_comm_fwd_s + l.cp_comm_fwd_s + l.ep_comm_fwd_s + e.mtp_proj_fwd_s +
                e.logits_fwd_s + e.embed_fwd_s);
    t.b += n * (l.bwd_s - l.bwd_weight_s + l.recompute_s + l.tp_comm_s - l.tp_comm_fwd_s +
                l.cp_comm_s - l.cp_comm_fwd_s + l.ep_comm_s - l.ep_comm_fwd_s + e.mtp_proj_fwd_s +
                e.logits_bwd_s + 2 * e.embed_fwd_s);
    t.w += n * (l.bwd_weight_s + e.mtp_proj_fwd_s);
    add_comm(l, n);
  }
  comm.net_fwd_s = net_fwd;
  comm.net_bwd_s = net_bwd;
  if (zero3.gather_s + zero3.reduce_scatter_s > 0) {
    if (busy) {
      busy->fwd_s[kCommZero3] = zero3.gather_s;
      busy->bwd_s[kCommZero3] = zero3.gather_bwd_s + zero3.reduce_scatter_s;
    }
    // ZeRO-3 gathers each layer's weights before its forward and again before its backward and
    // reduce-scatters its gradient after it; prefetching hides them under the compute
    // (zero3_comm.h).
    // When the DP group crosses the network too, it shares the NICs with that traffic: the
    // gathers and reduce-scatters get the pass's time minus what TP/CP/EP keep the NICs busy.
    const bool shared = e.shape.groups.dp_cp.tier >= 1;
    const double fwd_window = std::max(0.0, t.f - (shared ? net_fwd : 0.0));
    const double bwd_window = std::max(0.0, t.b + t.w - (shared ? net_bwd : 0.0));
    const Zero3Exposed x =
        Zero3ExposedSeconds(zero3, fwd_window, bwd_window, p.overlap_param_gather);
    // The gathers and reduce-scatters beside the compute hold their NCCL kernels' SMs (the
    // concurrent law, cost/overlap_sm.h): what is not exposed beyond the first unit runs beside it.
    const double fwd_floor = zero3.first_gather_s;
    const double bwd_floor = Zero3BackwardFloorSeconds(zero3);
    const double loss_f = ConcurrentLossSeconds(zero3.gather_s - x.forward_s,
                                                x.forward_s - fwd_floor, e.zero3_sm_share);
    const double loss_b =
        ConcurrentLossSeconds(zero3.gather_bwd_s + zero3.reduce_scatter_s - x.backward_s,
                              x.backward_s - bwd_floor, e.zero3_sm_share);
    t.f += x.forward_s + loss_f;
    t.b += x.backward_s + loss_b;
    if (busy) {
      busy->sm_loss_fwd_s[kCommZero3] = loss_f;
      busy->sm_loss_bwd_s[kCommZero3] = loss_b;
    }
    comm.zero3_s = x.forward_s + x.backward_s;
    comm.sm_loss_s[kCommZero3] = loss_f + loss_b;
  }
  t.f += zero3.copy_fwd_s;
  t.b += zero3.copy_bwd_s;
  // TE's delayed-scaling amax reduction at each chunk's autocast exit, forward and backward.
  t.f += sends * e.amax_s;
  t.b += sends * e.amax_s;
  if (p.pp > 1 && !p.overlap_pp_comm) {
    t.f += sends * key.send_fwd.s;
    t.b += sends * key.send_bwd.s;
    comm.p2p_s = sends * (key.send_fwd.s + key.send_bwd.s);
  } else if (p.pp > 1) {
    // Overlapped sends (one activation forward, one gradient backward per chunk and micro-batch)
    // run beside the next task's compute and hold their NCCL kernel's SMs while they last.
    const double loss_f = sends * key.send_fwd.s * key.send_fwd.sm_share;
    const double loss_b = sends * key.send_bwd.s * key.send_bwd.sm_share;
    t.f += loss_f;
    t.b += loss_b;
    comm.sm_loss_s[kSmLossPp] = loss_f + loss_b;
  }
  *times = t;
  *stage_comm = comm;
}

StageTimes EvaluateChunkTimes(const CostGraph& d, const ParallelPlan& p, const PlanEvaluation& e,
                              int64_t chunk, StageBusy* busy) {
  const int64_t chunks = VirtualStages(p), s = chunk % p.pp;
  StageKey key;
  key.counts = KindCounts(d, e.chunk_begins[chunk], e.chunk_begins[chunk] + e.chunk_layers[chunk]);
  key.first = chunk == 0;
  key.last = chunk == chunks - 1;
  key.mtp = chunk == e.mtp_chunk;
  key.send_fwd = StageSendHop(p, e, s, true);
  key.send_bwd = StageSendHop(p, e, s, false);
  const double share =
      e.layers[s] > 0 ? D(e.chunk_layers[chunk]) / D(e.layers[s]) : 1.0 / D(chunks / p.pp);
  StageTimes t;
  StageComm comm;
  // The chunk's share of its stage's unit-by-unit ZeRO-3 traffic; the largest unit stays whole.
  Zero3Comm zero3 = e.dp[s].zero3;
  zero3.gather_s *= share;
  zero3.gather_bwd_s *= share;
  zero3.on_demand_fwd_s *= share;
  zero3.on_demand_bwd_s *= share;
  zero3.reduce_scatter_s *= share;
  zero3.copy_fwd_s *= share;
  zero3.copy_bwd_s *= share;
  StageTimesOf(d, p, e, key, zero3, 1.0, &t, &comm, busy);
  // The stage's fp32 accumulation pass and ZeRO-2's earlier reductions, by the chunk's share.
  t.b += (e.dp[s].grad_accum_s + e.dp[s].micro_batch_reduce_s) * share;
  return t;
}

}  // namespace paraplan
