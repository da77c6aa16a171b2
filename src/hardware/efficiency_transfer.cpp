#include "hardware/efficiency_transfer.h"

#include <string>
#include <utility>

#include "hardware/gpu_family.h"

namespace paraplan {

namespace {

std::string FormatSms(int64_t sms) {
  return std::to_string(sms) + " SMs";
}

}  // namespace

TransferredEfficiency TransferEfficiency(const Efficiency& fitted, const std::string& from_model,
                                         const GpuSpec& from, const GpuSpec& to,
                                         const std::vector<std::string>& to_tiers) {
  TransferredEfficiency out;
  Efficiency& e = out.efficiency;
  e = fitted;
  auto& src = out.sources;
  const std::string per_clock = "per SM and clock: " + from_model +
                                "'s fitted fraction of its datasheet peak, of " + to.name +
                                "'s datasheet peak (its SMs at its power-limited clock)";
  src.emplace_back("gemm_max", per_clock);
  if (from.sm_count > 0 && to.sm_count > 0) {
    e.gemm_half_dim = fitted.gemm_half_dim * static_cast<double>(to.sm_count) /
                      static_cast<double>(from.sm_count);
    src.emplace_back("gemm_half_dim", from_model + "'s x " + FormatSms(to.sm_count) + " / " +
                                          FormatSms(from.sm_count) + " (datasheets)");
  } else {
    src.emplace_back("gemm_half_dim", from_model + "'s (SM count unknown)");
  }
  src.emplace_back("fp8_gemm_max", per_clock + " (fp8 rate)");
  src.emplace_back("attention_fwd", per_clock);
  src.emplace_back("attention_bwd", per_clock);
  src.emplace_back("attention_half_seq", from_model + "'s (tokens per SM to fill the kernel)");
  src.emplace_back("memory_bandwidth",
                   from_model + "'s fraction of its HBM datasheet bandwidth, of " + to.name + "'s");
  src.emplace_back("kernel_launch_us", from_model + "'s (host launch path)");
  src.emplace_back("step_overhead_s", from_model + "'s");
  if (GpuFamily(to.name) == kAmpere) {
    e.fa2_attention_fwd = 0;
    e.fa2_attention_bwd = 0;
    src.emplace_back("fa2_attention_fwd", "0: FlashAttention-2 is Ampere's fused kernel");
    src.emplace_back("fa2_attention_bwd", "0: FlashAttention-2 is Ampere's fused kernel");
  } else {
    src.emplace_back("fa2_attention_fwd", per_clock);
    src.emplace_back("fa2_attention_bwd", per_clock);
  }
  e.link.clear();
  for (const auto& tier : to_tiers) {
    e.link[tier] = fitted.LinkFraction(tier);
    std::string why = from_model;
    why += "'s ";
    why += tier;
    why += " bus-bandwidth fraction, of ";
    why += to.name;
    why += "'s link datasheet bandwidth";
    src.emplace_back("link." + tier, std::move(why));
  }
  return out;
}

}  // namespace paraplan
