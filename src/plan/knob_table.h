// The knob table: every plan knob once, with its name (as `--plan`, YAML `plan:` mappings, plan
// strings and JSON spell it), whether `plan` searches it, and which stages of an evaluation read
// it. The stages decide what the search may cache across a knob: the rule cache keys verdicts by
// the knobs the rules read (search/step_model_evaluator.cpp, RulesRead), the cost caches key
// layer costs by the knobs the layer cost reads (search/plan_bounds.cpp, LayerCostKnob). A knob
// added is one row here plus the code that gives it meaning; a stage that starts reading a knob
// sets its bit here, or the caches hand one value's answer to another (issue 36: the rules read
// moe_routing under moe_pad_to_capacity while the rule cache assumed they did not).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include "plan/recipe_switch.h"

namespace paraplan {

// One row per knob, in ParallelPlan's order; the knobs inside StageLayoutRule, MemoryRecipe and
// KernelRecipe follow, each under its own name.
enum class Knob : int {
  kTp,
  kPp,
  kDp,
  kCp,
  kEp,
  kEtp,
  kVpp,
  kMicroBatch,
  kGlobalBatch,
  kSeqLen,
  kRecompute,
  kSequenceParallel,
  kZero,
  kPrecision,
  kSchedule,
  kMoeRouting,
  kMoeCapacityFactor,
  kMoeImbalance,
  kDpCommDtype,
  kGradReduceInFp32,
  kDpBucketMB,
  kPlacement,
  kPpLayers,
  kOverlapGradReduce,
  kOverlapParamGather,
  kOverlapTpComm,
  kOverlapEpComm,
  kOverlapPpComm,
  kZero3KeepGathered,
  // StageLayoutRule (plan/stage_layout_rule.h)
  kPpLayout,
  kPpSplitPoints,
  kPpFirstLayers,
  kPpLastLayers,
  kPpAccountEmbedding,
  kPpAccountLoss,
  kPpEvenSplit,
  // MemoryRecipe (plan/memory_recipe.h)
  kRecomputeModules,
  kFp8ActCache,
  kCrossEntropyFusion,
  kOptimizerMoments,
  kOptimizerOffload,
  kMoeProbs,
  kEma,
  // KernelRecipe (plan/kernel_recipe.h)
  kFusion,
  kCudaGraphs,
  kPpLockstep,
  kRepeatKv,
  kZero1AllReduce,
  kZero1Broadcast,
  kFp32GradAccumPass,
  kMegatronDdpBuckets,
  kFusedNorm,
  kSpDim1Copies,
  kSdpaCudnn,
  kFlashAttn2,
  kFlashAttnTriton,
  kFsdpFloat8AllGather,
  kMoeGroupedGemm,
  kMoeRouterFusion,
  kMoePermuteFusion,
  kMoePadToCapacity,
  kMoeDeepep,
  kMoeHybridep,
  kZero3MaxLiveParams,
  kZero3MaxReuseDistance,
  kFp8Recipe,
  kZeroBucketAllReduce,
  kZero2MicroBatchReduce,
  kDpReduceFp32Copy,
  kMoeTorchGroupedMm,
  kPackedDocTokens,
  kZero3KeepAfterForward,
  kRecomputeEarlyStop,
  kFsdp1,
  kCount
};
inline constexpr size_t kKnobs = static_cast<size_t>(Knob::kCount);

// The stages of an evaluation, as bits of KnobRow::read_by.
enum KnobReader : unsigned {
  kReadByRules = 1u << 0,      // plan/plan_rules.cpp (PlanViolations) and the stage layout
  kReadByMemory = 1u << 1,     // peak memory (cost/memory_model, the stage memory inputs)
  kReadByLayerCost = 1u << 2,  // one layer's costs (cost/layer_cost: MakePlanShape onwards)
  kReadByStep = 1u << 3,       // the step beyond the layers: pipeline, DP communication, optimizer
  kReadByExports = 1u << 4,    // the Megatron-LM, torchtitan and DeepSpeed exports
};

struct KnobRow {
  Knob knob;
  std::string_view name;
  bool searched;     // `plan` enumerates it when --plan leaves it open (or gives a list)
  unsigned read_by;  // KnobReader bits
  // A bool of the kernel or memory recipe: the member it sets (recipe_switch.h). The loader, the
  // plan string and the step-result JSON take such a knob from this row alone.
  RecipeSwitch recipe_switch = {};
};

// Every knob, in Knob order (KnobTable()[i].knob == Knob(i), tested).
const std::array<KnobRow, kKnobs>& KnobTable();

inline const KnobRow& KnobOf(Knob knob) {
  return KnobTable()[static_cast<size_t>(knob)];
}
// The knob's name as files, flags and plan strings spell it.
inline const char* KnobName(Knob knob) {
  return KnobOf(knob).name.data();  // the table's names are string literals
}
inline bool KnobReadBy(Knob knob, unsigned readers) {
  return (KnobOf(knob).read_by & readers) != 0;
}

// A knob's value as plan strings spell it: counts in decimal, switches true/false, enums by their
// name (the enum's ToString, found where the value is printed).
inline std::string KnobValueText(int64_t v) {
  return std::to_string(v);
}
inline std::string KnobValueText(int v) {
  return std::to_string(v);
}
inline std::string KnobValueText(bool v) {
  return v ? "true" : "false";
}
template <typename E>
requires std::is_enum_v<E> std::string KnobValueText(E v) {
  return ToString(v);
}

}  // namespace paraplan
