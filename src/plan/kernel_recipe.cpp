#include "plan/kernel_recipe.h"

namespace paraplan {

const NameTable<Fusion>& FusionNames() {
  static const NameTable<Fusion> kTable = {{"te", Fusion::kTe},
                                           {"apex", Fusion::kApex},
                                           {"eager", Fusion::kEager},
                                           {"compile", Fusion::kCompile}};
  return kTable;
}

const char* ToString(Fusion v) {
  return NameOf(FusionNames(), v);
}

// Megatron-Core's names (megatron/core/enums.py, Fp8Recipe).
const NameTable<Fp8Recipe>& Fp8RecipeNames() {
  static const NameTable<Fp8Recipe> kTable = {{"delayed", Fp8Recipe::kDelayed},
                                              {"tensorwise", Fp8Recipe::kTensorwise},
                                              {"mxfp8", Fp8Recipe::kMxfp8}};
  return kTable;
}

const char* ToString(Fp8Recipe v) {
  return NameOf(Fp8RecipeNames(), v);
}

}  // namespace paraplan
