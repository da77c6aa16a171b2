#include "config/yaml_document.h"

#include <yaml-cpp/eventhandler.h>

#include <sstream>

namespace paraplan {

namespace {

// Notes where a YAML document first holds something (a scalar, a sequence, a mapping or an alias);
// a document of nothing but a null (after a trailing '---') holds nothing.
class ContentProbe : public YAML::EventHandler {
 public:
  bool content = false;
  YAML::Mark mark;

  void OnDocumentStart(const YAML::Mark& /*mark*/) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& /*mark*/, YAML::anchor_t /*anchor*/) override {}
  void OnAlias(const YAML::Mark& m, YAML::anchor_t /*anchor*/) override { Note(m); }
  void OnScalar(const YAML::Mark& m, const std::string& /*tag*/, YAML::anchor_t /*anchor*/,
                const std::string& /*value*/) override {
    Note(m);
  }
  void OnSequenceStart(const YAML::Mark& m, const std::string& /*tag*/, YAML::anchor_t /*anchor*/,
                       YAML::EmitterStyle::value /*style*/) override {
    Note(m);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& m, const std::string& /*tag*/, YAML::anchor_t /*anchor*/,
                  YAML::EmitterStyle::value /*style*/) override {
    Note(m);
  }
  void OnMapEnd() override {}

 private:
  void Note(const YAML::Mark& m) {
    if (!content) mark = m;
    content = true;
  }
};

}  // namespace

ExtraYamlDocument FindExtraYamlDocument(const std::string& text) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  ContentProbe first;
  if (!parser.HandleNextDocument(first)) return {};
  for (int i = 0; i < kMaxYamlDocuments; ++i) {
    ContentProbe next;
    if (!parser.HandleNextDocument(next)) return {};
    if (next.content) return {ExtraYamlDocument::kContent, next.mark};
  }
  return {ExtraYamlDocument::kTooMany, {}};
}

}  // namespace paraplan
