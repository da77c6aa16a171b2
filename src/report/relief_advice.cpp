#include "report/relief_advice.h"

#include <utility>

#include "core/format.h"
#include "core/strings.h"
#include "core/units.h"

namespace paraplan {
namespace {

using Items = std::vector<std::string>;

void AddIf(Items& items, bool applies, const char* text) {
  if (applies) items.emplace_back(text);
}

Items ComputeRelief(const ParallelPlan& p, bool fits) {
  Items items;
  AddIf(items, fits && p.recompute == Recompute::kFull,
        "recompute=selective or none if memory allows");
  AddIf(items, fits && (p.recompute == Recompute::kSelective || p.recompute == Recompute::kOp),
        "recompute=none if memory allows");
  AddIf(items, p.precision != Precision::kFp8, "precision=fp8");
  AddIf(items, fits, "a larger micro_batch for better GEMM efficiency");
  items.emplace_back("more GPUs");
  return items;
}

Items BubbleRelief(const ParallelPlan& p) {
  Items items{"more micro-batches (smaller micro_batch or larger global_batch)"};
  AddIf(items, p.vpp == 1, "schedule=interleaved with vpp>1");
  AddIf(items, p.schedule != Schedule::kZeroBubble && p.schedule != Schedule::kDualPipe,
        "schedule=zero-bubble");
  items.emplace_back("a smaller pp");
  return items;
}

Items DpRelief(const ParallelPlan& p) {
  Items items;
  AddIf(items, !p.overlap_grad_reduce, "overlap_grad_reduce=true");
  AddIf(items, !p.overlap_param_gather && p.zero >= 1, "overlap_param_gather=true");
  AddIf(items, DpGradCommDtype(p) == CommDtype::kFp32, "dp_comm_dtype=bf16");
  items.emplace_back("a larger dp_bucket_MB");
  items.emplace_back("more gradient-accumulation micro-batches");
  return items;
}

Items CommRelief(const ParallelPlan& p, const std::string& cost) {
  Items items;
  if (cost == "TP communication") {
    items.emplace_back("keep tp inside the NVLink domain (smaller tp)");
    AddIf(items, !p.overlap_tp_comm, "overlap_tp_comm=true");
    AddIf(items, !p.sequence_parallel, "sequence_parallel=true");
  } else if (cost == "CP communication") {
    items.emplace_back(
        "a smaller cp, or cp inside the NVLink domain (placement with cp next to tp)");
  } else if (cost == "EP communication") {
    AddIf(items, !p.overlap_ep_comm, "overlap_ep_comm=true");
    AddIf(items, !p.kernels.moe_deepep && p.schedule != Schedule::kDualPipe,
          "moe_deepep=true (two-hop dispatch: one copy per node on the network)");
    items.emplace_back("ep inside the NVLink domain (placement)");
    AddIf(items, p.moe_routing == MoeRouting::kDropless,
          "less expert imbalance (moe_routing=drop with moe_capacity_factor)");
  } else if (cost == "PP communication") {
    AddIf(items, !p.overlap_pp_comm, "overlap_pp_comm=true");
    items.emplace_back("fewer pipeline stages");
  }
  return items;
}

}  // namespace

std::vector<std::string> TimeRelief(const ParallelPlan& plan, const std::string& cost, bool fits) {
  if (cost == "compute") return ComputeRelief(plan, fits);
  if (cost == "pipeline bubble") return BubbleRelief(plan);
  if (cost == "DP communication (exposed)") return DpRelief(plan);
  if (cost == "optimizer step") {
    return plan.zero == 0 ? Items{"zero=1 (shards the optimizer step over data-parallel ranks)"}
                          : Items{"more dp (the optimizer step is sharded over it)"};
  }
  return CommRelief(plan, cost);
}

std::vector<std::string> MemoryRelief(const ParallelPlan& p, const std::string& part) {
  Items items;
  if (part == "activations") {
    AddIf(items, p.recompute == Recompute::kNone, "recompute=selective or full");
    AddIf(items, p.recompute == Recompute::kSelective || p.recompute == Recompute::kOp,
          "recompute=full");
    AddIf(items, p.recompute == Recompute::kSelective && p.recipe.recompute_modules == 0,
          "recompute_modules=core_attn+layernorm+moe_act (+mla_up_proj with MLA)");
    AddIf(items, p.recompute != Recompute::kFull && !p.recipe.fp8_act_cache,
          "fp8_act_cache=true (Linear inputs in FP8)");
    // Only an explicit moe_probs=output keeps the expert outputs (plan/memory_recipe.h).
    AddIf(items, p.recipe.moe_probs == MoeProbs::kOutput,
          "moe_probs=activation (routing probabilities in the activation: expert outputs not "
          "kept)");
    AddIf(items, p.micro_batch > 1, "a smaller micro_batch");
    AddIf(items, p.tp > 1 && !p.sequence_parallel, "sequence_parallel=true");
    items.emplace_back("more tp/cp/pp");
  } else if (part == "optimizer state") {
    AddIf(items, p.zero == 0, "zero=1 (distributed optimizer)");
    AddIf(items, p.recipe.optimizer_moments == MomentDtype::kFp32,
          "optimizer_moments=bf16 (precision-aware optimizer)");
    AddIf(items, p.recipe.optimizer_offload < 1, "optimizer_offload=0.5 (host memory)");
    AddIf(items, p.recipe.ema == EmaPlace::kGpu, "ema=cpu (the weights' EMA in host memory)");
    items.emplace_back("more dp");
  } else if (part == "gradients") {
    AddIf(items, p.zero < 2, "zero=2");
    AddIf(items, p.grad_reduce_in_fp32, "grad_reduce_in_fp32=false (bf16 gradient buffer)");
    items.emplace_back("more dp");
  } else if (part == "weights") {
    AddIf(items, p.zero < 3, "zero=3");
    items.emplace_back("more tp/pp (ep for experts)");
  } else {
    AddIf(items, p.micro_batch > 1, "a smaller micro_batch (fp32 logits)");
    items.emplace_back("more tp or cp (they split the logits)");
    items.emplace_back("a smaller dp_bucket_MB");
  }
  return items;
}

std::vector<std::string> MemoryReliefAt(const ParallelPlan& p, const std::string& part,
                                        const StageMemory& peak) {
  Items items;
  if (part != "optimizer state" && p.recipe.ema == EmaPlace::kGpu && peak.ema_bytes > 0) {
    items.push_back("ema=cpu (frees the EMA's " + FormatFixed(BytesToGiB(peak.ema_bytes), 2) +
                    " GiB)");
  }
  for (std::string& item : MemoryRelief(p, part)) items.push_back(std::move(item));
  return items;
}

}  // namespace paraplan
