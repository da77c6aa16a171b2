// The inputs most subcommands share: -m/--model, -c/--cluster, -g/--gpus, --plan, --set.
// A subcommand registers them with AddInputOptions and, in its callback, turns them into specs
// with LoadInputs (model and cluster resolved by name or path, overrides applied, plan parsed).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "hardware/cluster.h"
#include "model/model_spec.h"
#include "plan/plan_constraints.h"

namespace paraplan {

struct InputOptions {
  std::string model;
  std::string cluster;
  int64_t gpus = 0;
  std::string plan;               // --plan "tp=8,pp=2|4,..."; empty = every knob free
  std::vector<std::string> sets;  // --set PATH=VALUE, repeatable
  int64_t seq_len = 0;            // --seq-len: the seq_len knob (0 = the model's)
  int64_t global_batch = 0;       // --global-batch where the command has it (0 = not given)
};

// Registers -m/--model and -c/--cluster (required), -g/--gpus (required when need_gpus),
// --plan, --set and --seq-len on `sub`; --global-batch with AddGlobalBatchOption.
void AddInputOptions(CLI::App* sub, InputOptions& options, bool need_gpus);
void AddGlobalBatchOption(CLI::App* sub, InputOptions& options);

struct LoadedInputs {
  ModelSpec model;
  Cluster cluster;
  int64_t gpus = 0;
  PlanConstraints plan;
};

// Resolves everything; throws InputError (exit 2) naming the flag or file:line:col on mistakes.
// --seq-len and --global-batch become the seq_len and global_batch knobs (an error when --plan
// gives the knob another value).
LoadedInputs LoadInputs(const InputOptions& options);

}  // namespace paraplan
