#include "validate/holdout.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>

namespace paraplan {

namespace {

std::string Upper(std::string text) {
  for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

}  // namespace

std::string GpuFamily(const std::string& gpu_name) {
  // Longest names first so that "GB200" is not taken for "B200".
  static constexpr std::array<const char*, 6> kFamilies = {"GB200", "B200", "H800",
                                                           "H200",  "H100", "A100"};
  const std::string upper = Upper(gpu_name);
  for (const char* family : kFamilies) {
    if (upper.find(family) != std::string::npos) return family;
  }
  return gpu_name;
}

std::vector<bool> HeldOutRuns(const std::vector<HoldoutKey>& runs, int64_t every) {
  std::vector<bool> held(runs.size(), false);
  if (every <= 0) return held;
  std::map<std::string, std::vector<size_t>> by_family;
  for (size_t i = 0; i < runs.size(); ++i) by_family[runs[i].family].push_back(i);
  for (auto& [family, indices] : by_family) {
    std::stable_sort(indices.begin(), indices.end(),
                     [&runs](size_t a, size_t b) { return runs[a].id < runs[b].id; });
    for (size_t k = 0; k < indices.size(); ++k) {
      if (static_cast<int64_t>(k + 1) % every == 0) held[indices[k]] = true;
    }
  }
  return held;
}

std::map<std::string, std::string> DerivedFamilies() {
  // Hopper parts share the H100's SMs and NVLink 4: the fractions of their own datasheet peaks
  // carry over (the peaks themselves differ and live in the hardware files).
  return {{"H200", "H100"}, {"H800", "H100"}};
}

}  // namespace paraplan
