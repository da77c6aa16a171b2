#include "report/stage_layout_text.h"

#include <sstream>

#include "core/format.h"
#include "core/units.h"
#include "plan/stage_layout.h"

namespace paraplan {
namespace {

std::string Cell(const std::string& s, size_t width, bool right) {
  if (s.size() >= width) return s + " ";
  const std::string pad(width - s.size(), ' ');
  return right ? pad + s : s + pad;
}

std::string Holds(const StageLoad& l) {
  std::string out;
  if (l.embedding) out += "E";
  if (l.mtp) out += "m";
  if (l.loss) out += "L";
  return out.empty() ? "-" : out;
}

}  // namespace

std::string StageLayoutText(const StepResult& r) {
  if (r.plan.pp < 2 || r.loads.size() != r.memory.size() || r.loads.empty()) return "";
  size_t slowest = 0, fullest = 0;
  for (size_t s = 0; s < r.loads.size(); ++s) {
    const StageLoad& l = r.loads[s];
    const StageLoad& w = r.loads[slowest];
    if (l.forward_s + l.backward_s > w.forward_s + w.backward_s) slowest = s;
    if (r.memory[s].TotalBytes() > r.memory[fullest].TotalBytes()) fullest = s;
  }
  std::ostringstream o;
  o << "Pipeline layout (E embedding, m MTP, L loss; time per micro-batch, ms):\n";
  o << "  " << Cell("stage", 7, false) << Cell("layers", 8, true) << Cell("holds", 7, true)
    << Cell("fwd+bwd", 10, true) << Cell("memory GiB", 12, true) << "\n";
  for (size_t s = 0; s < r.loads.size(); ++s) {
    const StageLoad& l = r.loads[s];
    o << "  " << Cell(std::to_string(s), 7, false) << Cell(std::to_string(l.layers), 8, true)
      << Cell(Holds(l), 7, true)
      << Cell(FormatFixed((l.forward_s + l.backward_s) * 1e3, 3), 10, true)
      << Cell(FormatFixed(BytesToGiB(r.memory[s].TotalBytes()), 2), 12, true);
    if (s == slowest) o << "  <- slowest stage (sets the pipeline's pace)";
    if (s == fullest) o << "  <- peak memory";
    o << "\n";
  }
  if (!r.virtual_stage_layers.empty()) {
    o << "  layers per virtual stage (Megatron-LM --pipeline-model-parallel-layout): \""
      << MegatronLayoutString(r.virtual_stage_layers, r.mtp_virtual_stage, r.mtp_layers) << "\"\n";
  }
  return o.str();
}

}  // namespace paraplan
