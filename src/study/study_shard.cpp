#include "study/study_shard.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <limits>
#include <set>

#include "config/study_metric.h"
#include "core/error.h"
#include "core/format.h"

namespace paraplan {

namespace {

constexpr const char* kMagic = "paraplan-study-shard\t1";

std::string Escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '\\':
        out += "\\\\";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string Unescape(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\\' || i + 1 == text.size()) {
      out += text[i];
      continue;
    }
    const char c = text[++i];
    out += c == 't' ? '\t' : c == 'n' ? '\n' : c == 'r' ? '\r' : c;
  }
  return out;
}

std::vector<std::string> SplitTabs(const std::string& line) {
  std::vector<std::string> fields;
  size_t start = 0;
  for (size_t tab = line.find('\t'); tab != std::string::npos; tab = line.find('\t', start)) {
    fields.push_back(line.substr(start, tab - start));
    start = tab + 1;
  }
  fields.push_back(line.substr(start));
  return fields;
}

struct Reader {
  std::string origin;
  int line = 0;
  [[noreturn]] void Fail(const std::string& message) const {
    throw InputError({origin, line, 0}, "", "not a study shard file: " + message);
  }
  int64_t Int(const std::string& text) const {
    int64_t v = 0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || p != text.data() + text.size() || text.empty()) {
      Fail("expected an integer, got '" + text + "'");
    }
    return v;
  }
  double Number(const std::string& text) const {
    if (text == "null") return std::numeric_limits<double>::quiet_NaN();
    double v = 0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    // A missing value is written "null"; nan and inf are no value paraplan writes.
    if (ec != std::errc() || p != text.data() + text.size() || text.empty() || !std::isfinite(v)) {
      Fail("expected a finite number or null, got '" + text + "'");
    }
    return v;
  }
};

std::string RowLine(const StudyRow& row) {
  std::string out = "row\t" + std::to_string(row.index) + "\t" + Escape(row.status) + "\t" +
                    Escape(row.reason) + "\t" + (row.has_result ? "1" : "0") + "\t" +
                    std::to_string(row.searched) + "\t" + std::to_string(row.feasible) + "\t" +
                    std::to_string(row.values.size());
  for (const auto& v : row.values) out += "\t" + Escape(v);
  if (row.has_result) {
    for (double m : row.metrics) out += "\t" + FormatShortest(m);
    for (const auto& p : row.plan) out += "\t" + Escape(p);
  }
  return out + "\n";
}

StudyRow ParseRow(const std::vector<std::string>& f, const Reader& r) {
  if (f.size() < 8) r.Fail("a row needs at least 8 fields");
  StudyRow row;
  row.index = r.Int(f[1]);
  row.status = Unescape(f[2]);
  row.reason = Unescape(f[3]);
  row.has_result = f[4] == "1";
  row.searched = r.Int(f[5]);
  row.feasible = r.Int(f[6]);
  const int64_t declared = r.Int(f[7]);
  if (declared < 0 || declared > static_cast<int64_t>(f.size())) r.Fail("wrong number of values");
  const auto n_values = static_cast<size_t>(declared);
  const size_t n_metrics = row.has_result ? StudyMetricNames().size() : 0;
  const size_t n_plan = row.has_result ? StudyPlanColumns().size() : 0;
  if (f.size() != 8 + n_values + n_metrics + n_plan) r.Fail("wrong number of row fields");
  size_t i = 8;
  for (size_t k = 0; k < n_values; ++k) row.values.push_back(Unescape(f[i++]));
  for (size_t k = 0; k < n_metrics; ++k) row.metrics.push_back(r.Number(f[i++]));
  for (size_t k = 0; k < n_plan; ++k) row.plan.push_back(Unescape(f[i++]));
  return row;
}

// Everything but the rows and the shard index, to check that shards belong together.
std::string Metadata(const StudyShard& s) {
  std::string out = "count\t" + std::to_string(s.count) + "\nname\t" + Escape(s.table.name) +
                    "\nmode\t" + Escape(s.table.mode) + "\nmetric\t" + Escape(s.table.metric) +
                    "\ntitle\t" + Escape(s.table.title) + "\nx_label\t" + Escape(s.table.x_label) +
                    "\ntotal\t" + std::to_string(s.table.total_points) + "\n";
  for (size_t k = 0; k < s.table.keys.size(); ++k) {
    out +=
        "key\t" + std::to_string(s.table.key_dimension[k]) + "\t" + Escape(s.table.keys[k]) + "\n";
  }
  return out;
}

}  // namespace

std::string ShardFileName(int64_t shard, int64_t count) {
  return "shard-" + std::to_string(shard) + "-of-" + std::to_string(count) + ".tsv";
}

std::string SerializeShard(const StudyShard& shard) {
  std::string out = std::string(kMagic) + "\nshard\t" + std::to_string(shard.shard) + "\n";
  out += Metadata(shard);
  for (const auto& row : shard.table.rows) out += RowLine(row);
  return out;
}

StudyShard ParseShard(const std::string& text, const std::string& origin) {
  Reader r{origin, 0};
  StudyShard s;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    ++r.line;
    if (r.line == 1) {
      if (line != kMagic) r.Fail("the first line must be 'paraplan-study-shard<TAB>1'");
      continue;
    }
    const std::vector<std::string> f = SplitTabs(line);
    const std::string& tag = f[0];
    const std::string value = f.size() > 1 ? Unescape(f[1]) : "";
    if (tag == "row") {
      s.table.rows.push_back(ParseRow(f, r));
    } else if (tag == "key" && f.size() == 3) {
      s.table.key_dimension.push_back(r.Int(f[1]));
      s.table.keys.push_back(Unescape(f[2]));
    } else if (f.size() != 2) {
      r.Fail("unexpected line '" + line + "'");
    } else if (tag == "shard") {
      s.shard = r.Int(f[1]);
    } else if (tag == "count") {
      s.count = r.Int(f[1]);
    } else if (tag == "name") {
      s.table.name = value;
    } else if (tag == "mode") {
      s.table.mode = value;
    } else if (tag == "metric") {
      s.table.metric = value;
    } else if (tag == "title") {
      s.table.title = value;
    } else if (tag == "x_label") {
      s.table.x_label = value;
    } else if (tag == "total") {
      s.table.total_points = r.Int(f[1]);
    } else {
      r.Fail("unknown line tag '" + tag + "'");
    }
  }
  if (r.line == 0) r.Fail("the file is empty");
  return s;
}

StudyTable MergeShards(std::vector<StudyShard> shards) {
  if (shards.empty()) throw InputError("study merge: no shard files found");
  std::sort(shards.begin(), shards.end(),
            [](const StudyShard& a, const StudyShard& b) { return a.shard < b.shard; });
  const std::string meta = Metadata(shards.front());
  const int64_t count = shards.front().count;
  StudyTable table = shards.front().table;
  table.rows.clear();
  std::set<int64_t> seen;
  for (const auto& s : shards) {
    if (Metadata(s) != meta) {
      throw InputError("study merge: shard " + std::to_string(s.shard) + " of " +
                       std::to_string(s.count) + " belongs to a different study or split");
    }
    if (!seen.insert(s.shard).second) {
      throw InputError("study merge: shard " + std::to_string(s.shard) + " given twice");
    }
    table.rows.insert(table.rows.end(), s.table.rows.begin(), s.table.rows.end());
  }
  for (int64_t i = 0; i < count; ++i) {
    if (!seen.count(i)) {
      throw InputError("study merge: shard " + std::to_string(i) + " of " + std::to_string(count) +
                       " is missing");
    }
  }
  std::sort(table.rows.begin(), table.rows.end(),
            [](const StudyRow& a, const StudyRow& b) { return a.index < b.index; });
  for (size_t i = 0; i < table.rows.size(); ++i) {
    if (table.rows[i].index != static_cast<int64_t>(i)) {
      throw InputError("study merge: point " + std::to_string(i) + " is missing or repeated");
    }
  }
  if (static_cast<int64_t>(table.rows.size()) != table.total_points) {
    throw InputError("study merge: expected " + std::to_string(table.total_points) +
                     " points, found " + std::to_string(table.rows.size()));
  }
  return table;
}

std::vector<std::string> FindShardFiles(const std::vector<std::string>& paths) {
  std::vector<std::string> files;
  for (const auto& path : paths) {
    std::error_code ec;
    if (!std::filesystem::is_directory(path, ec)) {
      files.push_back(path);
      continue;
    }
    std::vector<std::string> found;
    for (const auto& entry : std::filesystem::directory_iterator(path, ec)) {
      const std::string name = entry.path().filename().string();
      if (name.rfind("shard-", 0) == 0 && name.size() > 4 &&
          name.compare(name.size() - 4, 4, ".tsv") == 0) {
        found.push_back(entry.path().string());
      }
    }
    if (ec) throw InputError("cannot list '" + path + "': " + ec.message());
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

}  // namespace paraplan
