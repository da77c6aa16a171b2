// The raw measurement CSV written by the paraplan-calibrate harness:
//   kind,op,dtype,m,n,k,bytes,ranks,tier,time_us[,gpu,driver,cuda,nccl,date]
// kind is gemm | attention | memory | nccl. Reading is strict: a wrong header, a wrong column
// count, a field that is not a number or a time that is not > 0 throws InputError "file:line: ...".
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace paraplan {

struct RawRow {
  std::string kind;   // gemm | attention | memory | nccl
  std::string op;     // matmul; fwd, bwd, naive_fwd (+ _causal); copy, norm; all_reduce, ...
  std::string dtype;  // bf16 | fp16 | fp8 | fp32 ...
  int64_t m = 0, n = 0, k = 0;
  int64_t bytes = 0;
  int ranks = 1;
  std::string tier;        // nvlink | scaleout for nccl rows; empty otherwise
  int ranks_per_node = 0;  // collective rows read from nccl-tests output; 0 = not known
  double time_us = 0;
  std::map<std::string, std::string> metadata;  // gpu, driver, cuda, nccl, date (when present)
  std::string file;                             // the file (or origin) it came from
  int line = 0;                                 // 1-based line in that file
};

// The ten measurement columns, in order.
const std::vector<std::string>& RawCsvColumns();
// The metadata columns the harness appends, in order.
const std::vector<std::string>& RawCsvMetadataColumns();

// Parses CSV text; `origin` names it in errors. Blank lines and lines starting with '#' are
// skipped. The metadata columns are optional but, when present, must be exactly the five above.
std::vector<RawRow> ParseRawCsv(const std::string& text, const std::string& origin);

// The rows of a measurement file's text: nccl-tests output (calib/nccl_tests_output.h) when it
// looks like it, else the harness's CSV (ParseRawCsv).
std::vector<RawRow> ParseMeasurementText(const std::string& text, const std::string& origin);

// Reads and parses a file (InputError when it cannot be opened) with ParseMeasurementText.
std::vector<RawRow> ReadRawCsv(const std::string& path);

// The rows of several files, in the order given.
std::vector<RawRow> ReadRawCsvFiles(const std::vector<std::string>& paths);

}  // namespace paraplan
