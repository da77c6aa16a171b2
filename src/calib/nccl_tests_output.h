// nccl-tests output (github.com/NVIDIA/nccl-tests: all_reduce_perf, all_gather_perf,
// reduce_scatter_perf, alltoall_perf, sendrecv_perf) read as collective measurement rows, so a
// sweep a user already has feeds `paraplan calibrate fit` and `calibrate check` like the
// harness's own CSV.
//
// What is read: the column header ("#  size  count  type  redop  root  time  algbw  busbw ...")
// names the out-of-place time column (µs); each data row gives bytes (nccl-tests' "size", the
// convention the cost model uses) and that time; "#  Rank  N ... on HOST device ..." lines give
// the rank count, the hosts (one host: the node's NVLink tier `nvlink`; more: `scaleout`) and the
// GPU name; "# Collective test starting: NAME" (or, for older versions that do not print it, the
// file name, e.g. all_reduce_perf_8gpu.txt) names the collective; "NCCL version X" (NCCL_DEBUG
// output) or nccl-tests' "nccl-library=NNNNN" the NCCL version. mpirun's "[1,0]<stdout>:"
// prefixes are dropped; NCCL INFO lines and the summary lines are skipped. Rows of size 0 carry no
// data and are skipped. Anything that looks like a data row but does not parse is an InputError
// "file:line: ...".
#pragma once

#include <string>
#include <vector>

#include "calib/raw_csv.h"

namespace paraplan {

// True when `text` has nccl-tests' column header line.
bool LooksLikeNcclTestsOutput(const std::string& text);

// The rows of one nccl-tests output (several tests concatenated are read one after the other);
// `origin` names it in errors and, when the text does not name its collective, supplies it.
std::vector<RawRow> ParseNcclTestsOutput(const std::string& text, const std::string& origin);

}  // namespace paraplan
