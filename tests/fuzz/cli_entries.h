// The fuzz entry for the command line itself (libFuzzer target fuzz_cli_args, which links the
// CLI library; fuzz_entries.h has the file and string parsers). The bytes become the arguments
// of one read-only subcommand; it must end in exit 0, 1 or 2, never 3 (an internal error), a
// crash or a hang.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace paraplan::fuzz {

// The first byte picks plan, simulate, explain, model show or hardware show; the rest, split at
// newlines, are its arguments (at most 32). Arguments that would write files (-o, --output,
// --trace) are dropped. Aborts (a finding) on exit 3.
void CliArgs(const uint8_t* data, size_t size);

// The argument list CliArgs runs for `data` (without the program name), for tests.
std::vector<std::string> CliArgsFor(const uint8_t* data, size_t size);

}  // namespace paraplan::fuzz
