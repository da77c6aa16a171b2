// validate's ranking figure on hand-built outcomes whose answer is known (no runs file, no fit).
#include "validate/plan_ranking.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "validate/plan_ranking_json.h"
#include "validate/plan_ranking_text.h"

using namespace paraplan;

namespace {

// A run of the job "Paper A: m on c, 8 GPUs, seq 4096, 1M tokens" unless changed.
RunOutcome RankedOutcome(const std::string& id, double measured_s, double predicted_s) {
  RunOutcome r;
  r.id = id;
  r.source = "Paper A, Table 3";
  r.model_name = "m";
  r.cluster = "c";
  r.gpu_name = "H100";
  r.gpu_memory_GiB = 80;
  r.gpus = 8;
  r.seq_len = 4096;
  r.global_batch_tokens = 1 << 20;
  r.measured["step_time_s"] = measured_s;
  r.predicted["step_time_s"] = predicted_s;
  r.predicted["tokens_per_s_per_gpu"] = 1000.0 / predicted_s;
  return r;
}

}  // namespace

TEST_CASE("RankPlans counts the measured pairs the prediction orders the same way",
          "[validate][ranking]") {
  // Measured a < b < c; predicted a < c < b: (a,b) and (a,c) agree, (b,c) is reversed.
  const std::vector<RunOutcome> runs = {RankedOutcome("a", 1.0, 2.0), RankedOutcome("b", 1.5, 3.0),
                                        RankedOutcome("c", 2.0, 2.5)};
  const RankingReport report = RankPlans(runs);
  REQUIRE(report.groups.size() == 1);
  const RankingGroup& g = report.groups.front();
  CHECK(g.source == "Paper A");
  CHECK(g.metric == "step_time_s");
  CHECK(g.pairs == 3);
  CHECK(g.concordant == 2);
  CHECK(g.discordant == 1);
  CHECK(g.tied == 0);
  CHECK(g.Agreement() == Approx(2.0 / 3.0));
  REQUIRE(g.misordered.size() == 1);
  CHECK(g.misordered.front().faster == "b");
  CHECK(g.misordered.front().slower == "c");
  CHECK(g.top1_counted);
  CHECK(g.top1_hit);
  CHECK(g.measured_best == "a");
  CHECK(g.predicted_best == std::vector<std::string>{"a"});
  CHECK(g.regret_pct == Approx(0.0));
  CHECK(report.pooled.groups == 1);
  CHECK(report.pooled.runs == 3);
  CHECK(report.pooled.agreement == Approx(2.0 / 3.0));
  CHECK(report.pooled.top1_hits == 1);
}

TEST_CASE("RankPlans leaves pairs inside the tolerance unordered and counts predicted ties half",
          "[validate][ranking]") {
  // a and b measured 2 % apart: no pair. c 10 % slower than a, predicted equal to a: a tie.
  const std::vector<RunOutcome> runs = {
      RankedOutcome("a", 1.00, 1.0), RankedOutcome("b", 1.02, 0.5), RankedOutcome("c", 1.10, 1.0)};
  const RankingGroup g = RankPlans(runs).groups.at(0);
  CHECK(g.pairs == 2);  // (a,c) and (b,c)
  CHECK(g.tied == 1);
  CHECK(g.concordant == 1);  // b predicted faster than c
  CHECK(g.Agreement() == Approx(0.75));
  // b is predicted fastest and measured within 3 % of a: a hit, with its 2 % regret.
  CHECK(g.predicted_best == std::vector<std::string>{"b"});
  CHECK(g.top1_hit);
  CHECK(g.regret_pct == Approx(2.0));
  // A tolerance of 1 % orders (a,b) too, which the prediction reverses.
  const RankingGroup strict = RankPlans(runs, 0.01).groups.at(0);
  CHECK(strict.pairs == 3);
  CHECK(strict.discordant == 1);
  CHECK_FALSE(strict.top1_hit);
}

TEST_CASE("RankPlans judges every run tied for predicted fastest", "[validate][ranking]") {
  // a and c predicted equal and fastest; c measured 20 % slower than a: a miss.
  const std::vector<RunOutcome> runs = {RankedOutcome("a", 1.0, 1.0), RankedOutcome("b", 1.1, 1.5),
                                        RankedOutcome("c", 1.2, 1.0)};
  const RankingGroup g = RankPlans(runs).groups.at(0);
  CHECK(g.top1_counted);
  CHECK(g.predicted_best == std::vector<std::string>{"a", "c"});
  CHECK_FALSE(g.top1_hit);
  CHECK(g.regret_pct == Approx(20.0));
}

TEST_CASE("RankPlans groups by source, model, cluster, GPUs, sequence and batch",
          "[validate][ranking]") {
  std::vector<RunOutcome> runs = {RankedOutcome("a", 1.0, 1.0), RankedOutcome("b", 2.0, 2.0)};
  RunOutcome other_gpus = RankedOutcome("c", 5.0, 0.1);
  other_gpus.gpus = 16;
  RunOutcome other_source = RankedOutcome("d", 5.0, 0.1);
  other_source.source = "Paper B (2024)";
  RunOutcome other_batch = RankedOutcome("e", 5.0, 0.1);
  other_batch.global_batch_tokens = 1 << 21;
  RunOutcome other_cluster = RankedOutcome("f", 5.0, 0.1);
  other_cluster.gpu_memory_GiB = 96;  // a memory override: another cluster
  RunOutcome other_seq = RankedOutcome("g", 5.0, 0.1);
  other_seq.seq_len = 8192;
  RunOutcome failed = RankedOutcome("h", 5.0, 0.1);
  failed.status = RunStatus::kError;
  // Same job, cited further into the same source: it joins a and b.
  RunOutcome same = RankedOutcome("i", 3.0, 3.0);
  same.source = "Paper A, Table 4";
  for (const RunOutcome& r :
       {other_gpus, other_source, other_batch, other_cluster, other_seq, failed, same}) {
    runs.push_back(r);
  }
  const RankingReport report = RankPlans(runs);
  REQUIRE(report.groups.size() == 1);
  CHECK(report.groups.front().runs.size() == 3);
  CHECK(report.groups.front().runs.back().id == "i");
  CHECK(report.pooled.agreement == Approx(1.0));
  CHECK(report.sources.size() == 1);
  CHECK(report.source_mean_agreement == Approx(1.0));
}

TEST_CASE("RankPlans ranks a job by throughput where its runs state no step time",
          "[validate][ranking]") {
  RunOutcome a = RankedOutcome("a", 1.0, 1.0);
  RunOutcome b = RankedOutcome("b", 1.0, 1.0);
  a.measured = {{"tokens_per_s_per_gpu", 2000.0}};
  b.measured = {{"tokens_per_s_per_gpu", 1000.0}};
  // Predicted: a 1,000 tokens/s, b 2,000: reversed.
  a.predicted["tokens_per_s_per_gpu"] = 1000.0;
  b.predicted["tokens_per_s_per_gpu"] = 2000.0;
  const RankingGroup g = RankPlans({a, b}).groups.at(0);
  CHECK(g.metric == "tokens_per_s_per_gpu");
  CHECK(g.pairs == 1);
  CHECK(g.discordant == 1);
  CHECK(g.measured_best == "a");
  CHECK(g.predicted_best == std::vector<std::string>{"b"});
  CHECK(g.regret_pct == Approx(100.0));
}

TEST_CASE("The ranking's JSON and text report the pooled figure and the mis-ordered jobs",
          "[validate][ranking]") {
  const std::vector<RunOutcome> runs = {RankedOutcome("a", 1.0, 2.0), RankedOutcome("b", 1.5, 3.0),
                                        RankedOutcome("c", 2.0, 2.5)};
  const RankingReport report = RankPlans(runs);
  const std::string json = RankingReportJson(report).Dump(-1);
  CHECK(json.find("\"pooled\":{\"groups\":1,\"runs\":3,\"pairs\":3,\"concordant\":2,"
                  "\"discordant\":1,\"tied\":0") != std::string::npos);
  CHECK(json.find("\"misordered\":[{\"faster\":\"b\",\"slower\":\"c\",\"tied\":false}]") !=
        std::string::npos);
  const std::string md = RankingMarkdown(report, "## Ranking", RankingDefinition(0.03), 5);
  CHECK(md.find("| Paper A | 1 | 3 | 3 | 66.7% | 1 | 0 | 1/1 | 0.0% |") != std::string::npos);
  CHECK(md.find("b (measured 1.50 s, predicted 3.00 s) faster than c") != std::string::npos);
  CHECK(md.find("more than 3 % of the faster") != std::string::npos);
  CHECK(RankingMarkdown(RankPlans({}), "## Ranking", "", 5).empty());
  CHECK(RankingLine(report).find("agreement 66.7%") != std::string::npos);
  CHECK(json.find("\"predicted_best\":[\"a\"]") != std::string::npos);
}
