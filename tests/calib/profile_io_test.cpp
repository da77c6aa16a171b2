#include "config/profile_io.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "core/error.h"

namespace paraplan {
namespace {

CalibrationProfile SampleProfile() {
  CalibrationProfile p;
  p.collectives["all_reduce"]["nvlink"] = {
      12.25, 371.5, 0.9987, 24, 8, {{32768, 18.66}, {1048576, 27.76}, {33554432, 195.4}}};
  p.collectives["all_reduce"]["scaleout"] = {31.0, 46.1, 0.99, 20, 0, {}};
  p.collectives["all_gather"]["scaleout"] = {988.1, 275.6, 0.95, 9, 256, {}, 8};
  p.collectives["all_to_all"]["nvlink"] = {9.5, 300.0, 0.97, 18, 0, {}};
  p.gemm["bf16"] = {{4096, 4096, 4096, 712.3}, {8192, 1024, 28672, 655.01}};
  p.gemm["fp8"] = {{16384, 8192, 8192, 1301.7}};
  p.attention = {{8192, 64, 128, true, 520.5, 410.25}, {4096, 32, 128, false, 480.0, 0}};
  p.memory_bandwidth_GBps = 3012.4;
  p.metadata = {{"gpu", "NVIDIA H100 80GB HBM3"}, {"driver", "550.54.15"}, {"date", "2026-11-29"}};
  return p;
}

std::string ErrorOf(const std::string& yaml) {
  try {
    ParseCalibrationProfile(yaml, "p.yaml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST_CASE("profile YAML round-trips exactly", "[calib]") {
  const CalibrationProfile p = SampleProfile();
  const std::string yaml = ProfileToYaml(p);
  const auto q = ParseCalibrationProfile(yaml, "p.yaml");
  CHECK(q->collectives.at("all_reduce").at("nvlink").bandwidth_GBps == 371.5);
  CHECK(q->collectives.at("all_reduce").at("nvlink").r2 == 0.9987);
  CHECK(q->collectives.at("all_to_all").at("nvlink").points == 18);
  const CollectiveFit& ar = q->collectives.at("all_reduce").at("nvlink");
  CHECK(ar.ranks == 8);
  REQUIRE(ar.curve.size() == 3);
  CHECK(ar.curve[1].bytes == 1048576);
  CHECK(ar.curve[2].time_us == 195.4);
  CHECK(q->collectives.at("all_reduce").at("scaleout").ranks == 0);
  CHECK(q->collectives.at("all_reduce").at("scaleout").curve.empty());
  CHECK(q->collectives.at("all_reduce").at("scaleout").ranks_per_node == 0);
  CHECK(q->collectives.at("all_gather").at("scaleout").ranks_per_node == 8);
  REQUIRE(q->gemm.at("bf16").size() == 2);
  CHECK(q->gemm.at("bf16")[1].k == 28672);
  CHECK(q->gemm.at("bf16")[1].tflops == 655.01);
  CHECK(q->attention[0].bwd_tflops == 410.25);
  CHECK_FALSE(q->attention[1].causal);
  CHECK(q->memory_bandwidth_GBps == 3012.4);
  CHECK(q->metadata.at("gpu") == "NVIDIA H100 80GB HBM3");
  CHECK(q->source_path == "p.yaml");
  CHECK(ProfileToYaml(*q) == yaml);  // byte-identical the second time
}

TEST_CASE("profile save and load through a file", "[calib]") {
  const auto dir = std::filesystem::temp_directory_path() / "paraplan_calib_profile_io";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "profile.yaml").string();
  SaveCalibrationProfile(SampleProfile(), path);
  const auto loaded = LoadCalibrationProfile(path);
  CHECK(loaded->source_path == path);
  CHECK(loaded->gemm.at("fp8")[0].m == 16384);
  CHECK_FALSE(std::filesystem::exists(path + ".tmp"));
  std::filesystem::remove_all(dir);
  CHECK_THROWS_AS(LoadCalibrationProfile(path), InputError);
}

TEST_CASE("profile YAML errors carry file, line, column and key path", "[calib]") {
  CHECK(ErrorOf("memory_bandwith_GBps: 3000\n")
            .find("p.yaml:1:1: memory_bandwith_GBps: unknown key") != std::string::npos);
  CHECK(ErrorOf("collectives:\n  all_reduce:\n    nvlink: {latency_us: 3, bandwidth_GBps: -1}\n")
            .find("p.yaml:3:") != std::string::npos);
  CHECK(ErrorOf("collectives:\n  all_reduce:\n    nvlink: {latency_us: 3, bandwidth_GBps: -1}\n")
            .find("collectives.all_reduce.nvlink.bandwidth_GBps: must be > 0") !=
        std::string::npos);
  CHECK(ErrorOf("collectives:\n  allreduce: {}\n")
            .find("p.yaml:2:3: collectives.allreduce: unknown "
                  "collective (valid: all_gather") != std::string::npos);
  CHECK(ErrorOf("gemm:\n  bf16:\n    - {m: 1, n: 2, k: x, tflops: 5}\n")
            .find("gemm.bf16[0].k: must be an integer") != std::string::npos);
  CHECK(ErrorOf("gemm:\n  bf16:\n    - {m: 1, n: 2, k: 3}\n")
            .find("gemm.bf16[0].tflops: is required") != std::string::npos);
  CHECK(ErrorOf("attention:\n  - {seq: 8, heads: 1, head_dim: 8, causal: maybe}\n")
            .find("attention[0].causal: must be true or false") != std::string::npos);
  CHECK(ErrorOf("gemm: [1, 2]\n").find("gemm: must be a mapping") != std::string::npos);
  const std::string fit =
      "collectives:\n  all_reduce:\n    nvlink: {latency_us: 3, "
      "bandwidth_GBps: 300, ";
  CHECK(ErrorOf(fit + "ranks: 1}\n").find("collectives.all_reduce.nvlink.ranks: must be >= 2") !=
        std::string::npos);
  CHECK(ErrorOf(fit + "curve: [{bytes: 8, time_us: 5}, {bytes: 8, time_us: 6}]}\n")
            .find("collectives.all_reduce.nvlink.curve[1].bytes: must grow") != std::string::npos);
  CHECK(ErrorOf(fit + "curve: [{bytes: 8, time_us: 0}]}\n").find("curve[0].time_us: must be > 0") !=
        std::string::npos);
  CHECK(ErrorOf(fit + "curve: [{bytes: 8, time: 5}]}\n").find("curve[0].time: unknown key") !=
        std::string::npos);
  CHECK(ErrorOf(fit + "ranks: 16, ranks_per_node: 3}\n")
            .find("collectives.all_reduce.nvlink.ranks_per_node: must divide ranks (16)") !=
        std::string::npos);
  CHECK(ErrorOf(fit + "ranks_per_node: 8}\n").find("ranks_per_node: needs the sweep's `ranks`") !=
        std::string::npos);
}

TEST_CASE("an empty, comment-only, duplicate-key or two-document profile is refused", "[calib]") {
  CHECK(ErrorOf("").find("empty calibration profile") != std::string::npos);
  CHECK(ErrorOf("# only a comment\n").find("empty calibration profile") != std::string::npos);
  CHECK(ErrorOf("memory_bandwidth_GBps: 1\nmemory_bandwidth_GBps: 2\n").find("duplicate key") !=
        std::string::npos);
  CHECK(ErrorOf("memory_bandwidth_GBps: 1\n---\nmemory_bandwidth_GBps: 2\n")
            .find("second YAML document") != std::string::npos);
  CHECK(
      ParseCalibrationProfile("memory_bandwidth_GBps: 1\n---\n", "t.yaml")->memory_bandwidth_GBps ==
      1);
}

}  // namespace
}  // namespace paraplan
