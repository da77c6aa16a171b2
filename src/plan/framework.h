// The training frameworks paraplan knows: one type for `plan --framework`, the runs format's
// `framework:` key and the exporters. What each framework does, version by version, is its
// profile (plan/framework_profile.h; docs/frameworks.md).
#pragma once

#include <string>

#include "core/name_table.h"

namespace paraplan {

enum class Framework {
  kUnstated,           // no framework named: `--framework any`, a run without `framework:`
  kAny = kUnstated,    // the flag's spelling of the same thing
  kMegatron,           // Megatron-LM (its own argument parser: pretrain_gpt.py)
  kNemo,               // NeMo / Megatron-Bridge: Megatron-Core driven by NeMo's recipes
  kTorchtitan,         // torchtitan (PyTorch FSDP2, DTensor TP, torch.distributed.pipelining)
  kDeepSpeed,          // DeepSpeed (ZeRO, PipelineEngine, AutoTP)
  kMegatronDeepSpeed,  // Megatron-DeepSpeed (Megatron-LM 2021 fork on the DeepSpeed engine)
  kNanotron,           // Hugging Face nanotron
  kAutomodel,          // NVIDIA NeMo AutoModel (PyTorch FSDP2, torch pipelining, TE, DeepEP)
  kScaling,            // Aleph Alpha Scaling (PyTorch 3D parallelism, its own kernels)
  kOlmoCore,           // AI2's OLMo-core (PyTorch FSDP2/HSDP, DTensor TP/CP, torch.compile)
};

// `framework:` values of a runs file ("nemo" is NeMo; Megatron-Bridge runs are written nemo).
const NameTable<Framework>& FrameworkNames();
// "unstated" for kUnstated in a runs file, "any" on the command line: RunsName / ToString.
const char* RunsName(Framework framework);

// `--framework`: "any", "megatron", "torchtitan", "deepspeed" (the frameworks paraplan exports
// to); throws InputError naming --framework otherwise.
Framework ParseLaunchFramework(const std::string& name);
const char* ToString(Framework framework);     // the flag value ("any" for kAny)
const char* DisplayName(Framework framework);  // "Megatron-LM", "torchtitan", ...

// Until every caller says Framework: `plan --framework` once had its own enum.
using LaunchFramework = Framework;

}  // namespace paraplan
