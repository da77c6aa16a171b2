// The data-parallel gradient paths the framework profiles set (issue 37, stop 40): DeepSpeed's
// bucket all-reduce, Megatron-Core's DDP buckets and NeMo 22.08's fixed apex buckets.
#include <catch2/catch.hpp>

#include "validate/convention_fixtures.h"
#include "validate/framework_conventions.h"

using namespace paraplan;
using paraplan::testing::Layers;
using paraplan::testing::V;

TEST_CASE("DeepSpeed v0.16: ZeRO-1/2 all-reduce each gradient bucket, ZeRO-0/3 unchanged",
          "[validate][framework]") {
  // zero_optimization.use_multi_rank_bucket_allreduce defaults to true from v0.12.4
  // (deepspeed/runtime/zero/config.py; stage_1_and_2.py average_tensor -> allreduce_and_scatter).
  const FrameworkProfile* ds = FindProfile(Framework::kDeepSpeed, "v0.16");
  REQUIRE(ds);
  for (int zero : {1, 2}) {
    INFO("zero " << zero);
    PlanConstraints c;
    c.zero = V(zero);
    std::vector<std::string> notes;
    const PlanConstraints out = ApplyFrameworkConventions(ds, Layers(32), c, &notes);
    REQUIRE(out.kernels);
    CHECK(out.kernels->zero_bucket_all_reduce);
    CHECK(!out.kernels->zero1_all_reduce);  // buckets in the backward, not nanotron's whole buffer
    CHECK(std::any_of(notes.begin(), notes.end(), [](const std::string& n) {
      return n.rfind("zero_bucket_all_reduce=true", 0) == 0;
    }));
  }
  for (int zero : {0, 3}) {  // ZeRO-0's engine all-reduces anyway; ZeRO-3 reduce-scatters
    INFO("zero " << zero);
    PlanConstraints c;
    c.zero = V(zero);
    const PlanConstraints out = ApplyFrameworkConventions(ds, Layers(32), c, nullptr);
    CHECK((!out.kernels || !out.kernels->zero_bucket_all_reduce));
  }
  // Megatron-DeepSpeed's DeepSpeed version is not read (unread profile): no flag; nor Megatron-LM's
  // distributed optimizer, which reduce-scatters.
  for (Framework f : {Framework::kMegatronDeepSpeed, Framework::kMegatron}) {
    PlanConstraints c;
    c.zero = V(2);
    const PlanConstraints out = ApplyFrameworkConventions(FindProfile(f), Layers(32), c, nullptr);
    CHECK((!out.kernels || !out.kernels->zero_bucket_all_reduce));
  }
}

TEST_CASE("Megatron-LM and NeMo's recipes bucket gradients as Megatron-Core's DDP does",
          "[validate][dp_buckets]") {
  PlanConstraints c;
  c.zero = V(1);
  // Megatron-LM d98e8a6 and NeMo's Megatron-Core recipes: DistributedDataParallel sets
  // bucket_size None without overlap_grad_reduce and off pipeline rank 0.
  for (const FrameworkProfile* profile :
       {FindProfile(Framework::kMegatron), FindProfile(Framework::kNemo, "recipes")}) {
    REQUIRE(profile);
    std::vector<std::string> notes;
    const PlanConstraints out = ApplyFrameworkConventions(profile, Layers(16), c, &notes);
    REQUIRE(out.kernels);
    CHECK(out.kernels->megatron_ddp_buckets);
    CHECK(out.kernels->fusion == Fusion::kTe);  // nothing else of the kernels changes
    bool noted = false;
    for (const std::string& n : notes)
      noted = noted || n.rfind("megatron_ddp_buckets=true", 0) == 0;
    CHECK(noted);
  }
  // NeMo 22.08 ran apex's DistributedFusedAdam, nanotron its own DDP: not Megatron-Core's rules.
  for (const FrameworkProfile* profile :
       {FindProfile(Framework::kNemo, "22.08"), FindProfile(Framework::kNanotron)}) {
    REQUIRE(profile);
    const PlanConstraints out = ApplyFrameworkConventions(profile, Layers(16), c, nullptr);
    CHECK((!out.kernels || !out.kernels->megatron_ddp_buckets));
  }
}

TEST_CASE("NeMo 22.08's distributed Adam buckets 100 MiB of fp32 gradients at any DP size",
          "[validate][dp_buckets]") {
  const FrameworkProfile* nemo = FindProfile(Framework::kNemo, "22.08");
  REQUIRE(nemo);
  PlanConstraints c;
  const PlanConstraints out = ApplyFrameworkConventions(nemo, Layers(16), c, nullptr);
  // apex 21e4154: bucket_cap_mb = 100, bucket_size = 1024 * 1024 * 100 / 4 fp32 elements.
  REQUIRE(out.dp_bucket_MB);
  CHECK(*out.dp_bucket_MB == V(100 * 1048576 / 1e6));
  // A stated bucket wins; Megatron-LM's profile leaves it to max(40M, 1M x dp) elements.
  c.dp_bucket_MB = V(40.0);
  CHECK(*ApplyFrameworkConventions(nemo, Layers(16), c, nullptr).dp_bucket_MB == V(40.0));
  const PlanConstraints megatron =
      ApplyFrameworkConventions(FindProfile(Framework::kMegatron), Layers(16), {}, nullptr);
  CHECK(!megatron.dp_bucket_MB);
}
