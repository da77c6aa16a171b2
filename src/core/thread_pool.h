// Running one function on a few worker threads, owned by the caller (no global pool).
// Worker 0 is the calling thread, so progress callbacks can run there.
#pragma once

#include <cstddef>
#include <functional>

namespace paraplan {

// threads <= 0 means all hardware threads (at least 1).
int ResolveThreads(int threads);

// Runs fn(worker) for worker = 0 .. threads-1 at the same time and waits for all of them.
// The first exception a worker throws is rethrown here after every worker has stopped.
void RunOnWorkers(int threads, const std::function<void(int worker)>& fn);

// Runs fn(0) … fn(n−1) on up to `threads` workers (<= 0: all hardware threads), each index
// exactly once; results go wherever fn writes them by index, so the output order never depends
// on the thread count. After the first exception no new index starts; it is rethrown here.
void ParallelFor(size_t n, int threads, const std::function<void(size_t)>& fn);

}  // namespace paraplan
