#include "cli/plan_budget_options.h"

#include <cmath>

#include "cli/cli_checks.h"
#include "core/error.h"
#include "core/format.h"
#include "validate/step_band.h"

namespace paraplan {

namespace {

std::string BandNote(const std::optional<StepTimeBand>& band, const std::string& gpu) {
  if (!band) return "none (no validation runs cover " + gpu + ")";
  std::string note = "step time -" + FormatFixed((1 - band->LowFactor()) * 100, 1) + " % / +" +
                     FormatFixed((band->HighFactor() - 1) * 100, 1) + " %, from " +
                     std::to_string(band->runs) + " ";
  if (band->data_family == kUnfittedBandData) {
    note += (band->fold.empty() ? "" : band->fold + " ") +
            "runs each predicted as a GPU nobody fitted (" + band->family +
            " has no fitted runs): ";
    return note + (band->fold.empty() ? kUnfittedBandSource : kUnfittedFamilyBandSource);
  }
  note += band->data_family + " runs";
  if (band->data_family != band->family) note += " (" + band->family + " has none)";
  return note + ": " + kStepBandSource;
}

}  // namespace

void AddPlanBudgetOptions(CLI::App* sub, PlanBudgetOptions& o) {
  sub->remove_option(sub->get_option("--gpus"));
  sub->add_option("-g,--gpus", o.gpus,
                  "GPUs: a count (64), a list (256,512,1024) or a power-of-two range (256:4096); "
                  "more than one count prints the best plan per count")
      ->required();
  sub->add_option("--tokens", o.tokens,
                  "tokens to train (15T, 300B, 2.5e12): adds time to train and GPU-hours");
  sub->add_option("--train-days", o.train_days,
                  "days of training instead of --tokens: adds tokens trained and GPU-hours")
      ->check(NumberRange(0, 36500));
  sub->add_option("--price-per-gpu-hour", o.price_per_gpu_hour,
                  "USD per GPU-hour: adds the dollar cost (needs --tokens or --train-days)")
      ->check(NumberRange(0, 1e4));
  sub->add_option("--checkpoint", o.checkpoint,
                  "sync (default: training waits for the write) or async (it waits only for the "
                  "copy to host memory) checkpoints, for goodput");
  sub->add_option("--checkpoint-interval", o.checkpoint_interval_min,
                  "minutes of training between checkpoints (default: Young/Daly's optimum)")
      ->check(NumberRange(0.01, 1e6));
  sub->add_option("--price-per-kwh", o.price_per_kwh,
                  "USD per kWh of facility energy: adds the energy cost (needs --tokens or "
                  "--train-days)")
      ->check(NumberRange(0, 1e3));
}

std::optional<BudgetRequest> MakeBudgetRequest(const PlanBudgetOptions& o, const Cluster& cluster,
                                               std::string* band_note) {
  BudgetRequest r;
  if (!o.tokens.empty() && o.train_days != 0) {
    throw InputError("--tokens and --train-days: give one of them, not both");
  }
  if (!std::isfinite(o.train_days) || o.train_days < 0 || o.train_days > 36500) {
    throw InputError("--train-days: must be in (0, 36500], got " + FormatShortest(o.train_days));
  }
  if (!std::isfinite(o.price_per_gpu_hour) || o.price_per_gpu_hour < 0 ||
      o.price_per_gpu_hour > 1e4) {
    throw InputError("--price-per-gpu-hour: must be in [0, 10000] USD, got " +
                     FormatShortest(o.price_per_gpu_hour));
  }
  if (!std::isfinite(o.checkpoint_interval_min) || o.checkpoint_interval_min < 0 ||
      o.checkpoint_interval_min > 1e6) {
    throw InputError("--checkpoint-interval: must be in [0, 1e6] minutes (0 = Young/Daly), got " +
                     FormatShortest(o.checkpoint_interval_min));
  }
  if (!std::isfinite(o.price_per_kwh) || o.price_per_kwh < 0 || o.price_per_kwh > 100) {
    throw InputError("--price-per-kwh: must be in [0, 100] USD, got " +
                     FormatShortest(o.price_per_kwh));
  }
  r.checkpoint = ParseCheckpointMode(o.checkpoint);
  r.checkpoint_interval_s = o.checkpoint_interval_min * 60;
  r.price_per_kwh = o.price_per_kwh;
  r.reliability = cluster.reliability;
  r.storage = cluster.storage;
  r.power = cluster.power;
  r.host_link_GBps = cluster.gpu.host_link_GBps;
  if (!o.tokens.empty()) r.tokens = ParseTokenCount(o.tokens, "--tokens");
  r.train_days = o.train_days;
  r.price_per_gpu_hour = o.price_per_gpu_hour;
  if (!r.Active()) {
    if (r.price_per_gpu_hour > 0) {
      throw InputError("--price-per-gpu-hour: needs --tokens or --train-days");
    }
    if (r.price_per_kwh > 0) throw InputError("--price-per-kwh: needs --tokens or --train-days");
    return std::nullopt;
  }
  const std::optional<StepTimeBand> band = StepTimeBandFor(cluster.gpu.name);
  if (band) {
    r.band_low = band->LowFactor();
    r.band_high = band->HighFactor();
  }
  if (band_note) *band_note = BandNote(band, cluster.gpu.name);
  return r;
}

}  // namespace paraplan
