// One name table per enum: its values with the names files, flags and reports use, in the order
// error messages list them. ToString and the loaders read the same table, so a name is written
// once.
#pragma once

#include <utility>
#include <vector>

namespace paraplan {

template <typename E>
using NameTable = std::vector<std::pair<const char*, E>>;

// The name of `value` in `table`; "?" when the table lacks it.
template <typename E>
const char* NameOf(const NameTable<E>& table, E value) {
  for (const auto& [name, v] : table) {
    if (v == value) return name;
  }
  return "?";
}

}  // namespace paraplan
