#include "report/explain_text.h"

#include <algorithm>
#include <sstream>

#include "core/format.h"
#include "core/strings.h"
#include "core/units.h"
#include "cost/memory_model.h"
#include "cost/time_parts.h"
#include "report/relief_advice.h"
#include "report/stage_layout_text.h"

namespace paraplan {
namespace {

std::string Pad(const std::string& s, size_t width) {
  return s.size() >= width ? s : s + std::string(width - s.size(), ' ');
}
std::string Right(const std::string& s, size_t width) {
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}
std::string GiB(double bytes) {
  return FormatFixed(BytesToGiB(bytes), 2);
}

std::string PlanLine(const ParallelPlan& p) {
  std::ostringstream o;
  o << "tp=" << p.tp << " pp=" << p.pp << " dp=" << p.dp << " cp=" << p.cp << " ep=" << p.ep
    << " etp=" << p.etp << " vpp=" << p.vpp << " micro_batch=" << p.micro_batch
    << " global_batch=" << p.global_batch << " recompute=" << ToString(p.recompute)
    << " sequence_parallel=" << (p.sequence_parallel ? "true" : "false") << " zero=" << p.zero
    << " precision=" << ToString(p.precision) << " schedule=" << ToString(p.schedule);
  return o.str();
}

std::string Summary(const StepResult& r) {
  std::ostringstream o;
  o << "plan: " << PlanLine(r.plan) << "\n";
  const double margin = r.memory_capacity_bytes - r.peak_memory_bytes;
  o << "fits: " << (r.fits ? "yes" : "NO") << " (peak " << GiB(r.peak_memory_bytes) << " GiB of "
    << GiB(r.memory_capacity_bytes) << " GiB, " << (margin >= 0 ? "margin " : "over by ")
    << GiB(margin >= 0 ? margin : -margin) << " GiB)\n";
  o << "step time: " << FormatFixed(r.step_time_s, 3) << " s ("
    << (r.simulated ? "event simulation" : "analytical estimate") << ")\n";
  o << "throughput: " << FormatFixed(r.tokens_per_s_per_gpu, 1) << " tokens/s/GPU, MFU "
    << FormatFixed(100 * r.mfu, 1) << " %, HFU " << FormatFixed(100 * r.hfu, 1) << " %\n";
  return o.str();
}

std::string MemoryTable(const StepResult& r) {
  std::ostringstream o;
  o << "Memory per stage (GiB):\n";
  o << "  " << Pad("stage", 7) << Right("weights", 9) << Right("grads", 9) << Right("optimizer", 11)
    << Right("activations", 13) << Right("other", 9) << Right("total", 9) << "\n";
  for (const StageMemory& m : r.memory) {
    o << "  " << Pad(std::to_string(m.stage), 7) << Right(GiB(m.weights_bytes), 9)
      << Right(GiB(m.grads_bytes), 9) << Right(GiB(m.optimizer_bytes), 11)
      << Right(GiB(m.activations_bytes), 13) << Right(GiB(m.other_bytes), 9)
      << Right(GiB(m.TotalBytes()), 9) << "\n";
  }
  return o.str();
}

// explain only: the "other" column by term, and the EMA inside "optimizer" when there is one.
std::string OtherMemoryTable(const StepResult& r) {
  bool ema = false;
  for (const StageMemory& m : r.memory) ema = ema || m.ema_bytes > 0;
  std::ostringstream o;
  o << "Other memory per stage (GiB):\n";
  o << "  " << Pad("stage", 7) << Right("logits", 9) << Right("buffers", 9) << Right("reserve", 9)
    << Right("fragmentation", 15) << (ema ? Right("ema (in optimizer)", 20) : "") << "\n";
  for (const StageMemory& m : r.memory) {
    o << "  " << Pad(std::to_string(m.stage), 7) << Right(GiB(m.logits_bytes), 9)
      << Right(GiB(m.buffers_bytes), 9) << Right(GiB(m.reserve_bytes), 9)
      << Right(GiB(m.fragmentation_bytes), 15) << (ema ? Right(GiB(m.ema_bytes), 20) : "") << "\n";
  }
  return o.str();
}

// explain only: the dtypes the memory breakdown counts gradients and saved Linear inputs in.
std::string MemoryDtypeText(const StepResult& r) {
  const ParallelPlan& p = r.plan;
  auto dtype = [&p](double bytes) {
    if (bytes >= 4) return "fp32";
    return p.precision == Precision::kFp16 ? "fp16" : "bf16";
  };
  std::ostringstream o;
  o << "Memory dtypes: gradients " << dtype(KeptGradBytes(p)) << " ("
    << FormatShortest(KeptGradBytes(p)) << " B/param";
  if (KeptGradBytes(p) != GradBufferBytes(p)) {
    o << ", reduced and accumulated in " << dtype(GradBufferBytes(p));
  }
  o << "; grad_reduce_in_fp32=" << (p.grad_reduce_in_fp32 ? "true" : "false")
    << "), DP gradient reduction in " << ToString(DpGradCommDtype(p))
    << "; Linear inputs kept for backward in ";
  if (p.precision == Precision::kFp8 && p.kernels.fusion == Fusion::kTe) {
    o << "fp8 (Transformer Engine)";
  } else if (p.recipe.fp8_act_cache && p.recompute != Recompute::kFull) {
    o << "fp8 (fp8_act_cache)";
  } else {
    o << "bf16";
  }
  o << "\n";
  return o.str();
}

std::string TimeTable(const StepResult& r) {
  std::ostringstream o;
  o << "Time per step (critical path):\n";
  for (const TimePart& p : TimeParts(r.time)) {
    const double pct = r.step_time_s > 0 ? 100 * p.seconds / r.step_time_s : 0;
    o << "  " << Pad(p.name, 28) << Right(FormatFixed(p.seconds, 4), 10) << " s"
      << Right(FormatFixed(pct, 1), 7) << " %\n";
  }
  return o.str();
}

// The terms that grow with the number of ranks that synchronise, each with its N and source.
std::string ScaleTable(const StepResult& r) {
  if (r.scale_terms.empty()) return "";
  std::ostringstream o;
  o << "Scale terms (inside compute above; docs/cost-model.md, \"The slowest of N ranks\"):\n";
  for (const ScaleTerm& t : r.scale_terms) {
    o << "  " << Pad(t.name, 20) << Right(FormatFixed(t.seconds, 4), 10) << " s  N = " << t.ranks
      << ", sigma = " << FormatFixed(100 * t.sigma, 2) << " %, +"
      << FormatFixed(100 * t.fraction, 2) << " % of compute; source: " << t.source << "\n";
  }
  return o.str();
}

std::string StageTimeTable(const PipelineInput& in) {
  std::ostringstream o;
  o << "Time per stage, one micro-batch (ms; communication left exposed included):\n";
  o << "  " << Pad("stage", 7) << Right("forward", 10) << Right("backward", 10)
    << Right("dp_grad", 10) << Right("optimizer", 11) << "\n";
  for (size_t s = 0; s < in.stages.size(); ++s) {
    double f = 0, b = 0;
    for (const ChunkCost& c : in.stages[s].chunks) {
      f += static_cast<double>(c.forward) * 1e-6;
      b += static_cast<double>(c.backward_input + c.backward_weight + c.recompute) * 1e-6;
    }
    o << "  " << Pad(std::to_string(s), 7) << Right(FormatFixed(f, 3), 10)
      << Right(FormatFixed(b, 3), 10)
      << Right(FormatFixed(static_cast<double>(in.stages[s].dp_grad_comm) * 1e-6, 3), 10)
      << Right(FormatFixed(static_cast<double>(in.stages[s].optimizer) * 1e-6, 3), 11) << "\n";
  }
  o << "  micro-batches per step: " << in.micro_batches << "\n";
  return o.str();
}

std::string Bytes(double b) {
  if (b >= 1e9) return FormatFixed(b / 1e9, 2) + " GB";
  if (b >= 1e6) return FormatFixed(b / 1e6, 2) + " MB";
  return FormatFixed(b / 1e3, 1) + " kB";
}

// One call of each collective the plan issues, with the tier it crosses and NCCL's choice.
std::string CollectiveTable(const StepResult& r) {
  if (r.collectives.empty()) return "";
  std::ostringstream o;
  o << "Collectives, one call each (NCCL's algorithm/protocol as its tuning model picks them):\n";
  o << "  " << Pad("group", 6) << Pad("op", 15) << Right("ranks", 6) << Right("/node", 6) << "  "
    << Pad("tier", 10) << Right("size", 10) << "  " << Pad("algorithm", 11) << Pad("protocol", 9)
    << Right("time", 11) << "  what\n";
  for (const CollectiveCall& c : r.collectives) {
    o << "  " << Pad(c.group, 6) << Pad(c.op, 15) << Right(std::to_string(c.ranks), 6)
      << Right(std::to_string(c.per_domain), 6) << "  " << Pad(c.tier, 10)
      << Right(Bytes(c.bytes), 10) << "  " << Pad(c.algorithm, 11) << Pad(c.protocol, 9)
      << Right(FormatFixed(c.seconds * 1e3, 3), 8) << " ms  " << c.what << "\n";
  }
  return o.str();
}

// Each group's communication per step on the slowest stage: busy, hidden, exposed, and the
// compute lost to the SMs its kernels hold while hidden (docs/cost-model.md, "SM cost of
// overlap").
std::string OverlapTable(const StepResult& r) {
  if (r.comm_groups.empty()) return "";
  std::ostringstream o;
  o << "Communication per step (slowest stage): busy = all its time, hidden under compute, "
       "exposed on the step, SM loss = compute lost beside it\n";
  o << "  " << Pad("group", 7) << Pad("tier", 10) << Right("busy", 11) << Right("hidden", 11)
    << Right("exposed", 11) << Right("SM loss", 11) << "\n";
  for (const CommGroupTime& g : r.comm_groups) {
    o << "  " << Pad(g.group, 7) << Pad(g.tier, 10) << Right(FormatFixed(g.busy_s, 3), 9) << " s"
      << Right(FormatFixed(g.hidden_s, 3), 9) << " s" << Right(FormatFixed(g.exposed_s, 3), 9)
      << " s" << Right(FormatFixed(g.sm_loss_s, 3), 9) << " s\n";
  }
  o << "  compute lost to SM sharing: " << FormatFixed(r.sm_loss_s, 3) << " s per step\n";
  return o.str();
}

}  // namespace

std::string TimeAdvice(const StepResult& r) {
  const TimePart top = DominantTimePart(r.time);
  const std::string name = top.name;
  const std::string advice = Join(TimeRelief(r.plan, name, r.fits));
  return "dominant cost: " + name + " (" + FormatFixed(top.seconds, 3) +
         " s); would relieve it: " + advice + "\n";
}

PeakMemoryPart LargestMemoryPart(const StepResult& r) {
  const auto peak = std::max_element(
      r.memory.begin(), r.memory.end(),
      [](const auto& a, const auto& b) { return a.TotalBytes() < b.TotalBytes(); });
  const std::pair<const char*, double> parts[] = {{"activations", peak->activations_bytes},
                                                  {"optimizer state", peak->optimizer_bytes},
                                                  {"weights", peak->weights_bytes},
                                                  {"gradients", peak->grads_bytes},
                                                  {"other", peak->other_bytes}};
  const auto* top =
      std::max_element(std::begin(parts), std::end(parts),
                       [](const auto& a, const auto& b) { return a.second < b.second; });
  return {&*peak, top->first, top->second};
}

std::string MemoryAdvice(const StepResult& r) {
  if (r.fits || r.memory.empty()) return "";
  const PeakMemoryPart largest = LargestMemoryPart(r);
  const StageMemory* peak = largest.stage;
  const std::string name = largest.part;
  const std::string advice = Join(MemoryReliefAt(r.plan, name, *peak));
  const double over = peak->TotalBytes() - r.memory_capacity_bytes;
  return "does not fit: stage " + std::to_string(peak->stage) + " needs " +
         GiB(peak->TotalBytes()) + " GiB, " + GiB(over) + " GiB over; largest part: " + name +
         " (" + GiB(largest.part_bytes) + " GiB); would relieve it: " + advice + "\n";
}

std::string ExplainText(const StepResult& r, const PipelineInput& stages) {
  std::string out = Summary(r) + "\n" + TimeTable(r) + ScaleTable(r) + "\n" +
                    StageTimeTable(stages) + "\n" + MemoryTable(r) + "\n" + OtherMemoryTable(r) +
                    MemoryDtypeText(r) + "\n" + StageLayoutText(r);
  const std::string collectives = CollectiveTable(r);
  if (!collectives.empty()) out += collectives + "\n";
  const std::string overlap = OverlapTable(r);
  if (!overlap.empty()) out += overlap + "\n";
  out += TimeAdvice(r);
  out += MemoryAdvice(r);
  return out;
}

std::string StepResultTable(const StepResult& r) {
  return Summary(r) + "\n" + TimeTable(r) + "\n" + MemoryTable(r) + MemoryAdvice(r);
}

}  // namespace paraplan
