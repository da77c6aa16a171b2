#include "validate/validation_text.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/format.h"
#include "core/strings.h"
#include "core/text_table.h"
#include "plan/knob_table.h"
#include "validate/plan_ranking_text.h"

namespace paraplan {

namespace {

using Row = std::vector<std::string>;

std::string Pad(const std::string& text, size_t width) {
  return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

std::string AlignedTable(const std::vector<Row>& rows) {
  std::vector<size_t> widths;
  for (const Row& row : rows) {
    widths.resize(std::max(widths.size(), row.size()), 0);
    for (size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
  }
  std::string out;
  for (const Row& row : rows) {
    std::string line;
    for (size_t c = 0; c < row.size(); ++c) line += Pad(row[c], widths[c] + 2);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

std::string Metric(const std::map<std::string, double>& values, const char* metric, int digits) {
  auto it = values.find(metric);
  return it == values.end() ? "-" : FormatFixed(it->second, digits);
}

std::string SignedPct(const std::map<std::string, double>& errors, const char* metric) {
  auto it = errors.find(metric);
  if (it == errors.end()) return "-";
  return (it->second >= 0 ? "+" : "") + FormatFixed(it->second, 1) + "%";
}

std::string FitsCell(const RunOutcome& run) {
  if (run.status != RunStatus::kOk) return "error";
  return run.fits ? "yes" : "NO";
}

Row RunRow(const RunOutcome& run, bool with_source) {
  Row row = {run.id + (run.held_out ? "*" : "") + (run.evaluation_only ? "^" : "")};
  if (with_source) row.push_back(SourceShort(run.source));
  row.push_back(run.model_name);
  row.push_back(std::to_string(run.gpus));
  row.push_back(run.result ? PlanShort(run.result->plan) : run.message);
  row.push_back(FitsCell(run));
  for (auto [metric, digits] : {std::pair{"step_time_s", 2}, std::pair{"memory_GiB", 1}}) {
    row.push_back(Metric(run.measured, metric, digits));
    row.push_back(Metric(run.predicted, metric, digits));
    row.push_back(SignedPct(run.error_pct, metric));
  }
  row.push_back(SignedPct(run.error_pct, "tokens_per_s_per_gpu"));
  return row;
}

Row RunHeader(bool with_source) {
  Row row = {"id"};
  if (with_source) row.push_back("source");
  for (const char* h :
       {"model", "GPUs", "plan", "fits", "step meas (s)", "step pred (s)", "step err",
        "mem meas (GiB)", "mem pred (GiB)", "mem err", "tok/s/GPU err"}) {
    row.push_back(h);
  }
  return row;
}

std::string SummaryCell(const SummarySet& set, const char* metric) {
  const MetricSummary& s = set.metrics.at(metric);
  if (s.n == 0) return "-";
  return FormatFixed(s.mape_pct, 1) + "% (max " + FormatFixed(s.max_abs_pct, 1) +
         "%, n=" + std::to_string(s.n) + ")";
}

Row SummaryRow(const std::string& name, const SummarySet& set) {
  return {name,
          std::to_string(set.fits_n + set.errors),
          SummaryCell(set, "step_time_s"),
          SummaryCell(set, "tokens_per_s_per_gpu"),
          SummaryCell(set, "memory_GiB"),
          std::to_string(set.fits_fit) + "/" + std::to_string(set.fits_n),
          std::to_string(set.errors)};
}

std::vector<Row> SummaryRows(const ValidationReport& report) {
  std::vector<Row> rows = {{"subset", "runs", "step time MAPE", "tokens/s/GPU MAPE", "memory MAPE",
                            "plans that fit", "errors"}};
  rows.push_back(SummaryRow("all", report.all));
  if (report.holdout_every > 0) {
    rows.push_back(SummaryRow("fitted", report.fitted));
    rows.push_back(SummaryRow("held out (*)", report.held_out));
  }
  const SummarySet& evaluation = report.evaluation_only;
  if (evaluation.fits_n + evaluation.errors > 0) {
    rows.push_back(SummaryRow("evaluation only (^, never fitted)", evaluation));
  }
  return rows;
}

}  // namespace

std::string PlanShort(const ParallelPlan& p) {
  std::string out = KnobName(Knob::kTp) + std::to_string(p.tp) + " pp" + std::to_string(p.pp) +
                    " dp" + std::to_string(p.dp);
  if (p.cp > 1) out += " cp" + std::to_string(p.cp);
  if (p.ep > 1) out += " ep" + std::to_string(p.ep);
  if (p.vpp > 1) out += " v" + std::to_string(p.vpp);
  out += " mb" + std::to_string(p.micro_batch) + " " + ToString(p.recompute) + " z" +
         std::to_string(p.zero);
  if (p.sequence_parallel) out += " sp";
  out += std::string(" ") + ToString(p.precision);
  return out;
}

std::string SourceShort(const std::string& source) {
  const size_t end = std::min(source.find(','), source.find('('));
  std::string out = source.substr(0, end);
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

std::string SourceGroup(const std::string& source) {
  std::string group = SourceShort(source);
  const size_t first = group.find_first_not_of(' ');
  group = first == std::string::npos ? "" : group.substr(first);
  return group.empty() ? "(no source)" : group;
}

std::string ValidationTable(const ValidationReport& report) {
  std::vector<Row> rows = {RunHeader(false)};
  for (const auto& run : report.runs) rows.push_back(RunRow(run, false));
  std::string out = AlignedTable(rows) + "\n" + AlignedTable(SummaryRows(report));
  for (const auto& run : report.runs) {
    if (!run.message.empty()) out += run.id + ": " + run.message + "\n";
  }
  return out + RankingTable(report.ranking, 5);
}

namespace {

std::string BreakdownText(const StepResult& result) {
  const TimeBreakdown& t = result.time;
  std::vector<std::pair<double, std::string>> parts = {{t.compute_s, "compute"},
                                                       {t.bubble_s, "pipeline bubble"},
                                                       {t.tp_comm_s, "TP comm"},
                                                       {t.cp_comm_s, "CP comm"},
                                                       {t.ep_comm_s, "EP comm"},
                                                       {t.pp_comm_s, "PP comm"},
                                                       {t.dp_comm_exposed_s, "exposed DP comm"},
                                                       {t.optimizer_s, "optimizer"}};
  std::stable_sort(parts.begin(), parts.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::string> shown;
  for (const auto& [seconds, name] : parts) {
    if (seconds <= 0 || result.step_time_s <= 0 || shown.size() == 3) continue;
    shown.push_back(name + " " + FormatFixed(100.0 * seconds / result.step_time_s, 0) + "%");
  }
  return Join(shown, ", ");
}

std::string WorstRowLine(const RunOutcome& run) {
  std::string line = "- **" + run.id + "** (" + run.model_name + ", " + std::to_string(run.gpus) +
                     " GPUs, " + SourceShort(run.source) + "): step time predicted " +
                     Metric(run.predicted, "step_time_s", 2) + " s, measured " +
                     Metric(run.measured, "step_time_s", 2) + " s (" +
                     SignedPct(run.error_pct, "step_time_s") + ")";
  if (!run.fits) line += "; the published plan is predicted NOT to fit in memory";
  if (run.result) line += ". Predicted time: " + BreakdownText(*run.result);
  if (run.eval_pass_s > 0) {
    line += ", plus a forward-only evaluation pass of " + FormatFixed(run.eval_pass_s, 2) +
            " s inside the timed step";
  }
  if (!run.searched.empty()) {
    line += ". Searched (no framework default): " + Join(run.searched, ", ");
    if (run.step_max_s > run.step_min_s) {
      line += " (step time over the best searched plans " + FormatFixed(run.step_min_s, 2) + "-" +
              FormatFixed(run.step_max_s, 2) + " s)";
    }
  }
  if (!run.conventions.empty()) {
    line += ". Read as the framework runs it: " + Join(run.conventions, ", ");
  }
  if (run.result && !run.result->notes.empty())
    line += ". Model note: " + run.result->notes.front();
  return line + ".\n";
}

std::string WorstRows(const ValidationReport& report, size_t count) {
  std::vector<const RunOutcome*> ranked;
  for (const auto& run : report.runs) {
    if (run.status == RunStatus::kOk && run.error_pct.count("step_time_s")) ranked.push_back(&run);
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const RunOutcome* a, const RunOutcome* b) {
    return std::abs(a->error_pct.at("step_time_s")) > std::abs(b->error_pct.at("step_time_s"));
  });
  ranked.resize(std::min(count, ranked.size()));
  std::string out;
  for (const RunOutcome* run : ranked) out += WorstRowLine(*run);
  for (const auto& run : report.runs) {
    const bool shown = std::find(ranked.begin(), ranked.end(), &run) != ranked.end();
    if (run.status == RunStatus::kOk && !run.fits && !shown) out += WorstRowLine(run);
    if (run.status != RunStatus::kOk) {
      out += "- **" + run.id + "** could not be evaluated: " + run.message + "\n";
    }
  }
  return out;
}

std::string ProcedureText() {
  return R"(## How the numbers are produced

For every run, `paraplan validate` loads the model and the cluster (with the run's `overrides`),
fixes every knob the source states, and searches the knobs it leaves out with the plan search
(the same `SearchPlans` as `paraplan plan`, ranked by step time, the best few estimates re-run in
the event simulator). What the search chose is listed per run. Each measured metric is compared
with the prediction of the chosen plan: error = (predicted − measured) / measured × 100. A
published plan that the model predicts not to fit in memory is a model error: it is evaluated
anyway (the closest plan the search found), marked `NO` under *fits*, and counted in the
summaries. MAPE is the mean absolute percentage error; *max* is the largest absolute error.

The default efficiencies (`hardware/efficiency.yaml`: GEMM efficiency curve, fp8 GEMM fraction,
FlashAttention forward/backward fractions, HBM bandwidth fraction, per-layer kernel overhead,
fixed per-step overhead, and the achievable bus-bandwidth fraction of each network tier) are
fitted per GPU family to the family's runs as a whole — never per row — by
`paraplan validate RUNS.yaml --fit-efficiency OUT.yaml`: Levenberg–Marquardt (Eigen) on
Huber's loss of log(predicted / measured step time) of every run not held out (quadratic within
1.345 robust standard deviations of the residuals, never less than the tables' 5% noise, linear
beyond: a few runs the model has no mechanism for cannot drag a family's parameters onto their
bounds; `src/calib/efficiency_fit.cpp`), each run's loss weighted by 1/sqrt(the runs of its
source in the family), normalised to average 1 (a source's say grows with the square root of its
runs, so one large sweep cannot decide a family alone; `SourceWeights`), with a numeric Jacobian,
bounds by clamping, and a ridge row per parameter pulling it toward the prior (the sourced starting
points listed in the header of `hardware/efficiency.yaml`, kept in `src/calib/efficiency_parameters.cpp`
so that a refit never starts from its own result). The plans chosen for the unstated knobs are
frozen while the
least-squares problem is solved and searched again between outer iterations, until they stop
changing. Within each family, runs sorted by id, every 4th run (`--holdout-every 4`) is held out
of the fit (marked `*`). Those are often near-twins of fitted runs (the same run with
`torch.compile`, the same plan on more GPUs), so their error flatters the model: how it transfers
to a source nobody fitted is the leave-one-source-out figure (`--cv source`). H800 has no
public runs; it takes the H100 numbers (same Hopper SMs and NVLink 4; the fractions apply to
each part's own datasheet peaks, which the hardware files hold).

**Framework conventions** (`src/validate/framework_conventions.cpp`, reading the framework
profiles of `src/plan/framework_profile*.cpp`). Each run states its framework (`framework:`) and
optionally its version (`framework_version:`, else the newest profile); nothing is guessed from
the citation. A knob the run leaves unset takes that framework version's default (what its
argument parser or config gives a user who does not set it: Megatron-LM d98e8a6 runs without
sequence parallelism, the distributed optimizer, recompute or communication overlap unless told;
torchtitan runs eager, with async TP off and per-op SAC as its "selective"), and the run is read
as that version's runtime runs it (torchtitan's local batch, split points, FSDP under PP,
lock-step pipeline and repeated K/V heads as of 9dec370). Where the framework has no default
(Megatron-LM's micro-batch; NeMo's recipes, which set the switches per model; nanotron's
ZeRO stage, a required key; Megatron-DeepSpeed, whose defaults are read only for the gradient
dtype under ZeRO), it is
searched: the run lists it under "searched" with the spread of the step time over the best
searched plans. Every
default, with the framework file it comes from, is in docs/frameworks.md; each reading is
listed per run.

Memory-model notes: [validation-memory.md](validation-memory.md).
)";
}

}  // namespace

std::string ValidationMarkdown(const MarkdownInput& input) {
  std::string out = "# Validation against published training runs\n\n";
  out += "<!-- Generated by `" + input.command + "`; do not edit by hand. -->\n\n";
  out += "Generated by `" + input.command + "`.\n\n" + input.headline + ProcedureText() +
         "\n## In-sample summary (the shipped efficiencies, whose fit saw these runs)\n\n";
  bool any_evaluation_only = false;
  for (const auto& report : input.reports) {
    const SummarySet& e = report.evaluation_only;
    any_evaluation_only = any_evaluation_only || e.fits_n + e.errors > 0;
  }
  if (any_evaluation_only) {
    out +=
        "Runs marked `^` are evaluation-only (`evaluation_only`, docs/formats.md): "
        "`--fit-efficiency` and `--cv` never fit them; with `--cv`, their never-fitted error is "
        "the independent evaluation above.\n\n";
  }
  for (const auto& report : input.reports) {
    out += "`" + report.file + "`:\n\n" + MarkdownTable(SummaryRows(report)) + "\n";
  }
  for (const auto& report : input.reports) {
    out += RankingMarkdown(report.ranking,
                           "## Ranking of alternative plans, in-sample: `" + report.file + "`",
                           RankingDefinition(report.ranking.tolerance), input.worst_jobs);
  }
  for (const auto& report : input.reports) {
    std::vector<Row> rows = {RunHeader(true)};
    for (const auto& run : report.runs) rows.push_back(RunRow(run, true));
    out += "## Runs: `" + report.file + "`\n\n" + MarkdownTable(rows) + "\n";
    out += "Worst rows by step-time error:\n\n" + WorstRows(report, input.worst_rows) + "\n";
  }
  if (!input.notes.empty()) out += input.notes + "\n";
  out += input.fit_section;
  return out;
}

}  // namespace paraplan
