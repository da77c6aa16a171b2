#include "cli/common_inputs.h"

#include "cli/cli_checks.h"
#include "config/resolve.h"
#include "core/error.h"
#include "plan/knob_table.h"

namespace paraplan {

void AddInputOptions(CLI::App* sub, InputOptions& options, bool need_gpus) {
  sub->add_option("-m,--model", options.model,
                  "model: a name from models/ (llama3-70b), a YAML path, or a config.json")
      ->required();
  sub->add_option("-c,--cluster", options.cluster,
                  "cluster: a name from hardware/ (dgx-h100) or a YAML path")
      ->required();
  auto* gpus =
      sub->add_option("-g,--gpus", options.gpus, "number of GPUs")->check(CountRange(kMaxGpus));
  if (need_gpus) gpus->required();
  sub->add_option("--plan", options.plan,
                  "plan knobs, e.g. \"tp=4|8,pp=2,recompute=selective,pp_layers=15/16/16/15\"");
  sub->add_option("--set", options.sets,
                  "override a field by dotted path, e.g. cluster.gpu.memory_GiB=96 or "
                  "model.seq_len=32768 (repeatable)")
      ->allow_extra_args(false);
  sub->add_option("--seq-len", options.seq_len,
                  "tokens per sequence (the seq_len knob; default: the model's seq_len)")
      ->check(CountRange(kMaxSeqLen));
}

void AddGlobalBatchOption(CLI::App* sub, InputOptions& options) {
  sub->add_option("--global-batch", options.global_batch,
                  "sequences per step (the global_batch knob)")
      ->check(CountRange(kMaxGlobalBatch));
}

namespace {

// A flag that names a knob: taken as the knob's only value unless --plan says otherwise.
void MergeFlag(int64_t value, const char* flag, const char* knob, Choice<int64_t>& choice) {
  if (value <= 0) return;
  if (choice && *choice != std::vector<int64_t>{value}) {
    throw InputError(std::string(flag) + " " + std::to_string(value) + " disagrees with " + knob +
                     " in --plan");
  }
  choice = std::vector<int64_t>{value};
}

}  // namespace

LoadedInputs LoadInputs(const InputOptions& options) {
  std::vector<Override> overrides;
  overrides.reserve(options.sets.size());
  for (const std::string& text : options.sets) overrides.push_back(ParseOverrideFlag(text));
  LoadedInputs inputs;
  inputs.model = LoadModel(options.model, overrides);
  inputs.cluster = LoadCluster(options.cluster, overrides);
  if (options.gpus < 0) throw InputError("--gpus: must be > 0");
  inputs.gpus = options.gpus;
  if (!options.plan.empty()) inputs.plan = ParsePlanString(options.plan);
  MergeFlag(options.seq_len, "--seq-len", KnobName(Knob::kSeqLen), inputs.plan.seq_len);
  MergeFlag(options.global_batch, "--global-batch", KnobName(Knob::kGlobalBatch),
            inputs.plan.global_batch);
  return inputs;
}

}  // namespace paraplan
