#include "plan/framework.h"

#include "core/error.h"

namespace paraplan {

using F = Framework;

const NameTable<Framework>& FrameworkNames() {
  static const NameTable<Framework> kTable = {{"megatron", F::kMegatron},
                                              {"nemo", F::kNemo},
                                              {"torchtitan", F::kTorchtitan},
                                              {"deepspeed", F::kDeepSpeed},
                                              {"megatron-deepspeed", F::kMegatronDeepSpeed},
                                              {"nanotron", F::kNanotron},
                                              {"automodel", F::kAutomodel},
                                              {"scaling", F::kScaling},
                                              {"olmo-core", F::kOlmoCore}};
  return kTable;
}

const char* RunsName(Framework framework) {
  return framework == F::kUnstated ? "unstated" : NameOf(FrameworkNames(), framework);
}

Framework ParseLaunchFramework(const std::string& name) {
  for (F f : {F::kAny, F::kMegatron, F::kTorchtitan, F::kDeepSpeed}) {
    if (name == ToString(f)) return f;
  }
  throw InputError("--framework: unknown framework '" + name +
                   "'; valid values: any, megatron, torchtitan, deepspeed");
}

const char* ToString(Framework framework) {
  return framework == F::kAny ? "any" : NameOf(FrameworkNames(), framework);
}

const char* DisplayName(Framework framework) {
  switch (framework) {
    case F::kUnstated:
      return "any framework";
    case F::kMegatron:
      return "Megatron-LM";
    case F::kNemo:
      return "NeMo";
    case F::kTorchtitan:
      return "torchtitan";
    case F::kDeepSpeed:
      return "DeepSpeed";
    case F::kMegatronDeepSpeed:
      return "Megatron-DeepSpeed";
    case F::kNanotron:
      return "nanotron";
    case F::kAutomodel:
      return "NeMo AutoModel";
    case F::kScaling:
      return "Aleph Alpha Scaling";
    case F::kOlmoCore:
      return "OLMo-core";
  }
  return "any framework";
}

}  // namespace paraplan
