// Goodput (cost/goodput.h): the checkpoint's size from the plan's sharded state, the Young/Daly
// interval, sync and async saves, restarts, and a run whose interruptions outrun its progress.
#include "cost/goodput.h"

#include <catch2/catch.hpp>
#include <cmath>

namespace paraplan {
namespace {

// 1000 GPUs at 8.64e-3 interruptions per GPU-day: one every 10,000 s. Storage: 10 GB/s a node
// (8 GPUs), 20 GB/s read, 1000 GB/s in all; no NCCL init time; a 100 s relaunch.
struct Fixture {
  ClusterReliability rel;
  ClusterStorage storage;
  GoodputInputs in;
  Fixture() {
    rel.failures_per_gpu_day = 8.64e-3;
    rel.relaunch_s = 100;
    rel.nccl_init_s_per_rank2 = 0;
    storage.write_GBps_per_node = 10;
    storage.read_GBps_per_node = 20;
    storage.aggregate_GBps = 1000;
    in.step_s = 10;
    in.gpus = 1000;
    in.checkpoint.per_gpu_bytes = 1e9;
    in.checkpoint.total_bytes = 1e12;
  }
  Goodput Run() const { return ComputeGoodput(in, rel, storage, 8); }
};

TEST_CASE("sync checkpoints at the Young/Daly interval", "[cost][goodput]") {
  const Goodput g = Fixture().Run();
  CHECK(g.mtbf_s == Approx(10000));
  CHECK(g.write_s == Approx(1.0));  // the aggregate (1 TB at 1 TB/s) over one node's 0.8 s
  CHECK(g.load_s == Approx(1.0));
  CHECK(g.stall_s == Approx(1.0));  // sync: training waits for the write
  CHECK(g.restart_s == Approx(101));
  CHECK(g.young_daly);
  // sqrt(2 x 1 x 10,000) = 141.4 s, rounded to whole 10 s steps.
  CHECK(g.interval_s == Approx(140));
  CHECK(g.lost_per_failure_s == Approx(70.5));
  const double expected = (1 - 1e-4 * (101 + 70.5)) / (1 + 1.0 / 140);
  CHECK(g.goodput == Approx(expected));
  CHECK(g.finishes);
}

TEST_CASE("async checkpoints stall only for the copy to host memory", "[cost][goodput]") {
  Fixture f;
  f.in.mode = CheckpointMode::kAsync;
  f.in.host_link_GBps = 25;
  const Goodput g = f.Run();
  CHECK(g.stall_s == Approx(0.04));   // 1 GB over 25 GB/s
  CHECK(g.write_s == Approx(1.0));    // still written, in the background
  CHECK(g.interval_s == Approx(30));  // sqrt(2 x 0.04 x 10,000) = 28.3 s -> 3 steps
  CHECK(g.lost_per_failure_s == Approx((30 + 0.04) / 2 + 1.0));  // plus the write in flight
  CHECK(g.goodput > Fixture().Run().goodput);
  f.in.host_link_GBps = 0;  // no copy path known: costed as sync
  CHECK(f.Run().stall_s == Approx(1.0));
}

TEST_CASE("a given checkpoint interval is kept, more GPUs lower goodput", "[cost][goodput]") {
  Fixture f;
  f.in.interval_s = 600;
  const Goodput given = f.Run();
  CHECK_FALSE(given.young_daly);
  CHECK(given.interval_s == Approx(600));
  CHECK(given.goodput < Fixture().Run().goodput);  // Young/Daly minimises the loss
  Fixture big;
  big.in.gpus = 16000;
  CHECK(big.Run().mtbf_s == Approx(625));
  CHECK(big.Run().goodput < Fixture().Run().goodput);
  Fixture huge;
  huge.rel.failures_per_gpu_day = 1;
  huge.in.gpus = 100000;  // an interruption every 0.86 s: the run never gets anywhere
  CHECK_FALSE(huge.Run().finishes);
  CHECK(huge.Run().goodput == 0);
}

TEST_CASE("NCCL init grows with the square of the ranks", "[cost][goodput]") {
  Fixture f;
  f.rel.nccl_init_s_per_rank2 = ClusterReliability{}.nccl_init_s_per_rank2;
  f.in.gpus = 98304;
  CHECK(f.Run().nccl_init_s == Approx(26).epsilon(1e-6));
  f.in.gpus = 16384;
  CHECK(f.Run().nccl_init_s == Approx(26.0 / 36));
}

TEST_CASE("the checkpoint is the plan's state, each replicated shard written once",
          "[cost][goodput]") {
  StepResult r;
  r.plan.tp = 2;
  r.plan.dp = 4;
  r.plan.pp = 2;
  r.plan.zero = 1;  // optimizer sharded over dp, weights replicated
  StageMemory a, b;
  a.weights_bytes = 8e9, a.optimizer_bytes = 12e9, a.grads_bytes = 99e9;  // grads not saved
  b.weights_bytes = 10e9, b.optimizer_bytes = 12e9;
  r.memory = {a, b};
  const CheckpointSize size = PlanCheckpointSize(r, 16);
  CHECK(size.per_gpu_bytes == Approx(10e9 / 4 + 12e9));
  CHECK(size.total_bytes == Approx((8e9 / 4 + 12e9 + 10e9 / 4 + 12e9) * 8));
  r.plan.zero = 0;  // both replicated: each replica writes a quarter
  CHECK(PlanCheckpointSize(r, 16).per_gpu_bytes == Approx((10e9 + 12e9) / 4));
}

}  // namespace
}  // namespace paraplan
