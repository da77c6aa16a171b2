#include "config/data_catalog.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "config/resolve.h"

namespace paraplan {

namespace fs = std::filesystem;

namespace {

constexpr size_t kMaxCommentLines = 40;

std::string Trim(const std::string& text) {
  const size_t begin = text.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return "";
  const size_t end = text.find_last_not_of(" \t\r");
  return text.substr(begin, end - begin + 1);
}

std::string OpeningComment(const fs::path& path) {
  std::ifstream in(path);
  std::string line;
  std::string out;
  for (size_t n = 0; n < kMaxCommentLines && std::getline(in, line); ++n) {
    const std::string t = Trim(line);
    if (t.empty() || t[0] != '#') break;
    const std::string text = Trim(t.substr(1));
    if (!text.empty()) out += (out.empty() ? "" : " ") + text;
  }
  return out;
}

}  // namespace

std::vector<DataFile> ListDataFiles(const std::string& subdir) {
  for (const std::string& dir : DataSearchDirs()) {
    std::error_code ec;
    const fs::path folder = fs::path(dir) / subdir;
    if (!fs::is_directory(folder, ec)) continue;
    std::vector<DataFile> files;
    for (const auto& entry : fs::directory_iterator(folder, ec)) {
      const std::string stem = entry.path().stem().string();
      if (entry.path().extension() != ".yaml" || !entry.is_regular_file(ec)) continue;
      if (subdir == "hardware" && stem == "efficiency") continue;
      files.push_back({stem, entry.path().string(), OpeningComment(entry.path())});
    }
    std::sort(files.begin(), files.end(),
              [](const DataFile& a, const DataFile& b) { return a.name < b.name; });
    return files;
  }
  return {};
}

CommentParts SplitSourceComment(const std::string& comment) {
  for (const char* marker : {"Sources:", "Source:"}) {
    const size_t at = comment.find(marker);
    if (at == std::string::npos) continue;
    return {Trim(comment.substr(0, at)), Trim(comment.substr(at + std::string(marker).size()))};
  }
  // No marker: the first sentence says what it is, the rest where the numbers come from.
  size_t stop = comment.find(". ");
  while (stop != std::string::npos && stop >= 3 &&
         (comment.compare(stop - 3, 3, "e.g") == 0 || comment.compare(stop - 3, 3, "i.e") == 0)) {
    stop = comment.find(". ", stop + 2);  // an abbreviation, not the end of the sentence
  }
  if (stop == std::string::npos) return {comment, ""};
  return {comment.substr(0, stop + 1), Trim(comment.substr(stop + 2))};
}

}  // namespace paraplan
