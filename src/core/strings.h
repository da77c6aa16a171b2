// Small string helpers every folder uses: joining names into a list and the edit distance behind
// "did you mean" suggestions. One copy each (issue 36 found seven joins and two distances).
#pragma once

#include <concepts>
#include <cstddef>
#include <ranges>
#include <string>
#include <string_view>

namespace paraplan {

// The items with `sep` between them. A separator goes only after text already written: leading
// empty items add nothing (every caller's lists rely on that). Items must be strings: a string
// itself is not a list to join.
template <typename Range>
requires std::convertible_to<std::ranges::range_value_t<Range>, std::string_view> std::string Join(
    const Range& items, std::string_view sep = ", ") {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += sep;
    out += item;
  }
  return out;
}

// Levenshtein distance: insertions, deletions and substitutions of one character each cost 1.
size_t EditDistance(std::string_view a, std::string_view b);

}  // namespace paraplan
