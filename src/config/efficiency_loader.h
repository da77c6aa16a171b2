// Built-in efficiency defaults per GPU family, read from hardware/efficiency.yaml (found through
// DataSearchDirs()). The library never caches this file: the cluster loader (ReadCluster, so
// LoadCluster and every inline cluster of a runs or study file) applies it where the cluster is
// resolved, so no caller has to; StepModel does no file I/O and uses cluster.efficiency as given.
#pragma once

#include <string>

#include "hardware/cluster.h"
#include "hardware/efficiency.h"

namespace paraplan {

// The defaults for `gpu_name` from the YAML file at `path`: the first `gpus` entry whose
// `match` is a substring of the name, else `default`. Throws InputError on a malformed file.
Efficiency LoadEfficiencyFile(const std::string& path, const std::string& gpu_name);

// The same from hardware/efficiency.yaml in the data directories; the struct defaults when no
// such file is found.
Efficiency DefaultEfficiencyFor(const std::string& gpu_name);

// Whether every field of `e` still holds Efficiency{}'s value (nothing set by a file or --set).
bool IsStructDefault(const Efficiency& e);

// Replaces cluster.efficiency by DefaultEfficiencyFor(gpu) when it is still the struct default.
void ApplyDefaultEfficiency(Cluster& cluster);

}  // namespace paraplan
