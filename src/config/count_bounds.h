// PRIVATE to src/config: the upper bound of every count in a model or cluster file (the model's
// keys also bound a Hugging Face config.json and --set model.*). Each is far above any published
// model or machine and low enough that no later stage allocates or loops for long on a typo such
// as `heads: 2147483648`; docs/formats.md lists them. A value past its bound is refused at load
// with `file:line:col: key: must be at most MAX (paraplan's bound), got V`.
#pragma once

#include <cstdint>
#include <vector>

#include "config/yaml_reader.h"

namespace paraplan {

inline constexpr int64_t kMaxModelLayers = 4096;
inline constexpr int64_t kMaxHidden = int64_t{1} << 18;       // 262,144
inline constexpr int64_t kMaxHeads = int64_t{1} << 14;        // 16,384 (also kv_heads, head_dim)
inline constexpr int64_t kMaxFfnHidden = int64_t{1} << 22;    // 4,194,304 (also expert_ffn_hidden)
inline constexpr int64_t kMaxVocab = int64_t{1} << 24;        // 16,777,216
inline constexpr int64_t kMaxModelSeqLen = int64_t{1} << 24;  // 16,777,216 (also sliding_window)
inline constexpr int64_t kMaxExperts = int64_t{1} << 16;      // 65,536 (also shared_experts)
inline constexpr int64_t kMaxMtpLayers = 64;
inline constexpr int64_t kMaxLoraRank = int64_t{1} << 18;  // MLA ranks and head dims
inline constexpr int64_t kMaxTierSpan = int64_t{1} << 24;  // GPUs inside one network tier
inline constexpr int64_t kMaxNetworkTiers = 16;
inline constexpr int64_t kMaxSmCount = int64_t{1} << 16;  // streaming multiprocessors per GPU
// NCCL's MAXCHANNELS (src/include/device.h: 32 up to 2.21, 64 since): more channels than that
// NCCL cannot launch.
inline constexpr int64_t kMaxNcclChannels = 64;
// A study: GPUs per point (the CLI's -g bound) and points per study (each point a plan search).
inline constexpr int64_t kMaxStudyGpus = int64_t{1} << 20;  // 1,048,576
inline constexpr int64_t kMaxStudyPoints = 100000;
// A study's name names its output folder (./study-NAME): letters, digits, '.', '_' and '-',
// not starting with '.', at most this long.
inline constexpr size_t kMaxStudyNameLength = 100;

struct CountBound {
  const char* key;
  int64_t value;  // as read
  int64_t max;
};

// Fails at the first present key of `map` whose value is past its bound.
void CheckCounts(const YamlMap& map, const std::vector<CountBound>& bounds);

// Fails at `node` when value > max.
void CheckBound(const YamlNode& node, int64_t value, int64_t max);

}  // namespace paraplan
