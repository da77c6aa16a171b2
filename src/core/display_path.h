// Paths as a reader wants them: relative to the working folder when they lie under it
// ("models" rather than "/home/me/paraplan/models"), as given otherwise.
#pragma once

#include <string>

namespace paraplan {

// `path` relative to `base` when `path` is `base` or lies under it ("." for base itself);
// `path` unchanged otherwise. Both are made absolute and normal (lexically) first.
std::string RelativeUnder(const std::string& path, const std::string& base);

// RelativeUnder(path, the current working folder); `path` unchanged when that is unknown.
std::string DisplayPath(const std::string& path);

}  // namespace paraplan
