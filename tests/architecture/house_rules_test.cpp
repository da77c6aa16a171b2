// Two rules of the house from issue 36 (docs/architecture.md, "Where does my change go"), checked
// over src/ so that they cannot regress: each knob's name is spelled as a string literal in at
// most three files (its row in plan/knob_table.cpp, its aliases in config/knob_aliases.cpp, one
// reader; everywhere else takes KnobName(Knob) from the table), and no file passes 500 lines.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "plan/knob_table.h"

namespace fs = std::filesystem;
using namespace paraplan;

namespace {

constexpr size_t kMaxFilesPerKnobName = 3;
constexpr size_t kMaxLines = 500;

struct SourceFile {
  std::string path;  // relative to src/
  std::string text;
};

std::vector<SourceFile> ReadSources(const fs::path& root) {
  std::vector<SourceFile> out;
  for (const fs::directory_entry& f : fs::recursive_directory_iterator(root)) {
    if (!f.is_regular_file()) continue;
    const std::string ext = f.path().extension().string();
    if (ext != ".h" && ext != ".cpp") continue;
    std::ifstream in(f.path());
    std::ostringstream text;
    text << in.rdbuf();
    out.push_back({fs::relative(f.path(), root).generic_string(), text.str()});
  }
  std::sort(out.begin(), out.end(),
            [](const SourceFile& a, const SourceFile& b) { return a.path < b.path; });
  return out;
}

// For each name, the files that spell it as a string literal ("name", quotes included), when
// more than `limit` do.
std::map<std::string, std::vector<std::string>> OverusedNames(const std::vector<SourceFile>& files,
                                                              const std::vector<std::string>& names,
                                                              size_t limit) {
  std::map<std::string, std::vector<std::string>> out;
  for (const std::string& name : names) {
    const std::string literal = "\"" + name + "\"";
    std::vector<std::string> spelled;
    for (const SourceFile& f : files) {
      if (f.text.find(literal) != std::string::npos) spelled.push_back(f.path);
    }
    if (spelled.size() > limit) out[name] = spelled;
  }
  return out;
}

std::vector<std::string> LongFiles(const std::vector<SourceFile>& files, size_t max_lines) {
  std::vector<std::string> out;
  for (const SourceFile& f : files) {
    const size_t lines = static_cast<size_t>(std::count(f.text.begin(), f.text.end(), '\n'));
    if (lines > max_lines) out.push_back(f.path + ": " + std::to_string(lines) + " lines");
  }
  return out;
}

}  // namespace

TEST_CASE("Each knob's name is a string literal in at most three files of src/", "[architecture]") {
  const std::vector<SourceFile> files = ReadSources(fs::path(PARAPLAN_SOURCE_DIR) / "src");
  REQUIRE(files.size() > 100);
  std::vector<std::string> names;
  for (const KnobRow& row : KnobTable()) names.emplace_back(row.name);
  REQUIRE(names.size() == kKnobs);
  // The table itself spells every name once.
  for (const std::string& name : names) {
    INFO(name);
    const auto table = std::find_if(files.begin(), files.end(), [](const SourceFile& f) {
      return f.path == "plan/knob_table.cpp";
    });
    REQUIRE(table != files.end());
    CHECK(table->text.find("\"" + name + "\"") != std::string::npos);
  }
  const auto overused = OverusedNames(files, names, kMaxFilesPerKnobName);
  std::string listed;
  for (const auto& [name, spelled] : overused) {
    listed += name + ":";
    for (const std::string& f : spelled) listed += " " + f;
    listed += "\n";
  }
  INFO(
      "take the name from the table (KnobName(Knob::k...), plan/knob_table.h), or give a "
      "different concept of the same spelling one named constant:\n"
      << listed);
  CHECK(overused.empty());
}

TEST_CASE("No file in src/ passes 500 lines", "[architecture]") {
  const std::vector<SourceFile> files = ReadSources(fs::path(PARAPLAN_SOURCE_DIR) / "src");
  const std::vector<std::string> long_files = LongFiles(files, kMaxLines);
  std::string listed;
  for (const std::string& f : long_files) listed += f + "\n";
  INFO("split by concept (STYLE.md, one concept per file):\n" << listed);
  CHECK(long_files.empty());
}

TEST_CASE("The house-rule checks find an overused name and a long file", "[architecture]") {
  const std::vector<SourceFile> files = {{"a.cpp", "Set(\"tp\", 1);"},
                                         {"b.cpp", "{\"tp\", x}, \"tpx\""},
                                         {"c.h", "// \"tp\"\n"},
                                         {"d.cpp", "KnobName(Knob::kTp); \"pp_layers\""}};
  CHECK(OverusedNames(files, {"tp", "pp"}, 3).empty());
  const auto two = OverusedNames(files, {"tp", "pp"}, 2);
  REQUIRE(two.size() == 1);
  CHECK(two.at("tp") == std::vector<std::string>{"a.cpp", "b.cpp", "c.h"});
  CHECK(LongFiles(files, 1).empty());
  CHECK(LongFiles({{"long.cpp", std::string(3, '\n')}}, 2) ==
        std::vector<std::string>{"long.cpp: 3 lines"});
}
