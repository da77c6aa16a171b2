#include "calib/raw_csv.h"

#include <charconv>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "calib/nccl_tests_output.h"
#include "core/error.h"

namespace paraplan {
namespace {

// "nccl" is the harness's first name for collective rows; read it as "collective".
const std::set<std::string> kKinds = {"attention", "collective", "gemm", "memory", "nccl"};

std::vector<std::string> SplitCsvLine(const std::string& line) {
  std::vector<std::string> fields(1);
  for (char c : line) {
    if (c == ',') {
      fields.emplace_back();
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  return fields;
}

struct LineContext {
  const std::string& origin;
  int line;

  [[noreturn]] void Fail(const std::string& message) const {
    throw InputError(SourceLocation{origin, line, 0}, "", message);
  }

  int64_t Integer(const std::string& field, const std::string& column) const {
    int64_t value = 0;
    const char* end = field.data() + field.size();
    auto [ptr, ec] = std::from_chars(field.data(), end, value);
    if (field.empty() || ec != std::errc() || ptr != end) {
      Fail("column '" + column + "' must be an integer, got '" + field + "'");
    }
    if (value < 0) Fail("column '" + column + "' must be >= 0, got " + field);
    return value;
  }

  // An empty cell is a column that does not apply to the row's kind (m, n, k of a collective;
  // bytes, ranks of a GEMM): 0.
  int64_t OptionalInteger(const std::string& field, const std::string& column) const {
    return field.empty() ? 0 : Integer(field, column);
  }

  double Real(const std::string& field, const std::string& column) const {
    double value = 0;
    const char* end = field.data() + field.size();
    auto [ptr, ec] = std::from_chars(field.data(), end, value);
    if (field.empty() || ec != std::errc() || ptr != end || !std::isfinite(value)) {
      Fail("column '" + column + "' must be a number, got '" + field + "'");
    }
    return value;
  }
};

void CheckHeader(const std::vector<std::string>& header, const std::string& origin, int line) {
  const auto& cols = RawCsvColumns();
  const auto& meta = RawCsvMetadataColumns();
  std::vector<std::string> full = cols;
  full.insert(full.end(), meta.begin(), meta.end());
  const std::vector<std::string> short_header(cols.begin(), cols.end());
  if (header != full && header != short_header) {
    std::string expected;
    for (const auto& c : full) expected += (expected.empty() ? "" : ",") + c;
    throw InputError(SourceLocation{origin, line, 0}, "",
                     "not a paraplan-calibrate CSV: the header must be '" + expected +
                         "' (the last five columns optional)");
  }
}

RawRow ParseRow(const std::vector<std::string>& f, const std::vector<std::string>& header,
                const LineContext& ctx) {
  if (f.size() != header.size()) {
    ctx.Fail("expected " + std::to_string(header.size()) + " columns, got " +
             std::to_string(f.size()));
  }
  RawRow row;
  row.file = ctx.origin;
  row.line = ctx.line;
  row.kind = f[0];
  if (kKinds.count(row.kind) == 0) {
    ctx.Fail("unknown kind '" + row.kind + "' (valid: attention, collective, gemm, memory)");
  }
  if (row.kind == "nccl") row.kind = "collective";
  row.op = f[1];
  if (row.op.empty()) ctx.Fail("column 'op' is empty");
  row.dtype = f[2];
  row.m = ctx.OptionalInteger(f[3], "m");
  row.n = ctx.OptionalInteger(f[4], "n");
  row.k = ctx.OptionalInteger(f[5], "k");
  row.bytes = ctx.OptionalInteger(f[6], "bytes");
  const int64_t ranks = f[7].empty() ? 1 : ctx.Integer(f[7], "ranks");
  if (ranks < 1 || ranks > 1000000) ctx.Fail("column 'ranks' must be in [1, 1000000]");
  row.ranks = static_cast<int>(ranks);
  row.tier = f[8];
  row.time_us = ctx.Real(f[9], "time_us");
  if (row.time_us <= 0) ctx.Fail("column 'time_us' must be > 0, got " + f[9]);
  for (size_t i = RawCsvColumns().size(); i < f.size(); ++i) row.metadata[header[i]] = f[i];
  return row;
}

}  // namespace

const std::vector<std::string>& RawCsvColumns() {
  static const std::vector<std::string> kColumns = {"kind", "op",    "dtype", "m",    "n",
                                                    "k",    "bytes", "ranks", "tier", "time_us"};
  return kColumns;
}

const std::vector<std::string>& RawCsvMetadataColumns() {
  static const std::vector<std::string> kColumns = {"gpu", "driver", "cuda", "nccl", "date"};
  return kColumns;
}

std::vector<RawRow> ParseRawCsv(const std::string& text, const std::string& origin) {
  std::istringstream in(text);
  std::string line;
  std::vector<std::string> header;
  std::vector<RawRow> rows;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> fields = SplitCsvLine(line);
    if (header.empty()) {
      CheckHeader(fields, origin, line_no);
      header = std::move(fields);
      continue;
    }
    rows.push_back(ParseRow(fields, header, LineContext{origin, line_no}));
  }
  if (header.empty()) {
    throw InputError(SourceLocation{origin, line_no > 0 ? 1 : 0, 0}, "",
                     "empty file: expected the header 'kind,op,dtype,m,n,k,bytes,ranks,tier,"
                     "time_us,...'");
  }
  return rows;
}

std::vector<RawRow> ReadRawCsv(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(SourceLocation{path, 0, 0}, "", "cannot open measurement CSV");
  std::ostringstream text;
  text << in.rdbuf();
  return ParseMeasurementText(text.str(), path);
}

std::vector<RawRow> ParseMeasurementText(const std::string& text, const std::string& origin) {
  if (LooksLikeNcclTestsOutput(text)) return ParseNcclTestsOutput(text, origin);
  return ParseRawCsv(text, origin);
}

std::vector<RawRow> ReadRawCsvFiles(const std::vector<std::string>& paths) {
  std::vector<RawRow> rows;
  for (const auto& path : paths) {
    std::vector<RawRow> file_rows = ReadRawCsv(path);
    rows.insert(rows.end(), file_rows.begin(), file_rows.end());
  }
  return rows;
}

}  // namespace paraplan
