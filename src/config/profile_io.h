// Loading and saving calibration profiles (the YAML that `paraplan calibrate fit` writes and a
// hardware file references with `profile: PATH`). Layout, all keys optional except as noted:
//   collectives: {<op>: {<tier>: {latency_us, bandwidth_GBps, r2, points}}}
//   gemm: {<dtype>: [{m, n, k, tflops}]}
//   attention: [{seq, heads, head_dim, causal, fwd_tflops, bwd_tflops}]
//   memory_bandwidth_GBps: <number>
//   memory_ops: {<op>: <GB/s>}   (ops of hardware/memory_ops.h; written only when measured)
//   metadata: {gpu, driver, cuda, nccl, date, ...}
#pragma once

#include <memory>
#include <string>

#include "hardware/profile.h"

namespace paraplan {

// Reads a profile file. Unknown keys, wrong types and out-of-range values throw InputError
// formatted "file:line:col: key.path: what is wrong". source_path is set to `path`.
std::shared_ptr<const CalibrationProfile> LoadCalibrationProfile(const std::string& path);

// Parses profile YAML text; `origin` names it in error messages (a path or "<string>").
std::shared_ptr<const CalibrationProfile> ParseCalibrationProfile(const std::string& text,
                                                                  const std::string& origin);

// The YAML text of a profile, deterministic (keys sorted); numbers are rounded to 6 significant
// digits, so a profile read back and written again is byte-identical.
std::string ProfileToYaml(const CalibrationProfile& profile);

// Writes ProfileToYaml(profile) to `path` atomically (temp file + rename); InputError on failure.
void SaveCalibrationProfile(const CalibrationProfile& profile, const std::string& path);

}  // namespace paraplan
