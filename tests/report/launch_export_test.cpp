// The launch-config exports reproduce the predicted plan: the Megatron-LM flags and the
// torchtitan TOML of a search's best plan are parsed back (small parsers below) and every knob
// and model-shape flag is compared with the plan and model the search used.
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include "cli/common_inputs.h"
#include "config/efficiency_loader.h"
#include "core/format.h"
#include "plan/framework_caps.h"
#include "report/megatron_model_flags.h"
#include "report/plan_reporter.h"
#include "search/framework_search.h"

namespace paraplan {
namespace {

// "--flag value" / "--flag" pairs from a shell block (comments and continuations skipped).
std::map<std::string, std::string> ParseMegatronFlags(const std::string& text) {
  std::map<std::string, std::string> flags;
  std::istringstream lines(text);
  std::string line, joined;
  while (std::getline(lines, line)) {
    // Comments, and the environment a launch needs (export CUDA_DEVICE_MAX_CONNECTIONS=1).
    if (line.empty() || line[0] == '#' || line.rfind("export ", 0) == 0) continue;
    if (!line.empty() && line.back() == '\\') line.pop_back();
    joined += line + " ";
  }
  std::istringstream words(joined);
  std::string word, key;
  while (words >> word) {
    if (word.rfind("--", 0) == 0) {
      REQUIRE(flags.count(word) == 0);  // no flag twice
      flags[word] = "";
      key = word;
    } else {
      REQUIRE_FALSE(key.empty());
      if (word.size() > 1 && word.front() == '"') word = word.substr(1, word.size() - 2);
      flags[key] = word;
      key.clear();
    }
  }
  return flags;
}

// "section.key" -> value (strings unquoted) from a TOML file; a table may open only once.
std::map<std::string, std::string> ParseToml(const std::string& text) {
  std::map<std::string, std::string> keys;
  std::map<std::string, int> tables;
  std::istringstream lines(text);
  std::string line, table;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (line[0] == '[') {
      table = line.substr(1, line.find(']') - 1);
      REQUIRE(++tables[table] == 1);
      continue;
    }
    const size_t eq = line.find(" = ");
    REQUIRE(eq != std::string::npos);
    std::string value = line.substr(eq + 3);
    if (value.size() > 1 && value.front() == '"') value = value.substr(1, value.size() - 2);
    const std::string key = table + "." + line.substr(0, eq);
    REQUIRE(keys.count(key) == 0);
    keys[key] = value;
  }
  return keys;
}

struct Searched {
  LoadedInputs in;
  SearchResult result;
  PlanReportContext ctx;
};

Searched Search(Framework framework, const std::string& model, int64_t gpus,
                const std::string& plan) {
  InputOptions o;
  o.model = model;
  o.cluster = "dgx-h100";
  o.gpus = gpus;
  o.plan = plan;
  Searched s{LoadInputs(o), {}, {}};
  ApplyDefaultEfficiency(s.in.cluster);
  SearchOptions options;
  options.threads = 2;
  options.top_k = 5;
  options.simulate_top = 8;
  s.result = SearchPlansFor(framework, s.in.model, s.in.cluster, gpus, s.in.plan, options);
  s.ctx.model_name = s.in.model.name;
  s.ctx.cluster_name = s.in.cluster.name;
  s.ctx.gpus = gpus;
  s.ctx.model_layers = s.in.model.layers;
  s.ctx.model_seq_len = s.in.model.seq_len;
  s.ctx.moe = s.in.model.IsMoe();
  return s;
}

std::string Export(const std::string& format, Searched& s) {
  s.ctx.model = &s.in.model;
  std::ostringstream out;
  MakePlanReporter(format, out)->Report(s.ctx, s.result);
  return out.str();
}

std::string Str(int64_t v) {
  return std::to_string(v);
}

void CheckMegatron(const std::map<std::string, std::string>& f, const ParallelPlan& p,
                   const ModelSpec& m) {
  CHECK(f.at("--num-layers") == Str(m.layers));
  CHECK(f.at("--hidden-size") == Str(m.hidden));
  CHECK(f.at("--ffn-hidden-size") == Str(m.ffn_hidden));
  CHECK(f.at("--num-attention-heads") == Str(m.heads));
  if (m.kv_heads != m.heads) CHECK(f.at("--num-query-groups") == Str(m.kv_heads));
  CHECK(f.at("--seq-length") == Str(p.seq_len > 0 ? p.seq_len : m.seq_len));
  CHECK(f.at("--tensor-model-parallel-size") == Str(p.tp));
  CHECK(f.at("--pipeline-model-parallel-size") == Str(p.pp));
  CHECK(f.at("--context-parallel-size") == Str(p.cp));
  CHECK(f.at("--micro-batch-size") == Str(p.micro_batch));
  CHECK(f.at("--global-batch-size") == Str(p.global_batch));
  CHECK(f.count("--sequence-parallel") == (p.sequence_parallel ? 1u : 0u));
  CHECK(f.count("--use-distributed-optimizer") == (p.zero >= 1 ? 1u : 0u));
  CHECK(f.count("--tp-comm-overlap") == (p.overlap_tp_comm ? 1u : 0u));
  // The model's launch fields, and Megatron-FSDP's checkpoint format (issue 33).
  CHECK(f.count("--disable-bias-linear") == (m.linear_bias ? 0u : 1u));
  CHECK(f.at("--hidden-dropout") == "0");
  CHECK(f.at("--norm-epsilon") == FormatShortest(m.norm_epsilon));
  if (m.position == Position::kRope)
    CHECK(f.at("--rotary-base") == Str(std::llround(m.rotary_base)));
  CHECK(f.count("--ckpt-format") == (p.zero >= 2 ? 1u : 0u));
  if (p.zero >= 2) CHECK(f.at("--ckpt-format") == "fsdp_dtensor");
  const bool interleaved = p.schedule == Schedule::kInterleaved;
  // Interleaving is said per virtual stage (layers divide evenly) or per rank (an uneven split
  // with the embedding and loss accounted, Megatron-LM's --num-virtual-stages-per-pipeline-rank).
  const size_t per_stage = f.count("--num-layers-per-virtual-pipeline-stage");
  const size_t per_rank = f.count("--num-virtual-stages-per-pipeline-rank");
  CHECK(per_stage + per_rank == (interleaved ? 1u : 0u));
  if (interleaved) {
    if (per_stage) {
      CHECK(f.at("--num-layers-per-virtual-pipeline-stage") == Str(m.layers / (p.pp * p.vpp)));
    } else {
      CHECK(f.at("--num-virtual-stages-per-pipeline-rank") == Str(p.vpp));
    }
    CHECK(f.count("--no-overlap-p2p-communication") == (p.overlap_pp_comm ? 0u : 1u));
  }
  if (p.recompute == Recompute::kNone) CHECK(f.count("--recompute-granularity") == 0);
  if (p.recompute == Recompute::kSelective) CHECK(f.at("--recompute-granularity") == "selective");
  if (p.recompute == Recompute::kFull) CHECK(f.at("--recompute-granularity") == "full");
  if (p.precision == Precision::kFp8) CHECK(f.at("--fp8-format") == "hybrid");
  CHECK(f.count(p.precision == Precision::kFp16 ? "--fp16" : "--bf16") == 1);
  if (m.IsMoe()) {
    CHECK(f.at("--num-experts") == Str(m.moe->experts));
    CHECK(f.at("--moe-router-topk") == Str(m.moe->top_k));
    CHECK(f.at("--expert-model-parallel-size") == Str(p.ep));
  }
}

TEST_CASE("Megatron-LM export parses back to the predicted plan and model", "[report][framework]") {
  for (const char* model : {"llama3-70b", "mixtral-8x7b"}) {
    Searched s = Search(Framework::kMegatron, model, 64, "global_batch=256");
    REQUIRE_FALSE(s.result.plans.empty());
    for (const StepResult& r : s.result.plans) {
      CHECK(FrameworkViolations(Framework::kMegatron, &s.in.model, r.plan).empty());
    }
    const std::string text = Export("megatron", s);
    INFO(text);
    CHECK_THAT(text, !Catch::Contains("NOT RUNNABLE"));
    CheckMegatron(ParseMegatronFlags(text), s.result.plans.front().plan, s.in.model);
  }
}

TEST_CASE("Megatron-LM's MoE layer pattern", "[report][framework]") {
  ModelSpec m;
  m.layers = 6;
  m.moe = MoeSpec{8, 2, 0, 128, 2, 1, std::nullopt};
  CHECK(MegatronMoeLayerFreq(m) == "([0]*2+[1]*4)");
  m.moe->every = 2;
  CHECK(MegatronMoeLayerFreq(m) == "[0,0,1,0,1,0]");
}

TEST_CASE("Megatron-LM export of a fixed interleaved plan keeps every knob",
          "[report][framework]") {
  Searched s = Search(Framework::kMegatron, "llama3-70b", 64,
                      "tp=4,pp=4,schedule=interleaved,vpp=2,overlap_pp_comm=false,micro_batch=1,"
                      "global_batch=64,zero=1,recompute=full,sequence_parallel=true,"
                      "overlap_tp_comm=true,precision=fp8,dp_comm_dtype=bf16,dp_bucket_MB=50");
  REQUIRE_FALSE(s.result.plans.empty());
  const std::string text = Export("megatron", s);
  INFO(text);
  const auto flags = ParseMegatronFlags(text);
  CheckMegatron(flags, s.result.plans.front().plan, s.in.model);
  CHECK(flags.count("--no-overlap-p2p-communication") == 1);
  CHECK(flags.count("--grad-reduce-in-bf16") == 1);
  CHECK(flags.at("--ddp-bucket-size") == Str(50 * 1024 * 1024 / 2));
  // tp > 1 without Megatron-FSDP: validate_args wants CUDA_DEVICE_MAX_CONNECTIONS=1 (Hopper).
  CHECK_THAT(text, Catch::Contains("\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\n"));
}

void CheckTorchtitan(const std::map<std::string, std::string>& t, const ParallelPlan& p,
                     const ModelSpec& m) {
  CHECK(t.at("model.name") == "llama3");
  CHECK(t.at("training.global_batch_size") == Str(p.global_batch));
  CHECK(t.at("training.seq_len") == Str(p.seq_len > 0 ? p.seq_len : m.seq_len));
  CHECK(t.at("training.local_batch_size") == Str(p.pp > 1 ? p.global_batch / p.dp : p.micro_batch));
  CHECK(t.at("parallelism.tensor_parallel_degree") == Str(p.tp));
  CHECK(t.at("parallelism.pipeline_parallel_degree") == Str(p.pp));
  CHECK(t.at("parallelism.context_parallel_degree") == Str(p.cp));
  const bool shard = p.zero >= 1;
  CHECK(t.at("parallelism.data_parallel_shard_degree") == Str(shard ? p.dp : 1));
  CHECK(t.at("parallelism.data_parallel_replicate_degree") == Str(shard ? 1 : p.dp));
  if (shard) {
    CHECK(t.at("parallelism.fsdp_reshard_after_forward") == (p.zero == 3 ? "always" : "never"));
  }
  if (p.pp > 1) {
    CHECK(t.at("parallelism.pipeline_parallel_microbatch_size") == Str(p.micro_batch));
    CHECK(t.at("parallelism.pipeline_parallel_schedule") ==
          (p.schedule == Schedule::kInterleaved ? "Interleaved1F1B" : "1F1B"));
  }
  const char* mode = p.recompute == Recompute::kOp ? "selective" : ToString(p.recompute);
  CHECK(t.at("activation_checkpoint.mode") == mode);
  if (p.kernels.fusion == Fusion::kCompile) {
    CHECK(t.at("compile.enable") == "true");  // [training] compile is rejected (238fa99)
  } else {
    CHECK(t.count("compile.enable") == 0);  // torchtitan's default: eager
  }
  CHECK(t.count("training.compile") == 0);
  // Async TP needs torch.compile (framework_launch_rules.h).
  if (p.overlap_tp_comm) CHECK(t.at("compile.enable") == "true");
}

TEST_CASE("torchtitan export parses back to the predicted plan", "[report][framework]") {
  for (const char* plan : {"global_batch=256", "pp=4,zero=3,global_batch=64,micro_batch=1",
                           "global_batch=256,fusion=compile"}) {
    Searched s = Search(Framework::kTorchtitan, "llama3-70b", 64, plan);
    REQUIRE_FALSE(s.result.plans.empty());
    const ParallelPlan& best = s.result.plans.front().plan;
    // Costed as torchtitan runs: eager unless compiled, K/V repeated to the query heads.
    const bool compiled = std::string(plan).find("compile") != std::string::npos;
    CHECK(best.kernels.fusion == (compiled ? Fusion::kCompile : Fusion::kEager));
    CHECK(best.kernels.repeat_kv);
    CHECK(FrameworkViolations(Framework::kTorchtitan, &s.in.model, best).empty());
    const std::string text = Export("torchtitan", s);
    INFO(text);
    const auto toml = ParseToml(text);
    CheckTorchtitan(toml, best, s.in.model);
    CHECK(toml.at("model.flavor") == "70B");
    if (best.pp > 1 && best.zero == 3) CHECK(best.zero3_keep_gathered);
  }
}

// "key": value pairs of a JSON document, flattened (nested keys by their own name; unique here).
std::map<std::string, std::string> ParseJsonScalars(const std::string& text) {
  std::map<std::string, std::string> keys;
  const std::regex pair("\"([a-z_0-9]+)\": ([^{\\[,\\n]+)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), pair); it != std::sregex_iterator();
       ++it) {
    std::string value = (*it)[2];
    if (value.size() > 1 && value.front() == '"') value = value.substr(1, value.size() - 2);
    REQUIRE(keys.count((*it)[1]) == 0);
    keys[(*it)[1]] = value;
  }
  return keys;
}

TEST_CASE("DeepSpeed config export parses back to the predicted plan", "[report][framework]") {
  for (const char* plan : {"global_batch=128,pp=1,recompute=none",
                           "global_batch=128,tp=2,pp=1,"
                           "recompute=none,zero=1"}) {
    Searched s = Search(Framework::kDeepSpeed, "llama3-8b", 32, plan);
    REQUIRE_FALSE(s.result.plans.empty());
    const ParallelPlan& p = s.result.plans.front().plan;
    const std::string text = Export("deepspeed", s);
    INFO(text);
    const auto j = ParseJsonScalars(text);
    CHECK(j.at("train_batch_size") == Str(p.global_batch));
    CHECK(j.at("train_micro_batch_size_per_gpu") == Str(p.micro_batch));
    CHECK(j.at("gradient_accumulation_steps") == Str(p.MicroBatches()));
    CHECK(p.micro_batch * p.MicroBatches() * p.dp == p.global_batch);  // DeepSpeed's identity
    CHECK(j.at("stage") == Str(p.zero));
    CHECK(j.at("overlap_comm") == (p.overlap_grad_reduce ? "true" : "false"));
    CHECK(j.at("enabled") == "true");
    CHECK_THAT(text,
               Catch::Contains(p.precision == Precision::kFp16 ? "\"fp16\": {" : "\"bf16\": {"));
    CHECK(j.count("autotp_size") == (p.tp > 1 ? 1u : 0u));
    if (p.tp > 1) CHECK(j.at("autotp_size") == Str(p.tp));
    if (p.zero < 2) CHECK_FALSE(p.overlap_grad_reduce);
  }
  // dp_bucket_MB is 10^6 bytes as priced (DpBucketBytes): DeepSpeed's 5e8-element default of
  // 16-bit gradients is 1000 MB, written back as 5e8 for both bucket sizes.
  Searched bucketed = Search(Framework::kDeepSpeed, "llama3-8b", 32,
                             "global_batch=128,pp=1,recompute=none,zero=1,dp_bucket_MB=1000,"
                             "grad_reduce_in_fp32=false");
  REQUIRE_FALSE(bucketed.result.plans.empty());
  const auto b = ParseJsonScalars(Export("deepspeed", bucketed));
  CHECK(b.at("reduce_bucket_size") == "500000000");
  CHECK(b.at("allgather_bucket_size") == "500000000");
  Searched piped = Search(Framework::kDeepSpeed, "llama3-8b", 32, "global_batch=128,pp=2");
  REQUIRE_FALSE(piped.result.plans.empty());
  CHECK_THAT(Export("deepspeed", piped), Catch::Contains("NOT EXPRESSIBLE as a DeepSpeed config"));
}

TEST_CASE("an export never writes a plan its framework cannot run", "[report][framework]") {
  Searched s = Search(Framework::kAny, "llama3-70b", 64,
                      "tp=8,pp=4,schedule=dualpipe,global_batch=64,micro_batch=1");
  REQUIRE_FALSE(s.result.plans.empty());
  REQUIRE(s.result.plans.front().plan.schedule == Schedule::kDualPipe);
  for (const char* format : {"megatron", "torchtitan"}) {
    const std::string text = Export(format, s);
    INFO(text);
    CHECK_THAT(text, Catch::Contains("NOT RUNNABLE"));
    CHECK_THAT(text, Catch::Contains("schedule=dualpipe"));
    CHECK_THAT(text, !Catch::Contains("--tensor-model-parallel-size"));
    CHECK_THAT(text, !Catch::Contains("[parallelism]"));
  }
}

}  // namespace
}  // namespace paraplan
