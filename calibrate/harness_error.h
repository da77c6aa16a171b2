// The one error type of the harness (no CUDA headers, so that host-only parts can be unit-tested
// without the toolkit). main() prints it: exit 1 for a failed library call, 2 for bad options.
#pragma once

#include <stdexcept>
#include <string>

namespace paraplan::calibrate {

class HarnessError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace paraplan::calibrate
