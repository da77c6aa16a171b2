#include "config/hf_import.h"

#include <algorithm>

#include "model/model_spec.h"

namespace paraplan {

namespace {

const std::vector<std::string> kFamilies = {"llama",       "mistral",     "mixtral",
                                            "qwen2",       "qwen3",       "qwen3_moe",
                                            "deepseek_v2", "deepseek_v3", "gpt_oss"};

// Reads the Hugging Face document; keys are looked up loosely (configs carry many keys that
// paraplan does not need, so unknown keys are not errors here).
class HfReader {
 public:
  explicit HfReader(const YamlNode& root) : root_(root) {}

  std::optional<YamlNode> Find(const std::string& key) const {
    const YAML::Node& raw = root_.Raw();
    const YAML::Node child = raw[key];
    if (!child.IsDefined() || child.IsNull()) return std::nullopt;
    return YamlNode(child, root_.Context(), key);
  }
  YamlNode Required(const std::string& key) const {
    if (auto node = Find(key)) return *node;
    root_.Fail("missing required key '" + key + "' (Hugging Face config)");
  }
  int64_t Int(const std::string& key, int64_t fallback) const {
    const auto node = Find(key);
    return node ? node->AsNonNegativeInt() : fallback;
  }
  int64_t PositiveInt(const std::string& key, int64_t fallback) const {
    const auto node = Find(key);
    return node ? node->AsPositiveInt() : fallback;
  }
  // Copies the scalar node (keeping its position for error messages) into out[to].
  void Copy(YAML::Node out, const std::string& to, const std::string& from) const {
    const YamlNode node = Required(from);
    if (!node.IsScalar())
      node.Fail("expected a number, got a " + std::string(node.IsMap() ? "mapping" : "list"));
    out[to] = node.Raw();
  }
  void CopyIf(const YAML::Node& out, const std::string& to, const std::string& from) const {
    if (Find(from)) Copy(out, to, from);
  }
  const YamlNode& Root() const { return root_; }

 private:
  YamlNode root_;
};

std::string Activation(const HfReader& hf) {
  const auto act = hf.Find("hidden_act");
  if (!act) return "swiglu";
  const std::string name = act->AsString();
  // The gated MLP of every supported family (gate_proj/up_proj/down_proj) with SiLU = SwiGLU.
  if (name == "silu" || name == "swish") return "swiglu";
  if (name == "gelu" || name == "gelu_new" || name == "gelu_pytorch_tanh") return "gelu";
  if (name == "relu") return "relu";
  act->Fail(YamlNode::EnumMessage(
      name, {"silu", "swish", "gelu", "gelu_new", "gelu_pytorch_tanh", "relu"}));
}

void CopyCommon(const HfReader& hf, YAML::Node& out) {
  hf.Copy(out, "layers", "num_hidden_layers");
  hf.Copy(out, "hidden", "hidden_size");
  hf.Copy(out, "heads", "num_attention_heads");
  hf.CopyIf(out, "kv_heads", "num_key_value_heads");
  hf.CopyIf(out, "head_dim", "head_dim");
  hf.CopyIf(out, "ffn_hidden", "intermediate_size");
  hf.Copy(out, "vocab", "vocab_size");
  // The training context is a plan choice; take the model's window, at most 8192 tokens.
  out[kModelSeqLenKey] = std::min<int64_t>(hf.Int("max_position_embeddings", 4096), 8192);
  out["activation"] = Activation(hf);
  out["norm"] = "rmsnorm";
  out["position"] = "rope";
  if (const auto tied = hf.Find("tie_word_embeddings")) out["tied_embeddings"] = tied->AsBool();
  hf.CopyIf(out, "rotary_base", "rope_theta");
  hf.CopyIf(out, "norm_epsilon", "rms_norm_eps");
  hf.CopyIf(out, "dropout", "attention_dropout");
}

// Biases: Qwen2 has them on Q/K/V only (transformers' modeling_qwen2.py, bias=True there);
// GPT-OSS on every linear layer, experts included (modeling_gpt_oss.py); other families on every
// linear layer when attention_bias and mlp_bias are both true.
void Biases(const std::string& type, const HfReader& hf, YAML::Node& out) {
  const auto flag = [&hf](const char* key) {
    const auto node = hf.Find(key);
    return node && node->AsBool();
  };
  if (type == "qwen2") out["qkv_bias"] = true;
  if (type == "gpt_oss" || (flag("attention_bias") && flag("mlp_bias"))) {
    out["linear_bias"] = true;
  }
}

// Sliding window on every layer (Mistral; Qwen2/3 when use_sliding_window is true).
void UniformWindow(const HfReader& hf, YAML::Node& out, bool enabled) {
  if (enabled && hf.Find("sliding_window"))
    hf.Copy(out["attention"], "sliding_window", "sliding_window");
}

// Layers using the window are 0, every, 2·every, ... (GPT-OSS alternates: every = 2).
void LayerTypesWindow(const HfReader& hf, YAML::Node& out) {
  const auto layer_types = hf.Find("layer_types");
  if (layer_types) {  // every entry a kind paraplan models, one per layer
    const std::vector<YamlNode> items = layer_types->Elements();
    for (const YamlNode& item : items) {
      const std::string kind = item.AsString();
      if (kind != "full_attention" && kind != "sliding_attention") {
        item.Fail(YamlNode::EnumMessage(kind, {"full_attention", "sliding_attention"}));
      }
    }
    const int64_t layers = hf.Required("num_hidden_layers").AsPositiveInt();
    if (static_cast<int64_t>(items.size()) != layers) {
      layer_types->Fail("has " + std::to_string(items.size()) + " entries, num_hidden_layers is " +
                        std::to_string(layers));
    }
  }
  if (!hf.Find("sliding_window")) return;
  int64_t every = 2;
  if (const auto& types = layer_types) {
    std::vector<int64_t> sliding;
    const std::vector<YamlNode> items = types->Elements();
    for (size_t i = 0; i < items.size(); ++i) {
      if (items[i].AsString() == "sliding_attention") sliding.push_back(static_cast<int64_t>(i));
    }
    if (sliding.empty()) return;
    every = sliding.size() > 1 ? sliding[1] - sliding[0] : static_cast<int64_t>(items.size());
    for (size_t i = 0; i < items.size(); ++i) {
      const bool expected = static_cast<int64_t>(i) % every == 0;
      if (expected != (items[i].AsString() == "sliding_attention")) {
        types->Fail("sliding layers must be 0, k, 2k, ... to be represented (layer " +
                    std::to_string(i) + " breaks the pattern)");
      }
    }
  }
  hf.Copy(out["attention"], "sliding_window", "sliding_window");
  out["attention"]["sliding_window_every"] = every;
}

// Qwen3-MoE: layer i is sparse when (i + 1) % decoder_sparse_step == 0 and i is not in
// mlp_only_layers (transformers' modeling_qwen3_moe.py). Representable when mlp_only_layers is
// a prefix 0..k-1.
void QwenMoeLayout(const HfReader& hf, YAML::Node& moe) {
  const int64_t step = hf.PositiveInt("decoder_sparse_step", 1);
  int64_t prefix = 0;
  if (const auto only = hf.Find("mlp_only_layers")) {
    const std::vector<YamlNode> items = only->Elements();
    for (size_t i = 0; i < items.size(); ++i) {
      if (items[i].AsNonNegativeInt() != static_cast<int64_t>(i)) {
        only->Fail("only a prefix 0, 1, ..., k-1 of dense layers can be represented");
      }
    }
    prefix = static_cast<int64_t>(items.size());
  }
  int64_t first = prefix;
  while ((first + 1) % step != 0) ++first;
  moe["dense_layers"] = first;
  moe["every"] = step;
}

// DeepSeek: layer i is MoE when i >= first_k_dense_replace and i % moe_layer_freq == 0.
void DeepSeekMoeLayout(const HfReader& hf, YAML::Node& moe) {
  const int64_t freq = hf.PositiveInt("moe_layer_freq", 1);
  const int64_t first_k = hf.Int("first_k_dense_replace", 0);
  moe["dense_layers"] = (first_k + freq - 1) / freq * freq;
  moe["every"] = freq;
}

void DeepSeek(const HfReader& hf, YAML::Node& out) {
  out.remove("kv_heads");  // MLA: every head has its own (decompressed) K and V
  YAML::Node attention = out["attention"];
  attention["kind"] = "mla";
  if (hf.Find("q_lora_rank")) hf.Copy(attention, "q_lora_rank", "q_lora_rank");
  hf.Copy(attention, "kv_lora_rank", "kv_lora_rank");
  hf.Copy(attention, "qk_nope_head_dim", "qk_nope_head_dim");
  hf.Copy(attention, "qk_rope_head_dim", "qk_rope_head_dim");
  hf.Copy(attention, "v_head_dim", "v_head_dim");
  hf.CopyIf(out, "mtp_layers", "num_nextn_predict_layers");
  if (!hf.Find("n_routed_experts")) return;
  YAML::Node moe = out["moe"];
  hf.Copy(moe, "experts", "n_routed_experts");
  hf.Copy(moe, "top_k", "num_experts_per_tok");
  hf.CopyIf(moe, "shared_experts", "n_shared_experts");
  hf.Copy(moe, "expert_ffn_hidden", "moe_intermediate_size");
  // V3: sigmoid scores with a bias for the top-k choice (scoring_func, topk_method noaux_tc).
  if (const auto score = hf.Find("scoring_func")) moe["router_score"] = score->AsString();
  if (const auto method = hf.Find("topk_method")) {
    if (method->AsString() == "noaux_tc") moe["expert_bias"] = true;
  }
  // Group-limited routing: n_group groups, topk_group chosen per token (V2-Lite: 1 and 1).
  const int64_t groups = hf.Int("n_group", 0), topk = hf.Int("topk_group", 0);
  if (topk > std::max<int64_t>(groups, 1)) {  // more groups chosen than exist: not a routing
    hf.Required("topk_group")
        .Fail("must be at most n_group (" + std::to_string(groups) + "), got " +
              std::to_string(topk));
  }
  if (groups > 1 && topk >= 1 && topk < groups) {
    hf.Copy(moe, "groups", "n_group");
    hf.Copy(moe, "group_topk", "topk_group");
  }
  DeepSeekMoeLayout(hf, moe);
}

void Family(const std::string& type, const HfReader& hf, YAML::Node& out) {
  if (type == "mistral" || type == "mixtral") UniformWindow(hf, out, true);
  if (type == "qwen2" || type == "qwen3" || type == "qwen3_moe") {
    const auto use = hf.Find("use_sliding_window");
    UniformWindow(hf, out, use && use->AsBool());
  }
  if (type == "mixtral" || type == "gpt_oss") {
    YAML::Node moe = out["moe"];
    hf.Copy(moe, "experts", "num_local_experts");
    hf.Copy(moe, "top_k",
            hf.Find("experts_per_token") ? "experts_per_token" : "num_experts_per_tok");
    hf.Copy(moe, "expert_ffn_hidden", "intermediate_size");
  }
  if (type == "gpt_oss") LayerTypesWindow(hf, out);
  if (type == "qwen3_moe") {
    YAML::Node moe = out["moe"];
    hf.Copy(moe, "experts", "num_experts");
    hf.Copy(moe, "top_k", "num_experts_per_tok");
    hf.Copy(moe, "expert_ffn_hidden", "moe_intermediate_size");
    QwenMoeLayout(hf, moe);
  }
  if (type == "deepseek_v2" || type == "deepseek_v3") DeepSeek(hf, out);
}

}  // namespace

bool LooksLikeHfConfig(const YamlNode& root) {
  return root.IsMap() && root.Raw()["model_type"].IsDefined();
}

YAML::Node HfConfigToModel(const YamlNode& root, const std::string& name) {
  if (!root.IsMap()) root.Fail("expected a JSON object (a Hugging Face config.json)");
  const HfReader hf(root);
  const YamlNode type_node = hf.Required("model_type");
  const std::string type = type_node.AsString();
  if (std::find(kFamilies.begin(), kFamilies.end(), type) == kFamilies.end()) {
    type_node.Fail("unsupported model_type " + YamlNode::EnumMessage(type, kFamilies));
  }
  YAML::Node out(YAML::NodeType::Map);
  out["name"] = name;
  CopyCommon(hf, out);
  Biases(type, hf, out);
  Family(type, hf, out);
  return out;
}

}  // namespace paraplan
