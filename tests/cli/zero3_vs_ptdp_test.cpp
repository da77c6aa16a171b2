// The published head-to-head (Narayanan et al. SC'21, §5.2 "Comparison to ZeRO-3"): at a fixed
// global batch on many GPUs, ZeRO-3 without pipeline parallelism scales worse than PTD-P
// (tensor + pipeline + data parallelism). Pinned as an ordering only, never their seconds.
#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.h"

namespace paraplan {
namespace {

// Step time (s) of the best plan `paraplan plan` finds under `knobs`, from the CSV's first row.
double BestStep(const std::string& knobs) {
  const testing::CliOutput run = testing::RunParaplan(
      {"plan", "-m", "gpt3-175b", "-c", "dgx-h100", "-g", "1024", "--global-batch", "1536",
       "--plan", knobs, "--top", "1", "--format", "csv", "--threads", "2", "--quiet"});
  REQUIRE(run.code == 0);
  std::istringstream lines(run.out);
  std::string header, row;
  std::getline(lines, header);
  std::getline(lines, row);
  auto column = [](const std::string& line, int index) {
    std::istringstream cells(line);
    std::string cell;
    for (int i = 0; i <= index && std::getline(cells, cell, ','); ++i) {
    }
    return cell;
  };
  int index = 0;
  while (column(header, index) != "step_time_s") {
    ++index;
    REQUIRE(index < 64);
  }
  return std::stod(column(row, index));
}

}  // namespace

TEST_CASE("GPT-3 175B on 1,024 GPUs at batch 1,536: PTD-P beats ZeRO-3 without PP", "[cli]") {
  const double zero3 = BestStep("zero=3,pp=1");
  const double ptdp = BestStep("zero=0|1,pp=2|4|8|16|32");
  INFO("best ZeRO-3 pp=1: " << zero3 << " s, best PTD-P: " << ptdp << " s");
  CHECK(ptdp < zero3);
}

}  // namespace paraplan
