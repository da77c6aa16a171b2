// One named row of a layer's op table (cost/layer_cost.h), for the kernel-switch tests that price
// one op under two switches.
#pragma once

#include <catch2/catch.hpp>
#include <cstring>
#include <vector>

#include "cost/layer_cost.h"

namespace paraplan::test {

// Layer 0's row `name` for plan `p` on cluster `c`; fails the test when the table has none.
inline LayerOpRow LayerOpNamed(const CostGraph& d, const ParallelPlan& p, const Cluster& c,
                               const char* name) {
  std::vector<LayerOpRow> rows;
  ComputeLayerCost(d, 0, MakePlanShape(d, p, c), c, ResolveNetworkLinks(c), &rows);
  for (const LayerOpRow& r : rows) {
    if (std::strcmp(r.name, name) == 0) return r;
  }
  FAIL("no row " << name);
  return {};
}

}  // namespace paraplan::test
