// Golden tests: one fixed SearchResult (built here, not by the cost model) in every format,
// compared byte for byte with tests/data/golden/plan_report.*. To regenerate after an intended
// change: PARAPLAN_UPDATE_GOLDEN=1 paraplan_tests "[report]", then review the diff.
#include "report/plan_reporter.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "core/error.h"
#include "core/text_table.h"
#include "core/units.h"

namespace paraplan {
namespace {

StepResult Result(int64_t tp, int64_t pp, int64_t dp, double step_s, double memory_GiB) {
  StepResult r;
  r.plan.tp = tp;
  r.plan.pp = pp;
  r.plan.dp = dp;
  r.plan.micro_batch = 1;
  r.plan.global_batch = 1536;
  r.plan.recompute = Recompute::kSelective;
  r.plan.sequence_parallel = tp > 1;
  r.plan.zero = 1;
  r.fits = true;
  r.simulated = true;
  r.step_time_s = step_s;
  r.tokens_per_s_per_gpu = 1536.0 * 2048.0 / step_s / static_cast<double>(tp * pp * dp);
  r.mfu = 4.9 / step_s;
  r.hfu = 5.3 / step_s;
  r.peak_memory_bytes = GiBToBytes(memory_GiB);
  r.memory_capacity_bytes = GiBToBytes(80);
  for (int64_t s = 0; s < pp; ++s) {
    StageMemory m;
    m.stage = s;
    m.weights_bytes = GiBToBytes(memory_GiB * 0.25);
    m.grads_bytes = GiBToBytes(memory_GiB * 0.25);
    m.optimizer_bytes = GiBToBytes(memory_GiB * 0.125);
    m.activations_bytes = GiBToBytes(memory_GiB * (s == 0 ? 0.3 : 0.2));
    m.other_bytes = GiBToBytes(memory_GiB * 0.075);
    r.memory.push_back(m);
  }
  r.time.compute_s = step_s * 0.8;
  r.time.bubble_s = step_s * 0.1;
  r.time.tp_comm_s = step_s * 0.05;
  r.time.dp_comm_exposed_s = step_s * 0.05;
  return r;
}

SearchResult FixedResult() {
  SearchResult result;
  StepResult best = Result(8, 8, 16, 10.5, 61.25);
  best.plan.schedule = Schedule::kInterleaved;
  best.plan.vpp = 3;
  best.plan.overlap_tp_comm = true;
  StepResult second = Result(8, 16, 8, 11.0, 41.5);
  second.plan.pp_layers = {5, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 5};
  StepResult third = Result(4, 16, 16, 12.25, 70.0);
  third.plan.recompute = Recompute::kFull;
  third.plan.zero = 0;
  result.plans = {best, second, third};
  result.pareto = {best, second};
  result.searched = 123456;
  result.feasible = 7890;
  result.seconds = 1.5;
  return result;
}

PlanReportContext ReportContext() {
  PlanReportContext ctx;
  ctx.model_name = "gpt3-175b";
  ctx.cluster_name = "dgx-h100";
  ctx.gpu_name = "H100-SXM5-80GB";
  ctx.gpus = 1024;
  ctx.model_layers = 96;
  ctx.model_seq_len = 2048;
  return ctx;
}

std::string RenderPlan(const std::string& format, const SearchResult& result,
                       const PlanReportContext& ctx) {
  std::ostringstream out;
  MakePlanReporter(format, out)->Report(ctx, result);
  return out.str();
}

std::string GoldenPath(const std::string& format) {
  const std::string ext = format == "table"           ? "txt"
                          : format == "megatron"      ? "megatron.sh"
                          : format == "torchtitan-py" ? "torchtitan.py"
                          : format == "torchtitan"    ? "torchtitan.toml"
                                                      : format;
  return std::string(PARAPLAN_SOURCE_DIR) + "/tests/data/golden/plan_report." + ext;
}

TEST_CASE("Plan reporters match their golden files", "[report]") {
  const SearchResult result = FixedResult();
  const PlanReportContext ctx = ReportContext();
  for (const std::string& format : PlanReportFormats()) {
    const std::string text = RenderPlan(format, result, ctx);
    const std::string path = GoldenPath(format);
    if (std::getenv("PARAPLAN_UPDATE_GOLDEN")) std::ofstream(path, std::ios::binary) << text;
    std::ifstream in(path, std::ios::binary);
    REQUIRE(in.good());
    std::stringstream golden;
    golden << in.rdbuf();
    INFO("format " << format << " (golden " << path << ")");
    CHECK(text == golden.str());
  }
}

TEST_CASE("Plan reporters mark front points left to the analytical estimate", "[report]") {
  SearchResult result = FixedResult();
  const PlanReportContext ctx = ReportContext();
  CHECK(RenderPlan("table", result, ctx).find('~') == std::string::npos);
  CHECK(RenderPlan("html", result, ctx).find("front_estimated") == std::string::npos);
  result.pareto[1].simulated = false;  // over the simulator's budget (search_core.h)
  result.front_estimated = 1;
  const std::string table = RenderPlan("table", result, ctx);
  CHECK_THAT(table, Catch::Contains("~11.000 s"));
  CHECK_THAT(table, Catch::Contains("1 point marked ~ is an analytical estimate"));
  CHECK_THAT(RenderPlan("json", result, ctx), Catch::Contains("\"front_estimated\": 1"));
  CHECK_THAT(RenderPlan("html", result, ctx),
             Catch::Contains("over the simulator's budget): rank 2.</p>"));
}

TEST_CASE("Plan reporters say which memory recipe the search needed, megatron sets it",
          "[report]") {
  SearchResult result = FixedResult();
  const PlanReportContext ctx = ReportContext();
  CHECK_THAT(RenderPlan("table", result, ctx), !Catch::Contains("memory is tight"));
  CHECK_THAT(RenderPlan("megatron", result, ctx), !Catch::Contains("--optimizer-cpu-offload"));
  result.memory_relief = "optimizer_offload=1";
  for (StepResult& r : result.plans) r.plan.recipe.optimizer_offload = 1;
  CHECK_THAT(RenderPlan("table", result, ctx),
             Catch::Contains("memory is tight: no plan fits with the default memory recipe; "
                             "every plan below uses optimizer_offload=1"));
  CHECK_THAT(RenderPlan("json", result, ctx),
             Catch::Contains("\"memory_relief\": \"optimizer_offload=1\""));
  CHECK_THAT(RenderPlan("html", result, ctx), Catch::Contains("<p id=\"memory_relief\">"));
  std::string megatron = RenderPlan("megatron", result, ctx);
  CHECK_THAT(megatron, Catch::Contains("--use-precision-aware-optimizer \\\n"
                                       "--optimizer-cpu-offload \\\n"
                                       "--optimizer-offload-fraction 1 \\"));
  CHECK_THAT(megatron, !Catch::Contains("--exp-avg-dtype"));
  MemoryRecipe& recipe = result.plans[0].plan.recipe;
  recipe.optimizer_offload = 0;
  recipe.optimizer_moments = MomentDtype::kBf16;
  recipe.recompute_modules = static_cast<uint32_t>(RecomputeModule::kCoreAttn) |
                             static_cast<uint32_t>(RecomputeModule::kLayernorm);
  recipe.fp8_act_cache = true;
  result.plans[0].plan.recompute = Recompute::kSelective;
  megatron = RenderPlan("megatron", result, ctx);
  CHECK_THAT(megatron, Catch::Contains("--use-precision-aware-optimizer \\\n"
                                       "--exp-avg-dtype bf16 \\\n"
                                       "--exp-avg-sq-dtype bf16 \\"));
  CHECK_THAT(megatron, !Catch::Contains("--optimizer-cpu-offload"));
  CHECK_THAT(megatron, Catch::Contains("--recompute-modules core_attn layernorm \\"));
  CHECK_THAT(megatron, Catch::Contains("# fp8_act_cache=true"));
}

TEST_CASE("Plan reporters: each format says what matters", "[report]") {
  const SearchResult result = FixedResult();
  const PlanReportContext ctx = ReportContext();
  const std::string table = RenderPlan("table", result, ctx);
  CHECK_THAT(table, Catch::Contains("10.500 s"));
  CHECK_THAT(table, Catch::Contains("61.2 GiB"));
  CHECK_THAT(table, Catch::Contains("Pareto front"));
  const std::string megatron = RenderPlan("megatron", result, ctx);
  CHECK_THAT(megatron, Catch::Contains("--tensor-model-parallel-size 8 \\"));
  CHECK_THAT(megatron, Catch::Contains("--num-layers-per-virtual-pipeline-stage 4 \\"));
  CHECK_THAT(megatron, Catch::Contains("--tp-comm-overlap"));
  CHECK_THAT(megatron, Catch::EndsWith("--bf16\n"));
  SearchResult as_titan = result;  // torchtitan runs per-op SAC and FSDP2, not selective/ZeRO-1
  as_titan.plans[0].plan.recompute = Recompute::kOp;
  as_titan.plans[0].plan.zero = 2;
  as_titan.plans[0].plan.kernels.fusion = Fusion::kCompile;  // async TP needs torch.compile
  const std::string titan = RenderPlan("torchtitan", as_titan, ctx);
  CHECK_THAT(titan, Catch::Contains("pipeline_parallel_schedule = \"Interleaved1F1B\""));
  const std::string config = RenderPlan("torchtitan-py", as_titan, ctx);
  CHECK_THAT(config, Catch::Contains("p.pipeline_parallel_schedule = \"Interleaved1F1B\""));
  CHECK_THAT(config, Catch::Contains("def paraplan_plan() -> Trainer.Config:"));
  CHECK_THAT(titan, Catch::Contains("data_parallel_shard_degree = 16"));
  const std::string csv = RenderPlan("csv", result, ctx);
  CHECK(std::count(csv.begin(), csv.end(), '\n') == 4);  // header + 3 plans (front included)
}

TEST_CASE("Megatron flags express uneven stages and fp8", "[report]") {
  SearchResult result = FixedResult();
  std::swap(result.plans[0], result.plans[1]);
  result.plans[0].plan.precision = Precision::kFp8;
  result.plans[0].plan.overlap_pp_comm = false;  // Megatron-LM's 1F1B does not overlap P2P
  const std::string megatron = RenderPlan("megatron", result, ReportContext());
  CHECK_THAT(megatron, Catch::Contains("--decoder-first-pipeline-num-layers 5"));
  CHECK_THAT(megatron, Catch::Contains("--decoder-last-pipeline-num-layers 5"));
  CHECK_THAT(megatron, Catch::Contains("--fp8-format hybrid"));
  CHECK(megatron.find("--fp8-recipe") == std::string::npos);  // delayed: Megatron's default
  result.plans[0].plan.kernels.fp8_recipe = Fp8Recipe::kMxfp8;
  CHECK_THAT(RenderPlan("megatron", result, ReportContext()),
             Catch::Contains("--fp8-recipe mxfp8"));
  result.plans[0].plan.kernels.fp8_recipe = Fp8Recipe::kDelayed;
  ParallelPlan& p = result.plans[0].plan;  // as torchtitan runs it: per-op SAC, FSDP2
  p.recompute = Recompute::kOp;
  p.zero = 2;
  p.overlap_pp_comm = true;
  const std::string titan = RenderPlan("torchtitan", result, ReportContext());
  CHECK_THAT(titan, Catch::Contains("[quantize.linear.float8]"));
  CHECK_THAT(titan, Catch::Contains("converters = [\"quantize.linear.float8\"]"));
}

TEST_CASE("Reporters handle a search where nothing fits", "[report]") {
  SearchResult result;
  result.searched = 10;
  result.why_nothing_fits = "No plan fits in 80.0 GiB per GPU: stage 0 needs 93.1 GiB\n";
  result.closest = {Result(8, 1, 1, 1.0, 93.1)};
  CHECK_THAT(RenderPlan("table", result, ReportContext()),
             Catch::Contains("stage 0 needs 93.1 GiB"));
  const std::string json = RenderPlan("json", result, ReportContext());
  CHECK_THAT(json, Catch::Contains("\"why_nothing_fits\""));
  CHECK_THAT(json, Catch::Contains("\"closest\""));
  CHECK_THAT(RenderPlan("megatron", result, ReportContext()), Catch::Contains("no plan that fits"));
}

TEST_CASE("Unknown report formats list the valid ones", "[report]") {
  std::ostringstream out;
  CHECK_THROWS_WITH(MakePlanReporter("yaml", out),
                    Catch::Contains("valid values: table, json, csv, megatron, torchtitan"));
  CHECK(GroupThousands(1234567) == "1,234,567");
  CHECK(GroupThousands(12) == "12");
  CHECK(GroupThousands(-1234) == "-1,234");
  CHECK(GroupThousands(INT64_MIN) == "-9,223,372,036,854,775,808");
}

}  // namespace
}  // namespace paraplan
