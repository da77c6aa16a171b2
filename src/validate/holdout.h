// The held-out split for the efficiency fit: which runs the fit never sees. Deterministic: within
// each GPU family, runs sorted by id, every K-th one (the K-th, 2K-th, ...) is held out.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace paraplan {

// The GPU family a GPU name belongs to ("A100-SXM4-80GB" → "A100", "H100-SXM5-80GB" → "H100");
// the families hardware/efficiency.yaml has defaults for: A100, H100, H200, H800, B200, GB200.
// An unknown name is its own family.
std::string GpuFamily(const std::string& gpu_name);

// Families without runs that take a fitted family's numbers (same architecture): the efficiency
// fit copies them, the step-time band borrows their runs.
std::map<std::string, std::string> DerivedFamilies();

struct HoldoutKey {
  std::string id;
  std::string family;
};

// held[i] is true when run i is held out. every <= 0 holds out nothing; every == 1 holds out all.
std::vector<bool> HeldOutRuns(const std::vector<HoldoutKey>& runs, int64_t every);

}  // namespace paraplan
