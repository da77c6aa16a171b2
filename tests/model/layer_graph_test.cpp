#include "model/layer_graph.h"

#include <catch2/catch.hpp>

#include "core/error.h"
#include "model/reference_models.h"

using namespace paraplan;
using namespace paraplan::testing;

namespace {

const Op& FindOp(const LayerBlock& block, OpKind kind) {
  for (const Op& op : block.ops) {
    if (op.kind == kind) return op;
  }
  FAIL("no op " << ToString(kind) << " in " << ToString(block.kind));
  return block.ops.front();
}

}  // namespace

TEST_CASE("GQA layer: fused QKV column-parallel, output row-parallel, gated MLP", "[model]") {
  const LayerGraph g = BuildLayerGraph(Llama3_70b());
  REQUIRE(g.Block(LayerKind::kDense).count == 80);
  CHECK_FALSE(g.Has(LayerKind::kMoe));
  CHECK_FALSE(g.Has(LayerKind::kMtp));
  const LayerBlock& layer = g.Block(LayerKind::kDense);
  const Op& qkv = FindOp(layer, OpKind::kQkvProj);
  CHECK(qkv.n == (64 + 2 * 8) * 128);
  CHECK(qkv.k == 8192);
  CHECK(qkv.tp == TpSplit::kColumn);
  const Op& out = FindOp(layer, OpKind::kOutProj);
  CHECK(out.tp == TpSplit::kRow);
  CHECK(out.n == 8192);
  const Op& up = FindOp(layer, OpKind::kMlpUp);
  CHECK(up.n == 2 * 28672);  // gate and up fused
  CHECK(FindOp(layer, OpKind::kMlpDown).k == 28672);
  const Op& core = FindOp(layer, OpKind::kAttnCore);
  CHECK(core.tp == TpSplit::kHeads);
  CHECK(core.attn_flops_per_context == 4.0 * 64 * 128);
  CHECK(core.FwdFlopsPerToken(8192) == 4.0 * 64 * 128 * 4096);
  CHECK(qkv.FwdFlopsPerToken(8192) == 2.0 * 10240 * 8192);
  CHECK(qkv.read_elems_per_token == 8192);
  CHECK(qkv.write_elems_per_token == 10240);
  CHECK(g.Block(LayerKind::kLogits).summary.tp_split_params == 8192.0 * 128256);
}

TEST_CASE("MLA ops have DeepSeek-V3's shapes and splits", "[model]") {
  const LayerGraph g = BuildLayerGraph(DeepSeekV3());
  CHECK(g.Block(LayerKind::kDense).count == 3);
  CHECK(g.Block(LayerKind::kMoe).count == 58);
  CHECK(g.Block(LayerKind::kMtp).count == 1);
  const LayerBlock& moe = g.Block(LayerKind::kMoe);
  const Op& q_down = FindOp(moe, OpKind::kMlaQDownProj);
  CHECK(q_down.n == 1536);
  CHECK(q_down.tp == TpSplit::kReplicated);
  CHECK(FindOp(moe, OpKind::kMlaQUpProj).n == 128 * 192);
  CHECK(FindOp(moe, OpKind::kMlaKvDownProj).n == 512 + 64);
  const Op& kv_up = FindOp(moe, OpKind::kMlaKvUpProj);
  CHECK(kv_up.n == 128 * (128 + 128));
  CHECK(kv_up.k == 512);
  CHECK(FindOp(moe, OpKind::kOutProj).k == 128 * 128);
  CHECK(FindOp(moe, OpKind::kAttnCore).attn_flops_per_context == 2.0 * 128 * (192 + 128));
  // Attention of one layer: 187.1M parameters (q_a, q_b, kv_a, kv_b, o).
  const double attention = moe.summary.params_by_group[static_cast<size_t>(ParamGroup::kAttention)];
  CHECK(attention ==
        7168.0 * 1536 + 1536.0 * 24576 + 7168.0 * 576 + 512.0 * 32768 + 16384.0 * 7168);
}

TEST_CASE("routed experts are grouped GEMMs over all experts, top_k active", "[model]") {
  const LayerGraph g = BuildLayerGraph(DeepSeekV3());
  const LayerBlock& moe = g.Block(LayerKind::kMoe);
  const Op& up = FindOp(moe, OpKind::kExpertUp);
  CHECK(up.expert);
  CHECK(up.gemm_count == 256);
  CHECK(up.m_per_token == Approx(8.0 / 256));
  CHECK(up.n == 2 * 2048);
  CHECK(up.params == 256.0 * 4096 * 7168);
  CHECK(up.active_params == 8.0 * 4096 * 7168);
  CHECK(up.fwd_flops_per_token == 2.0 * up.active_params);
  CHECK(FindOp(moe, OpKind::kExpertDown).tp == TpSplit::kRow);
  const Op& shared = FindOp(moe, OpKind::kSharedExpertUp);
  CHECK_FALSE(shared.expert);
  CHECK(shared.n == 2 * 2048);
  CHECK(FindOp(moe, OpKind::kRouter).tp == TpSplit::kReplicated);
  const LayerSummary& s = moe.summary;
  CHECK(s.replicated_params + s.tp_split_params + s.expert_params == Approx(s.params));
  CHECK(s.expert_params == 256.0 * 3 * 2048 * 7168);
  // The MTP module is an MoE layer plus the 2h→h projection; its head is shared (no weights).
  const LayerBlock& mtp = g.Block(LayerKind::kMtp);
  CHECK(FindOp(mtp, OpKind::kMtpProj).params == 2.0 * 7168 * 7168);
  CHECK(FindOp(mtp, OpKind::kLogits).params == 0);
  CHECK(FindOp(mtp, OpKind::kLogits).fwd_flops_per_token == 2.0 * 7168 * 129280);
  CHECK(mtp.summary.params > moe.summary.params);
}

TEST_CASE("layer kinds follow dense_layers, every and the sliding-window pattern", "[model]") {
  const ModelSpec oss = GptOss120b();
  CHECK(KindOfLayer(oss, 0) == LayerKind::kMoeSliding);
  CHECK(KindOfLayer(oss, 1) == LayerKind::kMoe);
  const LayerGraph g = BuildLayerGraph(oss);
  CHECK(g.Block(LayerKind::kMoeSliding).count == 18);
  CHECK(g.Block(LayerKind::kMoe).count == 18);
  CHECK(g.Block(LayerKind::kMoeSliding).summary.window == 128);
  CHECK(g.Block(LayerKind::kMoe).summary.window == 0);
  ModelSpec every2 = Mixtral8x7b();
  every2.moe->dense_layers = 1;
  every2.moe->every = 2;
  CHECK(KindOfLayer(every2, 0) == LayerKind::kDense);
  CHECK(KindOfLayer(every2, 1) == LayerKind::kMoe);
  CHECK(KindOfLayer(every2, 2) == LayerKind::kDense);
  CHECK(BuildLayerGraph(every2).Block(LayerKind::kMoe).count == 16);
}

TEST_CASE("causal context per token: s/2 without a window, about w with a short one", "[model]") {
  CHECK(CausalContextPerToken(4096, 0) == 2048);
  CHECK(CausalContextPerToken(4096, 8192) == 2048);
  CHECK(CausalContextPerToken(4096, 4096) == 2048);
  CHECK(CausalContextPerToken(4096, 128) == Approx(128 - 128.0 * 128 / 8192));
  CHECK(CausalContextPerToken(4096, 2048) < CausalContextPerToken(4096, 2049));
  CHECK(CausalContextPerToken(4096, 4095) < 2048.5);
}

TEST_CASE("tied embeddings share the head's weights, learned positions add seq × hidden",
          "[model]") {
  const LayerGraph g = BuildLayerGraph(Gpt3());
  CHECK(g.Block(LayerKind::kLogits).summary.params == 2.0 * 12288);  // the final LayerNorm only
  CHECK(g.Block(LayerKind::kLogits).summary.fwd_flops_no_attn_per_token == 2.0 * 12288 * 50257);
  CHECK(g.Block(LayerKind::kEmbedding).summary.params == (50257.0 + 2048) * 12288);
  CHECK(g.Block(LayerKind::kEmbedding).summary.fwd_flops_no_attn_per_token == 0);
  CHECK(FindOp(g.Block(LayerKind::kDense), OpKind::kMlpUp).n == 49152);  // gelu: not gated
}

TEST_CASE("inconsistent specs are rejected with the key that is wrong", "[model]") {
  ModelSpec m = Mixtral8x7b();
  m.moe->top_k = 9;
  CHECK_THROWS_WITH(BuildLayerGraph(m), Catch::Contains("moe.top_k"));
  m = Llama3_8b();
  m.kv_heads = 5;
  CHECK_THROWS_AS(BuildLayerGraph(m), InputError);
  m = Llama3_8b();
  m.hidden = 0;
  CHECK_THROWS_WITH(BuildLayerGraph(m), Catch::Contains("hidden"));
  m = DeepSeekV3();
  m.mla.kv_lora_rank = 0;
  CHECK_THROWS_WITH(BuildLayerGraph(m), Catch::Contains("MLA"));
}
