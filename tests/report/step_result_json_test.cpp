#include "report/step_result_json.h"

#include <catch2/catch.hpp>

#include "core/units.h"

using namespace paraplan;

TEST_CASE("StepResultToJson follows DESIGN.md's JSON contract", "[cost]") {
  StepResult r;
  r.plan.tp = 8;
  r.plan.pp = 2;
  r.plan.dp = 4;
  r.plan.global_batch = 64;
  r.plan.recompute = Recompute::kSelective;
  r.plan.schedule = Schedule::kInterleaved;
  r.fits = true;
  r.step_time_s = 1.5;
  r.tokens_per_s_per_gpu = 1000;
  r.mfu = 0.4;
  r.hfu = 0.45;
  r.peak_memory_bytes = 2 * kGiB;
  StageMemory m;
  m.stage = 1;
  m.weights_bytes = kGiB;
  m.activations_bytes = kGiB;
  r.memory.push_back(m);
  r.time.compute_s = 1.0;
  r.time.bubble_s = 0.5;
  const Json j = StepResultToJson(r);
  const std::string text = j.Dump(-1);
  // Key order is part of the contract: plan first with its knobs in DESIGN.md's order.
  CHECK(text.rfind("{\"plan\":{\"tp\":8,\"pp\":2,\"dp\":4,\"cp\":1,\"ep\":1,\"etp\":1,\"vpp\":1,"
                   "\"micro_batch\":1,\"global_batch\":64,\"recompute\":\"selective\","
                   "\"sequence_parallel\":false,\"zero\":0,\"precision\":\"bf16\","
                   "\"schedule\":\"interleaved\"",
                   0) == 0);
  CHECK(text.find("\"fits\":true,\"step_time_s\":1.5,\"tokens_per_s_per_gpu\":1000,\"mfu\":0.4,"
                  "\"hfu\":0.45,\"memory_GiB\":2") != std::string::npos);
  // DESIGN.md's keys first, then other_GiB by term and the EMA (issue 17).
  CHECK(text.find("\"per_stage\":[{\"stage\":1,\"weights_GiB\":1,\"grads_GiB\":0,"
                  "\"optimizer_GiB\":0,\"activations_GiB\":1,\"other_GiB\":0,\"total_GiB\":2,"
                  "\"logits_GiB\":0,\"buffers_GiB\":0,\"reserve_GiB\":0,"
                  "\"fragmentation_GiB\":0,\"ema_GiB\":0}]") != std::string::npos);
  CHECK(text.find("\"time\":{\"compute_s\":1,\"bubble_s\":0.5,\"tp_comm_s\":0,\"cp_comm_s\":0,"
                  "\"ep_comm_s\":0,\"pp_comm_s\":0,\"dp_comm_exposed_s\":0,\"optimizer_s\":0}") !=
        std::string::npos);
  REQUIRE(j.Find("plan") != nullptr);
  CHECK(j.Find("plan")->Find("placement") != nullptr);
}
