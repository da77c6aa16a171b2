#include "search/budget.h"

#include <cctype>
#include <cmath>
#include <cstdlib>

#include "core/error.h"
#include "core/units.h"

namespace paraplan {

namespace {

double SuffixScale(char c) {
  switch (std::toupper(static_cast<unsigned char>(c))) {
    case 'K':
      return 1e3;
    case 'M':
      return 1e6;
    case 'B':
    case 'G':
      return 1e9;
    case 'T':
      return 1e12;
    case 'P':
      return 1e15;
    default:
      return 0;
  }
}

// value scaled by the step-time factor f (time-like quantities grow with the step).
Banded Scale(double value, double low_factor, double high_factor) {
  return {value, value * low_factor, value * high_factor};
}

Banded Times(const Banded& b, double f) {
  return {b.value * f, b.low * f, b.high * f};
}

// Goodput, the wall-clock figures and energy (cost/goodput.h, cost/energy.h) onto `b`.
void AddGoodput(const StepResult& r, int64_t gpus, const BudgetRequest& request, PlanBudget& b) {
  GoodputInputs in;
  in.step_s = r.step_time_s;
  in.gpus = gpus;
  in.checkpoint = b.checkpoint = PlanCheckpointSize(r, gpus);
  in.mode = request.checkpoint;
  in.host_link_GBps = request.host_link_GBps;
  in.interval_s = request.checkpoint_interval_s;
  b.goodput = ComputeGoodput(in, request.reliability, request.storage, request.power.gpus_per_node);
  const double g = b.goodput.goodput;
  const double stretch = g > 0 ? 1.0 / g : INFINITY;
  if (request.train_days > 0) {
    b.wall_days = b.days;
    b.wall_tokens = Times(b.tokens, g);
  } else {
    b.wall_days = Times(b.days, stretch);
    b.wall_tokens = b.tokens;
  }
  const double n = static_cast<double>(gpus);
  b.wall_gpu_hours = Times(b.wall_days, 24 * n);
  b.wall_usd = Times(b.wall_gpu_hours, request.price_per_gpu_hour);
  const double wall_s = b.wall_days.value * kSecondsPerDay;
  b.interruptions = std::isfinite(wall_s) && std::isfinite(b.goodput.mtbf_s)
                        ? wall_s / b.goodput.mtbf_s
                        : (std::isfinite(wall_s) ? 0.0 : INFINITY);
  b.energy = ComputeEnergy(r, gpus, request.power, wall_s);
  const double mwh_per_day = b.energy.facility_W * kSecondsPerDay / 3600.0 / 1e6;
  b.MWh = Times(b.wall_days, mwh_per_day);
  b.energy_usd = Times(b.MWh, 1000.0 * request.price_per_kwh);
}

}  // namespace

double ParseTokenCount(const std::string& text, const std::string& flag) {
  std::string number = text;
  double scale = 1;
  if (!number.empty() && std::isalpha(static_cast<unsigned char>(number.back()))) {
    scale = SuffixScale(number.back());
    number.pop_back();
  }
  char* end = nullptr;
  const double value = number.empty() ? 0 : std::strtod(number.c_str(), &end);
  const bool parsed = !number.empty() && end && *end == '\0' && std::isfinite(value);
  if (scale == 0 || !parsed || value <= 0 || value * scale > 1e18) {
    throw InputError(flag + ": expected a positive token count such as 15T, 300B or 2.5e12 " +
                     "(suffixes K, M, B, T, P), got '" + text + "'");
  }
  return value * scale;
}

PlanBudget ComputeBudget(const StepResult& r, int64_t gpus, int64_t seq_len,
                         const BudgetRequest& request) {
  PlanBudget b;
  const double lo = request.band_low, hi = request.band_high;
  b.tokens_per_step = static_cast<double>(r.plan.global_batch) * static_cast<double>(seq_len);
  b.step_s = Scale(r.step_time_s, lo, hi);
  const double n = static_cast<double>(gpus);
  if (request.train_days > 0) {
    // A fixed wall-clock budget: the cost is fixed, the tokens trained move with the step time.
    const double steps = request.train_days * kSecondsPerDay / r.step_time_s;
    const double tokens = steps * b.tokens_per_step;
    b.tokens = {tokens, tokens / hi, tokens / lo};
    b.days = {request.train_days, request.train_days, request.train_days};
  } else {
    const double steps = std::ceil(request.tokens / b.tokens_per_step);
    b.tokens = {steps * b.tokens_per_step, steps * b.tokens_per_step, steps * b.tokens_per_step};
    b.days = Scale(steps * r.step_time_s / kSecondsPerDay, lo, hi);
  }
  b.gpu_hours = {b.days.value * 24 * n, b.days.low * 24 * n, b.days.high * 24 * n};
  const double price = request.price_per_gpu_hour;
  b.usd = {b.gpu_hours.value * price, b.gpu_hours.low * price, b.gpu_hours.high * price};
  AddGoodput(r, gpus, request, b);
  return b;
}

CheckpointMode ParseCheckpointMode(const std::string& text) {
  if (text == "sync") return CheckpointMode::kSync;
  if (text == "async") return CheckpointMode::kAsync;
  throw InputError("--checkpoint: expected sync or async, got '" + text + "'");
}

}  // namespace paraplan
