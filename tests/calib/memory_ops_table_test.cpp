// hardware/memory_ops.h repeats the bytes per element that the cost model counts for the `te`
// fusion profile, so that the harness's rows carry them; this ties the two together.
#include <catch2/catch.hpp>
#include <string>

#include "cost/elementwise_cost.h"
#include "cost/layer_ops.h"
#include "cost/test_specs.h"
#include "evaluate/step_model.h"
#include "hardware/memory_ops.h"

namespace paraplan {
namespace {

const ElementwiseOp& FindTableOp(const LayerElementwise& ew, const std::string& name) {
  for (size_t i = 0; i < ew.count; ++i) {
    if (ew.ops[i].name == name) return ew.ops[i];
  }
  FAIL("no element-wise op " << name);
  return ew.ops[0];
}

double Bytes(const std::string& op) {
  const MemoryOpSpec* spec = FindMemoryOp(op);
  REQUIRE(spec != nullptr);
  return spec->bytes_per_element;
}

TEST_CASE("the ops table's bytes are the cost model's under fusion te", "[calib]") {
  const ModelSpec m = test::Llama3_70B();  // h 8192, 64 q / 8 kv heads × 128, SwiGLU 28672
  ParallelPlan p;
  p.micro_batch = 1;
  p.global_batch = 1;
  p.kernels.fusion = Fusion::kTe;
  const CostGraph d = BuildCostGraph(m);
  const LayerElementwise ew = ComputeLayerElementwise(d, 0, MakePlanShape(d, p, test::DgxH100()));
  const double t = 8192;                   // tokens of one sequence
  const double norm_elems = 2 * t * 8192;  // two norms per layer
  CHECK(FindTableOp(ew, "norm").fwd_bytes == Approx(norm_elems * Bytes("rmsnorm_fwd")));
  CHECK(FindTableOp(ew, "norm").bwd_bytes == Approx(norm_elems * Bytes("rmsnorm_bwd")));
  CHECK(Bytes("layernorm_fwd") == Bytes("rmsnorm_fwd"));  // one norm row for both
  CHECK(FindTableOp(ew, "residual add").fwd_bytes == Approx(norm_elems * Bytes("residual_add")));
  CHECK(FindTableOp(ew, "rope").fwd_bytes == Approx(t * (64 + 8) * 128 * Bytes("rope_fwd")));
  CHECK(FindTableOp(ew, "activation").fwd_bytes == Approx(t * 28672 * Bytes("swiglu_fwd")));
  CHECK(FindTableOp(ew, "activation").bwd_bytes == Approx(t * 28672 * Bytes("swiglu_bwd")));
}

TEST_CASE("every op of the table is named once and counts bytes", "[calib]") {
  for (size_t i = 0; i < kMemoryOps.size(); ++i) {
    CHECK(kMemoryOps[i].bytes_per_element > 0);
    CHECK(FindMemoryOp(kMemoryOps[i].name) == &kMemoryOps[i]);
    CHECK((kMemoryOps[i].dtype == "bf16" || kMemoryOps[i].dtype == "fp32"));
  }
  CHECK(FindMemoryOp("copy") == nullptr);
  // Adam with fp32 moments: r master, grad, m, v (16 B), w master, m, v, bf16 copy (14 B).
  CHECK(Bytes("adam_step") == 30);
  // The loss reads fp32 logits 3 times forward and reads and writes them once backward.
  CHECK(Bytes("cross_entropy_fwd") == 12);
  CHECK(Bytes("cross_entropy_bwd") == 8);
}

}  // namespace
}  // namespace paraplan
