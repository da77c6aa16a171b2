#include "search/nothing_fits.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "core/format.h"
#include "core/units.h"
#include "search/plan_summary.h"

namespace paraplan {

namespace {

constexpr size_t kClosestShown = 5;

std::string GiB(double bytes) {
  return FormatFixed(BytesToGiB(bytes), 1);
}

const StageMemory* WorstStage(const StepResult& r) {
  const StageMemory* worst = nullptr;
  for (const StageMemory& s : r.memory) {
    if (!worst || s.TotalBytes() > worst->TotalBytes()) worst = &s;
  }
  return worst;
}

struct Remedy {
  std::string name;
  ParallelPlan plan;
};

std::vector<Remedy> Remedies(const ParallelPlan& p) {
  std::vector<Remedy> out;
  ParallelPlan all = p;
  if (p.recompute != Recompute::kFull) {
    out.push_back({"recompute=full", p});
    out.back().plan.recompute = Recompute::kFull;
    all.recompute = Recompute::kFull;
  }
  if (p.zero < 3 && p.dp * p.cp > 1) {
    out.push_back({"zero=3", p});
    out.back().plan.zero = 3;
    all.zero = 3;
  }
  if (p.micro_batch > 1) {
    out.push_back({"micro_batch=1", p});
    out.back().plan.micro_batch = 1;
    all.micro_batch = 1;
  }
  if (p.tp > 1 && !p.sequence_parallel) {
    out.push_back({"sequence_parallel=true", p});
    out.back().plan.sequence_parallel = true;
    all.sequence_parallel = true;
  }
  if (out.size() > 1) {
    std::string name;
    for (const Remedy& r : out) name += (name.empty() ? "" : " + ") + r.name;
    out.push_back({name, all});
  }
  return out;
}

std::string RemedyLines(const PlanEvaluator& evaluator, const StepResult& closest,
                        double capacity) {
  std::string text;
  for (const Remedy& r : Remedies(closest.plan)) {
    if (!evaluator.Violations(r.plan, true).empty()) continue;
    const double need = evaluator.PeakMemoryBytes(r.plan);
    text += "  - " + r.name + ": " + GiB(need) + " GiB";
    text += need <= capacity ? " (fits)\n" : " (still " + GiB(need - capacity) + " GiB over)\n";
  }
  if (const StageMemory* s = WorstStage(closest)) {
    const double states = s->weights_bytes + s->grads_bytes + s->optimizer_bytes;
    text += "  - more GPUs: weights, gradients and optimizer state take " + GiB(states) +
            " GiB of stage " + std::to_string(s->stage) +
            "; more pipeline, tensor or sharded data parallelism divides them";
    // If those states shrank in proportion to the GPU count and the rest stayed put.
    const double room = capacity - (s->TotalBytes() - states);
    const int64_t gpus = closest.plan.Gpus();
    if (room > 0 && states > 0) {
      const auto needed =
          static_cast<int64_t>(std::ceil(static_cast<double>(gpus) * states / room));
      if (needed > gpus)
        text += " (roughly " + std::to_string(needed) + "+ GPUs instead of " +
                std::to_string(gpus) + ")";
    }
    text += "\n";
  }
  return text;
}

std::string NoValidPlan(const PlanSpace& space, const PlanEvaluator& evaluator,
                        const NothingFitsInput& input, int64_t searched) {
  std::string text = "No plan obeys the rules (searched " + std::to_string(searched) + " plans).";
  if (input.first_invalid >= 0) {
    const ParallelPlan plan = space.At(input.first_invalid);
    std::string reasons;
    for (const std::string& v : evaluator.Violations(plan, false)) {
      reasons += (reasons.empty() ? "" : "; ") + v;
    }
    if (!reasons.empty()) {
      text += " The first one (" + PlanSummary(plan) + ") breaks: " + reasons + ".";
    }
  }
  text += " Loosen --plan or change the GPU count.\n";
  if (!input.skipped.empty()) {
    text +=
        "The rules that stopped the candidates (each candidate counted once, by the first "
        "rule it breaks):\n";
    for (const SkipReason& r : input.skipped) {
      text += "  - " + std::to_string(r.count) + " x " + r.rule + "\n";
    }
  }
  return text;
}

}  // namespace

std::string MemoryBreakdownText(const StepResult& r, double capacity_bytes) {
  const StageMemory* s = WorstStage(r);
  if (!s) return "needs " + GiB(r.peak_memory_bytes) + " GiB of " + GiB(capacity_bytes);
  return "stage " + std::to_string(s->stage) + " needs " + GiB(s->TotalBytes()) + " GiB of " +
         GiB(capacity_bytes) + ": weights " + GiB(s->weights_bytes) + ", grads " +
         GiB(s->grads_bytes) + ", optimizer " + GiB(s->optimizer_bytes) + ", activations " +
         GiB(s->activations_bytes) + ", other " + GiB(s->other_bytes) + " GiB";
}

void ExplainNothingFits(const PlanSpace& space, const PlanEvaluator& evaluator,
                        const NothingFitsInput& input, SearchResult& result) {
  if (space.size() == 0) {
    result.why_nothing_fits = "No plan to search: " + space.EmptyReason() + ".\n";
    return;
  }
  if (input.valid == 0 || input.closest.empty()) {
    result.why_nothing_fits = NoValidPlan(space, evaluator, input, result.searched);
    return;
  }
  const double capacity = evaluator.MemoryCapacityBytes();
  std::string text = "No plan fits in " + GiB(capacity) + " GiB per GPU: searched " +
                     std::to_string(result.searched) + " plans, " + std::to_string(input.valid) +
                     " obey the rules, none fits in memory.\nClosest plans:\n";
  std::set<std::string> shown;  // one plan per memory footprint, closest first
  for (size_t i = 0; i < input.closest.size() && shown.size() < kClosestShown; ++i) {
    StepResult r = evaluator.Estimate(space.At(input.closest[i]));
    const std::string breakdown = MemoryBreakdownText(r, capacity);
    if (!shown.insert(breakdown).second) continue;
    text +=
        "  " + std::to_string(shown.size()) + ". " + PlanSummary(r.plan) + ": " + breakdown + "\n";
    result.closest.push_back(std::move(r));
  }
  text += "What would make the closest plan fit:\n";
  text += RemedyLines(evaluator, result.closest.front(), capacity);
  result.why_nothing_fits = text;
}

}  // namespace paraplan
