// One function per harness mode; each appends its rows to the writer and skips rows it already
// has (resume). They throw HarnessError on a failed CUDA/cuBLAS/NCCL call.
#pragma once

#include "csv_writer.h"
#include "options.h"

namespace paraplan::calibrate {

void RunGemmMode(const HarnessOptions& options, CsvWriter& writer);
// The naive kernel of mode_attention.cu (op naive_fwd_causal).
void RunAttentionMode(const HarnessOptions& options, CsvWriter& writer);
// cuDNN's fused flash attention, forward and backward (built with PARAPLAN_WITH_CUDNN only).
void RunCudnnAttentionMode(const HarnessOptions& options, CsvWriter& writer);
void RunMemoryMode(const HarnessOptions& options, CsvWriter& writer);
// Our kernels of the element-wise ops, loss, Adam and grad-norm (mode_ops.cu); throws
// HarnessError when a kernel disagrees with its host reference.
void RunOpsMode(const HarnessOptions& options, CsvWriter& writer);
// argc/argv are for MPI_Init when the harness is built with MPI.
void RunNcclMode(const HarnessOptions& options, CsvWriter& writer, int* argc, char*** argv);

}  // namespace paraplan::calibrate
