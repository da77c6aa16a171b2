#include "model/model_names.h"

#include <catch2/catch.hpp>
#include <string>

using namespace paraplan;

namespace {

// Every table entry maps back to its own name, and no two entries share a name.
template <typename E>
void CheckNamesRoundTrip(const NameTable<E>& table) {
  for (const auto& [name, value] : table) {
    CHECK(std::string(NameOf(table, value)) == name);
    int same = 0;
    for (const auto& other : table) same += std::string(other.first) == name ? 1 : 0;
    CHECK(same == 1);
  }
}

}  // namespace

TEST_CASE("Model enum names come from one table each", "[model]") {
  CheckNamesRoundTrip(ActivationNames());
  CheckNamesRoundTrip(NormNames());
  CheckNamesRoundTrip(PositionNames());
  CheckNamesRoundTrip(AttentionKindNames());
  CHECK(std::string(ToString(Activation::kSquaredRelu)) == "squared_relu");
  CHECK(std::string(ToString(Norm::kLayerNorm)) == "layernorm");
  CHECK(std::string(ToString(Position::kAlibi)) == "alibi");
  CHECK(std::string(ToString(AttentionKind::kMla)) == "mla");
  CHECK(ActivationNames().size() == 4);
  CHECK(std::string(NameOf(NormNames(), static_cast<Norm>(7))) == "?");
}
