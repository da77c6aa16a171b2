#include "cli/common_inputs.h"

#include "config/resolve.h"
#include "core/error.h"

namespace paraplan {

void AddInputOptions(CLI::App* sub, InputOptions& options, bool need_gpus) {
  sub->add_option("-m,--model", options.model,
                  "model: a name from models/ (llama3-70b), a YAML path, or a config.json")
      ->required();
  sub->add_option("-c,--cluster", options.cluster,
                  "cluster: a name from hardware/ (dgx-h100) or a YAML path")
      ->required();
  auto* gpus =
      sub->add_option("-g,--gpus", options.gpus, "number of GPUs")->check(CLI::PositiveNumber);
  if (need_gpus) gpus->required();
  sub->add_option("--plan", options.plan,
                  "plan knobs, e.g. \"tp=4|8,pp=2,recompute=selective,pp_layers=15/16/16/15\"");
  sub->add_option("--set", options.sets,
                  "override a field by dotted path, e.g. cluster.gpu.memory_GiB=96 or "
                  "model.seq_len=32768 (repeatable)")
      ->allow_extra_args(false);
}

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
  return inputs;
}

}  // namespace paraplan
