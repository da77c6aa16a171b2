// Budget answers for a plan (`plan --tokens 15T --price-per-gpu-hour 2.5`, or --train-days):
// time to train, GPU-hours and dollars, each with the band that the step time's validation
// residuals give (validate/step_band.h supplies the factors). Pure arithmetic; no I/O.
#pragma once

#include <cstdint>
#include <string>

#include "cost/energy.h"
#include "cost/goodput.h"
#include "cost/step_result.h"
#include "hardware/cluster.h"

namespace paraplan {

struct BudgetRequest {
  double tokens = 0;              // train this many tokens (0: not asked)
  double train_days = 0;          // or train this long (0: not asked); never both
  double price_per_gpu_hour = 0;  // USD per GPU-hour (0: no dollar figures)
  // The measured step lies in [predicted x band_low, predicted x band_high] (StepTimeBand's
  // LowFactor/HighFactor for the cluster's GPU family; 1 and 1 when no validation data covers it).
  double band_low = 1, band_high = 1;
  // Failures, checkpoints and restarts (cost/goodput.h), from the cluster file and the flags.
  ClusterReliability reliability;
  ClusterStorage storage;
  ClusterPower power;
  double host_link_GBps = 0;                          // the cluster's GPU -> host link
  CheckpointMode checkpoint = CheckpointMode::kSync;  // --checkpoint
  double checkpoint_interval_s = 0;                   // --checkpoint-interval; 0 = Young/Daly
  double price_per_kwh = 0;                           // USD per kWh (0: no energy cost)
  bool Active() const { return tokens > 0 || train_days > 0; }
};

// A number with its band: `value` at the predicted step time, `low`..`high` across the band
// (equal to value when there is no band).
struct Banded {
  double value = 0, low = 0, high = 0;
};

struct PlanBudget {
  double tokens_per_step = 0;
  Banded step_s;     // the step time and its band
  Banded tokens;     // tokens trained (the request's, or what train_days allows)
  Banded days;       // wall-clock days to train
  Banded gpu_hours;  // GPUs x hours
  Banded usd;        // gpu_hours x price (0 without a price)
  // With failures, checkpoints and restarts counted (cost/goodput.h): the same quantities over
  // the expected wall-clock time, train time / goodput (--train-days: the tokens shrink instead).
  CheckpointSize checkpoint;
  Goodput goodput;
  Banded wall_days;  // expected wall-clock days
  Banded wall_gpu_hours;
  Banded wall_usd;
  Banded wall_tokens;        // tokens trained (--train-days: tokens x goodput)
  double interruptions = 0;  // expected over the run (at the predicted step time)
  EnergyEstimate energy;     // over the expected wall-clock time (power unknown: all zero)
  Banded MWh;
  Banded energy_usd;  // MWh x price per kWh (0 without a price)
};

// "15T", "300B", "2.5e12", "800M", "40K": a positive token count; throws InputError naming
// `flag` on anything else (no suffix = tokens).
double ParseTokenCount(const std::string& text, const std::string& flag);

// Budget of one plan: failure-free figures, then goodput, wall-clock figures and energy.
PlanBudget ComputeBudget(const StepResult& result, int64_t gpus, int64_t seq_len,
                         const BudgetRequest& request);

// "sync" / "async" (--checkpoint); throws InputError naming the flag otherwise.
CheckpointMode ParseCheckpointMode(const std::string& text);

}  // namespace paraplan
