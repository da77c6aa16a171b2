#include "config/model_loader.h"

#include <filesystem>

#include "config/count_bounds.h"
#include "config/hf_import.h"
#include "config/overrides.h"
#include "model/model_names.h"

namespace paraplan {

namespace {

const std::vector<std::string> kModelKeys = {
    "name",     "layers",      "hidden",          "heads",         "kv_heads",
    "head_dim", "ffn_hidden",  "vocab",           kModelSeqLenKey, "activation",
    "norm",     "position",    "tied_embeddings", "mtp_layers",    "attention",
    "moe",      "linear_bias", "qkv_bias",        "rotary_base",   "norm_epsilon",
    "dropout"};
const std::vector<std::string> kAttentionKeys = {
    "kind",       "q_lora_rank",    "kv_lora_rank",        "qk_nope_head_dim", "qk_rope_head_dim",
    "v_head_dim", "sliding_window", "sliding_window_every"};
const std::vector<std::string> kMlaKeys = {"q_lora_rank", "kv_lora_rank", "qk_nope_head_dim",
                                           "qk_rope_head_dim", "v_head_dim"};
const std::vector<std::string> kMoeKeys = {
    "experts",         "top_k",  "shared_experts", "expert_ffn_hidden", "dense_layers", "every",
    "capacity_factor", "groups", "group_topk",     "router_score",      "expert_bias"};

std::string Num(int64_t v) {
  return std::to_string(v);
}

// groups and group_topk come together: the groups split the experts evenly, and the chosen groups
// hold at least top_k experts.
void ReadRouterGroups(const YamlMap& map, MoeSpec& moe) {
  if (!map.Has("groups") && !map.Has("group_topk")) return;
  const YamlNode groups = map.Required("groups");
  const YamlNode topk = map.Required("group_topk");
  moe.groups = groups.AsPositiveInt();
  moe.group_topk = topk.AsPositiveInt();
  if (moe.groups > moe.experts || moe.experts % moe.groups != 0) {
    groups.Fail("must divide experts (" + Num(moe.experts) + "), got " + Num(moe.groups));
  }
  if (moe.group_topk > moe.groups) {
    topk.Fail("must be <= groups (" + Num(moe.groups) + "), got " + Num(moe.group_topk));
  }
  if (moe.group_topk * (moe.experts / moe.groups) < moe.top_k) {
    topk.Fail("its groups hold " + Num(moe.group_topk * (moe.experts / moe.groups)) +
              " experts, fewer than top_k (" + Num(moe.top_k) + ")");
  }
}

void ReadMoe(const YamlMap& top, ModelSpec& m) {
  const auto node = top.Find("moe");
  if (!node) return;
  const YamlMap map(*node, kMoeKeys);
  MoeSpec moe;
  moe.experts = map.Required("experts").AsPositiveInt();
  const YamlNode top_k = map.Required("top_k");
  moe.top_k = top_k.AsPositiveInt();
  if (moe.top_k > moe.experts) {
    top_k.Fail("must be <= experts (" + Num(moe.experts) + "), got " + Num(moe.top_k));
  }
  moe.shared_experts = map.NonNegativeInt("shared_experts", 0);
  if (map.Has("expert_ffn_hidden")) {
    moe.expert_ffn_hidden = map.Required("expert_ffn_hidden").AsPositiveInt();
  } else if (top.Has("ffn_hidden")) {
    moe.expert_ffn_hidden = top.Required("ffn_hidden").AsPositiveInt();
  } else {
    node->Fail("missing required key 'expert_ffn_hidden' (or a top-level ffn_hidden)");
  }
  moe.dense_layers = map.NonNegativeInt("dense_layers", 0);
  if (moe.dense_layers >= m.layers) {
    map.Required("dense_layers")
        .Fail("must be < layers (" + Num(m.layers) + "), got " + Num(moe.dense_layers));
  }
  moe.every = map.PositiveInt("every", 1);
  CheckCounts(map, {{"experts", moe.experts, kMaxExperts},
                    {"shared_experts", moe.shared_experts, kMaxExperts},
                    {"expert_ffn_hidden", moe.expert_ffn_hidden, kMaxFfnHidden},
                    {"every", moe.every, m.layers}});
  if (const auto cf = map.Find("capacity_factor")) moe.capacity_factor = cf->AsPositiveDouble();
  ReadRouterGroups(map, moe);
  if (map.Has("router_score")) {
    moe.router_score = map.Required("router_score").AsEnum(RouterScoreNames());
  }
  moe.expert_bias = map.Bool("expert_bias", false);
  if (moe.expert_bias && moe.router_score != RouterScore::kSigmoid) {
    map.Required("expert_bias").Fail("needs router_score: sigmoid");
  }
  m.moe = moe;
}

void ReadMla(const YamlMap& attention, ModelSpec& m) {
  m.mla.q_lora_rank = attention.NonNegativeInt("q_lora_rank", 0);
  m.mla.kv_lora_rank = attention.Required("kv_lora_rank").AsPositiveInt();
  m.mla.qk_nope_head_dim = attention.Required("qk_nope_head_dim").AsPositiveInt();
  m.mla.qk_rope_head_dim = attention.Required("qk_rope_head_dim").AsPositiveInt();
  m.mla.v_head_dim = attention.Required("v_head_dim").AsPositiveInt();
  CheckCounts(attention, {{"q_lora_rank", m.mla.q_lora_rank, kMaxLoraRank},
                          {"kv_lora_rank", m.mla.kv_lora_rank, kMaxLoraRank},
                          {"qk_nope_head_dim", m.mla.qk_nope_head_dim, kMaxLoraRank},
                          {"qk_rope_head_dim", m.mla.qk_rope_head_dim, kMaxLoraRank},
                          {"v_head_dim", m.mla.v_head_dim, kMaxLoraRank}});
}

AttentionKind DefaultKind(const ModelSpec& m, const std::optional<YamlMap>& attention) {
  if (attention && attention->Has("kv_lora_rank")) return AttentionKind::kMla;
  return m.kv_heads == m.heads ? AttentionKind::kMha : AttentionKind::kGqa;
}

void ReadAttentionBlock(const YamlMap& top, ModelSpec& m) {
  std::optional<YamlMap> attention;
  if (const auto node = top.Find("attention")) attention.emplace(*node, kAttentionKeys);
  m.attention_kind = DefaultKind(m, attention);
  if (attention && attention->Has("kind")) {
    const YamlNode kind = attention->Required("kind");
    m.attention_kind = kind.AsEnum(AttentionKindNames());
    if (m.attention_kind == AttentionKind::kMha && m.kv_heads != m.heads) {
      kind.Fail("mha needs kv_heads == heads (" + Num(m.heads) + "), got kv_heads " +
                Num(m.kv_heads) + "; use gqa");
    }
  }
  if (m.attention_kind == AttentionKind::kMla) {
    if (!attention) top.Node().Fail("kind mla needs an attention: mapping with its ranks");
    if (m.kv_heads != m.heads) {
      top.Required("kv_heads").Fail("must equal heads (" + Num(m.heads) + ") for mla");
    }
    ReadMla(*attention, m);
  } else if (attention) {
    for (const std::string& key : kMlaKeys) {
      if (attention->Has(key)) attention->Required(key).Fail("only valid with kind: mla");
    }
  }
  if (!attention) return;
  m.sliding_window = attention->NonNegativeInt("sliding_window", 0);
  m.sliding_window_every = attention->PositiveInt("sliding_window_every", 1);
  CheckCounts(*attention, {{"sliding_window", m.sliding_window, kMaxModelSeqLen},
                           {"sliding_window_every", m.sliding_window_every, m.layers}});
  if (attention->Has("sliding_window_every") && m.sliding_window == 0) {
    attention->Required("sliding_window_every").Fail("needs a sliding_window > 0");
  }
}

void ReadHeads(const YamlMap& top, ModelSpec& m) {
  m.kv_heads = top.PositiveInt("kv_heads", m.heads);
  if (m.kv_heads > m.heads || m.heads % m.kv_heads != 0) {
    top.Required("kv_heads")
        .Fail("must divide heads (" + Num(m.heads) + "), got " + Num(m.kv_heads));
  }
  ReadAttentionBlock(top, m);
  if (top.Has("head_dim")) {
    m.head_dim = top.Required("head_dim").AsPositiveInt();
  } else if (m.attention_kind == AttentionKind::kMla) {
    m.head_dim = m.mla.qk_nope_head_dim + m.mla.qk_rope_head_dim;
  } else if (m.hidden % m.heads != 0) {
    top.Required("heads").Fail("hidden (" + Num(m.hidden) + ") is not divisible by heads (" +
                               Num(m.heads) + "); give head_dim explicitly");
  } else {
    m.head_dim = m.hidden / m.heads;
  }
}

// The fields the launch exports need (biases, RoPE base, norm epsilon, dropout).
void ReadExportFields(const YamlMap& top, ModelSpec& m) {
  m.linear_bias = top.Bool("linear_bias", false);
  m.qkv_bias = top.Bool("qkv_bias", false);
  m.rotary_base = top.PositiveDouble("rotary_base", 10000);
  m.norm_epsilon = top.PositiveDouble("norm_epsilon", 1e-5);
  if (const auto d = top.Find("dropout")) {
    m.dropout = d->AsDouble();
    if (m.dropout < 0 || m.dropout >= 1) d->Fail("must be in [0, 1)");
  }
  if (top.Has("rotary_base") && m.position != Position::kRope) {
    top.Required("rotary_base").Fail("only valid with position: rope");
  }
}

}  // namespace

ModelSpec ReadModel(const YamlNode& node, const std::string& default_name) {
  const YamlMap top(node, kModelKeys);
  ModelSpec m;
  m.name = top.String("name", default_name);
  if (m.name.empty()) node.Fail("missing required key 'name'");
  m.layers = top.Required("layers").AsPositiveInt();
  m.hidden = top.Required("hidden").AsPositiveInt();
  m.heads = top.Required("heads").AsPositiveInt();
  m.vocab = top.Required("vocab").AsPositiveInt();
  m.seq_len = top.Required(kModelSeqLenKey).AsPositiveInt();
  m.mtp_layers = top.NonNegativeInt("mtp_layers", 0);
  CheckCounts(top, {{"layers", m.layers, kMaxModelLayers},
                    {"hidden", m.hidden, kMaxHidden},
                    {"heads", m.heads, kMaxHeads},
                    {"vocab", m.vocab, kMaxVocab},
                    {kModelSeqLenKey, m.seq_len, kMaxModelSeqLen},
                    {"mtp_layers", m.mtp_layers, kMaxMtpLayers}});
  ReadMoe(top, m);
  if (top.Has("ffn_hidden") || !m.moe) {
    m.ffn_hidden = top.Required("ffn_hidden").AsPositiveInt();
    CheckCounts(top, {{"ffn_hidden", m.ffn_hidden, kMaxFfnHidden}});
  } else {
    m.ffn_hidden = m.moe->expert_ffn_hidden;
  }
  m.activation = top.Required("activation").AsEnum(ActivationNames());
  const bool gated = m.activation == Activation::kSwiglu;
  m.norm = top.Has("norm") ? top.Required("norm").AsEnum(NormNames())
                           : (gated ? Norm::kRmsNorm : Norm::kLayerNorm);
  m.position = top.Has("position") ? top.Required("position").AsEnum(PositionNames())
                                   : (gated ? Position::kRope : Position::kLearned);
  m.tied_embeddings = top.Bool("tied_embeddings", false);
  ReadHeads(top, m);
  ReadExportFields(top, m);
  CheckCounts(top, {{"kv_heads", m.kv_heads, kMaxHeads}, {"head_dim", m.head_dim, kMaxHeads}});
  return m;
}

ModelSpec LoadModelFile(const std::string& path, const std::vector<Override>& overrides) {
  const YamlDocument doc = LoadYamlFile(path);
  const std::filesystem::path p(path);
  std::string default_name = p.stem().string();
  if (default_name == "config" && p.has_parent_path()) {
    default_name = p.parent_path().filename().string();
  }
  YamlNode root = doc.Root();
  if (p.extension() == ".json" || LooksLikeHfConfig(root)) {
    root = YamlNode(HfConfigToModel(root, default_name), doc.context, "");
  }
  ApplyOverrides(root, overrides, "model");
  return ReadModel(root, default_name);
}

}  // namespace paraplan
