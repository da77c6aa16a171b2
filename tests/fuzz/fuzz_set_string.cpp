// libFuzzer target: set_string (see fuzz_entries.h; run by tests/fuzz/run-fuzzers.sh).
#include "fuzz/fuzz_entries.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  paraplan::fuzz::SetString(data, size);
  return 0;
}
