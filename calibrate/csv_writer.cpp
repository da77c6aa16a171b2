#include "csv_writer.h"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "harness_error.h"

namespace paraplan::calibrate {
namespace {

const char kHeader[] = "kind,op,dtype,m,n,k,bytes,ranks,tier,time_us,gpu,driver,cuda,nccl,date";

// The first nine comma-separated fields of a data line.
std::string KeyOfLine(const std::string& line) {
  size_t pos = 0;
  for (int i = 0; i < 9; ++i) {
    pos = line.find(',', pos);
    if (pos == std::string::npos) return "";
    ++pos;
  }
  return line.substr(0, pos - 1);
}

}  // namespace

std::string RowKey::Text() const {
  std::ostringstream out;
  out << kind << ',' << op << ',' << dtype << ',' << m << ',' << n << ',' << k << ',' << bytes
      << ',' << ranks << ',' << tier;
  return out.str();
}

std::string CsvSafe(const std::string& text) {
  std::string out = text;
  for (char& c : out) {
    if (c == ',' || c == '"' || c == '\n' || c == '\r') c = ' ';
  }
  return out;
}

CsvWriter::CsvWriter(std::string path, bool resume, Metadata metadata)
    : path_(std::move(path)), metadata_(std::move(metadata)) {
  if (!resume) return;
  std::ifstream in(path_);
  if (!in) return;  // nothing to resume
  std::string line;
  bool header_seen = false;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (!header_seen) {
      if (line != kHeader) {
        throw HarnessError(path_ + ": cannot resume: the header is not '" + kHeader + "'");
      }
      header_seen = true;
      continue;
    }
    const std::string key = KeyOfLine(line);
    if (key.empty()) throw HarnessError(path_ + ": cannot resume: malformed line '" + line + "'");
    lines_.push_back(line);
    done_.insert(key);
  }
}

void CsvWriter::Add(const RowKey& key, double time_us) {
  char time_text[64];
  std::snprintf(time_text, sizeof(time_text), "%.4f", time_us);
  const std::string line = key.Text() + "," + time_text + "," + CsvSafe(metadata_.gpu) + "," +
                           CsvSafe(metadata_.driver) + "," + CsvSafe(metadata_.cuda) + "," +
                           CsvSafe(metadata_.nccl) + "," + CsvSafe(metadata_.date);
  lines_.push_back(line);
  done_.insert(key.Text());
  if (writes_) Flush();
}

void CsvWriter::Flush() const {
  const std::string temp = path_ + ".tmp";
  {
    std::ofstream out(temp, std::ios::trunc);
    if (!out) throw HarnessError("cannot write " + temp);
    out << kHeader << '\n';
    for (const auto& line : lines_) out << line << '\n';
    out.flush();
    if (!out) throw HarnessError("cannot write " + temp);
  }
  if (std::rename(temp.c_str(), path_.c_str()) != 0) {
    throw HarnessError("cannot rename " + temp + " to " + path_);
  }
}

}  // namespace paraplan::calibrate
