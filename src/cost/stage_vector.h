// A per-pipeline-stage array for the search's inner loop: up to kInlineStages elements live
// inside the object and are written only by Resize (a plan with pp stages touches pp of them,
// whatever the capacity), more go on the heap. Elements are plain value structs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

namespace paraplan {

// Deeper pipelines than this (more stages than GPT-3 or Llama 3.1 405B have layers) allocate.
inline constexpr int64_t kInlineStages = 128;

template <typename T>
class StageVector {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "StageVector holds plain value structs");

 public:
  StageVector() = default;
  StageVector(const StageVector&) = delete;  // data_ may point into the object itself
  StageVector& operator=(const StageVector&) = delete;

  // n value-initialised elements; earlier contents are dropped.
  void Resize(int64_t n) {
    size_ = n;
    if (n > kInlineStages) {
      heap_.assign(static_cast<size_t>(n), T{});
      data_ = heap_.data();
      return;
    }
    std::uninitialized_fill_n(reinterpret_cast<T*>(inline_), n, T{});
    data_ = std::launder(reinterpret_cast<T*>(inline_));
  }
  // n elements left as they are (indeterminate at first), for a caller that writes every one of
  // them before it reads any: the per-plan stage arrays of the search's inner loop, where
  // value-initialising a few hundred bytes per stage showed in profiles.
  void ResizeForOverwrite(int64_t n) {
    if (n > kInlineStages) {
      Resize(n);
      return;
    }
    size_ = n;
    data_ = std::launder(reinterpret_cast<T*>(inline_));
  }
  T& operator[](int64_t i) { return data_[i]; }
  const T& operator[](int64_t i) const { return data_[i]; }
  const T* data() const { return data_; }
  int64_t size() const { return size_; }

 private:
  int64_t size_ = 0;
  T* data_ = nullptr;
  alignas(T) std::byte inline_[sizeof(T) * kInlineStages];
  std::vector<T> heap_;
};

}  // namespace paraplan
