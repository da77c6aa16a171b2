// Errors a user can cause: bad files, bad flags, broken plan rules. Only main() turns them into
// exit codes (2); library code throws InputError and never exits.
#pragma once

#include <stdexcept>
#include <string>

namespace paraplan {

// Where something came from: a file and a 1-based line and column (0 when not known).
struct SourceLocation {
  std::string file;
  int line = 0;
  int column = 0;
};

// A mistake in what the user gave us. what() is the full message, formatted as
// "file:line:col: key.path: message" with the parts that are known.
class InputError : public std::runtime_error {
 public:
  InputError(SourceLocation where, std::string key_path, const std::string& message);
  explicit InputError(const std::string& message);

  const SourceLocation& where() const { return where_; }
  const std::string& key_path() const { return key_path_; }
  const std::string& message() const { return message_; }

 private:
  SourceLocation where_;
  std::string key_path_;
  std::string message_;
};

// Throws InputError(no location, key_path, message) unless ok: a check on a value that came from
// no file (the simulator's and the layer graph's inputs).
void RequireInput(bool ok, const std::string& key_path, const std::string& message);

// "file:line:col: key.path: message", leaving out what is empty.
std::string FormatLocated(const SourceLocation& where, const std::string& key_path,
                          const std::string& message);

}  // namespace paraplan
