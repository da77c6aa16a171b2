// `paraplan plan`: search every plan the constraints leave free, rank, report (DESIGN.md
// "Command line"). Exit 0 with plans, 1 when nothing fits (with the explanation), 2 on bad input.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include "cli/cli_checks.h"
#include "cli/command.h"
#include "cli/common_inputs.h"
#include "cli/gpu_count_list.h"
#include "cli/plan_budget_options.h"
#include "cli/progress_bar.h"
#include "core/error.h"
#include "core/format.h"
#include "core/output_file.h"
#include "evaluate/step_model.h"
#include "report/budget_report.h"
#include "report/chrome_trace.h"
#include "report/export_check.h"
#include "report/plan_reporter.h"
#include "report/sweep_report.h"
#include "search/framework_search.h"
#include "search/objective.h"
#include "search/plan_summary.h"
#include "search/rerank.h"
#include "search/search.h"

namespace paraplan {

namespace {

struct PlanOptions {
  InputOptions inputs;
  int64_t global_batch = 0;
  int64_t top = 10;
  int64_t pareto = 10;
  double pareto_max_slowdown = kParetoMaxSlowdown;
  int64_t simulate_top = 64;
  std::string objective = "step_time";
  std::string format = "table";
  std::string framework;  // empty: "any", or the framework of a launch --format
  std::string trace;
  int threads = 0;
  bool exhaustive = false;
  std::string output;
  PlanBudgetOptions budget;
  double headroom_pct = kDefaultHeadroomPct;
};

// After the search: --tokens ranks by wall-clock time to train (goodput included), then plans
// inside the memory headroom come first (search/rerank.h).
void Rerank(SearchResult& result, const PlanOptions& o, const LoadedInputs& in, int64_t gpus,
            const BudgetRequest* budget) {
  if (budget) RankByWallClock(result, gpus, in.model.seq_len, *budget);
  if (o.headroom_pct > 0) RankByHeadroom(result, o.headroom_pct);
}

constexpr const char* kPlanHelp =
    "Search every parallelism plan the constraints leave free and rank the best.\n\n"
    "Examples:\n"
    "  paraplan plan -m llama3-70b -c dgx-h100 -g 64 --global-batch 64\n"
    "  paraplan plan -m gpt3-175b -c dgx-h100 -g 1024 --global-batch 1536 --top 5\n"
    "  paraplan plan -m llama3-70b -c dgx-h100 -g 64 --global-batch 64 \\\n"
    "      --plan \"tp=4|8,recompute=selective\" --framework megatron --format megatron\n"
    "  paraplan plan -m deepseek-v3 -c gb200-nvl72 -g 1024 --global-batch 4096 \\\n"
    "      --objective cost --format json -o plans.json --trace best.json\n"
    "  paraplan plan -m llama3.1-405b -c dgx-h100 -g 8192 --global-batch 2048 \\\n"
    "      --tokens 15T --price-per-gpu-hour 2.5\n"
    "  paraplan plan -m llama3-70b -c dgx-h100 -g 256:2048 --global-batch 1024 --tokens 2T\n\n"
    "Knobs left out of --plan are searched; `tp=4|8` restricts a knob to a list.\n"
    "Exit status: 0 plans found, 1 nothing fits (the reason is printed), 2 bad input.";

PlanConstraints Constraints(const PlanOptions& o, PlanConstraints plan) {
  if (o.global_batch > 0) {
    if (plan.global_batch && *plan.global_batch != std::vector<int64_t>{o.global_batch}) {
      throw InputError("--global-batch " + std::to_string(o.global_batch) +
                       " disagrees with global_batch in --plan");
    }
    plan.global_batch = std::vector<int64_t>{o.global_batch};
  }
  if (!plan.global_batch) throw InputError("--global-batch: required (sequences per step)");
  return plan;
}

SearchOptions MakeSearchOptions(const PlanOptions& o) {
  if (o.top < 1) throw InputError("--top: must be >= 1, got " + std::to_string(o.top));
  if (o.pareto < 0) throw InputError("--pareto: must be >= 0, got " + std::to_string(o.pareto));
  if (o.pareto_max_slowdown != 0 && o.pareto_max_slowdown < 1) {
    throw InputError("--pareto-max-slowdown: must be 0 (the whole front) or >= 1, got " +
                     FormatShortest(o.pareto_max_slowdown));
  }
  if (o.simulate_top < 1) {
    throw InputError("--simulate-top: must be >= 1, got " + std::to_string(o.simulate_top));
  }
  if (o.threads < 0) throw InputError("--threads: must be >= 0 (0 = all cores)");
  SearchOptions s;
  s.threads = o.threads;
  s.top_k = o.top;
  s.pareto_k = o.pareto;
  s.pareto_max_slowdown = o.pareto_max_slowdown;
  s.simulate_top = o.simulate_top;
  s.objective = ParseObjective(o.objective);
  s.exhaustive = o.exhaustive;
  return s;
}

// Re-simulates the winner with its timeline and writes it as a Chrome trace.
void WriteBestTrace(const LoadedInputs& in, const ParallelPlan& plan, const std::string& path) {
  const StepModel model(in.model, in.cluster, in.gpus);
  std::vector<TimelineEvent> timeline;
  model.Simulate(plan, &timeline);
  WriteOutputFile(path, ChromeTraceJson(timeline, "paraplan plan: best plan, " + PlanSummary(plan)),
                  "--trace");
}

PlanReportContext ReportContext(const LoadedInputs& in, Objective objective) {
  PlanReportContext rc;
  rc.model_name = in.model.name;
  rc.cluster_name = in.cluster.name;
  rc.gpu_name = in.cluster.gpu.name;
  rc.gpus = in.gpus;
  rc.model_layers = in.model.layers;
  rc.model_seq_len = in.model.seq_len;
  rc.moe = in.model.IsMoe();
  rc.objective = objective;
  rc.model = &in.model;
  return rc;
}

// `-g A,B,C`: the best plan per count. Exit 1 when no count has a plan.
void RunSweep(const PlanOptions& o, const LoadedInputs& in, const std::vector<int64_t>& counts,
              const PlanReportContext& rc, std::ostream& out, CliContext& ctx) {
  if (o.format != "table" && o.format != "json") {
    throw InputError("--format " + o.format + ": a GPU-count sweep prints table or json");
  }
  if (!o.trace.empty()) throw InputError("--trace: give one GPU count, not a sweep");
  const Framework framework = ParseLaunchFramework(o.framework);
  const PlanConstraints constraints = Constraints(o, in.plan);
  SearchOptions search = MakeSearchOptions(o);
  std::vector<SweepPoint> points;
  bool any = false;
  // One bar over the whole sweep: the counts searched so far plus the running search's share.
  ProgressBar bar = StderrProgressBar(ctx, "GPU counts");
  const auto total = static_cast<int64_t>(counts.size());
  for (int64_t n : counts) {
    const auto finished = static_cast<double>(points.size());
    search.progress = [&bar, finished, total](int64_t done, int64_t plans) {
      const double share = plans > 0 ? static_cast<double>(done) / static_cast<double>(plans) : 1;
      bar.UpdateShare((finished + share) / static_cast<double>(total), total);
    };
    points.push_back({n, SearchPlansFor(framework, in.model, in.cluster, n, constraints, search)});
    Rerank(points.back().result, o, in, n, rc.budget);
    any = any || !points.back().result.plans.empty();
  }
  bar.Finish();
  if (o.format == "json") {
    WriteSweepJson(out, rc, points);
  } else {
    WriteSweepTable(out, rc, points);
  }
  if (!any) ctx.exit_code = 1;
}

// A launch-config export whose framework cannot run (or, for DeepSpeed, a config cannot carry)
// the best plan has printed why instead of a config: nothing to launch, exit 1.
void ExitIfNotExportable(const std::string& format, const PlanReportContext& rc,
                         const ParallelPlan& best, CliContext& ctx) {
  const Framework target = ExportFramework(format);
  if (!ExportViolations(target, rc, best).empty()) {
    *ctx.err << "paraplan: the best plan is not runnable in " << DisplayName(target)
             << "; re-run with --framework " << ToString(target) << "\n";
    ctx.exit_code = 1;
  } else if (target == Framework::kDeepSpeed && !DeepSpeedConfigGaps(best, rc).empty()) {
    *ctx.err << "paraplan: the best plan needs DeepSpeed model code, not only a config\n";
    ctx.exit_code = 1;
  }
}

void RunPlanTo(const PlanOptions& options, std::ostream& out, CliContext& ctx) {
  PlanOptions o = options;
  const std::vector<int64_t> counts = ParseGpuCounts(o.budget.gpus);
  o.inputs.gpus = counts.front();
  LoadedInputs in = LoadInputs(o.inputs);
  const PlanConstraints constraints = Constraints(o, in.plan);
  SearchOptions search = MakeSearchOptions(o);
  auto reporter = MakePlanReporter(o.format, out);  // bad --format fails before the search
  // A framework's export without --framework: the plans that framework can run, as it runs them
  // (`--framework any` keeps the whole search and says when the best plan is not runnable).
  if (o.framework.empty()) o.framework = ToString(ExportFramework(o.format));
  const Framework framework = ParseLaunchFramework(o.framework);
  PlanReportContext rc = ReportContext(in, search.objective);
  rc.model_arg = o.inputs.model;  // for each plan's re-run command (report/plan_rerun.h)
  rc.cluster_arg = o.inputs.cluster;
  rc.sets = o.inputs.sets;
  rc.headroom_pct = o.headroom_pct;
  const std::optional<BudgetRequest> budget =
      MakeBudgetRequest(o.budget, in.cluster, &rc.band_note);
  if (budget) rc.budget = &*budget;
  if (counts.size() > 1) return RunSweep(o, in, counts, rc, out, ctx);
  ProgressBar bar = StderrProgressBar(ctx, "plans");
  search.progress = [&bar](int64_t done, int64_t total) { bar.Update(done, total); };
  SearchResult result =
      SearchPlansFor(framework, in.model, in.cluster, in.gpus, constraints, search);
  bar.Finish();
  Rerank(result, o, in, in.gpus, rc.budget);
  std::vector<TimelineEvent> timeline;  // the HTML report draws the best plan's
  if (o.format == "html" && !result.plans.empty()) {
    StepModel(in.model, in.cluster, in.gpus).Simulate(result.plans.front().plan, &timeline);
    rc.timeline = &timeline;
  }
  reporter->Report(rc, result);
  if (budget && o.format == "table" && !result.plans.empty()) {
    out << "\n" << BudgetTable(rc, result.plans);
  }
  if (result.plans.empty()) {
    if (o.format != "table" || !o.output.empty()) *ctx.err << result.why_nothing_fits;
    ctx.exit_code = 1;
    return;
  }
  if (!o.trace.empty()) WriteBestTrace(in, result.plans.front().plan, o.trace);
  ExitIfNotExportable(o.format, rc, result.plans.front().plan, ctx);
}

// -o FILE: the report is built in memory and written atomically once the search is done (also
// when nothing fits), so a failed search or a failed write leaves no partial file.
void RunPlan(const PlanOptions& o, CliContext& ctx) {
  if (o.output.empty()) return RunPlanTo(o, *ctx.out, ctx);
  if (std::filesystem::is_directory(o.output)) {  // before the search, not after it
    throw InputError({}, "-o", "'" + o.output + "' is a directory; give a file name");
  }
  std::ostringstream text;
  RunPlanTo(o, text, ctx);
  WriteOutputFile(o.output, text.str(), "-o");
}

}  // namespace

void AddPlanCommand(CLI::App& app, CliContext& ctx) {
  auto options = std::make_shared<PlanOptions>();
  auto* sub = app.add_subcommand("plan", kPlanHelp);
  AddInputOptions(sub, options->inputs, false);  // -g is replaced by AddPlanBudgetOptions
  sub->add_option("--global-batch", options->global_batch, "sequences per step")
      ->check(CountRange(kMaxGlobalBatch));
  sub->add_option("--top", options->top,
                  "plans to print (default 10), equivalent plans folded into one")
      ->check(IntRange(1, kMaxListed));
  sub->add_option("--pareto", options->pareto,
                  "Pareto-front points to print, spread along the front (default 10; 0 = none)")
      ->check(IntRange(0, kMaxListed));
  sub->add_option("--pareto-max-slowdown", options->pareto_max_slowdown,
                  "leave out Pareto points slower than this many times the fastest one (default "
                  "2; 0 = the whole front)")
      ->check(NumberRange(0, 1e6));
  sub->add_option("--simulate-top", options->simulate_top,
                  "best analytical estimates re-run in the event simulator (default 64)")
      ->check(IntRange(1, kMaxListed));
  sub->add_option("--objective", options->objective,
                  "rank by step_time (default), cost (GPU-hours per billion tokens) or memory");
  sub->add_option("--format", options->format,
                  "table (default), json, csv, megatron (Megatron-LM flags), torchtitan (TOML job "
                  "file, torchtitan 238fa99), torchtitan-py (a Python run config, torchtitan "
                  "b5bcd76), deepspeed (config JSON), html (a self-contained report page); a "
                  "framework's format without --framework searches that framework's plans");
  sub->add_option("--framework", options->framework,
                  "search only plans this framework can run: any (the default, unless --format "
                  "is megatron, torchtitan(-py) or deepspeed: then that framework), megatron, "
                  "torchtitan, deepspeed");
  sub->add_option("--trace", options->trace,
                  "write the best plan's simulated timeline as a Chrome trace (Perfetto)");
  sub->add_option("--threads", options->threads, "search threads (default: all cores)")
      ->check(IntRange(0, kMaxThreads));
  sub->add_flag("--exhaustive", options->exhaustive,
                "cost every plan instead of pruning by bounds (same result, slower)");
  sub->add_option("-o,--output", options->output, "write the report to FILE instead of stdout");
  sub->add_option("--headroom", options->headroom_pct,
                  "percent of GPU memory to keep free: plans whose peak stays under the rest rank "
                  "first, tight ones are marked (default 11: validate's memory error; 0 = off)")
      ->check(CLI::Range(0.0, 50.0));
  AddPlanBudgetOptions(sub, options->budget);
  sub->callback([options, &ctx] { RunPlan(*options, ctx); });
}

}  // namespace paraplan
