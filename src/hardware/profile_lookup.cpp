#include "hardware/profile_lookup.h"

#include <algorithm>
#include <array>
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

// Lookups already answered, by (kind, m, n, k): a few hundred distinct shapes per search. Sharded
// so that the search's threads rarely wait on one another.
class ProfileLookupMemo {
 public:
  struct Key {
    int64_t kind, a, b, c;
    bool operator==(const Key& o) const {
      return kind == o.kind && a == o.a && b == o.b && c == o.c;
    }
  };

  template <typename Compute>
  double Get(const Key& key, Compute compute) {
    Shard& shard = shards_[Hash{}(key) % kShards];
    {
      const std::lock_guard<std::mutex> lock(shard.mutex);
      const auto it = shard.values.find(key);
      if (it != shard.values.end()) return it->second;
    }
    const double value = compute();  // pure: two threads computing it agree
    const std::lock_guard<std::mutex> lock(shard.mutex);
    shard.values.emplace(key, value);
    return value;
  }

 private:
  struct Hash {
    size_t operator()(const Key& k) const {
      uint64_t h = 1469598103934665603ULL;
      for (const int64_t v : {k.kind, k.a, k.b, k.c}) {
        h = (h ^ static_cast<uint64_t>(v)) * 1099511628211ULL;
        h ^= h >> 29;
      }
      return static_cast<size_t>(h);
    }
  };
  struct Shard {
    std::mutex mutex;
    std::unordered_map<Key, double, Hash> values;
  };
  static constexpr size_t kShards = 16;
  std::array<Shard, kShards> shards_;
};

namespace {

// The memo of each profile WithLookupMemo handed out, by address; an entry lives exactly as long
// as its profile (the shared_ptr's deleter removes it), so an address reused later finds none.
class MemoRegistry {
 public:
  static MemoRegistry& Get() {
    static MemoRegistry registry;
    return registry;
  }
  void Add(const CalibrationProfile* p) {
    const std::unique_lock<std::shared_mutex> lock(mutex_);
    memos_[p] = std::make_unique<ProfileLookupMemo>();
  }
  void Remove(const CalibrationProfile* p) {
    const std::unique_lock<std::shared_mutex> lock(mutex_);
    memos_.erase(p);
  }
  ProfileLookupMemo* Find(const CalibrationProfile* p) const {
    const std::shared_lock<std::shared_mutex> lock(mutex_);
    const auto it = memos_.find(p);
    return it == memos_.end() ? nullptr : it->second.get();
  }

 private:
  mutable std::shared_mutex mutex_;
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
  ProfileLookupMemo* memo = MemoRegistry::Get().Find(&profile);
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
  ProfileLookupMemo* memo = MemoRegistry::Get().Find(&profile);
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
