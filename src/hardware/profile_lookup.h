// Lookups into a calibration profile for the cost model: measured GEMM throughput at a shape
// (interpolated between measured shapes) and the α–β fit of a collective on a tier.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "hardware/collective_cost.h"
#include "hardware/profile.h"

namespace paraplan {

// Achieved TFLOP/s of an m×n×k GEMM in `dtype` (bf16 | fp16 | fp8). An exact measured shape
// returns its value; otherwise inverse-distance weighting (power 2) over the nearest measured
// shapes (up to 4) in (ln m, ln n, ln k) space. *found (when not null) is false, and the result
// 0, when the profile has no point for the dtype or a dimension is < 1.
double ProfileGemmTflops(const CalibrationProfile& profile, std::string_view dtype, int64_t m,
                         int64_t n, int64_t k, bool* found);

// Achieved TFLOP/s of causal attention (FLOPs: 4·seq²·heads·head_dim/2 forward, 2.5× that
// backward) for one sequence of `seq` tokens with `heads` heads of `head_dim` on one GPU, from the
// profile's attention table: exact point or inverse-distance weighting (power 2, 4 nearest) in
// (ln seq, ln heads, ln head_dim). *found is false, and the result 0, when no point has a rate for
// that direction.
double ProfileAttentionTflops(const CalibrationProfile& profile, int64_t seq, int64_t heads,
                              int64_t head_dim, bool backward, bool* found);

// A copy of `profile` whose GEMM and attention lookups are each computed once and then answered
// from a memo (thread-safe; the same numbers, bit for bit). The interpolation scans every
// measured point, and a search asks for the same few shapes millions of times: StepModel gives
// its own cluster such a copy. Nobody may change the copy (it is handed out const).
std::shared_ptr<const CalibrationProfile> WithLookupMemo(const CalibrationProfile& profile);

// The fit for `op` (all_reduce | all_gather | reduce_scatter | all_to_all | send_recv) on `tier`
// (a network tier name such as nvlink or scaleout). Returns false, leaving *out alone, when the
// profile has none.
bool ProfileCollective(const CalibrationProfile& profile, const std::string& op,
                       const std::string& tier, CollectiveFit* out);

// Predicted time of a collective from its fit: latency_us + bus_bytes / bandwidth, in µs.
// bus_bytes is the payload times the nccl-tests bus factor for the op and rank count.
double CollectiveTimeUs(const CollectiveFit& fit, double bus_bytes);

// Time in µs of one collective of `bytes` (nccl-tests' size) over `ranks` ranks on the tier the
// fit was measured on. Inside the measured sizes (in bus bytes) it is the measured curve,
// interpolated linearly in (ln bus bytes, ln time) between neighbouring sizes; outside them, or
// without a curve, the α–β line. The measured latency is the whole collective's at fit.ranks: it
// scales to `ranks` by the collective's latency steps (LatencySteps(op, ranks) /
// LatencySteps(op, fit.ranks)); a fit without a rank count (fit.ranks = 0, older profiles) is
// taken as measured at `ranks`. The bus bytes use the bus factor at `ranks` (nccl-tests: bus
// bandwidth does not depend on the rank count).
double MeasuredCollectiveUs(const CollectiveFit& fit, CollectiveOp op, double bytes, int64_t ranks);

// BusFactor (hardware/collective_cost.h, nccl-tests doc/PERFORMANCE.md) of the collective named
// `op`, as a profile fit reads it. Throws InputError on an unknown op. ranks < 2 gives 1 (the
// cost model's BusFactor gives 0: nothing moves); fits skip single-rank rows before asking.
double BusBandwidthFactor(const std::string& op, int ranks);

}  // namespace paraplan
