// Device configuration and kernel resource queries: occupancy,
// hipFuncGetAttributes, cache configuration, limits, device flags, and the
// cooperative launch, which occupancy limits. Nothing here changes what the
// emulator computes; the answers are what the emulated gfx9 device's
// resources give, by the model in occupancy().
#include <hip/hip_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <cstdio>

#include "guard.hpp"
#include "runtime.hpp"

using dppgemm::hipemu::record;
using dppgemm::hipemu::Runtime;

namespace {

std::atomic<int> cache_config{hipFuncCachePreferNone};
std::atomic<unsigned> device_flags{hipDeviceScheduleAuto};

// A CU's resources (AMD GCN/CDNA ISA guides, "Data Sharing" and the VGPR and
// SGPR allocation sections): 4 SIMDs of 800 SGPRs; the waves per SIMD, VGPRs
// per lane per SIMD (gfx908's AGPRs are a separate file) and LDS of the
// target's board row (include/dppgemm/targets.def).
struct CuLimits {
    unsigned simds = 4;
    unsigned waves_per_simd;
    unsigned vgprs_per_simd_lane;
    unsigned sgprs_per_simd = 800;
    unsigned lds_bytes;
};

CuLimits cu_limits(dppgemm::emu::Target target) {
    const dppgemm::emu::Board& board = dppgemm::emu::board(target);
    return CuLimits{4, unsigned(board.waves_per_simd), unsigned(board.vgprs_per_simd_lane), 800,
                    unsigned(board.lds_kib) * 1024};
}

// Workgroups of `block` work-items one CU holds at once: the least of the
// wave slots, VGPRs and SGPRs (per SIMD, a workgroup's waves spread over the
// SIMDs) and LDS.
int occupancy(const dppgemm::emu::Program& program, int block, std::size_t dynamic_lds) {
    const CuLimits cu = cu_limits(program.target);
    const dppgemm::emu::KernelDescriptor& kd = program.descriptor;
    const unsigned waves_per_block = (unsigned(block) + 63) / 64;
    unsigned waves_per_simd = cu.waves_per_simd;
    if (kd.allocated_vgprs) waves_per_simd = std::min(waves_per_simd, cu.vgprs_per_simd_lane / kd.allocated_vgprs);
    if (kd.allocated_sgprs) waves_per_simd = std::min(waves_per_simd, cu.sgprs_per_simd / kd.allocated_sgprs);
    unsigned blocks = cu.simds * waves_per_simd / waves_per_block;
    const std::size_t lds = kd.group_segment_fixed_size + dynamic_lds;
    if (lds > cu.lds_bytes) return 0;
    if (lds) blocks = std::min<unsigned>(blocks, unsigned(cu.lds_bytes / lds));
    return int(blocks);
}

unsigned max_block(const dppgemm::emu::Program& program) {
    const unsigned limit = program.metadata.max_flat_workgroup_size;
    return limit ? std::min(limit, 1024u) : 1024u;
}

hipError_t max_active_blocks(int* blocks, hipFunction_t f, int block, std::size_t dynamic_lds) {
    if (!blocks || block <= 0) return hipErrorInvalidValue;
    if (!Runtime::instance().device()) return hipErrorNoDevice;
    if (!f || !Runtime::instance().module_of(f)) return hipErrorInvalidDeviceFunction;
    if (unsigned(block) > max_block(f->program)) return hipErrorInvalidValue;
    *blocks = occupancy(f->program, block, dynamic_lds);
    return hipSuccess;
}

// The block size (a multiple of the wave size, at most `limit`) that keeps
// the most work-items resident per CU; the larger one on a tie. grid: the
// workgroups that fill every CU at that size.
hipError_t max_potential_block(int* grid, int* block, hipFunction_t f, std::size_t dynamic_lds, int limit) {
    if (!grid || !block || limit < 0) return hipErrorInvalidValue;
    const dppgemm::hipemu::EmulatedDevice* device = Runtime::instance().device();
    if (!device) return hipErrorNoDevice;
    if (!f || !Runtime::instance().module_of(f)) return hipErrorInvalidDeviceFunction;
    unsigned largest = max_block(f->program);
    if (limit > 0) largest = std::min(largest, unsigned(limit));
    int best_block = 0, best_blocks = 0;
    for (unsigned size = 64; size <= largest; size += 64) {
        const int blocks = occupancy(f->program, int(size), dynamic_lds);
        if (blocks > 0 && blocks * int(size) >= best_blocks * best_block) {
            best_block = int(size);
            best_blocks = blocks;
        }
    }
    if (best_block == 0 && largest < 64 && occupancy(f->program, int(largest), dynamic_lds) > 0) {
        best_block = int(largest);  // a limit below one wave
        best_blocks = occupancy(f->program, best_block, dynamic_lds);
    }
    *block = best_block;
    *grid = best_blocks * device->properties.multiProcessorCount;
    return hipSuccess;
}

hipError_t function_of(const void* stub, hipFunction_t* out) {
    if (!stub) return hipErrorInvalidDeviceFunction;
    return dppgemm::hipemu::function_of_stub(stub, out);
}

}  // namespace

extern "C" {

hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, const void* f, int blockSize,
                                                        size_t dynSharedMemPerBlk) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        hipFunction_t function = nullptr;
        if (hipError_t e = function_of(f, &function); e != hipSuccess) return record(e);
        return record(max_active_blocks(numBlocks, function, blockSize, dynSharedMemPerBlk));
    });
}

hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* numBlocks, const void* f, int blockSize,
                                                                 size_t dynSharedMemPerBlk, unsigned int flags) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (flags != hipOccupancyDefault) return record(hipErrorInvalidValue);
        return hipOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, f, blockSize, dynSharedMemPerBlk);
    });
}

hipError_t hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, hipFunction_t f, int blockSize,
                                                              size_t dynSharedMemPerBlk) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        return record(max_active_blocks(numBlocks, f, blockSize, dynSharedMemPerBlk));
    });
}

hipError_t hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* numBlocks, hipFunction_t f, int blockSize,
                                                                       size_t dynSharedMemPerBlk, unsigned int flags) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (flags != hipOccupancyDefault) return record(hipErrorInvalidValue);
        return record(max_active_blocks(numBlocks, f, blockSize, dynSharedMemPerBlk));
    });
}

hipError_t hipOccupancyMaxPotentialBlockSize(int* gridSize, int* blockSize, const void* f, size_t dynSharedMemPerBlk,
                                             int blockSizeLimit) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        hipFunction_t function = nullptr;
        if (hipError_t e = function_of(f, &function); e != hipSuccess) return record(e);
        return record(max_potential_block(gridSize, blockSize, function, dynSharedMemPerBlk, blockSizeLimit));
    });
}

hipError_t hipModuleOccupancyMaxPotentialBlockSize(int* gridSize, int* blockSize, hipFunction_t f,
                                                   size_t dynSharedMemPerBlk, int blockSizeLimit) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        return record(max_potential_block(gridSize, blockSize, f, dynSharedMemPerBlk, blockSizeLimit));
    });
}

hipError_t hipModuleOccupancyMaxPotentialBlockSizeWithFlags(int* gridSize, int* blockSize, hipFunction_t f,
                                                            size_t dynSharedMemPerBlk, int blockSizeLimit,
                                                            unsigned int flags) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (flags != hipOccupancyDefault) return record(hipErrorInvalidValue);
        return record(max_potential_block(gridSize, blockSize, f, dynSharedMemPerBlk, blockSizeLimit));
    });
}

hipError_t hipFuncGetAttributes(hipFuncAttributes* attr, const void* func) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!attr) return record(hipErrorInvalidValue);
        hipFunction_t f = nullptr;
        if (hipError_t e = function_of(func, &f); e != hipSuccess) return record(e);
        const dppgemm::emu::Program& p = f->program;
        *attr = hipFuncAttributes{};
        attr->binaryVersion = attr->ptxVersion = 90;  // the device's major * 10 + minor
        attr->localSizeBytes = p.descriptor.private_segment_fixed_size;
        attr->sharedSizeBytes = p.descriptor.group_segment_fixed_size;
        attr->maxDynamicSharedSizeBytes = int(cu_limits(p.target).lds_bytes - p.descriptor.group_segment_fixed_size);
        attr->maxThreadsPerBlock = int(max_block(p));
        attr->numRegs = int(p.descriptor.allocated_vgprs);
        return hipSuccess;
    });
}

hipError_t hipFuncGetAttribute(int* value, hipFunction_attribute attrib, hipFunction_t hfunc) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!value) return record(hipErrorInvalidValue);
        if (!hfunc || !Runtime::instance().module_of(hfunc)) return record(hipErrorInvalidHandle);
        const dppgemm::emu::Program& p = hfunc->program;
        switch (attrib) {
        case HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *value = int(max_block(p)); break;
        case HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *value = int(p.descriptor.group_segment_fixed_size); break;
        case HIP_FUNC_ATTRIBUTE_CONST_SIZE_BYTES: *value = 0; break;
        case HIP_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: *value = int(p.descriptor.private_segment_fixed_size); break;
        case HIP_FUNC_ATTRIBUTE_NUM_REGS: *value = int(p.descriptor.allocated_vgprs); break;
        case HIP_FUNC_ATTRIBUTE_PTX_VERSION:
        case HIP_FUNC_ATTRIBUTE_BINARY_VERSION: *value = 90; break;
        case HIP_FUNC_ATTRIBUTE_CACHE_MODE_CA: *value = 0; break;
        case HIP_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
            *value = int(cu_limits(p.target).lds_bytes - p.descriptor.group_segment_fixed_size);
            break;
        case HIP_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: *value = 0; break;
        default: return record(hipErrorInvalidValue);
        }
        return hipSuccess;
    });
}

// The cache configuration is a preference the emulator has no cache to apply
// to: it is kept and reported back.
hipError_t hipDeviceSetCacheConfig(hipFuncCache_t cacheConfig) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (cacheConfig < hipFuncCachePreferNone || cacheConfig > hipFuncCachePreferEqual)
            return record(hipErrorInvalidValue);
        if (!Runtime::instance().device()) return record(hipErrorNoDevice);
        cache_config = cacheConfig;
        return hipSuccess;
    });
}

hipError_t hipDeviceGetCacheConfig(hipFuncCache_t* cacheConfig) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!cacheConfig) return record(hipErrorInvalidValue);
        if (!Runtime::instance().device()) return record(hipErrorNoDevice);
        *cacheConfig = static_cast<hipFuncCache_t>(cache_config.load());
        return hipSuccess;
    });
}

hipError_t hipFuncSetCacheConfig(const void* func, hipFuncCache_t config) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (config < hipFuncCachePreferNone || config > hipFuncCachePreferEqual) return record(hipErrorInvalidValue);
        hipFunction_t f = nullptr;
        return record(function_of(func, &f));
    });
}

// ROCm 5.2 knows hipLimitPrintfFifoSize and hipLimitMallocHeapSize and
// reports only the heap. Device malloc is not provided here: its heap is 0.
hipError_t hipDeviceGetLimit(size_t* pValue, enum hipLimit_t limit) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!pValue) return record(hipErrorInvalidValue);
        if (!Runtime::instance().device()) return record(hipErrorNoDevice);
        if (limit != hipLimitMallocHeapSize) return record(hipErrorUnsupportedLimit);
        *pValue = 0;
        return hipSuccess;
    });
}

// Scheduling flags say how the host waits for the device; here it never
// waits (work runs when enqueued). They are checked and kept.
hipError_t hipSetDeviceFlags(unsigned flags) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        const unsigned schedule = flags & hipDeviceScheduleMask;
        const bool known_schedule = schedule == hipDeviceScheduleAuto || schedule == hipDeviceScheduleSpin ||
                                    schedule == hipDeviceScheduleYield || schedule == hipDeviceScheduleBlockingSync;
        if (!known_schedule || (flags & ~(hipDeviceScheduleMask | hipDeviceMapHost | hipDeviceLmemResizeToMax)))
            return record(hipErrorInvalidValue);
        if (!Runtime::instance().device()) return record(hipErrorNoDevice);
        device_flags = flags;
        return hipSuccess;
    });
}

hipError_t hipGetDeviceFlags(unsigned int* flags) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!flags) return record(hipErrorInvalidValue);
        if (!Runtime::instance().device()) return record(hipErrorNoDevice);
        *flags = device_flags;
        return hipSuccess;
    });
}

// ---- one device: peers, PCI identity, choosing ----

// A device is never its own peer (as on ROCm and CUDA), and there is no other.
hipError_t hipDeviceCanAccessPeer(int* canAccessPeer, int deviceId, int peerDeviceId) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!canAccessPeer) return record(hipErrorInvalidValue);
        if (hipError_t e = Runtime::instance().check_device(deviceId); e != hipSuccess) return record(e);
        if (hipError_t e = Runtime::instance().check_device(peerDeviceId); e != hipSuccess) return record(e);
        *canAccessPeer = 0;
        return hipSuccess;
    });
}
hipError_t hipDeviceEnablePeerAccess(int peerDeviceId, unsigned int flags) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (flags != 0) return record(hipErrorInvalidValue);
        if (hipError_t e = Runtime::instance().check_device(peerDeviceId); e != hipSuccess) return record(e);
        return record(hipErrorInvalidDevice);  // the one device is not its own peer
    });
}
hipError_t hipDeviceDisablePeerAccess(int peerDeviceId) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (hipError_t e = Runtime::instance().check_device(peerDeviceId); e != hipSuccess) return record(e);
        return record(hipErrorPeerAccessNotEnabled);
    });
}
// "domain:bus:device.function" in hex, as ROCm prints it: 0000:03:00.0.
hipError_t hipDeviceGetPCIBusId(char* pciBusId, int len, int device) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!pciBusId || len <= 0) return record(hipErrorInvalidValue);
        if (hipError_t e = Runtime::instance().check_device(device); e != hipSuccess) return record(e);
        const hipDeviceProp_t& p = Runtime::instance().device()->properties;
        std::snprintf(pciBusId, size_t(len), "%04x:%02x:%02x.0", unsigned(p.pciDomainID), unsigned(p.pciBusID),
                      unsigned(p.pciDeviceID));
        return hipSuccess;
    });
}
hipError_t hipDeviceGetByPCIBusId(int* device, const char* pciBusId) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!device || !pciBusId) return record(hipErrorInvalidValue);
        if (!Runtime::instance().device()) return record(hipErrorNoDevice);
        unsigned domain = 0, bus = 0, slot = 0, function = 0;
        if (std::sscanf(pciBusId, "%x:%x:%x.%x", &domain, &bus, &slot, &function) != 4)
            return record(hipErrorInvalidValue);
        const hipDeviceProp_t& p = Runtime::instance().device()->properties;
        if (domain != unsigned(p.pciDomainID) || bus != unsigned(p.pciBusID) || slot != unsigned(p.pciDeviceID))
            return record(hipErrorInvalidDevice);
        *device = 0;
        return hipSuccess;
    });
}
hipError_t hipChooseDevice(int* device, const hipDeviceProp_t* prop) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!device || !prop) return record(hipErrorInvalidValue);
        if (!Runtime::instance().device()) return record(hipErrorNoDevice);
        *device = 0;
        return hipSuccess;
    });
}

// ---- stream priorities and flags ----

// ---- function and shared-memory configuration: checked, nothing to apply ----

// The dynamic LDS a launch may ask for is checked at launch against the
// CU's 64 KiB; the attribute is accepted within that (ROCm 5.2 keeps no
// attributes either).
hipError_t hipFuncSetAttribute(const void* func, hipFuncAttribute attr, int value) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        hipFunction_t f = nullptr;
        if (hipError_t e = function_of(func, &f); e != hipSuccess) return record(e);
        if (attr == hipFuncAttributeMaxDynamicSharedMemorySize) {
            const unsigned lds = cu_limits(f->program.target).lds_bytes;
            if (value < 0 || unsigned(value) > lds - f->program.descriptor.group_segment_fixed_size)
                return record(hipErrorInvalidValue);
            return hipSuccess;
        }
        if (attr == hipFuncAttributePreferredSharedMemoryCarveout)
            return value >= -1 && value <= 100 ? hipSuccess : record(hipErrorInvalidValue);
        return record(hipErrorInvalidValue);
    });
}
hipError_t hipFuncSetSharedMemConfig(const void* func, hipSharedMemConfig config) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (config < hipSharedMemBankSizeDefault || config > hipSharedMemBankSizeEightByte)
            return record(hipErrorInvalidValue);
        hipFunction_t f = nullptr;
        return record(function_of(func, &f));
    });
}
hipError_t hipDeviceSetSharedMemConfig(hipSharedMemConfig config) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (config < hipSharedMemBankSizeDefault || config > hipSharedMemBankSizeEightByte)
            return record(hipErrorInvalidValue);
        if (!Runtime::instance().device()) return record(hipErrorNoDevice);
        return hipSuccess;
    });
}
// LDS banks are 4 bytes wide on every gfx9 target.
hipError_t hipDeviceGetSharedMemConfig(hipSharedMemConfig* pConfig) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!pConfig) return record(hipErrorInvalidValue);
        if (!Runtime::instance().device()) return record(hipErrorNoDevice);
        *pConfig = hipSharedMemBankSizeFourByte;
        return hipSuccess;
    });
}

// ---- cooperative launches ----

// A cooperative launch: its grid must fit on the device at once (occupancy x
// CUs), as ROCm requires; the emulator then keeps every workgroup resident
// and gives the dispatch its GWS resources, so grid_group::sync()
// (ds_gws_barrier) works (emu/exec/dispatch.hpp, LaunchConfig::cooperative).
hipError_t hipLaunchCooperativeKernel(const void* f, dim3 gridDim, dim3 blockDimX, void** kernelParams,
                                      unsigned int sharedMemBytes, hipStream_t stream) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        hipFunction_t function = nullptr;
        if (hipError_t e = function_of(f, &function); e != hipSuccess) return record(e);
        const unsigned long long block = 1ull * blockDimX.x * blockDimX.y * blockDimX.z;
        int per_cu = 0;
        if (block == 0 || block > 1024 ||
            max_active_blocks(&per_cu, function, int(block), sharedMemBytes) != hipSuccess)
            return record(hipErrorInvalidValue);
        const unsigned long long grid = 1ull * gridDim.x * gridDim.y * gridDim.z;
        const unsigned long long resident =
            1ull * unsigned(per_cu) * unsigned(Runtime::instance().device()->properties.multiProcessorCount);
        if (grid > resident) {
            std::fprintf(
                stderr, "hipemu: hipLaunchCooperativeKernel: %llu workgroups, at most %llu fit on the device at once\n",
                grid, resident);
            return record(hipErrorCooperativeLaunchTooLarge);
        }
        if (sharedMemBytes > 0xffffffffu) return record(hipErrorInvalidValue);
        return record(Runtime::instance().launch({function,
                                                  {gridDim.x, gridDim.y, gridDim.z},
                                                  {blockDimX.x, blockDimX.y, blockDimX.z},
                                                  sharedMemBytes,
                                                  stream,
                                                  kernelParams,
                                                  nullptr},
                                                 true));
    });
}

}  // extern "C"
