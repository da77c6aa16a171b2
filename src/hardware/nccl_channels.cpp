#include "hardware/nccl_channels.h"

#include <algorithm>

namespace paraplan {
namespace {

int64_t Pow2Up(int64_t v) {
  int64_t p = 1;
  while (p < v) p *= 2;
  return p;
}

int OutermostTier(const GroupPlacement& group, const Cluster& cluster) {
  if (cluster.network.empty()) return -1;
  return std::clamp(group.tier, 0, static_cast<int>(cluster.network.size()) - 1);
}

}  // namespace

int64_t NcclRingChannels(const GroupPlacement& group, const Cluster& cluster) {
  const int tier = OutermostTier(group, cluster);
  if (group.size < 2 || tier < 0) return 0;
  return cluster.network[static_cast<size_t>(tier)].nccl_channels;
}

int64_t NcclKernelCtas(CollectiveOp op, const GroupPlacement& group, const Cluster& cluster,
                       bool nvls) {
  const int64_t ring = NcclRingChannels(group, cluster);
  if (ring == 0) return 0;
  switch (op) {
    case CollectiveOp::kAllReduce:
    case CollectiveOp::kAllGather:
    case CollectiveOp::kReduceScatter:
      return nvls ? kNcclNvlsChannels : ring;
    case CollectiveOp::kAllToAll:
      return Pow2Up(ring);
    case CollectiveOp::kSendRecv:
      return OutermostTier(group, cluster) >= 1 ? kNcclNetPeerChannels : Pow2Up(ring);
  }
  return ring;
}

}  // namespace paraplan
