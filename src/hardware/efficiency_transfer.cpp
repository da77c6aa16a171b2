#include "hardware/efficiency_transfer.h"

#include <algorithm>
#include <string>
#include <utility>

#include "core/format.h"
#include "hardware/gpu_family.h"
#include "hardware/measured_efficiency.h"

namespace paraplan {

namespace {

std::string FormatSms(int64_t sms) {
  return std::to_string(sms) + " SMs";
}

}  // namespace

TransferredValue TransferFraction(double fitted, const MeasuredValue* reference_measured,
                                  const MeasuredValue* target_measured, bool target_own) {
  if (!target_own || !target_measured) return {fitted, false};
  // 0 = the fused kernel itself (FlashAttention-2 on Ampere): nothing to scale.
  if (target_measured->value <= 0) return {0, true};
  const double reference = reference_measured ? reference_measured->value : 0;
  // The reference's shortfall is undefined without its own ceiling: the target's ceiling alone.
  const double shortfall = reference > 0 ? fitted / reference : 1.0;
  return {std::clamp(target_measured->value * shortfall, 0.0, kMaxDatasheetFraction), true};
}

TransferredEfficiency TransferEfficiency(const Efficiency& fitted, const std::string& from_model,
                                         const GpuSpec& from, const GpuSpec& to,
                                         const std::vector<std::string>& to_tiers) {
  TransferredEfficiency out;
  Efficiency& e = out.efficiency;
  e = fitted;
  auto& src = out.sources;
  // Each GPU's measured values: its family's, with the rates its hardware file states.
  const MeasuredEfficiency from_measured = MeasuredKernelEfficiency(from);
  const MeasuredEfficiency to_measured = MeasuredKernelEfficiency(to);
  std::string per_clock = "per SM and clock: " + from_model +
                          "'s fitted fraction of its datasheet peak, of " + to.name +
                          "'s datasheet peak (its SMs at its power-limited clock)";
  if (!to_measured.own && !to_measured.fields.empty()) {
    per_clock += "; no measured kernel ceiling of " + GpuFamily(to.name) + "'s own";
  }
  // One kernel or link fraction: the target's own measured ceiling x the reference's fitted /
  // measured (the framework-level shortfall), else the fitted fraction itself per SM and clock.
  auto transfer = [&](const std::string& field, double fitted_value, const std::string& carried) {
    const MeasuredValue* ref = from_measured.Find(field);
    const MeasuredValue* tgt = to_measured.Find(field);
    // A value carried from Hopper is no measurement of the target's own.
    const TransferredValue t =
        TransferFraction(fitted_value, ref, tgt, to_measured.own && tgt && !tgt->carried);
    if (!t.measured || tgt == nullptr) {
      src.emplace_back(field, carried);
    } else if (tgt->value <= 0) {
      src.emplace_back(field, tgt->source);
    } else {
      std::string why = to.name + "'s measured " + FormatShortest(tgt->value) + " (" + tgt->source +
                        ") x " + from_model + "'s fitted / measured (" +
                        FormatShortest(fitted_value) + " / ";
      why += ref && ref->value > 0 ? FormatShortest(ref->value) + ": its framework shortfall)"
                                   : "none: the ceiling alone)";
      src.emplace_back(field, std::move(why));
    }
    return t.value;
  };
  e.gemm_max = transfer("gemm_max", fitted.gemm_max, per_clock);
  if (from.sm_count > 0 && to.sm_count > 0) {
    e.gemm_half_dim = fitted.gemm_half_dim * static_cast<double>(to.sm_count) /
                      static_cast<double>(from.sm_count);
    src.emplace_back("gemm_half_dim", from_model + "'s x " + FormatSms(to.sm_count) + " / " +
                                          FormatSms(from.sm_count) + " (datasheets)");
  } else {
    src.emplace_back("gemm_half_dim", from_model + "'s (SM count unknown)");
  }
  e.fp8_gemm_max = transfer("fp8_gemm_max", fitted.fp8_gemm_max, per_clock + " (fp8 rate)");
  e.attention_fwd = transfer("attention_fwd", fitted.attention_fwd, per_clock);
  e.attention_bwd = transfer("attention_bwd", fitted.attention_bwd, per_clock);
  // A length along one sequence (the query block at which the fitted curve reaches half its
  // top), not a count per SM: carried as it is, no Blackwell sequence curve being measured.
  src.emplace_back("attention_half_seq",
                   from_model + "'s (tokens of one query block, carried: no sequence curve " +
                       "measured on " + to.name + ")");
  e.memory_bandwidth =
      transfer("memory_bandwidth", fitted.memory_bandwidth,
               from_model + "'s fraction of its HBM datasheet bandwidth, of " + to.name + "'s");
  // The launch gap and the fixed per-step cost are host-side time (the framework's Python and
  // launch path on the host CPU, the data loader), not a fraction of any GPU rate: absolute
  // values, carried as they are.
  src.emplace_back("kernel_launch_us", from_model + "'s (host launch path, absolute)");
  src.emplace_back("step_overhead_s", from_model + "'s (host-side, absolute)");
  e.fa2_attention_fwd = transfer("fa2_attention_fwd", fitted.fa2_attention_fwd, per_clock);
  e.fa2_attention_bwd = transfer("fa2_attention_bwd", fitted.fa2_attention_bwd, per_clock);
  e.link.clear();
  for (const auto& tier : to_tiers) {
    std::string carried = from_model;
    carried += "'s ";
    carried += tier;
    carried += " bus-bandwidth fraction, of ";
    carried += to.name;
    carried += "'s link datasheet bandwidth";
    e.link[tier] = transfer("link." + tier, fitted.LinkFraction(tier), carried);
  }
  return out;
}

}  // namespace paraplan
