#include "cli/rerun_context.h"

namespace paraplan {

PlanReportContext RerunContext(const InputOptions& options, const StepModel& model) {
  PlanReportContext rc;
  rc.model_name = model.model().name;
  rc.cluster_name = model.cluster().name;
  rc.gpu_name = model.cluster().gpu.name;
  rc.gpus = model.gpus();
  rc.model_layers = model.model().layers;
  rc.model_seq_len = model.model().seq_len;
  rc.moe = model.model().IsMoe();
  rc.model_arg = options.model;
  rc.cluster_arg = options.cluster;
  rc.sets = options.sets;
  return rc;
}

}  // namespace paraplan
