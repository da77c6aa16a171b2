// Reporters for `paraplan plan`: one interface, one file per format (table, json, csv, megatron,
// torchtitan), a factory keyed by name, the output stream injected. A SearchResult and a little
// context go in, text comes out; reporters only format (no cost model calls).
#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "search/budget.h"
#include "search/search.h"
#include "sim/pipeline_input.h"

namespace paraplan {

// What the reporters need to know besides the result.
struct PlanReportContext {
  std::string model_name;
  std::string cluster_name;
  std::string gpu_name;
  int64_t gpus = 0;
  int64_t model_layers = 0;
  int64_t model_seq_len = 0;  // used when a plan leaves seq_len at 0
  bool moe = false;
  Objective objective = Objective::kStepTime;
  // How the search was run, for the re-run command of each plan (report/plan_rerun.h): the -m and
  // -c arguments as given (a name or a path) and the --set overrides.
  std::string model_arg;
  std::string cluster_arg;
  std::vector<std::string> sets;
  const ModelSpec* model = nullptr;       // for the launch configs' model-shape flags; may be null
  const BudgetRequest* budget = nullptr;  // --tokens/--train-days given: budget per plan
  std::string band_note;  // where the step-time band comes from (or why there is none)
  // --headroom: a plan whose peak is above (1 - headroom_pct / 100) of the GPU's memory is tight
  // (marked in the table, "inside_headroom": false in JSON); 0 = no headroom asked.
  double headroom_pct = 0;
  const std::vector<TimelineEvent>* timeline = nullptr;  // the best plan's, for --format html
};

class PlanReporter {
 public:
  explicit PlanReporter(std::ostream& out) : out_(&out) {}
  virtual ~PlanReporter() = default;
  PlanReporter(const PlanReporter&) = delete;
  PlanReporter& operator=(const PlanReporter&) = delete;

  // Writes the whole report for one search.
  virtual void Report(const PlanReportContext& context, const SearchResult& result) = 0;

 protected:
  std::ostream& out() { return *out_; }

 private:
  std::ostream* out_;
};

// The format names, in the order --help lists them.
std::vector<std::string> PlanReportFormats();

// A reporter by name; throws InputError listing the valid names otherwise.
std::unique_ptr<PlanReporter> MakePlanReporter(const std::string& format, std::ostream& out);

// One reporter per format (each in its own file).
std::unique_ptr<PlanReporter> MakeTableReporter(std::ostream& out);
std::unique_ptr<PlanReporter> MakeJsonReporter(std::ostream& out);
std::unique_ptr<PlanReporter> MakeCsvReporter(std::ostream& out);
std::unique_ptr<PlanReporter> MakeMegatronReporter(std::ostream& out);
std::unique_ptr<PlanReporter> MakeTorchtitanReporter(std::ostream& out);        // TOML (238fa99)
std::unique_ptr<PlanReporter> MakeTorchtitanConfigReporter(std::ostream& out);  // b5bcd76
std::unique_ptr<PlanReporter> MakeHtmlReporter(std::ostream& out);
std::unique_ptr<PlanReporter> MakeDeepSpeedReporter(std::ostream& out);

// Why a DeepSpeed config file alone cannot carry this plan (pipeline stages, experts and
// activation checkpointing are model code); empty when it can.
std::vector<std::string> DeepSpeedConfigGaps(const ParallelPlan& plan,
                                             const PlanReportContext& context);

// The comment lines that open a launch config (megatron, torchtitan): what `tool` the config is
// for, the model and cluster, and the best plan's predicted step, memory and MFU.
void WriteBestPlanHeader(std::ostream& out, const char* tool, const PlanReportContext& context,
                         const StepResult& best);

// The sequence length a plan trains with (its own, else the model's).
int64_t EffectiveSeqLen(const ParallelPlan& plan, const PlanReportContext& context);

}  // namespace paraplan
