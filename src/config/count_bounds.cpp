#include "config/count_bounds.h"

#include <string>

namespace paraplan {

void CheckBound(const YamlNode& node, int64_t value, int64_t max) {
  if (value <= max) return;
  node.Fail("must be at most " + std::to_string(max) +
            " (paraplan's bound; docs/formats.md), got " + std::to_string(value));
}

void CheckCounts(const YamlMap& map, const std::vector<CountBound>& bounds) {
  for (const CountBound& b : bounds) {
    if (b.value > b.max && map.Has(b.key)) CheckBound(map.Required(b.key), b.value, b.max);
  }
}

}  // namespace paraplan
