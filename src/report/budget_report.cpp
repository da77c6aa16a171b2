#include "report/budget_report.h"

#include <cmath>

#include "core/format.h"
#include "core/text_table.h"
#include "core/units.h"

namespace paraplan {

namespace {

PlanBudget BudgetOf(const PlanReportContext& ctx, const StepResult& r) {
  return ComputeBudget(r, ctx.gpus, EffectiveSeqLen(r.plan, ctx), *ctx.budget);
}

// A number, or null where it is infinite (a run that never finishes).
Json Number(double v) {
  return std::isfinite(v) ? Json(v) : Json(nullptr);
}

Json BandedJson(const Banded& b) {
  Json j = Json::MakeObject();
  j.Set("value", Number(b.value));
  j.Set("low", Number(b.low));
  j.Set("high", Number(b.high));
  return j;
}

// The "goodput" object of a plan's budget: the inputs the formulas used and what they gave.
Json GoodputJson(const BudgetRequest& req, const PlanBudget& b) {
  const Goodput& g = b.goodput;
  Json j = Json::MakeObject();
  j.Set("goodput", g.goodput);
  j.Set("finishes", g.finishes);
  j.Set("interruptions", Number(b.interruptions));
  j.Set("mtbf_h", Number(g.mtbf_s / 3600));
  j.Set("checkpoint_mode", req.checkpoint == CheckpointMode::kAsync ? "async" : "sync");
  j.Set("checkpoint_interval_s", Number(g.interval_s));
  j.Set("checkpoint_interval_source", g.young_daly ? "young_daly" : "given");
  j.Set("checkpoint_GiB", b.checkpoint.total_bytes / kGiB);
  j.Set("checkpoint_per_gpu_GiB", b.checkpoint.per_gpu_bytes / kGiB);
  j.Set("checkpoint_write_s", g.write_s);
  j.Set("checkpoint_stall_s", g.stall_s);
  j.Set("restart_s", g.restart_s);
  j.Set("nccl_init_s", g.nccl_init_s);
  j.Set("checkpoint_load_s", g.load_s);
  j.Set("lost_per_interruption_s", g.lost_per_failure_s);
  j.Set("failures_per_gpu_day", req.reliability.failures_per_gpu_day);
  return j;
}

Json EnergyJson(const BudgetRequest& req, const PlanBudget& b) {
  Json j = Json::MakeObject();
  j.Set("gpu_utilisation", b.energy.utilisation);
  j.Set("gpu_W", b.energy.gpu_W);
  j.Set("facility_W", b.energy.facility_W);
  j.Set("pue", req.power.pue);
  j.Set("MWh", BandedJson(b.MWh));
  if (req.price_per_kwh > 0) {
    j.Set("price_per_kwh_usd", req.price_per_kwh);
    j.Set("usd", BandedJson(b.energy_usd));
  }
  return j;
}

std::string Tokens(double tokens) {
  if (tokens >= 1e12) return FormatFixed(tokens / 1e12, 2) + " T";
  if (tokens >= 1e9) return FormatFixed(tokens / 1e9, 2) + " B";
  return FormatFixed(tokens / 1e6, 2) + " M";
}

std::string Hours(const Banded& h) {
  // A run that never finishes has no GPU-hours: "-", as for its interruptions.
  auto text = [](double v) {
    return std::isfinite(v) && std::abs(v) < 9e18 ? GroupThousands(std::llround(v))
                                                  : std::string("-");
  };
  if (h.low == h.value && h.high == h.value) return text(h.value);
  return text(h.value) + " (" + text(h.low) + "-" + text(h.high) + ")";
}

std::string FormatBandedText(const Banded& b, int digits) {
  std::string text = FormatFixed(b.value, digits);
  if (b.low != b.value || b.high != b.value) {
    text += " (" + FormatFixed(b.low, digits) + "-" + FormatFixed(b.high, digits) + ")";
  }
  return text;
}

std::string Duration(double seconds) {
  if (!std::isfinite(seconds)) return "-";
  if (seconds < 120) return FormatFixed(seconds, 0) + " s";
  if (seconds < 7200) return FormatFixed(seconds / 60, 0) + " min";
  return FormatFixed(seconds / 3600, 1) + " h";
}

std::string GoodputNote(const BudgetRequest& req) {
  const ClusterReliability& rel = req.reliability;
  return "Goodput: " + FormatFixed(rel.failures_per_gpu_day * 1000, 3) +
         " interruptions per 1000 GPU-days; restart = relaunch " + FormatShortest(rel.relaunch_s) +
         " s + NCCL init + checkpoint load; " +
         (req.checkpoint == CheckpointMode::kAsync ? "async" : "sync") + " checkpoints " +
         (req.checkpoint_interval_s > 0 ? "every " + Duration(req.checkpoint_interval_s)
                                        : "at the Young/Daly interval sqrt(2 x stall x MTBF)") +
         "; storage " + FormatShortest(req.storage.write_GBps_per_node) + " GB/s a node, " +
         FormatShortest(req.storage.aggregate_GBps) + " GB/s in all (docs/cost-model.md)";
}

}  // namespace

std::string FormatBanded(const Banded& b, int digits) {
  return FormatBandedText(b, digits);
}

std::string BudgetTable(const PlanReportContext& ctx, const std::vector<StepResult>& plans) {
  const bool priced = ctx.budget->price_per_gpu_hour > 0;
  const bool energy = ctx.budget->power.gpu_tdp_W > 0;
  const bool energy_priced = energy && ctx.budget->price_per_kwh > 0;
  std::vector<std::string> header = {"rank",          "step",          "tokens",
                                     "goodput",       "interruptions", "checkpoint every",
                                     "time to train", "GPU-hours"};
  if (priced) header.push_back("cost");
  if (energy) header.push_back("energy");
  if (energy_priced) header.push_back("energy cost");
  TextTable table(header, std::vector<bool>(header.size(), true));
  for (size_t i = 0; i < plans.size(); ++i) {
    const PlanBudget b = BudgetOf(ctx, plans[i]);
    const Banded& tokens = b.wall_tokens;
    std::vector<std::string> row = {
        std::to_string(i + 1),
        FormatBanded(b.step_s, 3) + " s",
        Tokens(tokens.value) + (tokens.low != tokens.high
                                    ? " (" + Tokens(tokens.low) + "-" + Tokens(tokens.high) + ")"
                                    : ""),
        b.goodput.finishes ? FormatFixed(b.goodput.goodput * 100, 1) + " %" : "never finishes",
        std::isfinite(b.interruptions) ? FormatFixed(b.interruptions, 0) : "-",
        Duration(b.goodput.interval_s),
        FormatBanded(b.wall_days, 1) + " days",
        Hours(b.wall_gpu_hours) + " GPU-h"};
    if (priced) {
      row.push_back(
          "$" +
          FormatBanded({b.wall_usd.value / 1e6, b.wall_usd.low / 1e6, b.wall_usd.high / 1e6}, 2) +
          " M");
    }
    if (energy) row.push_back(FormatBanded(b.MWh, 0) + " MWh");
    if (energy_priced) {
      row.push_back(
          "$" +
          FormatBanded({b.energy_usd.value / 1e6, b.energy_usd.low / 1e6, b.energy_usd.high / 1e6},
                       2) +
          " M");
    }
    table.AddRow(row);
  }
  std::string text =
      "Budget (" +
      (ctx.budget->train_days > 0 ? FormatShortest(ctx.budget->train_days) + " days of training"
                                  : Tokens(ctx.budget->tokens) + " tokens") +
      (priced ? ", $" + FormatShortest(ctx.budget->price_per_gpu_hour) + " per GPU-hour" : "") +
      (energy_priced ? ", $" + FormatShortest(ctx.budget->price_per_kwh) + " per kWh" : "") +
      "; band: " + ctx.band_note + "):\n" + GoodputNote(*ctx.budget) + ".\n";
  if (ctx.budget->tokens > 0) {
    text +=
        "Time to train, GPU-hours and cost include failures, checkpoints and restarts; plans "
        "are ranked by it.\n";
  }
  return text + table.Render();
}

Json BudgetJson(const PlanReportContext& ctx, const StepResult& r) {
  const PlanBudget b = BudgetOf(ctx, r);
  Json j = Json::MakeObject();
  j.Set("tokens_per_step", b.tokens_per_step);
  j.Set("tokens", BandedJson(b.tokens));
  j.Set("step_time_s", BandedJson(b.step_s));
  j.Set("days", BandedJson(b.days));
  j.Set("gpu_hours", BandedJson(b.gpu_hours));
  if (ctx.budget->price_per_gpu_hour > 0) {
    j.Set("price_per_gpu_hour_usd", ctx.budget->price_per_gpu_hour);
    j.Set("usd", BandedJson(b.usd));
  }
  j.Set("band_source", ctx.band_note);
  // With failures, checkpoints and restarts (cost/goodput.h); the fields above are failure-free.
  j.Set("goodput", GoodputJson(*ctx.budget, b));
  j.Set("wall_days", BandedJson(b.wall_days));
  j.Set("wall_gpu_hours", BandedJson(b.wall_gpu_hours));
  j.Set("wall_tokens", BandedJson(b.wall_tokens));
  if (ctx.budget->price_per_gpu_hour > 0) j.Set("wall_usd", BandedJson(b.wall_usd));
  if (ctx.budget->power.gpu_tdp_W > 0) j.Set("energy", EnergyJson(*ctx.budget, b));
  return j;
}

}  // namespace paraplan
