// PRIVATE to src/config: Hugging Face config.json → a mapping in paraplan's model schema, which
// ReadModel then validates. Scalars are copied as nodes, so an error still points into the
// config.json (file:line:col). Families: llama, mistral, mixtral, qwen2, qwen3, qwen3_moe,
// deepseek_v2, deepseek_v3, gpt_oss (by `model_type`). Mapping in docs/formats.md.
#pragma once

#include <string>

#include "config/yaml_reader.h"

namespace paraplan {

// Whether a parsed document is a Hugging Face config (a mapping with `model_type`).
bool LooksLikeHfConfig(const YamlNode& root);

// The model-schema mapping for `root`; `name` becomes its `name`. Throws InputError for an
// unsupported model_type (listing the supported ones) or a missing/ill-typed field.
YAML::Node HfConfigToModel(const YamlNode& root, const std::string& name);

}  // namespace paraplan
