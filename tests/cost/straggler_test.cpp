#include "cost/straggler.h"

#include <catch2/catch.hpp>

#include "cost/plan_evaluation.h"
#include "evaluate/step_model.h"
#include "test_specs.h"

using namespace paraplan;

// Reference quantiles: Python's statistics.NormalDist().inv_cdf (Wichura's AS 241, 1e-16).
TEST_CASE("the normal quantile matches a reference to Acklam's stated accuracy", "[cost]") {
  CHECK(InverseNormalCdf(0.5) == 0);
  CHECK(InverseNormalCdf(0.975) == Approx(1.959963984540054).epsilon(2e-9));
  CHECK(InverseNormalCdf(0.01) == Approx(-2.3263478740408408).epsilon(2e-9));
  CHECK(InverseNormalCdf(0.99) == Approx(2.3263478740408408).epsilon(2e-9));
  CHECK(InverseNormalCdf(0.3) == Approx(-0.5244005127080407).epsilon(2e-9));
  CHECK(InverseNormalCdf(1e-6) == Approx(-4.753424308822899).epsilon(2e-9));
}

// By hand: Blom's position (n - 0.375) / (n + 0.25), then its quantile.
TEST_CASE("the expected maximum of N normals follows Blom's approximation", "[cost]") {
  CHECK(ExpectedMaxStandardNormal(1) == 0);  // one rank: its own median, no wait
  CHECK(ExpectedMaxStandardNormal(2) == Approx(0.5894557978497785).epsilon(2e-9));  // 1.625/2.25
  CHECK(ExpectedMaxStandardNormal(8) == Approx(1.4342001596863794).epsilon(2e-9));  // 7.625/8.25
  // 1023.625 / 1024.25 = 0.99938980: 3.234
  CHECK(ExpectedMaxStandardNormal(1024) == Approx(3.234067712411284).epsilon(2e-9));
  // 16383.625 / 16384.25 = 0.99996185: 3.956
  CHECK(ExpectedMaxStandardNormal(16384) == Approx(3.9557566853248916).epsilon(2e-9));
  // Exact values (the integral of x n φ(x) Φ(x)^(n-1), numerically): 1.4236 at n = 8, 3.2414 at
  // n = 1,000, 3.9714 at n = 16,384; Blom is within 1 %.
  CHECK(ExpectedMaxStandardNormal(8) == Approx(1.4236).epsilon(0.01));
  CHECK(ExpectedMaxStandardNormal(1000) == Approx(3.2414).epsilon(0.01));
  CHECK(ExpectedMaxStandardNormal(16384) == Approx(3.9714).epsilon(0.01));
  // More ranks never wait less.
  for (int64_t n = 1; n < 5000; n += 7) {
    CHECK(ExpectedMaxStandardNormal(n + 1) > ExpectedMaxStandardNormal(n));
  }
}

TEST_CASE("the slowest rank's fraction is sigma times the expected maximum", "[cost]") {
  CHECK(SlowestRankFraction(0.0148, 1) == 0);
  CHECK(SlowestRankFraction(0, 1024) == 0);
  CHECK(SlowestRankFraction(0.02, 8) == Approx(0.02 * 1.4342001596863794));
  CHECK(SlowestRankFraction(0.0148, 16384) == Approx(0.0148 * 3.9557566853248916));
}

namespace {

ParallelPlan StragglerPlan(int64_t tp, int64_t pp, int64_t dp) {
  ParallelPlan p;
  p.tp = tp;
  p.pp = pp;
  p.dp = dp;
  p.global_batch = 16 * dp;
  p.sequence_parallel = tp > 1;
  return p;
}

void EvaluateStraggler(const Cluster& c, const ParallelPlan& p, PlanEvaluation* e) {
  const CostGraph d = BuildCostGraph(test::Llama3_70B());
  EvaluatePlanTime(d, c, ResolveNetworkLinks(c), p, e);
}

double Fraction(const Cluster& c, const ParallelPlan& p) {
  PlanEvaluation e;
  EvaluateStraggler(c, p, &e);
  return e.straggler_fraction;
}

}  // namespace

TEST_CASE("the step pays the slowest of all its GPUs on the pipeline's compute", "[cost]") {
  Cluster flat = test::DgxH100();
  Cluster spread = flat;
  spread.gpu.speed_sigma = 0.02;
  for (const ParallelPlan& p : {StragglerPlan(1, 1, 1), StragglerPlan(8, 1, 1),
                                StragglerPlan(4, 2, 16), StragglerPlan(8, 4, 512)}) {
    PlanEvaluation a, b;
    EvaluateStraggler(flat, p, &a);
    EvaluateStraggler(spread, p, &b);
    CHECK(a.straggler_s == 0);
    const StageComm& slow = b.comm[b.pipeline.slowest_stage];
    const double exposed = slow.tp_s + slow.cp_s + slow.ep_s + slow.zero3_s + slow.p2p_s;
    const double compute = b.pipeline.makespan_s - static_cast<double>(b.micro_batches) * exposed;
    CHECK(b.straggler_fraction == Approx(0.02 * ExpectedMaxStandardNormal(p.Gpus())));
    CHECK(b.straggler_s == Approx(b.straggler_fraction * compute));
    CHECK(b.step_s - a.step_s == Approx(b.straggler_s));
    if (p.Gpus() == 1) CHECK(b.step_s == a.step_s);
  }
  // 8 GPUs: +2.87 % of compute; 16,384: +7.91 %.
  CHECK(Fraction(spread, StragglerPlan(8, 1, 1)) == Approx(0.028684).epsilon(1e-4));
  CHECK(Fraction(spread, StragglerPlan(8, 4, 512)) == Approx(0.079115).epsilon(1e-4));
}

TEST_CASE("estimate and simulation both carry the term, with its N and source", "[cost]") {
  Cluster c = test::DgxH100();
  c.gpu.speed_sigma = 0.015;
  c.gpu.speed_sigma_source = "test";
  Cluster flat = test::DgxH100();
  const ParallelPlan p = StragglerPlan(4, 2, 16);
  const StepModel model(test::Llama3_70B(), c, p.Gpus());
  const StepModel base(test::Llama3_70B(), flat, p.Gpus());
  const StepResult est = model.Estimate(p);
  REQUIRE(est.scale_terms.size() == 1);
  const ScaleTerm& t = est.scale_terms[0];
  CHECK(t.name == "slowest of N ranks");
  CHECK(t.ranks == 128);
  CHECK(t.source == "test");
  CHECK(t.fraction == Approx(0.015 * ExpectedMaxStandardNormal(128)));
  CHECK(t.seconds > 0);
  const StepResult est0 = base.Estimate(p);
  CHECK(est.step_time_s - est0.step_time_s == Approx(t.seconds));
  CHECK(est.time.compute_s - est0.time.compute_s == Approx(t.seconds));
  const StepResult sim = model.Simulate(p);
  const StepResult sim0 = base.Simulate(p);
  CHECK(sim.step_time_s - sim0.step_time_s == Approx(t.seconds).epsilon(1e-6));
  CHECK(sim.scale_terms.at(0).seconds == t.seconds);
}
