// Properties of the emulated devices: the public figures of a real board
// with each target, so that programs sizing their work by them see
// plausible numbers. Nothing here changes what the emulator computes.
#include "device.hpp"

#include <algorithm>
#include <climits>
#include <cstring>

namespace dppgemm::hipemu {

namespace {

constexpr std::size_t GiB = std::size_t(1) << 30;

// What a ROCm driver reports with default settings: xnack off and sramecc on
// where the target has them ("gfx906:sramecc+:xnack-", "gfx803").
std::string default_target_id(emu::Target target) {
    emu::TargetId id;
    id.processor = target;
    id.xnack = emu::has(target, emu::Feature::xnack) ? emu::FeatureSetting::off : emu::FeatureSetting::unsupported;
    id.sramecc = emu::has(target, emu::Feature::sramecc) ? emu::FeatureSetting::on : emu::FeatureSetting::unsupported;
    return id.str();
}

void copy_name(char (&out)[256], const std::string& text) {
    std::memset(out, 0, sizeof out);
    std::strncpy(out, text.c_str(), sizeof out - 1);
}

// The figures of the target's board row (include/dppgemm/targets.def).
hipDeviceProp_t properties_of(emu::Target target, const std::string& target_id) {
    const emu::Board& board = emu::board(target);
    const std::size_t memory_bytes = std::size_t(board.memory_gib) * GiB;
    const int lds_bytes = board.lds_kib * 1024;
    hipDeviceProp_t p;
    std::memset(&p, 0, sizeof p);
    copy_name(p.name, std::string(board.device_name) + " (dppgemm-hipemu)");
    copy_name(p.gcnArchName, target_id);
    p.totalGlobalMem = memory_bytes;
    p.sharedMemPerBlock = lds_bytes;
    p.regsPerBlock = 65536;
    p.warpSize = 64;
    p.maxThreadsPerBlock = 1024;
    p.maxThreadsDim[0] = p.maxThreadsDim[1] = p.maxThreadsDim[2] = 1024;
    p.maxGridSize[0] = p.maxGridSize[1] = p.maxGridSize[2] = 0x7fffffff;
    p.clockRate = board.clock_mhz * 1000;
    p.memoryClockRate = board.memory_clock_mhz * 1000;
    p.memoryBusWidth = board.memory_bus_bits;
    p.totalConstMem = memory_bytes;
    p.major = board.gcn_arch / 100;  // 8 for gfx803, 9 for gfx9 (ROCm 5.2: minor 0 on both)
    p.minor = 0;
    p.multiProcessorCount = board.compute_units;
    p.l2CacheSize = board.l2_mib << 20;
    p.maxThreadsPerMultiProcessor = 2560;
    p.clockInstructionRate = 1000000;
    p.concurrentKernels = 1;
    p.maxSharedMemoryPerMultiProcessor = lds_bytes;
    p.canMapHostMemory = 1;  // hipHostMalloc'd and registered memory is mapped (memory.cpp)
    p.managedMemory = 1;     // hipMallocManaged: host memory kernels reach at the same address
    p.gcnArch = board.gcn_arch;
    // The capability bits ROCm 5.2 reports for every gfx9 device, each of which
    // the emulator provides (32/64-bit atomics on global and LDS memory, float
    // atomic add and exchange, doubles, wave vote, ballot and shuffle, system
    // fences, 3D grids); the ones ROCm leaves 0 stay 0.
    p.arch.hasGlobalInt32Atomics = p.arch.hasGlobalFloatAtomicExch = 1;
    p.arch.hasSharedInt32Atomics = p.arch.hasSharedFloatAtomicExch = 1;
    p.arch.hasFloatAtomicAdd = 1;
    p.arch.hasGlobalInt64Atomics = p.arch.hasSharedInt64Atomics = 1;
    p.arch.hasDoubles = 1;
    p.arch.hasWarpVote = p.arch.hasWarpBallot = p.arch.hasWarpShuffle = 1;
    p.arch.hasThreadFenceSystem = 1;
    p.arch.has3dGrid = 1;
    // hipLaunchCooperativeKernel runs with grid sync (GWS, device_config.cpp).
    p.cooperativeLaunch = 1;
    p.memPitch = memory_bytes;
    p.textureAlignment = 256;
    p.texturePitchAlignment = 256;
    return p;
}

}  // namespace

std::optional<EmulatedDevice> emulated_device(const std::string& arch) {
    const std::string base = arch.substr(0, arch.find(':'));
    const std::optional<emu::Target> target = emu::target_from_name(base);
    if (!target) return std::nullopt;
    return EmulatedDevice{*target, properties_of(*target, base == arch ? default_target_id(*target) : arch)};
}

namespace {

// Whether ROCm 5.2 answers 1 for hipDeviceAttributeCanUseStreamWaitValue:
// ROCclr (device/rocm/rocdevice.cpp, aqlBarrierValue_) sets it for gfx9.0
// steppings 0, 4, 8 and 10 only. hipStreamWaitValue32/64 work on every
// emulated target (memory.cpp); the attribute says what ROCm says.
bool rocm_uses_aql_barrier_value(emu::Target target) {
    switch (target) {
    case emu::Target::gfx900:
    case emu::Target::gfx908:
    case emu::Target::gfx90a: return true;
    default: return false;
    }
}

// The int attributes, as ROCm 5.2's hipDeviceGetAttribute (hipamd
// src/hip_device_runtime.cpp) derives them from hipDeviceProp_t and the
// device's info; nullopt for the attributes it answers with
// hipErrorInvalidValue.
std::optional<int> int_attribute(const EmulatedDevice& device, hipDeviceAttribute_t attribute) {
    const hipDeviceProp_t& p = device.properties;
    switch (attribute) {
    case hipDeviceAttributeMaxThreadsPerBlock: return p.maxThreadsPerBlock;
    case hipDeviceAttributeMaxBlockDimX: return p.maxThreadsDim[0];
    case hipDeviceAttributeMaxBlockDimY: return p.maxThreadsDim[1];
    case hipDeviceAttributeMaxBlockDimZ: return p.maxThreadsDim[2];
    case hipDeviceAttributeMaxGridDimX: return p.maxGridSize[0];
    case hipDeviceAttributeMaxGridDimY: return p.maxGridSize[1];
    case hipDeviceAttributeMaxGridDimZ: return p.maxGridSize[2];
    case hipDeviceAttributeMaxSharedMemoryPerBlock: return int(p.sharedMemPerBlock);
    // Size fields saturate at INT_MAX (ROCm truncates them to int).
    case hipDeviceAttributeTotalConstantMemory: return int(std::min<size_t>(p.totalConstMem, INT_MAX));
    case hipDeviceAttributeWarpSize: return p.warpSize;
    case hipDeviceAttributeMaxRegistersPerBlock: return p.regsPerBlock;
    case hipDeviceAttributeClockRate: return p.clockRate;
    case hipDeviceAttributeMemoryClockRate: return p.memoryClockRate;
    case hipDeviceAttributeMemoryBusWidth: return p.memoryBusWidth;
    case hipDeviceAttributeMultiprocessorCount: return p.multiProcessorCount;
    case hipDeviceAttributeComputeMode: return p.computeMode;
    case hipDeviceAttributeL2CacheSize: return p.l2CacheSize;
    case hipDeviceAttributeMaxThreadsPerMultiProcessor: return p.maxThreadsPerMultiProcessor;
    case hipDeviceAttributeComputeCapabilityMajor: return p.major;
    case hipDeviceAttributeComputeCapabilityMinor: return p.minor;
    case hipDeviceAttributePciBusId: return p.pciBusID;
    case hipDeviceAttributeConcurrentKernels: return p.concurrentKernels;
    case hipDeviceAttributePciDeviceId: return p.pciDeviceID;
    case hipDeviceAttributeMaxSharedMemoryPerMultiprocessor: return int(p.maxSharedMemoryPerMultiProcessor);
    case hipDeviceAttributeIsMultiGpuBoard: return p.isMultiGpuBoard;
    case hipDeviceAttributeCooperativeLaunch: return p.cooperativeLaunch;
    case hipDeviceAttributeImageSupport: return 1;  // arrays and texture objects: textures.cpp
    case hipDeviceAttributeCooperativeMultiDeviceLaunch: return p.cooperativeMultiDeviceLaunch;
    case hipDeviceAttributeIntegrated: return p.integrated;
    case hipDeviceAttributeMaxTexture1DWidth: return p.maxTexture1D;
    case hipDeviceAttributeMaxTexture2DWidth: return p.maxTexture2D[0];
    case hipDeviceAttributeMaxTexture2DHeight: return p.maxTexture2D[1];
    case hipDeviceAttributeMaxTexture3DWidth: return p.maxTexture3D[0];
    case hipDeviceAttributeMaxTexture3DHeight: return p.maxTexture3D[1];
    case hipDeviceAttributeMaxTexture3DDepth: return p.maxTexture3D[2];
    case hipDeviceAttributeMaxPitch: return int(std::min<size_t>(p.memPitch, INT_MAX));
    case hipDeviceAttributeTextureAlignment: return int(p.textureAlignment);
    case hipDeviceAttributeTexturePitchAlignment: return int(p.texturePitchAlignment);
    case hipDeviceAttributeKernelExecTimeout: return p.kernelExecTimeoutEnabled;
    case hipDeviceAttributeCanMapHostMemory: return p.canMapHostMemory;
    case hipDeviceAttributeEccEnabled: return p.ECCEnabled;
    case hipDeviceAttributeCooperativeMultiDeviceUnmatchedFunc: return p.cooperativeMultiDeviceUnmatchedFunc;
    case hipDeviceAttributeCooperativeMultiDeviceUnmatchedGridDim: return p.cooperativeMultiDeviceUnmatchedGridDim;
    case hipDeviceAttributeCooperativeMultiDeviceUnmatchedBlockDim: return p.cooperativeMultiDeviceUnmatchedBlockDim;
    case hipDeviceAttributeCooperativeMultiDeviceUnmatchedSharedMem: return p.cooperativeMultiDeviceUnmatchedSharedMem;
    case hipDeviceAttributeAsicRevision: return p.asicRevision;
    case hipDeviceAttributeManagedMemory: return p.managedMemory;
    case hipDeviceAttributeDirectManagedMemAccessFromHost: return p.directManagedMemAccessFromHost;
    case hipDeviceAttributeConcurrentManagedAccess: return p.concurrentManagedAccess;
    case hipDeviceAttributePageableMemoryAccess: return p.pageableMemoryAccess;
    case hipDeviceAttributePageableMemoryAccessUsesHostPageTables: return p.pageableMemoryAccessUsesHostPageTables;
    case hipDeviceAttributeCanUseStreamWaitValue: return rocm_uses_aql_barrier_value(device.target);
    // ROCm: the agent's compute units (HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT), which
    // multiProcessorCount also reports without CU masking.
    case hipDeviceAttributePhysicalMultiProcessorCount: return p.multiProcessorCount;
    // ROCm: SVM atomics on a fine-grained segment. hipHostMalloc'd memory is
    // coherent with kernels here, atomics included.
    case hipDeviceAttributeFineGrainSupport: return 1;
    // ROCm 5.2: the HIP_MEM_POOL_SUPPORT flag, off by default.
    case hipDeviceAttributeMemoryPoolsSupported: return 0;
    default: return std::nullopt;
    }
}

}  // namespace

hipError_t device_attribute(const EmulatedDevice& device, hipDeviceAttribute_t attribute, int* value) {
    switch (attribute) {
    // ROCm 5.2 writes these as pointers (unsigned int*) through the int*: the
    // HDP flush registers, which the emulated device has none of.
    case hipDeviceAttributeHdpMemFlushCntl:
    case hipDeviceAttributeHdpRegFlushCntl: {
        unsigned int* const registers = attribute == hipDeviceAttributeHdpMemFlushCntl
                                            ? device.properties.hdpMemFlushCntl
                                            : device.properties.hdpRegFlushCntl;
        std::memcpy(value, &registers, sizeof registers);
        return hipSuccess;
    }
    default: break;
    }
    const std::optional<int> answer = int_attribute(device, attribute);
    if (!answer) return hipErrorInvalidValue;
    *value = *answer;
    return hipSuccess;
}

}  // namespace dppgemm::hipemu
