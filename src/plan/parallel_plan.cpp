#include "plan/parallel_plan.h"

#include <algorithm>

namespace paraplan {

double DpBucketBytes(const ParallelPlan& plan) {
  if (plan.dp_bucket_MB > 0) return plan.dp_bucket_MB * 1e6;
  const double elements = std::max(40e6, 1e6 * static_cast<double>(plan.dp * plan.cp));
  double bytes_per_element = 4.0;
  if (plan.dp_comm_dtype == CommDtype::kBf16) bytes_per_element = 2.0;
  if (plan.dp_comm_dtype == CommDtype::kFp8) bytes_per_element = 1.0;
  return elements * bytes_per_element;
}

const char* ToString(Recompute v) {
  switch (v) {
    case Recompute::kNone:
      return "none";
    case Recompute::kSelective:
      return "selective";
    case Recompute::kFull:
      return "full";
    case Recompute::kOp:
      return "op";
  }
  return "?";
}

const char* ToString(Precision v) {
  switch (v) {
    case Precision::kBf16:
      return "bf16";
    case Precision::kFp16:
      return "fp16";
    case Precision::kFp8:
      return "fp8";
  }
  return "?";
}

const char* ToString(Schedule v) {
  switch (v) {
    case Schedule::kGpipe:
      return "gpipe";
    case Schedule::k1F1B:
      return "1f1b";
    case Schedule::kInterleaved:
      return "interleaved";
    case Schedule::kZeroBubble:
      return "zero-bubble";
    case Schedule::kDualPipe:
      return "dualpipe";
  }
  return "?";
}

const char* ToString(MoeRouting v) {
  return v == MoeRouting::kDrop ? "drop" : "dropless";
}

const char* ToString(CommDtype v) {
  switch (v) {
    case CommDtype::kFp32:
      return "fp32";
    case CommDtype::kBf16:
      return "bf16";
    case CommDtype::kFp8:
      return "fp8";
  }
  return "?";
}

const char* ToString(ParallelDim v) {
  switch (v) {
    case ParallelDim::kTp:
      return "tp";
    case ParallelDim::kCp:
      return "cp";
    case ParallelDim::kEp:
      return "ep";
    case ParallelDim::kDp:
      return "dp";
    case ParallelDim::kPp:
      return "pp";
  }
  return "?";
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
