// Runs the paraplan CLI in-process (RunCli) with captured streams, for end-to-end tests.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "cli/command.h"

namespace paraplan::testing {

struct CliOutput {
  int code = 0;
  std::string out;
  std::string err;
};

// `args` without the program name: {"calibrate", "fit", "raw.csv"}.
inline CliOutput RunParaplan(std::vector<std::string> args) {
  args.insert(args.begin(), "paraplan");
  std::vector<const char*> argv;
  argv.reserve(args.size());
  for (const auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  const int code = RunCli(static_cast<int>(argv.size()), argv.data(), out, err);
  return {code, out.str(), err.str()};
}

}  // namespace paraplan::testing
