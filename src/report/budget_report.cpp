#include "report/budget_report.h"

#include <cmath>

#include "core/format.h"
#include "core/text_table.h"

namespace paraplan {

namespace {

PlanBudget BudgetOf(const PlanReportContext& ctx, const StepResult& r) {
  return ComputeBudget(r, ctx.gpus, EffectiveSeqLen(r.plan, ctx), *ctx.budget);
}

Json BandedJson(const Banded& b) {
  Json j = Json::MakeObject();
  j.Set("value", b.value);
  j.Set("low", b.low);
  j.Set("high", b.high);
  return j;
}

std::string Tokens(double tokens) {
  if (tokens >= 1e12) return FormatFixed(tokens / 1e12, 2) + " T";
  if (tokens >= 1e9) return FormatFixed(tokens / 1e9, 2) + " B";
  return FormatFixed(tokens / 1e6, 2) + " M";
}

std::string Hours(const Banded& h) {
  auto text = [](double v) { return GroupThousands(static_cast<int64_t>(std::llround(v))); };
  if (h.low == h.value && h.high == h.value) return text(h.value);
  return text(h.value) + " (" + text(h.low) + "-" + text(h.high) + ")";
}

}  // namespace

std::string FormatBanded(const Banded& b, int digits) {
  std::string text = FormatFixed(b.value, digits);
  if (b.low != b.value || b.high != b.value) {
    text += " (" + FormatFixed(b.low, digits) + "-" + FormatFixed(b.high, digits) + ")";
  }
  return text;
}

std::string BudgetTable(const PlanReportContext& ctx, const std::vector<StepResult>& plans) {
  const bool priced = ctx.budget->price_per_gpu_hour > 0;
  std::vector<std::string> header = {"rank", "step", "tokens", "time to train", "GPU-hours"};
  if (priced) header.push_back("cost");
  TextTable table(header, std::vector<bool>(header.size(), true));
  for (size_t i = 0; i < plans.size(); ++i) {
    const PlanBudget b = BudgetOf(ctx, plans[i]);
    std::vector<std::string> row = {
        std::to_string(i + 1), FormatBanded(b.step_s, 3) + " s",
        Tokens(b.tokens.value) +
            (b.tokens.low != b.tokens.high
                 ? " (" + Tokens(b.tokens.low) + "-" + Tokens(b.tokens.high) + ")"
                 : ""),
        FormatBanded(b.days, 1) + " days", Hours(b.gpu_hours) + " GPU-h"};
    if (priced) {
      row.push_back("$" + FormatBanded({b.usd.value / 1e6, b.usd.low / 1e6, b.usd.high / 1e6}, 2) +
                    " M");
    }
    table.AddRow(row);
  }
  std::string text =
      "Budget (" +
      (ctx.budget->train_days > 0 ? FormatShortest(ctx.budget->train_days) + " days of training"
                                  : Tokens(ctx.budget->tokens) + " tokens") +
      (priced ? ", $" + FormatShortest(ctx.budget->price_per_gpu_hour) + " per GPU-hour" : "") +
      "; band: " + ctx.band_note + "):\n";
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
  return j;
}

}  // namespace paraplan
