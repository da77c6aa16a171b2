#include "report/chrome_trace.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>

#include "sim/pipeline_simulator.h"

using namespace paraplan;

namespace {

size_t CountText(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("NanosToMicrosText is exact", "[sim]") {
  CHECK(NanosToMicrosText(0) == "0");
  CHECK(NanosToMicrosText(1) == "0.001");
  CHECK(NanosToMicrosText(1500) == "1.5");
  CHECK(NanosToMicrosText(12000) == "12");
  CHECK(NanosToMicrosText(1234567) == "1234.567");
  CHECK(NanosToMicrosText(-20) == "-0.02");
}

TEST_CASE("ChromeTraceJson writes complete events, tracks and names", "[sim]") {
  const std::vector<TimelineEvent> timeline = {
      {0, "compute", "F3", 3, 1, 1000, 2500},
      {0, "pp", "send F3", 3, 1, 2500, 2600},
      {1, "compute", "B3", 3, 0, 4000, 6000},
      {1, "dp", "dp bucket 0", -1, 0, 6000, 7000},
  };
  const std::string json = ChromeTraceJson(timeline, "llama \"test\"");
  CHECK(json.rfind("{\"traceEvents\":[", 0) == 0);
  CHECK(CountText(json, "\"ph\":\"X\"") == 4);
  CHECK(json.find("{\"name\":\"F3\",\"cat\":\"compute\",\"ph\":\"X\",\"ts\":1,\"dur\":1.5,"
                  "\"pid\":0,\"tid\":0,\"args\":{\"micro_batch\":3,\"chunk\":1}}") !=
        std::string::npos);
  CHECK(json.find("\"name\":\"send F3\",\"cat\":\"pp\",\"ph\":\"X\",\"ts\":2.5,\"dur\":0.1,"
                  "\"pid\":0,\"tid\":1") != std::string::npos);
  CHECK(json.find("{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,"
                  "\"args\":{\"name\":\"stage 1\"}}") != std::string::npos);
  CHECK(json.find("{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":2,"
                  "\"args\":{\"name\":\"dp\"}}") != std::string::npos);
  CHECK(CountText(json, "\"process_name\"") == 2);
  CHECK(CountText(json, "\"thread_name\"") == 4);
  // A bucket has no micro-batch; the title is escaped.
  CHECK(json.find("\"args\":{\"chunk\":0}}") != std::string::npos);
  CHECK(json.find("\"title\":\"llama \\\"test\\\"\"") != std::string::npos);
  CHECK(CountText(json, "{") == CountText(json, "}"));
  CHECK(CountText(json, "[") == CountText(json, "]"));
}

TEST_CASE("ChromeTraceJson of a simulated pipeline has one track per stage and stream", "[sim]") {
  PipelineInput in;
  in.schedule = Schedule::kZeroBubble;
  in.pp = 3;
  in.micro_batches = 4;
  in.p2p = 100;
  in.record_timeline = true;
  in.stages.assign(3, StageCost{});
  for (StageCost& s : in.stages) {
    s.chunks = {ChunkCost{1000, 1000, 1000, 0}};
    s.dp_grad_comm = 500;
  }
  const PipelineResult r = SimulatePipeline(in);
  const std::string json = ChromeTraceJson(r.timeline, "zb");
  CHECK(CountText(json, "\"ph\":\"X\"") == r.timeline.size());
  CHECK(CountText(json, "\"name\":\"W3\"") == 3);
  CHECK(CountText(json, "\"process_name\"") == 3);
  CHECK(CountText(json, "\"thread_name\"") == 9);  // compute, pp and dp on each stage
  CHECK(json == ChromeTraceJson(r.timeline, "zb"));
}

TEST_CASE("each compute task carries its collectives on a stream per group and link class",
          "[sim]") {
  PipelineInput in;
  in.schedule = Schedule::k1F1B;
  in.pp = 2;
  in.micro_batches = 3;
  in.record_timeline = true;
  in.comm_streams[0] = "tp nvlink";
  in.comm_streams[3] = "zero3 scaleout";
  in.stages.assign(2, StageCost{});
  for (StageCost& s : in.stages) {
    ChunkCost c{1000, 2000, 0, 0};
    c.comm_forward[0] = 400;
    c.comm_backward[0] = 900;
    c.comm_backward[3] = 5000;  // longer than the task: drawn up to its end
    c.sm_loss_forward[0] = 25;  // the compute its SMs cost, carried as an argument
    c.sm_loss_backward[0] = 40;
    s.chunks = {c};
  }
  const PipelineResult r = SimulatePipeline(in);
  int tp = 0, zero3 = 0;
  for (const TimelineEvent& e : r.timeline) {
    if (e.stream == "compute" || e.stream == "pp" || e.stream == "dp") continue;
    // The compute task it belongs to starts when it does and does not end before it.
    const auto task = std::find_if(r.timeline.begin(), r.timeline.end(), [&](const auto& c) {
      return c.stream == "compute" && c.stage == e.stage && c.micro_batch == e.micro_batch &&
             c.start == e.start && c.name.substr(0, 1) == e.name.substr(e.name.find(' ') + 1, 1);
    });
    REQUIRE(task != r.timeline.end());
    CHECK(e.end <= task->end);
    if (e.stream == "tp nvlink") {
      ++tp;
      CHECK(e.end - e.start == (task->name[0] == 'F' ? 400 : 900));
      CHECK(e.sm_loss == (task->name[0] == 'F' ? 25 : 40));
    } else {
      CHECK(e.stream == "zero3 scaleout");
      ++zero3;
      CHECK(e.end == task->end);
    }
  }
  CHECK(tp == 2 * 3 * 2);  // every forward and backward of both stages
  CHECK(zero3 == 2 * 3);   // backwards only
  const std::string json = ChromeTraceJson(r.timeline, "1f1b");
  CHECK(CountText(json, "\"name\":\"tp nvlink\"") == 2);     // one track per stage
  CHECK(CountText(json, "\"sm_loss_us\":0.025,") == 2 * 3);  // each stage's tp forwards
  CHECK(CountText(json, "\"sm_loss_us\":0.04,") == 2 * 3);
  CHECK(CountText(json, "\"sm_loss_us\":0,") == 2 * 3);  // zero3: streams that cost none say so
  CHECK(CountText(json, "sm_loss_us") == 3 * 2 * 3);     // no compute, send or DP event has it
}
