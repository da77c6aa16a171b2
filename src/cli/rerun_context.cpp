#include "cli/rerun_context.h"

namespace paraplan {

PlanReportContext RerunContext(const InputOptions& options, const LoadedInputs& in) {
  PlanReportContext rc;
  rc.model_name = in.model.name;
  rc.cluster_name = in.cluster.name;
  rc.gpu_name = in.cluster.gpu.name;
  rc.gpus = in.gpus;
  rc.model_layers = in.model.layers;
  rc.model_seq_len = in.model.seq_len;
  rc.moe = in.model.IsMoe();
  rc.model_arg = options.model;
  rc.cluster_arg = options.cluster;
  rc.sets = options.sets;
  return rc;
}

}  // namespace paraplan
