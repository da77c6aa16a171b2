// `paraplan model show MODEL [--format table|json] [--set model.PATH=VALUE]...`: the model's
// dimensions, parameters (total, active per token, by component) and training FLOPs per token.
#include <cmath>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "cli/cli_checks.h"
#include "cli/command.h"
#include "config/resolve.h"
#include "core/error.h"
#include "core/format.h"
#include "core/json.h"
#include "core/text_table.h"
#include "model/layer_graph.h"
#include "model/model_counts.h"
#include "model/model_names.h"

namespace paraplan {

namespace {

struct ShowOptions {
  std::string model;
  std::string format = "table";
  std::vector<std::string> sets;
  int64_t seq_len = 0;  // --seq-len: FLOPs per token at this sequence length
};

// The component breakdown model show prints: the main model's groups, then the MTP modules.
struct Component {
  const char* name;
  double params;
  double active_params;
  double flops_per_token;  // training (3 × forward)
};

std::vector<Component> Components(const ModelCounts& c) {
  std::vector<Component> out;
  for (size_t g = 0; g < kParamGroupCount; ++g) {
    if (static_cast<ParamGroup>(g) == ParamGroup::kMtpProj) continue;  // main model has none
    out.push_back({ToString(static_cast<ParamGroup>(g)), c.params_by_group[g],
                   c.params_active_by_group[g], 3.0 * c.fwd_flops_by_group[g]});
  }
  const size_t mtp = static_cast<size_t>(LayerKind::kMtp);
  out.push_back({"mtp", c.params_mtp, 0.0, 3.0 * c.fwd_flops_by_layer_kind[mtp]});
  return out;
}

Json DimsJson(const ModelSpec& m, const LayerGraph& g) {
  Json attention = Json::MakeObject();
  attention.Set("kind", ToString(m.attention_kind));
  if (m.attention_kind == AttentionKind::kMla) {
    attention.Set("q_lora_rank", m.mla.q_lora_rank)
        .Set("kv_lora_rank", m.mla.kv_lora_rank)
        .Set("qk_nope_head_dim", m.mla.qk_nope_head_dim)
        .Set("qk_rope_head_dim", m.mla.qk_rope_head_dim)
        .Set("v_head_dim", m.mla.v_head_dim);
  }
  attention.Set("sliding_window", m.sliding_window)
      .Set("sliding_window_every", m.sliding_window_every);
  Json moe = nullptr;
  if (m.IsMoe()) {
    moe = Json::MakeObject();
    moe.Set("experts", m.moe->experts)
        .Set("top_k", m.moe->top_k)
        .Set("shared_experts", m.moe->shared_experts)
        .Set("expert_ffn_hidden", m.moe->expert_ffn_hidden)
        .Set("dense_layers", m.moe->dense_layers)
        .Set("every", m.moe->every);
  }
  Json kinds = Json::MakeObject();
  for (const LayerBlock& b : g.blocks) {
    if (b.count > 0) kinds.Set(ToString(b.kind), b.count);
  }
  Json d = Json::MakeObject();
  d.Set("layers", m.layers).Set("hidden", m.hidden).Set("heads", m.heads);
  d.Set("kv_heads", m.kv_heads > 0 ? m.kv_heads : m.heads);
  d.Set("head_dim", m.head_dim > 0 ? m.head_dim : m.hidden / m.heads);
  d.Set("ffn_hidden", m.ffn_hidden).Set("vocab", m.vocab).Set(kModelSeqLenKey, m.seq_len);
  d.Set("activation", ToString(m.activation)).Set("norm", ToString(m.norm));
  d.Set("position", ToString(m.position)).Set("tied_embeddings", m.tied_embeddings);
  d.Set("mtp_layers", m.mtp_layers).Set("attention", attention).Set("moe", moe);
  d.Set("layer_kinds", kinds);
  return d;
}

// Parameter counts are whole numbers: print them as integers.
// An integer while a double holds it exactly (below 2^53); above, the number itself (1.77e+21),
// never a wrapped int64 (a model inside every bound can count 10^21 parameters).
Json Count(double params) {
  constexpr double kExact = 9007199254740992.0;  // 2^53
  if (std::fabs(params) < kExact) return Json(static_cast<int64_t>(std::llround(params)));
  return Json(params);
}

Json ShowJson(const ModelSpec& m, const LayerGraph& g, const ModelCounts& c) {
  Json params = Json::MakeObject();
  Json active = Json::MakeObject();
  Json flops = Json::MakeObject();
  for (const Component& comp : Components(c)) {
    params.Set(comp.name, Count(comp.params));
    active.Set(comp.name, Count(comp.active_params));
    flops.Set(comp.name, comp.flops_per_token);
  }
  Json j = Json::MakeObject();
  j.Set("name", m.name)
      .Set("params_total", Count(c.params_total))
      .Set("params_active", Count(c.params_active))
      .Set("params_active_no_embedding", Count(c.params_active_no_embedding))
      .Set("params_embedding", Count(c.params_embedding))
      .Set("params_mtp", Count(c.params_mtp))
      .Set("params_total_with_mtp", Count(c.params_total_with_mtp))
      .Set(kModelSeqLenKey, c.seq_len)
      .Set("flops_per_token", c.model_flops_per_token)
      .Set("fwd_flops_per_token", c.fwd_flops_per_token)
      .Set("attn_core_flops_per_token", 3.0 * c.attn_core_fwd_flops_per_token)
      .Set("params", params)
      .Set("params_active_by_component", active)
      .Set("flops_per_token_by_component", flops)
      .Set("dims", DimsJson(m, g));
  return j;
}

std::string Params(double count) {
  if (count == 0) return "0";
  if (count >= 1e9) return FormatFixed(count / 1e9, 2) + " B";
  if (count >= 1e6) return FormatFixed(count / 1e6, 2) + " M";
  return FormatFixed(count / 1e3, 2) + " K";
}

std::string Gflop(double flops) {
  return FormatFixed(flops / 1e9, 2) + " GFLOP/token";
}

std::string Describe(const ModelSpec& m) {
  std::string s = std::to_string(m.layers) + " layers, hidden " + std::to_string(m.hidden) + ", " +
                  std::to_string(m.heads) + " heads (" + ToString(m.attention_kind) + ", " +
                  std::to_string(m.kv_heads > 0 ? m.kv_heads : m.heads) + " kv)";
  if (m.IsMoe()) {
    s += ", " + std::to_string(m.moe->experts) + " experts top-" + std::to_string(m.moe->top_k);
    if (m.moe->groups > 1) {
      s += " within " + std::to_string(m.moe->group_topk) + " of " + std::to_string(m.moe->groups) +
           " groups";
    }
    if (m.moe->shared_experts > 0) s += " + " + std::to_string(m.moe->shared_experts) + " shared";
  }
  if (m.sliding_window > 0) s += ", sliding window " + std::to_string(m.sliding_window);
  if (m.mtp_layers > 0) s += ", " + std::to_string(m.mtp_layers) + " MTP";
  return s + ", vocab " + std::to_string(m.vocab) + ", " + ToString(m.activation);
}

void ShowTable(std::ostream& out, const ModelSpec& m, const ModelCounts& c) {
  out << m.name << ": " << Describe(m) << "\n\n";
  out << PadColumn("component", 18) << PadColumn("params", 14) << PadColumn("active/token", 14)
      << "training FLOPs\n";
  for (const Component& comp : Components(c)) {
    if (comp.params == 0 && comp.flops_per_token == 0) continue;
    out << PadColumn("  " + std::string(comp.name), 18) << PadColumn(Params(comp.params), 14)
        << PadColumn(Params(comp.active_params), 14) << Gflop(comp.flops_per_token) << "\n";
  }
  out << PadColumn("total", 18) << PadColumn(Params(c.params_total), 14)
      << PadColumn(Params(c.params_active), 14) << Gflop(c.model_flops_per_token) << "\n";
  if (c.params_mtp > 0) {
    out << PadColumn("total with MTP", 18) << Params(c.params_total_with_mtp) << "\n";
  }
  out << "\nparams_total " << Params(c.params_total) << ", params_active "
      << Params(c.params_active) << " per token (" << Params(c.params_active_no_embedding)
      << " without the embedding)\n";
  out << "flops_per_token " << Gflop(c.model_flops_per_token) << " at seq_len " << c.seq_len
      << " (training: 3 x forward, causal attention; attention core "
      << Gflop(3.0 * c.attn_core_fwd_flops_per_token) << ")\n";
}

void RunShow(const ShowOptions& opts, CliContext& ctx) {
  if (opts.format != "table" && opts.format != "json") {
    throw InputError({}, "--format", "must be one of table, json; got '" + opts.format + "'");
  }
  std::vector<Override> overrides;
  for (const std::string& text : opts.sets) {
    overrides.push_back(ParseOverrideFlag(text));
    if (overrides.back().path.rfind("model.", 0) != 0) {
      throw InputError({}, "--set", "model show takes model.* overrides only, got '" + text + "'");
    }
  }
  if (opts.seq_len > 0) {
    overrides.push_back({"model.seq_len", std::to_string(opts.seq_len), {"--seq-len", 0, 0}});
  }
  const ModelSpec model = LoadModel(opts.model, overrides);
  const LayerGraph graph = BuildLayerGraph(model);
  const ModelCounts counts = CountModel(model, graph);
  if (opts.format == "json") {
    *ctx.out << ShowJson(model, graph, counts).Dump(2) << "\n";
  } else {
    ShowTable(*ctx.out, model, counts);
  }
  ctx.exit_code = 0;
}

}  // namespace

void AddModelCommand(CLI::App& app, CliContext& ctx) {
  auto* model = app.add_subcommand("model", "describe models: parameters and FLOPs per token");
  model->require_subcommand(1);
  AddCatalogListCommand(*model, ctx, "models");
  auto opts = std::make_shared<ShowOptions>();
  auto* show = model->add_subcommand(
      "show", "print a model's dimensions, parameters (total, active) and training FLOPs");
  show->add_option("MODEL", opts->model,
                   "a name from models/ (llama3-70b), a YAML path, or a config.json")
      ->required();
  show->add_option("--format", opts->format, "table (default) or json");
  show->add_option("--set", opts->sets,
                   "override a model field by dotted path, e.g. model.seq_len=32768 "
                   "(repeatable)")
      ->allow_extra_args(false);
  show->add_option("--seq-len", opts->seq_len,
                   "sequence length for the FLOPs per token (as --set model.seq_len=N)")
      ->check(CountRange(kMaxSeqLen));
  show->footer(
      "Examples:\n"
      "  paraplan model show llama3-70b\n"
      "  paraplan model show deepseek-v3 --format json\n"
      "  paraplan model show llama3-8b --set model.seq_len=32768\n"
      "  paraplan model show path/to/config.json");
  show->callback([opts, &ctx] { RunShow(*opts, ctx); });
}

}  // namespace paraplan
