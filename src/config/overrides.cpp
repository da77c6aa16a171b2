#include "config/overrides.h"

#include "core/strings.h"

namespace paraplan {

namespace {

std::string RootOf(const std::string& path) {
  return path.substr(0, path.find('.'));
}

}  // namespace

void ApplyOverrides(YamlNode& node, const std::vector<Override>& overrides,
                    const std::string& root) {
  for (const Override& o : overrides) {
    if (RootOf(o.path) != root) continue;
    if (o.path.size() <= root.size() + 1) {
      throw InputError(o.where, o.path, "names no field under '" + root + "'");
    }
    ApplyOverride(node, o.path.substr(root.size() + 1), o.value, o.where, o.path);
  }
}

std::vector<Override> ReadOverrides(const YamlNode& node, const std::vector<std::string>& roots) {
  std::vector<Override> overrides;
  for (const auto& [path, value] : MapEntries(node)) {
    const std::string root = RootOf(path);
    bool known = false;
    for (const std::string& r : roots) known = known || r == root;
    if (!known || path.size() <= root.size() + 1) {
      value.Fail("an override path starts with one of: " + Join(roots) +
                 " and names a field (e.g. cluster.gpu.memory_GiB)");
    }
    overrides.push_back(Override{path, value.AsText(), value.Where()});
  }
  return overrides;
}

}  // namespace paraplan
