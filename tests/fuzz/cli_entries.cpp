#include "fuzz/cli_entries.h"

#include <cstdlib>
#include <sstream>

#include "cli/command.h"

namespace paraplan::fuzz {

namespace {

constexpr size_t kMaxArgs = 32;

bool WritesFiles(const std::string& arg) {
  for (const char* flag : {"-o", "--output", "--trace", "--fit-efficiency"}) {
    if (arg.rfind(flag, 0) == 0) return true;
  }
  return false;
}

}  // namespace

std::vector<std::string> CliArgsFor(const uint8_t* data, size_t size) {
  static const std::vector<std::vector<std::string>> kCommands = {
      {"plan"}, {"simulate"}, {"explain"}, {"model", "show"}, {"hardware", "show"}};
  if (size == 0) return {};
  std::vector<std::string> args = kCommands[data[0] % kCommands.size()];
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  std::istringstream lines(text);
  std::string arg;
  bool skip_value = false;
  while (std::getline(lines, arg) && args.size() < kMaxArgs) {
    if (skip_value) {  // the value of a dropped flag
      skip_value = false;
      continue;
    }
    if (WritesFiles(arg)) {
      skip_value = arg.find('=') == std::string::npos && arg.size() <= 8;
      continue;
    }
    args.push_back(arg);
  }
  args.emplace_back("-q");
  return args;
}

void CliArgs(const uint8_t* data, size_t size) {
  std::vector<std::string> args = CliArgsFor(data, size);
  if (args.empty()) return;
  args.insert(args.begin(), "paraplan");
  std::vector<const char*> argv;
  argv.reserve(args.size());
  for (const std::string& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  const int code = RunCli(static_cast<int>(argv.size()), argv.data(), out, err);
  if (code == 3) std::abort();  // an internal error is a finding
}

}  // namespace paraplan::fuzz
