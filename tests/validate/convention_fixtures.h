// Small builders for the framework-convention tests: a one-value knob list as a runs file states
// it, and a model spec that sets only its layer count (what the conventions read of a model).
#pragma once

#include <cstdint>
#include <vector>

#include "model/model_spec.h"

namespace paraplan::testing {

template <typename T>
std::vector<T> V(T value) {
  return {value};
}

inline ModelSpec Layers(int64_t layers) {
  ModelSpec m;
  m.layers = layers;
  return m;
}

}  // namespace paraplan::testing
