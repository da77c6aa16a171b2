// Names of the op, split, group and layer kinds as they appear in JSON and tables.
#include "model/layer_graph.h"

namespace paraplan {

const char* ToString(OpKind kind) {
  static const char* const kNames[kOpKindCount] = {"embedding",
                                                   "position_embedding",
                                                   "norm",
                                                   "qkv_proj",
                                                   "mla_q_down_proj",
                                                   "mla_q_up_proj",
                                                   "mla_kv_down_proj",
                                                   "mla_kv_up_proj",
                                                   "attn_core",
                                                   "out_proj",
                                                   "mlp_up",
                                                   "activation",
                                                   "mlp_down",
                                                   "router",
                                                   "expert_up",
                                                   "expert_down",
                                                   "shared_expert_up",
                                                   "shared_expert_down",
                                                   "residual_add",
                                                   "mtp_proj",
                                                   "logits",
                                                   "loss"};
  return kNames[static_cast<size_t>(kind)];
}

const char* ToString(TpSplit split) {
  switch (split) {
    case TpSplit::kReplicated:
      return "replicated";
    case TpSplit::kColumn:
      return "column";
    case TpSplit::kRow:
      return "row";
    case TpSplit::kHeads:
      return "heads";
    case TpSplit::kVocab:
      return "vocab";
  }
  return "?";
}

const char* ToString(ParamGroup group) {
  static const char* const kNames[kParamGroupCount] = {"attention",      "mlp",    "moe_experts",
                                                       "shared_experts", "router", "norms",
                                                       "embedding",      "logits", "mtp_proj"};
  return kNames[static_cast<size_t>(group)];
}

const char* ToString(LayerKind kind) {
  static const char* const kNames[kLayerKindCount] = {
      "embedding", "dense", "dense_sliding", "moe", "moe_sliding", "mtp", "logits"};
  return kNames[static_cast<size_t>(kind)];
}

ParamGroup GroupOf(OpKind kind) {
  switch (kind) {
    case OpKind::kEmbedding:
    case OpKind::kPositionEmbedding:
      return ParamGroup::kEmbedding;
    case OpKind::kNorm:
    case OpKind::kResidualAdd:
      return ParamGroup::kNorm;
    case OpKind::kQkvProj:
    case OpKind::kMlaQDownProj:
    case OpKind::kMlaQUpProj:
    case OpKind::kMlaKvDownProj:
    case OpKind::kMlaKvUpProj:
    case OpKind::kAttnCore:
    case OpKind::kOutProj:
      return ParamGroup::kAttention;
    case OpKind::kMlpUp:
    case OpKind::kActivation:
    case OpKind::kMlpDown:
      return ParamGroup::kMlp;
    case OpKind::kRouter:
      return ParamGroup::kRouter;
    case OpKind::kExpertUp:
    case OpKind::kExpertDown:
      return ParamGroup::kMoeExperts;
    case OpKind::kSharedExpertUp:
    case OpKind::kSharedExpertDown:
      return ParamGroup::kSharedExperts;
    case OpKind::kMtpProj:
      return ParamGroup::kMtpProj;
    case OpKind::kLogits:
    case OpKind::kLoss:
      return ParamGroup::kLogits;
  }
  return ParamGroup::kNorm;
}

}  // namespace paraplan
