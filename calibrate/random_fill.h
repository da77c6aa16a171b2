// Fresh random data on the device (never zeros): a counter-based hash per element, so a new seed
// gives new values without a generator state.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>

namespace paraplan::calibrate {

// Fills `count` elements of `dtype` (bf16 | fp8 | fp32) at `data` with values uniform in
// [-scale, scale), none of them zero.
void FillRandom(void* data, int64_t count, const std::string& dtype, uint32_t seed, float scale,
                cudaStream_t stream);

// Bytes per element of a dtype (bf16 2, fp8 1, fp32 4).
int64_t DtypeBytes(const std::string& dtype);

}  // namespace paraplan::calibrate
