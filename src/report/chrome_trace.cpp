#include "report/chrome_trace.h"

#include <cstdlib>
#include <map>
#include <utility>

#include "core/format.h"
#include "plan/parallel_plan.h"

namespace paraplan {
namespace {

// Thread ids: the three standard streams first, any other stream after, in order of appearance.
class StreamIds {
 public:
  int64_t Id(const std::string& stream) {
    if (stream == "compute") return 0;
    if (stream == ToString(ParallelDim::kPp)) return 1;
    if (stream == ToString(ParallelDim::kDp)) return 2;
    auto it = extra_.find(stream);
    if (it != extra_.end()) return it->second;
    const int64_t id = 3 + static_cast<int64_t>(extra_.size());
    extra_.emplace(stream, id);
    return id;
  }

 private:
  std::map<std::string, int64_t> extra_;
};

std::string Quote(const std::string& text) {
  return "\"" + JsonEscape(text) + "\"";
}

std::string Metadata(const char* what, int64_t pid, int64_t tid, const std::string& name) {
  return std::string("{\"name\":\"") + what + "\",\"ph\":\"M\",\"pid\":" + std::to_string(pid) +
         ",\"tid\":" + std::to_string(tid) + ",\"args\":{\"name\":" + Quote(name) + "}}";
}

std::string SortIndex(int64_t pid) {
  return "{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":" + std::to_string(pid) +
         ",\"tid\":0,\"args\":{\"sort_index\":" + std::to_string(pid) + "}}";
}

std::string Complete(const TimelineEvent& e, int64_t tid) {
  std::string out = "{\"name\":" + Quote(e.name) + ",\"cat\":" + Quote(e.stream) +
                    ",\"ph\":\"X\",\"ts\":" + NanosToMicrosText(e.start) +
                    ",\"dur\":" + NanosToMicrosText(e.end - e.start) +
                    ",\"pid\":" + std::to_string(e.stage) + ",\"tid\":" + std::to_string(tid) +
                    ",\"args\":{";
  if (e.micro_batch >= 0) out += "\"micro_batch\":" + std::to_string(e.micro_batch) + ",";
  // A communication event: the compute its kernels' SMs cost beside it (cost/overlap_sm.h).
  if (e.sm_loss >= 0) out += "\"sm_loss_us\":" + NanosToMicrosText(e.sm_loss) + ",";
  out += "\"chunk\":" + std::to_string(e.chunk) + "}}";
  return out;
}

}  // namespace

std::string NanosToMicrosText(Nanos nanos) {
  std::string out = nanos < 0 ? "-" : "";
  const int64_t magnitude = std::llabs(nanos);
  out += std::to_string(magnitude / 1000);
  int64_t frac = magnitude % 1000;
  if (frac == 0) return out;
  std::string digits = std::to_string(frac + 1000).substr(1);  // three digits, zero-padded
  while (digits.back() == '0') digits.pop_back();
  return out + "." + digits;
}

std::string ChromeTraceJson(const std::vector<TimelineEvent>& timeline, const std::string& title) {
  StreamIds ids;
  std::map<int64_t, std::map<int64_t, std::string>> tracks;  // stage -> tid -> stream name
  for (const TimelineEvent& e : timeline) tracks[e.stage][ids.Id(e.stream)] = e.stream;
  std::string out = "{\"traceEvents\":[\n";
  bool first = true;
  auto add = [&](const std::string& event) {
    if (!first) out += ",\n";
    first = false;
    out += event;
  };
  for (const auto& [stage, threads] : tracks) {
    add(Metadata("process_name", stage, 0, "stage " + std::to_string(stage)));
    add(SortIndex(stage));
    for (const auto& [tid, stream] : threads) add(Metadata("thread_name", stage, tid, stream));
  }
  for (const TimelineEvent& e : timeline) add(Complete(e, ids.Id(e.stream)));
  out += "\n],\"displayTimeUnit\":\"ms\",\"otherData\":{\"title\":" + Quote(title) + "}}\n";
  return out;
}

}  // namespace paraplan
