// Whether a YAML text holds more than one document, found without yaml-cpp's YAML::LoadAll: its
// loop over documents never ends on some malformed inputs (the fuzzers found six), so the parser
// is driven over a bounded number of documents instead (docs/reliability.md).
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>

namespace paraplan {

// Documents after the first that are read.
inline constexpr int kMaxYamlDocuments = 64;

struct ExtraYamlDocument {
  enum Kind { kNone, kContent, kTooMany } kind = kNone;
  YAML::Mark mark;  // for kContent: where the first later document with content starts
};

// The first document after the first that holds anything (a scalar, a list, a mapping or an
// alias; a null after a trailing '---' holds nothing), or kTooMany past kMaxYamlDocuments.
// Throws YAML::Exception as the parser does.
ExtraYamlDocument FindExtraYamlDocument(const std::string& text);

}  // namespace paraplan
