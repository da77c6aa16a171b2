#include "config/sweep.h"

#include <catch2/catch.hpp>

#include "core/error.h"

using namespace paraplan;

namespace {

SweepAxis Axis(const std::string& key, std::vector<std::string> values) {
  SweepAxis a;
  a.key = key;
  a.where = {"s.yaml", 7, 3};
  for (auto& v : values) a.values.push_back({v, {v}, {}});
  return a;
}

SweepDimension Dim(SweepAxis a) {
  SweepDimension d;
  d.axes.push_back(std::move(a));
  return d;
}

std::string DescribePoint(const std::vector<SweepDimension>& dims, const StudyPoint& p) {
  std::string out;
  for (const SweepValue* v : PointValues(dims, p)) out += (out.empty() ? "" : ",") + v->text;
  return out;
}

}  // namespace

TEST_CASE("sweep expands as a cartesian product, first key outermost", "[study]") {
  std::vector<SweepDimension> dims = {Dim(Axis("tp", {"1", "2", "4"})),
                                      Dim(Axis("gpus", {"8", "16"}))};
  const auto points = ExpandPoints(dims);
  REQUIRE(points.size() == 6);
  CHECK(CountPoints(dims) == 6);
  CHECK(DescribePoint(dims, points[0]) == "1,8");
  CHECK(DescribePoint(dims, points[1]) == "1,16");
  CHECK(DescribePoint(dims, points[2]) == "2,8");
  CHECK(DescribePoint(dims, points[5]) == "4,16");
  for (size_t i = 0; i < points.size(); ++i) CHECK(points[i].index == static_cast<int64_t>(i));
}

TEST_CASE("zip pairs its lists and counts as one dimension", "[study]") {
  SweepDimension zipped;
  zipped.zipped = true;
  zipped.axes = {Axis("cluster.network.scaleout.bandwidth_GBps", {"25", "50"}),
                 Axis("moe_imbalance", {"1.0", "1.5"})};
  std::vector<SweepDimension> dims = {Dim(Axis("ep", {"1", "8", "64"})), zipped};
  const auto points = ExpandPoints(dims);
  REQUIRE(points.size() == 6);
  CHECK(DescribePoint(dims, points[0]) == "1,25,1.0");
  CHECK(DescribePoint(dims, points[1]) == "1,50,1.5");
  CHECK(DescribePoint(dims, points[4]) == "64,25,1.0");
  std::vector<size_t> dim_of;
  CHECK(FlattenAxes(dims, &dim_of).size() == 3);
  CHECK(dim_of == std::vector<size_t>{0, 1, 1});
  CHECK(ExpandPoints({}).size() == 1);
}

TEST_CASE("zip lists of different lengths are an error at the key", "[study]") {
  SweepDimension zipped;
  zipped.zipped = true;
  zipped.axes = {Axis("tp", {"1", "2"}), Axis("pp", {"1", "2", "4"})};
  try {
    CheckDimension(zipped);
    FAIL("expected an error");
  } catch (const InputError& e) {
    CHECK_THAT(e.what(), Catch::Contains("s.yaml:7:3: pp: zip lists must have equal length"));
  }
}

TEST_CASE("shards partition the points", "[study]") {
  std::vector<SweepDimension> dims = {Dim(Axis("tp", {"1", "2", "4", "8", "16"})),
                                      Dim(Axis("pp", {"1", "2"}))};
  const auto points = ExpandPoints(dims);
  std::vector<int> seen(points.size(), 0);
  for (int64_t s = 0; s < 3; ++s) {
    for (const auto& p : ShardPoints(points, s, 3)) {
      CHECK(p.index % 3 == s);
      ++seen[static_cast<size_t>(p.index)];
    }
  }
  for (int n : seen) CHECK(n == 1);
  int64_t shard = -1, count = -1;
  ParseShardFlag("2/4", &shard, &count);
  CHECK(shard == 2);
  CHECK(count == 4);
  CHECK_THROWS_AS(ParseShardFlag("4/4", &shard, &count), InputError);
  CHECK_THROWS_AS(ParseShardFlag("1", &shard, &count), InputError);
  CHECK_THROWS_AS(ParseShardFlag("a/2", &shard, &count), InputError);
}
