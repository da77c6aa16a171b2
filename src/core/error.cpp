#include "core/error.h"

namespace paraplan {

std::string FormatLocated(const SourceLocation& where, const std::string& key_path,
                          const std::string& message) {
  std::string out;
  if (!where.file.empty()) {
    out += where.file;
    if (where.line > 0) {
      out += ":" + std::to_string(where.line);
      if (where.column > 0) out += ":" + std::to_string(where.column);
    }
    out += ": ";
  }
  if (!key_path.empty()) out += key_path + ": ";
  out += message;
  return out;
}

InputError::InputError(SourceLocation where, std::string key_path, const std::string& message)
    : std::runtime_error(FormatLocated(where, key_path, message)),
      where_(std::move(where)),
      key_path_(std::move(key_path)),
      message_(message) {}

InputError::InputError(const std::string& message)
    : std::runtime_error(message), message_(message) {}

void RequireInput(bool ok, const std::string& key_path, const std::string& message) {
  if (!ok) throw InputError(SourceLocation{}, key_path, message);
}

}  // namespace paraplan
