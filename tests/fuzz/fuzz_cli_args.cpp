// libFuzzer target: cli_args (see cli_entries.h; run by tests/fuzz/run-fuzzers.sh).
#include "fuzz/cli_entries.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  paraplan::fuzz::CliArgs(data, size);
  return 0;
}
