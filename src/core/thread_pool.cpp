#include "core/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace paraplan {

int ResolveThreads(int threads) {
  if (threads > 0) return threads;
  const unsigned hardware = std::thread::hardware_concurrency();
  return hardware == 0 ? 1 : static_cast<int>(hardware);
}

void RunOnWorkers(int threads, const std::function<void(int worker)>& fn) {
  threads = ResolveThreads(threads);
  std::exception_ptr first_error;
  std::mutex error_mutex;
  auto guarded = [&](int worker) {
    try {
      fn(worker);
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mutex);
      if (!first_error) first_error = std::current_exception();
    }
  };
  std::vector<std::thread> workers;
  workers.reserve(static_cast<size_t>(threads - 1));
  for (int w = 1; w < threads; ++w) workers.emplace_back(guarded, w);
  guarded(0);
  for (auto& t : workers) t.join();
  if (first_error) std::rethrow_exception(first_error);
}

void ParallelFor(size_t n, int threads, const std::function<void(size_t)>& fn) {
  const size_t workers = std::min(static_cast<size_t>(ResolveThreads(threads)), n);
  if (workers <= 1) {
    for (size_t i = 0; i < n; ++i) fn(i);
    return;
  }
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  RunOnWorkers(static_cast<int>(workers), [&](int) {
    try {
      for (size_t i = next++; i < n && !failed; i = next++) fn(i);
    } catch (...) {
      failed = true;
      throw;
    }
  });
}

}  // namespace paraplan
