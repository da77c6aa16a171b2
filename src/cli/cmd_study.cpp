// `paraplan study FILE [-o DIR] [--shard I/N] [--threads N]`: run a what-if study file and write
// DIR/results.csv, DIR/results.json, DIR/chart.svg and DIR/report.html (DIR defaults to
// ./study-NAME). With
// --shard I/N only the points with index % N == I run, and DIR/shard-I-of-N.tsv is written;
// `paraplan study merge DIR... -o OUT` joins the shards into what one run writes.
#include <filesystem>
#include <iostream>
#include <ostream>
#include <string>
#include <vector>

#include "cli/cli_checks.h"
#include "cli/command.h"
#include "cli/progress_bar.h"
#include "config/study_file.h"
#include "config/sweep.h"
#include "core/error.h"
#include "study/study_html.h"
#include "study/study_runner.h"
#include "study/study_shard.h"

namespace paraplan {

namespace {

struct StudyOptions {
  std::vector<std::string> args;
  std::string out_dir;
  std::string shard;
  int threads = 0;
};

int64_t CountOk(const StudyTable& table) {
  int64_t ok = 0;
  for (const auto& row : table.rows) ok += row.status == "ok" ? 1 : 0;
  return ok;
}

void Summarize(const CliContext& ctx, const StudyTable& table, const std::string& written) {
  if (ctx.quiet) return;
  *ctx.out << "study " << table.name << ": " << table.rows.size() << " of " << table.total_points
           << " points, " << CountOk(table) << " with a result; wrote " << written << "\n";
}

// results.csv, results.json, chart.svg and the self-contained report.html.
void WriteAll(const StudyTable& table, const std::string& dir) {
  WriteStudyOutputs(table, dir);
  WriteTextFile(dir + "/report.html", StudyHtml(table));
}

void RunMerge(const StudyOptions& o, const CliContext& ctx) {
  const std::vector<std::string> inputs(o.args.begin() + 1, o.args.end());
  if (inputs.empty()) throw InputError("study merge: give the shard directories (DIR...)");
  if (!o.shard.empty()) throw InputError("study merge: --shard does not apply to merge");
  std::vector<StudyShard> shards;
  for (const std::string& file : FindShardFiles(inputs)) {
    shards.push_back(ParseShard(ReadTextFile(file), file));
  }
  const StudyTable table = MergeShards(std::move(shards));
  const std::string dir = o.out_dir.empty() ? "study-" + table.name : o.out_dir;
  WriteAll(table, dir);
  Summarize(ctx, table, dir + "/results.csv, results.json, chart.svg, report.html");
}

void RunOne(const StudyOptions& o, const CliContext& ctx) {
  if (o.args.size() != 1) {
    throw InputError("study: expected one study file (or `study merge DIR...`), got " +
                     std::to_string(o.args.size()) + " arguments");
  }
  StudyRunOptions run;
  run.threads = o.threads;
  if (!o.shard.empty()) ParseShardFlag(o.shard, &run.shard, &run.shard_count);
  const StudySpec spec = LoadStudyFile(o.args.front());
  ProgressBar bar = StderrProgressBar(ctx, "points");
  run.progress = [&bar](int64_t done, int64_t total) { bar.Update(done, total); };
  const StudyTable table = RunStudy(spec, run);
  bar.Finish();
  const std::string dir = o.out_dir.empty() ? "study-" + spec.name : o.out_dir;
  if (o.shard.empty()) {
    WriteAll(table, dir);
    Summarize(ctx, table, dir + "/results.csv, results.json, chart.svg, report.html");
    return;
  }
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw InputError("cannot create directory '" + dir + "': " + ec.message());
  const std::string path = dir + "/" + ShardFileName(run.shard, run.shard_count);
  WriteTextFile(path, SerializeShard({run.shard, run.shard_count, table}));
  Summarize(ctx, table, path);
}

}  // namespace

void AddStudyCommand(CLI::App& app, CliContext& ctx) {
  auto options = std::make_shared<StudyOptions>();
  auto* sub = app.add_subcommand("study", "run a what-if study file (sweeps) and chart it");
  sub->footer(
      "Examples:\n"
      "  paraplan study plans/01-dp-allreduce.yaml -o out/dp\n"
      "  paraplan study plans/05-hybrid-scaling-gpt3.yaml --shard 0/4 -o out/h   (one per job)\n"
      "  paraplan study merge out/h -o out/hybrid\n"
      "Writes DIR/results.csv, DIR/results.json, DIR/chart.svg and DIR/report.html "
      "(DIR: ./study-NAME).");
  sub->add_option("file", options->args, "the study file (plans/NAME.yaml), or: merge DIR...")
      ->required();
  sub->add_option("-o,--output", options->out_dir, "output directory (default ./study-NAME)");
  sub->add_option("--shard", options->shard,
                  "I/N: run only the points with index % N == I (0-based) and write "
                  "DIR/shard-I-of-N.tsv for `study merge`");
  sub->add_option("--threads", options->threads, "worker threads (default: all)")
      ->check(IntRange(0, kMaxThreads));
  sub->callback([options, &ctx] {
    if (!options->args.empty() && options->args.front() == "merge") {
      RunMerge(*options, ctx);
    } else {
      RunOne(*options, ctx);
    }
  });
}

}  // namespace paraplan
