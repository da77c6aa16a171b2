// Packed documents attended one by one (plan/kernel_recipe.h packed_doc_tokens, cost/plan_shape.h
// AttentionSpan): the attention core runs as over sequences of the documents' length; everything
// else sees every token of the packed sequence.
#include <catch2/catch.hpp>
#include <cstring>
#include <string>
#include <vector>

#include "config/resolve.h"
#include "core/error.h"
#include "cost/layer_cost.h"
#include "plan/plan_resolve.h"
#include "plan/plan_rules.h"
#include "plan/plan_string.h"
#include "test_specs.h"

using namespace paraplan;

namespace {

constexpr double kHalfSeq = 850;  // hardware/efficiency.yaml's attention_half_seq

// Llama 3 70B (8,192 tokens) on one H100, TP 8, micro-batch `mb` of `seq` tokens.
std::vector<LayerOpRow> Rows(int64_t seq, int64_t mb, double packed, Fusion fusion = Fusion::kTe) {
  const CostGraph d = BuildCostGraph(test::Llama3_70B());
  Cluster c = test::DgxH100();
  c.efficiency.attention_half_seq = kHalfSeq;
  ParallelPlan p;
  p.tp = 8;
  p.micro_batch = mb;
  p.global_batch = mb;
  p.seq_len = seq;
  p.kernels.fusion = fusion;
  p.kernels.packed_doc_tokens = packed;
  std::vector<LayerOpRow> rows;
  ComputeLayerCost(d, 0, MakePlanShape(d, p, c), c, ResolveNetworkLinks(c), &rows);
  return rows;
}

LayerOpRow PackedRow(const std::vector<LayerOpRow>& rows, const char* name) {
  for (const LayerOpRow& r : rows) {
    if (std::strcmp(r.name, name) == 0) return r;
  }
  FAIL("no row " << name);
  return {};
}

}  // namespace

TEST_CASE("packed documents: the attention core runs at the documents' length",
          "[cost][attention][packed]") {
  // 8 documents of 1,024 tokens packed into one 8,192-token sequence cost what 8 sequences of
  // 1,024 tokens cost: the same causal pairs, the same kernel length.
  const auto packed = Rows(8192, 1, 1024);
  const auto short_seqs = Rows(1024, 8, 0);
  const auto whole = Rows(8192, 1, 0);
  const LayerOpRow p = PackedRow(packed, "core attention");
  CHECK(p.fwd_s == Approx(PackedRow(short_seqs, "core attention").fwd_s));
  CHECK(p.bwd_s == Approx(PackedRow(short_seqs, "core attention").bwd_s));
  CHECK(p.flops == Approx(PackedRow(short_seqs, "core attention").flops));
  // Against one 8,192-token document: FLOPs in proportion to the span, the rate by the
  // length curve s / (s + half_seq).
  const LayerOpRow w = PackedRow(whole, "core attention");
  CHECK(w.flops / p.flops == Approx(8.0));
  CHECK(w.fwd_s / p.fwd_s == Approx((8192 + kHalfSeq) / (1024 + kHalfSeq)));
  // Every GEMM still sees all 8,192 tokens.
  for (const char* gemm : {"qkv proj", "out proj", "mlp up", "mlp down"}) {
    INFO(gemm);
    CHECK(PackedRow(packed, gemm).fwd_s == Approx(PackedRow(whole, gemm).fwd_s));
  }
  // A document as long as the sequence (or longer) is the unpacked sequence.
  CHECK(PackedRow(Rows(8192, 1, 8192), "core attention").fwd_s == Approx(w.fwd_s));
  CHECK(PackedRow(Rows(8192, 1, 1e5), "core attention").fwd_s == Approx(w.fwd_s));
}

TEST_CASE("packed documents without FlashAttention: one score matrix per document",
          "[cost][attention][packed]") {
  const auto packed = Rows(8192, 1, 1024, Fusion::kApex);
  const auto short_seqs = Rows(1024, 8, 0, Fusion::kApex);
  CHECK(PackedRow(packed, "core attention").fwd_s ==
        Approx(PackedRow(short_seqs, "core attention").fwd_s));
  CHECK(PackedRow(packed, "softmax+dropout").bytes ==
        Approx(PackedRow(short_seqs, "softmax+dropout").bytes));
  CHECK(PackedRow(packed, "softmax+dropout").bytes * 8 ==
        Approx(PackedRow(Rows(8192, 1, 0, Fusion::kApex), "softmax+dropout").bytes));
}

TEST_CASE("packed_doc_tokens: plan strings, bounds and context parallelism", "[plan][packed]") {
  ModelSpec model = test::Llama3_70B();
  const ParallelPlan back =
      ResolvePlan(ParsePlanString("tp=8,global_batch=8,packed_doc_tokens=123.5"), 8, model);
  CHECK(back.kernels.packed_doc_tokens == 123.5);
  const std::string text = PlanString(back, model.seq_len);
  CHECK_THAT(text, Catch::Contains("packed_doc_tokens=123.5"));
  CHECK(PlanString(ResolvePlan(ParsePlanString("tp=8,global_batch=8"), 8, model), model.seq_len)
            .find("packed_doc_tokens") == std::string::npos);
  CHECK_THROWS_AS(ParsePlanString("packed_doc_tokens=-1"), InputError);
  // How a ring would split the documents is not modelled: refused with cp > 1, allowed at cp 1.
  ParallelPlan p;
  p.tp = 4;
  p.cp = 2;
  p.global_batch = 8;
  p.kernels.packed_doc_tokens = 1024;
  const auto violations = PlanViolations(model, test::DgxH100(), 8, p);
  bool refused = false;
  for (const std::string& v : violations) {
    refused = refused || v.find("packed_doc_tokens needs cp=1") != std::string::npos;
  }
  CHECK(refused);
  p.tp = 8;
  p.cp = 1;
  CHECK(PlanViolations(model, test::DgxH100(), 8, p).empty());
}
