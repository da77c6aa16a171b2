#include "study/study_table.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>

#include "config/study_metric.h"
#include "core/error.h"
#include "core/format.h"
#include "core/json.h"
#include "core/output_file.h"
#include "core/units.h"
#include "plan/knob_table.h"

namespace paraplan {

namespace {

enum class ColumnKind { kInt, kBool, kNumber, kText };

struct PlanColumn {
  const char* name;
  ColumnKind kind;
};

const std::vector<PlanColumn>& PlanColumnSpecs() {
  static const std::vector<PlanColumn> kColumns = {
      {KnobName(Knob::kTp), ColumnKind::kInt},
      {KnobName(Knob::kPp), ColumnKind::kInt},
      {KnobName(Knob::kDp), ColumnKind::kInt},
      {KnobName(Knob::kCp), ColumnKind::kInt},
      {KnobName(Knob::kEp), ColumnKind::kInt},
      {KnobName(Knob::kEtp), ColumnKind::kInt},
      {KnobName(Knob::kVpp), ColumnKind::kInt},
      {KnobName(Knob::kMicroBatch), ColumnKind::kInt},
      {KnobName(Knob::kGlobalBatch), ColumnKind::kInt},
      {KnobName(Knob::kSeqLen), ColumnKind::kInt},
      {KnobName(Knob::kRecompute), ColumnKind::kText},
      {KnobName(Knob::kSequenceParallel), ColumnKind::kBool},
      {KnobName(Knob::kZero), ColumnKind::kInt},
      {KnobName(Knob::kPrecision), ColumnKind::kText},
      {KnobName(Knob::kSchedule), ColumnKind::kText},
      {KnobName(Knob::kMoeImbalance), ColumnKind::kNumber},
      {KnobName(Knob::kDpCommDtype), ColumnKind::kText},
      {KnobName(Knob::kDpBucketMB), ColumnKind::kNumber},
      {KnobName(Knob::kOverlapGradReduce), ColumnKind::kBool},
      {KnobName(Knob::kOverlapParamGather), ColumnKind::kBool},
      {KnobName(Knob::kOverlapTpComm), ColumnKind::kBool},
      {KnobName(Knob::kOverlapEpComm), ColumnKind::kBool},
      // The optimizer-state recipe, which a plan-mode point may need when memory is tight
      // (search/memory_relief.h).
      {KnobName(Knob::kOptimizerMoments), ColumnKind::kText},
      {KnobName(Knob::kOptimizerOffload), ColumnKind::kNumber},
  };
  return kColumns;
}

const char* Bool(bool b) {
  return b ? "true" : "false";
}

std::string CsvField(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string CsvNumber(double v) {
  return std::isfinite(v) ? FormatShortest(v) : "";
}

// A value as written in the study file, as JSON: a number or boolean when it reads as one.
Json ScalarJson(const std::string& text) {
  const char* b = text.data();
  const char* e = b + text.size();
  int64_t i = 0;
  if (auto [p, ec] = std::from_chars(b, e, i); ec == std::errc() && p == e && b != e) return i;
  double d = 0;
  if (auto [p, ec] = std::from_chars(b, e, d);
      ec == std::errc() && p == e && b != e && std::isfinite(d)) {
    return d;
  }
  if (text == "true" || text == "false") return text == "true";
  return text;
}

Json PlanJson(const std::vector<std::string>& values) {
  Json plan = Json::MakeObject();
  const auto& specs = PlanColumnSpecs();
  for (size_t i = 0; i < specs.size() && i < values.size(); ++i) {
    plan.Set(specs[i].name,
             specs[i].kind == ColumnKind::kText ? Json(values[i]) : ScalarJson(values[i]));
  }
  return plan;
}

Json RowJson(const StudyTable& table, const StudyRow& row) {
  Json j = Json::MakeObject();
  j.Set("index", row.index);
  Json values = Json::MakeObject();
  for (size_t k = 0; k < table.keys.size() && k < row.values.size(); ++k) {
    values.Set(table.keys[k], ScalarJson(row.values[k]));
  }
  j.Set("values", std::move(values)).Set("status", row.status);
  if (!row.reason.empty()) j.Set("reason", row.reason);
  if (table.mode == "plan") j.Set("searched", row.searched).Set("feasible", row.feasible);
  if (!row.has_result) return j;
  j.Set("plan", PlanJson(row.plan)).Set("fits", row.status == "ok");
  Json time = Json::MakeObject();
  const auto& names = StudyMetricNames();
  for (size_t m = 0; m < names.size() && m < row.metrics.size(); ++m) {
    Json value = std::isfinite(row.metrics[m]) ? Json(row.metrics[m]) : Json(nullptr);
    if (IsTimeComponent(names[m])) {
      time.Set(names[m], std::move(value));
    } else {
      j.Set(names[m], std::move(value));
    }
  }
  j.Set("time", std::move(time));
  return j;
}

size_t MetricIndex(const std::string& metric) {
  const auto& names = StudyMetricNames();
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == metric) return i;
  }
  return 0;
}

bool ParseDouble(const std::string& text, double* v) {
  const char* b = text.data();
  const char* e = b + text.size();
  auto [p, ec] = std::from_chars(b, e, *v);
  return ec == std::errc() && p == e && b != e && std::isfinite(*v);
}

std::string SeriesLabel(const StudyTable& table, const StudyRow& row) {
  std::string label;
  for (size_t k = 0; k < table.keys.size() && k < row.values.size(); ++k) {
    if (table.key_dimension[k] == 0) continue;
    label += (label.empty() ? "" : ", ") + ShortKey(table.keys[k]) + "=" + row.values[k];
  }
  return label;
}

// The knob a swept key sets (`tp` for `tp` and `plan.tp`), or "" for a model or cluster key.
std::string SweptKnob(const std::string& key) {
  const std::string bare = key.rfind("plan.", 0) == 0 ? key.substr(5) : key;
  return bare.find('.') == std::string::npos ? bare : "";
}

// "1.0" as written and "1" as printed are the same value.
bool SameValue(const std::string& written, const std::string& printed) {
  double a = 0, b = 0;
  return written == printed || (ParseDouble(written, &a) && ParseDouble(printed, &b) && a == b);
}

std::vector<bool> RepeatedPlanColumns(const StudyTable& table) {
  std::vector<bool> repeated(StudyPlanColumns().size());
  for (size_t c = 0; c < repeated.size(); ++c) repeated[c] = RepeatsSweptKey(table, c);
  return repeated;
}

}  // namespace

bool RepeatsSweptKey(const StudyTable& table, size_t column) {
  const std::string& name = StudyPlanColumns().at(column);
  for (size_t k = 0; k < table.keys.size(); ++k) {
    if (SweptKnob(table.keys[k]) != name) continue;
    bool same = true;
    for (const StudyRow& row : table.rows) {
      if (!row.has_result) continue;
      same = same && k < row.values.size() && column < row.plan.size() &&
             SameValue(row.values[k], row.plan[column]);
    }
    if (same) return true;
  }
  return false;
}

const std::vector<std::string>& StudyPlanColumns() {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> names;
    for (const auto& c : PlanColumnSpecs()) names.emplace_back(c.name);
    return names;
  }();
  return kNames;
}

std::vector<std::string> PlanColumnValues(const ParallelPlan& p) {
  auto n = [](int64_t v) { return std::to_string(v); };
  return {n(p.tp),
          n(p.pp),
          n(p.dp),
          n(p.cp),
          n(p.ep),
          n(p.etp),
          n(p.vpp),
          n(p.micro_batch),
          n(p.global_batch),
          n(p.seq_len),
          ToString(p.recompute),
          Bool(p.sequence_parallel),
          n(p.zero),
          ToString(p.precision),
          ToString(p.schedule),
          FormatShortest(p.moe_imbalance),
          ToString(p.dp_comm_dtype),
          FormatShortest(p.dp_bucket_MB),
          Bool(p.overlap_grad_reduce),
          Bool(p.overlap_param_gather),
          Bool(p.overlap_tp_comm),
          Bool(p.overlap_ep_comm),
          ToString(p.recipe.optimizer_moments),
          FormatShortest(p.recipe.optimizer_offload)};
}

void SetRowResult(StudyRow& row, const StepResult& result, int64_t model_seq_len,
                  const PlanBudget* budget) {
  row.has_result = true;
  row.metrics = MetricValues(result, budget);
  ParallelPlan plan = result.plan;
  if (plan.seq_len <= 0 && model_seq_len > 0) plan.seq_len = model_seq_len;
  row.plan = PlanColumnValues(plan);
  row.status = result.fits ? "ok" : "no-fit";
  if (!result.fits) {
    row.reason = "needs " + FormatFixed(BytesToGiB(result.peak_memory_bytes), 1) +
                 " GiB per GPU, has " + FormatFixed(BytesToGiB(result.memory_capacity_bytes), 1) +
                 " GiB";
  }
}

std::string StudyCsv(const StudyTable& table) {
  const std::vector<bool> repeated = RepeatedPlanColumns(table);
  std::string out = "index";
  for (const auto& k : table.keys) out += "," + CsvField(k);
  out += ",status";
  for (const auto& m : StudyMetricNames()) out += "," + m;
  for (size_t c = 0; c < StudyPlanColumns().size(); ++c) {
    if (!repeated[c]) out += "," + StudyPlanColumns()[c];
  }
  if (table.mode == "plan") out += ",searched,feasible";
  out += ",reason\n";
  for (const auto& row : table.rows) {
    out += std::to_string(row.index);
    for (const auto& v : row.values) out += "," + CsvField(v);
    out += "," + row.status;
    for (size_t m = 0; m < StudyMetricNames().size(); ++m) {
      out += "," + (row.has_result ? CsvNumber(row.metrics[m]) : std::string());
    }
    for (size_t c = 0; c < StudyPlanColumns().size(); ++c) {
      if (!repeated[c]) out += "," + (row.has_result ? CsvField(row.plan[c]) : std::string());
    }
    if (table.mode == "plan") {
      out += "," + std::to_string(row.searched) + "," + std::to_string(row.feasible);
    }
    out += "," + CsvField(row.reason) + "\n";
  }
  return out;
}

std::string StudyJson(const StudyTable& table) {
  Json doc = Json::MakeObject();
  Json keys = Json::MakeArray();
  for (const auto& k : table.keys) keys.Push(k);
  Json rows = Json::MakeArray();
  int64_t ok = 0;
  for (const auto& row : table.rows) {
    rows.Push(RowJson(table, row));
    ok += row.status == "ok" ? 1 : 0;
  }
  doc.Set("study", table.name)
      .Set("title", table.title)
      .Set("mode", table.mode)
      .Set("metric", table.metric)
      .Set("keys", std::move(keys))
      .Set("points", table.total_points)
      .Set("ok", ok)
      .Set("results", std::move(rows));
  return doc.Dump(2) + "\n";
}

LineChart StudyChart(const StudyTable& table) {
  LineChart chart;
  chart.title = table.title.empty() ? table.name : table.title;
  const size_t metric = MetricIndex(table.metric);
  double max_value = 0;
  bool numeric_x = !table.keys.empty();
  int64_t missing = 0, no_fit = 0;
  for (const auto& row : table.rows) {
    double x = 0;
    if (numeric_x && !ParseDouble(row.values.at(0), &x)) numeric_x = false;
    if (row.has_result) max_value = std::max(max_value, std::fabs(row.metrics[metric]));
    missing += row.has_result ? 0 : 1;
    no_fit += row.status == "no-fit" ? 1 : 0;
  }
  const MetricAxis axis = AxisForMetric(table.metric, max_value);
  chart.y_label = axis.label;
  chart.x_label = !table.x_label.empty() ? table.x_label
                  : table.keys.empty()   ? "study"
                                         : LabelForKey(table.keys.front());
  std::map<std::string, size_t> category_index, series_index;
  std::vector<double> xs;
  for (const auto& row : table.rows) {
    const std::string x_text = table.keys.empty() ? table.name : row.values.at(0);
    double x = 0;
    if (numeric_x) {
      ParseDouble(x_text, &x);
    } else {
      auto [it, added] = category_index.emplace(x_text, chart.x_categories.size());
      if (added) chart.x_categories.push_back(x_text);
      x = static_cast<double>(it->second);
    }
    xs.push_back(x);
    const std::string label = SeriesLabel(table, row);
    auto [it, added] = series_index.emplace(label, chart.series.size());
    if (added) chart.series.push_back({label.empty() ? axis.label : label, {}, {}, {}});
    ChartSeries& s = chart.series[it->second];
    s.x.push_back(x);
    s.y.push_back(row.has_result ? row.metrics[metric] * axis.scale
                                 : std::numeric_limits<double>::quiet_NaN());
    s.hollow.push_back(row.status == "no-fit");
  }
  chart.x_log = numeric_x && ShouldUseLogScale(xs);
  chart.subtitle = "paraplan study " + table.name + " (mode " + table.mode + ", " +
                   std::to_string(table.total_points) + " points";
  if (missing > 0) chart.subtitle += ", " + std::to_string(missing) + " without a result";
  if (no_fit > 0) {
    chart.subtitle += ", " + std::to_string(no_fit) + " do not fit in GPU memory";
    chart.hollow_label = "does not fit in memory";
  }
  chart.subtitle += ")";
  return chart;
}

std::string StudySvg(const StudyTable& table) {
  return RenderLineChartSvg(StudyChart(table));
}

void WriteTextFile(const std::string& path, const std::string& text) {
  WriteOutputFile(path, text, "-o");
}

std::string ReadTextFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw InputError("cannot read '" + path + "'");
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

void WriteStudyOutputs(const StudyTable& table, const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw InputError("cannot create directory '" + dir + "': " + ec.message());
  WriteTextFile(dir + "/results.csv", StudyCsv(table));
  WriteTextFile(dir + "/results.json", StudyJson(table));
  WriteTextFile(dir + "/chart.svg", StudySvg(table));
}

}  // namespace paraplan
