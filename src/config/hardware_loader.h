// PRIVATE to src/config: the hardware schema (DESIGN.md "Hardware", docs/formats.md) read from a
// YAML mapping — a hardware/*.yaml file or an inline `cluster:` mapping in a runs/study file.
#pragma once

#include <string>
#include <vector>

#include "config/resolve.h"
#include "config/yaml_reader.h"
#include "hardware/cluster.h"

namespace paraplan {

// Reads and validates a cluster mapping. A relative `profile:` path is resolved against
// `base_dir` (the directory of the file the mapping is in) and loaded. Every cluster, from a file
// or inline, leaves here with its GPU family's efficiency defaults (ApplyDefaultEfficiency).
Cluster ReadCluster(const YamlNode& node, const std::string& default_name,
                    const std::string& base_dir);

// A hardware file; overrides starting with "cluster." are applied before validation.
Cluster LoadClusterFile(const std::string& path, const std::vector<Override>& overrides);

}  // namespace paraplan
