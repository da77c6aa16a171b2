// Helpers for the [config] tests: parse YAML text in memory, write temporary files, and catch
// the InputError message a loader throws.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "config/yaml_reader.h"
#include "core/error.h"

namespace paraplan::testing {

// The message of the InputError `f` throws, or "no error".
template <typename F>
std::string ErrorOf(F f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

// A per-process scratch directory under the system temp directory.
inline std::filesystem::path ScratchDir() {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("paraplan-config-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir;
}

inline std::string WriteScratch(const std::string& name, const std::string& text) {
  const auto path = ScratchDir() / name;
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

inline std::string SourcePath(const std::string& relative) {
  return std::string(PARAPLAN_SOURCE_DIR) + "/" + relative;
}

}  // namespace paraplan::testing
