// The byte formulas stage_memory.h names for the stage memory inputs and the search's memory
// bound (search/plan_bounds.cpp), against hand arithmetic. The stage memory itself is tested
// through the plan evaluation (plan_evaluation_test.cpp) and the memory model.
#include "cost/stage_memory.h"

#include <catch2/catch.hpp>

#include "cost/stage_key.h"

using namespace paraplan;

TEST_CASE("Stage memory's named byte formulas", "[cost][memory]") {
  ParallelPlan p;
  p.tp = 4;
  p.cp = 2;
  p.dp = 8;
  p.ep = 8;
  p.etp = 1;
  CHECK(DenseShards(p) == 16.0);
  CHECK(ExpertShards(p) == 8.0);  // 4 * 2 * 8 / (8 * 1)
  p.ep = 128;
  CHECK(ExpertShards(p) == 1.0);  // at least one

  // fp32 master + two fp32 moments: 12 bytes per parameter, a quarter of it offloaded.
  p.recipe.optimizer_offload = 0.25;
  CHECK(GpuOptimizerStateBytes(p) == Approx(9.0));

  CostGraph d;
  d.hidden = 1024;
  d.vocab = 32000;
  d.embedding_params = d.vocab * d.hidden;
  PlanShape s;
  s.tokens = 2048;
  s.tp = 1;
  CHECK(TpGatherBufferBytes(d, s) == 0.0);
  s.tp = 4;
  CHECK(TpGatherBufferBytes(d, s) == 2 * 2.0 * 2048 * 1024);
  // bf16 logits, fp32 logits and their fp32 gradient over the rank's vocabulary share.
  CHECK(LogitsBytes(d, s) == 2048 * 8000 * 10.0);
  // A fused loss (TransformerEngine's parallel_cross_entropy) keeps the bf16 logits only.
  s.recipe.cross_entropy_fusion = true;
  CHECK(LogitsBytes(d, s) == 2048 * 8000 * 2.0);
  CHECK(EmbedParamsLocal(d, p) == 32000.0 * 1024 / 4);
}
