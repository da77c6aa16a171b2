#include "calib/raw_csv.h"

#include <catch2/catch.hpp>
#include <string>

#include "core/error.h"

namespace paraplan {
namespace {

const std::string kHeader = "kind,op,dtype,m,n,k,bytes,ranks,tier,time_us\n";

// The message of the InputError that parsing `text` throws ("" when none).
std::string CsvErrorOf(const std::string& text) {
  try {
    ParseRawCsv(text, "raw.csv");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST_CASE("raw CSV: rows and metadata are read", "[calib]") {
  const std::string text =
      "# comment\n"
      "kind,op,dtype,m,n,k,bytes,ranks,tier,time_us,gpu,driver,cuda,nccl,date\n"
      "gemm,matmul,bf16,4096,4096,4096,0,1,,250.5,H100,550.1,12.4,2.21.5,2026-01-02\n"
      "\n"
      "nccl,all_reduce,bf16,0,0,0,1048576,8,nvlink,30,H100,550.1,12.4,2.21.5,2026-01-02\r\n";
  const auto rows = ParseRawCsv(text, "raw.csv");
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].kind == "gemm");
  CHECK(rows[0].m == 4096);
  CHECK(rows[0].time_us == Approx(250.5));
  CHECK(rows[0].line == 3);
  CHECK(rows[0].metadata.at("gpu") == "H100");
  CHECK(rows[1].tier == "nvlink");
  CHECK(rows[1].ranks == 8);
  CHECK(rows[1].bytes == 1048576);
  CHECK(rows[1].metadata.at("date") == "2026-01-02");
  CHECK(rows[1].line == 5);
}

TEST_CASE("raw CSV: metadata columns are optional", "[calib]") {
  const auto rows = ParseRawCsv(kHeader + "memory,copy,bf16,0,0,0,1024,1,,1.5\n", "x.csv");
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].metadata.empty());
}

TEST_CASE("raw CSV: malformed input names the file and line", "[calib]") {
  CHECK(CsvErrorOf("").find("raw.csv") != std::string::npos);
  CHECK(CsvErrorOf("gemm,matmul,bf16,1,1,1,0,1,,1\n")
            .find("raw.csv:1: not a paraplan-calibrate CSV") != std::string::npos);
  CHECK(CsvErrorOf(kHeader + "gemm,matmul,bf16,1,1,1,0,1,,1\ngemm,matmul,bf16,1,1,1,0,1\n")
            .find("raw.csv:3: expected 10 columns, got 8") != std::string::npos);
  CHECK(CsvErrorOf(kHeader + "gemm,matmul,bf16,1,x,1,0,1,,1\n")
            .find("raw.csv:2: column 'n' must be an integer, got 'x'") != std::string::npos);
  CHECK(CsvErrorOf(kHeader + "gemm,matmul,bf16,1,1,1,0,1,,fast\n")
            .find("raw.csv:2: column 'time_us' must be a number") != std::string::npos);
  CHECK(CsvErrorOf(kHeader + "gemm,matmul,bf16,1,1,1,0,1,,-3\n")
            .find("raw.csv:2: column 'time_us' must be > 0, got -3") != std::string::npos);
  CHECK(CsvErrorOf(kHeader + "gpu,matmul,bf16,1,1,1,0,1,,3\n")
            .find("raw.csv:2: unknown kind 'gpu'") != std::string::npos);
  CHECK(CsvErrorOf(kHeader + "nccl,all_reduce,bf16,0,0,0,-8,8,nvlink,3\n")
            .find("raw.csv:2: column 'bytes' must be >= 0") != std::string::npos);
}

TEST_CASE("raw CSV: a missing file is an input error", "[calib]") {
  CHECK_THROWS_AS(ReadRawCsv("/nonexistent/raw.csv"), InputError);
}

}  // namespace
}  // namespace paraplan
