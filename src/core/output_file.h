// Writing an output file the user named (-o, --trace, a study's files, a fitted profile): a
// directory is refused by name, a regular file is replaced atomically (written beside it as
// PATH.tmp, checked, renamed over it; the .tmp is removed on any failure), and a device or FIFO
// (/dev/stdout, /dev/full) is written in place with the write checked. A failed write is an
// InputError naming the flag, the path and the system's reason (exit 2), never a silent exit 0.
#pragma once

#include <string>

namespace paraplan {

// Writes `text` to `path`; `flag` ("-o", "--trace") leads the message on failure.
void WriteOutputFile(const std::string& path, const std::string& text, const std::string& flag);

}  // namespace paraplan
