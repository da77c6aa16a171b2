#include "report/layer_ops_text.h"

#include "core/format.h"
#include "core/text_table.h"
#include "cost/layer_ops.h"

namespace paraplan {

std::string LayerOpsText(const ModelSpec& model, const Cluster& cluster, const ParallelPlan& plan) {
  std::string out;
  for (const LayerOpsTable& t : ComputeLayerOps(model, cluster, plan)) {
    out += "\nlayer ops: one " + t.kind + " layer (" + std::to_string(t.layers) +
           " in the model), one micro-batch, one GPU; fusion=" + ToString(plan.kernels.fusion) +
           (plan.kernels.cuda_graphs ? ", cuda_graphs" : "") +
           (plan.precision == Precision::kFp8 && !plan.kernels.Pytorch()
                ? std::string(", fp8_recipe=") + ToString(plan.kernels.fp8_recipe)
                : std::string()) +
           " (docs/framework-fusion.md)\n";
    TextTable table({"op", "GFLOP", "MB", "kernels", "fwd ms", "bwd ms", "bound"},
                    {false, true, true, true, true, true, false});
    double fwd = 0, bwd = 0;
    for (const LayerOpRow& r : t.rows) {
      table.AddRow({r.name, FormatFixed(r.flops / 1e9, 2), FormatFixed(r.bytes / 1e6, 1),
                    FormatFixed(r.kernels, 0), FormatFixed(r.fwd_s * 1e3, 3),
                    FormatFixed(r.bwd_s * 1e3, 3), ToString(BoundOf(r))});
      fwd += r.fwd_s;
      bwd += r.bwd_s;
    }
    table.AddRow({"total", "", "", "", FormatFixed(fwd * 1e3, 3), FormatFixed(bwd * 1e3, 3), ""});
    out += table.Render() + "\n";
  }
  return out;
}

Json LayerOpsJson(const ModelSpec& model, const Cluster& cluster, const ParallelPlan& plan) {
  Json kinds = Json::MakeArray();
  for (const LayerOpsTable& t : ComputeLayerOps(model, cluster, plan)) {
    Json ops = Json::MakeArray();
    for (const LayerOpRow& r : t.rows) {
      Json op = Json::MakeObject();
      op.Set("op", r.name).Set("flops", r.flops).Set("bytes", r.bytes).Set("kernels", r.kernels);
      op.Set("fwd_s", r.fwd_s).Set("bwd_s", r.bwd_s).Set("bound", ToString(BoundOf(r)));
      ops.Push(std::move(op));
    }
    Json kind = Json::MakeObject();
    kind.Set("kind", t.kind).Set("layers", t.layers);
    kind.Set("fwd_s", t.total.fwd_s).Set("bwd_s", t.total.bwd_s).Set("ops", std::move(ops));
    kinds.Push(std::move(kind));
  }
  return kinds;
}

}  // namespace paraplan
