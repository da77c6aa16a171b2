#include "model/model_names.h"

namespace paraplan {

const NameTable<Activation>& ActivationNames() {
  static const NameTable<Activation> kTable = {{"gelu", Activation::kGelu},
                                               {"swiglu", Activation::kSwiglu},
                                               {"squared_relu", Activation::kSquaredRelu},
                                               {"relu", Activation::kRelu}};
  return kTable;
}

const NameTable<Norm>& NormNames() {
  static const NameTable<Norm> kTable = {{"layernorm", Norm::kLayerNorm},
                                         {"rmsnorm", Norm::kRmsNorm}};
  return kTable;
}

const NameTable<Position>& PositionNames() {
  static const NameTable<Position> kTable = {
      {"rope", Position::kRope}, {"learned", Position::kLearned}, {"alibi", Position::kAlibi}};
  return kTable;
}

const NameTable<AttentionKind>& AttentionKindNames() {
  static const NameTable<AttentionKind> kTable = {
      {"mha", AttentionKind::kMha}, {"gqa", AttentionKind::kGqa}, {"mla", AttentionKind::kMla}};
  return kTable;
}

const NameTable<RouterScore>& RouterScoreNames() {
  static const NameTable<RouterScore> kTable = {{"softmax", RouterScore::kSoftmax},
                                                {"sigmoid", RouterScore::kSigmoid}};
  return kTable;
}

const char* ToString(Activation v) {
  return NameOf(ActivationNames(), v);
}
const char* ToString(Norm v) {
  return NameOf(NormNames(), v);
}
const char* ToString(Position v) {
  return NameOf(PositionNames(), v);
}
const char* ToString(AttentionKind v) {
  return NameOf(AttentionKindNames(), v);
}
const char* ToString(RouterScore v) {
  return NameOf(RouterScoreNames(), v);
}

}  // namespace paraplan
