#include "plan/parallel_plan.h"

namespace paraplan {

const char* ToString(Recompute v) {
  switch (v) {
    case Recompute::kNone:
      return "none";
    case Recompute::kSelective:
      return "selective";
    case Recompute::kFull:
      return "full";
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
