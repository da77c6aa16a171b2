// hardware/hgx-h200-4gpu.yaml: the 4-GPU H200 SXM nodes of the Kempner cluster, where the
// KempnerForge runs (O02-O31) and the handbook's one-GPU benchmark (HG01) ran
// (docs/validation/README.md). The part is dgx-h200's, so the efficiency fit and the held-out
// grouping treat these rows as H200; only the node differs.
#include <catch2/catch.hpp>

#include "config/resolve.h"
#include "config/same_part.h"

using namespace paraplan;

TEST_CASE("hgx-h200-4gpu is dgx-h200's part in a four-GPU NVLink mesh", "[config]") {
  const Cluster mesh = LoadCluster("hgx-h200-4gpu");
  const Cluster dgx = LoadCluster("dgx-h200");
  testing::CheckSamePart(mesh, dgx, "H200");
  REQUIRE(mesh.network.size() == 2);
  // Four GPUs joined pairwise, no NVSwitch: no NVLink SHARP, and the tier's per-GPU rate is the
  // three peers' links together (a GPU pair alone gets a third: the O03/O04/O07 overrides).
  CHECK(mesh.network[0].span == 4);
  CHECK_FALSE(mesh.network[0].nvls);
  CHECK(mesh.network[0].bandwidth_GBps == dgx.network[0].bandwidth_GBps);
  // Four ConnectX-7 NDR (400 Gb/s) per 4-GPU node (KempnerForge scripts/slurm/multinode.sh @
  // 5666d0d), one per GPU, on a fabric the Kempner handbook calls non-blocking for kempner_h200.
  CHECK(mesh.network[1].bandwidth_GBps == 50);
  CHECK(mesh.network[1].oversubscription == 1.0);
  CHECK(mesh.power.gpus_per_node == 4);
}
