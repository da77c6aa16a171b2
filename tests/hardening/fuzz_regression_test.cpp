// Every input a fuzzer ever crashed on is kept under tests/data/fuzz-regressions/<target>/ and
// replayed here through the same entry point; the seeds (shipped files) are replayed too.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "fuzz/fuzz_entries.h"

namespace fs = std::filesystem;

namespace {
std::string ReadBytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}
}  // namespace

TEST_CASE("saved fuzz crashers and seeds parse or fail cleanly", "[hardening]") {
  const fs::path root = fs::path(PARAPLAN_SOURCE_DIR) / "tests" / "data" / "fuzz-regressions";
  int replayed = 0;
  for (const auto& target : paraplan::fuzz::Targets()) {
    const fs::path dir = root / target.name;
    if (!fs::is_directory(dir)) continue;
    for (const auto& entry : fs::directory_iterator(dir)) {
      if (!entry.is_regular_file()) continue;
      const std::string bytes = ReadBytes(entry.path());
      INFO(target.name << ": " << entry.path().filename().string());
      CHECK_NOTHROW(target.entry(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
      ++replayed;
    }
  }
  SUCCEED("replayed " << replayed << " saved inputs");
}

TEST_CASE("hostile inputs end in InputError, not a crash", "[hardening]") {
  const std::string inputs[] = {
      "",
      "\xff\xfe\x00garbage",
      "a: &a [*a, *a]\n",
      "{\"num_hidden_layers\": 1e400,",
      "layers: "
      "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]"
      "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]\n",
      "kind,op\n1,2,3\n",
      "tp=99999999999999999999999,pp=-1",
  };
  for (const auto& target : paraplan::fuzz::Targets()) {
    for (const auto& text : inputs) {
      INFO(target.name << " on " << text.substr(0, 40));
      CHECK_NOTHROW(target.entry(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
    }
  }
}
