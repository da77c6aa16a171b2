// A GPU's family (its chip generation: Ampere, Hopper, Blackwell) and its model ("A100", "H100",
// "B200"), decided from the GPU's name here only. The model keys the efficiency fit
// (calib/efficiency_fit.h) and hardware/efficiency.yaml's entries; the family groups models that
// share an SM design (tensor cores, per-SM shared memory, clock behaviour), which is what
// `validate --cv gpu` leaves out and what a model without fitted runs takes its numbers from
// (calib/unfitted_efficiency.h).
#pragma once

#include <map>
#include <string>
#include <vector>

namespace paraplan {

inline constexpr const char* kAmpere = "Ampere";
inline constexpr const char* kHopper = "Hopper";
inline constexpr const char* kBlackwell = "Blackwell";

// The model a GPU name belongs to: the first known model name contained in it, case-insensitive,
// longest first ("GB200-NVL72" → "GB200", not "B200"; "GH200-96GB" → "GH200", not "H200";
// "H100-SXM5-80GB" → "H100"). Known: A100, H100, H200, H800, GH200, B200, B300, GB200, GB300. An
// unknown name is its own model.
std::string GpuModel(const std::string& gpu_name);

// The family (chip generation) of a GPU name: Ampere (A100), Hopper (H100, H200, H800, GH200),
// Blackwell (B200, B300, GB200, GB300); an unknown name is its own family.
std::string GpuFamily(const std::string& gpu_name);

// The known models of a family, shortest name first ("Hopper" → H100, H200, H800, GH200).
std::vector<std::string> FamilyModels(const std::string& family);

// Models without runs of their own that take a fitted model's numbers because they share its SMs
// and NVLink (H200, H800 and GH200 from H100): the efficiency fit copies them, the step-time band
// borrows their runs.
std::map<std::string, std::string> DerivedFamilies();

}  // namespace paraplan
