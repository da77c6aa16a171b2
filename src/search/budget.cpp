#include "search/budget.h"

#include <cctype>
#include <cmath>
#include <cstdlib>

#include "core/error.h"

namespace paraplan {

namespace {

constexpr double kSecondsPerDay = 86400.0;

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
  return b;
}

}  // namespace paraplan
