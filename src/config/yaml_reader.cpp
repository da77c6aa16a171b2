#include "config/yaml_reader.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "config/yaml_document.h"
#include "core/strings.h"

namespace paraplan {

namespace {

std::string Describe(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      return "null";
    case YAML::NodeType::Map:
      return "a mapping";
    case YAML::NodeType::Sequence:
      return "a list";
    case YAML::NodeType::Scalar:
      return "'" + node.Scalar() + "'";
  }
  return "?";
}

SourceLocation MarkLocation(const std::string& file, const YAML::Mark& mark) {
  SourceLocation where{file, 0, 0};
  if (mark.line >= 0 && mark.column >= 0) {
    where.line = mark.line + 1;
    where.column = mark.column + 1;
  }
  return where;
}

// Exact or prefix ("a.b" matches "a.b.c" and "a.b[0]") match of an overridden path.
const std::pair<const std::string, OverrideOrigin>* FindOrigin(const YamlContext& context,
                                                               const std::string& path) {
  for (const auto& entry : context.overridden) {
    const std::string& key = entry.first;
    if (path == key) return &entry;
    if (path.size() > key.size() && path.compare(0, key.size(), key) == 0 &&
        (path[key.size()] == '.' || path[key.size()] == '[')) {
      return &entry;
    }
  }
  return nullptr;
}

struct TreeWalk {
  const std::shared_ptr<YamlContext>& context;
  int64_t visited = 0;

  void Visit(const YAML::Node& node, int depth, const std::string& path) {
    if (++visited > kMaxYamlNodes) {
      YamlNode(node, context, path)
          .Fail("document expands to more than " + std::to_string(kMaxYamlNodes) +
                " nodes (recursive or exponential aliases?)");
    }
    if (depth > kMaxYamlDepth) {
      YamlNode(node, context, path)
          .Fail("nested deeper than " + std::to_string(kMaxYamlDepth) + " levels");
    }
    if (node.IsSequence()) {
      int64_t index = 0;
      for (const YAML::Node& item : node) {
        Visit(item, depth + 1, path + "[" + std::to_string(index++) + "]");
      }
    } else if (node.IsMap()) {
      VisitMap(node, depth, path);
    }
  }

  void VisitMap(const YAML::Node& node, int depth, const std::string& path) {
    std::map<std::string, int> first_line;
    for (const auto& entry : node) {
      const YAML::Node& key = entry.first;
      if (!key.IsScalar()) {
        YamlNode(key, context, path).Fail("a key must be a plain string, got " + Describe(key));
      }
      const std::string child = path.empty() ? key.Scalar() : path + "." + key.Scalar();
      const YamlNode key_node(key, context, child);
      auto [it, inserted] = first_line.emplace(key.Scalar(), key_node.Where().line);
      if (!inserted) {
        key_node.Fail("duplicate key '" + key.Scalar() + "' (first at line " +
                      std::to_string(it->second) + ")");
      }
      Visit(entry.second, depth + 1, child);
    }
  }
};

}  // namespace

YamlNode::YamlNode(const YAML::Node& node, std::shared_ptr<YamlContext> context, std::string path)
    : node_(node), context_(std::move(context)), path_(std::move(path)) {}

SourceLocation YamlNode::Where() const {
  if (const auto* origin = FindOrigin(*context_, path_)) return origin->second.where;
  return MarkLocation(context_->file, node_.Mark());
}

void YamlNode::Fail(const std::string& message) const {
  if (const auto* origin = FindOrigin(*context_, path_)) {
    throw InputError(origin->second.where,
                     origin->second.display + path_.substr(origin->first.size()), message);
  }
  throw InputError(MarkLocation(context_->file, node_.Mark()), path_, message);
}

std::string YamlNode::ChildPath(const std::string& key) const {
  return path_.empty() ? key : path_ + "." + key;
}

std::string YamlNode::EnumMessage(const std::string& got, const std::vector<std::string>& valid) {
  std::string message = "'" + got + "' is not one of: " + Join(valid);
  const std::string close = ClosestMatch(got, valid);
  if (!close.empty()) message += " (did you mean '" + close + "'?)";
  return message;
}

int64_t YamlNode::AsInt() const {
  if (!node_.IsScalar()) Fail("expected an integer, got " + Describe(node_));
  const std::string& text = node_.Scalar();
  int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec == std::errc::result_out_of_range) Fail("integer out of range: " + text);
  if (ec != std::errc() || end != text.data() + text.size()) {
    Fail("expected an integer, got " + Describe(node_));
  }
  return value;
}

int64_t YamlNode::AsPositiveInt() const {
  const int64_t value = AsInt();
  if (value <= 0) Fail("must be > 0, got " + std::to_string(value));
  return value;
}

int64_t YamlNode::AsNonNegativeInt() const {
  const int64_t value = AsInt();
  if (value < 0) Fail("must be >= 0, got " + std::to_string(value));
  return value;
}

double YamlNode::AsDouble() const {
  if (!node_.IsScalar()) Fail("expected a number, got " + Describe(node_));
  const std::string& text = node_.Scalar();
  const char* begin = text.data();
  if (!text.empty() && text[0] == '+') ++begin;
  double value = 0;
  const auto [end, ec] = std::from_chars(begin, text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    Fail("expected a number, got " + Describe(node_));
  }
  return value;
}

double YamlNode::AsPositiveDouble() const {
  const double value = AsDouble();
  if (!(value > 0)) Fail("must be > 0, got " + node_.Scalar());
  return value;
}

bool YamlNode::AsBool() const {
  if (node_.IsScalar()) {
    const std::string& text = node_.Scalar();
    if (text == "true" || text == "True" || text == "TRUE") return true;
    if (text == "false" || text == "False" || text == "FALSE") return false;
  }
  Fail("expected true or false, got " + Describe(node_));
}

std::string YamlNode::AsString() const {
  if (!node_.IsScalar()) Fail("expected a string, got " + Describe(node_));
  return node_.Scalar();
}

std::vector<YamlNode> YamlNode::Elements() const {
  if (!node_.IsSequence()) Fail("expected a list, got " + Describe(node_));
  std::vector<YamlNode> items;
  size_t index = 0;
  for (const YAML::Node& item : node_) {
    items.emplace_back(item, context_, path_ + "[" + std::to_string(index++) + "]");
  }
  return items;
}

std::string YamlNode::AsText() const {
  if (node_.IsScalar()) return node_.Scalar();
  if (node_.IsNull()) return "null";
  YAML::Emitter emitter;
  emitter.SetMapFormat(YAML::Flow);
  emitter.SetSeqFormat(YAML::Flow);
  emitter << node_;
  return emitter.c_str();
}

YamlMap::YamlMap(const YamlNode& node, std::vector<std::string> allowed) : node_(node) {
  if (!node.IsMap()) node.Fail("expected a mapping, got " + Describe(node.Raw()));
  for (const auto& entry : node.Raw()) {
    const std::string key = entry.first.Scalar();
    if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
    std::string message = "unknown key '" + key + "'";
    const std::string close = ClosestMatch(key, allowed);
    if (!close.empty()) message += " (did you mean '" + close + "'?)";
    message += "; valid keys: " + Join(allowed);
    YamlNode(entry.first, node.Context(), node.ChildPath(key)).Fail(message);
  }
}

bool YamlMap::Has(const std::string& key) const {
  return Find(key).has_value();
}

std::optional<YamlNode> YamlMap::Find(const std::string& key) const {
  const YAML::Node& raw = node_.Raw();
  const YAML::Node child = raw[key];
  if (!child.IsDefined() || child.IsNull()) return std::nullopt;
  return YamlNode(child, node_.Context(), node_.ChildPath(key));
}

YamlNode YamlMap::Required(const std::string& key) const {
  const YAML::Node& raw = node_.Raw();
  const YAML::Node child = raw[key];
  if (!child.IsDefined()) node_.Fail("missing required key '" + key + "'");
  return YamlNode(child, node_.Context(), node_.ChildPath(key));
}

std::vector<std::string> YamlMap::Keys() const {
  std::vector<std::string> keys;
  for (const auto& entry : node_.Raw()) keys.push_back(entry.first.Scalar());
  return keys;
}

int64_t YamlMap::PositiveInt(const std::string& key, int64_t fallback) const {
  const auto child = Find(key);
  return child ? child->AsPositiveInt() : fallback;
}

int64_t YamlMap::NonNegativeInt(const std::string& key, int64_t fallback) const {
  const auto child = Find(key);
  return child ? child->AsNonNegativeInt() : fallback;
}

double YamlMap::PositiveDouble(const std::string& key, double fallback) const {
  const auto child = Find(key);
  return child ? child->AsPositiveDouble() : fallback;
}

bool YamlMap::Bool(const std::string& key, bool fallback) const {
  const auto child = Find(key);
  return child ? child->AsBool() : fallback;
}

std::string YamlMap::String(const std::string& key, const std::string& fallback) const {
  const auto child = Find(key);
  return child ? child->AsString() : fallback;
}

std::vector<std::pair<std::string, YamlNode>> MapEntries(const YamlNode& node) {
  if (!node.IsMap()) node.Fail("expected a mapping, got " + Describe(node.Raw()));
  std::vector<std::pair<std::string, YamlNode>> entries;
  for (const auto& entry : node.Raw()) {
    const std::string key = entry.first.Scalar();
    entries.emplace_back(key, YamlNode(entry.second, node.Context(), node.ChildPath(key)));
  }
  return entries;
}

void CheckYamlTree(const YAML::Node& root, const std::shared_ptr<YamlContext>& context) {
  TreeWalk walk{context};
  walk.Visit(root, 0, "");
}

YAML::Node LoadOneYamlDocument(const std::string& text, const std::string& origin) {
  YAML::Node root;
  ExtraYamlDocument extra;
  try {
    root = YAML::Load(text);
    extra = FindExtraYamlDocument(text);
  } catch (const YAML::Exception& e) {
    throw InputError(MarkLocation(origin, e.mark), "", "not valid YAML/JSON: " + e.msg);
  }
  if (extra.kind == ExtraYamlDocument::kContent) {  // a second document would be ignored silently
    throw InputError(MarkLocation(origin, extra.mark), "",
                     "a second YAML document ('---'); paraplan reads one document per file");
  }
  if (extra.kind == ExtraYamlDocument::kTooMany) {
    throw InputError(SourceLocation{origin, 0, 0}, "",
                     "more than " + std::to_string(kMaxYamlDocuments) +
                         " YAML documents ('---'); paraplan reads one document per file");
  }
  return root;
}

YamlDocument ParseYamlText(const std::string& text, const std::string& origin) {
  YamlDocument doc;
  doc.context = std::make_shared<YamlContext>();
  doc.context->file = origin;
  doc.root = LoadOneYamlDocument(text, origin);
  if (doc.root.IsNull()) {
    throw InputError(SourceLocation{origin, 0, 0}, "", "empty document (no YAML content)");
  }
  CheckYamlTree(doc.root, doc.context);
  return doc;
}

YamlDocument LoadYamlFile(const std::string& path) {
  namespace fs = std::filesystem;
  const SourceLocation where{path, 0, 0};
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (ec || !fs::exists(status)) throw InputError(where, "", "no such file");
  if (fs::is_directory(status)) throw InputError(where, "", "is a directory, expected a file");
  if (!fs::is_regular_file(status)) throw InputError(where, "", "not a regular file");
  const auto size = fs::file_size(path, ec);
  if (ec) throw InputError(where, "", "cannot read: " + ec.message());
  if (size == 0) throw InputError(where, "", "empty file");
  if (size > static_cast<uintmax_t>(kMaxYamlFileBytes)) {
    throw InputError(where, "", "file larger than 64 MiB");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(where, "", "cannot open for reading");
  std::ostringstream text;
  text << in.rdbuf();
  return ParseYamlText(text.str(), path);
}

namespace {

// Indexes a sequence of mappings by an item's `name` (or a number); returns -1 when absent.
int64_t FindItem(const YAML::Node& sequence, const std::string& segment) {
  int64_t index = 0;
  for (const YAML::Node& item : sequence) {
    if (item.IsMap() && item["name"] && item["name"].IsScalar() &&
        item["name"].Scalar() == segment) {
      return index;
    }
    ++index;
  }
  int64_t number = -1;
  const auto [end, ec] = std::from_chars(segment.data(), segment.data() + segment.size(), number);
  if (ec == std::errc() && end == segment.data() + segment.size() && number >= 0 &&
      number < index) {
    return number;
  }
  return -1;
}

std::vector<std::string> ItemNames(const YAML::Node& sequence) {
  std::vector<std::string> names;
  for (const YAML::Node& item : sequence) {
    if (item.IsMap() && item["name"] && item["name"].IsScalar()) {
      names.push_back(item["name"].Scalar());
    }
  }
  return names;
}

std::vector<std::string> SplitDots(const std::string& dotted, const SourceLocation& where,
                                   const std::string& display) {
  std::vector<std::string> segments;
  std::string current;
  for (char c : dotted + ".") {
    if (c != '.') {
      current += c;
      continue;
    }
    if (current.empty()) throw InputError(where, display, "empty segment in the path");
    segments.push_back(current);
    current.clear();
  }
  return segments;
}

}  // namespace

void ApplyOverride(YamlNode& target, const std::string& dotted, const std::string& value_text,
                   const SourceLocation& where, const std::string& display) {
  const std::vector<std::string> segments = SplitDots(dotted, where, display);
  if (value_text.empty()) throw InputError(where, display, "empty value");
  YAML::Node value;
  try {
    value = YAML::Load(value_text);
  } catch (const YAML::Exception& e) {
    throw InputError(where, display, "value is not valid YAML: " + e.msg);
  }
  CheckYamlTree(value, target.Context());

  YAML::Node current = target.Raw();
  std::string path = target.Path();
  // A mapping the override creates (moe.experts for `moe.experts.x` on a dense model) is the
  // override's, not the file's: a later error there names the flag, not the file without a line.
  const std::string display_root = display.substr(0, display.size() - dotted.size());
  bool through_list = false, created = false;
  for (size_t i = 0; i < segments.size(); ++i) {
    const std::string& segment = segments[i];
    const bool last = i + 1 == segments.size();
    if (current.IsSequence()) {
      const int64_t index = FindItem(current, segment);
      if (index < 0) {
        std::string message = "no item named '";
        message += segment;
        message += "' in '";
        message += path;
        message += "' (have: ";
        message += Join(ItemNames(current));
        message += ")";
        throw InputError(where, display, message);
      }
      if (last) throw InputError(where, display, "cannot replace a whole list item; set a field");
      path += "[" + std::to_string(index) + "]";
      through_list = true;
      YAML::Node item = current[static_cast<size_t>(index)];
      current.reset(item);
      continue;
    }
    if (!current.IsMap() && !current.IsNull()) {
      throw InputError(where, display, "'" + path + "' is a value, not a mapping");
    }
    if (!path.empty()) path += '.';
    path += segment;
    if (last) {
      current[segment] = value;
      break;
    }
    YAML::Node child = current[segment];
    if (!child.IsDefined() || child.IsNull()) {
      current[segment] = YAML::Node(YAML::NodeType::Map);
      child.reset(current[segment]);
      if (!created && !through_list && display.size() >= dotted.size()) {
        std::string shown = display_root;
        for (size_t j = 0; j <= i; ++j) shown += (j == 0 ? "" : ".") + segments[j];
        target.Context()->overridden[path] = OverrideOrigin{where, shown};
        created = true;
      }
    }
    current.reset(child);
  }
  target.Context()->overridden[path] = OverrideOrigin{where, display};
}

std::string ClosestMatch(const std::string& word, const std::vector<std::string>& candidates) {
  const size_t limit = std::max<size_t>(2, word.size() / 3);
  std::string best;
  size_t best_distance = limit + 1;
  for (const std::string& candidate : candidates) {
    // A unit-less prefix ("bandwidth" for "bandwidth_GBps") counts as a close match.
    const bool prefix = word.size() >= 3 && candidate.rfind(word, 0) == 0;
    const size_t distance = prefix ? 1 : EditDistance(word, candidate);
    if (distance < best_distance) {
      best_distance = distance;
      best = candidate;
    }
  }
  return best;
}

}  // namespace paraplan
