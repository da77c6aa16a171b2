#include "cost/zero3_schedule.h"

#include <catch2/catch.hpp>
#include <vector>

using namespace paraplan;

namespace {

// A small model: hidden 1000, vocab 32000, two blocks of qkv (3000 x 1000), proj (1000 x 1000),
// fc1 (4000 x 1000), fc2 (1000 x 4000) and two norms of 1000; the root holds the embedding
// (32000 x 1000), the final norm and the untied output layer. Sizes not divisible by 64 or
// 1,024 show each framework's padding.
std::vector<Zero3Param> SmallModel() {
  std::vector<Zero3Param> p;
  p.push_back({0, 32e6, 32000});
  for (int64_t u = 1; u <= 2; ++u) {
    p.push_back({u, 1000, 0});
    p.push_back({u, 3e6, 3000});
    p.push_back({u, 1e6, 1000});
    p.push_back({u, 1000, 0});
    p.push_back({u, 4e6, 4000});
    p.push_back({u, 4e6, 1000});
  }
  p.push_back({0, 1000, 0});
  p.push_back({0, 32e6, 32000});
  return p;
}

std::vector<char> OpLetters(const Zero3Schedule& s) {
  std::vector<char> out;
  for (const Zero3Call& c : s.calls) out.push_back(c.op == CollectiveOp::kAllGather ? 'G' : 'R');
  return out;
}

}  // namespace

TEST_CASE("FSDP1 gathers one flat parameter per unit, the root once", "[cost]") {
  // Flat units padded to a multiple of N: root 64,001,000 -> 64,001,024 at 64 and at 1,024;
  // a block 12,002,000 -> 12,002,048 (64) and 12,002,304 (1,024). Forward: root, 1, 2;
  // backward (BACKWARD_PRE): gather 2, gather 1, reduce-scatter 2, reduce-scatter 1, root.
  const Zero3Schedule a = Zero3Collectives(Zero3Issuer::kFsdp1, SmallModel(), 64, 2, 2);
  CHECK(a.all_gathers == 5);
  CHECK(a.reduce_scatters == 3);
  CHECK(OpLetters(a) == std::vector<char>{'G', 'G', 'G', 'G', 'G', 'R', 'R', 'R'});
  CHECK(a.calls[0].bytes == 2 * 64001024.0);
  CHECK(a.calls[1].bytes == 2 * 12002048.0);
  CHECK(a.gather_bytes == 2 * (64001024.0 + 4 * 12002048.0));
  CHECK(a.reduce_scatter_bytes == 2 * (64001024.0 + 2 * 12002048.0));
  const Zero3Schedule b = Zero3Collectives(Zero3Issuer::kFsdp1, SmallModel(), 1024, 2, 2);
  CHECK(b.all_gathers == 5);
  CHECK(b.gather_bytes == 2 * (64001024.0 + 4 * 12002304.0));
}

TEST_CASE("FSDP2 pads each parameter's rows and keeps the root and last block", "[cost]") {
  // Rows padded to ceil(rows / N) N: at 64 qkv 3008 x 1000, proj 1024 x 1000, fc1 4032 x 1000,
  // fc2 1024 x 4000, norms 1024: a block 12,162,048; root 32,000,000 x 2 + 1024. At 1,024:
  // 3,072,000 + 1,024,000 + 4,096,000 + 4,096,000 + 2,048 = 12,290,048; root
  // 32,768,000 x 2 + 1024 = 65,537,024. Backward: gather 1, reduce-scatter 2, 1, root.
  const Zero3Schedule a = Zero3Collectives(Zero3Issuer::kFsdp2, SmallModel(), 64, 2, 4);
  CHECK(a.all_gathers == 4);
  CHECK(a.reduce_scatters == 3);
  CHECK(OpLetters(a) == std::vector<char>{'G', 'G', 'G', 'G', 'R', 'R', 'R'});
  CHECK(a.gather_bytes == 2 * (64001024.0 + 3 * 12162048.0));
  CHECK(a.reduce_scatter_bytes == 4 * (64001024.0 + 2 * 12162048.0));  // fp32 (torchtitan)
  const Zero3Schedule b = Zero3Collectives(Zero3Issuer::kFsdp2, SmallModel(), 1024, 2, 4);
  CHECK(b.calls[0].bytes == 2 * 65537024.0);
  CHECK(b.calls[1].bytes == 2 * 12290048.0);
  CHECK(b.reduce_scatter_bytes == 4 * (65537024.0 + 2 * 12290048.0));
}

TEST_CASE("DeepSpeed packs whole parameters into prefetch and reduce buckets", "[cost]") {
  // Norms (1,000 <= 1e5) persist. Forward: the embedding alone, then qkv ... fc2 of both blocks
  // (24e6) and the output layer (56e6 >= 5e7) in one call; backward the same from the output
  // layer. One reduce bucket (88,005,000 <= 5e8). Padding per parameter: exact at 64 (every
  // size divides); at 1,024 qkv 3,000,320, proj 1,000,448, fc1 and fc2 4,000,768, norms 1,024.
  const Zero3Schedule a = Zero3Collectives(Zero3Issuer::kDeepSpeed, SmallModel(), 64, 2, 2);
  CHECK(a.all_gathers == 4);
  CHECK(a.reduce_scatters == 1);
  CHECK(OpLetters(a) == std::vector<char>{'G', 'G', 'G', 'G', 'R'});
  CHECK(a.calls[0].bytes == 2 * 32e6);
  CHECK(a.calls[1].bytes == 2 * 56e6);
  CHECK(a.calls[3].bytes == 2 * 56e6);
  CHECK(a.reduce_scatter_bytes == 2 * (88e6 + 5 * 1024.0));
  const Zero3Schedule b = Zero3Collectives(Zero3Issuer::kDeepSpeed, SmallModel(), 1024, 2, 2);
  CHECK(b.all_gathers == 4);
  CHECK(b.calls[1].bytes == 2 * (32e6 + 2 * 12002304.0));
  CHECK(b.reduce_scatter_bytes == 2 * (64e6 + 2 * 12002304.0 + 5 * 1024.0));
  // A smaller reduce bucket splits the gradients: 3e7 elements -> the output layer (32e6)
  // overflows an empty bucket alone, then blocks and the embedding in turn.
  DeepSpeedZero3Settings small;
  small.reduce_bucket_elements = 3e7;
  const Zero3Schedule c = Zero3Collectives(Zero3Issuer::kDeepSpeed, SmallModel(), 64, 2, 2, small);
  CHECK(c.reduce_scatters == 3);
}
