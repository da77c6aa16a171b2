#include "plan/stage_layout.h"

#include <algorithm>
#include <numeric>

#include "plan/knob_table.h"

namespace paraplan {
namespace {

std::string S(int64_t v) {
  return std::to_string(v);
}

// pp_layers with pp entries (each split evenly over its stage's vpp chunks) or pp*vpp entries.
std::string FromPpLayers(const ParallelPlan& p, std::vector<int64_t>* out) {
  const int64_t vpp = std::max<int64_t>(p.vpp, 1), stages = VirtualStages(p);
  const auto& l = p.pp_layers;
  const auto n = static_cast<int64_t>(l.size());
  if (n == stages) {
    *out = l;
    return "";
  }
  if (n != p.pp) {
    return "pp_layers (or pp_layout) has " + S(n) + " entries, pp=" + S(p.pp) +
           " needs one per stage" +
           (vpp > 1 ? " (or pp*vpp=" + S(stages) + ", one per virtual stage)" : "");
  }
  out->assign(static_cast<size_t>(stages), 0);
  for (int64_t s = 0; s < p.pp; ++s) {
    if (l[s] % vpp != 0) {
      return "pp_layers: vpp=" + S(vpp) + " does not divide stage " + S(s) + "'s " + S(l[s]) +
             " layers; give pp*vpp=" + S(stages) + " entries, one per virtual stage";
    }
    for (int64_t c = 0; c < vpp; ++c) (*out)[c * p.pp + s] = l[s] / vpp;
  }
  return "";
}

// Megatron-LM's --account-for-embedding/loss-in-pipeline-split: the embedding and the loss count
// as one layer each and the total splits evenly over the virtual stages.
std::string FromAccountFlags(int64_t layers, const ParallelPlan& p, std::vector<int64_t>* out) {
  const StageLayoutRule& r = p.layout;
  const int64_t stages = VirtualStages(p);
  const int64_t total = layers + (r.account_embedding ? 1 : 0) + (r.account_loss ? 1 : 0);
  const char* knob = r.account_embedding ? "pp_account_embedding" : "pp_account_loss";
  if (total % stages != 0) {
    return std::string(knob) + ": layers=" + S(layers) +
           " plus the accounted embedding/loss = " + S(total) +
           " must be divisible by pp*vpp=" + S(stages);
  }
  out->assign(static_cast<size_t>(stages), total / stages);
  if (r.account_embedding) --out->front();
  if (r.account_loss) --out->back();
  return "";
}

// Megatron-LM's split without a layout flag (megatron/core/transformer/transformer_block.py,
// get_num_layers_to_build, core_v0.4.0 through d98e8a6): num_layers / pp layers on every pipeline
// rank and / vpp per model chunk, the embedding and the loss not counted. Megatron-LM's
// validate_args asserts the divisions (megatron/training/arguments.py at core_v0.10.0 through
// d98e8a6; the interleaved case since core_v0.4.0); Megatron-Core 0.4-0.9 built num_layers // pp
// layers without it, silently dropping the remainder, which is no plan of the model either.
std::string FromEvenSplit(int64_t layers, const ParallelPlan& p, std::vector<int64_t>* out) {
  const int64_t vpp = std::max<int64_t>(p.vpp, 1);
  if (layers % p.pp != 0) {
    return "pp_even_split: layers=" + S(layers) + " is not divisible by pp=" + S(p.pp) +
           " (Megatron-LM: 'Number of layers should be divisible by the pipeline-model-parallel "
           "size'); state the split with pp_layers, pp_layout, pp_first_layers/pp_last_layers or "
           "pp_account_embedding/pp_account_loss";
  }
  const int64_t per_rank = layers / p.pp;
  if (per_rank % vpp != 0) {
    return "pp_even_split: vpp=" + S(vpp) + " does not divide the " + S(per_rank) +
           " layers of each pipeline rank (Megatron-LM: 'number of layers per pipeline stage must "
           "be divisible number of layers per virtual pipeline stage')";
  }
  out->assign(static_cast<size_t>(p.pp * vpp), per_rank / vpp);
  return "";
}

// Megatron-LM's --decoder-first/last-pipeline-num-layers: the other stages split the rest evenly.
std::string FromFirstLast(int64_t layers, const ParallelPlan& p, std::vector<int64_t>* out) {
  const StageLayoutRule& r = p.layout;
  const int64_t vpp = std::max<int64_t>(p.vpp, 1);
  if (p.pp < 2) return "pp_first_layers/pp_last_layers need pp >= 2, got pp=" + S(p.pp);
  const int64_t f = r.first_stage_layers, l = r.last_stage_layers;
  const int64_t middle = p.pp - (f > 0 ? 1 : 0) - (l > 0 ? 1 : 0);
  const int64_t rest = layers - f - l;
  const std::string given = "pp_first_layers=" + S(f) + ", pp_last_layers=" + S(l);
  if (rest < 0 || (middle == 0 && rest != 0) || (middle > 0 && rest % middle != 0)) {
    return given + ": the other " + S(middle) + " stages must split the remaining " + S(rest) +
           " of " + S(layers) + " layers evenly";
  }
  std::vector<int64_t> physical(static_cast<size_t>(p.pp), middle > 0 ? rest / middle : 0);
  if (f > 0) physical.front() = f;
  if (l > 0) physical.back() = l;
  out->assign(static_cast<size_t>(p.pp * vpp), 0);
  for (int64_t s = 0; s < p.pp; ++s) {
    if (physical[s] % vpp != 0) {
      return given + ": vpp=" + S(vpp) + " does not divide stage " + S(s) + "'s " + S(physical[s]) +
             " layers";
    }
    for (int64_t c = 0; c < vpp; ++c) (*out)[c * p.pp + s] = physical[s] / vpp;
  }
  return "";
}

// torchtitan's pipeline_parallel_split_points: boundaries between consecutive virtual stages.
std::string FromSplitPoints(int64_t layers, const ParallelPlan& p, std::vector<int64_t>* out) {
  const auto& points = p.layout.split_points;
  const int64_t stages = VirtualStages(p);
  if (static_cast<int64_t>(points.size()) != stages - 1) {
    return "pp_split_points has " + S(static_cast<int64_t>(points.size())) +
           " points, pp*vpp=" + S(stages) + " stages need " + S(stages - 1);
  }
  int64_t previous = 0;
  out->clear();
  for (int64_t point : points) {
    if (point <= previous || point >= layers) {
      return "pp_split_points must increase strictly inside (0, layers=" + S(layers) + "), got " +
             S(point) + " after " + S(previous);
    }
    out->push_back(point - previous);
    previous = point;
  }
  out->push_back(layers - previous);
  return "";
}

// Sum, signs and empty stages of a resolved layout.
std::string CheckCounts(int64_t layers, int64_t mtp_stage, const std::vector<int64_t>& counts,
                        const char* knob) {
  const int64_t sum = std::accumulate(counts.begin(), counts.end(), int64_t{0});
  if (sum != layers) {
    return std::string(knob) + " sums to " + S(sum) + ", the model has " + S(layers) + " layers";
  }
  const auto n = static_cast<int64_t>(counts.size());
  for (int64_t v = 0; v < n; ++v) {
    if (counts[v] < 0) return std::string(knob) + " entries must be >= 0, got " + S(counts[v]);
    const bool holds_other = v == 0 || v == n - 1 || v == mtp_stage;
    if (counts[v] == 0 && !holds_other) {
      return std::string(knob) + ": virtual stage " + S(v) +
             " holds no layer (only the first, the last and the MTP stage may)";
    }
  }
  return "";
}

}  // namespace

bool HasFixedLayout(const ParallelPlan& plan) {
  return !plan.pp_layers.empty() || plan.layout.AnySplit();
}

int64_t MtpVirtualStage(const ParallelPlan& plan) {
  return plan.layout.mtp_stage >= 0 ? plan.layout.mtp_stage : VirtualStages(plan) - 1;
}

std::string ResolveVirtualLayers(int64_t layers, int64_t mtp_layers, const ParallelPlan& plan,
                                 std::vector<int64_t>* out) {
  out->clear();
  const StageLayoutRule& r = plan.layout;
  const int64_t stages = VirtualStages(plan);
  if (r.mtp_stage >= 0 && mtp_layers == 0) {
    return "pp_layout places MTP modules ('m'), the model has mtp_layers=0";
  }
  if (r.mtp_stage >= stages) {
    return "pp_layout: the MTP stage " + S(r.mtp_stage) +
           " is past the last of pp*vpp=" + S(stages) + " virtual stages";
  }
  if (!HasFixedLayout(plan)) return "";
  const bool account = r.account_embedding || r.account_loss;
  const bool first_last = r.first_stage_layers > 0 || r.last_stage_layers > 0;
  const int sources = (plan.pp_layers.empty() ? 0 : 1) + (account ? 1 : 0) + (first_last ? 1 : 0) +
                      (r.split_points.empty() ? 0 : 1) + (r.even_split ? 1 : 0);
  if (sources > 1) {
    return "pp_layers, pp_first_layers/pp_last_layers, pp_account_embedding/pp_account_loss, "
           "pp_split_points and pp_even_split each state the whole layout: give one of them";
  }
  std::string error;
  const char* knob = KnobName(Knob::kPpLayers);
  if (!plan.pp_layers.empty()) {
    error = FromPpLayers(plan, out);
  } else if (account) {
    error = FromAccountFlags(layers, plan, out);
    knob = "pp_account_embedding";
  } else if (first_last) {
    error = FromFirstLast(layers, plan, out);
    knob = "pp_first_layers";
  } else if (r.even_split) {
    error = FromEvenSplit(layers, plan, out);
    knob = "pp_even_split";
  } else {
    error = FromSplitPoints(layers, plan, out);
    knob = "pp_split_points";
  }
  if (error.empty()) error = CheckCounts(layers, MtpVirtualStage(plan), *out, knob);
  if (!error.empty()) out->clear();
  return error;
}

std::vector<int64_t> PhysicalStageLayers(const std::vector<int64_t>& virtual_layers, int64_t pp) {
  std::vector<int64_t> out(static_cast<size_t>(pp), 0);
  for (size_t v = 0; v < virtual_layers.size(); ++v) out[v % pp] += virtual_layers[v];
  return out;
}

namespace {

std::string StageBody(const std::vector<int64_t>& layers, size_t v, int64_t mtp_stage,
                      int64_t mtp_layers) {
  std::string body = v == 0 ? "E" : "";
  const int64_t n = layers[v];
  body += n >= 3 ? "t*" + S(n) : std::string(static_cast<size_t>(n), 't');
  if (static_cast<int64_t>(v) == mtp_stage) {
    body +=
        mtp_layers >= 3 ? "m*" + S(mtp_layers) : std::string(static_cast<size_t>(mtp_layers), 'm');
  }
  if (v + 1 == layers.size()) body += "L";
  return body;
}

}  // namespace

std::string MegatronLayoutString(const std::vector<int64_t>& virtual_layers, int64_t mtp_stage,
                                 int64_t mtp_layers) {
  std::vector<std::string> bodies;
  for (size_t v = 0; v < virtual_layers.size(); ++v) {
    bodies.push_back(StageBody(virtual_layers, v, mtp_layers > 0 ? mtp_stage : -1, mtp_layers));
  }
  std::string out;
  for (size_t i = 0; i < bodies.size();) {
    size_t j = i;
    while (j < bodies.size() && bodies[j] == bodies[i]) ++j;
    const size_t run = j - i;
    const bool last_group = j == bodies.size();
    // A trailing "(x|)*k" would leave an empty last stage: the last repeat is written plainly.
    const size_t grouped = last_group ? run - 1 : run;
    if (grouped > 1) {
      out += "(" + bodies[i] + "|)*" + std::to_string(grouped);
    } else if (grouped == 1) {
      out += bodies[i] + "|";
    }
    if (last_group) out += bodies[i];
    i = j;
  }
  return out;
}

}  // namespace paraplan
