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

int KindOf(const ModelDims& d, int64_t layer) {
  for (int k = 0; k < kLayerKinds; ++k) {
    if (d.prefix[layer + 1][k] != d.prefix[layer][k]) return k;
  }
  return 0;
}

// Greedy packing under bottleneck `limit`: each stage takes layers while it stays within the
// limit and enough layers remain for the later stages that need one. Writes `out` when given.
bool Pack(const BalanceInput& in, double limit, int64_t* out) {
  const ModelDims& d = *in.dims;
  int64_t need_after = 0;  // stages after the current one that need a layer
  for (int64_t v = 1; v < in.stages; ++v) need_after += MayBeEmpty(in, v) ? 0 : 1;
  int64_t pos = 0;
  for (int64_t v = 0; v < in.stages; ++v) {
    if (v > 0 && !MayBeEmpty(in, v)) --need_after;
    double work = Extra(in, v);
    if (work > limit) return false;
    int64_t taken = 0;
    while (pos < d.layers && d.layers - pos - 1 >= need_after) {
      const double w = in.layer_work[KindOf(d, pos)];
      if (work + w > limit) break;
      work += w;
      ++pos;
      ++taken;
    }
    if (taken == 0 && !MayBeEmpty(in, v)) return false;
    if (out) out[v] = taken;
  }
  return pos == d.layers;
}

}  // namespace

void BalanceVirtualStages(const BalanceInput& in, StageVector<int64_t>& out) {
  out.Resize(in.stages);
  const ModelDims& d = *in.dims;
  double lo = 0, hi = in.first_extra + in.last_extra + in.mtp_extra;
  for (int64_t i = 0; i < d.layers; ++i) hi += in.layer_work[KindOf(d, i)];
  hi = hi * (1 + 1e-12) + 1e-18;
  // 60 halvings take the bound to the last bits of a double.
  for (int i = 0; i < 60 && hi - lo > hi * 1e-13; ++i) {
    const double mid = 0.5 * (lo + hi);
    (Pack(in, mid, nullptr) ? hi : lo) = mid;
  }
  if (!Pack(in, hi, &out[0])) {
    // Unreachable for stages <= layers + 2; spread evenly rather than leave garbage.
    for (int64_t v = 0; v < in.stages; ++v) {
      out[v] = d.layers / in.stages + (v >= in.stages - d.layers % in.stages ? 1 : 0);
    }
  }
}

double SlowestStageWork(const BalanceInput& in, const int64_t* layers) {
  const ModelDims& d = *in.dims;
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
