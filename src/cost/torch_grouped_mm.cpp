#include "cost/torch_grouped_mm.h"

#include "core/units.h"

namespace paraplan {

bool TorchGroupedMmCalls(const KernelRecipe& k) {
  return (k.Pytorch() && k.moe_grouped_gemm) || k.moe_torch_grouped_mm;
}

bool TorchGroupedMm(const PlanShape& shape) {
  return TorchGroupedMmCalls(shape.kernels) && shape.precision == Precision::kBf16;
}

double TorchGroupedMmFlops(const Cluster& cluster) {
  for (const MeasuredRate& m : cluster.gpu.measured) {
    if (m.field == kTorchGroupedMmField) return TflopsToFlops(m.rate);
  }
  return 0.0;
}

double ExpertGemmCeilingFlops(const PlanShape& shape, const Cluster& cluster) {
  return TorchGroupedMm(shape) ? TorchGroupedMmFlops(cluster) : 0.0;
}

}  // namespace paraplan
