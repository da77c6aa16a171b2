// PRIVATE to src/config: a hardware file's optional `gpu.measured:` section, the part's kernel
// rates measured outside any framework (hardware/measured_rate.h; docs/formats.md).
#pragma once

#include "config/yaml_reader.h"
#include "hardware/cluster.h"

namespace paraplan {

// Reads `gpu.measured` (a mapping from field name to one measurement) into gpu.measured. `gpu`'s
// peaks and memory bandwidth must already be read: a rate above the part's own datasheet rate, a
// Hopper rate above its stated peak, or a field whose peak the file lacks (fp8) is an error at
// the key.
void ReadMeasuredRates(const YamlNode& node, GpuSpec& gpu);

}  // namespace paraplan
