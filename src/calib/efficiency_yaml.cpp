#include "calib/efficiency_yaml.h"

#include <cctype>
#include <set>
#include <sstream>

#include "calib/efficiency_fit.h"
#include "core/format.h"

namespace paraplan {

namespace {

struct Frame {
  size_t indent = 0;
  std::string key;
};

std::string Trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t");
  size_t e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::string Unquote(std::string key) {
  if (key.size() >= 2 && (key.front() == '"' || key.front() == '\''))
    key = key.substr(1, key.size() - 2);
  return key;
}

// The value for dotted `path` (family first) or nullptr.
struct Lookup {
  const std::map<std::string, Efficiency>& defaults;
  std::set<std::string>& used;
  bool Find(const std::vector<std::string>& path, double& value) const {
    for (size_t i = 0; i < path.size(); ++i) {
      auto it = defaults.find(path[i]);
      if (it == defaults.end()) continue;
      std::string name;
      for (size_t j = i + 1; j < path.size(); ++j) name += (name.empty() ? "" : ".") + path[j];
      for (const auto& key : EfficiencyKeys(it->second)) {
        if (key != name) continue;
        value = GetEfficiencyValue(it->second, key);
        used.insert(path[i] + "." + key);
        return true;
      }
    }
    return false;
  }
};

std::string Rounded(double value) {
  // Four significant decimals keep the file readable; the fit is not more precise than that.
  return FormatShortest(std::stod(FormatFixed(value, value >= 10 ? 2 : 4)));
}

// "{nvlink: 0.8, scaleout: 0.7}" with the values under `path` replaced.
std::string UpdateFlow(const std::string& flow, std::vector<std::string> path,
                       const Lookup& lookup) {
  std::string out = "{";
  std::string inner = flow.substr(1, flow.rfind('}') - 1);
  std::stringstream items(inner);
  std::string item;
  bool first = true;
  while (std::getline(items, item, ',')) {
    const size_t colon = item.find(':');
    std::string rebuilt = Trim(item);
    double value = 0;
    if (colon != std::string::npos) {
      const std::string key = Unquote(Trim(item.substr(0, colon)));
      path.push_back(key);
      if (lookup.Find(path, value)) rebuilt = key + ": " + Rounded(value);
      path.pop_back();
    }
    out += (first ? "" : ", ") + rebuilt;
    first = false;
  }
  return out + "}" + flow.substr(flow.rfind('}') + 1);
}

std::string UpdateLine(const std::string& line, std::vector<Frame>& stack, const Lookup& lookup) {
  const std::string trimmed = Trim(line);
  if (trimmed.empty() || trimmed[0] == '#') return line;
  size_t indent = line.find_first_not_of(' ');
  if (line[indent] == '-') {
    // A list item ("  - match: H100"): its keys sit two columns in; `match` names the family
    // the item's other keys belong to.
    while (!stack.empty() && stack.back().indent >= indent) stack.pop_back();
    const std::string item = Trim(line.substr(indent + 1));
    if (item.rfind("match:", 0) == 0) {
      const std::string family = item.substr(
          6, item.find(" #") == std::string::npos ? std::string::npos : item.find(" #") - 6);
      stack.push_back({indent + 1, Unquote(Trim(family))});
      return line;
    }
    indent = line.find_first_not_of(' ', indent + 1);
    if (indent == std::string::npos) return line;
  }
  const size_t colon = line.find(':', indent);
  if (colon == std::string::npos) return line;
  while (!stack.empty() && stack.back().indent >= indent) stack.pop_back();
  const std::string key = Unquote(Trim(line.substr(indent, colon - indent)));
  std::vector<std::string> path;
  path.reserve(stack.size() + 1);
  for (const auto& frame : stack) path.push_back(frame.key);
  path.push_back(key);
  const size_t value_begin = line.find_first_not_of(' ', colon + 1);
  if (value_begin == std::string::npos || line[value_begin] == '#') {
    stack.push_back({indent, key});
    return line;
  }
  if (line[value_begin] == '{') {
    return line.substr(0, value_begin) + UpdateFlow(line.substr(value_begin), path, lookup);
  }
  double value = 0;
  if (!lookup.Find(path, value)) return line;
  const size_t comment = line.find(" #", value_begin);
  std::string out = line.substr(0, value_begin) + Rounded(value);
  if (comment == std::string::npos) return out;
  // Keep the comment in its column when there is room, else one space after the value.
  out += std::string(out.size() < comment + 1 ? comment + 1 - out.size() : 1, ' ');
  return out + line.substr(comment + 1);
}

}  // namespace

std::vector<std::string> EfficiencyKeys(const Efficiency& efficiency) {
  std::vector<std::string> tiers;
  for (const auto& [tier, fraction] : efficiency.link) tiers.push_back(tier);
  std::vector<std::string> keys;
  for (const auto& p : EfficiencyParameters(tiers)) keys.push_back(p.name);
  return keys;
}

std::string UpdateEfficiencyYaml(const std::string& text,
                                 const std::map<std::string, Efficiency>& defaults,
                                 std::vector<std::string>* missing) {
  std::set<std::string> used;
  const Lookup lookup{defaults, used};
  std::vector<Frame> stack;
  std::stringstream in(text);
  std::string line;
  std::string out;
  while (std::getline(in, line)) out += UpdateLine(line, stack, lookup) + "\n";
  if (!text.empty() && text.back() != '\n' && !out.empty()) out.pop_back();
  if (missing) {
    for (const auto& [family, efficiency] : defaults) {
      for (const auto& key : EfficiencyKeys(efficiency)) {
        std::string name = family;
        name += '.';
        name += key;
        if (!used.count(name)) missing->push_back(std::move(name));
      }
    }
  }
  return out;
}

std::string NewEfficiencyYaml(const std::map<std::string, Efficiency>& defaults,
                              const std::string& header_comment) {
  std::string out = header_comment;
  for (const auto& [family, efficiency] : defaults) {
    out += family + ":\n";
    std::string links;
    for (const auto& key : EfficiencyKeys(efficiency)) {
      const std::string value = Rounded(GetEfficiencyValue(efficiency, key));
      if (key.rfind("link.", 0) == 0) {
        links += (links.empty() ? "" : ", ") + key.substr(5) + ": " + value;
      } else {
        out += "  ";
        out += key;
        out += ": ";
        out += value;
        out += "\n";
      }
    }
    if (!links.empty()) out += "  link: {" + links + "}\n";
  }
  return out;
}

}  // namespace paraplan
