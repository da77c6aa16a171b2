#include "model/model_counts.h"

#include <catch2/catch.hpp>

#include "model/reference_models.h"

using namespace paraplan;
using namespace paraplan::testing;

namespace {

constexpr double kBillion = 1e9;

// |actual / expected − 1| ≤ tolerance.
bool Near(double actual, double expected, double tolerance) {
  return std::abs(actual / expected - 1.0) <= tolerance;
}

}  // namespace

TEST_CASE("dense models match their published parameter counts within 1%", "[model]") {
  struct Case {
    ModelSpec spec;
    double published;
  };
  const Case cases[] = {{Gpt3(), 174.6 * kBillion},
                        {Llama3_8b(), 8.03 * kBillion},
                        {Llama3_70b(), 70.55 * kBillion},
                        {Llama31_405b(), 405.8 * kBillion}};
  for (const Case& c : cases) {
    const ModelCounts counts = CountModel(c.spec);
    INFO(c.spec.name << ": " << counts.params_total / kBillion << "B");
    CHECK(Near(counts.params_total, c.published, 0.01));
    CHECK(counts.params_active == Approx(counts.params_total));  // dense: every weight is used
    CHECK(counts.params_mtp == 0);
  }
}

TEST_CASE("MoE models match published total and active parameters within 1%", "[model]") {
  const ModelCounts mixtral = CountModel(Mixtral8x7b());
  CHECK(Near(mixtral.params_total, 46.7 * kBillion, 0.01));
  CHECK(Near(mixtral.params_active, 12.9 * kBillion, 0.01));

  const ModelCounts qwen = CountModel(Qwen3_235b());
  CHECK(Near(qwen.params_total, 235 * kBillion, 0.01));
  CHECK(Near(qwen.params_active, 22 * kBillion, 0.01));

  // OpenAI's gpt-oss model card: 116.83B total, 5.13B active (without the embedding lookup).
  const ModelCounts oss = CountModel(GptOss120b());
  CHECK(Near(oss.params_total, 116.83 * kBillion, 0.01));
  CHECK(Near(oss.params_active_no_embedding, 5.13 * kBillion, 0.01));
}

TEST_CASE("DeepSeek-V3: 671B, 685B with the MTP module, 37B active", "[model]") {
  const ModelCounts c = CountModel(DeepSeekV3());
  INFO("total " << c.params_total / kBillion << "B, with MTP " << c.params_total_with_mtp / kBillion
                << "B, active " << c.params_active / kBillion << "B");
  CHECK(Near(c.params_total, 671 * kBillion, 0.01));
  // The 685B checkpoint stores the MTP module's own copy of embedding and head (2 × 0.93B);
  // the paper shares them, so the module adds ~11.7B here.
  CHECK(Near(c.params_total_with_mtp, 685 * kBillion, 0.01));
  CHECK(c.params_mtp > 11 * kBillion);
  CHECK(c.params_mtp < 14 * kBillion);
  // "37B activated": our 37.55B counts embedding and head (as Mixtral's 12.9B and Qwen3's 22B
  // do); 36.62B without the embedding lookup. The published figure is rounded down.
  CHECK(c.params_active >= 37 * kBillion);
  CHECK(c.params_active < 38 * kBillion);
  CHECK(Near(c.params_active, 37 * kBillion, 0.016));
  CHECK(Near(c.params_active_no_embedding, 37 * kBillion, 0.011));
}

TEST_CASE("breakdowns add up to the totals", "[model]") {
  for (const ModelSpec& spec : {DeepSeekV3(), Gpt3(), GptOss120b()}) {
    const ModelCounts c = CountModel(spec);
    double by_group = 0;
    for (double p : c.params_by_group) by_group += p;
    CHECK(by_group == Approx(c.params_total).epsilon(1e-12));
    double by_kind = 0;
    for (double p : c.params_by_layer_kind) by_kind += p;
    CHECK(by_kind == Approx(c.params_total_with_mtp).epsilon(1e-12));
    double flops_by_kind = 0;
    for (double f : c.fwd_flops_by_layer_kind) flops_by_kind += f;
    CHECK(flops_by_kind == Approx(c.fwd_flops_per_token).epsilon(1e-12));
    CHECK(c.model_flops_per_token == Approx(3 * c.fwd_flops_per_token));
  }
  const ModelCounts ds = CountModel(DeepSeekV3());
  const auto group = [&ds](ParamGroup g) { return ds.params_by_group[static_cast<size_t>(g)]; };
  CHECK(group(ParamGroup::kMoeExperts) > 0.95 * ds.params_total);
  CHECK(group(ParamGroup::kSharedExperts) == Approx(58.0 * 3 * 7168 * 2048));
  CHECK(group(ParamGroup::kRouter) == Approx(58.0 * 256 * 7168));
  CHECK(group(ParamGroup::kMlp) == Approx(3.0 * 3 * 7168 * 18432));
}

TEST_CASE("GPT-3 model FLOPs match Megatron's formula exactly once attention is non-causal",
          "[model]") {
  const ModelSpec gpt3 = Gpt3();
  const ModelCounts c = CountModel(gpt3);
  const double megatron = MegatronModelFlopsPerToken(96, 12288, 2048, 50257);
  // Megatron counts the full s×s scores; the MFU convention here counts the causal half.
  const double full_attention = c.model_flops_per_token + 3 * c.attn_core_fwd_flops_per_token;
  CHECK(full_attention == Approx(megatron).epsilon(1e-6));
  CHECK(Near(c.model_flops_per_token, megatron, 0.03));
  CHECK(c.model_flops_per_token < megatron);
  // Eq. 3 adds one recomputed forward of the transformer layers (4 passes instead of 3).
  const double narayanan = NarayananFlopsPerToken(96, 12288, 2048, 50257);
  const double logits = 6.0 * 12288 * 50257;
  CHECK((narayanan - logits) == Approx((megatron - logits) * 4.0 / 3.0).epsilon(1e-12));
  // Longer sequences weigh attention more: at 8k the two conventions differ more.
  const ModelCounts long_seq = CountModel(gpt3, 8192);
  const double megatron_8k = MegatronModelFlopsPerToken(96, 12288, 8192, 50257);
  CHECK(long_seq.model_flops_per_token / megatron_8k < c.model_flops_per_token / megatron);
}

TEST_CASE("Llama-3 70B FLOPs agree with the Kaplan and PaLM forms", "[model]") {
  const ModelSpec m = Llama3_70b();
  const ModelCounts c = CountModel(m, 4096);
  const double head = 6.0 * 8192 * 128256;
  const double non_embedding = c.params_total - 2.0 * 8192 * 128256;
  // Kaplan's 2·n_ctx·d_attn per layer equals the causal half of QKᵀ + AV; it leaves out the head.
  CHECK(c.model_flops_per_token - head ==
        Approx(KaplanFlopsPerToken(non_embedding, 80, 4096, 64 * 128)).epsilon(1e-4));
  // PaLM counts the full scores (12·L·H·Q·T) and N = every matmul weight (head included).
  const double palm = PalmModelFlopsPerToken(c.params_total - 8192.0 * 128256, 80, 64, 128, 4096);
  CHECK(c.model_flops_per_token + 3 * c.attn_core_fwd_flops_per_token ==
        Approx(palm).epsilon(1e-4));
  CHECK(Near(c.model_flops_per_token, 6 * c.params_active, 0.15));
}

TEST_CASE("MoE FLOPs count only the routed top-k experts", "[model]") {
  const ModelCounts c = CountModel(Mixtral8x7b(), 4096);
  const double attn = c.fwd_flops_by_group[static_cast<size_t>(ParamGroup::kAttention)];
  const double experts = c.fwd_flops_by_group[static_cast<size_t>(ParamGroup::kMoeExperts)];
  CHECK(experts == Approx(32.0 * 2 * 2 * 3 * 4096 * 14336));
  CHECK(attn > 32.0 * 2 * (2 * 4096.0 * 4096 + 2 * 4096.0 * 1024));
  CHECK(c.fwd_flops_per_token < 2.2 * c.params_active);
  CHECK(c.fwd_flops_per_token > 1.8 * c.params_active);
}

TEST_CASE("DeepSeek-V3 training FLOPs include the MTP module", "[model]") {
  ModelSpec m = DeepSeekV3();
  const ModelCounts with = CountModel(m);
  m.mtp_layers = 0;
  const ModelCounts without = CountModel(m);
  CHECK(without.params_total == Approx(with.params_total));
  CHECK(without.params_mtp == 0);
  const double extra = with.fwd_flops_per_token - without.fwd_flops_per_token;
  // One MoE layer, the 2h→h projection and a second pass through the head.
  const double mtp = with.fwd_flops_by_layer_kind[static_cast<size_t>(LayerKind::kMtp)];
  CHECK(extra == Approx(mtp));
  CHECK(mtp > 2.0 * 7168 * 129280);
  CHECK(mtp < 0.05 * without.fwd_flops_per_token);
}

TEST_CASE("sliding windows reduce attention FLOPs", "[model]") {
  ModelSpec m = GptOss120b();
  m.seq_len = 32768;
  const ModelCounts windowed = CountModel(m);
  m.sliding_window = 0;
  const ModelCounts full = CountModel(m);
  CHECK(windowed.params_total == Approx(full.params_total));
  // Half the layers see 128 tokens instead of ~16k: attention FLOPs drop by ~half.
  const double ratio = windowed.attn_core_fwd_flops_per_token / full.attn_core_fwd_flops_per_token;
  CHECK(ratio < 0.51);
  CHECK(ratio > 0.5);
  CHECK(windowed.fwd_flops_per_token < full.fwd_flops_per_token);
  // A window as long as the sequence changes nothing.
  m.sliding_window = 32768;
  CHECK(CountModel(m).attn_core_fwd_flops_per_token == Approx(full.attn_core_fwd_flops_per_token));
}
