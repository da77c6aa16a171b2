// `paraplan hardware show CLUSTER`: the GPU, its peaks and memory, the network tiers, and the
// default efficiencies with where each number comes from.
#include <cmath>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "cli/command.h"
#include "config/efficiency_loader.h"
#include "config/resolve.h"
#include "core/format.h"
#include "core/json.h"
#include "core/text_table.h"
#include "hardware/measured_efficiency.h"
#include "hardware/measured_rate.h"

namespace paraplan {

namespace {

struct HardwareShowOptions {
  std::string cluster;
  std::string format = "table";
  std::vector<std::string> sets;
};

// Every number of the cluster's efficiencies, in the order of the struct.
std::vector<std::pair<std::string, double>> EfficiencyValues(const Efficiency& e) {
  std::vector<std::pair<std::string, double>> out = {{"gemm_max", e.gemm_max},
                                                     {"gemm_half_dim", e.gemm_half_dim},
                                                     {"fp8_gemm_max", e.fp8_gemm_max},
                                                     {"attention_fwd", e.attention_fwd},
                                                     {"attention_bwd", e.attention_bwd},
                                                     {"attention_half_seq", e.attention_half_seq},
                                                     {"memory_bandwidth", e.memory_bandwidth},
                                                     {"kernel_launch_us", e.kernel_launch_us},
                                                     {"step_overhead_s", e.step_overhead_s},
                                                     {"fa2_attention_fwd", e.fa2_attention_fwd},
                                                     {"fa2_attention_bwd", e.fa2_attention_bwd}};
  for (const auto& [tier, value] : e.link) out.emplace_back("link." + tier, value);
  return out;
}

// Where the cluster's efficiencies come from: hardware/efficiency.yaml's entry, the transfer to a
// GPU nobody fitted (per number), or the cluster file / --set when they differ from both.
EfficiencyOrigin OriginOf(const Cluster& c) {
  EfficiencyOrigin origin;
  if (DefaultClusterEfficiency(c, &origin) != c.efficiency) {
    origin = {"set for this cluster", {{"all", "the cluster file or --set"}}};
  }
  return origin;
}

std::string SourceOf(const EfficiencyOrigin& origin, const std::string& field) {
  for (const auto& [name, source] : origin.sources) {
    if (name == field || name == "all") return source;
  }
  return origin.entry;
}

Json EfficiencyJson(const Cluster& c) {
  const EfficiencyOrigin origin = OriginOf(c);
  Json values = Json::MakeObject();
  Json sources = Json::MakeObject();
  for (const auto& [field, value] : EfficiencyValues(c.efficiency)) {
    values.Set(field, value);
    sources.Set(field, SourceOf(origin, field));
  }
  Json out = Json::MakeObject();
  out.Set("entry", origin.entry)
      .Set("values", std::move(values))
      .Set("sources", std::move(sources));
  return out;
}

// The part's own measured rates (gpu.measured) with the ceiling each gives and where it comes
// from (hardware/measured_efficiency.h).
Json MeasuredJson(const GpuSpec& gpu) {
  const MeasuredEfficiency ceilings = MeasuredKernelEfficiency(gpu);
  Json out = Json::MakeObject();
  for (const MeasuredRate& m : gpu.measured) {
    Json entry = Json::MakeObject();
    entry.Set("rate", m.rate).Set("datasheet", DatasheetRateFor(gpu, m.field));
    if (m.hopper_rate > 0 && m.hopper_peak > 0)
      entry.Set("hopper_rate", m.hopper_rate).Set("hopper_peak", m.hopper_peak);
    else if (m.hopper_rate > 0)
      entry.Set("hopper_rate", m.hopper_rate);  // a ratio (fp8_over_bf16): no peak
    if (!m.part.empty()) entry.Set("part", m.part);
    const MeasuredValue* ceiling = ceilings.Find(CeilingFieldOf(m.field));
    entry.Set("ceiling", ceiling ? ceiling->value : 0.0)
        .Set("source", m.source)
        .Set("date", m.date)
        .Set("software", m.software)
        .Set("why", ceiling ? ceiling->source : "");
    out.Set(m.field, std::move(entry));
  }
  return out;
}

Json ClusterToJson(const Cluster& c) {
  const PeakTflops& p = c.gpu.peak_tflops;
  Json peaks = Json::MakeObject();
  peaks.Set("fp32", p.fp32).Set("tf32", p.tf32).Set("bf16", p.bf16).Set("fp16", p.fp16);
  peaks.Set("fp8", p.fp8);
  Json gpu = Json::MakeObject();
  gpu.Set("name", c.gpu.name)
      .Set("memory_GiB", c.gpu.memory_GiB)
      .Set("memory_bandwidth_GBps", c.gpu.memory_bandwidth_GBps)
      .Set("peak_tflops", std::move(peaks));
  if (c.gpu.host_link_GBps > 0) gpu.Set("host_link_GBps", c.gpu.host_link_GBps);
  if (c.gpu.host_memory_GBps > 0) gpu.Set("host_memory_GBps", c.gpu.host_memory_GBps);
  if (c.gpu.sm_count > 0) gpu.Set("sm_count", c.gpu.sm_count);
  gpu.Set("gemm_model", c.gpu.gemm_model == GemmModel::kTile ? "tile" : "curve");
  if (!c.gpu.measured.empty()) gpu.Set("measured", MeasuredJson(c.gpu));
  Json network = Json::MakeArray();
  for (const NetworkTier& t : c.network) {
    Json tier = Json::MakeObject();
    tier.Set("name", t.name)
        .Set("span", t.span)
        .Set("bandwidth_GBps", t.bandwidth_GBps)
        .Set("latency_us", t.latency_us)
        .Set("oversubscription", t.oversubscription)
        .Set("nvls", t.nvls);
    if (t.nccl_channels > 0) tier.Set("nccl_channels", t.nccl_channels);
    if (t.nvls_algbw_GBps > 0) tier.Set("nvls_algbw_GBps", t.nvls_algbw_GBps);
    network.Push(std::move(tier));
  }
  Json out = Json::MakeObject();
  out.Set("name", c.name).Set("gpu", std::move(gpu)).Set("network", std::move(network));
  out.Set("profile", c.profile ? Json(c.profile->source_path) : Json(nullptr));
  out.Set("efficiency", EfficiencyJson(c));
  return out;
}

std::string Peak(const char* dtype, double tflops) {
  return std::string(dtype) + " " + (tflops > 0 ? FormatShortest(tflops) + " TFLOP/s" : "n/a");
}

void PrintTable(const Cluster& c, std::ostream& out) {
  const PeakTflops& p = c.gpu.peak_tflops;
  out << "cluster   " << c.name << "\n";
  out << "gpu       " << c.gpu.name << "\n";
  out << "memory    " << FormatShortest(c.gpu.memory_GiB) << " GiB at "
      << FormatShortest(c.gpu.memory_bandwidth_GBps) << " GB/s\n";
  if (c.gpu.host_link_GBps > 0) {
    out << "host link " << FormatShortest(c.gpu.host_link_GBps) << " GB/s per direction\n";
  }
  if (c.gpu.host_memory_GBps > 0) {
    out << "host DRAM " << FormatShortest(c.gpu.host_memory_GBps) << " GB/s per GPU\n";
  }
  if (c.gpu.sm_count > 0) out << "SMs       " << c.gpu.sm_count << "\n";
  out << "GEMM      "
      << (c.gpu.gemm_model == GemmModel::kTile ? "tile-and-wave model" : "min-dimension curve")
      << "\n";
  out << "peak      " << Peak("bf16", p.bf16) << ", " << Peak("fp16", p.fp16) << ", "
      << Peak("fp8", p.fp8) << ", " << Peak("tf32", p.tf32) << ", " << Peak("fp32", p.fp32)
      << " (dense)\n";
  out << "profile   " << (c.profile ? c.profile->source_path : "none (built-in defaults)")
      << "\n\n";
  if (!c.gpu.measured.empty()) {
    // The part's own kernel ceilings (gpu.measured), each with its source, date and software.
    const MeasuredEfficiency ceilings = MeasuredKernelEfficiency(c.gpu);
    out << "measured kernel ceilings (gpu.measured; a GPU nobody fitted takes them, a fit starts "
           "from them)\n";
    for (const MeasuredRate& m : c.gpu.measured) {
      const MeasuredValue* ceiling = ceilings.Find(CeilingFieldOf(m.field));
      if (!ceiling) continue;
      out << "  " << PadColumn(m.field, 20)
          << PadColumn(FormatShortest(std::round(ceiling->value * 1e4) / 1e4), 9) << ceiling->source
          << "\n";
    }
    out << "\n";
  }
  out << PadColumn("tier", 12) << PadColumn("span (GPUs)", 13)
      << PadColumn("GB/s per GPU per dir", 22) << PadColumn("latency (us)", 14)
      << PadColumn("oversubscription", 18) << PadColumn("nvls", 6) << "NCCL channels\n";
  for (const NetworkTier& t : c.network) {
    out << PadColumn(t.name, 12) << PadColumn(std::to_string(t.span), 13)
        << PadColumn(FormatShortest(t.bandwidth_GBps), 22)
        << PadColumn(FormatShortest(t.latency_us), 14)
        << PadColumn(FormatShortest(t.oversubscription) + "x", 18)
        << PadColumn(t.nvls ? "yes" : "no", 6)
        << (t.nccl_channels > 0 ? std::to_string(t.nccl_channels) : "unknown") << "\n";
  }
  const EfficiencyOrigin origin = OriginOf(c);
  out << "\nefficiency defaults: " << origin.entry
      << (c.profile ? " (the calibration profile's measurements override them)" : "") << "\n";
  for (const auto& [field, value] : EfficiencyValues(c.efficiency)) {
    out << "  " << PadColumn(field, 20)
        << PadColumn(FormatShortest(std::round(value * 1e4) / 1e4), 9) << SourceOf(origin, field)
        << "\n";
  }
}

}  // namespace

void AddHardwareCommand(CLI::App& app, CliContext& ctx) {
  auto* hardware = app.add_subcommand(
      "hardware", "list and describe clusters: `hardware list`, `hardware show NAME`");
  hardware->require_subcommand(1);
  AddCatalogListCommand(*hardware, ctx, "hardware");
  auto options = std::make_shared<HardwareShowOptions>();
  auto* show =
      hardware->add_subcommand("show",
                               "show a cluster: GPU, peak TFLOP/s, memory, network tiers and the "
                               "default efficiencies with where each comes from.\n\n"
                               "Examples:\n"
                               "  paraplan hardware show dgx-h100\n"
                               "  paraplan hardware show gb200-nvl72 --format json\n"
                               "  paraplan hardware show hardware/dgx-a100-80gb.yaml "
                               "--set cluster.network.scaleout.bandwidth_GBps=50\n"
                               "  paraplan hardware show dgx-h100 --set cluster.gpu.memory_GiB=96");
  show->add_option("cluster", options->cluster, "a name from hardware/ or a YAML path")->required();
  show->add_option("--format", options->format, "table | json")
      ->check(CLI::IsMember({"table", "json"}));
  show->add_option("--set", options->sets,
                   "override a field, e.g. cluster.gpu.memory_GiB=96 (repeatable)")
      ->allow_extra_args(false);
  show->callback([options, &ctx] {
    std::vector<Override> overrides;
    for (const std::string& text : options->sets) overrides.push_back(ParseOverrideFlag(text));
    const Cluster cluster = LoadCluster(options->cluster, overrides);
    if (options->format == "json") {
      *ctx.out << ClusterToJson(cluster).Dump(2) << "\n";
    } else {
      PrintTable(cluster, *ctx.out);
    }
    ctx.exit_code = 0;
  });
}

}  // namespace paraplan
