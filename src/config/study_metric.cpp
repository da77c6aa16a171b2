#include "config/study_metric.h"

#include <cmath>
#include <limits>
#include <utility>

#include "core/error.h"
#include "core/format.h"
#include "core/strings.h"
#include "core/text_table.h"
#include "core/units.h"
#include "plan/knob_table.h"

namespace paraplan {

namespace {

const std::vector<std::string> kTimeNames = {"compute_s",         "bubble_s",   "tp_comm_s",
                                             "cp_comm_s",         "ep_comm_s",  "pp_comm_s",
                                             "dp_comm_exposed_s", "optimizer_s"};

// The budget of the study's `tokens:` (search/budget.h), in StudyMetricNames() order.
const std::vector<std::string> kBudgetNames = {
    "goodput",        "interruptions", "checkpoint_interval_s", "days", "wall_days",
    "wall_gpu_hours", "energy_MWh"};

// How a report shows a metric: its heading, the factor its value is shown in and how it is
// rounded (kSignificant: 4 significant digits; kFixed: `digits` decimals; kGrouped: a whole
// number with thousands separators).
enum class Rounding { kSignificant, kFixed, kGrouped };
struct MetricDisplay {
  const char* name;
  const char* heading;
  double scale;
  Rounding rounding;
  int digits;
};

const std::vector<MetricDisplay> kDisplays = {
    {"step_time_s", "step time (s)", 1, Rounding::kSignificant, 4},
    {"tokens_per_s_per_gpu", "throughput (tokens/s/GPU)", 1, Rounding::kGrouped, 0},
    {"mfu", "MFU (%)", 100, Rounding::kFixed, 1},
    {"hfu", "HFU (%)", 100, Rounding::kFixed, 1},
    {"memory_GiB", "peak memory (GiB)", 1, Rounding::kFixed, 1},
    {"bubble_fraction", "bubble (% of step)", 100, Rounding::kFixed, 1},
    {"compute_s", "compute (s)", 1, Rounding::kSignificant, 4},
    {"bubble_s", "bubble (s)", 1, Rounding::kSignificant, 4},
    {"tp_comm_s", "TP comm (s)", 1, Rounding::kSignificant, 4},
    {"cp_comm_s", "CP comm (s)", 1, Rounding::kSignificant, 4},
    {"ep_comm_s", "EP comm (s)", 1, Rounding::kSignificant, 4},
    {"pp_comm_s", "PP comm (s)", 1, Rounding::kSignificant, 4},
    {"dp_comm_exposed_s", "exposed DP comm (s)", 1, Rounding::kSignificant, 4},
    {"optimizer_s", "optimizer (s)", 1, Rounding::kSignificant, 4},
    {"goodput", "goodput (%)", 100, Rounding::kFixed, 2},
    {"interruptions", "interruptions", 1, Rounding::kFixed, 1},
    {"checkpoint_interval_s", "checkpoint every (min)", 1.0 / 60, Rounding::kFixed, 1},
    {"days", "days to train, no failures", 1, Rounding::kFixed, 1},
    {"wall_days", "wall-clock days to train", 1, Rounding::kFixed, 1},
    {"wall_gpu_hours", "GPU-hours (wall clock)", 1, Rounding::kGrouped, 0},
    {"energy_MWh", "energy (MWh)", 1, Rounding::kSignificant, 4},
};

const MetricDisplay* FindDisplay(const std::string& metric) {
  for (const MetricDisplay& d : kDisplays) {
    if (metric == d.name) return &d;
  }
  return nullptr;
}

std::string Significant(double v, int digits) {
  if (v == 0) return "0";
  const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(v))));
  if (magnitude >= digits - 1) return GroupThousands(std::llround(v));
  return FormatFixed(v, digits - 1 - magnitude);
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
    names.insert(names.end(), kBudgetNames.begin(), kBudgetNames.end());
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

std::vector<double> MetricValues(const StepResult& r, const PlanBudget* budget) {
  const TimeBreakdown& t = r.time;
  const double bubble_fraction = r.step_time_s > 0 ? t.bubble_s / r.step_time_s : 0.0;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const bool b = budget != nullptr;
  const bool finishes = b && budget->goodput.finishes;
  const bool powered = b && budget->energy.facility_W > 0;
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
          t.optimizer_s,
          b ? budget->goodput.goodput : nan,
          b ? budget->interruptions : nan,
          b ? budget->goodput.interval_s : nan,
          b ? budget->days.value : nan,
          finishes ? budget->wall_days.value : nan,
          finishes ? budget->wall_gpu_hours.value : nan,
          finishes && powered ? budget->MWh.value : nan};
}

std::string MetricHeading(const std::string& metric) {
  const MetricDisplay* d = FindDisplay(metric);
  return d ? d->heading : metric;
}

std::string FormatMetric(const std::string& metric, double value) {
  if (!std::isfinite(value)) return "-";
  const MetricDisplay* d = FindDisplay(metric);
  if (!d) return Significant(value, 4);
  const double v = value * d->scale;
  switch (d->rounding) {
    case Rounding::kGrouped:
      return GroupThousands(std::llround(v));
    case Rounding::kFixed:
      return FormatFixed(v, d->digits);
    case Rounding::kSignificant:
      break;
  }
  return Significant(v, d->digits);
}

MetricAxis AxisForMetric(const std::string& metric, double max_value) {
  if (metric == "tokens_per_s_per_gpu") return {"throughput (tokens/s per GPU)", 1.0};
  if (metric == "mfu") return {"MFU (% of peak FLOP/s)", 100.0};
  if (metric == "hfu") return {"HFU (% of peak FLOP/s)", 100.0};
  if (metric == "memory_GiB") return {"peak memory per GPU (GiB)", 1.0};
  if (metric == "bubble_fraction") return {"pipeline bubble (fraction of step time)", 1.0};
  if (metric == "goodput") return {"goodput (% of wall-clock time that trains)", 100.0};
  if (metric == "interruptions") return {"interruptions over the run", 1.0};
  if (metric == "checkpoint_interval_s") return {"checkpoint interval (min)", 1.0 / 60};
  if (metric == "days") return {"days to train without failures", 1.0};
  if (metric == "wall_days") return {"wall-clock days to train (with failures)", 1.0};
  if (metric == "wall_gpu_hours") return {"GPU-hours to train (with failures)", 1.0};
  if (metric == "energy_MWh") return {"facility energy (MWh)", 1.0};
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
