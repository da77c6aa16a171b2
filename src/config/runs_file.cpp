#include "config/runs_file.h"

#include <filesystem>
#include <set>

#include "config/hardware_loader.h"
#include "config/model_loader.h"
#include "config/overrides.h"
#include "config/plan_loader.h"
#include "config/resolve.h"
#include "config/yaml_reader.h"
#include "plan/framework_profile.h"

namespace paraplan {

namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kRunKeys = {
    "id",    "source",   "framework",       "framework_version",
    "model", "cluster",  "overrides",       "gpus",
    "plan",  "measured", "evaluation_only", "eval_sequences_per_step"};
const std::vector<std::string> kMeasuredKeys = {"step_time_s", "tokens_per_s_per_gpu", "mfu",
                                                "memory_GiB"};

// A name stays a name; a relative path is taken relative to the runs file.
std::string RelativeTo(const std::string& text, const std::string& base_dir) {
  const fs::path p(text);
  const std::string ext = p.extension().string();
  const bool is_path =
      text.find('/') != std::string::npos || ext == ".yaml" || ext == ".yml" || ext == ".json";
  if (!is_path || p.is_absolute() || base_dir.empty()) return text;
  return (fs::path(base_dir) / p).lexically_normal().string();
}

std::map<std::string, double> ReadMeasured(const YamlNode& node) {
  const YamlMap map(node, kMeasuredKeys);
  std::map<std::string, double> measured;
  for (const std::string& key : map.Keys()) {
    const YamlNode value = map.Required(key);
    const double v = value.AsPositiveDouble();
    if (key == "mfu" && v > 1.0) value.Fail("is a fraction in (0, 1], got " + value.AsText());
    measured[key] = v;
  }
  return measured;
}

void ReadModelAndCluster(const YamlMap& map, const std::vector<Override>& overrides,
                         const std::string& base_dir, RunSpec& run) {
  YamlNode model = map.Required("model");
  if (model.IsMap()) {
    ApplyOverrides(model, overrides, "model");
    run.model = ReadModel(model, run.id);
  } else {
    try {
      run.model = LoadModel(RelativeTo(model.AsString(), base_dir), overrides);
    } catch (const InputError& e) {
      run.error = std::string("model: ") + e.what();
    }
  }
  YamlNode cluster = map.Required("cluster");
  if (cluster.IsMap()) {
    ApplyOverrides(cluster, overrides, "cluster");
    run.cluster = ReadCluster(cluster, run.id, base_dir);
  } else {
    try {
      run.cluster = LoadCluster(RelativeTo(cluster.AsString(), base_dir), overrides);
    } catch (const InputError& e) {
      if (run.error.empty()) run.error = std::string("cluster: ") + e.what();
    }
  }
}

RunSpec ReadRun(const YamlNode& node, const std::string& base_dir) {
  const YamlMap map(node, kRunKeys);
  RunSpec run;
  run.where = node.Where();
  run.id = map.Required("id").AsString();
  if (run.id.empty()) map.Required("id").Fail("must not be empty");
  run.source = map.String("source", "");
  if (const auto f = map.Find("framework")) {
    run.framework = f->AsEnum(FrameworkNames());
  }
  if (const auto v = map.Find("framework_version")) {
    run.framework_version = v->AsString();
    if (run.framework == Framework::kUnstated) v->Fail("needs `framework:`");
    if (!FindProfile(run.framework, run.framework_version)) {
      v->Fail("no profile of " + std::string(DisplayName(run.framework)) + " at '" +
              run.framework_version + "'; known versions: " + ProfileVersions(run.framework));
    }
  }
  run.gpus = map.Required("gpus").AsPositiveInt();
  run.evaluation_only = map.Bool("evaluation_only", false);
  if (const auto e = map.Find("eval_sequences_per_step")) {
    run.eval_sequences_per_step = e->AsPositiveInt();
  }
  std::vector<Override> overrides;
  if (const auto o = map.Find("overrides")) overrides = ReadOverrides(*o, {"model", "cluster"});
  if (const auto plan = map.Find("plan")) run.plan = ReadPlanConstraints(*plan);
  if (const auto measured = map.Find("measured")) run.measured = ReadMeasured(*measured);
  ReadModelAndCluster(map, overrides, base_dir, run);
  return run;
}

}  // namespace

std::vector<RunSpec> LoadRunsFile(const std::string& path) {
  const YamlDocument doc = LoadYamlFile(path);
  const YamlMap top(doc.Root(), {"runs"});
  const std::string base_dir = fs::path(path).parent_path().string();
  std::vector<RunSpec> runs;
  std::set<std::string> ids;
  for (const YamlNode& item : top.Required("runs").Elements()) {
    runs.push_back(ReadRun(item, base_dir));
    if (!ids.insert(runs.back().id).second) {
      YamlMap(item, kRunKeys).Required("id").Fail("duplicate run id '" + runs.back().id + "'");
    }
  }
  if (runs.empty()) top.Required("runs").Fail("needs at least one run");
  return runs;
}

}  // namespace paraplan
