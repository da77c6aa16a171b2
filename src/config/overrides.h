// PRIVATE to src/config: applying dotted-path overrides (`--set`, runs-file `overrides:`, study
// sweeps) onto a YAML tree before it is validated. See ApplyOverride in yaml_reader.h.
#pragma once

#include <string>
#include <vector>

#include "config/resolve.h"
#include "config/yaml_reader.h"

namespace paraplan {

// Applies, in order, every override whose path starts with `root` + "." (e.g. "model",
// "cluster") onto `node`, which stands for that root. Others are skipped.
void ApplyOverrides(YamlNode& node, const std::vector<Override>& overrides,
                    const std::string& root);

// Reads an `overrides:` mapping ({cluster.gpu.memory_GiB: 96, ...}); each path must start with
// one of `roots`. Locations point at the value in the file.
std::vector<Override> ReadOverrides(const YamlNode& node, const std::vector<std::string>& roots);

}  // namespace paraplan
