#include "core/display_path.h"

#include <catch2/catch.hpp>

namespace paraplan {
namespace {

TEST_CASE("a path under the base prints relative to it, any other as given", "[core]") {
  CHECK(RelativeUnder("/work/p/models", "/work/p") == "models");
  CHECK(RelativeUnder("/work/p/models/llama3-8b.yaml", "/work/p/") == "models/llama3-8b.yaml");
  CHECK(RelativeUnder("/work/p/./models/../hardware", "/work/p") == "hardware");
  CHECK(RelativeUnder("/work/p", "/work/p") == ".");
  CHECK(RelativeUnder("/opt/paraplan/models", "/work/p") == "/opt/paraplan/models");
  CHECK(RelativeUnder("/work/pp/models", "/work/p") == "/work/pp/models");
  CHECK(RelativeUnder("", "/work/p").empty());
}

TEST_CASE("DisplayPath is relative to the working folder", "[core]") {
  CHECK(DisplayPath("models") == "models");
  CHECK(DisplayPath("/") == "/");
}

}  // namespace
}  // namespace paraplan
