// One entry point per parser paraplan exposes to users' files and flags. The libFuzzer targets
// (tests/fuzz/fuzz_*.cpp) and the regression test over saved crashers
// (tests/hardening/fuzz_regression_test.cpp) both call these. Each accepts any bytes: a parse
// must end in a value or an InputError; anything else (another exception, a crash, a hang) is a
// bug.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace paraplan::fuzz {

using Entry = void (*)(const uint8_t* data, size_t size);

struct Target {
  const char* name;  // also the folder name under tests/data/fuzz-regressions/
  Entry entry;
};

void ModelYaml(const uint8_t* data, size_t size);
void HardwareYaml(const uint8_t* data, size_t size);
void PlanString(const uint8_t* data, size_t size);
// Up to 8 `--set` strings, one per line, applied to a shipped model and cluster.
void SetString(const uint8_t* data, size_t size);
void RunsFile(const uint8_t* data, size_t size);
void StudyFile(const uint8_t* data, size_t size);
void HfConfigJson(const uint8_t* data, size_t size);
void CalibrationCsv(const uint8_t* data, size_t size);
void CalibrationProfile(const uint8_t* data, size_t size);

const std::vector<Target>& Targets();

}  // namespace paraplan::fuzz
