#include "cost/stage_balance.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <functional>
#include <vector>

#include "cost/cost_graph.h"
#include "test_specs.h"

using namespace paraplan;

namespace {

// The best bottleneck over every composition of `layers` into `stages` parts that obeys the
// empty-stage rule (exhaustive enumeration).
double Exhaustive(const BalanceInput& in, int64_t layers) {
  std::vector<int64_t> parts(static_cast<size_t>(in.stages), 0);
  double best = 1e300;
  std::function<void(int64_t, int64_t)> go = [&](int64_t v, int64_t left) {
    if (v == in.stages - 1) {
      parts[v] = left;
      bool ok = true;
      for (int64_t s = 1; s + 1 < in.stages; ++s) ok = ok && (parts[s] > 0 || s == in.mtp_stage);
      if (ok) best = std::min(best, SlowestStageWork(in, parts.data()));
      return;
    }
    for (int64_t n = 0; n <= left; ++n) {
      parts[v] = n;
      go(v + 1, left - n);
    }
  };
  go(0, layers);
  return best;
}

}  // namespace

TEST_CASE("balanced virtual stages match exhaustive enumeration", "[cost][layout]") {
  ModelSpec m = test::Mixtral8x7B();
  for (int64_t layers : {5, 7, 9}) {
    for (int64_t dense : {0, 2}) {
      m.layers = layers;
      m.moe->dense_layers = dense;  // mixes dense and MoE layers of different work
      const CostGraph d = BuildCostGraph(m);
      for (int64_t stages : {2, 3, 4, 6}) {
        if (stages > layers + 2) continue;
        BalanceInput in;
        in.dims = &d;
        in.layer_work = {1.0, 2.5, 1.0, 2.5};
        in.stages = stages;
        in.first_extra = 0.3;
        in.last_extra = 1.7;
        StageVector<int64_t> out;
        BalanceVirtualStages(in, out);
        int64_t sum = 0;
        for (int64_t v = 0; v < stages; ++v) sum += out[v];
        CHECK(sum == layers);
        CHECK(SlowestStageWork(in, out.data()) == Approx(Exhaustive(in, layers)).epsilon(1e-9));
      }
    }
  }
}

TEST_CASE("an embedding-only and a loss-only stage when stages = layers + 2", "[cost][layout]") {
  ModelSpec m = test::Llama3_70B();
  m.layers = 126;
  const CostGraph d = BuildCostGraph(m);
  BalanceInput in;
  in.dims = &d;
  in.layer_work = {1.0, 1.0, 1.0, 1.0};
  in.stages = 128;
  in.first_extra = 0.05;  // the embedding is memory-bound and small
  in.last_extra = 0.6;    // the output layer and loss, lighter than a layer
  StageVector<int64_t> out;
  BalanceVirtualStages(in, out);
  CHECK(out[0] == 0);
  CHECK(out[127] == 0);
  for (int64_t v = 1; v < 127; ++v) CHECK(out[v] == 1);
}
