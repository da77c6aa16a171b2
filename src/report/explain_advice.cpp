#include "report/explain_advice.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "core/format.h"
#include "core/units.h"
#include "cost/time_parts.h"
#include "report/explain_text.h"
#include "report/plan_rerun.h"
#include "report/relief_advice.h"

namespace paraplan {

namespace {

Json Strings(const std::vector<std::string>& items) {
  Json list = Json::MakeArray();
  for (const std::string& s : items) list.Push(s);
  return list;
}

Json TimeItem(const StepResult& r) {
  const TimeBreakdown& t = r.time;
  const TimePart top = DominantTimePart(t);
  Json j = Json::MakeObject();
  j.Set("kind", "time").Set("cost", top.name).Set("seconds", top.seconds);
  j.Set("suggestions", Strings(TimeRelief(r.plan, top.name, r.fits)));
  return j;
}

Json MemoryItem(const StepResult& r) {
  const PeakMemoryPart largest = LargestMemoryPart(r);
  const StageMemory* peak = largest.stage;
  Json j = Json::MakeObject();
  j.Set("kind", "memory").Set("stage", peak->stage).Set("part", largest.part);
  j.Set("part_GiB", BytesToGiB(largest.part_bytes));
  j.Set("over_GiB", BytesToGiB(peak->TotalBytes() - r.memory_capacity_bytes));
  j.Set("suggestions", Strings(MemoryReliefAt(r.plan, largest.part, *peak)));
  return j;
}

}  // namespace

Json AdviceItemsJson(const StepResult& r, const std::optional<NearestFitResult>& nearest,
                     bool nearest_searched, const PlanReportContext& ctx) {
  Json items = Json::MakeArray();
  items.Push(TimeItem(r));
  if (r.fits || r.memory.empty()) return items;
  items.Push(MemoryItem(r));
  if (!nearest_searched) return items;
  Json j = Json::MakeObject();
  j.Set("kind", "nearest_fit").Set("found", nearest.has_value());
  if (nearest) {
    j.Set("distance", static_cast<int64_t>(nearest->fit.distance));
    j.Set("changes", Strings(nearest->fit.changes));
    j.Set("step_time_s", nearest->result.step_time_s);
    j.Set("memory_GiB", BytesToGiB(nearest->result.peak_memory_bytes));
    j.Set("searched", nearest->fit.searched);
    AddRerunFields(j, ctx, nearest->fit.plan);
  }
  items.Push(std::move(j));
  return items;
}

std::string NearestFitText(const std::optional<NearestFitResult>& nearest,
                           const PlanReportContext& ctx) {
  if (!nearest) {
    return "nearest plan that fits: none with this GPU count, global batch and precision; more "
           "GPUs, or GPUs with more memory\n";
  }
  std::string changes;
  for (const std::string& c : nearest->fit.changes) changes += (changes.empty() ? "" : ", ") + c;
  return "nearest plan that fits (" + std::to_string(nearest->fit.distance) + " change" +
         (nearest->fit.distance == 1 ? "" : "s") + ": " + changes + "): step " +
         FormatFixed(nearest->result.step_time_s, 3) + " s, peak " +
         FormatFixed(BytesToGiB(nearest->result.peak_memory_bytes), 1) +
         " GiB\n  re-run: " + RerunCommand(ctx, nearest->fit.plan) + "\n";
}

}  // namespace paraplan
