#include "sim/pipeline_layout.h"

#include <algorithm>
#include <string>

#include "core/error.h"

namespace paraplan {
namespace {

void CheckCost(const ChunkCost& c, const std::string& key) {
  RequireInput(
      c.forward >= 0 && c.backward_input >= 0 && c.backward_weight >= 0 && c.recompute >= 0, key,
      "times must be >= 0");
}

}  // namespace

PipelineLayout::PipelineLayout(const PipelineInput& input)
    : pp_(input.pp),
      chunks_(ChunksPerStage(input.schedule, input.vpp)),
      micro_batches_(input.micro_batches),
      dual_(input.schedule == Schedule::kDualPipe) {
  RequireInput(static_cast<int64_t>(input.stages.size()) == pp_, "stages",
               "expected " + std::to_string(pp_) + " stages (pp), got " +
                   std::to_string(input.stages.size()));
  RequireInput(input.p2p >= 0, "p2p", "must be >= 0, got " + std::to_string(input.p2p));
  RequireInput(input.hops.empty() || static_cast<int64_t>(input.hops.size()) == pp_, "hops",
               "expected 0 or " + std::to_string(pp_) + " hops (pp), got " +
                   std::to_string(input.hops.size()));
  for (Nanos hop : input.hops)
    RequireInput(hop >= 0, "hops", "must be >= 0, got " + std::to_string(hop));
  // DualPipe accepts one chunk per stage (stage s = model stage s; rank r also runs model
  // stage pp - 1 - r) or two (stage r already describes both of rank r's chunks).
  const bool mirror = dual_ && !input.stages.empty() && input.stages[0].chunks.size() == 1;
  const int64_t given = mirror ? 1 : chunks_;
  costs_.resize(static_cast<size_t>(pp_ * chunks_));
  dp_.resize(static_cast<size_t>(pp_));
  for (int64_t s = 0; s < pp_; ++s) {
    const StageCost& st = input.stages[s];
    const std::string key = "stages[" + std::to_string(s) + "]";
    RequireInput(
        static_cast<int64_t>(st.chunks.size()) == given, key + ".chunks",
        "expected " + std::to_string(given) + " chunks, got " + std::to_string(st.chunks.size()));
    RequireInput(st.dp_grad_comm >= 0 && st.param_gather >= 0 && st.optimizer >= 0, key,
                 "times must be >= 0");
    RequireInput(st.dp_buckets >= 1, key + ".dp_buckets", "must be >= 1");
    for (int64_t c = 0; c < given; ++c) CheckCost(st.chunks[c], key + ".chunks");
    RequireInput(st.dp_sm_share >= 0 && st.dp_sm_share <= 1, key + ".dp_sm_share",
                 "must be in [0, 1]");
    RequireInput(st.dp_nic_rate_fwd >= 0 && st.dp_nic_rate_fwd <= 1 && st.dp_nic_rate_bwd >= 0 &&
                     st.dp_nic_rate_bwd <= 1,
                 key + ".dp_nic_rate", "must be in [0, 1]");
    StageDpWork dp{st.dp_grad_comm, st.dp_buckets,      st.param_gather,   st.optimizer,
                   st.dp_sm_share,  st.dp_nic_rate_fwd, st.dp_nic_rate_bwd};
    if (mirror) {
      const StageCost& other = input.stages[pp_ - 1 - s];
      costs_[s * 2] = st.chunks[0];
      costs_[s * 2 + 1] = other.chunks.empty() ? ChunkCost{} : other.chunks[0];
      dp = StageDpWork{st.dp_grad_comm + other.dp_grad_comm,
                       st.dp_buckets + other.dp_buckets,
                       st.param_gather + other.param_gather,
                       st.optimizer + other.optimizer,
                       std::max(st.dp_sm_share, other.dp_sm_share),
                       std::min(st.dp_nic_rate_fwd, other.dp_nic_rate_fwd),
                       std::min(st.dp_nic_rate_bwd, other.dp_nic_rate_bwd)};
    } else {
      for (int64_t c = 0; c < chunks_; ++c) costs_[s * chunks_ + c] = st.chunks[c];
    }
    dp_[s] = dp;
  }
}

std::vector<bool> PipelineLayout::HasRecompute() const {
  std::vector<bool> has(costs_.size());
  for (size_t i = 0; i < costs_.size(); ++i) has[i] = costs_[i].recompute > 0;
  return has;
}

}  // namespace paraplan
