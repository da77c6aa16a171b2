// `paraplan model list` and `paraplan hardware list`: the shipped models and clusters by name,
// what each is (loaded: parameters and layers; GPUs, memory and network tiers) and the sources
// its file cites. --names prints the names alone (for shell completion).
#include <memory>
#include <ostream>

#include "cli/command.h"
#include "config/data_catalog.h"
#include "config/resolve.h"
#include "core/display_path.h"
#include "core/format.h"
#include "core/json.h"
#include "core/text_table.h"
#include "model/model_counts.h"

namespace paraplan {

namespace {

constexpr size_t kSourceWidth = 64;
constexpr size_t kAboutWidth = 40;

struct ListOptions {
  std::string format = "table";
  bool names = false;
};

std::string Billions(double params) {
  return FormatFixed(params / 1e9, params < 1e10 ? 2 : 1) + "B";
}

std::string ModelSummary(const std::string& path) {
  const ModelSpec m = LoadModel(path);
  const ModelCounts c = CountModel(m);
  std::string s = m.IsMoe() ? Billions(c.params_total) + " total / " + Billions(c.params_active) +
                                  " active (MoE)"
                            : Billions(c.params_total) + " dense";
  return s + ", " + std::to_string(m.layers) + " layers, seq " + std::to_string(m.seq_len);
}

std::string ClusterSummary(const std::string& path) {
  const Cluster c = LoadCluster(path);
  std::string s = c.gpu.name + ", " + FormatShortest(c.gpu.memory_GiB) + " GiB";
  for (const NetworkTier& t : c.network) {
    s += "; " + t.name + " " + FormatShortest(t.bandwidth_GBps) + " GB/s/GPU over " +
         std::to_string(t.span);
  }
  return s;
}

std::string Shorten(const std::string& text, size_t width) {
  if (text.size() <= width) return text;
  return text.substr(0, width - 3) + "...";
}

void RunList(const std::string& subdir, const ListOptions& o, CliContext& ctx) {
  const std::vector<DataFile> files = ListDataFiles(subdir);
  if (files.empty()) {
    throw InputError("no " + subdir +
                     "/ directory found (searched the current directory, the one above the "
                     "executable, PARAPLAN_DATA_DIR)");
  }
  if (o.names) {
    for (const DataFile& f : files) *ctx.out << f.name << "\n";
    return;
  }
  Json list = Json::MakeArray();
  TextTable table({"name", "what", "description", "source"}, {false, false, false, false});
  for (const DataFile& f : files) {
    const CommentParts parts = SplitSourceComment(f.comment);
    const std::string what = subdir == "models" ? ModelSummary(f.path) : ClusterSummary(f.path);
    Json item = Json::MakeObject();
    item.Set("name", f.name).Set("what", what).Set("description", parts.about);
    item.Set("source", parts.source).Set("file", DisplayPath(f.path));
    list.Push(std::move(item));
    table.AddRow(
        {f.name, what, Shorten(parts.about, kAboutWidth), Shorten(parts.source, kSourceWidth)});
  }
  if (o.format == "json") {
    Json doc = Json::MakeObject();
    doc.Set(subdir == "models" ? "models" : "clusters", std::move(list));
    *ctx.out << doc.Dump(2) << "\n";
    return;
  }
  *ctx.out << table.Render() << "(" << files.size() << " in "
           << DisplayPath(files.front().path.substr(0, files.front().path.rfind('/')))
           << "; the full sources with --format json or in each file's opening comment)\n";
}

}  // namespace

void AddCatalogListCommand(CLI::App& parent, CliContext& ctx, const std::string& subdir) {
  auto options = std::make_shared<ListOptions>();
  const bool models = subdir == "models";
  auto* list = parent.add_subcommand(
      "list", models ? "list the shipped models: name, size, what it is, source"
                     : "list the shipped clusters: name, GPU and network, what it is, source");
  list->add_option("--format", options->format, "table (default) or json")
      ->check(CLI::IsMember({"table", "json"}));
  list->add_flag("--names", options->names, "print only the names, one a line");
  list->footer(models ? "Example:\n  paraplan model list\n  paraplan model list --format json"
                      : "Example:\n  paraplan hardware list\n  paraplan hardware list --names");
  list->callback([options, &ctx, subdir] {
    RunList(subdir, *options, ctx);
    ctx.exit_code = 0;
  });
}

}  // namespace paraplan
