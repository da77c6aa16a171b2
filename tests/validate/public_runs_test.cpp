// The validation against published runs as a test (DESIGN.md "Quality bars"): the project's
// copy of the public runs with the shipped efficiencies. Tighten the bounds as the model
// improves; never loosen them silently (docs/validation.md has the current numbers).
#include <catch2/catch.hpp>

#include "core/format.h"
#include "validate/public_rows.h"
#include "validate/validation_report.h"

using namespace paraplan;

namespace {

// The in-sample error of the project's public runs with the shipped efficiencies (fitted on these
// 54 runs by `paraplan validate docs/validation/public_runs.yaml --fit-efficiency
// hardware/efficiency.yaml --holdout-every 0`), so this is not a generalization figure: that is
// leave-one-source-out, public_runs_cv_test.cpp. The bounds are today's measured values plus a
// small margin, so that a change that makes validation worse fails. History: 38 runs, before
// issue 14's cost model: 12.13% (held out 13.2%, memory 9.64%); 54 runs (reserved runs split off,
// dgxc-benchmarking and Trainy added), old cost model, not refitted: 14.29%; issue 14's op-level
// cost model with its fit bounded to measured ranges, refitted: 12.13% (held out 11.90%, memory
// 12.11% over 16); stop 21 (TP overlap as the framework runs it, fp8 tied to bf16, the GEMM
// curve held at its fitted range, memory recipes), refitted: 8.1% (held out 7.1%, memory 12.1%);
// stop 22 (the ops and replays listed in public_runs_cv_test.cpp), refitted: 6.8% (held out 5.8%).
// Stop 23 (62 runs: MoE rows D17-D24 added; E10 with its recipe's memory knobs; MoE FP8 casts),
// refitted: 7.9% (held out 8.0%, memory 12.1%). Stop 25 (the MoE rows' stated expert TP and EP
// overlap; MoE ops; SM cost of overlap; NIC sharing), refitted: 6.8% (held out 6.4%). Stop 26
// (TE's FP8 cast of the FC2 input, transposes of its norm-fused inputs; TE's delayed-scaling amax
// all-reduce; the MoE layer's token-count and aux-loss collectives), refitted: 6.8% (held out
// 6.3%). Stop 27 (the tile-and-wave GEMM model on Hopper, fp8_gemm_max fitted), refitted: 6.2%
// (held out 6.3%). Stop 29 (torchtitan Dec 2024's pp micro-batches for looped schedules and its
// generated split points; PyTorch's lock-step multi-stage runtime), refitted: 6.0% (held out 6.4%,
// memory 11.5%: Q14 -10.6% -> +0.4%). Stop 30 (PyTorch ring attention's copies and fp32 gradient
// pass, torchtitan's repeat_kv), refitted: 5.8% (held out 6.3%, memory 11.2%). Issue 37: the
// Narayanan rows' unstated DP overlap is Megatron-LM's default (off), not refitted: held out 6.7%.
// Stop 31 (270 runs from 16 sources: MLPerf Training, dgxc-benchmarking GB200/H100, NeMo 25.02
// on B200, torchtitan and FSDP on A100/H100, DeepSpeed on Azure; framework-version defaults for
// unstated knobs; pipeline hops on their links; B200 and GB200 fitted for the first time),
// refitted: 6.6% (held out 6.9%, memory 11.2%); 264 of 270 published plans fit (G114, G119, M43
// and S01-S03 do not). Stop 33 (334 runs from 21 sources: the Y rows on H200, Blackwell and A100,
// the Z rows of nanotron, DeepSpeed, Colossal-AI and Megatron-DeepSpeed; nanotron's own DP
// reduction and TP overlap; the fit on Huber's loss), refitted: 9.3% (held out 9.2%, memory
// 11.2%); 326 of 334 fit (Y29 and Z30 join the six). The figure rose with the new rows, not the
// model: the 270 rows of stop 31 stand at 6.8% (were 6.6%; docs/validation/lessons.md, "Stop 33").
// Stop 34 (nanotron's ZeRO-1: the whole fp32 gradient all-reduced, the gather's per-tensor
// copies; zero1_all_reduce), not refitted: 9.0% (held out 8.5%); only the 16 nanotron zero-1
// rows move. With the NeMo 22.08 profile, GB200's 400 Gb/s NICs and the MoE rows' recipes, and
// refitted (H100's launch gap at its 10 us ceiling): 8.8% (held out 8.3%). Stop 35 (367 runs: the
// K rows, MoE with EP on H100, and M51-M63, MLPerf v5.1/v6.0 on B300/GB300/GB200 incl. DeepSeek-V3
// at up to 8,192 GB200; the seven B300/GB300 rows evaluation-only), refitted: 9.7% (held out
// 9.5%); the 334 rows of stop 34 move little, the new rows carry the rise (K 12.9%, M51-M63 25.6%).
// 356 of 367 fit (K03-K05, NeMo AutoModel with FSDP2, join the eight that do not). Stop 36 (698
// runs: L01-L299, A100 layout sweeps of Hagemann et al. and Zero Bubble PP's Megatron-LM
// baselines; R01-R14, OLMo-core and torchtitan FSDP2; P01-P18, DeepSpeed ZeRO-2/3 with CPU Adam),
// refitted: 11.3% (held out 12.0%; L 12.7%, P 20.1%; the 367 rows of stop 35 stay at 9.7%); 680 of
// 698 fit; R09-R12 state tokens/s only. Stop 37 (Aleph Alpha Scaling's defaults and the fused
// RMSNorm on the Hagemann rows, DeepSpeed's overlaps by ZeRO stage, Blackwell's MAMF ceilings,
// MLPerf v6.0's validation pass; refitted with the fit weighing sources): 9.2% (held out 9.9%); 680
// of 698 fit. Stop 38 (h40audit): Y03 and Y07 state the container's recompute none (NeMo
// v2.3.0/v2.4.0 model_configs_gb200.csv) and fit at 180.1 GiB of 186 with the fused loss their
// containers ran (cross_entropy_fusion): 680 of 698 fit.
// Refitted at stop 38 (700 runs; DeepEP's permute and link rates, AutoModel's routing; NCCL's
// size terms and PAT; DeepSpeed's 16-bit gradients; A100 on the tile-and-wave GEMM model with
// batched waves; NeMo summary rows' recipes, torchtitan's SP copies and re-gathers; nanotron on
// AWS p5's EFA profile with its fp32 accumulation pass): 8.1% over 696 (held out 8.2%); 682 fit.
// Refitted at stop 39 (706 runs; DeepSpeed's ZeRO-3 coordinator, TE's FP8 recipes and Blackwell's
// layout-free FP8 GEMMs, torchao float8, nanotron's DDP buckets, NeMo 22.08's fp32 gradient copy
// at PP 1, the tied-embedding all-reduce): 8.1% over 702; 685 fit.
// Refitted at stop 40 (749 runs: InternLM, LLaMA-1, Skywork, NeMo long-sequence, torchtitan DeepEP
// on B200; Megatron-Core's DDP buckets, DeepSpeed's bucket all-reduce, DeepEP's network leg by node
// count): 8.45% over 736; 727 fit.
// Stop 41 (h43ds, nothing refitted): DS01-DS13 join at -13 ... -33% (DeepSpeed ZeRO-3 at small
// batches on 32 H100, every row fast; Megatron-DeepSpeed 2.7B on 8 A100 -15%) and DeepSpeed's
// ZeRO-3 gradient copies move S01-S03/P/Z30 toward measured: 8.72% over 749. After stop 41's
// merge and refit (802 runs, 53 new; the new rows are harder than the old): 8.83% over 789.
// Stop 42 (h44breadth, nothing refitted): TG01-TG27 join at 17.6% (Nemotron-4 15B on B200
// predicted slow, the 70B FSDP weak scaling flat where the cluster loses 20%, GB200/MoE rows
// 30-58% fast): 9.12% over 816. After stop 42's refit (834 runs, + HG, MX02, DZ01): 9.12% over
// 821. Stop 43 (+ 48 rows: AB, NV, EP; a kernel switch keeps its framework's fusion, O01) after
// the refit (H800 fitted on its own rows, A100 scale-out 0.94 -> 0.83): 9.34% over 869. Stop 44
// (async TP's backward, TE's per-expert GEMM launches, N01-N03's stated overlap; H100's scale-out
// refits at its 0.60 floor, pulled by DS01-DS12): 8.98% over 869. Stop 45 (h50breadth, + LS01-LS11,
// nothing refitted): 8.95% over 880. After stop 45's refit (link.scaleout within its measured
// range 0.756-0.96: H100 0.60 -> 0.756, which the DS rows' unexplained host time pulls to its
// floor; recompute's early stop; FSDP kept after the forward): 8.98% over 880. Stop 46 (+
// NB01-NB05, GH01-GH05; flash-attn's Triton kernel on Z40-Z47, FSDP1's flat parameter, NeMo 24.03's
// launcher defaults; refitted): 8.95% over 890.
constexpr double kStepTimeMapePct = 8.95 + 0.2;
// Stop 39 (h41breadth, N01-N06, nothing refitted): 8.7% held out. The held-out subset is every
// 4th run in id order, so the N rows shift it for every id after N (P-Z: 18 rows out, 17 in) and
// add N01 (+34.7%) and N05 (+5.0%); the old subset still reads 8.2% with this binary. After
// stop 39's refit: 8.7%. Stop 40 (h42moe, nothing refitted): 8.62% (V01-V05, B200 MoE rows at
// -34%, put V04 in the subset; J03-J04 shift the H100 rows after J; DeepEP's 8-node combine at
// its measured rate moves K08 and K12 faster).
// After stop 40's refit (749 runs): 8.31% over 181. Stop 41 (h43ds, nothing refitted): 8.90% over
// 184 (DS03, DS07, DS11 and DS13 held out at -23, -20, -29, -15%; the rows after DS shift).
// 727 fit at stop 40; 758 with O01-O31 (stop 41, h43breadth: all fit); 780 of 802 after stop 41.
// + HG01-HG03 (stop 42, h44h200: all fit), + MX02 (h44moe), + DZ01 (h44ds), + TG01-TG27
// (h44breadth: all fit). + NV01-NV12 (stop 43, h45hopper: all fit), + AB01-AB34 (h45ampere:
// FlagPerf, Megatron-LLaMA, ms-swift; all fit). + LS01-LS11 (stop 45, h50breadth: NeMo
// AutoModel's dense Llama 3.1 70B row, Ant Group's DLRover/ATorch Llama2-7B table; all fit: 871 of
// 893). + NB01-NB05 (stop 46, h51breadth: flash-attention's GPT-3 table, TorchAcc's FSDP / ZeRO-3
// pair on 8 A100; all fit). + GH01-GH05 (stop 46, h51gh200: swiss-ai's Megatron-LM on Alps GH200;
// all fit): 881 of 903.
constexpr int64_t kMinFits = 881;
// h43bw: BW01 sorts before every other Blackwell id, so the family's every-4th held-out rows move
// by one (G03/G09/.../G39 in, G04/G10/... out): 8.53% over 181 with stop 40's efficiencies.
// After stop 41's refit (802 runs): 8.14% over 191. Stop 42 (h44breadth, nothing refitted): 8.77%
// over 197 (TG08 +32.7, TG12 +11.5, TG16 +2.4, TG20 +13.2, TG26 -58.4% held out; the Blackwell rows
// after TG shift). After stop 42's refit (834 runs): 9.25% over 200 (the held-out TG rows at
// +11..+33% and -56%, DZ01 in the fit). Stop 44 (refitted): 8.1% over 210 (K09 +77%: Megatron
// FSDP over 128 ranks at H100's refitted 0.60 scale-out). Stop 45 (h50breadth, nothing refitted):
// LS01 sorts among the Hopper ids and LS02-LS11 among the A100 ids, so both families' every-4th
// held-out rows move (Q01/M01/T01... out, Q04/M04/T04... in; LS01, LS03, LS07, LS11 held out at
// +13.8, -2.4, -3.0, +9.3%): 8.09% over 210 -> 8.58% over 213 with the same binary and
// efficiencies. After stop 45's refit: 8.38% over 213. Stop 46 (h51breadth, nothing refitted):
// NB01-NB05 sort among the A100 ids (NB04 held out at -4.4%; P16, S02, U03, X01 ... in, P17, S03,
// U04, X02 ... out): 8.33% over 214. After stop 46's refit (GH01-GH05 join the Hopper ids):
// 8.25% over 215.
constexpr double kHeldOutMapePct = 8.25 + 0.2;
// 700 + N01-N06 (stop 39, h41breadth: Nemotron-4 15B and 340B batch-ramp stages; N04-N06 do not
// fit under Megatron-LM's defaults) + C01-C17 (stop 40, h42breadth: NeMo's long-sequence tables,
// every one fits; in-sample 8.06% over 702 -> 8.27% over 719, held out 8.5%, stop 39's
// efficiencies).
// + J01-J02 (stop 38, h40moe; J01 does not fit, as K04); + V01-V05, J03-J04 (stop 40, h42moe).
// + I01-I08, B01, U01-U10 (stop 40, h42a100: InternLM 7B on 128-1,024 A100, LLaMA-1 65B on 2,048,
// Skywork-13B's layout sweep on 512 A800; nine U rows compare tokens/s/GPU only).
// + DS01-DS13 (stop 41, h43ds: DeepSpeed's DeepCompile benchmark, ZeRO-3 on 32 H100; the
// Megatron-DeepSpeed rebase README's 2.7B on 8 A100).
// + O01-O31 (stop 41, h43breadth: TinyLlama on 16 A100 40GB; KempnerForge on 1-360 H200 in 4-GPU
// nodes; in-sample 8.45% over 736 -> 8.60% over 767, shipped stop-40 efficiencies).
// + BW01-BW03 (stop 41, h43bw, MLPerf v6.0: DeepSeek-V3 on 256 GB200 (Google) and 256 GB300
// (NVIDIA Theia), GPT-OSS 20B on 64 GB300 (Quanta); BW02-BW03 evaluation-only).
// + G40-G41 (stop 41, h43moe: DeepSeek-V3 on 512 and 1,024 H100, EP 64 > DP 32) + F01-F04 (stop 41,
// h43moe: MLPerf v6.0 GPT-OSS 20B on 8 GB200, 8 and 64 B300, 72 GB300; F01 does not fit in the
// memory model at the logged micro-batch 2).
// + MX02 (stop 42, h44moe: Llama 4 Scout on 64 GB200 from the NeMo 25.07 summary; it fits; MX01,
// from Megatron-Core v0.8's MoE README, is csv-only: reserved). + HG01-HG03 (stop 42, h44h200).
// + DZ01 (stop 42, h44ds: DeepSpeed's bf16_master_weight example, ZeRO-3 on 4 H100 in one node at
// 512 tokens per GPU; -74% in-sample, the small-batch ZeRO-3 gap on a single node).
// + TG01-TG27 (stop 42, h44breadth: Together AI's reruns of the dgxc-benchmarking recipes on its
// own B200 cluster (8-592 GPUs) and GB200 racks, one B300 node (TG27, evaluation-only); all fit).
// + NV01-NV12 (stop 43, h45hopper: Google Cloud A3 Mega H100 NeMo examples; MLPerf v6.0 GPT-OSS
// 20B from Lambda, Dell, Supermicro, HPE and Nebius, NV07-NV12 evaluation-only; all fit).
// + EP01-EP02 (stop 43, h45moe: Qwen3-30B-A3B FP8 on 16 and 32 B200, Google Cloud A4 job logs).
// + AB01-AB34 (stop 43, h45ampere: BAAI's FlagPerf on A800, H100 and H800; Alibaba's
// Megatron-LLaMA README on 32-512 A100; ModelScope's ms-swift benchmark on 8 A800).
// + LS01-LS11 (stop 45, h50breadth: NeMo AutoModel's Llama 3.1 70B FSDP2 x CP 2 on 64 H100; Ant
// Group's DLRover/ATorch Llama2-7B DeepSpeed 3D and FSDP table on 8-64 A100; in-sample 8.98% over
// 869 -> 8.95% over 880).
// + NB01-NB05 (stop 46, h51breadth: Dao-AILab flash-attention's GPT-3 760M/1.3B/2.7B table and
// Alibaba PAI TorchAcc's Llama-3-8B under FSDP1 and DeepSpeed ZeRO-3, 8 A100; in-sample 8.98% over
// 880 -> 8.95% over 885 with stop 45's refit).
// + GH01-GH05 (stop 46, h51gh200: swiss-ai's Megatron-LM fork on CSCS Alps, 4-256 GH200; in-sample
// 8.98% over 880 -> 9.08% over 885, the GH rows 12-18% fast and GH01 -70%).
constexpr size_t kPublicRuns = 903;
constexpr int64_t kTokensOnlyRuns = 13;  // R09-R12, U01-U05, U07-U10
// torchtitan's measured peaks (Q01-Q14, W01-W02) and R13-R14: 10.0% at stop 36 and stop 37.
constexpr double kMemoryMapePct = 10.0 + 0.2;
// The reserved runs with the shipped efficiencies, whose fit never saw them: measured 35.8%;
// 34.8% with the stop 23 refit (62 runs); 29.9% with stop 25's; 30.5% with stop 26's; 34.1% with
// stop 27's (the tile GEMM model on Hopper: docs/validation/lessons.md, "Stop 27"); 33.1% with
// stop 31's (270 runs); 31.7% with stop 33's (334 runs, Huber's loss); 31.3% with stop 34's;
// 31.1% with stop 35's (367 runs), and with stop 37's; 31.3% with stop 39's (706 runs).
constexpr double kReservedShippedMapePct = 31.3 + 0.2;

std::string Failures(const ValidationReport& report) {
  std::string text;
  for (const auto& run : report.runs) {
    if (run.status != RunStatus::kOk) {
      text += run.id + ": error: " + run.message + "\n";
    } else if (!run.fits) {
      text += run.id + ": published plan predicted not to fit: " + run.message + "\n";
    }
    auto it = run.error_pct.find("step_time_s");
    if (it != run.error_pct.end()) {
      text += run.id + ": step time error " + FormatFixed(it->second, 1) + "%\n";
    }
  }
  return text;
}

ValidationReport ValidateFile(const char* name, size_t expected_runs) {
  const std::vector<RunSpec> runs =
      LoadValidationRuns(std::string(PARAPLAN_SOURCE_DIR "/docs/validation/") + name);
  REQUIRE(runs.size() == expected_runs);
  return test::ValidateRows(runs);
}

}  // namespace

// The torchtitan rows name hardware/grand-teton-h100.yaml (the 96 GB HBM2e, 500 W parts their
// source states, at datasheet peaks: no cited sustained clock exists for the cap).
TEST_CASE("Public runs: current in-sample error bounds", "[validate][public]") {
  const ValidationReport report = ValidateFile("public_runs.yaml", kPublicRuns);
  INFO(Failures(report));
  const auto& step = report.all.metrics.at("step_time_s");
  WARN("published runs: step-time MAPE " << FormatFixed(step.mape_pct, 2) << "% over " << step.n
                                         << ", fits " << report.all.fits_fit << "/"
                                         << report.all.fits_n);
  CHECK(report.all.errors == 0);
  CHECK(step.n == static_cast<int64_t>(kPublicRuns) - kTokensOnlyRuns);
  // The B300/GB300 rows, evaluation-only inside the public file (a GPU kept unfitted on purpose):
  // M51-M55, M58, M63, BW02-BW03 and F02-F04 (stop 41), TG27 (stop 42, h44breadth), NV07-NV12
  // (stop 43, h45hopper).
  CHECK(report.evaluation_only.fits_n == 19);
  CHECK(report.evaluation_only.errors == 0);
  CHECK(step.mape_pct <= kStepTimeMapePct);
  CHECK(report.all.fits_fit >= kMinFits);
  CHECK(report.all.metrics.at("memory_GiB").mape_pct <= kMemoryMapePct);
  const auto& held = report.held_out.metrics.at("step_time_s");
  CHECK(held.mape_pct <= kHeldOutMapePct);
  for (const auto& run : report.runs) {
    if (run.id.rfind('Q', 0) == 0) CHECK(run.gpu_name == "H100-SXM5-96GB-HBM2e-500W");
  }
}

// The reserved runs (evaluation only) are validated, never fitted: every run is its own subset,
// none is held out or fitted.
TEST_CASE("Reserved runs: evaluated as evaluation-only with the shipped efficiencies",
          "[validate][public]") {
  const ValidationReport report = ValidateFile("reserved_runs.yaml", 2);
  INFO(Failures(report));
  CHECK(report.all.errors == 0);
  CHECK(report.evaluation_only.fits_n == 2);
  CHECK(report.fitted.fits_n == 0);
  CHECK(report.held_out.fits_n == 0);
  const auto& step = report.evaluation_only.metrics.at("step_time_s");
  CHECK(step.n == 2);
  CHECK(step.mape_pct <= kReservedShippedMapePct);
  for (const auto& run : report.runs) CHECK(run.evaluation_only);
}
