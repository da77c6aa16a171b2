// The one-way house (docs/architecture.md): every `#include "folder/..."` in src/ points at the
// same folder or at one earlier in the folder order written once in docs/architecture.md (the
// ```folder-order block). A back edge, and so any mutual inclusion, fails with file:line.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

// The folder names on the line after "```folder-order" in `doc`, lowest layer first.
std::vector<std::string> ReadFolderOrder(const fs::path& doc) {
  std::ifstream in(doc);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("```folder-order", 0) != 0) continue;
    std::vector<std::string> order;
    while (std::getline(in, line) && line.rfind("```", 0) != 0) {
      std::istringstream words(line);
      std::string word;
      while (words >> word) {
        if (word != "<" && word != "→") order.push_back(word);
      }
    }
    return order;
  }
  return {};
}

// Every include under `root` that names a folder outside `order` or one above the including
// file's folder, as "file:line: folder -> included", and every quoted include that names no
// folder ("x.h", "../x.h"), which the check could not place. Also flags folders missing from it.
std::vector<std::string> IncludeViolations(const fs::path& root,
                                           const std::vector<std::string>& order) {
  std::map<std::string, size_t> rank;
  for (size_t i = 0; i < order.size(); ++i) rank[order[i]] = i;
  const std::regex include_re(R"(^\s*#\s*include\s+\"([A-Za-z0-9_]+)/)");
  const std::regex quoted_re(R"(^\s*#\s*include\s+\")");
  std::vector<std::string> out;
  for (const fs::directory_entry& dir : fs::directory_iterator(root)) {
    if (!dir.is_directory()) continue;
    const std::string folder = dir.path().filename().string();
    if (!rank.count(folder)) {
      out.push_back(folder + ": folder missing from the folder order");
      continue;
    }
    for (const fs::directory_entry& f : fs::recursive_directory_iterator(dir.path())) {
      if (!f.is_regular_file()) continue;
      std::ifstream in(f.path());
      std::string line;
      for (int n = 1; std::getline(in, line); ++n) {
        std::smatch m;
        const std::string where = fs::relative(f.path(), root).string() + ":" + std::to_string(n);
        if (!std::regex_search(line, m, include_re)) {
          if (std::regex_search(line, quoted_re)) out.push_back(where + ": not folder/file.h");
          continue;
        }
        const std::string target = m[1].str();
        const auto it = rank.find(target);
        if (it == rank.end() || it->second > rank[folder]) {
          out.push_back(where + ": " + folder + " -> " + target);
        }
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

void WriteFile(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

}  // namespace

TEST_CASE("src/ includes follow the folder order of docs/architecture.md", "[architecture]") {
  const fs::path source(PARAPLAN_SOURCE_DIR);
  const std::vector<std::string> order = ReadFolderOrder(source / "docs" / "architecture.md");
  REQUIRE(order.size() >= 10);
  CHECK(order.front() == "core");
  CHECK(order.back() == "cli");
  const std::vector<std::string> violations = IncludeViolations(source / "src", order);
  std::string listed;
  for (const std::string& v : violations) listed += v + "\n";
  INFO("back edges:\n" << listed);
  CHECK(violations.empty());
}

TEST_CASE("The include check finds a back edge, a mutual inclusion and an unknown folder",
          "[architecture]") {
  // A name of its own: several checkouts may run their tests at once on one machine.
  const fs::path root = fs::temp_directory_path() /
                        ("paraplan_include_graph_test_" + std::to_string(std::random_device{}()));
  fs::remove_all(root);
  WriteFile(root / "low" / "a.h", "#pragma once\n#include \"low/b.h\"\n");
  WriteFile(root / "high" / "c.cpp", "#include \"low/a.h\"\n#include <vector>\n");
  CHECK(IncludeViolations(root, {"low", "high"}).empty());

  WriteFile(root / "low" / "b.h", "#pragma once\n\n  #  include \"high/c.h\"  // back\n");
  CHECK(IncludeViolations(root, {"low", "high"}) ==
        std::vector<std::string>{"low/b.h:3: low -> high"});
  CHECK(IncludeViolations(root, {"high", "low"}) ==
        std::vector<std::string>{"high/c.cpp:1: high -> low"});

  WriteFile(root / "extra" / "d.h", "#include \"low/a.h\"\n");
  WriteFile(root / "high" / "e.h", "#include \"nowhere/x.h\"\n#include \"../low/a.h\"\n");
  const auto found = IncludeViolations(root, {"low", "high"});
  CHECK(std::count(found.begin(), found.end(), "high/e.h:2: not folder/file.h") == 1);
  CHECK(std::count(found.begin(), found.end(), "extra: folder missing from the folder order") == 1);
  CHECK(std::count(found.begin(), found.end(), "high/e.h:1: high -> nowhere") == 1);
  fs::remove_all(root);
}
