#include "config/yaml_reader.h"

#include <catch2/catch.hpp>

#include "config/model_loader.h"
#include "config_test_util.h"

namespace paraplan {
namespace {

using Catch::Matchers::Contains;
using testing::ErrorOf;
using testing::WriteScratch;

TEST_CASE("yaml reader reports file:line:col and the key path", "[config]") {
  const YamlDocument doc = ParseYamlText("a: 1\nb:\n  c: -5\n", "t.yaml");
  const YamlMap top(doc.Root(), {"a", "b"});
  const YamlMap b(top.Required("b"), {"c"});
  CHECK(ErrorOf([&] { b.Required("c").AsPositiveInt(); }) ==
        "t.yaml:3:6: b.c: must be > 0, got -5");
  CHECK(top.Required("a").AsPositiveInt() == 1);
}

TEST_CASE("yaml reader rejects unknown keys with a suggestion and the valid keys", "[config]") {
  const YamlDocument doc = ParseYamlText("layers: 2\nhiden: 5\n", "t.yaml");
  const std::string message = ErrorOf([&] { YamlMap(doc.Root(), {"layers", "hidden"}); });
  CHECK_THAT(message, Contains("t.yaml:2:1: hiden: unknown key 'hiden'"));
  CHECK_THAT(message, Contains("did you mean 'hidden'?"));
  CHECK_THAT(message, Contains("valid keys: layers, hidden"));
}

TEST_CASE("yaml reader rejects wrong types", "[config]") {
  const YamlDocument doc =
      ParseYamlText("i: eighty\nf: 1.5\nb: maybe\nl: 3\nm: [1]\nn: .nan\n", "t.yaml");
  const YamlMap top(doc.Root(), {"i", "f", "b", "l", "m", "n"});
  CHECK_THAT(ErrorOf([&] { top.Required("i").AsInt(); }),
             Contains("expected an integer, got 'eighty'"));
  CHECK_THAT(ErrorOf([&] { top.Required("f").AsInt(); }),
             Contains("expected an integer, got '1.5'"));
  CHECK_THAT(ErrorOf([&] { top.Required("b").AsBool(); }), Contains("expected true or false"));
  CHECK_THAT(ErrorOf([&] { top.Required("l").Elements(); }), Contains("expected a list"));
  CHECK_THAT(ErrorOf([&] { top.Required("m").AsString(); }),
             Contains("expected a string, got a list"));
  CHECK_THAT(ErrorOf([&] { top.Required("n").AsDouble(); }), Contains("expected a number"));
  CHECK(top.Required("f").AsDouble() == 1.5);
}

TEST_CASE("yaml reader rejects duplicate keys", "[config]") {
  const std::string message = ErrorOf([] { ParseYamlText("a: 1\nb: 2\na: 3\n", "t.yaml"); });
  CHECK(message == "t.yaml:3:1: a: duplicate key 'a' (first at line 1)");
  CHECK_THAT(ErrorOf([] { ParseYamlText("x:\n  y: 1\n  y: 2\n", "t.yaml"); }),
             Contains("x.y: duplicate key 'y'"));
}

TEST_CASE("yaml reader enums list their valid values", "[config]") {
  const YamlDocument doc = ParseYamlText("act: swiglo\n", "t.yaml");
  const YamlNode node = YamlMap(doc.Root(), {"act"}).Required("act");
  enum class E { kA, kB };
  const std::string message = ErrorOf([&] {
    node.AsEnum<E>({{"swiglu", E::kA}, {"gelu", E::kB}});
  });
  CHECK_THAT(message, Contains("'swiglo' is not one of: swiglu, gelu (did you mean 'swiglu'?)"));
}

TEST_CASE("yaml reader refuses empty files, directories and missing files", "[config]") {
  CHECK_THAT(ErrorOf([] { LoadYamlFile(WriteScratch("empty.yaml", "")); }), Contains("empty file"));
  CHECK_THAT(ErrorOf([] { LoadYamlFile(WriteScratch("comments.yaml", "# nothing\n")); }),
             Contains("empty document"));
  const std::string dir = testing::ScratchDir().string();
  CHECK_THAT(ErrorOf([&] { LoadYamlFile(dir); }), Contains("is a directory"));
  CHECK_THAT(ErrorOf([] { LoadYamlFile("/dev/null"); }), Contains("not a regular file"));
  CHECK_THAT(ErrorOf([] { LoadYamlFile("/nonexistent/x.yaml"); }), Contains("no such file"));
}

TEST_CASE("yaml reader reports syntax errors and truncated JSON at their position", "[config]") {
  const std::string truncated = testing::SourcePath("tests/data/config/hf/truncated.json");
  const std::string message = ErrorOf([&] { LoadYamlFile(truncated); });
  CHECK_THAT(message, Contains(truncated + ":"));
  CHECK_THAT(message, Contains("not valid YAML/JSON"));
  CHECK_THAT(ErrorOf([] { ParseYamlText("a: [1, 2\n", "t.yaml"); }), Contains("t.yaml:"));
}

TEST_CASE("yaml reader bounds alias expansion (billion laughs)", "[config]") {
  std::string text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i < 12; ++i) {
    const std::string prev = "*a" + std::to_string(i - 1);
    text += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [" + prev;
    for (int j = 0; j < 9; ++j) text += ", " + prev;
    text += "]\n";
  }
  const std::string message = ErrorOf([&] { ParseYamlText(text, "bomb.yaml"); });
  CHECK_THAT(message, Contains("more than 1000000 nodes"));
}

TEST_CASE("yaml reader bounds nesting depth", "[config]") {
  std::string text;
  for (int i = 0; i < 80; ++i) text += "[";
  for (int i = 0; i < 80; ++i) text += "]";
  CHECK_THAT(ErrorOf([&] { ParseYamlText(text, "deep.yaml"); }), Contains("nested deeper than 64"));
}

TEST_CASE("overrides are applied before validation and errors name them", "[config]") {
  const YamlDocument doc =
      ParseYamlText("gpu:\n  memory_GiB: 80\nnet:\n  - name: nvlink\n    span: 8\n", "h.yaml");
  YamlNode root = doc.Root();
  ApplyOverride(root, "gpu.memory_GiB", "96", {"--set", 0, 0}, "cluster.gpu.memory_GiB");
  ApplyOverride(root, "net.nvlink.span", "-1", {"--set", 0, 0}, "cluster.net.nvlink.span");
  const YamlMap top(root, {"gpu", "net"});
  CHECK(YamlMap(top.Required("gpu"), {"memory_GiB"}).Required("memory_GiB").AsDouble() == 96);
  const YamlNode tier = top.Required("net").Elements()[0];
  CHECK(ErrorOf([&] {
          YamlMap(tier, {"name", "span"}).Required("span").AsPositiveInt();
        }) == "--set: cluster.net.nvlink.span: must be > 0, got -1");
  CHECK_THAT(ErrorOf([&] {
               ApplyOverride(root, "net.ib.span", "4", {"--set", 0, 0}, "cluster.net.ib.span");
             }),
             Contains("no item named 'ib' in 'net' (have: nvlink)"));
}

}  // namespace
}  // namespace paraplan
