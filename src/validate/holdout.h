// The held-out split for the efficiency fit: which runs the fit never sees. Deterministic: within
// each GPU model (GpuModel), runs sorted by id, every K-th one (the K-th, 2K-th, ...) is held out.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "hardware/gpu_family.h"  // GpuModel: the key the split groups by

namespace paraplan {

struct HoldoutKey {
  std::string id;
  std::string family;
};

// held[i] is true when run i is held out. every <= 0 holds out nothing; every == 1 holds out all.
std::vector<bool> HeldOutRuns(const std::vector<HoldoutKey>& runs, int64_t every);

}  // namespace paraplan
