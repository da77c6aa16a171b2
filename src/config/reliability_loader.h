// PRIVATE to src/config: a hardware file's optional `reliability:`, `storage:` and `power:`
// sections (docs/formats.md). A file without them keeps ClusterReliability's and ClusterStorage's
// defaults and gets its GPU family's datasheet power (PowerDefaultsFor), so hardware files written
// before these sections load unchanged.
#pragma once

#include <optional>
#include <string>

#include "config/yaml_reader.h"
#include "hardware/cluster.h"

namespace paraplan {

// The datasheet power of a GPU family by its name (H100, H200, H800, A100, B200/GB200), with
// the DGX/NVL72 system power's share per node; nullopt for a GPU the table does not know.
std::optional<ClusterPower> PowerDefaultsFor(const std::string& gpu_name);

// Reads the three sections from the cluster mapping `node` (keys checked, ranges checked, errors
// with the key's location) into `cluster`, whose gpu.name must already be set.
void ReadReliabilitySections(const YamlMap& map, Cluster& cluster);

}  // namespace paraplan
