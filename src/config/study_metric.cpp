#include "config/study_metric.h"

#include <utility>

#include "core/error.h"
#include "core/units.h"
#include "plan/knob_table.h"

namespace paraplan {

namespace {

const std::vector<std::string> kTimeNames = {"compute_s",         "bubble_s",   "tp_comm_s",
                                             "cp_comm_s",         "ep_comm_s",  "pp_comm_s",
                                             "dp_comm_exposed_s", "optimizer_s"};

std::string Join(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// Unit suffixes in key names and how a label shows them.
const std::vector<std::pair<std::string, std::string>> kUnitSuffixes = {
    {"_GBps", "GB/s"}, {"_us", "µs"}, {"_GiB", "GiB"}, {"_MB", "MB"}, {"_s", "s"}};

const std::vector<std::pair<std::string, std::string>> kKnobLabels = {
    {"gpus", "GPUs"},
    {KnobName(Knob::kTp), "tensor-parallel size tp"},
    {KnobName(Knob::kPp), "pipeline stages pp"},
    {KnobName(Knob::kDp), "data-parallel size dp"},
    {KnobName(Knob::kCp), "context-parallel size cp"},
    {KnobName(Knob::kEp), "expert-parallel size ep"},
    {KnobName(Knob::kEtp), "expert tensor-parallel size etp"},
    {KnobName(Knob::kVpp), "virtual stages per GPU vpp"},
    {KnobName(Knob::kMicroBatch), "micro-batch size (sequences)"},
    {KnobName(Knob::kGlobalBatch), "global batch (sequences)"},
    {KnobName(Knob::kSeqLen), "sequence length (tokens)"},
    {KnobName(Knob::kDpBucketMB), "gradient bucket size (MB)"},
    {KnobName(Knob::kMoeImbalance), "MoE load imbalance (max/mean tokens per expert)"},
    {KnobName(Knob::kDpCommDtype), "gradient communication dtype"},
    {KnobName(Knob::kSchedule), "pipeline schedule"},
    {KnobName(Knob::kZero), "ZeRO stage"},
    {KnobName(Knob::kRecompute), "activation recompute"},
};

}  // namespace

const std::vector<std::string>& StudyMetricNames() {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> names = {"step_time_s", "tokens_per_s_per_gpu", "mfu",
                                      "hfu",         "memory_GiB",           "bubble_fraction"};
    names.insert(names.end(), kTimeNames.begin(), kTimeNames.end());
    return names;
  }();
  return kNames;
}

bool IsTimeComponent(const std::string& name) {
  for (const auto& n : kTimeNames) {
    if (n == name) return true;
  }
  return false;
}

std::string CanonicalMetric(const std::string& name) {
  std::string bare = name.rfind("time.", 0) == 0 ? name.substr(5) : name;
  for (const auto& n : StudyMetricNames()) {
    if (n == bare && (bare == name || IsTimeComponent(bare))) return bare;
  }
  throw InputError("unknown metric '" + name + "'; valid: " + Join(StudyMetricNames()) +
                   " (time components also as time.NAME)");
}

std::vector<double> MetricValues(const StepResult& r) {
  const TimeBreakdown& t = r.time;
  const double bubble_fraction = r.step_time_s > 0 ? t.bubble_s / r.step_time_s : 0.0;
  return {r.step_time_s,
          r.tokens_per_s_per_gpu,
          r.mfu,
          r.hfu,
          BytesToGiB(r.peak_memory_bytes),
          bubble_fraction,
          t.compute_s,
          t.bubble_s,
          t.tp_comm_s,
          t.cp_comm_s,
          t.ep_comm_s,
          t.pp_comm_s,
          t.dp_comm_exposed_s,
          t.optimizer_s};
}

MetricAxis AxisForMetric(const std::string& metric, double max_value) {
  if (metric == "tokens_per_s_per_gpu") return {"throughput (tokens/s per GPU)", 1.0};
  if (metric == "mfu") return {"MFU (fraction of peak FLOP/s)", 1.0};
  if (metric == "hfu") return {"HFU (fraction of peak FLOP/s)", 1.0};
  if (metric == "memory_GiB") return {"peak memory per GPU (GiB)", 1.0};
  if (metric == "bubble_fraction") return {"pipeline bubble (fraction of step time)", 1.0};
  std::string what = metric == "step_time_s" ? "step time" : metric.substr(0, metric.size() - 2);
  for (auto& c : what) c = c == '_' ? ' ' : c;
  if (max_value > 0 && max_value < 1e-3) return {what + " (µs)", 1e6};
  if (max_value > 0 && max_value < 1.0) return {what + " (ms)", 1e3};
  return {what + " (s)", 1.0};
}

std::string LabelForKey(const std::string& key) {
  const std::string bare = key.rfind("plan.", 0) == 0 ? key.substr(5) : key;
  for (const auto& [knob, label] : kKnobLabels) {
    if (bare == knob) return label;
  }
  std::string last = ShortKey(bare);
  std::string unit;
  for (const auto& [suffix, name] : kUnitSuffixes) {
    if (last.size() > suffix.size() &&
        last.compare(last.size() - suffix.size(), suffix.size(), suffix) == 0) {
      last.resize(last.size() - suffix.size());
      unit = name;
      break;
    }
  }
  for (auto& c : last) c = (c == '_' || c == '.') ? ' ' : c;
  return unit.empty() ? last : last + " (" + unit + ")";
}

std::string ShortKey(const std::string& key) {
  std::string bare = key.rfind("plan.", 0) == 0 ? key.substr(5) : key;
  const auto last = bare.rfind('.');
  if (last == std::string::npos) return bare;
  const auto before = bare.rfind('.', last - 1);
  const std::string parent = bare.substr(before == std::string::npos ? 0 : before + 1,
                                         last - (before == std::string::npos ? 0 : before + 1));
  if (parent == "model" || parent == "cluster" || parent == "gpu" || parent == "network") {
    return bare.substr(last + 1);
  }
  return parent + "." + bare.substr(last + 1);
}

}  // namespace paraplan
