#include "hardware/gpu_family.h"

#include <array>
#include <cctype>
#include <cstring>

namespace paraplan {

namespace {

struct KnownModel {
  const char* model;
  const char* family;
};

// Longest names first so that "GB200" is not taken for "B200", nor "GH200" for "H200". Families:
// NVIDIA's architecture whitepapers (A100: Ampere GA100; H100/H200/H800: Hopper GH100; GH200: the
// Grace Hopper Superchip, whose GPU is the same GH100 die with 132 SMs (NVIDIA GH200 datasheet);
// B200/B300/GB200/GB300: Blackwell).
constexpr std::array<KnownModel, 9> kModels = {{{"GB300", kBlackwell},
                                                {"GB200", kBlackwell},
                                                {"GH200", kHopper},
                                                {"B300", kBlackwell},
                                                {"B200", kBlackwell},
                                                {"H800", kHopper},
                                                {"H200", kHopper},
                                                {"H100", kHopper},
                                                {"A100", kAmpere}}};

const KnownModel* Find(const std::string& gpu_name) {
  std::string upper = gpu_name;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (const auto& known : kModels) {
    if (upper.find(known.model) != std::string::npos) return &known;
  }
  return nullptr;
}

}  // namespace

std::string GpuModel(const std::string& gpu_name) {
  const KnownModel* known = Find(gpu_name);
  return known ? known->model : gpu_name;
}

std::string GpuFamily(const std::string& gpu_name) {
  const KnownModel* known = Find(gpu_name);
  return known ? known->family : gpu_name;
}

std::vector<std::string> FamilyModels(const std::string& family) {
  std::vector<std::string> out;
  for (auto it = kModels.rbegin(); it != kModels.rend(); ++it) {
    if (family == it->family) out.emplace_back(it->model);
  }
  return out;
}

std::map<std::string, std::string> DerivedFamilies() {
  // Hopper parts share the H100's SMs and NVLink 4: the fractions of their own datasheet peaks
  // carry over (the peaks themselves differ and live in the hardware files).
  return {{"H200", "H100"}, {"H800", "H100"}, {"GH200", "H100"}};
}

}  // namespace paraplan
