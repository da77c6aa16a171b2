// Transformer Engine's context-parallel passes (cost/te_context_parallel.h) against hand
// arithmetic from AttnFuncWithCP at TE v1.4, and where the layer charges them.
#include "cost/te_context_parallel.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "cost/compute_cost.h"
#include "cost/layer_cost.h"
#include "evaluate/step_model.h"
#include "hardware/collective_cost.h"
#include "test_specs.h"

using namespace paraplan;

namespace {

ParallelPlan CpPlan(Fusion fusion, int cp) {
  ParallelPlan p;
  p.micro_batch = 1;
  p.global_batch = 1;
  p.dp = 1;
  p.cp = cp;
  p.kernels.fusion = fusion;
  return p;
}

PlanShape CpShape(const CostGraph& d, const ParallelPlan& p) {
  return MakePlanShape(d, p, test::DgxH100());
}

bool HasOp(const LayerElementwise& ew, const std::string& name) {
  for (size_t i = 0; i < ew.count; ++i) {
    if (ew.ops[i].name == name) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("Transformer Engine's ring adds its merges, copies and gradient sums", "[cost]") {
  const CostGraph d = BuildCostGraph(test::Llama3_70B());  // 64 q / 8 kv heads x 128, seq 8192
  const ParallelPlan p = CpPlan(Fusion::kTe, 4);
  const ElementwiseOp op = TeContextParallelPasses(d, CpShape(d, p));
  const double t = 8192.0 / 4;  // local tokens
  const double q = t * 64 * 128, o = q, kv = t * 8 * 256;
  // Forward, the last rank: cat 4 B per K/V element, 3 half-K/V copies at 2 B, the output's
  // fill 2 B and 4 merges of 6 B per output element.
  CHECK(op.fwd_bytes == Approx(4 * kv + 3 * 2 * kv + 2 * o + 4 * 6 * o));
  CHECK(op.fwd_kernels == Approx(1 + 3 + 1 + 4 + 3));
  // Backward, rank 0: the send buffer's copy 4 B per K/V element; q, out and dout halves at 3
  // steps (2 B each per element); dQ 2 + 3 + 3 + 5 B per element; dK/dV cat 4 B at 4 steps and
  // 4 + 6 + 6 + 5 B of copies and sums.
  CHECK(op.bwd_bytes == Approx(4 * kv + 3 * (2 * q + 4 * o) + 13 * q + 16 * kv + 21 * kv));
  CHECK(op.bwd_kernels == Approx(1 + 9 + 5 + 4 + 5));
  // Grows with the ring: at cp 8 each pass moves more than twice cp 4's bytes per local token.
  const ParallelPlan p8 = CpPlan(Fusion::kTe, 8);
  const ElementwiseOp op8 = TeContextParallelPasses(d, CpShape(d, p8));
  CHECK(op8.fwd_bytes * 2 > op.fwd_bytes);  // half the local tokens, more steps
  CHECK(op8.fwd_bytes / (t / 2) > 1.5 * op.fwd_bytes / t);
  // No ring, no passes.
  CHECK(TeContextParallelPasses(d, CpShape(d, CpPlan(Fusion::kTe, 1))).fwd_bytes == 0);
}

TEST_CASE("the layer charges TE's ring passes to TE's profile only", "[cost]") {
  const ModelSpec m = test::Llama3_70B();
  const CostGraph d = BuildCostGraph(m);
  CHECK(HasOp(ComputeLayerElementwise(d, 0, CpShape(d, CpPlan(Fusion::kTe, 4))),
              "TE context-parallel passes"));
  CHECK_FALSE(HasOp(ComputeLayerElementwise(d, 0, CpShape(d, CpPlan(Fusion::kTe, 1))),
                    "TE context-parallel passes"));
  // PyTorch's ring merges its own way (elementwise_cost.cpp, RingAttentionMerge).
  const LayerElementwise pt = ComputeLayerElementwise(d, 0, CpShape(d, CpPlan(Fusion::kEager, 4)));
  CHECK_FALSE(HasOp(pt, "TE context-parallel passes"));
  CHECK(HasOp(pt, "ring-attention merge"));
  // The layer lists the passes as a row at the HBM rate, inside the layer's forward.
  const Cluster c = test::DgxH100();
  const PlanShape s = CpShape(d, CpPlan(Fusion::kTe, 4));
  std::vector<LayerOpRow> rows;
  const LayerCost layer = ComputeLayerCost(d, 0, s, c, ResolveNetworkLinks(c), &rows);
  const ElementwiseOp op = TeContextParallelPasses(d, s);
  bool found = false;
  for (const LayerOpRow& r : rows) {
    if (r.name != std::string("TE context-parallel passes")) continue;
    found = true;
    CHECK(r.memory_s == Approx(op.fwd_bytes / HbmBytesPerSecond(c)));
    CHECK(r.bwd_s > r.fwd_s);
    CHECK(layer.fwd_s > r.fwd_s);
  }
  CHECK(found);
}
