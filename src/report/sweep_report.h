// `plan -g 256,512,1024`: the best plan at each GPU count, its scaling efficiency (throughput per
// GPU against the smallest count that has a plan) and its cost, as a text table or JSON.
#pragma once

#include <cstdint>
#include <ostream>
#include <vector>

#include "report/plan_reporter.h"

namespace paraplan {

struct SweepPoint {
  int64_t gpus = 0;
  SearchResult result;
};

// The table (or the JSON document {"sweep": [...]}); `context.gpus` is ignored, each point's
// count is used. Points where nothing fits show why in one line.
void WriteSweepTable(std::ostream& out, PlanReportContext context,
                     const std::vector<SweepPoint>& points);
void WriteSweepJson(std::ostream& out, PlanReportContext context,
                    const std::vector<SweepPoint>& points);

// Throughput per GPU of `point` over that of `base`, 0 when either has no plan.
double ScalingEfficiency(const SweepPoint& base, const SweepPoint& point);

}  // namespace paraplan
