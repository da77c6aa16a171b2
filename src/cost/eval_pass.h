// A forward-only evaluation pass inside a timed step. Some published step times include an
// evaluation between every two training steps (MLPerf Training v6.0's DeepSeek-V3 submissions run
// `VAL_CHECK_INTERVAL=1`: docs/validation/README.md, "MLPerf Training breadth, second pass"). The
// pass runs the training plan's pipeline forward only, with no recompute, backward, gradient
// reduction or optimizer step (Megatron-Core's `forward_backward_func(forward_only=True)`, the
// same schedule as training: Narayanan et al. 2021, §2.2 for the interleaved order).
#pragma once

#include <cstdint>
#include <vector>

namespace paraplan {

// Micro-batches per data-parallel rank for `sequences` evaluated sequences: the evaluation's
// global batch split over `dp` replicas of `micro_batch` sequences each, rounded up (a replica
// runs whole micro-batches); 0 when nothing is evaluated.
int64_t EvalMicroBatches(int64_t sequences, int64_t dp, int64_t micro_batch);

// Seconds of a forward-only pass of `micro_batches` micro-batches through pipeline stages whose
// forward seconds per micro-batch (all of a stage's chunks) are `stage_forward_s`, each stage
// split into `vpp` chunks visited in the interleaved order. F = max stage, S = their sum, c =
// F / vpp one chunk of the slowest stage, m micro-batches, p stages:
//   m <= p: S + (m - 1) c      (one micro-batch crosses every chunk; the others follow one chunk
//                               behind it, no stage is ever busy when the next one arrives)
//   m >= p: m F + (S - F) / vpp (the slowest stage runs all its work back to back, after the fill
//                               through the first chunk of the stages before it)
// Both give p F + (p - 1) c at m = p for balanced stages; with vpp = 1 both are GPipe's forward,
// S + (m - 1) F. 0 for no micro-batches or no stages.
double ForwardOnlyPipelineSeconds(const std::vector<double>& stage_forward_s, int64_t vpp,
                                  int64_t micro_batches);

}  // namespace paraplan
