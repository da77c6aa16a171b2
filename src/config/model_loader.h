// PRIVATE to src/config: the model schema (DESIGN.md "Model", docs/formats.md) read from a YAML
// mapping — a models/*.yaml file, an inline `model:` mapping in a runs or study file, or the
// mapping a Hugging Face config.json is translated into (hf_import.h).
#pragma once

#include <string>
#include <vector>

#include "config/resolve.h"
#include "config/yaml_reader.h"
#include "model/model_spec.h"

namespace paraplan {

// Reads and validates a model mapping; `default_name` is used when it has no `name` key.
ModelSpec ReadModel(const YamlNode& node, const std::string& default_name);

// A model file: YAML in our schema, or a Hugging Face config.json (by extension or content);
// overrides starting with "model." are applied before validation.
ModelSpec LoadModelFile(const std::string& path, const std::vector<Override>& overrides);

}  // namespace paraplan
