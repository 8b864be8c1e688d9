// The HIP runtime entry points of libdppgemm-hipemu, with the signatures of
// ROCm 5.2's hip_runtime_api.h. Each checks its arguments, hands the work to
// the Runtime and records a failure for hipGetLastError. This file: the last
// error, initialization and versions, device selection, properties and
// synchronization, modules and kernel launches. Memory is in memory.cpp,
// streams and events in streams.cpp, device configuration and occupancy in
// device_config.cpp.
#include <hip/hip_runtime_api.h>

#include <cstdlib>
#include <cstring>
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

}  // namespace

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
