#include "hardware/profile_lookup.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/error.h"
#include "hardware/collective_cost.h"

namespace paraplan {

// Lookups already answered, by (kind, m, n, k): a few hundred distinct shapes per search. Each
// thread keeps its own table (the values are pure, so every thread finds the same ones), keyed by
// the memo's id, which is never reused: the search's threads share no lock and no cache line
// per lookup (with one shared table behind mutexes, two threads made a calibrated search 4x the
// CPU of a plain one). A table past kMaxThreadEntries starts over.
class ProfileLookupMemo {
 public:
  struct Key {
    int64_t kind, a, b, c;
  };

  ProfileLookupMemo() : id_(NextId()) {}

  template <typename Compute>
  double Get(const Key& key, Compute compute) const {
    thread_local std::unordered_map<ThreadKey, double, Hash> values;
    const ThreadKey at{id_, key.kind, key.a, key.b, key.c};
    const auto it = values.find(at);
    if (it != values.end()) return it->second;
    const double value = compute();
    if (values.size() >= kMaxThreadEntries) values.clear();
    values.emplace(at, value);
    return value;
  }

 private:
  struct ThreadKey {
    uint64_t memo;
    int64_t kind, a, b, c;
    bool operator==(const ThreadKey& o) const {
      return memo == o.memo && kind == o.kind && a == o.a && b == o.b && c == o.c;
    }
  };
  struct Hash {
    size_t operator()(const ThreadKey& k) const {
      uint64_t h = 1469598103934665603ULL;
      for (const uint64_t v : {k.memo, static_cast<uint64_t>(k.kind), static_cast<uint64_t>(k.a),
                               static_cast<uint64_t>(k.b), static_cast<uint64_t>(k.c)}) {
        h = (h ^ v) * 1099511628211ULL;
        h ^= h >> 29;
      }
      return static_cast<size_t>(h);
    }
  };
  static uint64_t NextId() {
    static std::atomic<uint64_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
  }
  static constexpr size_t kMaxThreadEntries = size_t{1} << 16;
  uint64_t id_;
};

namespace {

// The memo of each profile WithLookupMemo handed out, by address; an entry lives exactly as long
// as its profile (the shared_ptr's deleter removes it), so an address reused later finds none.
// Each thread remembers its last answer and keeps it while the registry's generation (bumped by
// every Add and Remove) stands, so a lookup takes no lock in a search.
class MemoRegistry {
 public:
  static MemoRegistry& Get() {
    static MemoRegistry registry;
    return registry;
  }
  void Add(const CalibrationProfile* p) {
    const std::unique_lock<std::shared_mutex> lock(mutex_);
    memos_[p] = std::make_unique<ProfileLookupMemo>();
    generation_.fetch_add(1, std::memory_order_release);
  }
  void Remove(const CalibrationProfile* p) {
    const std::unique_lock<std::shared_mutex> lock(mutex_);
    memos_.erase(p);
    generation_.fetch_add(1, std::memory_order_release);
  }
  const ProfileLookupMemo* Find(const CalibrationProfile* p) const {
    struct Last {
      const CalibrationProfile* profile = nullptr;
      uint64_t generation = 0;
      const ProfileLookupMemo* memo = nullptr;
    };
    thread_local Last last;
    const uint64_t generation = generation_.load(std::memory_order_acquire);
    if (last.profile == p && last.generation == generation) return last.memo;
    const std::shared_lock<std::shared_mutex> lock(mutex_);
    const auto it = memos_.find(p);
    last = {p, generation, it == memos_.end() ? nullptr : it->second.get()};
    return last.memo;
  }

 private:
  mutable std::shared_mutex mutex_;
  std::atomic<uint64_t> generation_{1};
  std::map<const CalibrationProfile*, std::unique_ptr<ProfileLookupMemo>> memos_;
};

constexpr size_t kNeighbours = 4;

// The memo's kind of a GEMM dtype (attention is 0 and 1); -1 for a name not memoized.
int64_t GemmKind(std::string_view dtype) {
  if (dtype == "bf16") return 2;
  if (dtype == "fp16") return 3;
  if (dtype == "fp8") return 4;
  return -1;
}

using LogPoint = std::array<double, 3>;

LogPoint LogOf(int64_t a, int64_t b, int64_t c) {
  return {std::log(static_cast<double>(a)), std::log(static_cast<double>(b)),
          std::log(static_cast<double>(c))};
}

// Inverse-distance weighting, power 2 (Shepard 1968), over the kNeighbours nearest points in log
// space; an exact match returns its value. Points whose value is not positive are skipped.
// `coords(p)` gives a point's log coordinates, `value(p)` its measurement. Sorting by (distance,
// index) keeps ties in table order, so the result is deterministic. Returns 0 when nothing is
// usable.
template <typename Point, typename Coords, typename Value>
double InverseDistanceWeighted(const std::vector<Point>& points, const LogPoint& at, Coords coords,
                               Value value) {
  std::vector<std::pair<double, size_t>> nearest;
  for (size_t i = 0; i < points.size(); ++i) {
    if (value(points[i]) <= 0) continue;
    const LogPoint c = coords(points[i]);
    const double d0 = c[0] - at[0], d1 = c[1] - at[1], d2 = c[2] - at[2];
    const double distance = std::sqrt(d0 * d0 + d1 * d1 + d2 * d2);
    if (distance == 0) return value(points[i]);
    nearest.emplace_back(distance, i);
  }
  if (nearest.empty()) return 0;
  std::sort(nearest.begin(), nearest.end());
  nearest.resize(std::min(nearest.size(), kNeighbours));
  double weighted = 0, total_weight = 0;
  for (const auto& [distance, index] : nearest) {
    const double weight = 1.0 / (distance * distance);
    weighted += weight * value(points[index]);
    total_weight += weight;
  }
  return weighted / total_weight;
}

}  // namespace

double ProfileGemmTflops(const CalibrationProfile& profile, std::string_view dtype, int64_t m,
                         int64_t n, int64_t k, bool* found) {
  if (found != nullptr) *found = false;
  const auto it = profile.gemm.find(dtype);
  if (it == profile.gemm.end() || it->second.empty() || m < 1 || n < 1 || k < 1) return 0;
  auto compute = [&] {
    return InverseDistanceWeighted(
        it->second, LogOf(m, n, k), [](const GemmPoint& p) { return LogOf(p.m, p.n, p.k); },
        [](const GemmPoint& p) { return p.tflops; });
  };
  const ProfileLookupMemo* memo = MemoRegistry::Get().Find(&profile);
  const int64_t kind = GemmKind(dtype);
  const double tflops =
      memo != nullptr && kind >= 0 ? memo->Get({kind, m, n, k}, compute) : compute();
  if (found != nullptr) *found = tflops > 0;
  return tflops;
}

double ProfileAttentionTflops(const CalibrationProfile& profile, int64_t seq, int64_t heads,
                              int64_t head_dim, bool backward, bool* found) {
  if (found != nullptr) *found = false;
  if (profile.attention.empty() || seq < 1 || heads < 1 || head_dim < 1) return 0;
  auto compute = [&] {
    return InverseDistanceWeighted(
        profile.attention, LogOf(seq, heads, head_dim),
        [](const AttentionPoint& p) { return LogOf(p.seq, p.heads, p.head_dim); },
        [backward](const AttentionPoint& p) { return backward ? p.bwd_tflops : p.fwd_tflops; });
  };
  const ProfileLookupMemo* memo = MemoRegistry::Get().Find(&profile);
  const double tflops =
      memo != nullptr ? memo->Get({backward ? 1 : 0, seq, heads, head_dim}, compute) : compute();
  if (found != nullptr) *found = tflops > 0;
  return tflops;
}

std::shared_ptr<const CalibrationProfile> WithLookupMemo(const CalibrationProfile& profile) {
  auto* copy = new CalibrationProfile(profile);
  MemoRegistry::Get().Add(copy);
  return std::shared_ptr<const CalibrationProfile>(copy, [](const CalibrationProfile* p) {
    MemoRegistry::Get().Remove(p);
    delete p;
  });
}

bool ProfileCollective(const CalibrationProfile& profile, const std::string& op,
                       const std::string& tier, CollectiveFit* out) {
  const auto op_it = profile.collectives.find(op);
  if (op_it == profile.collectives.end()) return false;
  const auto tier_it = op_it->second.find(tier);
  if (tier_it == op_it->second.end()) return false;
  if (out != nullptr) *out = tier_it->second;
  return true;
}

double CollectiveTimeUs(const CollectiveFit& fit, double bus_bytes) {
  // bandwidth_GBps · 1e3 = bytes per µs.
  return fit.latency_us + bus_bytes / (fit.bandwidth_GBps * 1e3);
}

double MeasuredCollectiveUs(const CollectiveFit& fit, CollectiveOp op, double bytes,
                            int64_t ranks) {
  if (bytes <= 0 || (op != CollectiveOp::kSendRecv && ranks < 2)) return 0;
  const int64_t measured_ranks = fit.ranks >= 2 ? fit.ranks : ranks;
  const double steps_here = LatencySteps(op, ranks), steps_there = LatencySteps(op, measured_ranks);
  const double latency_scale = steps_there > 0 ? steps_here / steps_there : 1.0;
  const double extra_latency_us = fit.latency_us * (latency_scale - 1.0);
  const double x = bytes * BusFactor(op, ranks);
  const double measured_factor = BusFactor(op, measured_ranks);
  const std::vector<CollectivePoint>& c = fit.curve;
  if (c.size() >= 2 && measured_factor > 0) {
    const double lo = static_cast<double>(c.front().bytes) * measured_factor;
    const double hi = static_cast<double>(c.back().bytes) * measured_factor;
    if (x >= lo && x <= hi) {
      size_t i = 1;
      while (i + 1 < c.size() && static_cast<double>(c[i].bytes) * measured_factor < x) ++i;
      const double x0 = std::log(static_cast<double>(c[i - 1].bytes) * measured_factor);
      const double x1 = std::log(static_cast<double>(c[i].bytes) * measured_factor);
      const double y0 = std::log(c[i - 1].time_us), y1 = std::log(c[i].time_us);
      const double w = x1 > x0 ? (std::log(x) - x0) / (x1 - x0) : 0.0;
      const double measured_us = std::exp(y0 + w * (y1 - y0));
      // Fewer ranks than measured: never below the scaled latency alone.
      return std::max(measured_us + extra_latency_us, fit.latency_us * latency_scale);
    }
  }
  return fit.latency_us * latency_scale + x / (fit.bandwidth_GBps * 1e3);
}

double BusBandwidthFactor(const std::string& op, int ranks) {
  std::vector<std::string> valid;
  for (const auto& [name, value] : CollectiveOpNames()) {
    if (op == name) return ranks < 2 ? 1.0 : BusFactor(value, ranks);
    valid.emplace_back(name);
  }
  std::sort(valid.begin(), valid.end());
  std::string list;
  for (const std::string& name : valid) list += (list.empty() ? "" : ", ") + name;
  throw InputError("unknown collective '" + op + "' (valid: " + list + ")");
}

}  // namespace paraplan
