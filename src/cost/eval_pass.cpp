#include "cost/eval_pass.h"

#include <algorithm>
#include <numeric>

namespace paraplan {

int64_t EvalMicroBatches(int64_t sequences, int64_t dp, int64_t micro_batch) {
  if (sequences <= 0) return 0;
  const int64_t per_pass = std::max<int64_t>(dp, 1) * std::max<int64_t>(micro_batch, 1);
  return (sequences + per_pass - 1) / per_pass;
}

double ForwardOnlyPipelineSeconds(const std::vector<double>& stage_forward_s, int64_t vpp,
                                  int64_t micro_batches) {
  if (micro_batches <= 0 || stage_forward_s.empty()) return 0;
  const double chunks = static_cast<double>(std::max<int64_t>(vpp, 1));
  const double slowest = *std::max_element(stage_forward_s.begin(), stage_forward_s.end());
  const double sum = std::accumulate(stage_forward_s.begin(), stage_forward_s.end(), 0.0);
  const auto stages = static_cast<int64_t>(stage_forward_s.size());
  const double m = static_cast<double>(micro_batches);
  if (micro_batches <= stages) return sum + (m - 1) * slowest / chunks;
  return m * slowest + (sum - slowest) / chunks;
}

}  // namespace paraplan
