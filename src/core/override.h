// One dotted-path override of a description's field (DESIGN.md "Overrides"): the one mechanism
// behind `--set`, a runs file's `overrides:` and a study's `sweep:`. Plain data; parsing and
// applying it is src/config (resolve.h ParseOverrideFlag, overrides.h ApplyOverrides).
#pragma once

#include <string>

#include "core/error.h"

namespace paraplan {

// One `--set PATH=VALUE` (or an `overrides:` entry). path is dotted and starts with its root:
// "model.seq_len", "cluster.gpu.memory_GiB", "cluster.network.scaleout.bandwidth_GBps".
struct Override {
  std::string path;
  std::string value;     // YAML scalar or flow text ("100", "[1, 2]", "{fp8: 1979}")
  SourceLocation where;  // where the override was written (the flag, or a file position)
};

}  // namespace paraplan
