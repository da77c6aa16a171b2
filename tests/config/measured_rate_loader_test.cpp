#include "config/measured_rate_loader.h"

#include <catch2/catch.hpp>
#include <string>

#include "config/hardware_loader.h"
#include "config_test_util.h"

namespace paraplan {
namespace {

using Catch::Matchers::Contains;
using testing::ErrorOf;

// A file whose gpu section ends with `measured` (the text given, indented under it).
Cluster WithMeasured(const std::string& entries) {
  const YamlDocument doc = ParseYamlText(
      "name: t\ngpu:\n  name: B200-SXM-180GB\n  memory_GiB: 179\n  memory_bandwidth_GBps: 8000\n"
      "  peak_tflops: {bf16: 2250}\n  measured:\n" +
          entries + "network:\n  - {name: nvlink, span: 8, bandwidth_GBps: 900, latency_us: 3}\n",
      "h.yaml");
  return ReadCluster(doc.Root(), "t", "");
}

const char* kGemm =
    "    gemm_max:\n      rate: 1745\n      hopper_rate: 794.5\n      hopper_peak: 989\n"
    "      source: \"a benchmark\"\n      date: \"2025\"\n      software: \"torch 2.7.1\"\n";

TEST_CASE("gpu.measured: each rate with its Hopper counterpart, source, date and software",
          "[config][hardware]") {
  const Cluster c = WithMeasured(std::string(kGemm) +
                                 "    memory_bandwidth:\n      rate: 7000\n"
                                 "      source: s\n      software: \"CUDA 12.8\"\n");
  REQUIRE(c.gpu.measured.size() == 2);
  const MeasuredRate& gemm = c.gpu.measured[0];
  CHECK(gemm.field == "gemm_max");
  CHECK(gemm.rate == 1745);
  CHECK(gemm.hopper_rate == 794.5);
  CHECK(gemm.hopper_peak == 989);
  CHECK(gemm.source == "a benchmark");
  CHECK(gemm.date == "2025");
  CHECK(gemm.software == "torch 2.7.1");
  const MeasuredRate& memory = c.gpu.measured[1];
  CHECK(memory.hopper_rate == 0);  // none: its fraction is its own ceiling
  CHECK(memory.date.empty());      // not stated
}

TEST_CASE("gpu.measured: bad entries are errors at their key", "[config][hardware]") {
  CHECK_THAT(ErrorOf([] { WithMeasured("    gemm_maxx:\n      rate: 1\n"); }),
             Contains("gemm_maxx"));
  CHECK_THAT(ErrorOf([] {
               WithMeasured(
                   "    gemm_max:\n      rate: 2300\n      source: s\n"
                   "      software: t\n");
             }),
             Contains("h.yaml:9:13: gpu.measured.gemm_max.rate: a measured rate cannot exceed "
                      "the part's datasheet rate: 2300 > 2250"));
  CHECK_THAT(ErrorOf([] {
               WithMeasured(
                   "    gemm_max:\n      rate: 1000\n      hopper_rate: 700\n"
                   "      source: s\n      software: t\n");
             }),
             Contains("hopper_rate and hopper_peak go together"));
  CHECK_THAT(ErrorOf([] {
               WithMeasured(
                   "    gemm_max:\n      rate: 1000\n      hopper_rate: 1000\n"
                   "      hopper_peak: 989\n      source: s\n      software: t\n");
             }),
             Contains("exceeds hopper_peak"));
  CHECK_THAT(ErrorOf([] { WithMeasured("    gemm_max:\n      rate: 1000\n      source: s\n"); }),
             Contains("software"));
  CHECK_THAT(ErrorOf([] {
               WithMeasured(
                   "    gemm_max:\n      rate: 1000\n      source: \"\"\n"
                   "      software: t\n");
             }),
             Contains("gpu.measured.gemm_max.source: must not be empty"));
  CHECK_THAT(ErrorOf([] {
               WithMeasured(
                   "    fp8_gemm_max:\n      rate: 1000\n      source: s\n"
                   "      software: t\n");
             }),
             Contains("no datasheet rate for fp8_gemm_max"));
  CHECK_THAT(ErrorOf([] {
               WithMeasured("    gemm_max:\n      rate: -5\n      source: s\n      software: t\n");
             }),
             Contains("gpu.measured.gemm_max.rate"));
}

// The same file with an fp8 peak (4,500: a peak ratio of 2) and the entries given.
Cluster WithFp8Peak(const std::string& entries) {
  const YamlDocument doc = ParseYamlText(
      "name: t\ngpu:\n  name: B200-SXM-180GB\n  memory_GiB: 179\n  memory_bandwidth_GBps: 8000\n"
      "  peak_tflops: {bf16: 2250, fp8: 4500}\n  measured:\n" +
          entries + "network:\n  - {name: nvlink, span: 8, bandwidth_GBps: 900, latency_us: 3}\n",
      "h.yaml");
  return ReadCluster(doc.Root(), "t", "");
}

const char* kRatio =
    "    fp8_over_bf16:\n      rate: 1.9234\n      hopper_rate: 1.9046\n"
    "      part: \"B300 SXM6 AC\"\n      source: s\n      software: t\n";

TEST_CASE("gpu.measured.fp8_over_bf16: a ratio with Hopper's, beside gemm_max, never fp8_gemm_max",
          "[config][hardware]") {
  const Cluster c = WithFp8Peak(std::string(kGemm) + kRatio);
  REQUIRE(c.gpu.measured.size() == 2);
  const MeasuredRate& ratio = c.gpu.measured[1];
  CHECK(ratio.field == "fp8_over_bf16");
  CHECK(ratio.rate == 1.9234);
  CHECK(ratio.hopper_rate == 1.9046);
  CHECK(ratio.hopper_peak == 0);
  CHECK(ratio.part == "B300 SXM6 AC");
  // Both fp8 forms, or the ratio without the bf16 rate it scales: errors at the key.
  CHECK_THAT(ErrorOf([] {
               WithFp8Peak(std::string(kGemm) + kRatio +
                           "    fp8_gemm_max:\n      rate: 3000\n      source: s\n"
                           "      software: t\n");
             }),
             Contains("state fp8_gemm_max or fp8_over_bf16, not both"));
  CHECK_THAT(ErrorOf([] { WithFp8Peak(kRatio); }), Contains("state gemm_max too"));
  // A ratio above the part's peak ratio, Hopper's missing, a peak given, a part elsewhere.
  CHECK_THAT(ErrorOf([] {
               WithFp8Peak(std::string(kGemm) +
                           "    fp8_over_bf16:\n      rate: 2.3\n      hopper_rate: 1.9\n"
                           "      source: s\n      software: t\n");
             }),
             Contains("gpu.measured.fp8_over_bf16.rate: a measured rate cannot exceed"));
  CHECK_THAT(ErrorOf([] {
               WithFp8Peak(std::string(kGemm) +
                           "    fp8_over_bf16:\n      rate: 1.9\n      source: s\n"
                           "      software: t\n");
             }),
             Contains("needs hopper_rate"));
  CHECK_THAT(ErrorOf([] {
               WithFp8Peak(std::string(kGemm) +
                           "    fp8_over_bf16:\n      rate: 1.9\n      hopper_rate: 1.9\n"
                           "      hopper_peak: 2\n      source: s\n      software: t\n");
             }),
             Contains("a ratio has no peak"));
  CHECK_THAT(ErrorOf([] {
               WithFp8Peak(
                   "    gemm_max:\n      rate: 1000\n      part: x\n      source: s\n"
                   "      software: t\n");
             }),
             Contains("part is for fp8_over_bf16"));
}

}  // namespace
}  // namespace paraplan
