// Units. paraplan keeps quantities as doubles whose unit is in the name (bytes, seconds, flops,
// _GBps, _us, _GiB); these constants convert between them in one place.
#pragma once

#include <cstdint>

namespace paraplan {

inline constexpr double kKiB = 1024.0;
inline constexpr double kMiB = 1024.0 * 1024.0;
inline constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
inline constexpr double kGB = 1e9;      // bandwidths are decimal: 1 GB/s = 1e9 bytes/s
inline constexpr double kMB = 1e6;      // dp_bucket_MB is decimal, as in Megatron-LM
inline constexpr double kTera = 1e12;   // TFLOP/s
inline constexpr double kMicro = 1e-6;  // microseconds to seconds
inline constexpr double kNanosPerSecond = 1e9;
inline constexpr double kSecondsPerDay = 86400.0;

inline double BytesToGiB(double bytes) {
  return bytes / kGiB;
}
inline double GiBToBytes(double gib) {
  return gib * kGiB;
}
inline double GBpsToBytesPerSecond(double gbps) {
  return gbps * kGB;
}
inline double UsToSeconds(double us) {
  return us * kMicro;
}
inline double TflopsToFlops(double tflops) {
  return tflops * kTera;
}

}  // namespace paraplan
