#include "config/knob_setters.h"

#include "config/knob_values.h"
#include "config/megatron_layout.h"
#include "plan/knob_bounds.h"

namespace paraplan {
namespace {

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

// Megatron-LM's layout string: layers per virtual stage and the MTP stage.
void SetMegatronLayout(PlanConstraints& p, const std::vector<std::string>& v) {
  const MegatronLayout layout = ParseMegatronLayout(OneValue(v));
  p.pp_layers = layout.layers;
  LayoutOf(p).mtp_stage = layout.mtp_stage;
}

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

// The recipe switches of `part`, in the knob table's order.
void AddSwitches(std::vector<KnobSetter>& setters, RecipePart part) {
  for (const KnobRow& row : KnobTable()) {
    if (row.recipe_switch.In(part)) setters.push_back({row.name.data(), nullptr, &row});
  }
}

std::vector<KnobSetter> MakeSetters() {
  std::vector<KnobSetter> setters = {
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
             throw InputError("must be 0 (automatic) or from " + BoundText(kMinDpBucketMB) +
                              " to " + BoundText(kMaxDpBucketMB) + " MB, got " + s);
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
      {"pp_even_split",
       [](PlanConstraints& p, const std::vector<std::string>& v) {
         LayoutOf(p).even_split = ParseBool(OneValue(v));
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
  };
  AddSwitches(setters, RecipePart::kMemory);  // after recompute_modules
  const std::vector<KnobSetter> middle = {
      {"optimizer_offload",
       [](PlanConstraints& p, const std::vector<std::string>& v) {
         const double f = ParseNumber(OneValue(v), 0.0, true);
         if (f > 1) throw InputError("must be a fraction in [0, 1], got " + OneValue(v));
         RecipeOf(p).optimizer_offload = f;
       }},
      {"fusion",
       [](PlanConstraints& p, const std::vector<std::string>& v) {
         KernelsOf(p).fusion = ParseEnum(OneValue(v), FusionNames());
         p.fusion_stated = true;
       }},
      {"fp8_recipe",
       [](PlanConstraints& p, const std::vector<std::string>& v) {
         KernelsOf(p).fp8_recipe = ParseEnum(OneValue(v), Fp8RecipeNames());
       }},
  };
  setters.insert(setters.end(), middle.begin(), middle.end());
  AddSwitches(setters, RecipePart::kKernels);  // after fusion
  const std::vector<KnobSetter> last = {
      {"optimizer_moments",
       [](PlanConstraints& p, const std::vector<std::string>& v) {
         RecipeOf(p).optimizer_moments = ParseEnum(OneValue(v), MomentDtypeNames());
       }},
      {"moe_probs",
       [](PlanConstraints& p, const std::vector<std::string>& v) {
         RecipeOf(p).moe_probs = ParseEnum(OneValue(v), MoeProbsNames());
       }},
      {"ema",
       [](PlanConstraints& p, const std::vector<std::string>& v) {
         RecipeOf(p).ema = ParseEnum(OneValue(v), EmaPlaceNames());
       }},
      {"zero3_max_live_params",
       [](PlanConstraints& p, const std::vector<std::string>& v) {
         KernelsOf(p).zero3_max_live_params = ParseNumber(OneValue(v), 0, true, kMaxZero3Elements);
       }},
      {"zero3_max_reuse_distance",
       [](PlanConstraints& p, const std::vector<std::string>& v) {
         KernelsOf(p).zero3_max_reuse_distance =
             ParseNumber(OneValue(v), 0, true, kMaxZero3Elements);
       }},
      {"packed_doc_tokens",
       [](PlanConstraints& p, const std::vector<std::string>& v) {
         KernelsOf(p).packed_doc_tokens = ParseNumber(OneValue(v), 0, true);
       }},
  };
  setters.insert(setters.end(), last.begin(), last.end());
  return setters;
}

#undef PARAPLAN_INT_KNOB
#undef PARAPLAN_BOOL_KNOB
#undef PARAPLAN_ENUM_KNOB
#undef PARAPLAN_NUMBER_KNOB

void SetSwitch(const RecipeSwitch& s, PlanConstraints& p, bool value) {
  if (s.kernels != nullptr) {
    KernelsOf(p).*s.kernels = value;
    std::erase(p.kernel_switches_off, s.kernels);
    if (!value) p.kernel_switches_off.push_back(s.kernels);
  } else {
    RecipeOf(p).*s.memory = value;
  }
}

}  // namespace

const std::vector<KnobSetter>& KnobSetters() {
  static const std::vector<KnobSetter> kSetters = MakeSetters();
  return kSetters;
}

void SetKnob(const KnobSetter& knob, PlanConstraints& plan,
             const std::vector<std::string>& values) {
  if (knob.row != nullptr) {
    SetSwitch(knob.row->recipe_switch, plan, ParseBool(OneValue(values)));
  } else {
    knob.set(plan, values);
  }
}

}  // namespace paraplan
