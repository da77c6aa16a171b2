#include "validate/framework_conventions.h"

#include <catch2/catch.hpp>

using namespace paraplan;

namespace {

template <typename T>
std::vector<T> V(T value) {
  return {value};
}

ModelSpec Layers(int64_t layers) {
  ModelSpec m;
  m.layers = layers;
  return m;
}

}  // namespace

TEST_CASE("the framework comes from framework:, else from the source citation", "[validate]") {
  RunSpec run;
  run.source = "PyTorch torchtitan benchmark (Dec 2024)";
  CHECK(FrameworkOf(run) == Framework::kTorchtitan);
  run.source = "NVIDIA NeMo docs 'Performance Benchmarks'";
  CHECK(FrameworkOf(run) == Framework::kMegatron);
  run.source = "Narayanan et al., ... Using Megatron-LM";
  CHECK(FrameworkOf(run) == Framework::kMegatron);
  run.source = "a lab notebook";
  CHECK(FrameworkOf(run) == Framework::kUnstated);
  run.framework = Framework::kTorchtitan;
  CHECK(FrameworkOf(run) == Framework::kTorchtitan);
}

TEST_CASE("an unstated schedule is the framework default, not a searched one", "[validate]") {
  PlanConstraints c;
  c.pp = V<int64_t>(4);
  std::vector<std::string> notes;
  PlanConstraints out = ApplyFrameworkConventions(Framework::kMegatron, Layers(36), c, &notes);
  REQUIRE(out.schedule);
  CHECK(*out.schedule == V(Schedule::k1F1B));
  CHECK(*out.vpp == V<int64_t>(1));
  CHECK(notes.size() == 1);
  c.vpp = V<int64_t>(3);
  out = ApplyFrameworkConventions(Framework::kMegatron, Layers(36), c, nullptr);
  CHECK(*out.schedule == V(Schedule::kInterleaved));
  c.schedule = V(Schedule::kZeroBubble);  // stated: kept
  out = ApplyFrameworkConventions(Framework::kMegatron, Layers(36), c, nullptr);
  CHECK(*out.schedule == V(Schedule::kZeroBubble));
  out = ApplyFrameworkConventions(Framework::kUnstated, Layers(36), PlanConstraints{}, nullptr);
  CHECK(!out.schedule);
}

TEST_CASE("torchtitan: selective is per-op SAC, the local batch splits over the stages",
          "[validate]") {
  PlanConstraints c;
  c.pp = V<int64_t>(8);
  c.dp = V<int64_t>(8);
  c.global_batch = V<int64_t>(256);
  c.micro_batch = V<int64_t>(32);  // the local batch
  c.recompute = std::vector<Recompute>{Recompute::kSelective, Recompute::kFull};
  PlanConstraints out = ApplyFrameworkConventions(Framework::kTorchtitan, Layers(128), c, nullptr);
  CHECK(*out.recompute == std::vector<Recompute>{Recompute::kOp, Recompute::kFull});
  CHECK(*out.schedule == V(Schedule::k1F1B));
  CHECK(*out.micro_batch == V<int64_t>(4));  // 8 micro-batches, one per stage
  c.schedule = V(Schedule::kInterleaved);    // looped: 2 stages per rank, 16 micro-batches
  out = ApplyFrameworkConventions(Framework::kTorchtitan, Layers(128), c, nullptr);
  CHECK(*out.vpp == V<int64_t>(2));
  CHECK(*out.micro_batch == V<int64_t>(2));
  c.micro_batch = V<int64_t>(1);  // a real micro-batch is kept
  out = ApplyFrameworkConventions(Framework::kTorchtitan, Layers(128), c, nullptr);
  CHECK(*out.micro_batch == V<int64_t>(1));
  c.pp = V<int64_t>(1);  // no PP: the local batch is one forward pass
  c.micro_batch = V<int64_t>(32);
  out = ApplyFrameworkConventions(Framework::kTorchtitan, Layers(128), c, nullptr);
  CHECK(*out.micro_batch == V<int64_t>(32));
}
