// `plan -g`: one GPU count, a list ("256,512,1024") or a range of powers of two ("256:4096").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli/cli_checks.h"

namespace paraplan {

inline constexpr int64_t kMaxGpuCount = kMaxGpus;  // one bound for every -g (cli_checks.h)
inline constexpr size_t kMaxGpuCounts = 32;        // counts one sweep may hold

// The counts, in the order given (a range ascending); throws InputError naming -g/--gpus on a
// malformed list, a count < 1 or > kMaxGpuCount, a repeated count, or more than kMaxGpuCounts.
std::vector<int64_t> ParseGpuCounts(const std::string& text);

}  // namespace paraplan
