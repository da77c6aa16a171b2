#include "plan/memory_recipe.h"

namespace paraplan {

const NameTable<RecomputeModule>& RecomputeModuleNames() {
  static const NameTable<RecomputeModule> kTable = {{"core_attn", RecomputeModule::kCoreAttn},
                                                    {"moe_act", RecomputeModule::kMoeAct},
                                                    {"layernorm", RecomputeModule::kLayernorm},
                                                    {"mla_up_proj", RecomputeModule::kMlaUpProj},
                                                    {"mlp", RecomputeModule::kMlp},
                                                    {"moe", RecomputeModule::kMoe}};
  return kTable;
}

const NameTable<MomentDtype>& MomentDtypeNames() {
  static const NameTable<MomentDtype> kTable = {{"fp32", MomentDtype::kFp32},
                                                {"bf16", MomentDtype::kBf16}};
  return kTable;
}

const NameTable<MoeProbs>& MoeProbsNames() {
  static const NameTable<MoeProbs> kTable = {{"auto", MoeProbs::kAuto},
                                             {"activation", MoeProbs::kActivation},
                                             {"input", MoeProbs::kInput},
                                             {"output", MoeProbs::kOutput}};
  return kTable;
}

const NameTable<EmaPlace>& EmaPlaceNames() {
  static const NameTable<EmaPlace> kTable = {
      {"none", EmaPlace::kNone}, {"gpu", EmaPlace::kGpu}, {"cpu", EmaPlace::kCpu}};
  return kTable;
}

const char* ToString(MomentDtype v) {
  return NameOf(MomentDtypeNames(), v);
}

const char* ToString(MoeProbs v) {
  return NameOf(MoeProbsNames(), v);
}

const char* ToString(EmaPlace v) {
  return NameOf(EmaPlaceNames(), v);
}

std::string RecomputeModulesToString(uint32_t modules) {
  std::string out;
  for (const auto& [name, bit] : RecomputeModuleNames()) {
    if ((modules & static_cast<uint32_t>(bit)) == 0) continue;
    if (!out.empty()) out += "+";
    out += name;
  }
  return out;
}

}  // namespace paraplan
