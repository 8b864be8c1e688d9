// Properties of the emulated devices: the public figures of a real board
// with each gfx9 target, so that programs sizing their work by them see
// plausible numbers. Nothing here changes what the emulator computes.
#include "device.hpp"

#include <cstring>

namespace dppgemm::hipemu {

namespace {

struct Board {
  emu::Target target;
  const char* marketing_name;
  const char* default_target_id;  // what a ROCm driver reports with default settings
  int gcn_arch;                   // the deprecated integer hipDeviceProp_t::gcnArch
  int compute_units;
  int clock_khz;
  int memory_clock_khz;
  int memory_bus_bits;
  int l2_bytes;
  std::size_t memory_bytes;
};

constexpr std::size_t GiB = std::size_t(1) << 30;

constexpr Board kBoards[] = {
    {emu::Target::gfx900, "Radeon RX Vega 64", "gfx900:xnack-", 900, 64, 1546000, 945000, 2048, 4 << 20, 8 * GiB},
    {emu::Target::gfx906, "AMD Instinct MI50", "gfx906:sramecc+:xnack-", 906, 60, 1725000, 1000000, 4096, 4 << 20,
     16 * GiB},
    {emu::Target::gfx908, "AMD Instinct MI100", "gfx908:sramecc+:xnack-", 908, 120, 1502000, 1200000, 4096, 8 << 20,
     32 * GiB},
    {emu::Target::gfx90a, "AMD Instinct MI250X", "gfx90a:sramecc+:xnack-", 910, 110, 1700000, 1600000, 4096,
     8 << 20, 64 * GiB},
    {emu::Target::gfx940, "AMD Instinct MI300A", "gfx940:sramecc+:xnack-", 940, 228, 2100000, 1300000, 8192,
     4 << 20, 128 * GiB},
    {emu::Target::gfx942, "AMD Instinct MI300X", "gfx942:sramecc+:xnack-", 942, 304, 2100000, 1300000, 8192,
     4 << 20, 192 * GiB},
};

void copy_name(char (&out)[256], const std::string& text) {
  std::memset(out, 0, sizeof out);
  std::strncpy(out, text.c_str(), sizeof out - 1);
}

hipDeviceProp_t properties_of(const Board& board, const std::string& target_id) {
  hipDeviceProp_t p;
  std::memset(&p, 0, sizeof p);
  copy_name(p.name, std::string(board.marketing_name) + " (dppgemm-hipemu)");
  copy_name(p.gcnArchName, target_id);
  p.totalGlobalMem = board.memory_bytes;
  p.sharedMemPerBlock = 64 * 1024;
  p.regsPerBlock = 65536;
  p.warpSize = 64;
  p.maxThreadsPerBlock = 1024;
  p.maxThreadsDim[0] = p.maxThreadsDim[1] = p.maxThreadsDim[2] = 1024;
  p.maxGridSize[0] = p.maxGridSize[1] = p.maxGridSize[2] = 0x7fffffff;
  p.clockRate = board.clock_khz;
  p.memoryClockRate = board.memory_clock_khz;
  p.memoryBusWidth = board.memory_bus_bits;
  p.totalConstMem = board.memory_bytes;
  p.major = 9;
  p.minor = 0;
  p.multiProcessorCount = board.compute_units;
  p.l2CacheSize = board.l2_bytes;
  p.maxThreadsPerMultiProcessor = 2560;
  p.clockInstructionRate = 1000000;
  p.concurrentKernels = 1;
  p.maxSharedMemoryPerMultiProcessor = 64 * 1024;
  p.canMapHostMemory = 1;  // hipHostMalloc'd and registered memory is mapped (memory_more.cpp)
  p.managedMemory = 1;     // hipMallocManaged: host memory kernels reach at the same address
  p.gcnArch = board.gcn_arch;
  p.memPitch = board.memory_bytes;
  p.textureAlignment = 256;
  p.texturePitchAlignment = 256;
  return p;
}

}  // namespace

std::optional<EmulatedDevice> emulated_device(const std::string& arch) {
  const std::string base = arch.substr(0, arch.find(':'));
  for (const Board& board : kBoards)
    if (base == emu::target_name(board.target))
      return EmulatedDevice{board.target, properties_of(board, base == arch ? board.default_target_id : arch)};
  return std::nullopt;
}

std::optional<int> device_attribute(const hipDeviceProp_t& p, hipDeviceAttribute_t attribute) {
  switch (attribute) {
    case hipDeviceAttributeMaxThreadsPerBlock: return p.maxThreadsPerBlock;
    case hipDeviceAttributeMaxBlockDimX: return p.maxThreadsDim[0];
    case hipDeviceAttributeMaxBlockDimY: return p.maxThreadsDim[1];
    case hipDeviceAttributeMaxBlockDimZ: return p.maxThreadsDim[2];
    case hipDeviceAttributeMaxGridDimX: return p.maxGridSize[0];
    case hipDeviceAttributeMaxGridDimY: return p.maxGridSize[1];
    case hipDeviceAttributeMaxGridDimZ: return p.maxGridSize[2];
    case hipDeviceAttributeMaxSharedMemoryPerBlock: return int(p.sharedMemPerBlock);
    case hipDeviceAttributeMaxSharedMemoryPerMultiprocessor: return int(p.maxSharedMemoryPerMultiProcessor);
    case hipDeviceAttributeWarpSize: return p.warpSize;
    case hipDeviceAttributeMaxRegistersPerBlock: return p.regsPerBlock;
    case hipDeviceAttributeClockRate: return p.clockRate;
    case hipDeviceAttributeMemoryClockRate: return p.memoryClockRate;
    case hipDeviceAttributeMemoryBusWidth: return p.memoryBusWidth;
    case hipDeviceAttributeMultiprocessorCount: return p.multiProcessorCount;
    case hipDeviceAttributeComputeCapabilityMajor: return p.major;
    case hipDeviceAttributeComputeCapabilityMinor: return p.minor;
    case hipDeviceAttributeL2CacheSize: return p.l2CacheSize;
    case hipDeviceAttributeMaxThreadsPerMultiProcessor: return p.maxThreadsPerMultiProcessor;
    case hipDeviceAttributeComputeMode: return p.computeMode;
    case hipDeviceAttributeClockInstructionRate: return p.clockInstructionRate;
    case hipDeviceAttributeConcurrentKernels: return p.concurrentKernels;
    case hipDeviceAttributeCanMapHostMemory: return p.canMapHostMemory;
    case hipDeviceAttributeGcnArch: return p.gcnArch;
    case hipDeviceAttributeIntegrated: return p.integrated;
    case hipDeviceAttributeIsMultiGpuBoard: return p.isMultiGpuBoard;
    case hipDeviceAttributePciBusId: return p.pciBusID;
    case hipDeviceAttributePciDeviceId: return p.pciDeviceID;
    case hipDeviceAttributePciDomainID: return p.pciDomainID;
    case hipDeviceAttributeEccEnabled: return p.ECCEnabled;
    case hipDeviceAttributeManagedMemory: return p.managedMemory;
    case hipDeviceAttributeCooperativeLaunch: return p.cooperativeLaunch;
    case hipDeviceAttributeTextureAlignment: return int(p.textureAlignment);
    default: return std::nullopt;
  }
}

}  // namespace dppgemm::hipemu
