#include "cost/op_checkpoint.h"

#include <algorithm>
#include <array>

#include "cost/compute_cost.h"

namespace paraplan {
namespace {

// A forward mm: rows x n output from a rows x k input.
struct Mm {
  double rows = 0, n = 0, k = 0;
};

class MmList {
 public:
  void Add(double rows, double n, double k) {
    if (rows > 0 && n > 0 && k > 0 && size_ < items_.size()) items_[size_++] = {rows, n, k};
  }
  size_t size() const { return size_; }
  const Mm& operator[](size_t i) const { return items_[i]; }

 private:
  std::array<Mm, 16> items_{};
  size_t size_ = 0;
};

void AttentionMms(const CostGraph& d, const PlanShape& p, MmList& mms) {
  const double t = p.tokens, h = d.hidden, heads = d.heads / p.tp;
  if (d.mla) {
    const double q_in = d.q_lora > 0 ? d.q_lora : h;
    if (d.q_lora > 0) mms.Add(t, d.q_lora, h);
    mms.Add(t, heads * d.qk_head_dim, q_in);
    mms.Add(t, d.kv_lora + d.rope_dim, h);
    mms.Add(t, heads * (d.qk_head_dim - d.rope_dim + d.v_head_dim), d.kv_lora);
  } else {
    const double kv = ProjectedKvHeads(d, p);
    mms.Add(t, heads * d.qk_head_dim, h);
    mms.Add(t, kv * d.qk_head_dim, h);
    mms.Add(t, kv * d.v_head_dim, h);
  }
  mms.Add(t, h, heads * d.v_head_dim);
}

// w1 (gate), w3 (up), w2 (down) of a gated MLP of width f on `rows` tokens; up and down without
// a gate.
void MlpMms(double rows, double f, double h, double gate, MmList& mms) {
  mms.Add(rows, f, h);
  if (gate > 1) mms.Add(rows, f, h);
  mms.Add(rows, h, f);
}

MmList LayerMms(const CostGraph& d, int kind, const PlanShape& p) {
  MmList mms;
  AttentionMms(d, p, mms);
  const double t = p.tokens, h = d.hidden;
  if (!(kind & 1)) {
    MlpMms(t, d.ffn / p.tp, h, d.gate, mms);
    return mms;
  }
  const double local = t / p.tp;
  mms.Add(local, d.experts, h);
  const double routed = local * d.top_k * p.moe_load * p.etp;
  MlpMms(routed, d.expert_ffn / p.etp, h, d.gate, mms);
  if (d.shared_experts > 0) MlpMms(t, d.shared_experts * d.expert_ffn / p.tp, h, d.gate, mms);
  return mms;
}

}  // namespace

OpCheckpointCost ComputeOpCheckpoint(const CostGraph& d, int kind, const PlanShape& p,
                                     const Cluster& c) {
  const MmList mms = LayerMms(d, kind, p);
  const double t = p.tokens, h = d.hidden;
  OpCheckpointCost out;
  const double heads = d.heads / p.tp;
  out.saved_bytes = kAct * p.norm_tokens * h;                            // the block input
  out.saved_bytes += kAct * t * heads * d.v_head_dim + 4.0 * t * heads;  // SDPA out, logsumexp
  // Sequence parallelism reduce-scatters the two row-parallel outputs: both saved.
  if (p.sequence_parallel) out.saved_bytes += 2 * kAct * p.norm_tokens * h;
  for (size_t i = 0; i < mms.size(); ++i) {
    const Mm& mm = mms[i];
    if (i % 2 == 0) {
      out.saved_bytes += kAct * mm.rows * mm.n;
    } else {
      out.recompute_gemm_s += GemmSeconds(c, p.precision, mm.rows, mm.n, mm.k);
    }
  }
  return out;
}

double OpRecomputeFlopsPerToken(const CostGraph& d, int kind) {
  PlanShape one;
  one.tokens = 1;
  one.norm_tokens = 1;
  const MmList mms = LayerMms(d, kind, one);
  double flops = 0;
  for (size_t i = 1; i < mms.size(); i += 2) flops += 2 * mms[i].rows * mms[i].n * mms[i].k;
  return flops;
}

}  // namespace paraplan
