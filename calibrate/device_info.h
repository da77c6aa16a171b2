// What the measurements were taken on: GPU, driver, CUDA, NCCL, date; and whether a GPU exists.
#pragma once

#include <string>

#include "csv_writer.h"

namespace paraplan::calibrate {

// The number of visible CUDA devices; 0 when there is none or no driver (never throws).
int VisibleDeviceCount(std::string* why);

// Metadata of `device` for the CSV (date in UTC, YYYY-MM-DD).
Metadata DescribeDevice(int device);

// Compute capability as major*10 + minor (90 for H100).
int ComputeCapability(int device);

}  // namespace paraplan::calibrate
