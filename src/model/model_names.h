// The names of the model description's enums (models/*.yaml keys activation, norm, position,
// attention.kind), written once for the loader and for `model show`.
#pragma once

#include "core/name_table.h"
#include "model/model_spec.h"

namespace paraplan {

const NameTable<Activation>& ActivationNames();        // gelu swiglu squared_relu relu
const NameTable<Norm>& NormNames();                    // layernorm rmsnorm
const NameTable<Position>& PositionNames();            // rope learned alibi
const NameTable<AttentionKind>& AttentionKindNames();  // mha gqa mla
const NameTable<RouterScore>& RouterScoreNames();      // softmax sigmoid

const char* ToString(Activation v);
const char* ToString(Norm v);
const char* ToString(Position v);
const char* ToString(AttentionKind v);
const char* ToString(RouterScore v);

}  // namespace paraplan
