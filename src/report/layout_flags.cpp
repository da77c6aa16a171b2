#include "report/layout_flags.h"

#include "plan/stage_layout.h"

namespace paraplan {

std::vector<int64_t> ResultLayout(const StepResult& r) {
  if (!r.virtual_stage_layers.empty()) return r.virtual_stage_layers;
  const ParallelPlan& p = r.plan;
  const auto n = static_cast<int64_t>(p.pp_layers.size());
  if (n > 0 && (n == VirtualStages(p) || p.vpp <= 1)) return p.pp_layers;
  return {};
}

bool IsDefaultLayout(const StepResult& r, const std::vector<int64_t>& layout) {
  for (int64_t n : layout) {
    if (n != layout.front()) return false;
  }
  const auto last = static_cast<int64_t>(layout.size()) - 1;
  return r.mtp_layers == 0 || r.mtp_virtual_stage < 0 || r.mtp_virtual_stage == last;
}

namespace {

// Megatron-LM's --account-for-embedding/loss-in-pipeline-split layout of `layers`, or empty.
std::vector<int64_t> AccountedLayout(int64_t layers, int64_t stages) {
  const int64_t total = layers + 2;
  if (stages < 2 || total % stages != 0) return {};
  std::vector<int64_t> out(static_cast<size_t>(stages), total / stages);
  --out.front();
  --out.back();
  return out;
}

}  // namespace

std::vector<std::string> MegatronLayoutFlags(const StepResult& r,
                                             const std::vector<int64_t>& layout,
                                             std::string* note) {
  const ParallelPlan& p = r.plan;
  const int64_t vpp = std::max<int64_t>(p.vpp, 1);
  const auto stages = static_cast<int64_t>(layout.size());
  int64_t layers = 0;
  for (int64_t n : layout) layers += n;
  const bool mtp_last = r.mtp_layers == 0 || r.mtp_virtual_stage == stages - 1;
  std::vector<std::string> flags;
  bool middle_equal = stages >= 3;
  for (int64_t i = 2; i + 1 < stages; ++i) middle_equal = middle_equal && layout[i] == layout[1];
  if (vpp == 1 && mtp_last && middle_equal) {
    flags.push_back("--decoder-first-pipeline-num-layers " + std::to_string(layout.front()));
    flags.push_back("--decoder-last-pipeline-num-layers " + std::to_string(layout.back()));
    *note = "layout: uneven first/last stage";
    return flags;
  }
  if (mtp_last && layout == AccountedLayout(layers, stages)) {
    flags.emplace_back("--account-for-embedding-in-pipeline-split");
    flags.emplace_back("--account-for-loss-in-pipeline-split");
    if (vpp > 1) flags.push_back("--num-virtual-stages-per-pipeline-rank " + std::to_string(vpp));
    *note = "layout: embedding and loss each counted as one layer";
    return flags;
  }
  flags.push_back("--pipeline-model-parallel-layout \"" +
                  MegatronLayoutString(layout, r.mtp_virtual_stage, r.mtp_layers) + "\"");
  *note = "layout: per virtual stage (E embedding, t layer, m MTP, L loss)";
  return flags;
}

std::string TorchtitanModuleFqns(const std::vector<int64_t>& layout) {
  std::string out = "[";
  int64_t next = 0;
  for (size_t v = 0; v < layout.size(); ++v) {
    std::string part;
    auto add = [&part](const std::string& name) {
      part += (part.empty() ? "\"" : ", \"") + name + "\"";
    };
    if (v == 0) add("tok_embeddings");
    for (int64_t i = 0; i < layout[v]; ++i) add("layers." + std::to_string(next++));
    if (v + 1 == layout.size()) {
      add("norm");
      add("output");
    }
    out += (v == 0 ? "[" : ", [") + part + "]";
  }
  return out + "]";
}

}  // namespace paraplan
