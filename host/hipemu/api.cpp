// The HIP runtime entry points of libdppgemm-hipemu, with the signatures of
// ROCm 5.2's hip_runtime_api.h. Each checks its arguments, hands the work to
// the Runtime and records a failure for hipGetLastError.
#include <hip/hip_runtime_api.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <utility>

#include "guard.hpp"
#include "runtime.hpp"

namespace dppgemm::hipemu {

thread_local hipError_t last_error = hipSuccess;

// Only failures are remembered, as hipGetLastError documents ("the last
// error returned by any HIP runtime API call"), so a later success does not
// hide one.
hipError_t record(hipError_t error) {
    if (error != hipSuccess) last_error = error;
    return error;
}

}  // namespace dppgemm::hipemu

using dppgemm::hipemu::last_error;
using dppgemm::hipemu::record;
using dppgemm::hipemu::Runtime;

namespace {

Runtime& runtime() { return Runtime::instance(); }

const hipDeviceProp_t* properties(int device) {
    return runtime().check_device(device) == hipSuccess ? &runtime().device()->properties : nullptr;
}

// A synchronous operation first reports what an earlier launch left behind.
hipError_t synchronize() { return runtime().take_pending_fault(); }

hipError_t copy_synchronously(void* dst, const void* src, size_t bytes, hipMemcpyKind kind) {
    if (hipError_t e = synchronize(); e != hipSuccess) return e;
    return runtime().copy(dst, src, bytes, kind);
}

hipError_t copy_on_stream(void* dst, const void* src, size_t bytes, hipMemcpyKind kind, hipStream_t stream) {
    if (hipError_t e = runtime().check_stream(stream); e != hipSuccess) return e;
    if (dppgemm::hipemu::capture(stream, [=] { return runtime().copy(dst, src, bytes, kind); })) return hipSuccess;
    return runtime().copy(dst, src, bytes, kind);
}

// A fill on a stream: now, or as a node of the graph the stream is capturing.
hipError_t fill_on_stream(void* dst, std::uint32_t pattern, std::size_t pattern_bytes, std::size_t count,
                          hipStream_t stream) {
    if (hipError_t e = runtime().check_stream(stream); e != hipSuccess) return e;
    if (dppgemm::hipemu::capture(stream, [=] { return runtime().fill(dst, pattern, pattern_bytes, count); }))
        return hipSuccess;
    return runtime().fill(dst, pattern, pattern_bytes, count);
}

// hipHostMalloc'd blocks: host memory kernels reach at the same address
// (mapped), with the flags they were allocated with (hipHostGetFlags).
std::mutex host_blocks_mutex;
std::map<void*, unsigned> host_blocks;

}  // namespace

namespace dppgemm::hipemu {

bool host_block_flags(const void* pointer, unsigned* flags) {
    std::lock_guard<std::mutex> lock(host_blocks_mutex);
    auto it = host_blocks.find(const_cast<void*>(pointer));
    if (it == host_blocks.end()) return false;
    *flags = it->second;
    return true;
}

}  // namespace dppgemm::hipemu

extern "C" {

hipError_t hipGetLastError(void) { return std::exchange(last_error, hipSuccess); }
hipError_t hipPeekAtLastError(void) { return last_error; }

hipError_t hipInit(unsigned int flags) {
    return dppgemm::hipemu::guarded(__func__,
                                    [&]() -> hipError_t { return record(flags ? hipErrorInvalidValue : hipSuccess); });
}

hipError_t hipDriverGetVersion(int* version) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!version) return record(hipErrorInvalidValue);
        *version = HIP_VERSION;
        return hipSuccess;
    });
}

hipError_t hipRuntimeGetVersion(int* version) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t { return hipDriverGetVersion(version); });
}

hipError_t hipGetDeviceCount(int* count) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!count) return record(hipErrorInvalidValue);
        *count = runtime().device() ? 1 : 0;
        return record(runtime().device() ? hipSuccess : hipErrorNoDevice);
    });
}

hipError_t hipGetDevice(int* device) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!device) return record(hipErrorInvalidValue);
        *device = 0;
        return record(runtime().check_device(0));
    });
}

hipError_t hipSetDevice(int device) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t { return record(runtime().check_device(device)); });
}

hipError_t hipDeviceGet(hipDevice_t* device, int ordinal) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!device) return record(hipErrorInvalidValue);
        if (hipError_t e = runtime().check_device(ordinal); e != hipSuccess) return record(e);
        *device = ordinal;
        return hipSuccess;
    });
}

hipError_t hipGetDeviceProperties(hipDeviceProp_t* props, int device) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!props) return record(hipErrorInvalidValue);
        if (hipError_t e = runtime().check_device(device); e != hipSuccess) return record(e);
        *props = *properties(device);
        return hipSuccess;
    });
}

hipError_t hipDeviceGetName(char* name, int length, hipDevice_t device) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!name || length <= 0) return record(hipErrorInvalidValue);
        if (hipError_t e = runtime().check_device(device); e != hipSuccess) return record(e);
        std::strncpy(name, properties(device)->name, size_t(length) - 1);
        name[length - 1] = '\0';
        return hipSuccess;
    });
}

hipError_t hipDeviceTotalMem(size_t* bytes, hipDevice_t device) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!bytes) return record(hipErrorInvalidValue);
        if (hipError_t e = runtime().check_device(device); e != hipSuccess) return record(e);
        *bytes = properties(device)->totalGlobalMem;
        return hipSuccess;
    });
}

hipError_t hipDeviceComputeCapability(int* major, int* minor, hipDevice_t device) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!major || !minor) return record(hipErrorInvalidValue);
        if (hipError_t e = runtime().check_device(device); e != hipSuccess) return record(e);
        *major = properties(device)->major;
        *minor = properties(device)->minor;
        return hipSuccess;
    });
}

hipError_t hipDeviceGetAttribute(int* value, hipDeviceAttribute_t attribute, int device) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!value) return record(hipErrorInvalidValue);
        if (hipError_t e = runtime().check_device(device); e != hipSuccess) return record(e);
        return record(dppgemm::hipemu::device_attribute(*runtime().device(), attribute, value));
    });
}

hipError_t hipDeviceSynchronize(void) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t { return record(synchronize()); });
}
hipError_t hipDeviceReset(void) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t { return record(runtime().reset()); });
}

hipError_t hipMalloc(void** ptr, size_t size) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t { return record(runtime().allocate(ptr, size)); });
}
hipError_t hipFree(void* ptr) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (dppgemm::hipemu::free_managed(ptr)) return hipSuccess;
        return record(runtime().release(ptr));
    });
}

hipError_t hipMemGetInfo(size_t* free, size_t* total) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!free || !total) return record(hipErrorInvalidValue);
        if (!runtime().device()) return record(hipErrorNoDevice);
        *total = runtime().device()->properties.totalGlobalMem;
        *free = *total - runtime().bytes_allocated();
        return hipSuccess;
    });
}

hipError_t hipHostMalloc(void** ptr, size_t size, unsigned int flags) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!ptr) return record(hipErrorInvalidValue);
        // Pinning and coherence mean nothing to the emulator; every block is mapped, its flags kept.
        *ptr = nullptr;
        if (size == 0) return hipSuccess;
        constexpr size_t page = 4096;
        void* block = std::aligned_alloc(page, (size + page - 1) / page * page);
        if (!block) return record(hipErrorOutOfMemory);
        if (runtime().map_host(block, size, "hipHostMalloc") != hipSuccess) {
            std::free(block);
            return record(hipErrorOutOfMemory);
        }
        std::lock_guard<std::mutex> lock(host_blocks_mutex);
        host_blocks[block] = flags;
        *ptr = block;
        return hipSuccess;
    });
}

hipError_t hipHostFree(void* ptr) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!ptr) return hipSuccess;
        std::lock_guard<std::mutex> lock(host_blocks_mutex);
        if (host_blocks.erase(ptr) != 1) return record(hipErrorInvalidValue);
        (void)runtime().unmap_host(ptr);
        std::free(ptr);
        return hipSuccess;
    });
}

hipError_t hipMemcpy(void* dst, const void* src, size_t bytes, hipMemcpyKind kind) {
    return dppgemm::hipemu::guarded(__func__,
                                    [&]() -> hipError_t { return record(copy_synchronously(dst, src, bytes, kind)); });
}
hipError_t hipMemcpyHtoD(hipDeviceptr_t dst, void* src, size_t bytes) {
    return dppgemm::hipemu::guarded(
        __func__, [&]() -> hipError_t { return record(copy_synchronously(dst, src, bytes, hipMemcpyHostToDevice)); });
}
hipError_t hipMemcpyDtoH(void* dst, hipDeviceptr_t src, size_t bytes) {
    return dppgemm::hipemu::guarded(
        __func__, [&]() -> hipError_t { return record(copy_synchronously(dst, src, bytes, hipMemcpyDeviceToHost)); });
}
hipError_t hipMemcpyDtoD(hipDeviceptr_t dst, hipDeviceptr_t src, size_t bytes) {
    return dppgemm::hipemu::guarded(
        __func__, [&]() -> hipError_t { return record(copy_synchronously(dst, src, bytes, hipMemcpyDeviceToDevice)); });
}
hipError_t hipMemcpyAsync(void* dst, const void* src, size_t bytes, hipMemcpyKind kind, hipStream_t stream) {
    return dppgemm::hipemu::guarded(
        __func__, [&]() -> hipError_t { return record(copy_on_stream(dst, src, bytes, kind, stream)); });
}
hipError_t hipMemcpyHtoDAsync(hipDeviceptr_t dst, void* src, size_t bytes, hipStream_t stream) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        return record(copy_on_stream(dst, src, bytes, hipMemcpyHostToDevice, stream));
    });
}
hipError_t hipMemcpyDtoHAsync(void* dst, hipDeviceptr_t src, size_t bytes, hipStream_t stream) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        return record(copy_on_stream(dst, src, bytes, hipMemcpyDeviceToHost, stream));
    });
}
hipError_t hipMemcpyDtoDAsync(hipDeviceptr_t dst, hipDeviceptr_t src, size_t bytes, hipStream_t stream) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        return record(copy_on_stream(dst, src, bytes, hipMemcpyDeviceToDevice, stream));
    });
}

hipError_t hipMemset(void* dst, int value, size_t bytes) {
    return dppgemm::hipemu::guarded(
        __func__, [&]() -> hipError_t { return record(runtime().fill(dst, std::uint8_t(value), 1, bytes)); });
}
hipError_t hipMemsetAsync(void* dst, int value, size_t bytes, hipStream_t stream) {
    return dppgemm::hipemu::guarded(
        __func__, [&]() -> hipError_t { return record(fill_on_stream(dst, std::uint8_t(value), 1, bytes, stream)); });
}
hipError_t hipMemsetD8(hipDeviceptr_t dst, unsigned char value, size_t count) {
    return dppgemm::hipemu::guarded(__func__,
                                    [&]() -> hipError_t { return record(runtime().fill(dst, value, 1, count)); });
}
hipError_t hipMemsetD32(hipDeviceptr_t dst, int value, size_t count) {
    return dppgemm::hipemu::guarded(
        __func__, [&]() -> hipError_t { return record(runtime().fill(dst, std::uint32_t(value), 4, count)); });
}

hipError_t hipStreamCreate(hipStream_t* stream) {
    return dppgemm::hipemu::guarded(
        __func__, [&]() -> hipError_t { return record(runtime().create_stream(stream, hipStreamDefault)); });
}
hipError_t hipStreamCreateWithFlags(hipStream_t* stream, unsigned int flags) {
    return dppgemm::hipemu::guarded(__func__,
                                    [&]() -> hipError_t { return record(runtime().create_stream(stream, flags)); });
}
hipError_t hipStreamDestroy(hipStream_t stream) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t { return record(runtime().destroy_stream(stream)); });
}
hipError_t hipStreamSynchronize(hipStream_t stream) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (hipError_t e = runtime().check_stream(stream); e != hipSuccess) return record(e);
        return record(synchronize());
    });
}
hipError_t hipStreamQuery(hipStream_t stream) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t { return record(runtime().check_stream(stream)); });
}
hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event, unsigned int flags) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (flags != 0) return record(hipErrorInvalidValue);
        if (hipError_t e = runtime().check_stream(stream); e != hipSuccess) return record(e);
        return record(runtime().check_event(event));
    });
}

hipError_t hipEventCreate(hipEvent_t* event) {
    return dppgemm::hipemu::guarded(
        __func__, [&]() -> hipError_t { return record(runtime().create_event(event, hipEventDefault)); });
}
hipError_t hipEventCreateWithFlags(hipEvent_t* event, unsigned flags) {
    return dppgemm::hipemu::guarded(__func__,
                                    [&]() -> hipError_t { return record(runtime().create_event(event, flags)); });
}
hipError_t hipEventDestroy(hipEvent_t event) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t { return record(runtime().destroy_event(event)); });
}
hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (hipError_t e = runtime().check_event(event); e != hipSuccess) return record(e);
        if (dppgemm::hipemu::capture(stream, [event] { return runtime().record_event(event, nullptr); }))
            return hipSuccess;
        return record(runtime().record_event(event, stream));
    });
}
hipError_t hipEventSynchronize(hipEvent_t event) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (hipError_t e = runtime().check_event(event); e != hipSuccess) return record(e);
        return record(synchronize());
    });
}
hipError_t hipEventQuery(hipEvent_t event) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t { return record(runtime().check_event(event)); });
}
hipError_t hipEventElapsedTime(float* ms, hipEvent_t start, hipEvent_t stop) {
    return dppgemm::hipemu::guarded(
        __func__, [&]() -> hipError_t { return record(runtime().elapsed_milliseconds(ms, start, stop)); });
}

hipError_t hipModuleLoad(hipModule_t* module, const char* fname) {
    return dppgemm::hipemu::guarded(__func__,
                                    [&]() -> hipError_t { return record(runtime().load_module_file(module, fname)); });
}
hipError_t hipModuleLoadData(hipModule_t* module, const void* image) {
    return dppgemm::hipemu::guarded(__func__,
                                    [&]() -> hipError_t { return record(runtime().load_module_image(module, image)); });
}
hipError_t hipModuleLoadDataEx(hipModule_t* module, const void* image, unsigned int numOptions, hipJitOption* options,
                               void** optionValues) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        // JIT options tune a compiler the emulator does not have.
        (void)numOptions, (void)options, (void)optionValues;
        return hipModuleLoadData(module, image);
    });
}
hipError_t hipModuleUnload(hipModule_t module) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t { return record(runtime().unload_module(module)); });
}
hipError_t hipModuleGetFunction(hipFunction_t* function, hipModule_t module, const char* kname) {
    return dppgemm::hipemu::guarded(
        __func__, [&]() -> hipError_t { return record(runtime().get_function(function, module, kname)); });
}

hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ,
                                 unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ,
                                 unsigned int sharedMemBytes, hipStream_t stream, void** kernelParams, void** extra) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        return record(runtime().launch({f,
                                        {gridDimX, gridDimY, gridDimZ},
                                        {blockDimX, blockDimY, blockDimZ},
                                        sharedMemBytes,
                                        stream,
                                        kernelParams,
                                        extra}));
    });
}

}  // extern "C"
