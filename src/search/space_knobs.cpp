#include "search/space_knobs.h"

#include <array>

namespace paraplan {

const std::vector<Knob>& PlanKnobsOf(SpaceKnob knob) {
  static const std::array<std::vector<Knob>, kSpaceKnobs> kKnobsOf = {{
      {Knob::kMicroBatch},            // kMicroBatch
      {Knob::kSchedule, Knob::kVpp},  // kScheduleVpp
      {Knob::kRecompute},             // kRecompute
      {Knob::kZero},                  // kZero
      {Knob::kSequenceParallel},      // kSequenceParallel
      {Knob::kOverlapTpComm},         // kOverlapTp
      {Knob::kOverlapEpComm},         // kOverlapEp
      {Knob::kPrecision},             // kPrecision
      {Knob::kSeqLen},                // kSeqLen
      {Knob::kMoeRouting},            // kMoeRouting
      {Knob::kMoeCapacityFactor},     // kMoeCapacity
      {Knob::kMoeImbalance},          // kMoeImbalance
      {Knob::kDpCommDtype},           // kDpCommDtype
      {Knob::kDpBucketMB},            // kDpBucket
      {Knob::kPlacement},             // kPlacement
      {Knob::kOverlapGradReduce},     // kOverlapGrad
      {Knob::kOverlapParamGather},    // kOverlapParam
      {Knob::kOverlapPpComm},         // kOverlapPp
      {Knob::kZero3KeepGathered},     // kZero3Keep
      {Knob::kGradReduceInFp32},      // kGradReduceFp32
  }};
  static_assert(kSpaceKnobs == 20, "a new space knob needs its plan knobs above");
  return kKnobsOf[static_cast<size_t>(knob)];
}

bool SpaceKnobReadBy(SpaceKnob knob, unsigned readers) {
  for (Knob k : PlanKnobsOf(knob)) {
    if (KnobReadBy(k, readers)) return true;
  }
  return false;
}

}  // namespace paraplan
