#include "config/resolve.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "config/hardware_loader.h"
#include "config/model_loader.h"
#include "config/yaml_reader.h"
#include "core/strings.h"

namespace paraplan {

namespace fs = std::filesystem;

namespace {

bool LooksLikePath(const std::string& text) {
  const fs::path p(text);
  const std::string ext = p.extension().string();
  return text.find('/') != std::string::npos || ext == ".yaml" || ext == ".yml" || ext == ".json";
}

// hardware/efficiency.yaml holds the efficiency defaults per GPU family (efficiency_loader.h), not
// a cluster: it is neither listed nor resolved as one.
constexpr const char* kEfficiencyStem = "efficiency";

bool IsEfficiencyDefaults(const std::string& subdir, const std::string& stem) {
  return subdir == "hardware" && stem == kEfficiencyStem;
}

// Names (file stems) of the *.yaml files in the first search directory that has `subdir`.
std::vector<std::string> KnownNames(const std::string& subdir) {
  for (const std::string& dir : DataSearchDirs()) {
    std::error_code ec;
    const fs::path folder = fs::path(dir) / subdir;
    if (!fs::is_directory(folder, ec)) continue;
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(folder, ec)) {
      const std::string stem = entry.path().stem().string();
      if (entry.path().extension() == ".yaml" && !IsEfficiencyDefaults(subdir, stem)) {
        names.push_back(stem);
      }
    }
    std::sort(names.begin(), names.end());
    return names;
  }
  return {};
}

// A path as given, or subdir/NAME.yaml in the first search directory that has it.
std::string FindDataFile(const std::string& name_or_path, const std::string& subdir,
                         const std::string& what) {
  if (name_or_path.empty()) throw InputError("empty " + what + " name");
  std::error_code ec;
  if (LooksLikePath(name_or_path) || fs::is_regular_file(name_or_path, ec)) return name_or_path;
  if (IsEfficiencyDefaults(subdir, name_or_path)) {
    throw InputError(
        "'efficiency' is hardware/efficiency.yaml, the efficiency defaults per GPU "
        "family (docs/validation.md), not a cluster; known clusters: " +
        Join(KnownNames(subdir)));
  }
  for (const std::string& dir : DataSearchDirs()) {
    const fs::path candidate = fs::path(dir) / subdir / (name_or_path + ".yaml");
    if (fs::is_regular_file(candidate, ec)) return candidate.string();
  }
  const std::vector<std::string> known = KnownNames(subdir);
  std::string message = "unknown " + what + " '" + name_or_path + "'";
  const std::string close = ClosestMatch(name_or_path, known);
  if (!close.empty()) message += " (did you mean '" + close + "'?)";
  message += known.empty() ? "; no " + subdir +
                                 "/ directory found (searched the current "
                                 "directory, the one above the executable, "
                                 "PARAPLAN_DATA_DIR)"
                           : "; known: " + Join(known) + "; or give a path";
  throw InputError(message);
}

}  // namespace

Override ParseOverrideFlag(const std::string& text) {
  const SourceLocation where{"--set", 0, 0};
  const size_t equals = text.find('=');
  if (equals == std::string::npos || equals == 0 || equals + 1 == text.size()) {
    throw InputError(where, "",
                     "expected PATH=VALUE (e.g. cluster.gpu.memory_GiB=96), got '" + text + "'");
  }
  Override o{text.substr(0, equals), text.substr(equals + 1), where};
  const std::string root = o.path.substr(0, o.path.find('.'));
  if ((root != "model" && root != "cluster") || o.path.size() <= root.size() + 1) {
    throw InputError(where, o.path,
                     "a path starts with model. or cluster. and names a field "
                     "(e.g. model.seq_len, cluster.network.scaleout.bandwidth_GBps)");
  }
  return o;
}

std::vector<std::string> DataSearchDirs() {
  std::vector<std::string> dirs;
  std::error_code ec;
  auto add = [&dirs](const fs::path& dir) {
    if (dir.empty()) return;
    std::error_code canon_ec;
    const std::string text = fs::weakly_canonical(dir, canon_ec).string();
    const std::string key = canon_ec ? dir.string() : text;
    if (std::find(dirs.begin(), dirs.end(), key) == dirs.end()) dirs.push_back(key);
  };
  add(fs::current_path(ec));
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) add(exe.parent_path().parent_path());
  add(fs::path(PARAPLAN_DATA_DIR));
  return dirs;
}

ModelSpec LoadModel(const std::string& name_or_path, const std::vector<Override>& overrides) {
  return LoadModelFile(FindDataFile(name_or_path, "models", "model"), overrides);
}

Cluster LoadCluster(const std::string& name_or_path, const std::vector<Override>& overrides) {
  return LoadClusterFile(FindDataFile(name_or_path, "hardware", "cluster"), overrides);
}

}  // namespace paraplan
