#include "plan/parallel_plan.h"

#include <algorithm>

namespace paraplan {

CommDtype DpGradCommDtype(const ParallelPlan& plan) {
  // Scaling's fp32 copy of a bf16 bucket (kernel_recipe.h, dp_reduce_fp32_copy) is wider than
  // the buffer; Megatron-Core reduces the buffer in place.
  if (!plan.grad_reduce_in_fp32 && plan.dp_comm_dtype == CommDtype::kFp32 &&
      !plan.kernels.dp_reduce_fp32_copy) {
    return CommDtype::kBf16;
  }
  return plan.dp_comm_dtype;
}

double DpBucketBytes(const ParallelPlan& plan) {
  if (plan.dp_bucket_MB > 0) return plan.dp_bucket_MB * 1e6;
  const double elements = std::max(40e6, 1e6 * static_cast<double>(plan.dp * plan.cp));
  const CommDtype dtype = DpGradCommDtype(plan);
  double bytes_per_element = 4.0;
  if (dtype == CommDtype::kBf16) bytes_per_element = 2.0;
  if (dtype == CommDtype::kFp8) bytes_per_element = 1.0;
  return elements * bytes_per_element;
}

const NameTable<Recompute>& RecomputeNames() {
  static const NameTable<Recompute> kTable = {{"none", Recompute::kNone},
                                              {"selective", Recompute::kSelective},
                                              {"full", Recompute::kFull},
                                              {"op", Recompute::kOp}};
  return kTable;
}

const NameTable<Precision>& PrecisionNames() {
  static const NameTable<Precision> kTable = {
      {"bf16", Precision::kBf16}, {"fp16", Precision::kFp16}, {"fp8", Precision::kFp8}};
  return kTable;
}

const NameTable<Schedule>& ScheduleNames() {
  static const NameTable<Schedule> kTable = {{"gpipe", Schedule::kGpipe},
                                             {"1f1b", Schedule::k1F1B},
                                             {"interleaved", Schedule::kInterleaved},
                                             {"zero-bubble", Schedule::kZeroBubble},
                                             {"dualpipe", Schedule::kDualPipe}};
  return kTable;
}

const NameTable<MoeRouting>& MoeRoutingNames() {
  static const NameTable<MoeRouting> kTable = {{"dropless", MoeRouting::kDropless},
                                               {"drop", MoeRouting::kDrop}};
  return kTable;
}

const NameTable<CommDtype>& CommDtypeNames() {
  static const NameTable<CommDtype> kTable = {
      {"fp32", CommDtype::kFp32}, {"bf16", CommDtype::kBf16}, {"fp8", CommDtype::kFp8}};
  return kTable;
}

const NameTable<ParallelDim>& ParallelDimNames() {
  static const NameTable<ParallelDim> kTable = {{"tp", ParallelDim::kTp},
                                                {"cp", ParallelDim::kCp},
                                                {"ep", ParallelDim::kEp},
                                                {"dp", ParallelDim::kDp},
                                                {"pp", ParallelDim::kPp}};
  return kTable;
}

const char* ToString(Recompute v) {
  return NameOf(RecomputeNames(), v);
}
const char* ToString(Precision v) {
  return NameOf(PrecisionNames(), v);
}
const char* ToString(Schedule v) {
  return NameOf(ScheduleNames(), v);
}
const char* ToString(MoeRouting v) {
  return NameOf(MoeRoutingNames(), v);
}
const char* ToString(CommDtype v) {
  return NameOf(CommDtypeNames(), v);
}
const char* ToString(ParallelDim v) {
  return NameOf(ParallelDimNames(), v);
}

std::string PlacementToString(const std::array<ParallelDim, 5>& placement) {
  std::string out;
  for (ParallelDim d : placement) {
    if (!out.empty()) out += '-';
    out += ToString(d);
  }
  return out;
}

}  // namespace paraplan
