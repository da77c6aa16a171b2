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

}  // namespace paraplan
