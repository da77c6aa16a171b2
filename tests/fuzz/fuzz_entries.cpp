#include "fuzz/fuzz_entries.h"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "calib/raw_csv.h"
#include "config/profile_io.h"
#include "config/resolve.h"
#include "config/runs_file.h"
#include "config/study_file.h"
#include "core/error.h"

namespace paraplan::fuzz {
namespace {

// The loaders take paths (they check the file is regular, its size, ...), so the bytes go to a
// per-process scratch file with the given extension.
std::string WriteScratch(const uint8_t* data, size_t size, const char* extension) {
  std::string path = "/tmp/paraplan-fuzz-" + std::to_string(::getpid()) + extension;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  return path;
}

template <typename Fn>
void Guard(Fn&& fn) {
  try {
    fn();
  } catch (const InputError&) {
    // The expected answer to bad input.
  }
}

}  // namespace

void ModelYaml(const uint8_t* data, size_t size) {
  const std::string path = WriteScratch(data, size, ".yaml");
  Guard([&] { (void)LoadModel(path); });
}

void HardwareYaml(const uint8_t* data, size_t size) {
  const std::string path = WriteScratch(data, size, "-hw.yaml");
  Guard([&] { (void)LoadCluster(path); });
}

void PlanString(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  Guard([&] { (void)ParsePlanString(text); });
}

void SetString(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  Guard([&] {
    std::vector<Override> overrides;
    size_t start = 0;
    while (start <= text.size() && overrides.size() < 8) {
      const size_t end = std::min(text.find('\n', start), text.size());
      overrides.push_back(ParseOverrideFlag(text.substr(start, end - start)));
      start = end + 1;
    }
    (void)LoadModel("llama3-8b", overrides);
    (void)LoadCluster("dgx-h100", overrides);
  });
}

void RunsFile(const uint8_t* data, size_t size) {
  const std::string path = WriteScratch(data, size, "-runs.yaml");
  Guard([&] { (void)LoadRunsFile(path); });
}

void StudyFile(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  Guard([&] { (void)ParseStudyText(text, "fuzz-study.yaml"); });
}

void HfConfigJson(const uint8_t* data, size_t size) {
  const std::string path = WriteScratch(data, size, "-config.json");
  Guard([&] { (void)LoadModel(path); });
}

void CalibrationCsv(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  Guard([&] { (void)ParseMeasurementText(text, "fuzz_all_reduce_perf.csv"); });
}

void CalibrationProfile(const uint8_t* data, size_t size) {
  const std::string path = WriteScratch(data, size, "-profile.yaml");
  Guard([&] { (void)LoadCalibrationProfile(path); });
}

const std::vector<Target>& Targets() {
  static const std::vector<Target> kTargets = {
      {"model_yaml", ModelYaml},
      {"hardware_yaml", HardwareYaml},
      {"plan_string", PlanString},
      {"set_string", SetString},
      {"runs_file", RunsFile},
      {"study_file", StudyFile},
      {"hf_config_json", HfConfigJson},
      {"calibration_csv", CalibrationCsv},
      {"calibration_profile", CalibrationProfile},
  };
  return kTargets;
}

}  // namespace paraplan::fuzz
