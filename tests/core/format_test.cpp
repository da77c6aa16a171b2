#include "core/format.h"

#include <catch2/catch.hpp>
#include <limits>

#include "core/error.h"
#include "core/json.h"

using namespace paraplan;

TEST_CASE("FormatShortest round-trips and never prints nan", "[core]") {
  CHECK(FormatShortest(0.1) == "0.1");
  CHECK(FormatShortest(2.0) == "2");
  CHECK(FormatShortest(std::numeric_limits<double>::quiet_NaN()) == "null");
  CHECK(FormatFixed(12.345, 1) == "12.3");
  CHECK(FormatFixed(-0.0001, 2) == "0.00");
}

TEST_CASE("Json keeps insertion order and escapes strings", "[core]") {
  Json j = Json::MakeObject();
  j.Set("b", 1).Set("a", "x\"y").Set("c", Json::MakeArray().Push(1.5).Push(true));
  CHECK(j.Dump(-1) == R"({"b":1,"a":"x\"y","c":[1.5,true]})");
  j.Set("b", 2);
  CHECK(j.Dump(-1) == R"({"b":2,"a":"x\"y","c":[1.5,true]})");
}

TEST_CASE("InputError formats file:line:col: key: message", "[core]") {
  InputError e({"m.yaml", 3, 7}, "moe.top_k", "must be <= experts (8), got 9");
  CHECK(std::string(e.what()) == "m.yaml:3:7: moe.top_k: must be <= experts (8), got 9");
  CHECK(std::string(InputError("plain").what()) == "plain");
}
