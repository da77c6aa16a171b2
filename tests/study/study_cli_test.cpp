// End-to-end: `paraplan study` through RunCli on tiny studies with inline model and cluster.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cli/command.h"
#include "study/study_table.h"
#include "temp_dir.h"

using namespace paraplan;
namespace fs = std::filesystem;

namespace {

const char* kTinyStudy = R"(# tiny study for the tests
study: tiny
title: Tiny study
model:
  name: tiny
  layers: 4
  hidden: 256
  heads: 4
  ffn_hidden: 1024
  vocab: 1000
  seq_len: 128
  activation: gelu
  norm: layernorm
  position: learned
cluster:
  name: tiny-cluster
  gpu: {name: G, memory_GiB: 80, memory_bandwidth_GBps: 3000, peak_tflops: {bf16: 1000}}
  network:
    - {name: nvlink, span: 8, bandwidth_GBps: 450, latency_us: 3}
    - {name: scaleout, span: 4096, bandwidth_GBps: 50, latency_us: 10}
gpus: 8
plan: {global_batch: 16, micro_batch: 1, pp: 1}
mode: MODE
metric: tokens_per_s_per_gpu
sweep:
  tp: [1, 2, 3, 4]
  cluster.network.nvlink.bandwidth_GBps: [200, 450]
)";

std::string WriteStudy(const testing::TempDir& dir, const std::string& mode) {
  std::string text = kTinyStudy;
  text.replace(text.find("MODE"), 4, mode);
  const std::string path = dir / ("tiny-" + mode + ".yaml");
  std::ofstream(path) << text;
  return path;
}

int RunStudyCli(std::vector<std::string> args, std::string* err = nullptr) {
  args.insert(args.begin(), "paraplan");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, error;
  const int code = RunCli(static_cast<int>(argv.size()), argv.data(), out, error);
  if (err) *err = error.str();
  return code;
}

std::string Read(const std::string& path) {
  return ReadTextFile(path);
}

}  // namespace

TEST_CASE("study simulate: rows per point, invalid points kept, shards merge exactly",
          "[study][cli]") {
  const testing::TempDir dir("paraplan-study-test-full");
  const std::string study = WriteStudy(dir, "simulate");
  std::string err;
  REQUIRE(RunStudyCli({"study", study, "-o", dir / "full", "--quiet", "--threads", "3"}, &err) ==
          0);
  const std::string csv = Read(dir / "full/results.csv");
  CHECK(std::count(csv.begin(), csv.end(), '\n') == 1 + 8);
  CHECK_THAT(csv, Catch::Contains("\n4,3,200,invalid,"));  // tp=3 does not divide 4 heads
  CHECK_THAT(csv, Catch::Contains("\n0,1,200,ok,"));
  const std::string svg = Read(dir / "full/chart.svg");
  CHECK_THAT(svg, Catch::Contains("<svg"));
  CHECK_THAT(svg, Catch::Contains("nvlink.bandwidth_GBps=450"));
  CHECK_THAT(svg, Catch::Contains("tensor-parallel size tp"));

  // Same bytes with one thread.
  REQUIRE(RunStudyCli({"study", study, "-o", dir / "one", "-q", "--threads", "1"}) == 0);
  CHECK(Read(dir / "one/results.json") == Read(dir / "full/results.json"));

  for (const char* shard : {"0/3", "1/3", "2/3"}) {
    REQUIRE(RunStudyCli({"study", study, "-o", dir / "shards", "-q", "--shard", shard}) == 0);
  }
  REQUIRE(RunStudyCli({"study", "merge", dir / "shards", "-o", dir / "merged", "-q"}) == 0);
  for (const char* file : {"results.csv", "results.json", "chart.svg"}) {
    CHECK(Read(dir / (std::string("merged/") + file)) == Read(dir / (std::string("full/") + file)));
  }
  fs::remove(dir / "shards/shard-1-of-3.tsv");
  CHECK(RunStudyCli({"study", "merge", dir / "shards", "-o", dir / "bad"}, &err) == 2);
  CHECK_THAT(err, Catch::Contains("shard 1 of 3 is missing"));
}

TEST_CASE("study plan: best plan per point", "[study][cli]") {
  const testing::TempDir dir("paraplan-study-test-out");
  const std::string study = WriteStudy(dir, "plan");
  REQUIRE(RunStudyCli({"study", study, "-o", dir / "out", "-q"}) == 0);
  const std::string json = Read(dir / "out/results.json");
  CHECK_THAT(json, Catch::Contains("\"mode\": \"plan\""));
  CHECK_THAT(json, Catch::Contains("\"status\": \"ok\""));
  CHECK_THAT(json, Catch::Contains("\"searched\""));
  CHECK(fs::exists(dir / "out/chart.svg"));
}

TEST_CASE("study plan: a point where nothing fits by default takes plan's memory ladder",
          "[study][cli]") {
  const testing::TempDir dir("paraplan-study-test-tight");
  const std::string path = dir / "tight.yaml";
  // Llama-3 70B on 8 H100: only the optimizer in host memory fits (docs/search.md); on 16 the
  // default recipe fits and is kept.
  std::ofstream(path) << "study: tight\nmodel: llama3-70b\ncluster: dgx-h100\ngpus: 8\n"
                         "plan: {global_batch: 64}\nmode: plan\nsweep:\n  gpus: [8, 16]\n";
  REQUIRE(RunStudyCli({"study", path, "-o", dir / "out", "-q"}) == 0);
  const std::string csv = Read(dir / "out/results.csv");
  const auto header = csv.substr(0, csv.find('\n'));
  CHECK_THAT(header, Catch::Contains(",optimizer_moments,optimizer_offload,"));
  const auto row = [&](const std::string& start) {
    const size_t at = csv.find("\n" + start);
    return at == std::string::npos ? std::string()
                                   : csv.substr(at + 1, csv.find('\n', at + 1) - at);
  };
  CHECK_THAT(row("0,8,ok,"), Catch::Contains(",fp32,1,"));
  CHECK_THAT(row("1,16,ok,"), Catch::Contains(",fp32,0,"));
}

TEST_CASE("study: a bad study file exits 2 with file:line", "[study][cli]") {
  const testing::TempDir dir("paraplan-study-test-bad");
  const std::string path = dir / "bad.yaml";
  std::ofstream(path) << "study: bad\nmodel: tiny\ncluster: x\ngpus: 8\nsweep:\n  tp: 4\n";
  std::string err;
  CHECK(RunStudyCli({"study", path, "-o", dir / "out"}, &err) == 2);
  CHECK_THAT(err, Catch::Contains(path + ":6:"));
  CHECK_THAT(err, Catch::Contains("tp"));
  CHECK(RunStudyCli({"study", dir / "missing.yaml"}, &err) == 2);
  CHECK(RunStudyCli({"study", path, "--shard", "3/2"}, &err) == 2);
  CHECK_THAT(err, Catch::Contains("--shard"));
}

namespace {

// The CSV's columns by name, for the row that starts with `index,`.
std::map<std::string, std::string> CsvRow(const std::string& csv, int index) {
  auto split = [](const std::string& line) {
    std::vector<std::string> fields;
    std::stringstream in(line);
    for (std::string f; std::getline(in, f, ',');) fields.push_back(f);
    return fields;
  };
  std::stringstream lines(csv);
  std::string header, line;
  std::getline(lines, header);
  const std::vector<std::string> names = split(header);
  while (std::getline(lines, line)) {
    const std::vector<std::string> fields = split(line);
    if (fields.empty() || fields.front() != std::to_string(index)) continue;
    std::map<std::string, std::string> row;
    for (size_t i = 0; i < names.size() && i < fields.size(); ++i) row[names[i]] = fields[i];
    return row;
  }
  return {};
}

}  // namespace

TEST_CASE(
    "study tokens: goodput and days to train per point, seq_len resolved, no repeated "
    "column",
    "[study][cli]") {
  const testing::TempDir dir("paraplan-study-test-budget");
  const std::string path = dir / "budget.yaml";
  std::ofstream(path) << "study: budget\nmodel: llama3-8b\ncluster: dgx-h100\ntokens: 1T\n"
                         "plan: {tp: 1, pp: 1, cp: 1, micro_batch: 1, zero: 1, recompute: full}\n"
                         "mode: simulate\nmetric: wall_days\n"
                         "zip:\n  gpus: [8, 1024]\n  global_batch: [8, 1024]\n";
  std::string err;
  REQUIRE(RunStudyCli({"study", path, "-o", dir / "out", "-q"}, &err) == 0);
  const std::string csv = Read(dir / "out/results.csv");
  const std::string header = csv.substr(0, csv.find('\n'));
  size_t global_batch_columns = 0;
  for (size_t at = header.find("global_batch"); at != std::string::npos;
       at = header.find("global_batch", at + 1)) {
    ++global_batch_columns;
  }
  CHECK(global_batch_columns == 1);  // the swept key's column; the plan's copy is left out
  for (int i : {0, 1}) {
    INFO("point " << i);
    auto row = CsvRow(csv, i);
    REQUIRE(row["status"] == "ok");
    CHECK(row["seq_len"] == "8192");  // the model's, not the plan's default 0
    const double goodput = std::stod(row["goodput"]);
    CHECK(goodput > 0.5);
    CHECK(goodput < 1.0);
    CHECK(std::stod(row["wall_days"]) > std::stod(row["days"]));
    CHECK(std::stod(row["interruptions"]) > 0);
    CHECK(std::stod(row["checkpoint_interval_s"]) > 0);
    CHECK(std::stod(row["energy_MWh"]) > 0);
  }
  // More GPUs: fewer days, lower goodput.
  CHECK(std::stod(CsvRow(csv, 1)["wall_days"]) < std::stod(CsvRow(csv, 0)["wall_days"]));
  CHECK(std::stod(CsvRow(csv, 1)["goodput"]) < std::stod(CsvRow(csv, 0)["goodput"]));
  const std::string html = Read(dir / "out/report.html");
  CHECK_THAT(html, Catch::Contains("<th>goodput (%)</th>"));
  CHECK_THAT(html, Catch::Contains("<th>wall-clock days to train</th>"));
  CHECK_THAT(html, Catch::Contains("<h2>wall-clock days to train</h2>"));

  std::ofstream(path) << "study: budget\nmodel: llama3-8b\ncluster: dgx-h100\ntokens: lots\n"
                         "gpus: 8\nplan: {global_batch: 8}\n";
  CHECK(RunStudyCli({"study", path, "-o", dir / "bad"}, &err) == 2);
  CHECK_THAT(err, Catch::Contains(path + ":4:"));
  CHECK_THAT(err, Catch::Contains("15T"));
}
