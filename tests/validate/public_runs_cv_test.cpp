// Leave-one-source-out on the project's public runs (docs/validation/public_runs.yaml, unchanged
// measurements), the headline figure of docs/validation.md: each source is predicted by an
// efficiency fit on the other sources only. This is a REGRESSION bound, today's measured value
// plus a stated margin; issue 14's targets (<= 10% overall, no source above 15%) are met since
// stop 22, torchtitan the closest to its bar. Tighten the bounds as the model improves; never
// loosen them silently.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>

#include "calib/cross_validation.h"
#include "core/format.h"
#include "validate/holdout.h"
#include "validate/step_band.h"
#include "validate/validation_report.h"

using namespace paraplan;

// The file's own namespace: its run counts and bounds keep the names public_runs_test.cpp gives
// its own (kPublicRuns, kMarginPct) where a unity batch compiles both (tests/CMakeLists.txt).
namespace public_runs_cv {
namespace {

// Measured at commit time with the CLI's defaults (`paraplan validate
// docs/validation/public_runs.yaml docs/validation/reserved_runs.yaml --cv source`): pooled
// 7.4% over 54 runs; per source below. History: 38 runs with H10/H15 (before issue 14's cost
// model): pooled 32.96%, Narayanan 31.46, NeMo 42.13, torchtitan 26.61. Reserved runs split off
// and dgxc-benchmarking + Trainy added (54 runs, old cost model): pooled 23.75%. Issue 14's
// op-level cost model (fusion profiles, unfused attention for Megatron-LM 2021, FlashAttention-2
// for PyTorch SDPA, sequence-dependent attention efficiency, per-kernel launches, fits bounded to
// measured ranges, the source's own peak bracket for the 500 W parts): 13.12%. Stop 21 (the
// framework's TP overlap read as stated or as its default, fp8 GEMMs tied to the fitted bf16
// fraction, the GEMM curve held at its smallest fitted dimension, memory recipes): 9.1%. Stop 22
// (the 500 W peak placed in its bracket by power, FSDP2's copies, PyTorch async TP's and ring
// attention's extra passes, Megatron-LM 2021's synchronous scatter/gather sends, full recompute
// replaying its collectives): 7.4%. Stop 23 (62 runs: eight MoE rows D17-D24 from
// dgxc-benchmarking; grad_reduce_in_fp32 and TE's fp8 saved inputs, E10 with its recipe's
// recompute=none; FP8 casts of the routed expert inputs; refitted): pooled 8.2%, Narayanan 5.9,
// NeMo 5.0, torchtitan 13.0, dgxc 8.5 (dense D01-D16 3.4, MoE D17-D24 18.8), Trainy 2.6;
// reserved 34.8% (docs/validation/lessons.md, "Stop 23"). Stop 25 (D17-D20 state the expert TP
// their Megatron-Core 0.9 ran, D17-D24 the EP overlap their software did not have; MoE router,
// permute and host-sync ops; the SM cost of overlapped communication and the DP stream's shared
// NIC): pooled 7.3%, Narayanan 5.5, NeMo 4.7, torchtitan 14.0, dgxc 5.9, Trainy 2.0; reserved
// 29.9%. The torchtitan fold's bound rose 13.5 -> 14.5: the runs-file correction alone moved it
// 13.0 -> 13.8 (the H100 fit no longer leans on the MoE rows: scale-out 0.69 -> 0.82), the model
// changes another 0.2 (docs/validation/lessons.md, "Stop 25"). Stop 26 (TransformerEngine's FP8
// cast-transpose of the FC2 input and the backward transposes of its norm-fused inputs): pooled
// 7.5%, Narayanan 5.5, NeMo 4.8, torchtitan 14.3, dgxc 6.0, Trainy 2.4; reserved 30.3%. The real
// casts make the TE FP8 rows slower, the fit on them faster, and torchtitan's fold with it. With
// TE's delayed-scaling amax all-reduce per chunk: NeMo 4.9, torchtitan 14.4, Trainy 2.5, reserved
// 30.4%, pooled unchanged. With the MoE layer's token-count all-gather and aux-loss all-reduce:
// NeMo 4.8, torchtitan 14.5, reserved 30.5%, pooled 7.5%. Stop 27 (the tile-and-wave GEMM model
// on Hopper with its measured tops, fp8_gemm_max fitted within the harness's range): pooled
// 6.8%, Narayanan 5.5, NeMo 5.5, torchtitan 14.5, dgxc 4.1, Trainy 1.0; mean over sources 6.1%.
// NeMo's bound rises 4.8 -> 5.5 and the reserved one 30.5 -> 34.1, both stated in
// docs/validation/lessons.md, "Stop 27": the GPT-OSS rows' small expert GEMMs get the tile
// model's (measured) higher efficiency, which the rows never saw. Stop 29 (torchtitan Dec 2024
// split a looped schedule's local batch into pp micro-batches, not pp x 2, and split the layers
// by its generate_split_points; refitted): pooled 6.5%, NeMo 4.6, torchtitan 13.5, Trainy 1.6
// (the H100 fit moved; W01-W02 are two rows), mean over sources 5.9%, with PyTorch's lock-step
// runtime for multi-stage schedules (sim/pipeline_run_lockstep.cpp). Stop 30 (PyTorch's ring
// attention's K/V and gradient copies, its fp32 gradient pass, torchtitan's repeat_kv; refitted):
// pooled 6.2%, NeMo 4.4, torchtitan 12.6, Trainy 1.2, mean over sources 5.6%. Issue 37 (unstated
// knobs take the framework version's defaults, Megatron-LM d98e8a6 for the Narayanan rows; not
// refitted): pooled 6.0%, Narayanan 4.1, mean over sources 5.3%.
constexpr double kMarginPct = 0.5;  // percentage points, for changes elsewhere in the model
// 687 runs predicted, 33 sources: 9.9% at stop 37 (the fit weighs sources; Aleph Alpha Scaling's
// defaults and the fused RMSNorm on the Hagemann rows; DeepSpeed's overlaps by ZeRO stage;
// Blackwell's MAMF GEMM ceilings; MLPerf v6.0's validation pass; refitted): Hagemann 13.6 ->
// 8.5, Qi 15.2 -> 12.2, MLPerf v6.0 33.2 -> 30.6 (docs/validation/lessons.md, "Stop 37");
// 12.2% at stop 36 (the L rows, A100 layout sweeps; R, FSDP2
// trainers; P, DeepSpeed; PyTorch's float8 blog, R09-R12, states tokens/s only: no step time); 360
// runs predicted, 25 sources: 10.7% at stop 35 (the K rows, M51-M63); 334 runs, 22 sources: 10.5%
// at stop 34 (11.0% at stop 33; 8.1% over stop 31's 270 runs).
// 689 runs predicted, 34 sources: 8.7% at stop 38 (refitted; docs/validation/lessons.md, "Stop
// 38"): Qi 12.2 -> 4.4 (A100 on the tile model, batched waves), NeMo summary 16.0 -> 9.3 (the
// recipes' gradient dtype and recompute), asyncTP 13.5 -> 8.8 (torchtitan's SP copies and
// re-gathers), nanotron 21.3 -> 16.3 (AWS p5's EFA, the fp32 accumulation pass), AutoModel 14.1 ->
// 9.8 (its fake gate's routing). Raised with it, stated: torchtitan Dec 2024 12.9 -> 13.5 (Q11, FP8
// at TP 8, with the SP copies), torchtitan performance.md 7.0 -> 8.3 and the PyTorch FSDP blog
// 9.2 -> 10.7 (their A100 rows under the tile model's refit, A100 gemm_max at its 0.70 floor),
// Megatron-MoE-ModelZoo 13.2 -> 13.9 (DeepEP's measured link rates), ZenFlow 31.3 -> 32.0,
// MLPerf v3.0 10.2 -> 10.5, and 0.1 on five others (the H100 and A100 refits).
// 695 runs predicted, 36 sources: 8.8% at stop 39 (refitted; lessons.md, "Stop 39"; 8.76% over
// stop 38's 689): the Nemotron-4 15B report joins at 29.3 (Megatron-LM's defaults leave its DP
// reduction exposed), 340B at 4.8; nanotron 16.3 -> 12.9 (its DDP buckets), torchao 22.0 -> 20.8
// and torchtitan Dec 2024 13.5 -> 12.8 (torchao float8 as torchtitan runs it). Raised with it,
// stated: asyncTP 8.8 -> 10.6 (T07/T08: 8B FP8 at TP 8 now too fast), Hagemann 8.3 -> 8.7 and
// MLPerf v3.1/v4.0 +0.9/+1.0 (the tied-embedding all-reduce and NeMo 22.08's fp32 copy add work
// to other A100 rows, so the held-out fold fits A100 faster), Megatron-MoE-ModelZoo 13.9 -> 14.5.
// Stop 41 (refitted, 802 runs, 45 sources): 9.2% over 777 (9.1% over stop 40's 729).
// Stop 42 (refitted, 834 runs, 48 source groups): 9.6% over 808 (9.34% over stop 41's 777; the
// Nemotron-4 15B report 34.1 -> 44.3: its fold fits H100 slower).
// Stop 43 (refitted, 882 runs, 51 source groups; + AB, NV, EP rows): 9.8% over 850 (9.64% over
// stop 42's 808).
// Stop 44 (refitted, 882 runs, 51 source groups; async TP, TE's per-expert GEMMs, Megatron's
// split and N01-N03's stated overlap): 9.6% over 850.
// Stop 45 (refitted, 893 runs, 52 source groups; + LS01-LS11, link.scaleout within its measured
// range 0.756-0.96, recompute's early stop, FSDP kept after the forward): 9.5% over 861.
// Stop 46 (refitted, 903 runs, 55 source groups; + NB01-NB05, GH01-GH05, flash-attn's Triton
// kernel on Z40-Z47, PyTorch FSDP1's flat parameter, NeMo 24.03's launcher defaults): 9.4% over
// 871.
constexpr double kPooledMapePct = 9.4 + kMarginPct;
const std::map<std::string, double> kSourceMapePct = {
    {"Narayanan et al.", 4.4 + kMarginPct},
    {"NVIDIA NeMo docs 'Performance Benchmarks'", 3.4 + kMarginPct},
    {"PyTorch torchtitan benchmark 'llama3_h100_202412_torchtitan.md'", 13.1 + kMarginPct},
    {"NVIDIA DGX Cloud Benchmarking recipes", 6.4 + kMarginPct},
    {"Trainy on WhiteFiber", 5.1 + kMarginPct},
    {"MLPerf Training v3.0", 11.6 + kMarginPct},
    {"MLPerf Training v3.1", 4.1 + kMarginPct},
    {"MLPerf Training v4.0", 6.6 + kMarginPct},
    {"MLPerf Training v4.1", 8.7 + kMarginPct},
    {"MLPerf Training v5.0", 5.9 + kMarginPct},
    {"MLPerf Training v5.1", 8.6 + kMarginPct},
    {"PyTorch torchtitan benchmark 'asyncTP_llama3_h100_2025-06_torchtitan.md'", 9.8 + kMarginPct},
    {"DeepSpeed blog 'DeepSpeed on Azure: ZeRO-3 training of 175B to 2T models'",
     13.7 + kMarginPct},
    {"PyTorch torchtitan docs 'performance.md'", 3.6 + kMarginPct},
    {"NVIDIA NeMo docs 'Performance Summary for Large Language Models'", 9.4 + kMarginPct},
    {"PyTorch blog 'Maximizing training throughput using PyTorch FSDP'", 8.2 + kMarginPct},
    {"Google Cloud AI-Hypercomputer gpu-recipes", 13.6 + kMarginPct},
    {"NVIDIA NeMo Megatron launcher README", 9.7 + kMarginPct},
    {"Hugging Face nanotron", 11.1 + kMarginPct},
    {"Hugging Face blog 'From DeepSpeed to FSDP and Back Again with Hugging Face Accelerate'",
     15.1 + kMarginPct},
    {"Colossal-AI README 'Colossal-AI Benchmark' table", 12.3 + kMarginPct},
    // 28.0 -> 28.8 at stop 36 (issue 37, branch h39ds): the A100 refit of its fold moves with the
    // apex and DeepSpeed rows whose ZeRO-1/2 parameter gather the simulator now exposes.
    {"Megatron-DeepSpeed examples_deepspeed/deepspeed4science/megatron_long_seq_support/README.md",
     27.7 + kMarginPct},
    {"NVIDIA NeMo AutoModel 'Performance Summary'", 11.7 + kMarginPct},
    {"Megatron-MoE-ModelZoo", 12.1 + kMarginPct},
    {"MLPerf Training v6.0", 19.4 + kMarginPct},
    {"Hagemann et al.", 8.0 + kMarginPct},
    {"Qi et al.", 4.8 + kMarginPct},
    {"AI2 OLMo-core README 'Official training scripts' throughput table", 5.1 + kMarginPct},
    {"PyTorch blog 'Supercharging Training using float8 and FSDP2'", 0.0 + kMarginPct},
    {"PyTorch torchao float8 README 'Training benchmarks'", 21.4 + kMarginPct},
    {"ml-engineering insights/when-to-upgrade-gpus", 15.8 + kMarginPct},
    {"DeepSpeed ZenFlow core-binding blog", 30.9 + kMarginPct},
    {"argonne-lcf Megatron-DeepSpeed ALCF/README.md", 52.9 + kMarginPct},
    // Stop 39 (h41breadth), measured when they joined, not refitted: the Nemotron-4 batch-ramp
    // stages (README.md, "N01-N06"). 15B +20..+35% under Megatron-LM's defaults (DP exposed).
    {"Nemotron-4 15B Technical Report", 10.7 + kMarginPct},
    {"Nemotron-4 340B Technical Report", 6.3 + kMarginPct},
    {"NVIDIA NeMo AutoModel 'DeepEP vs HybridEP: Performance Comparison and Analysis'",
     6.7 + kMarginPct},
    // Stop 40 (h42breadth), measured when they joined, not refitted: NeMo's long-sequence tables
    // (README.md, "C01-C17"), every row fast, -3..-34% on H100 (NeMo 24.03), -4..-15% on B200.
    // The other folds as stop 39's bounds (pooled 9.0% over 712; ModelZoo 11.8%).
    {"NVIDIA NeMo docs 'Long Sequence Performance'", 14.0 + kMarginPct},
    // Stop 40, the new sources (refitted with them): InternLM (h42a100, README.md "I01-I08, B01,
    // U01-U10"), LLaMA-1 (B01, one run), Skywork-13B (U01-U10), torchtitan + DeepEP on B200
    // (h42moe, "V01-V05", -34% at every scale).
    {"pytorch/torchtitan commit 022f885f34ea643b7a1e15a69f34fc944fdaa7ef", 27.0 + kMarginPct},
    {"InternLM docs 'Training Performance'", 10.8 + kMarginPct},
    {"Touvron et al. 2023", 17.6 + kMarginPct},
    {"Skywork-13B technical report", 2.6 + kMarginPct},
    // Stop 41's new sources (refitted over 802 runs): TinyLlama on 16 A100 40GB and KempnerForge
    // on 1-360 H200 (h43breadth, README.md "O01-O31"; with them the Colossal-AI fold, Z32 on
    // H200, reads 15.5: its Hopper fit sees the H200 rows); DeepSpeed's DeepCompile benchmark
    // and the Megatron-DeepSpeed rebase README (h43ds, "DS01-DS13": ZeRO-3 at small batches
    // misses 0.66-0.85 s per micro-batch that no sourced op covers).
    {"TinyLlama README", 11.1 + kMarginPct},
    {"KempnerForge benchmark reports", 11.6 + kMarginPct},
    {"DeepSpeed DeepCompile benchmark", 25.3 + kMarginPct},
    {"Megatron-DeepSpeed rebase README", 17.2 + kMarginPct},
    // Stop 42 (h44h200, not refitted): the Kempner handbook's one-GPU GPT 0.94B on H200, H100 and
    // A100 40GB (README.md, "HG01-HG03"): -8.7, -5.4, +7.1% in-sample.
    {"Kempner Institute computing handbook", 6.2 + kMarginPct},
    // Stop 42 (h44ds, not refitted): DeepSpeed's bf16_master_weight example (README.md, "DZ01"),
    // ZeRO-3 on 4 H100 at 512 tokens per GPU, one row: -73.9% held out (in-sample -73.9%; -74.2%
    // with every DeepSpeed row held out). Pooled with it: 9.3% over 778.
    {"DeepSpeed bf16_master_weight example", 74.2 + kMarginPct},
    // Stop 42 (h44breadth, README.md "TG01-TG27"): Together AI's reruns of the dgxc-benchmarking
    // recipes on B200, GB200 (B300: evaluation-only). Their B200 rows pull B200's fitted GEMM
    // fraction up in the other folds: MLPerf v5.1 8.7 -> 9.6, gpu-recipes 9.7 -> 10.2 (refitted).
    {"Together AI dgxc-benchmarking reruns", 16.9 + kMarginPct},
    // Stop 43 (h45ampere, not refitted): BAAI's FlagPerf harness (README.md "AB01-AB24") and
    // Alibaba's Megatron-LLaMA README ("AB25-AB31": LLaMA-13B on 256-512 A100, 16-21% fast).
    // Measured held out with them: pooled 9.66% over 839; Narayanan 5.15 and the Megatron-DeepSpeed
    // long-sequence fold 28.9 read above their bounds until the refit.
    {"FlagPerf training benchmark", 7.7 + kMarginPct},
    {"Megatron-LLaMA README", 15.6 + kMarginPct},
    // ModelScope's ms-swift benchmark (README.md "AB32-AB34", joined after that --cv run): its
    // in-sample 20.3% (+19.7..+20.7%, packed SFT attention charged over 8K) stands for the fold.
    // Stop 45 (h50breadth, README.md "LS02-LS11"): Ant Group's DLRover/ATorch Llama-2-7B example
    // on 8-64 A100 (DeepSpeed 3D and FSDP; refitted).
    {"Ant Group DLRover/ATorch Llama2 example README", 4.0 + kMarginPct},
    // Stop 46 (h51breadth, README.md "NB01-NB05"; h51gh200, "GH01-GH05"; refitted). The swiss-ai
    // rows on GH200 are 12-20% fast, and GH01 (a 300M model, 32 GPUs) 70%: lessons.md, "Stop 46".
    {"Dao-AILab flash-attention training README", 3.6 + kMarginPct},
    {"Alibaba PAI TorchAcc docs", 2.9 + kMarginPct},
    {"swiss-ai/Megatron-LM pull requests on CSCS Alps", 26.4 + kMarginPct},
    {"ms-swift Megatron-SWIFT benchmark", 16.3 + kMarginPct},
};
// The evaluation-only runs, never fitted: the two reserved runs and, from stop 35, the seven
// B300/GB300 MLPerf rows (a GPU kept unfitted on purpose): 25.8% over 9 at stop 35; the two
// reserved runs alone 31.3% at stop 34, 31.7% at stop 33, 33.1% at stop 31. 22.4% at stop 36,
// where a GPU nobody fitted (B300, GB300) takes the transfer, as in `plan`, not its prior; 22.8%
// with h39bw (M63 predicted slow takes its validation pass, +15 -> +18%; B300's fp8 ceiling 1%
// higher); 22.4% at stop 37 (refitted); 22.0% at stop 39 (refitted; TE's FP8 recipes on M55/M58).
// Stop 41 (refitted): 24.1% over 14 (+ BW02-BW03, F02-F04: GPT-OSS on B300/GB300 is 14-46% fast,
// a fixed 0.05-0.09 s per step short on every Blackwell system).
// Stop 42 (refitted): 23.7% over 15 (+ TG27, Qwen3-30B-A3B on 8 B300, -35%). Stop 43 (refitted):
// 21.9% over 21 (+ NV07-NV12, MLPerf v6.0 GPT-OSS 20B on GB300 and B300 from four submitters).
// Stop 44 (refitted): 16.5% over 21 (B300's GEMM ceilings from TE's measured benchmark; TE's
// per-expert GEMM launches on the GPT-OSS rows). Stop 45 (refitted): 16.8% over 21 (H100's
// scale-out, which B300/GB300 take, rises to its measured floor: F03 +3.6 -> -11.8%).
constexpr double kReservedMapePct = 16.8 + kMarginPct;
// 700 + N01-N06 (stop 39, h41breadth: Nemotron-4 15B and 340B batch-ramp stages) + C01-C17
// (stop 40, h42breadth: NeMo's long-sequence tables on H100 and B200) + V01-V05, J03-J04 (stop 40,
// h42moe).
// + G40-G41, F01-F04 (stop 41, h43moe).
constexpr int64_t kPublicRuns =
    903;  // + J01-J02 (stop 38, h40moe); + I01-I08, B01, U01-U10 (h42a100); + DS01-DS13 (h43ds);
          // + O01-O31 (h43breadth); + BW01-BW03 (h43bw); + G40-G41, F01-F04 (h43moe);
          // + HG01-HG03 (stop 42, h44h200); + MX02 (stop 42, h44moe; MX01 csv-only); + DZ01
          // (h44ds);
          // + TG01-TG27 (h44breadth); + NV01-NV12 (stop 43, h45hopper); + EP01-EP02 (h45moe);
          // + AB01-AB34 (h45ampere); + LS01-LS11 (stop 45, h50breadth); + NB01-NB05 (stop 46,
          // h51breadth); + GH01-GH05 (stop 46, h51gh200)
constexpr int64_t kUnfittedGpuRuns = 19;  // B300/GB300, evaluation-only inside public_runs.yaml (+
                                          // BW02-BW03, F02-F04, TG27, NV07-NV12)
constexpr int64_t kTokensOnlyRuns = 13;   // R09-R12, U01-U05, U07-U10: tokens/s, no step time

// The shipped step-time bands (src/validate/step_band.cpp) are what the validation residuals give
// today. They are checked here, on the cross-validations the bound tests compute anyway, so that
// CI computes each cross-validation once (each is minutes of arithmetic on 2 cores).
std::vector<double> StepErrors(const SourceFold& fold) {
  std::vector<double> errors;
  for (const auto& run : fold.report.runs) {
    auto it = run.error_pct.find("step_time_s");
    if (it != run.error_pct.end()) errors.push_back(it->second);
  }
  return errors;
}

void CheckBand(const StepTimeBand& shipped, const StepTimeBand& now) {
  INFO(shipped.family << " now: {\"" << shipped.family << "\", \"" << shipped.data_family << "\", "
                      << now.runs << ", " << FormatFixed(now.error_p10_pct, 1) << ", "
                      << FormatFixed(now.error_p90_pct, 1) << "}");
  CHECK(shipped.runs == now.runs);
  CHECK(std::abs(shipped.error_p10_pct - now.error_p10_pct) <= 0.051);
  CHECK(std::abs(shipped.error_p90_pct - now.error_p90_pct) <= 0.051);
}

// Each GPU family's band: every run's error as predicted by the fold that left its source out. A
// derived family's runs (H200) count toward the band of the family it takes its numbers from
// (H100), the band StepTimeBandFor gives it.
void CheckShippedFamilyBands(const CrossValidationResult& by_source) {
  const auto derived = DerivedFamilies();
  std::map<std::string, std::vector<double>> errors;
  for (const auto& fold : by_source.folds) {
    for (const auto& run : fold.report.runs) {
      auto it = run.error_pct.find("step_time_s");
      if (it == run.error_pct.end()) continue;
      auto d = derived.find(run.gpu_family);
      errors[d == derived.end() ? run.gpu_family : d->second].push_back(it->second);
    }
  }
  const std::vector<StepTimeBand> shipped = ShippedStepTimeBands();
  REQUIRE(shipped.size() == errors.size());
  for (const StepTimeBand& s : shipped) {
    REQUIRE(errors.count(s.family));
    CheckBand(s, ComputeStepTimeBand(s.family, errors[s.family]));
  }
}

// A GPU nobody fitted: the residuals of leaving each GPU family out, pooled, and each family's
// fold on its own (the band a new part of that family gets).
void CheckShippedUnfittedBand(const CrossValidationResult& by_gpu) {
  std::vector<double> errors;
  const std::vector<StepTimeBand> per_family = UnfittedFamilyStepTimeBands();
  REQUIRE(per_family.size() == by_gpu.folds.size());
  for (const auto& fold : by_gpu.folds) {
    const std::vector<double> e = StepErrors(fold);
    errors.insert(errors.end(), e.begin(), e.end());
    INFO("fold " << fold.source);
    const auto it = std::find_if(per_family.begin(), per_family.end(),
                                 [&](const StepTimeBand& b) { return b.fold == fold.source; });
    REQUIRE(it != per_family.end());
    CheckBand(*it, ComputeStepTimeBand(it->family, e));
  }
  const StepTimeBand shipped = UnfittedStepTimeBand();
  CheckBand(shipped, ComputeStepTimeBand(shipped.family, errors));
}

}  // namespace

TEST_CASE("Public runs: leave-one-source-out step-time error bounds and the shipped bands",
          "[validate][public][band]") {
  std::vector<RunSpec> runs =
      LoadValidationRuns(PARAPLAN_SOURCE_DIR "/docs/validation/public_runs.yaml");
  REQUIRE(runs.size() == kPublicRuns);
  const std::vector<RunSpec> reserved =
      LoadValidationRuns(PARAPLAN_SOURCE_DIR "/docs/validation/reserved_runs.yaml");
  REQUIRE(reserved.size() == 2);
  runs.insert(runs.end(), reserved.begin(), reserved.end());
  EfficiencyFitOptions options;  // the CLI's defaults, so the bound is docs/validation.md's figure
  options.threads = 2;           // CI has 2 cores; the result does not depend on it
  const CrossValidationResult cv = CrossValidateBySource(runs, options);
  std::string summary;
  for (const auto& fold : cv.folds) {
    summary += fold.source + ": " + FormatFixed(fold.step_time.mape_pct, 2) + "% over " +
               std::to_string(fold.step_time.n) + "\n";
  }
  WARN("leave-one-source-out step-time MAPE " << FormatFixed(cv.overall.mape_pct, 2) << "% over "
                                              << cv.overall.n << "\n"
                                              << summary);
  CHECK(cv.overall.n == kPublicRuns - kUnfittedGpuRuns - kTokensOnlyRuns);
  REQUIRE(cv.evaluation.has_value());
  WARN("reserved runs, never fitted: step-time MAPE "
       << FormatFixed(cv.evaluation->step_time.mape_pct, 2) << "% over "
       << cv.evaluation->step_time.n);
  CHECK(cv.evaluation->step_time.n == 2 + kUnfittedGpuRuns);
  CHECK(cv.evaluation->step_time.mape_pct <= kReservedMapePct);
  CHECK(cv.evaluation->fitted_ids.size() == kPublicRuns - kUnfittedGpuRuns);
  for (const auto& fold : cv.folds) {
    for (const auto& id : fold.fitted_ids) CHECK((id != "H10" && id != "H15"));
  }
  CHECK(cv.overall.mape_pct <= kPooledMapePct);
  REQUIRE(cv.folds.size() == kSourceMapePct.size());
  for (const auto& fold : cv.folds) {
    INFO(fold.source);
    REQUIRE(kSourceMapePct.count(fold.source) == 1);
    CHECK(fold.step_time.mape_pct <= kSourceMapePct.at(fold.source));
    CHECK(fold.report.all.errors == 0);
  }
  // The reserved runs are never in a fold, so these are the folds of public_runs.yaml alone.
  CheckShippedFamilyBands(cv);
}

namespace {

// The other three cross-validations of docs/validation.md's lead table (`paraplan validate
// docs/validation/public_runs.yaml --cv source,gpu,framework,scale`), REGRESSION bounds as above:
// today's pooled figure and every group's, plus kMarginPct. Measured at commit time over the 62
// public runs (issue 37): see the map values.
struct GroupBounds {
  CvGrouping by;
  double pooled_pct;
  std::map<std::string, double> groups_pct;
};

const std::vector<GroupBounds> kGroupBounds = {
    // Each family predicted as a GPU nobody fitted (the other families' fit transferred: its own
    // measured ceilings x the fit's framework shortfall, per SM and clock where its family has no
    // measurement). Stop 36, 687 runs (L, R, P rows; the reference is efficiency.yaml's
    // `unfitted.from`, H100, where the fold fitted it, else the best-covered model): pooled 12.2%,
    // Ampere 13.1 (A100 from H100), Hopper 10.0 (from A100), Blackwell 15.2; branch h39hag (the
    // Hagemann rows under Aleph Alpha Scaling 737f855's defaults): pooled 11.7%, Ampere 11.3,
    // Hopper 11.1 (from the A100 fit, which moves with them), Blackwell 15.2. Stop 35, 360 runs
    // (the
    // K rows, M51-M63; refitted): pooled 11.8%, Ampere 13.5,
    // Hopper 10.4, Blackwell 15.0. Stop 35 on 334 runs (the shortfall, not the fraction): pooled
    // 11.0%, Ampere 14.0, Hopper 9.6, Blackwell 13.4. Stop 34 (per SM and clock for every family):
    // pooled 11.5%, Ampere
    // 17.7, Hopper 9.6, Blackwell 13.4. 334 runs (stop
    // 33): pooled 12.1%, Ampere 18.3 (43 runs, A100 from H100),
    // Hopper 10.4 (221, H100 and H200 from GB200), Blackwell 13.8 (70, B200 and GB200 from
    // H100). Stop 31 (270 runs): 10.6%, Ampere 15.9, Hopper 9.1, Blackwell 13.4.
    // Issue 37, h39bw (Blackwell's own GEMM ceilings from the MAMF table; the validation pass of
    // M59-M63): pooled 12.0%, Blackwell 14.0 (B200 13.2, GB200 14.4), Ampere and Hopper unchanged.
    // Stop 37 (the fit weighs sources; the Scaling profile and fused RMSNorm on the Hagemann rows;
    // Blackwell's MAMF ceilings): pooled 10.0%, Ampere 9.2, Hopper 10.0 (H200 15.2), Blackwell 13.9
    // (B200 13.6, GB200 14.0).
    // Stop 38 (refitted): pooled 9.7%, Ampere 9.1, Hopper 9.4 (H100 9.0, H200 14.9), Blackwell 13.5
    // (B200 13.7, GB200 13.4).
    // Stop 39 (refitted, N01-N06 join Hopper): pooled 9.8%, Ampere 9.1, Hopper 9.5 (H100 9.1, H200
    // 14.6), Blackwell 13.8 (B200 14.0, GB200 13.8: Blackwell's FP8 GEMMs write no transposed
    // copies, a real saving that moves the held-out family further fast).
    // Stop 40 (refitted, 749 runs; C10-C17 and V01-V05 join Blackwell, both fast): pooled 10.1%,
    // Ampere 9.2, Hopper 9.7 (H100 9.5, H200 13.1), Blackwell 14.6 (B200 15.9, GB200 13.6).
    // Stop 41 (refitted, 802 runs; 30 H200 rows from KempnerForge): pooled 10.3%, Ampere 8.8,
    // Hopper 10.9 (H100 10.2, H200 14.8), Blackwell 14.2 (B200 14.9, GB200 13.6).
    // Stop 42 (refitted, 834 runs; 26 Together rows join Blackwell): pooled 10.4% (10.24% over
    // stop 41's runs), Ampere 8.7, Hopper 11.0 (H100 10.4, H200 14.5), Blackwell 14.0 (B200 14.0,
    // GB200 13.9).
    // Stop 43 (refitted, 882 runs): pooled 10.4% (10.35% over stop 42's runs), Ampere
    // 8.8, Hopper 10.6 (H100 10.5, H200 12.1, H800 5.3), Blackwell 14.6 (B200 15.3, GB200 13.9).
    // Stop 44 (refitted; B200/GB200 fp8 from TE's measured fp8/bf16 gain): pooled 10.2%, Ampere
    // 8.6, Hopper 10.3 (H100 10.1, H200 12.1, H800 5.2), Blackwell 14.4 (B200 16.3, GB200 12.2).
    // Stop 45 (refitted; link.scaleout within its measured range, so B200 no longer takes H100's
    // 0.60): pooled 9.8%, Ampere 8.5, Hopper 10.2 (H100 10.2, H200 10.7, H800 5.5), Blackwell
    // 12.6 (B200 13.5, GB200 11.6).
    {CvGrouping::kGpu,
     // Stop 46 (refitted, + GH01-GH05 in Hopper at 25.5%): pooled 10.1%, Ampere 8.4, Hopper 11.0
     // (H100 10.7, H200 11.8: Z40-Z47's Triton attention lets the A100 fit, which Hopper takes held
     // out, reach scale-out 0.96 and a faster attention backward), Blackwell 12.6.
     10.1 + kMarginPct,
     {{"Ampere", 8.4 + kMarginPct},
      {"Hopper", 11.0 + kMarginPct},
      {"Blackwell", 12.6 + kMarginPct}}},
    // Stop 36 (687 runs; Aleph Alpha Scaling and OLMo-core join, DeepSpeed 13 -> 31 runs):
    // pooled 13.5%, Megatron-LM/NeMo 12.2, torchtitan 11.7, DeepSpeed 23.1, nanotron 21.7,
    // automodel 16.3, scaling 13.6, olmo-core 5.8. Branch h39hag (scaling under Aleph Alpha
    // Scaling 737f855's defaults): pooled 11.5%, Megatron-LM/NeMo 11.1, torchtitan 10.8, DeepSpeed
    // 23.7 (its A100 rows' fold fits A100 on the moved Hagemann rows), scaling 9.5. Stop 35 (360
    // runs, a fifth group: NeMo
    // AutoModel): pooled 12.7%, Megatron-LM/NeMo 11.2,
    // torchtitan 12.2, DeepSpeed 25.6, nanotron 21.7, automodel 16.7. Stop 34: pooled 12.9%,
    // Megatron-LM/NeMo 11.4, torchtitan 12.1, DeepSpeed 25.6, nanotron
    // 22.4. Stop 33: Megatron-LM/NeMo (255 runs) 11.8%, torchtitan and FSDP (40) 12.1%, DeepSpeed
    // and
    // Megatron-DeepSpeed (13) 25.6%, nanotron (26) 26.1%; pooled 13.5%. Stop 31 (270 runs, three
    // frameworks): 10.0%, Megatron 9.7, torchtitan 10.5, DeepSpeed 24.3.
    // Issue 37, h39bw: pooled 13.3%, Megatron-LM/NeMo 11.8, DeepSpeed 22.7 (the B200 P rows).
    // Stop 37: pooled 11.0%, Megatron-LM/NeMo 11.0, torchtitan 11.6, DeepSpeed 22.5, nanotron 21.3,
    // automodel 14.1, scaling 8.5, olmo-core 5.5.
    // Stop 38 (refitted): pooled 9.9%, Megatron-LM/NeMo 9.4, torchtitan 11.1, DeepSpeed 22.5,
    // nanotron 16.3, automodel 9.6, scaling 8.3, olmo-core 5.6 (0.1 up: the A100 refit).
    // Stop 39 (refitted): pooled 10.2%, Megatron-LM/NeMo 9.9 (N01-N06 join, N01-N03 ~+30%),
    // torchtitan 11.0, DeepSpeed 22.4, nanotron 12.9, automodel 9.6, scaling 8.7, olmo-core 4.3.
    // Stop 40 (refitted): pooled 10.4%; DeepSpeed 19.8 (its bucket all-reduce, Z32 completed,
    // InternLM's rows under the closest framework named), torchtitan 13.6 (V01-V05 at -34%).
    // Stop 41 (refitted): pooled 11.0%; megatron 11.5 (with Megatron held out, the DeepCompile
    // ZeRO-3 rows pull H100's scale-out fraction down), DeepSpeed 20.7 (DS01-DS13 join at 25%),
    // torchtitan 12.6 (PyTorch's grouped GEMM on B200; KempnerForge joins), scaling 7.8.
    // Stop 42 (refitted): pooled 11.2% (10.96% over stop 41's runs); megatron 11.7 (Together's
    // NeMo reruns join), DeepSpeed 21.7 (DZ01 at -74%), torchtitan 12.4, nanotron 12.0, scaling
    // 8.0.
    // Stop 43 (refitted): pooled 11.3% (11.15% over stop 42's runs).
    // Stop 44 (refitted): pooled 10.5%; torchtitan below 12 (async TP's backward).
    // Stop 45 (refitted): pooled 10.6%; deepspeed 19.4 (DLRover's DeepSpeed 3D rows join),
    // automodel
    // 9.9 (FSDP kept after the forward, K01-K06), megatron 10.7.
    {CvGrouping::kFramework,
     // Stop 46 (refitted): pooled 10.5%; deepspeed 18.9 (Z40-Z47's Triton kernel), torchtitan 10.7
     // (FSDP1's flat parameter; NB04 joins).
     10.5 + kMarginPct,
     {{"megatron", 10.7 + kMarginPct},
      {"torchtitan", 10.7 + kMarginPct},
      {"deepspeed", 18.9 + kMarginPct},
      {"nanotron", 11.1 + kMarginPct},
      {"automodel", 9.9 + kMarginPct},
      {"scaling", 8.0 + kMarginPct},
      {"olmo-core", 5.1 + kMarginPct}}},
    // Fit at <= 1,024 GPUs, the runs above predicted: 48 runs, 5.7% at stop 35 (M60-M62,
    // DeepSeek-V3
    // on 2,048-8,192 GB200, join); 45 runs, 5.0% at stop 34 (5.3% at stop 33, 4.4% at stop 31).
    // 48 runs, 5.6% at stop 36; 5.4% with h39bw (M60-M62's validation pass); 5.2% at stop 37
    // and 38. 53 runs, 6.1% at stop 39 (N02-N06 join above 1,024; 5.4% over the 48 others).
    // Stop 40: 6.3% over 54 runs (B01, LLaMA-1 on 2,048 A100, joins).
    // Stop 41 (refitted): 9.6%. The fit at <= 1,024 GPUs reads the DeepCompile ZeRO-3 rows'
    // unexplained per-micro-batch gap as a network shortfall on H100 and predicts the MLPerf
    // GPT-3 rows at 10,000+ GPUs 18-30% slow; with DS01-DS12 not fitted it is 6.3%.
    // Stop 42 (refitted): 8.1%. The MLPerf GPT-3 rows state apex's bf16 gradient sync (h44scale):
    // the rows at 10,000+ H100 +11-17% in this fold.
    // Stop 43 (refitted): 8.7%. New rows at <= 1,024 GPUs predicted fast (FlagPerf's H100 at 440,
    // Megatron-LLaMA's A100 at 256-512) lower the fold's network fractions: M08-M16, N02-N03
    // slower.
    // Stop 44 (refitted): 7.1%. N02-N03 state their overlap (NeMo launcher config): -7/-8%
    // held out, not +52/+38%.
    // Stop 45 (refitted): 6.3%. H100's scale-out at its measured floor (0.756), not 0.60: M11-M16
    // in-sample +10..+15 -> +5..+8%.
    {CvGrouping::kScale, 6.2 + kMarginPct, {{"> 1024 GPUs", 6.2 + kMarginPct}}},
};

}  // namespace

TEST_CASE(
    "Public runs: cross-validation by GPU family, framework and scale error bounds and the "
    "unfitted-GPU band",
    "[validate][public][band]") {
  const std::vector<RunSpec> runs =
      LoadValidationRuns(PARAPLAN_SOURCE_DIR "/docs/validation/public_runs.yaml");
  REQUIRE(runs.size() == kPublicRuns);
  EfficiencyFitOptions options;  // the CLI's defaults, so the bounds are docs/validation.md's
  options.threads = 2;
  options.cache = std::make_shared<FamilyFitCache>();  // as the CLI shares it between groupings
  for (const GroupBounds& bounds : kGroupBounds) {
    const CrossValidationResult cv = CrossValidate(runs, options, bounds.by);
    std::string summary;
    for (const auto& fold : cv.folds) {
      summary += fold.source + ": " + FormatFixed(fold.step_time.mape_pct, 2) + "% over " +
                 std::to_string(fold.step_time.n) + "\n";
    }
    INFO("--cv " << ToString(bounds.by));
    WARN("--cv " << ToString(bounds.by) << " pooled step-time MAPE "
                 << FormatFixed(cv.overall.mape_pct, 2) << "% over " << cv.overall.n << "\n"
                 << summary);
    CHECK(cv.overall.mape_pct <= bounds.pooled_pct);
    REQUIRE(cv.folds.size() == bounds.groups_pct.size());
    for (const auto& fold : cv.folds) {
      INFO(fold.source);
      REQUIRE(bounds.groups_pct.count(fold.source) == 1);
      CHECK(fold.step_time.mape_pct <= bounds.groups_pct.at(fold.source));
      CHECK(fold.report.all.errors == 0);
    }
    if (bounds.by == CvGrouping::kGpu) CheckShippedUnfittedBand(cv);
  }
}

}  // namespace public_runs_cv
