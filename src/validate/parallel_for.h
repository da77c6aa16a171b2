// Runs fn(0) … fn(n−1) on up to `threads` threads (0 = all hardware threads). Each index runs
// exactly once; results go wherever fn writes them by index, so the output order never depends
// on the thread count. The first exception thrown by fn is rethrown after all threads stop.
#pragma once

#include <cstddef>
#include <functional>

namespace paraplan {

void ParallelFor(size_t n, int threads, const std::function<void(size_t)>& fn);

}  // namespace paraplan
