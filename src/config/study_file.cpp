#include "config/study_file.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>
#include <string>

#include "config/count_bounds.h"
#include "config/hardware_loader.h"
#include "config/model_loader.h"
#include "config/overrides.h"
#include "config/plan_loader.h"
#include "config/study_metric.h"
#include "config/yaml_reader.h"
#include "core/strings.h"
#include "plan/knob_table.h"
#include "search/budget.h"

namespace paraplan {

// Inline `model:` / `cluster:` mappings (null nodes when given by name).
struct StudyInlineSpecs {
  YamlDocument document;
  YAML::Node model;
  YAML::Node cluster;
  std::string base_dir;
};

namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kTopKeys = {
    "study", "title", "x_label", "model", "cluster", "overrides",    "gpus",
    "plan",  "mode",  "sweep",   "zip",   "metric",  "simulate_top", "tokens"};

// A name stays a name; a relative path is taken relative to the study file when it exists there.
std::string ResolveRelative(const std::string& text, const std::string& base_dir) {
  std::error_code ec;
  const fs::path p(text);
  if (p.is_relative() && text.find('/') != std::string::npos) {
    const fs::path candidate = fs::path(base_dir) / p;
    if (fs::is_regular_file(candidate, ec)) return candidate.string();
  }
  return text;
}

// One knob value (a scalar, or a list of alternatives; pp_layers: a list is one split).
std::vector<std::string> KnobValues(const std::string& knob, const YamlNode& value) {
  if (!value.IsSequence()) return {value.AsString()};
  std::vector<std::string> values;
  std::string split;
  for (const YamlNode& item : value.Elements()) {
    if (knob == KnobName(Knob::kPpLayers)) {
      split += (split.empty() ? "" : "/") + item.AsString();
    } else {
      values.push_back(item.AsString());
    }
  }
  if (knob == KnobName(Knob::kPpLayers)) values.push_back(split);
  return values;
}

// The name becomes the folder ./study-NAME: no path separators, no "..", not empty.
void CheckStudyName(const YamlNode& node, const std::string& name) {
  const bool plain = !name.empty() && name.size() <= kMaxStudyNameLength && name.front() != '.' &&
                     std::all_of(name.begin(), name.end(), [](unsigned char c) {
                       return std::isalnum(c) != 0 || c == '.' || c == '_' || c == '-';
                     });
  if (!plain) {
    node.Fail("'" + name +
              "' is not a plain name: use letters, digits, '.', '_' and '-' (at most " +
              std::to_string(kMaxStudyNameLength) +
              " characters, not starting with '.'); it names the output folder study-NAME");
  }
}

SweepAxis ReadAxis(const std::string& key, const YamlNode& list) {
  SweepAxis axis;
  axis.key = key;
  axis.where = list.Where();
  const std::string bare = key.rfind("plan.", 0) == 0 ? key.substr(5) : key;
  const std::vector<std::string> knobs = PlanKnobNames();
  const bool is_knob = std::find(knobs.begin(), knobs.end(), bare) != knobs.end();
  if (key.rfind("model.", 0) == 0 && key.size() > 6) {
    axis.target = SweepTarget::kModel;
  } else if (key.rfind("cluster.", 0) == 0 && key.size() > 8) {
    axis.target = SweepTarget::kCluster;
  } else if (key == "model") {
    axis.target = SweepTarget::kModelName;
  } else if (key == "cluster") {
    axis.target = SweepTarget::kClusterName;
  } else if (key == "gpus") {
    axis.target = SweepTarget::kGpus;
  } else if (is_knob) {
    axis.target = SweepTarget::kKnob;
    axis.knob = bare;
  } else {
    std::vector<std::string> valid = knobs;
    valid.insert(valid.end(), {"gpus", "model", "cluster"});
    const std::string close = ClosestMatch(bare, valid);
    list.Fail("cannot sweep '" + key + "'" +
              (close.empty() ? "" : " (did you mean '" + close + "'?)") +
              "; sweep model, cluster, model.PATH, cluster.PATH, gpus, or a plan knob (plain or as "
              "plan.KNOB): " +
              Join(knobs));
  }
  for (const YamlNode& item : list.Elements()) {
    SweepValue v{item.AsText(), {}, item.Where()};
    if (axis.target == SweepTarget::kGpus) {
      CheckBound(item, item.AsPositiveInt(), kMaxStudyGpus);
      v.text = std::to_string(item.AsPositiveInt());
    } else if (axis.target == SweepTarget::kModelName || axis.target == SweepTarget::kClusterName) {
      if (!item.IsScalar()) item.Fail("expected a name or a path");
    } else if (axis.target == SweepTarget::kKnob) {
      v.knob_values = KnobValues(axis.knob, item);
      PlanConstraints scratch;
      try {
        SetPlanKnob(scratch, axis.knob, v.knob_values);
      } catch (const InputError& e) {
        item.Fail(e.message());
      }
    }
    axis.values.push_back(std::move(v));
  }
  if (axis.values.empty()) list.Fail("needs at least one value");
  return axis;
}

SweepDimension ReadDimension(const std::string& key, const YamlNode& list, bool zipped) {
  SweepDimension d;
  d.zipped = zipped;
  d.axes.push_back(ReadAxis(key, list));
  return d;
}

void ReadSweeps(const YamlMap& top, StudySpec& spec) {
  std::set<std::string> seen;
  auto check_new = [&seen](const SweepAxis& axis, const YamlNode& node) {
    const std::string canonical = axis.target == SweepTarget::kKnob ? axis.knob : axis.key;
    if (!seen.insert(canonical).second) node.Fail("'" + axis.key + "' is swept twice");
  };
  for (const std::string& section : top.Keys()) {
    if (section != "sweep" && section != "zip") continue;
    const YamlNode node = top.Required(section);
    const auto entries = MapEntries(node);
    if (entries.empty()) node.Fail("needs at least one key");
    if (section == "sweep") {
      for (const auto& [key, list] : entries) {
        spec.dimensions.push_back(ReadDimension(key, list, false));
        check_new(spec.dimensions.back().axes.front(), list);
      }
      continue;
    }
    SweepDimension zipped;
    zipped.zipped = true;
    for (const auto& [key, list] : entries) {
      zipped.axes.push_back(ReadAxis(key, list));
      check_new(zipped.axes.back(), list);
    }
    CheckDimension(zipped);
    spec.dimensions.push_back(std::move(zipped));
  }
}

// model/cluster: a name, a path, or an inline mapping (kept for ResolveStudyPoint).
std::string ReadSpecRef(const YamlNode& node, YAML::Node* inline_node,
                        const std::string& base_dir) {
  if (node.IsMap()) {
    *inline_node = node.Raw();
    return "";
  }
  if (!node.IsScalar()) node.Fail("expected a name, a path or a mapping");
  return ResolveRelative(node.AsString(), base_dir);
}

StudySpec ReadStudy(const YamlDocument& doc, const std::string& base_dir) {
  const YamlMap top(doc.Root(), kTopKeys);
  StudySpec spec;
  spec.file = doc.context->file;
  spec.name = top.Required("study").AsString();
  CheckStudyName(top.Required("study"), spec.name);
  spec.title = top.String("title", "");
  spec.x_label = top.String("x_label", "");
  auto inline_specs = std::make_shared<StudyInlineSpecs>();
  inline_specs->document = doc;
  inline_specs->base_dir = base_dir;
  spec.model = ReadSpecRef(top.Required("model"), &inline_specs->model, base_dir);
  spec.cluster = ReadSpecRef(top.Required("cluster"), &inline_specs->cluster, base_dir);
  spec.inline_specs = inline_specs;
  if (auto o = top.Find("overrides")) spec.overrides = ReadOverrides(*o, {"model", "cluster"});
  if (auto p = top.Find("plan")) spec.plan = ReadPlanConstraints(*p);
  spec.mode = top.Has("mode") ? top.Required("mode").AsEnum(StudyModeNames()) : StudyMode::kPlan;
  spec.simulate_top = top.PositiveInt("simulate_top", spec.simulate_top);
  if (auto m = top.Find("metric")) {
    try {
      spec.metric = CanonicalMetric(m->AsString());
    } catch (const InputError& e) {
      m->Fail(e.message());
    }
  }
  if (auto t = top.Find("tokens")) {
    try {
      spec.tokens = ParseTokenCount(t->AsString(), "tokens");
    } catch (const InputError&) {
      t->Fail(
          "expected a positive token count such as 15T, 300B or 2.5e12 (suffixes K, M, B, "
          "T, P), got '" +
          t->AsString() + "'");
    }
  }
  ReadSweeps(top, spec);
  bool gpus_swept = false;
  for (const auto& d : spec.dimensions) {
    for (const auto& a : d.axes) gpus_swept = gpus_swept || a.target == SweepTarget::kGpus;
  }
  if (top.Has("gpus") || !gpus_swept) {
    spec.gpus = top.Required("gpus").AsPositiveInt();
    spec.gpus_where = top.Required("gpus").Where();
    CheckBound(top.Required("gpus"), spec.gpus, kMaxStudyGpus);
  }
  if (CountPoints(spec.dimensions) > kMaxStudyPoints) {
    top.Required("study").Fail("the sweep has more than " + std::to_string(kMaxStudyPoints) +
                               " points (paraplan's bound; docs/formats.md): split the study");
  }
  return spec;
}

// A copy of an inline mapping with the point's overrides applied, read as a spec.
YamlNode InlineNode(const StudySpec& spec, const YAML::Node& raw, const std::string& root,
                    const std::vector<Override>& overrides) {
  auto context = std::make_shared<YamlContext>(*spec.inline_specs->document.context);
  YamlNode node(YAML::Clone(raw), context, root);
  ApplyOverrides(node, overrides, root);
  return node;
}

}  // namespace

StudySpec LoadStudyFile(const std::string& path) {
  const YamlDocument doc = LoadYamlFile(path);
  const std::string dir = fs::path(path).parent_path().string();
  return ReadStudy(doc, dir.empty() ? "." : dir);
}

StudySpec ParseStudyText(const std::string& text, const std::string& origin,
                         const std::string& base_dir) {
  return ReadStudy(ParseYamlText(text, origin), base_dir);
}

StudyPointInput ResolveStudyPoint(const StudySpec& spec, const StudyPoint& point) {
  StudyPointInput in;
  in.gpus = spec.gpus;
  in.plan = spec.plan;
  std::vector<Override> overrides = spec.overrides;
  std::string model = spec.model, cluster = spec.cluster;
  const auto axes = FlattenAxes(spec.dimensions);
  const auto values = PointValues(spec.dimensions, point);
  for (size_t i = 0; i < axes.size(); ++i) {
    const SweepAxis& axis = *axes[i];
    const SweepValue& value = *values[i];
    if (axis.target == SweepTarget::kModel || axis.target == SweepTarget::kCluster) {
      overrides.push_back(Override{axis.key, value.text, value.where});
    } else if (axis.target == SweepTarget::kModelName) {
      model = ResolveRelative(value.text, spec.inline_specs->base_dir);
    } else if (axis.target == SweepTarget::kClusterName) {
      cluster = ResolveRelative(value.text, spec.inline_specs->base_dir);
    } else if (axis.target == SweepTarget::kGpus) {
      in.gpus = std::stoll(value.text);
    } else {
      try {
        SetPlanKnob(in.plan, axis.knob, value.knob_values);
      } catch (const InputError& e) {
        throw InputError(value.where, axis.key, e.message());
      }
    }
  }
  const StudyInlineSpecs& inl = *spec.inline_specs;
  in.model = model.empty() ? ReadModel(InlineNode(spec, inl.model, "model", overrides), spec.name)
                           : LoadModel(model, overrides);
  in.cluster = cluster.empty() ? ReadCluster(InlineNode(spec, inl.cluster, "cluster", overrides),
                                             spec.name, inl.base_dir)
                               : LoadCluster(cluster, overrides);
  return in;
}

}  // namespace paraplan
