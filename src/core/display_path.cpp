#include "core/display_path.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace paraplan {

namespace fs = std::filesystem;

std::string RelativeUnder(const std::string& path, const std::string& base) {
  if (path.empty() || base.empty()) return path;
  std::error_code ec;
  const fs::path p = fs::absolute(path, ec).lexically_normal();
  if (ec) return path;
  const fs::path b = fs::absolute(base, ec).lexically_normal();
  if (ec) return path;
  const fs::path rel = p.lexically_relative(b);
  if (rel.empty()) return path;
  if (std::any_of(rel.begin(), rel.end(), [](const fs::path& part) { return part == ".."; })) {
    return path;
  }
  std::string text = rel.string();
  if (text.size() > 1 && text.back() == '/') text.pop_back();
  return text;
}

std::string DisplayPath(const std::string& path) {
  std::error_code ec;
  const fs::path cwd = fs::current_path(ec);
  return ec ? path : RelativeUnder(path, cwd.string());
}

}  // namespace paraplan
