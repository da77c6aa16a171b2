// Host-only parts of the CUDA harness (calibrate/): the CSV writer (atomic, resumable) and the
// layer GEMM shapes. They need no CUDA, so they are compiled into the test binary directly.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "calib/raw_csv.h"
#include "csv_writer.h"
#include "harness_error.h"
#include "options.h"
#include "temp_dir.h"

namespace paraplan::calibrate {
namespace {

std::string ReadWhole(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

const Metadata kMeta{"Test GPU, rev 2", "550.1", "13.0", "2.28.3", "2026-11-29"};

TEST_CASE("harness CSV is what calibrate fit reads, written atomically", "[calib]") {
  const testing::TempDir dir("paraplan_calib_harness_case1");
  const std::string path = (dir.path / "raw.csv").string();
  CsvWriter writer(path, false, kMeta);
  writer.Add({"gemm", "matmul", "bf16", 4096, 4096, 4096, 0, 1, ""}, 250.25);
  writer.Add({"collective", "all_reduce", "bf16", 0, 0, 0, 1024, 8, "nvlink"}, 12.5);
  CHECK_FALSE(std::filesystem::exists(path + ".tmp"));
  const auto rows = ParseRawCsv(ReadWhole(path), path);
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].m == 4096);
  CHECK(rows[0].time_us == Approx(250.25));
  CHECK(rows[1].tier == "nvlink");
  CHECK(rows[1].metadata.at("gpu") == "Test GPU  rev 2");  // the comma cannot split the field
  CHECK(rows[1].metadata.at("nccl") == "2.28.3");
}

TEST_CASE("harness CSV resumes: rows present are skipped and kept", "[calib]") {
  const testing::TempDir dir("paraplan_calib_harness_case2");
  const std::string path = (dir.path / "raw.csv").string();
  const RowKey first{"memory", "copy", "bf16", 0, 0, 0, 1 << 20, 1, ""};
  const RowKey second{"memory", "copy", "bf16", 0, 0, 0, 1 << 22, 1, ""};
  {
    CsvWriter writer(path, false, kMeta);
    writer.Add(first, 1.5);
  }
  CsvWriter resumed(path, true, kMeta);
  CHECK(resumed.Has(first));
  CHECK_FALSE(resumed.Has(second));
  resumed.Add(second, 4.5);
  CHECK(ParseRawCsv(ReadWhole(path), path).size() == 2);
  // Without --resume the file starts over.
  CsvWriter fresh(path, false, kMeta);
  CHECK_FALSE(fresh.Has(first));
  // A file of another format is not resumed.
  std::ofstream(path) << "a,b,c\n1,2,3\n";
  CHECK_THROWS_AS(CsvWriter(path, true, kMeta), HarnessError);
}

TEST_CASE("layer GEMM shapes follow Megatron tensor parallelism", "[calib]") {
  HarnessOptions o;
  o.hidden = 8192;
  o.ffn = 28672;
  o.heads = 64;
  o.kv_heads = 8;
  o.seq = 4096;
  o.tp_list = {8};
  o.mb_list = {1};
  const auto shapes = LayerGemmShapes(o);
  auto has = [&](int64_t m, int64_t n, int64_t k) {
    for (const auto& s : shapes) {
      if (s.m == m && s.n == n && s.k == k) return true;
    }
    return false;
  };
  CHECK(has(4096, (64 + 2 * 8) * 128 / 8, 8192));  // QKV forward
  CHECK(has(4096, 8192, 64 * 128 / 8));            // attention output forward
  CHECK(has(4096, 2 * 28672 / 8, 8192));           // gated MLP up
  CHECK(has(4096, 8192, 28672 / 8));               // MLP down
  CHECK(has(28672 / 8, 8192, 4096));               // MLP down weight gradient (in × out)
  CHECK(shapes.size() == 12);
  o.hidden = 0;
  CHECK(LayerGemmShapes(o).empty());
  CHECK(GenericGemmGrid().size() == 24);
}

TEST_CASE("harness sizes parse like nccl-tests", "[calib]") {
  CHECK(ParseBytes("1K") == 1024);
  CHECK(ParseBytes("64M") == int64_t{64} << 20);
  CHECK(ParseBytes("4G") == int64_t{4} << 30);
  CHECK(ParseBytes("123") == 123);
  CHECK_THROWS_AS(ParseBytes("4T"), HarnessError);
  CHECK_THROWS_AS(ParseBytes("G"), HarnessError);
}

}  // namespace
}  // namespace paraplan::calibrate
