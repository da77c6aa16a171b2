#pragma once
// An integer count as a double for the cost arithmetic: the one definition the cost and search
// files share (they compile in batches under the unity build, where a file-local copy each would
// collide).
#include <cstdint>

namespace paraplan {

inline double D(int64_t v) {
  return static_cast<double>(v);
}

}  // namespace paraplan
