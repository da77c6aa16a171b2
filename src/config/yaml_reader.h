// PRIVATE to src/config (and tests): the one YAML reading layer every loader uses. It wraps
// yaml-cpp so that each mistake is reported as "file:line:col: key.path: what is wrong".
//
// How to use it (a loader for some mapping):
//
//   YamlDocument doc = LoadYamlFile(path);              // or ParseYamlText(text, "<origin>")
//   YamlMap top(doc.Root(), {"name", "layers", "moe"});  // unknown keys → error, "did you mean"
//   int64_t layers = top.Required("layers").AsPositiveInt();
//   int64_t kv = top.Has("kv_heads") ? top.Get("kv_heads").AsPositiveInt() : heads;
//   if (auto moe = top.Find("moe")) { YamlMap m(*moe, {...}); ... }
//   for (const YamlNode& item : top.Required("runs").Elements()) { ... }
//   Recompute r = node.AsEnum<Recompute>({{"none", kNone}, {"full", kFull}});  // lists values
//   node.Fail("must divide heads (64)");                // throws InputError at node's position
//
// Loading guarantees, checked once for the whole document before any getter runs: the path is a
// regular, non-empty file (not a directory or device) of at most 64 MiB; the YAML parses (a
// truncated JSON or YAML document is an error at its position); no mapping repeats a key
// (yaml-cpp keeps both, so the duplicate is found here); keys are scalars; nesting is at most
// kMaxYamlDepth deep and alias expansion visits at most kMaxYamlNodes nodes ("billion laughs").
//
// Overrides (`--set model.seq_len=32768`, runs-file `overrides:`, study sweeps) are applied to
// the tree BEFORE validation with ApplyOverride, so a bad value is still reported with its key
// path, at the place where the override was written.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"

namespace paraplan {

inline constexpr int kMaxYamlDepth = 64;
inline constexpr int64_t kMaxYamlNodes = 1000000;
inline constexpr int64_t kMaxYamlFileBytes = 64LL * 1024 * 1024;

// Where an overridden value came from: the flag or file position, and the override's own path
// ("cluster.gpu.memory_GiB") used as the key path in messages about it.
struct OverrideOrigin {
  SourceLocation where;
  std::string display;
};

// Shared by every node of one document: the file name and where overridden paths came from.
struct YamlContext {
  std::string file;
  std::map<std::string, OverrideOrigin> overridden;  // key path → the override that set it
};

// A node and where it is: its key path ("moe.top_k", "network[1].span") and its position.
class YamlNode {
 public:
  YamlNode(const YAML::Node& node, std::shared_ptr<YamlContext> context, std::string path);
  YamlNode(const YamlNode&) = default;
  // Rebinds (YAML::Node's own operator= would overwrite the node it refers to).
  YamlNode& operator=(const YamlNode& other) {
    if (this == &other) return *this;
    node_.reset(other.node_);
    context_ = other.context_;
    path_ = other.path_;
    return *this;
  }

  const YAML::Node& Raw() const { return node_; }
  const std::string& Path() const { return path_; }
  const std::string& File() const { return context_->file; }
  const std::shared_ptr<YamlContext>& Context() const { return context_; }
  SourceLocation Where() const;
  [[noreturn]] void Fail(const std::string& message) const;

  bool IsNull() const { return node_.IsNull(); }
  bool IsMap() const { return node_.IsMap(); }
  bool IsSequence() const { return node_.IsSequence(); }
  bool IsScalar() const { return node_.IsScalar(); }

  // Typed getters; each throws InputError naming the expected type and what was found.
  int64_t AsInt() const;
  int64_t AsPositiveInt() const;           // > 0
  int64_t AsNonNegativeInt() const;        // ≥ 0
  double AsDouble() const;                 // finite
  double AsPositiveDouble() const;         // > 0
  bool AsBool() const;                     // true | false
  std::string AsString() const;            // any scalar, as written
  std::vector<YamlNode> Elements() const;  // a sequence's items, paths "path[i]"
  // Whatever the node holds, as one line of YAML text ("100", "[4, 8]", "{fp8: 1979}").
  std::string AsText() const;

  template <typename T>
  T AsEnum(const std::vector<std::pair<const char*, T>>& values) const {
    const std::string text = AsString();
    for (const auto& [name, value] : values) {
      if (text == name) return value;
    }
    std::vector<std::string> names;
    names.reserve(values.size());
    for (const auto& [name, value] : values) names.emplace_back(name);
    Fail(EnumMessage(text, names));
  }

  // The child path for key / index (used by YamlMap and Elements).
  std::string ChildPath(const std::string& key) const;
  static std::string EnumMessage(const std::string& got, const std::vector<std::string>& valid);

 private:
  YAML::Node node_;
  std::shared_ptr<YamlContext> context_;
  std::string path_;
};

// A mapping whose keys must come from `allowed`; construction rejects anything else (a
// non-mapping, an unknown key with a "did you mean"). Keys keep file order in Keys().
class YamlMap {
 public:
  YamlMap(const YamlNode& node, std::vector<std::string> allowed);

  bool Has(const std::string& key) const;                      // present and not null
  std::optional<YamlNode> Find(const std::string& key) const;  // absent or null → nullopt
  YamlNode Required(const std::string& key) const;             // absent → "missing required key"
  const YamlNode& Node() const { return node_; }
  std::vector<std::string> Keys() const;  // present keys, in file order

  // Shortcuts: the value if present, else `fallback`.
  int64_t PositiveInt(const std::string& key, int64_t fallback) const;
  int64_t NonNegativeInt(const std::string& key, int64_t fallback) const;
  double PositiveDouble(const std::string& key, double fallback) const;
  bool Bool(const std::string& key, bool fallback) const;
  std::string String(const std::string& key, const std::string& fallback) const;

 private:
  YamlNode node_;
};

// Every key of a mapping as (key, value) in file order, for free-form maps (overrides, sweeps).
std::vector<std::pair<std::string, YamlNode>> MapEntries(const YamlNode& node);

// A parsed, checked document.
struct YamlDocument {
  std::shared_ptr<YamlContext> context;
  YAML::Node root;
  YamlNode Root() const { return YamlNode(root, context, ""); }
};

YamlDocument LoadYamlFile(const std::string& path);
// `origin` names the text in messages (a path, "--set", "<string>"). Empty text is an error.
YamlDocument ParseYamlText(const std::string& text, const std::string& origin);
// The one document of `text` (a null node when empty); a second non-empty document ('---') or
// invalid YAML is an InputError at its position.
YAML::Node LoadOneYamlDocument(const std::string& text, const std::string& origin);

// Checks a (sub)tree against the depth, node-count and duplicate-key bounds. LoadYamlFile and
// ParseYamlText already do this; call it on trees built by other means.
void CheckYamlTree(const YAML::Node& root, const std::shared_ptr<YamlContext>& context);

// Sets `dotted` (relative to `target`, e.g. seq_len, "network.scaleout.bandwidth_GBps",
// "gpu.peak_tflops.bf16") to the YAML value `value_text`. A sequence of mappings is indexed by
// the items' `name` (or a number). Intermediate mappings are created when absent; a key that
// does not belong there is reported by the loader's validation, at `where`. `display` is how
// the override is named in errors (e.g. "cluster.network.x.span").
void ApplyOverride(YamlNode& target, const std::string& dotted, const std::string& value_text,
                   const SourceLocation& where, const std::string& display);

// The closest candidate within a small edit distance, or "" (for "did you mean …?").
std::string ClosestMatch(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace paraplan
