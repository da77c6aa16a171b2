#include "plan/plan_rules.h"

#include <catch2/catch.hpp>

#include "../cost/test_specs.h"
#include "core/error.h"
#include "plan/plan_resolve.h"

using namespace paraplan;

namespace {

ParallelPlan Good() {
  ParallelPlan p;
  p.tp = 8;
  p.pp = 4;
  p.dp = 2;
  p.global_batch = 64;
  return p;
}

// The single violation for `p`, which must exist and mention `fragment`.
void ExpectViolation(const ModelSpec& m, const Cluster& c, int64_t gpus, const ParallelPlan& p,
                     const std::string& fragment) {
  const auto all = PlanViolations(m, c, gpus, p);
  REQUIRE_FALSE(all.empty());
  bool found = false;
  for (const auto& v : all) found = found || v.find(fragment) != std::string::npos;
  INFO(all.front());
  CHECK(found);
  CHECK(PlanViolations(m, c, gpus, p, true).size() == 1);
}

}  // namespace

TEST_CASE("a valid plan has no violations", "[plan]") {
  CHECK(PlanViolations(test::Llama3_70B(), test::DgxH100(), 64, Good()).empty());
}

TEST_CASE("each plan rule is reported in words", "[plan]") {
  const ModelSpec m = test::Llama3_70B();
  const Cluster c = test::DgxH100();
  ParallelPlan p = Good();
  SECTION("gpu count") {
    ExpectViolation(m, c, 128, p, "must equal the GPU count 128");
  }
  SECTION("tp divides heads") {
    p.tp = 3;
    p.dp = 1;
    ExpectViolation(m, c, 12, p, "tp=3 does not divide heads=64");
  }
  SECTION("kv heads") {
    ModelSpec odd = m;
    odd.kv_heads = 6;
    odd.heads = 48;
    p.tp = 4;
    p.dp = 4;
    ExpectViolation(odd, c, 64, p, "kv_heads=6");
  }
  SECTION("cp divides the sequence") {
    p.cp = 3;
    p.dp = 1;
    p.global_batch = 8;
    ExpectViolation(m, c, 96, p, "2*cp");
  }
  SECTION("pp <= layers") {
    ModelSpec small = m;
    small.layers = 2;
    ExpectViolation(small, c, 64, p, "exceeds layers=2");
  }
  SECTION("pp_layers sum") {
    p.pp_layers = {20, 20, 20, 19};
    ExpectViolation(m, c, 64, p, "sums to 79");
  }
  SECTION("pp_layers count") {
    p.pp_layers = {40, 40};
    ExpectViolation(m, c, 64, p, "needs one per stage");
  }
  SECTION("global batch divisible") {
    p.global_batch = 63;
    ExpectViolation(m, c, 64, p, "divisible by micro_batch*dp");
  }
  SECTION("vpp needs interleaved") {
    p.vpp = 2;
    ExpectViolation(m, c, 64, p, "needs schedule=interleaved");
  }
  SECTION("an automatic layout needs a layer per inner virtual stage") {
    p.vpp = 21;
    p.schedule = Schedule::kInterleaved;
    ExpectViolation(m, c, 64, p, "pp*vpp=84 virtual stages need at least 82 layers");
  }
  SECTION("uneven virtual stages are valid (balanced automatically)") {
    p.vpp = 3;  // 80 layers on 12 virtual stages
    p.schedule = Schedule::kInterleaved;
    CHECK(PlanViolations(m, c, 64, p).empty());
  }
  SECTION("fp8 needs fp8 hardware") {
    p.precision = Precision::kFp8;
    ExpectViolation(m, test::DgxA100(), 64, p, "fp8");
  }
  SECTION("dualpipe needs even pp and enough micro-batches") {
    p.schedule = Schedule::kDualPipe;
    p.global_batch = 8;
    ExpectViolation(m, c, 64, p, "micro-batches >= 2*pp");
  }
  SECTION("zero range") {
    p.zero = 4;
    ExpectViolation(m, c, 64, p, "zero must be 0, 1, 2 or 3");
  }
  SECTION("ep without experts") {
    p.ep = 2;
    ExpectViolation(m, c, 64, p, "no experts");
  }
  SECTION("placement twice") {
    p.placement[1] = ParallelDim::kTp;
    ExpectViolation(m, c, 64, p, "twice");
  }
}

TEST_CASE("expert rules follow Megatron's expert-data-parallel size", "[plan]") {
  const ModelSpec m = test::Mixtral8x7B();
  const Cluster c = test::DgxH100();
  ParallelPlan p;
  p.tp = 2;
  p.dp = 4;
  p.ep = 8;
  p.global_batch = 32;
  CHECK(PlanViolations(m, c, 8, p).empty());
  p.ep = 3;
  ExpectViolation(m, c, 8, p, "does not divide experts=8");
  p.ep = 4;
  p.etp = 4;
  ExpectViolation(m, c, 8, p, "must divide tp*cp*dp=8");
}

TEST_CASE("first_only stops at the first violation", "[plan]") {
  ParallelPlan p = Good();
  p.tp = 3;
  p.global_batch = 7;
  p.zero = 9;
  const auto all = PlanViolations(test::Llama3_70B(), test::DgxH100(), 64, p);
  CHECK(all.size() >= 2);
  CHECK(PlanViolations(test::Llama3_70B(), test::DgxH100(), 64, p, true).size() == 1);
}

TEST_CASE("ResolvePlan takes single values and derives dp", "[plan]") {
  PlanConstraints c;
  c.tp = std::vector<int64_t>{8};
  c.pp = std::vector<int64_t>{2};
  c.global_batch = std::vector<int64_t>{64};
  c.recompute = std::vector<Recompute>{Recompute::kFull};
  const ParallelPlan p = ResolvePlan(c, 64, test::Llama3_70B());
  CHECK(p.dp == 4);
  CHECK(p.recompute == Recompute::kFull);
  CHECK(p.schedule == Schedule::k1F1B);
  c.vpp = std::vector<int64_t>{2};
  CHECK(ResolvePlan(c, 64, test::Llama3_70B()).schedule == Schedule::kInterleaved);
}

TEST_CASE("ResolvePlan rejects lists, a missing global batch and an indivisible GPU count",
          "[plan]") {
  PlanConstraints c;
  c.global_batch = std::vector<int64_t>{64};
  c.tp = std::vector<int64_t>{4, 8};
  CHECK_THROWS_WITH(ResolvePlan(c, 64, test::Llama3_70B()),
                    Catch::Contains("simulate needs one value for tp, got 4|8"));
  c.tp = std::vector<int64_t>{3};
  CHECK_THROWS_WITH(ResolvePlan(c, 64, test::Llama3_70B()), Catch::Contains("cannot derive dp"));
  PlanConstraints none;
  CHECK_THROWS_AS(ResolvePlan(none, 64, test::Llama3_70B()), InputError);
}
