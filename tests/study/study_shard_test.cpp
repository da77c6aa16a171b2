#include "study/study_shard.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

#include "config/study_metric.h"
#include "core/error.h"

using namespace paraplan;

namespace {

// A table with awkward content: strings with tabs, commas and newlines; numbers that need all
// 17 digits; rows without a result.
StudyTable SampleTable() {
  StudyTable t;
  t.name = "sample";
  t.mode = "plan";
  t.metric = "step_time_s";
  t.title = "A sample, with \"quotes\"";
  t.keys = {"tp", "cluster.network.scaleout.bandwidth_GBps"};
  t.key_dimension = {0, 1};
  t.total_points = 7;
  for (int64_t i = 0; i < t.total_points; ++i) {
    StudyRow r;
    r.index = i;
    r.values = {std::to_string(1 << (i / 2)), i % 2 ? "25" : "50"};
    r.searched = 100 + i;
    r.feasible = i;
    if (i == 3) {
      r.status = "infeasible";
      r.reason = "nothing fits:\tweights 90 GiB,\nmore";
    } else {
      StepResult s;
      s.fits = true;
      s.step_time_s = 1.0 / 3.0 + static_cast<double>(i);
      s.tokens_per_s_per_gpu = 1234.5678901234567;
      s.mfu = 0.1 + 0.2;
      s.peak_memory_bytes = 7.1e10;
      s.time.bubble_s = 0.1;
      s.plan.tp = i + 1;
      SetRowResult(r, s);
    }
    t.rows.push_back(r);
  }
  return t;
}

StudyShard Shard(const StudyTable& full, int64_t shard, int64_t count) {
  StudyShard s{shard, count, full};
  s.table.rows.clear();
  for (const auto& r : full.rows) {
    if (r.index % count == shard) s.table.rows.push_back(r);
  }
  return s;
}

}  // namespace

TEST_CASE("merged shards write exactly what one run writes", "[study]") {
  const StudyTable full = SampleTable();
  for (int64_t count : {1, 2, 3, 7}) {
    std::vector<StudyShard> shards;
    for (int64_t s = count; s-- > 0;) {  // out of order on purpose
      const std::string text = SerializeShard(Shard(full, s, count));
      shards.push_back(ParseShard(text, "shard.tsv"));
      CHECK(SerializeShard(shards.back()) == text);
    }
    const StudyTable merged = MergeShards(shards);
    CHECK(StudyCsv(merged) == StudyCsv(full));
    CHECK(StudyJson(merged) == StudyJson(full));
    CHECK(StudySvg(merged) == StudySvg(full));
  }
}

TEST_CASE("merge reports missing, repeated and foreign shards", "[study]") {
  const StudyTable full = SampleTable();
  CHECK_THROWS_WITH(MergeShards({Shard(full, 0, 3), Shard(full, 2, 3)}),
                    Catch::Contains("shard 1 of 3 is missing"));
  CHECK_THROWS_WITH(MergeShards({Shard(full, 0, 2), Shard(full, 0, 2)}),
                    Catch::Contains("given twice"));
  StudyShard other = Shard(full, 1, 2);
  other.table.metric = "mfu";
  CHECK_THROWS_WITH(MergeShards({Shard(full, 0, 2), other}), Catch::Contains("different study"));
  CHECK_THROWS_AS(ParseShard("index,tp\n0,1\n", "results.csv"), InputError);
  CHECK_THROWS_AS(MergeShards({}), InputError);
}

TEST_CASE("CSV and JSON hold one row per point with status and reason", "[study]") {
  const StudyTable t = SampleTable();
  const std::string csv = StudyCsv(t);
  CHECK(csv.rfind("index,tp,cluster.network.scaleout.bandwidth_GBps,status,step_time_s,", 0) == 0);
  CHECK(std::count(csv.begin(), csv.end(), '\n') == 1 + 7 + 1);  // the reason holds a newline
  CHECK_THAT(csv, Catch::Contains("\"nothing fits:\tweights 90 GiB,\nmore\""));
  const std::string json = StudyJson(t);
  CHECK_THAT(json, Catch::Contains("\"status\": \"infeasible\""));
  CHECK_THAT(json, Catch::Contains("\"bubble_fraction\""));
  CHECK_THAT(json, Catch::Contains("\"dp_comm_exposed_s\""));
  CHECK_THAT(json, Catch::Contains("\"cluster.network.scaleout.bandwidth_GBps\": 25"));
  const LineChart chart = StudyChart(t);
  REQUIRE(chart.series.size() == 2);  // one per bandwidth
  CHECK(chart.series[0].label == "scaleout.bandwidth_GBps=50");
  CHECK(chart.y_label == "step time (s)");
  CHECK(std::isnan(chart.series[1].y[1]));  // point 3 has no result
}

TEST_CASE("metric names and axis labels", "[study]") {
  CHECK(CanonicalMetric("time.dp_comm_exposed_s") == "dp_comm_exposed_s");
  CHECK(CanonicalMetric("mfu") == "mfu");
  CHECK_THROWS_WITH(CanonicalMetric("speed"), Catch::Contains("step_time_s"));
  CHECK_THROWS_AS(CanonicalMetric("time.mfu"), InputError);
  CHECK(AxisForMetric("dp_comm_exposed_s", 0.02).label == "dp comm exposed (ms)");
  CHECK(AxisForMetric("dp_comm_exposed_s", 0.02).scale == 1e3);
  CHECK(LabelForKey("cluster.network.scaleout.bandwidth_GBps") == "scaleout bandwidth (GB/s)");
  CHECK(LabelForKey("plan.tp") == "tensor-parallel size tp");
  CHECK(ShortKey("model.seq_len") == "seq_len");
}
