#include "cost/stage_balance.h"

#include <algorithm>

namespace paraplan {
namespace {

double Extra(const BalanceInput& in, int64_t v) {
  double e = 0;
  if (v == 0) e += in.first_extra;
  if (v == in.stages - 1) e += in.last_extra;
  if (v == in.mtp_stage) e += in.mtp_extra;
  return e;
}

bool MayBeEmpty(const BalanceInput& in, int64_t v) {
  return v == 0 || v == in.stages - 1 || v == in.mtp_stage;
}

int KindOf(const CostGraph& d, int64_t layer) {
  for (int k = 0; k < kLayerKinds; ++k) {
    if (d.prefix[layer + 1][k] != d.prefix[layer][k]) return k;
  }
  return 0;
}

// Greedy packing under bottleneck `limit`: each stage takes layers while it stays within the
// limit and enough layers remain for the later stages that need one. `work[i]` is layer i's
// work. Writes `out` when given.
bool Pack(const BalanceInput& in, const double* work, int64_t layers, double total, double limit,
          int64_t* out) {
  int64_t need_after = 0;  // stages after the current one that need a layer
  for (int64_t v = 1; v < in.stages; ++v) need_after += MayBeEmpty(in, v) ? 0 : 1;
  int64_t pos = 0;
  double left = total;  // work of the layers not yet placed
  for (int64_t v = 0; v < in.stages; ++v) {
    if (v > 0 && !MayBeEmpty(in, v)) --need_after;
    // The stages left hold at most `limit` each: give up early when they cannot.
    if (left > static_cast<double>(in.stages - v) * limit) return false;
    double sum = Extra(in, v);
    if (sum > limit) return false;
    const int64_t stop = layers - need_after;  // layers this stage may reach
    const int64_t begin = pos;
    while (pos < stop && sum + work[pos] <= limit) {
      sum += work[pos];
      left -= work[pos++];
    }
    if (pos == begin && !MayBeEmpty(in, v)) return false;
    if (out) out[v] = pos - begin;
  }
  return pos == layers;
}

}  // namespace

void BalanceVirtualStages(const BalanceInput& in, StageVector<int64_t>& out) {
  out.Resize(in.stages);
  const CostGraph& d = *in.dims;
  StageVector<double> work;
  work.Resize(d.layers);
  double total = 0, widest = 0;
  for (int64_t i = 0; i < d.layers; ++i) {
    work[i] = in.layer_work[KindOf(d, i)];
    total += work[i];
    widest = std::max(widest, work[i]);
  }
  const double extras = in.first_extra + in.last_extra + in.mtp_extra;
  // The bottleneck is at least the average stage and at most the average plus one layer and
  // every extra (a greedy packing at that limit never runs out of stages); the whole model on
  // one stage bounds it in any case.
  double lo = (total + extras) / static_cast<double>(in.stages) * (1 - 1e-12);
  double hi = lo + widest + extras;
  if (!Pack(in, work.data(), d.layers, total, hi, nullptr))
    hi = (total + extras) * (1 + 1e-12) + 1e-18;
  // Bisect to a relative 1e-5: the layout at `hi` is then within that of the optimum, and is the
  // optimum wherever layouts' bottlenecks differ by more (a layer is a few % of a stage).
  while (hi - lo > hi * 1e-5) {
    const double mid = 0.5 * (lo + hi);
    (Pack(in, work.data(), d.layers, total, mid, nullptr) ? hi : lo) = mid;
  }
  if (!Pack(in, work.data(), d.layers, total, hi, &out[0])) {
    // Unreachable for stages <= layers + 2; spread evenly rather than leave garbage.
    for (int64_t v = 0; v < in.stages; ++v) {
      out[v] = d.layers / in.stages + (v >= in.stages - d.layers % in.stages ? 1 : 0);
    }
  }
}

double SlowestStageWork(const BalanceInput& in, const int64_t* layers) {
  const CostGraph& d = *in.dims;
  double slowest = 0;
  int64_t pos = 0;
  for (int64_t v = 0; v < in.stages; ++v) {
    double work = Extra(in, v);
    for (int64_t i = 0; i < layers[v]; ++i, ++pos) work += in.layer_work[KindOf(d, pos)];
    slowest = std::max(slowest, work);
  }
  return slowest;
}

}  // namespace paraplan
