#include "config/measured_rate_loader.h"

#include <string>
#include <utility>

#include "core/format.h"
#include "hardware/measured_efficiency.h"
#include "hardware/measured_rate.h"

namespace paraplan {

namespace {

const std::vector<std::string> kEntryKeys = {"rate",   "hopper_rate", "hopper_peak", "part",
                                             "source", "date",        "software"};

std::string RequiredText(const YamlMap& map, const std::string& key) {
  const YamlNode node = map.Required(key);
  std::string text = node.AsString();
  if (text.empty()) node.Fail("must not be empty");
  return text;
}

}  // namespace

void ReadMeasuredRates(const YamlNode& node, GpuSpec& gpu) {
  const YamlMap fields(node, MeasuredRateFields());
  for (const std::string& field : fields.Keys()) {
    const YamlNode entry_node = fields.Required(field);
    const YamlMap entry(entry_node, kEntryKeys);
    MeasuredRate m;
    m.field = field;
    const YamlNode rate = entry.Required("rate");
    m.rate = rate.AsPositiveDouble();
    const double peak = DatasheetRateFor(gpu, field);
    if (peak <= 0) {
      entry_node.Fail("the file states no datasheet rate for " + field +
                      " (peak_tflops.fp8 for fp8_gemm_max)");
    }
    if (m.rate > peak) {
      rate.Fail("a measured rate cannot exceed the part's datasheet rate: " +
                FormatShortest(m.rate) + " > " + FormatShortest(peak));
    }
    const auto hopper_rate = entry.Find("hopper_rate");
    const auto hopper_peak = entry.Find("hopper_peak");
    const bool ratio = field == kFp8OverBf16Field;
    if (entry.Find("part") && !ratio)
      entry_node.Fail("part is for " + std::string(kFp8OverBf16Field));
    if (ratio) {
      // A ratio of two throughputs on one benchmark: Hopper's is required, a peak is not.
      if (!hopper_rate)
        entry_node.Fail("needs hopper_rate: the same benchmark's fp8 / bf16 on Hopper");
      if (hopper_peak) hopper_peak->Fail("a ratio has no peak");
      m.hopper_rate = hopper_rate->AsPositiveDouble();
      if (m.hopper_rate > peak) {
        hopper_rate->Fail("an fp8 / bf16 ratio above the part's peak ratio: " +
                          FormatShortest(m.hopper_rate) + " > " + FormatShortest(peak));
      }
      m.part = entry.String("part", "");
    } else if (hopper_rate.has_value() != hopper_peak.has_value()) {
      entry_node.Fail(
          "hopper_rate and hopper_peak go together (the same benchmark on a Hopper "
          "part, and that part's datasheet rate)");
    }
    if (hopper_rate && !ratio) {
      m.hopper_rate = hopper_rate->AsPositiveDouble();
      m.hopper_peak = hopper_peak->AsPositiveDouble();
      if (m.hopper_rate > m.hopper_peak) {
        hopper_rate->Fail("exceeds hopper_peak: " + FormatShortest(m.hopper_rate) + " > " +
                          FormatShortest(m.hopper_peak));
      }
    }
    m.source = RequiredText(entry, "source");
    m.software = RequiredText(entry, "software");
    m.date = entry.String("date", "");
    gpu.measured.push_back(std::move(m));
  }
  if (fields.Find(kFp8OverBf16Field)) {
    const YamlNode at = fields.Required(kFp8OverBf16Field);
    if (fields.Find("fp8_gemm_max")) at.Fail("state fp8_gemm_max or fp8_over_bf16, not both");
    if (!fields.Find("gemm_max")) at.Fail("scales the part's own gemm_max: state gemm_max too");
  }
}

}  // namespace paraplan
