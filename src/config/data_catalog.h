// The shipped descriptions by name, for `paraplan model list` and `paraplan hardware list`: each
// *.yaml of models/ or hardware/ in the first data directory that has the folder (the one name
// resolution uses, DataSearchDirs), with the comment block that opens the file — where the
// project writes what the file describes and its sources.
#pragma once

#include <string>
#include <vector>

namespace paraplan {

struct DataFile {
  std::string name;     // the file stem, as -m / -c take it
  std::string path;     // where it was found
  std::string comment;  // the opening comment lines, '#' removed, joined by spaces
};

// subdir: "models" or "hardware" (efficiency.yaml, the efficiency defaults, is not a cluster and
// is left out). Sorted by name; empty when no data directory has the folder.
std::vector<DataFile> ListDataFiles(const std::string& subdir);

// The comment split into what the file describes and where its numbers come from: around
// "Source:"/"Sources:" when the comment has one, else after the first sentence.
struct CommentParts {
  std::string about;
  std::string source;
};
CommentParts SplitSourceComment(const std::string& comment);

}  // namespace paraplan
