// Built-in efficiency defaults per GPU family, read from hardware/efficiency.yaml (found through
// DataSearchDirs()). The library never caches this file: the cluster loader (ReadCluster, so
// LoadCluster and every inline cluster of a runs or study file) applies it where the cluster is
// resolved, so no caller has to; StepModel does no file I/O and uses cluster.efficiency as given.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "hardware/cluster.h"
#include "hardware/efficiency.h"

namespace paraplan {

// The defaults for `gpu_name` from the YAML file at `path`: the first `gpus` entry whose
// `match` is the name's model (GpuModel, hardware/gpu_family.h) or, for a `match` that is no
// known model name, a substring of the name; else `default`. Throws InputError on a malformed
// file.
Efficiency LoadEfficiencyFile(const std::string& path, const std::string& gpu_name);

// Where a cluster's default efficiencies come from: the entry used ("H100", "default", or
// "transferred from H100") and one (field, source) per number.
struct EfficiencyOrigin {
  std::string entry;
  std::vector<std::pair<std::string, std::string>> sources;
};

// The defaults for a whole cluster: as LoadEfficiencyFile, except that a GPU of a known family
// (GpuFamily) whose model has no entry of its own takes the file's `unfitted` reference model's
// entry transferred to its own datasheet (TransferEfficiency, hardware/efficiency_transfer.h),
// the reference GPU's datasheet read from the hardware file `unfitted.hardware` names. `origin`
// (may be null) says where each number comes from.
Efficiency LoadClusterEfficiency(const std::string& path, const Cluster& cluster,
                                 EfficiencyOrigin* origin);

// The same from hardware/efficiency.yaml in the data directories (origin "built-in" with the
// struct defaults when there is none).
Efficiency DefaultClusterEfficiency(const Cluster& cluster, EfficiencyOrigin* origin);

// The same from hardware/efficiency.yaml in the data directories; the struct defaults when no
// such file is found.
Efficiency DefaultEfficiencyFor(const std::string& gpu_name);

// The model a GPU nobody fitted takes its numbers from: hardware/efficiency.yaml's `unfitted.from`
// in the data directories ("H100"); "" when there is no such file or key.
std::string DefaultUnfittedReference();

// Whether every field of `e` still holds Efficiency{}'s value (nothing set by a file or --set).
bool IsStructDefault(const Efficiency& e);

// Replaces cluster.efficiency by DefaultEfficiencyFor(gpu) when it is still the struct default.
void ApplyDefaultEfficiency(Cluster& cluster);

}  // namespace paraplan
