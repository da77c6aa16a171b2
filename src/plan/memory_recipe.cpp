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

const char* ToString(MomentDtype v) {
  return NameOf(MomentDtypeNames(), v);
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
