#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli_runner.h"

using namespace paraplan;

namespace {}  // namespace

TEST_CASE("simulate prints DESIGN.md's JSON", "[cost][cli]") {
  const testing::CliOutput r =
      testing::RunParaplan({"simulate", "-m", "llama3-70b", "-c", "dgx-h100", "-g", "64", "--plan",
                            "tp=8,pp=2,micro_batch=1,global_batch=64,recompute=selective,"
                            "sequence_parallel=true,zero=1",
                            "--format", "json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  for (const char* key :
       {"\"plan\"", "\"fits\"", "\"step_time_s\"", "\"tokens_per_s_per_gpu\"", "\"mfu\"", "\"hfu\"",
        "\"memory_GiB\"", "\"per_stage\"", "\"dp_comm_exposed_s\"", "\"bubble_s\""}) {
    CHECK(r.out.find(key) != std::string::npos);
  }
  CHECK(r.out.find("\"dp\": 4") != std::string::npos);
}

TEST_CASE("simulate --analytic and the table format", "[cost][cli]") {
  const testing::CliOutput r =
      testing::RunParaplan({"simulate", "-m", "llama3-8b", "-c", "dgx-h100", "-g", "8", "--plan",
                            "tp=1,global_batch=16,micro_batch=2", "--analytic"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("analytical estimate") != std::string::npos);
  CHECK(r.out.find("Memory per stage (GiB)") != std::string::npos);
}

TEST_CASE("a plan that does not fit still exits 0 with fits false", "[cost][cli]") {
  const testing::CliOutput r =
      testing::RunParaplan({"simulate", "-m", "llama3-70b", "-c", "dgx-h100", "-g", "8", "--plan",
                            "tp=1,global_batch=8", "--analytic", "--format", "json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("\"fits\": false") != std::string::npos);
}

TEST_CASE("simulate rejects broken rules and lists with exit 2", "[cost][cli]") {
  testing::CliOutput r = testing::RunParaplan({"simulate", "-m", "llama3-70b", "-c", "dgx-h100",
                                               "-g", "48", "--plan", "tp=3,global_batch=64"});
  CHECK(r.code == 2);
  CHECK(r.err.find("does not divide heads=64") != std::string::npos);
  r = testing::RunParaplan({"simulate", "-m", "llama3-70b", "-c", "dgx-h100", "-g", "64", "--plan",
                            "tp=4|8,global_batch=64"});
  CHECK(r.code == 2);
  CHECK(r.err.find("simulate needs one value for tp, got 4|8") != std::string::npos);
  r = testing::RunParaplan(
      {"simulate", "-m", "llama3-70b", "-c", "dgx-h100", "-g", "64", "--plan", "tp=8"});
  CHECK(r.code == 2);
  CHECK(r.err.find("global_batch") != std::string::npos);
}

TEST_CASE("explain names the dominant cost and a knob", "[cost][cli]") {
  const testing::CliOutput r =
      testing::RunParaplan({"explain", "-m", "llama3-70b", "-c", "dgx-h100", "-g", "64", "--plan",
                            "tp=8,pp=4,micro_batch=1,global_batch=4", "--analytic"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("dominant cost: pipeline bubble") != std::string::npos);
  CHECK(r.out.find("would relieve it") != std::string::npos);
  CHECK(r.out.find("Time per stage") != std::string::npos);
}

TEST_CASE("explain lists each collective with its tier and NCCL's choice", "[cost][cli]") {
  const testing::CliOutput r = testing::RunParaplan(
      {"explain", "-m", "llama3-70b", "-c", "dgx-h100", "-g", "64", "--plan",
       "tp=8,pp=2,dp=4,micro_batch=1,global_batch=16,sequence_parallel=true", "--analytic"});
  INFO(r.out);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("Collectives, one call each") != std::string::npos);
  // TP inside the node on NVLink, PP and DP across the NICs.
  CHECK(r.out.find("tp    all_gather          8     8  nvlink") != std::string::npos);
  CHECK(r.out.find("pp    send_recv") != std::string::npos);
  CHECK(r.out.find("dp    all_reduce          4     1  scaleout") != std::string::npos);
}

TEST_CASE("explain on a plan that does not fit says what overflows", "[cost][cli]") {
  const testing::CliOutput r =
      testing::RunParaplan({"explain", "-m", "llama3-70b", "-c", "dgx-h100", "-g", "8", "--plan",
                            "tp=1,global_batch=8", "--analytic"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("does not fit: stage 0") != std::string::npos);
}

TEST_CASE("simulate --trace writes a Chrome trace", "[cost][cli]") {
  const std::string path = "simulate_test_trace.json";
  const testing::CliOutput r =
      testing::RunParaplan({"simulate", "-m", "llama3-8b", "-c", "dgx-h100", "-g", "16", "--plan",
                            "tp=2,pp=2,global_batch=32", "--trace", path});
  INFO(r.err);
  REQUIRE(r.code == 0);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  CHECK(text.str().find("traceEvents") != std::string::npos);
  std::remove(path.c_str());
}
