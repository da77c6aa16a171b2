#include "calib/nccl_tests_output.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <set>
#include <sstream>

#include "core/error.h"

namespace paraplan {
namespace {

// mpirun --tag-output prefixes every line with "[job,rank]<stdout>:".
std::string WithoutMpiPrefix(const std::string& line) {
  if (line.empty() || line[0] != '[') return line;
  for (const char* tag : {"]<stdout>:", "]<stderr>:"}) {
    const size_t at = line.find(tag);
    if (at != std::string::npos) return line.substr(at + std::char_traits<char>::length(tag));
  }
  return line;
}

std::vector<std::string> Tokens(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  std::string token;
  while (in >> token) out.push_back(token);
  return out;
}

// The tokens of a comment line without its leading '#' characters.
std::vector<std::string> CommentTokens(const std::string& line) {
  size_t start = 0;
  while (start < line.size() && (line[start] == '#' || line[start] == ' ')) ++start;
  return Tokens(line.substr(start));
}

bool AllDigits(const std::string& s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
}

bool Has(const std::vector<std::string>& tokens, const char* word) {
  return std::find(tokens.begin(), tokens.end(), word) != tokens.end();
}

bool IsColumnHeader(const std::string& line) {
  if (line.empty() || line[0] != '#') return false;
  const std::vector<std::string> t = CommentTokens(line);
  return !t.empty() && t[0] == "size" && Has(t, "count") && Has(t, "time") && Has(t, "busbw");
}

// nccl-tests binary (or file) name → the profile's collective name; "" when none matches.
std::string CollectiveFromName(const std::string& name) {
  static const std::pair<const char*, const char*> kNames[] = {{"all_reduce", "all_reduce"},
                                                               {"all_gather", "all_gather"},
                                                               {"reduce_scatter", "reduce_scatter"},
                                                               {"alltoall", "all_to_all"},
                                                               {"all_to_all", "all_to_all"},
                                                               {"sendrecv", "send_recv"},
                                                               {"send_recv", "send_recv"}};
  for (const auto& [pattern, op] : kNames) {
    if (name.find(pattern) != std::string::npos) return op;
  }
  return "";
}

// nccl-tests' -d type names → the harness's dtype names.
std::string DtypeOf(const std::string& type) {
  if (type == "float" || type == "float32") return "fp32";
  if (type == "half" || type == "float16") return "fp16";
  if (type == "bfloat16") return "bf16";
  if (type == "double" || type == "float64") return "fp64";
  if (type == "f8e4m3" || type == "fp8_e4m3") return "fp8";
  return type;
}

// "2.19.3" from "NCCL version 2.19.3+cuda12.3" or from nccl-tests' "nccl-library=21903".
std::string NcclVersionIn(const std::string& line) {
  const std::string marker = "NCCL version ";
  size_t at = line.find(marker);
  if (at != std::string::npos) {
    const std::vector<std::string> after = Tokens(line.substr(at + marker.size()));
    if (after.empty()) return "";
    const size_t plus = after[0].find('+');
    return plus == std::string::npos ? after[0] : after[0].substr(0, plus);
  }
  const std::string library = "nccl-library=";
  at = line.find(library);
  if (at == std::string::npos) return "";
  size_t end = at + library.size();
  while (end < line.size() && std::isdigit(static_cast<unsigned char>(line[end])) != 0) ++end;
  const std::string code = line.substr(at + library.size(), end - at - library.size());
  if (code.size() < 5 || code.size() > 7) return "";
  const int value = std::stoi(code);  // major·10000 + minor·100 + patch (NCCL ≥ 2.9)
  return std::to_string(value / 10000) + "." + std::to_string(value / 100 % 100) + "." +
         std::to_string(value % 100);
}

struct TestState {
  std::string op;  // from "Collective test starting"
  std::set<std::string> hosts;
  int ranks = 0;
  bool data_seen = false;  // a data row since the last Rank line
  int time_column = -1;    // index of the out-of-place time in a data row
  std::string gpu, nccl;
};

[[noreturn]] void Fail(const std::string& origin, int line, const std::string& message) {
  throw InputError(SourceLocation{origin, line, 0}, "", message);
}

void ReadRankLine(const std::vector<std::string>& t, TestState* s) {
  if (s->data_seen) {  // the next test of a concatenated file
    s->hosts.clear();
    s->ranks = 0;
    s->data_seen = false;
  }
  ++s->ranks;
  for (size_t i = 0; i + 1 < t.size(); ++i) {
    if (t[i] == "on") {
      s->hosts.insert(t[i + 1]);
      break;
    }
  }
  for (size_t i = 0; i < t.size(); ++i) {
    if (!t[i].empty() && t[i][0] == '[' && t[i].back() == ']' && i + 1 < t.size()) {
      std::string gpu;
      for (size_t j = i + 1; j < t.size(); ++j) gpu += (gpu.empty() ? "" : " ") + t[j];
      if (s->gpu.empty()) s->gpu = gpu;
      break;
    }
  }
}

RawRow ReadDataRow(const std::vector<std::string>& t, const TestState& s, const std::string& origin,
                   int line) {
  if (s.time_column < 0) Fail(origin, line, "an nccl-tests data row before its column header");
  if (static_cast<int>(t.size()) <= s.time_column || t.size() < 3) {
    Fail(origin, line,
         "an nccl-tests data row needs " + std::to_string(s.time_column + 1) +
             " columns (size, count, type, ..., time), got " + std::to_string(t.size()));
  }
  RawRow row;
  row.kind = "collective";
  row.file = origin;
  row.line = line;
  row.op = s.op.empty() ? CollectiveFromName(origin) : s.op;
  if (row.op.empty()) {
    Fail(origin, line,
         "cannot tell which collective this nccl-tests output measured: it has no '# Collective "
         "test starting: NAME' line; name the file after the test (all_reduce_perf.txt, "
         "all_gather_perf.txt, reduce_scatter_perf.txt, alltoall_perf.txt, sendrecv_perf.txt)");
  }
  if (s.ranks < 1) {
    Fail(origin, line,
         "no '#  Rank N ... on HOST device ...' lines before the data: the rank count is not "
         "known");
  }
  const std::string& size = t[0];
  auto [ptr, ec] = std::from_chars(size.data(), size.data() + size.size(), row.bytes);
  if (ec != std::errc() || ptr != size.data() + size.size()) {
    Fail(origin, line, "size must be an integer, got '" + size + "'");
  }
  row.dtype = DtypeOf(t[2]);
  const std::string& time = t[static_cast<size_t>(s.time_column)];
  const char* end = time.data() + time.size();
  auto [tptr, tec] = std::from_chars(time.data(), end, row.time_us);
  if (tec != std::errc() || tptr != end || !std::isfinite(row.time_us) || row.time_us <= 0) {
    Fail(origin, line, "the out-of-place time must be a number > 0 (µs), got '" + time + "'");
  }
  row.ranks = s.ranks;
  const int hosts = static_cast<int>(s.hosts.size());
  row.tier = hosts > 1 ? "scaleout" : "nvlink";
  if (hosts > 0 && s.ranks % hosts == 0) row.ranks_per_node = s.ranks / hosts;
  if (!s.gpu.empty()) row.metadata["gpu"] = s.gpu;
  if (!s.nccl.empty()) row.metadata["nccl"] = s.nccl;
  return row;
}

}  // namespace

bool LooksLikeNcclTestsOutput(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (IsColumnHeader(WithoutMpiPrefix(line))) return true;
  }
  return false;
}

std::vector<RawRow> ParseNcclTestsOutput(const std::string& text, const std::string& origin) {
  std::istringstream in(text);
  std::string raw;
  std::vector<RawRow> rows;
  TestState state;
  int line_no = 0;
  while (std::getline(in, raw)) {
    ++line_no;
    if (!raw.empty() && raw.back() == '\r') raw.pop_back();
    const std::string line = WithoutMpiPrefix(raw);
    const std::string version = NcclVersionIn(line);
    if (!version.empty() && state.nccl.empty()) state.nccl = version;
    if (line.empty()) continue;
    if (line[0] == '#') {
      const std::vector<std::string> t = CommentTokens(line);
      if (t.empty()) continue;
      if (IsColumnHeader(line)) {
        state.time_column = static_cast<int>(std::find(t.begin(), t.end(), "time") - t.begin());
      } else if (t.size() >= 4 && t[0] == "Collective" && t[1] == "test" && t[2] == "starting:") {
        state.op = CollectiveFromName(t[3]);
        if (state.op.empty()) {
          Fail(origin, line_no,
               "nccl-tests '" + t[3] +
                   "' is not a collective paraplan models (all_reduce, all_gather, "
                   "reduce_scatter, alltoall, sendrecv)");
        }
      } else if (t.size() >= 2 && t[0] == "Rank" && AllDigits(t[1])) {
        ReadRankLine(t, &state);
      }
      continue;
    }
    const std::vector<std::string> t = Tokens(line);
    if (t.empty() || !AllDigits(t[0])) continue;  // NCCL INFO lines, warnings
    RawRow row = ReadDataRow(t, state, origin, line_no);
    state.data_seen = true;
    if (row.bytes == 0) continue;  // nccl-tests prints empty sizes for alignment
    rows.push_back(std::move(row));
  }
  if (rows.empty()) {
    throw InputError(SourceLocation{origin, 0, 0}, "",
                     "nccl-tests output without a data row of size > 0");
  }
  return rows;
}

}  // namespace paraplan
