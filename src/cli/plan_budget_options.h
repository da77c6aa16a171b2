// The options `plan` adds for sizing a run: -g as a count, list or range (gpu_count_list.h),
// --tokens or --train-days, --price-per-gpu-hour; turned into a BudgetRequest with the step-time
// band of the cluster's GPU family (validate/step_band.h).
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "hardware/cluster.h"
#include "search/budget.h"

namespace paraplan {

struct PlanBudgetOptions {
  std::string gpus;  // "64", "256,512,1024", "256:4096"
  std::string tokens;
  double train_days = 0;
  double price_per_gpu_hour = 0;
  std::string checkpoint = "sync";     // sync | async
  double checkpoint_interval_min = 0;  // 0 = Young/Daly
  double price_per_kwh = 0;
};

// Replaces the -g/--gpus integer option AddInputOptions registered with the list form, and adds
// --tokens, --train-days, --price-per-gpu-hour, --checkpoint, --checkpoint-interval and
// --price-per-kwh.
void AddPlanBudgetOptions(CLI::App* sub, PlanBudgetOptions& options);

// The request (nullopt when neither --tokens nor --train-days is given); `band_note` gets where
// the band comes from. Throws InputError naming the flag on bad values.
std::optional<BudgetRequest> MakeBudgetRequest(const PlanBudgetOptions& options,
                                               const Cluster& cluster, std::string* band_note);

}  // namespace paraplan
