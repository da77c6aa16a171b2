#include "core/strings.h"

#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <vector>

namespace paraplan {
namespace {

template <typename R>
concept Joinable = requires(const R& r) {
  Join(r);
};

TEST_CASE("Join puts the separator between written items only", "[core]") {
  CHECK(Join(std::vector<std::string>{}).empty());
  CHECK(Join(std::vector<std::string>{"tp", "pp", "dp"}) == "tp, pp, dp");
  CHECK(Join(std::vector<std::string>{"a", "b"}, "; ") == "a; b");
  // Leading empty items add no separator; later ones keep their place.
  CHECK(Join(std::vector<std::string>{"", "a", "", "b"}, " ") == "a  b");
  // A string is not a list of names.
  STATIC_REQUIRE(Joinable<std::vector<std::string>>);
  STATIC_REQUIRE(!Joinable<std::string>);
  CHECK(Join(std::set<std::string>{"bf16", "fp8"}) == "bf16, fp8");
}

TEST_CASE("EditDistance counts single-character edits", "[core]") {
  CHECK(EditDistance("", "") == 0);
  CHECK(EditDistance("plan", "plan") == 0);
  CHECK(EditDistance("pln", "plan") == 1);
  CHECK(EditDistance("plam", "plan") == 1);
  CHECK(EditDistance("kitten", "sitting") == 3);
  CHECK(EditDistance("", "abc") == 3);
}

}  // namespace
}  // namespace paraplan
