// A fresh folder under the temporary directory for one test, removed with what it holds when the
// test ends. `name` is the folder's name: unique to the test, since ctest runs tests in parallel.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

namespace paraplan::testing {

class TempDir {
 public:
  explicit TempDir(const std::string& name) : path(std::filesystem::temp_directory_path() / name) {
    std::filesystem::remove_all(path);  // what a crashed earlier run left
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  // The path of `name` inside the folder.
  std::string operator/(const std::string& name) const { return (path / name).string(); }

  // Writes `text` to `name` inside the folder (its parent folders created); returns its path.
  std::string Write(const std::string& name, const std::string& text) const {
    const std::filesystem::path file = path / name;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file) << text;
    return file.string();
  }

  std::filesystem::path path;
};

}  // namespace paraplan::testing
