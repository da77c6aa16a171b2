// `plan -g` as a count, a list or a power-of-two range (cli/gpu_count_list.h).
#include "cli/gpu_count_list.h"

#include <catch2/catch.hpp>

namespace paraplan {
namespace {

TEST_CASE("GPU counts: one, a list, a range of powers of two", "[cli][sweep]") {
  CHECK(ParseGpuCounts("64") == std::vector<int64_t>{64});
  CHECK(ParseGpuCounts("256,512,1024") == std::vector<int64_t>{256, 512, 1024});
  CHECK(ParseGpuCounts("256:4096") == std::vector<int64_t>{256, 512, 1024, 2048, 4096});
  CHECK(ParseGpuCounts("300:1100") == std::vector<int64_t>{512, 1024});
}

TEST_CASE("bad GPU counts name -g and say what is wrong", "[cli][sweep]") {
  for (const char* bad :
       {"0", "", "-4", "8,,16", "8,8", "4096:256", "5:7", "1x", "99999999999", "1:4294967296",
        "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,"
        "22,23,24,25,26,27,28,29,30,31,32,33"}) {
    INFO(bad);
    CHECK_THROWS_WITH(ParseGpuCounts(bad), Catch::Contains("-g/--gpus"));
  }
}

}  // namespace
}  // namespace paraplan
