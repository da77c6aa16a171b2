#include "core/output_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "core/error.h"

namespace paraplan {

namespace {

namespace fs = std::filesystem;

[[noreturn]] void Fail(const std::string& flag, const std::string& path, const std::string& why) {
  throw InputError({}, flag, "cannot write '" + path + "': " + why);
}

// Writes and checks every step; returns "" or the reason it failed.
std::string WriteChecked(const std::string& path, const std::string& text) {
  errno = 0;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return errno != 0 ? std::strerror(errno) : "cannot open";
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.flush();
  if (!out) return errno != 0 ? std::strerror(errno) : "write failed";
  out.close();
  if (!out) return errno != 0 ? std::strerror(errno) : "close failed";
  return "";
}

}  // namespace

void WriteOutputFile(const std::string& path, const std::string& text, const std::string& flag) {
  if (path.empty()) throw InputError({}, flag, "needs a file name, got ''");
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (fs::is_directory(status)) {
    throw InputError({}, flag, "'" + path + "' is a directory; give a file name");
  }
  if (fs::exists(status) && !fs::is_regular_file(status)) {  // a device or a FIFO
    if (std::string why = WriteChecked(path, text); !why.empty()) Fail(flag, path, why);
    return;
  }
  const std::string temp = path + ".tmp";
  if (std::string why = WriteChecked(temp, text); !why.empty()) {
    fs::remove(temp, ec);
    Fail(flag, path, why);
  }
  fs::rename(temp, path, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(temp, ignored);
    Fail(flag, path, ec.message());
  }
}

}  // namespace paraplan
