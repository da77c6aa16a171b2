#include "config/plan_loader.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <utility>

#include "config/knob_aliases.h"
#include "config/megatron_layout.h"
#include "config/resolve.h"
#include "core/format.h"
#include "core/strings.h"
#include "plan/knob_bounds.h"

namespace paraplan {

namespace {

int64_t ParseInt(const std::string& text, int64_t min_value) {
  int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  const bool digits = !text.empty() && std::all_of(text.begin(), text.end(), [](unsigned char c) {
    return std::isdigit(c) != 0;
  });
  if (ec == std::errc::result_out_of_range && digits) {
    value = kMaxKnobCount + 1;  // past int64: past the bound
  } else if (ec != std::errc() || end != text.data() + text.size()) {
    throw InputError("expected an integer, got '" + text + "'");
  }
  if (value < min_value) {
    throw InputError("must be >= " + std::to_string(min_value) + ", got " + text);
  }
  if (value > kMaxKnobCount) {
    throw InputError("must be at most " + std::to_string(kMaxKnobCount) +
                     " (paraplan's bound), got " + text);
  }
  return value;
}

double ParseNumber(const std::string& text, double min_value, bool inclusive,
                   double max_value = kMaxKnobNumber) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    throw InputError("expected a number, got '" + text + "'");
  }
  if (inclusive ? value < min_value : value <= min_value) {
    throw InputError(std::string("must be ") + (inclusive ? ">= " : "> ") +
                     FormatShortest(min_value) + ", got " + text);
  }
  if (value > max_value) {
    throw InputError("must be at most " + BoundText(max_value) + " (paraplan's bound), got " +
                     text);
  }
  return value;
}

template <typename T>
T ParseEnum(const std::string& text, const std::vector<std::pair<const char*, T>>& table) {
  std::vector<std::string> names;
  for (const auto& [name, value] : table) {
    if (text == name) return value;
    names.emplace_back(name);
  }
  throw InputError(YamlNode::EnumMessage(text, names));
}

bool ParseBool(const std::string& text) {
  return ParseEnum<bool>(text, {{"true", true}, {"false", false}});
}

template <typename T, typename F>
std::vector<T> Each(const std::vector<std::string>& values, F parse) {
  std::vector<T> out;
  out.reserve(values.size());
  for (const std::string& v : values) out.push_back(parse(v));
  return out;
}

std::vector<int64_t> Ints(const std::vector<std::string>& values, int64_t min_value) {
  return Each<int64_t>(values, [&](const std::string& v) { return ParseInt(v, min_value); });
}

std::array<ParallelDim, 5> ParsePlacement(const std::string& text) {
  const NameTable<ParallelDim>& dims = ParallelDimNames();
  std::array<ParallelDim, 5> order{};
  size_t count = 0;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t dash = std::min(text.find('-', start), text.size());
    const ParallelDim dim = ParseEnum(text.substr(start, dash - start), dims);
    for (size_t i = 0; i < count; ++i) {
      if (order[i] == dim) throw InputError("'" + text + "' names a dimension twice");
    }
    if (count == 5) throw InputError("'" + text + "' has more than 5 dimensions");
    order[count++] = dim;
    start = dash + 1;
  }
  if (count != 5) {
    throw InputError("'" + text + "' must order all of tp, cp, ep, dp, pp (e.g. tp-cp-ep-dp-pp)");
  }
  return order;
}

// "15/16/16/15"; an entry may repeat as N*k ("7/8*14/7"). 0 is allowed (a virtual stage that
// holds only the embedding, the loss or the MTP modules); plan/stage_layout.cpp checks where.
std::vector<int64_t> ParseLayerSplit(const std::vector<std::string>& values) {
  if (values.size() != 1) throw InputError("takes one split (e.g. 15/16/16/15), not alternatives");
  std::vector<int64_t> out;
  std::string current;
  for (char c : values[0] + "/") {
    if (c != '/') {
      current += c;
      continue;
    }
    const size_t star = current.find('*');
    const int64_t n = ParseInt(current.substr(0, star), 0);
    const int64_t repeat = star == std::string::npos ? 1 : ParseInt(current.substr(star + 1), 1);
    if (repeat > 1 << 20) throw InputError("repeat count " + std::to_string(repeat) + " too large");
    out.insert(out.end(), static_cast<size_t>(repeat), n);
    current.clear();
  }
  return out;
}

std::string OneValue(const std::vector<std::string>& values) {
  if (values.size() != 1) throw InputError("takes one value, not alternatives");
  return values[0];
}

StageLayoutRule& LayoutOf(PlanConstraints& p) {
  if (!p.layout) p.layout = StageLayoutRule{};
  return *p.layout;
}

MemoryRecipe& RecipeOf(PlanConstraints& p) {
  if (!p.recipe) p.recipe = MemoryRecipe{};
  return *p.recipe;
}

KernelRecipe& KernelsOf(PlanConstraints& p) {
  if (!p.kernels) p.kernels = KernelRecipe{};
  return *p.kernels;
}

// Megatron-LM's --recompute-modules as one value, names joined by '+' ("core_attn+moe_act").
uint32_t ParseRecomputeModules(const std::string& text) {
  uint32_t bits = 0;
  size_t begin = 0;
  while (begin <= text.size()) {
    const size_t plus = std::min(text.find('+', begin), text.size());
    bits |=
        static_cast<uint32_t>(ParseEnum(text.substr(begin, plus - begin), RecomputeModuleNames()));
    begin = plus + 1;
  }
  return bits;
}

// Megatron-LM's layout string: layers per virtual stage and the MTP stage.
void SetMegatronLayout(PlanConstraints& p, const std::vector<std::string>& v) {
  const MegatronLayout layout = ParseMegatronLayout(OneValue(v));
  p.pp_layers = layout.layers;
  LayoutOf(p).mtp_stage = layout.mtp_stage;
}

using KnobSetter = void (*)(PlanConstraints&, const std::vector<std::string>&);

struct KnobEntry {
  const char* name;
  KnobSetter set;
};

#define PARAPLAN_INT_KNOB(field)                                                                  \
  {                                                                                               \
#field, [](PlanConstraints & p, const std::vector <std::string>& v) { p.field = Ints(v, 1); } \
  }
#define PARAPLAN_BOOL_KNOB(field)                                                          \
  {                                                                                        \
#field, [](PlanConstraints & p,                                                        \
               const std::vector <std::string>& v) { p.field = Each<bool>(v, ParseBool); } \
  }
#define PARAPLAN_ENUM_KNOB(field, table)                                      \
  {                                                                           \
#field, [](PlanConstraints& p, const std::vector<std::string>& v) {         \
     p.field = Each<decltype((table)[0].second)>(                                \
         v, [](const std::string& s) { return ParseEnum(s, table); });         \
   } \
  }
#define PARAPLAN_NUMBER_KNOB(field, min_value, inclusive, max_value)                           \
  {                                                                                            \
#field, [](PlanConstraints& p, const std::vector<std::string>& v) {                          \
     p.field = Each<double>(v, [](const std::string& s) {                                     \
       return ParseNumber(s, min_value, inclusive, max_value);                                 \
     });                                                                                       \
   } \
  }

const std::vector<KnobEntry>& KnobTable() {
  static const std::vector<KnobEntry> kTable = {
      PARAPLAN_INT_KNOB(tp),
      PARAPLAN_INT_KNOB(pp),
      PARAPLAN_INT_KNOB(dp),
      PARAPLAN_INT_KNOB(cp),
      PARAPLAN_INT_KNOB(ep),
      PARAPLAN_INT_KNOB(etp),
      PARAPLAN_INT_KNOB(vpp),
      PARAPLAN_INT_KNOB(micro_batch),
      PARAPLAN_INT_KNOB(global_batch),
      PARAPLAN_INT_KNOB(seq_len),
      PARAPLAN_ENUM_KNOB(recompute, RecomputeNames()),
      PARAPLAN_BOOL_KNOB(sequence_parallel),
      {"zero",
       [](PlanConstraints& p, const std::vector<std::string>& v) {
         p.zero = Each<int>(v, [](const std::string& s) {
           const int64_t z = ParseInt(s, 0);
           if (z > 3) throw InputError("must be 0, 1, 2 or 3, got " + s);
           return static_cast<int>(z);
         });
       }},
      PARAPLAN_ENUM_KNOB(precision, PrecisionNames()),
      PARAPLAN_ENUM_KNOB(schedule, ScheduleNames()),
      PARAPLAN_ENUM_KNOB(moe_routing, MoeRoutingNames()),
      PARAPLAN_NUMBER_KNOB(moe_capacity_factor, 0.0, false, kMaxMoeFactor),
      PARAPLAN_NUMBER_KNOB(moe_imbalance, 1.0, true, kMaxMoeFactor),
      PARAPLAN_ENUM_KNOB(dp_comm_dtype, CommDtypeNames()),
      {"dp_bucket_MB",
       [](PlanConstraints& p, const std::vector<std::string>& v) {
         p.dp_bucket_MB = Each<double>(v, [](const std::string& s) {
           const double mb = ParseNumber(s, 0.0, true, kMaxDpBucketMB);
           if (mb > 0 && mb < kMinDpBucketMB) {
             throw InputError("must be 0 (automatic) or from " + BoundText(kMinDpBucketMB) + " to " +
                              BoundText(kMaxDpBucketMB) + " MB, got " + s);
           }
           return mb;
         });
       }},
      {"placement",
       [](PlanConstraints& p, const std::vector<std::string>& v) {
         p.placement = Each<std::array<ParallelDim, 5>>(v, ParsePlacement);
       }},
      {"pp_layers", [](PlanConstraints& p,
                       const std::vector<std::string>& v) { p.pp_layers = ParseLayerSplit(v); }},
      {"pp_layout", SetMegatronLayout},
      {"pp_first_layers",
       [](PlanConstraints& p, const std::vector<std::string>& v) {
         LayoutOf(p).first_stage_layers = ParseInt(OneValue(v), 1);
       }},
      {"pp_last_layers",
       [](PlanConstraints& p, const std::vector<std::string>& v) {
         LayoutOf(p).last_stage_layers = ParseInt(OneValue(v), 1);
       }},
      {"pp_account_embedding",
       [](PlanConstraints& p, const std::vector<std::string>& v) {
         LayoutOf(p).account_embedding = ParseBool(OneValue(v));
       }},
      {"pp_account_loss",
       [](PlanConstraints& p, const std::vector<std::string>& v) {
         LayoutOf(p).account_loss = ParseBool(OneValue(v));
       }},
      {"pp_split_points",
       [](PlanConstraints& p, const std::vector<std::string>& v) {
         LayoutOf(p).split_points = ParseSplitPoints(OneValue(v));
       }},
      PARAPLAN_BOOL_KNOB(overlap_grad_reduce),
      PARAPLAN_BOOL_KNOB(overlap_param_gather),
      PARAPLAN_BOOL_KNOB(overlap_tp_comm),
      PARAPLAN_BOOL_KNOB(overlap_ep_comm),
      PARAPLAN_BOOL_KNOB(overlap_pp_comm),
      PARAPLAN_BOOL_KNOB(zero3_keep_gathered),
      PARAPLAN_BOOL_KNOB(grad_reduce_in_fp32),
      {"recompute_modules",
       [](PlanConstraints& p, const std::vector<std::string>& v) {
         RecipeOf(p).recompute_modules = ParseRecomputeModules(OneValue(v));
       }},
      {"fp8_act_cache",
       [](PlanConstraints& p, const std::vector<std::string>& v) {
         RecipeOf(p).fp8_act_cache = ParseBool(OneValue(v));
       }},
      {"cross_entropy_fusion",
       [](PlanConstraints& p, const std::vector<std::string>& v) {
         RecipeOf(p).cross_entropy_fusion = ParseBool(OneValue(v));
       }},
      {"optimizer_offload",
       [](PlanConstraints& p, const std::vector<std::string>& v) {
         const double f = ParseNumber(OneValue(v), 0.0, true);
         if (f > 1) throw InputError("must be a fraction in [0, 1], got " + OneValue(v));
         RecipeOf(p).optimizer_offload = f;
       }},
      {"fusion", [](PlanConstraints& p,
                    const std::vector<std::string>&
                        v) { KernelsOf(p).fusion = ParseEnum(OneValue(v), FusionNames()); }},
      {"fp8_recipe", [](PlanConstraints& p, const std::vector<std::string>& v) {
         KernelsOf(p).fp8_recipe = ParseEnum(OneValue(v), Fp8RecipeNames());
       }},
      {"cuda_graphs",
       [](PlanConstraints& p, const std::vector<std::string>&
                                  v) { KernelsOf(p).cuda_graphs = ParseBool(OneValue(v)); }},
      {"pp_lockstep",
       [](PlanConstraints& p, const std::vector<std::string>&
                                  v) { KernelsOf(p).pp_lockstep = ParseBool(OneValue(v)); }},
      {"repeat_kv",
       [](PlanConstraints& p,
          const std::vector<std::string>& v) { KernelsOf(p).repeat_kv = ParseBool(OneValue(v)); }},
      {"zero1_all_reduce",
       [](PlanConstraints& p, const std::vector<std::string>&
                                  v) { KernelsOf(p).zero1_all_reduce = ParseBool(OneValue(v)); }},
      {"fp32_grad_accum_pass",
       [](PlanConstraints& p, const std::vector<std::string>& v) {
         KernelsOf(p).fp32_grad_accum_pass = ParseBool(OneValue(v));
       }},
      {"fused_norm",
       [](PlanConstraints& p, const std::vector<std::string>&
                                  v) { KernelsOf(p).fused_norm = ParseBool(OneValue(v)); }},
      {"sp_dim1_copies",
       [](PlanConstraints& p, const std::vector<std::string>&
                                  v) { KernelsOf(p).sp_dim1_copies = ParseBool(OneValue(v)); }},
      {"moe_grouped_gemm",
       [](PlanConstraints& p, const std::vector<std::string>&
                                  v) { KernelsOf(p).moe_grouped_gemm = ParseBool(OneValue(v)); }},
      {"moe_router_fusion",
       [](PlanConstraints& p, const std::vector<std::string>&
                                  v) { KernelsOf(p).moe_router_fusion = ParseBool(OneValue(v)); }},
      {"moe_permute_fusion",
       [](PlanConstraints& p, const std::vector<std::string>&
                                  v) { KernelsOf(p).moe_permute_fusion = ParseBool(OneValue(v)); }},
      {"moe_pad_to_capacity",
       [](PlanConstraints& p,
          const std::vector<std::string>&
              v) { KernelsOf(p).moe_pad_to_capacity = ParseBool(OneValue(v)); }},
      {"moe_deepep",
       [](PlanConstraints& p,
          const std::vector<std::string>& v) { KernelsOf(p).moe_deepep = ParseBool(OneValue(v)); }},
      {"optimizer_moments",
       [](PlanConstraints& p,
          const std::vector<std::string>&
              v) { RecipeOf(p).optimizer_moments = ParseEnum(OneValue(v), MomentDtypeNames()); }},
      {"moe_probs", [](PlanConstraints& p,
                       const std::vector<std::string>&
                           v) { RecipeOf(p).moe_probs = ParseEnum(OneValue(v), MoeProbsNames()); }},
      {"ema", [](PlanConstraints& p,
                 const std::vector<std::string>&
                     v) { RecipeOf(p).ema = ParseEnum(OneValue(v), EmaPlaceNames()); }},
  };
  return kTable;
}

#undef PARAPLAN_INT_KNOB
#undef PARAPLAN_BOOL_KNOB
#undef PARAPLAN_ENUM_KNOB
#undef PARAPLAN_NUMBER_KNOB

// Splits on `separator` outside single quotes (pp_layout='Et|tL' keeps its '|' and ','); the
// quotes themselves are dropped, as are spaces and tabs.
std::vector<std::string> SplitOn(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string current;
  bool quoted = false;
  for (char c : text + std::string(1, separator)) {
    if (c == '\'') {
      quoted = !quoted;
      current += c;
    } else if (c == separator && !quoted) {
      parts.push_back(current);
      current.clear();
    } else if (c != ' ' && c != '\t') {
      current += c;
    }
  }
  if (quoted) throw InputError(SourceLocation{"--plan", 0, 0}, "plan", "unbalanced ' quote");
  return parts;
}

std::string Unquote(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c != '\'') out += c;
  }
  return out;
}

}  // namespace

std::vector<std::string> PlanKnobNames() {
  std::vector<std::string> names;
  for (const KnobEntry& knob : KnobTable()) names.emplace_back(knob.name);
  return names;
}

namespace {

// The knob `name` sets: itself, or the knob a Megatron-LM alias stands for (knob_aliases.h).
std::string CanonicalKnob(const std::string& name) {
  for (const KnobEntry& entry : KnobTable()) {
    if (name == entry.name) return name;
  }
  const std::string knob = KnobForAcceptedAlias(name);
  return knob.empty() ? name : knob;
}

// `written` and an earlier `before` set the same knob (one of them its Megatron-LM alias).
std::string AliasClash(const std::string& written, const std::string& knob,
                       const std::string& before) {
  return "'" + written + "' sets " + knob + ", as '" + before + "' does: give it once";
}

}  // namespace

void SetPlanKnob(PlanConstraints& plan, const std::string& name,
                 const std::vector<std::string>& values) {
  const std::string knob = CanonicalKnob(name);
  for (const KnobEntry& entry : KnobTable()) {
    if (knob != entry.name) continue;
    if (values.empty()) throw InputError("needs at least one value");
    entry.set(plan, values);
    return;
  }
  std::string message = "unknown plan knob '" + knob + "'";
  const std::string alias = KnobForAlias(knob);
  const std::string close = alias.empty() ? ClosestMatch(knob, PlanKnobNames()) : alias;
  if (!close.empty()) message += " (did you mean '" + close + "'?)";
  throw InputError(message + "; valid knobs: " + Join(PlanKnobNames()));
}

PlanConstraints ReadPlanConstraints(const YamlNode& node) {
  std::vector<std::string> allowed = PlanKnobNames();
  for (const std::string& alias : AcceptedAliasNames()) allowed.push_back(alias);
  const YamlMap checked(node, allowed);  // rejects unknown knobs
  PlanConstraints plan;
  std::vector<std::pair<std::string, std::string>> seen;  // knob, as written
  for (const auto& [knob, value] : MapEntries(node)) {
    const std::string canonical = CanonicalKnob(knob);
    for (const auto& [s, written] : seen) {
      if (s == canonical) value.Fail(AliasClash(knob, canonical, written));
    }
    seen.emplace_back(canonical, knob);
    std::vector<std::string> values;
    if (value.IsSequence()) {
      std::string split;
      for (const YamlNode& item : value.Elements()) {
        if (knob == "pp_layers") {
          split += (split.empty() ? "" : "/") + std::to_string(item.AsNonNegativeInt());
        } else if (knob == "pp_split_points") {
          split += (split.empty() ? "" : "/") + item.AsString();
        } else {
          values.push_back(item.AsString());
        }
      }
      if (knob == "pp_layers" || knob == "pp_split_points") values.push_back(split);
    } else {
      values.push_back(value.AsString());
    }
    try {
      SetPlanKnob(plan, knob, values);
    } catch (const InputError& e) {
      value.Fail(e.message());
    }
  }
  return plan;
}

PlanConstraints ParsePlanString(const std::string& text) {
  CheckKnobSeparators(text);
  PlanConstraints plan;
  std::vector<std::pair<std::string, std::string>> seen;  // knob, as written
  for (const std::string& item : SplitOn(text, ',')) {
    if (item.empty()) continue;
    const size_t equals = item.find('=');
    const std::string knob = item.substr(0, equals);
    const SourceLocation where{"--plan", 0, 0};
    if (equals == std::string::npos || equals == 0 || equals + 1 == item.size()) {
      throw InputError(where, knob,
                       "expected knob=value (e.g. tp=8 or tp=4|8), got '" + item + "'");
    }
    const std::string canonical = CanonicalKnob(knob);
    for (const auto& [s, written] : seen) {
      if (s != canonical) continue;
      if (written == knob) throw InputError(where, knob, "given twice");
      throw InputError(where, knob, AliasClash(knob, canonical, written));
    }
    seen.emplace_back(canonical, knob);
    std::vector<std::string> values = SplitOn(item.substr(equals + 1), '|');
    for (std::string& v : values) {
      v = Unquote(v);
      if (v.empty()) throw InputError(where, knob, "empty alternative in '" + item + "'");
    }
    try {
      SetPlanKnob(plan, knob, values);
    } catch (const InputError& e) {
      throw InputError(where, knob, e.message());
    }
  }
  return plan;
}

}  // namespace paraplan
