#include "device_info.h"

#include <cuda_runtime.h>
#include <nccl.h>

#include <ctime>
#include <fstream>
#include <sstream>

#include "cuda_check.h"

namespace paraplan::calibrate {
namespace {

// "550.54.15" from /proc/driver/nvidia/version: the first word of digits and dots after "Kernel
// Module" (the proprietary module writes "Kernel Module  550.54.15", the open one "Open Kernel
// Module for x86_64  580.159.04"); the CUDA driver API version otherwise.
bool LooksLikeVersion(const std::string& word) {
  if (word.empty() || word.find('.') == std::string::npos) return false;
  for (char c : word) {
    if ((c < '0' || c > '9') && c != '.') return false;
  }
  return true;
}

std::string DriverVersion() {
  std::ifstream in("/proc/driver/nvidia/version");
  std::string line;
  if (in && std::getline(in, line)) {
    const auto module = line.find("Kernel Module");
    if (module != std::string::npos) {
      std::istringstream words(line.substr(module + 13));
      std::string word;
      while (words >> word) {
        if (LooksLikeVersion(word)) return word;
      }
    }
  }
  int api = 0;
  if (cudaDriverGetVersion(&api) == cudaSuccess) {
    return "cuda-api-" + std::to_string(api / 1000) + "." + std::to_string((api % 1000) / 10);
  }
  return "unknown";
}

std::string Today() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[16];
  std::strftime(text, sizeof(text), "%Y-%m-%d", &utc);
  return text;
}

}  // namespace

int VisibleDeviceCount(std::string* why) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    if (why != nullptr)
      *why = std::string(cudaGetErrorName(status)) + ": " + cudaGetErrorString(status);
    return 0;
  }
  if (count == 0 && why != nullptr) *why = "the CUDA runtime reports 0 devices";
  return count;
}

Metadata DescribeDevice(int device) {
  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  int runtime = 0;
  CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
  int nccl = 0;
  if (ncclGetVersion(&nccl) != ncclSuccess) nccl = 0;
  Metadata m;
  m.gpu = prop.name;
  m.driver = DriverVersion();
  m.cuda = std::to_string(runtime / 1000) + "." + std::to_string((runtime % 1000) / 10);
  // NCCL_VERSION_CODE is major*10000 + minor*100 + patch since 2.9.
  m.nccl = std::to_string(nccl / 10000) + "." + std::to_string((nccl % 10000) / 100) + "." +
           std::to_string(nccl % 100);
  m.date = Today();
  return m;
}

int ComputeCapability(int device) {
  int major = 0, minor = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  return major * 10 + minor;
}

}  // namespace paraplan::calibrate
