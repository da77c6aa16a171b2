// Turns raw harness measurements (calib/raw_csv.h) into a CalibrationProfile:
// α–β fits per collective and tier, GEMM and attention rate tables, achieved memory bandwidth.
#pragma once

#include <string>
#include <vector>

#include "calib/raw_csv.h"
#include "hardware/profile.h"

namespace paraplan {

// One collective fit with what it was fitted on, for the summary table.
struct CollectiveFitReport {
  std::string op;
  std::string tier;
  int ranks = 0;  // the rank count the kept fit was measured at (the largest in the data)
  CollectiveFit fit;
  std::vector<int64_t> bytes;        // payload sizes, in fit order
  std::vector<double> residual_pct;  // (measured − fitted) / fitted × 100, per size
  double max_abs_residual_pct = 0;
};

// One element-wise op's bandwidth (hardware/memory_ops.h) with what it was fitted on.
struct MemoryOpFitReport {
  std::string op;
  int rows = 0;               // rows of the op
  int used = 0;               // rows at least a quarter of its largest size
  int64_t largest_bytes = 0;  // its largest row
  double bandwidth_GBps = 0;  // the median of the used rows' bytes / time
  double copy_fraction = 0;   // bandwidth / the copy bandwidth (0 when no copy rows)
};

struct ProfileFitResult {
  CalibrationProfile profile;
  std::vector<CollectiveFitReport> collectives;  // sorted by (op, tier)
  std::vector<MemoryOpFitReport> memory_ops;     // sorted by op
  std::vector<std::string> warnings;             // rows skipped, conflicting metadata, ...
};

// Fits every kind of row found. Rows of the same shape are combined by their median time.
// GEMM: tflops = 2·m·n·k / time. Attention (time per sequence): fwd FLOPs = 4·seq²·heads·
// head_dim (halved when causal), bwd = 2.5 × fwd (FlashAttention-2 paper, Dao 2023, §4.1);
// rows of the naive harness kernel (op naive_*) are left out of the profile with a warning.
// Memory: the median bandwidth of copy rows at least a quarter of the largest size; the same, per
// op, for the element-wise ops of hardware/memory_ops.h (memory_ops; a row whose bytes differ from
// the op's bytes per element × m × n is warned about). Collectives: an
// α–β fit (calib/alpha_beta_fit.h) per (op, tier, ranks), keeping the largest rank count.
// Throws InputError "file:line: ..." for a row that cannot be interpreted (unknown nccl op,
// missing tier, zero GEMM dimension).
ProfileFitResult FitProfile(const std::vector<RawRow>& rows);

}  // namespace paraplan
