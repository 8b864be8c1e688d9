// The (deprecated) context API of driver-style programs, on one device: as
// in ROCm 5.2, a context stands for its device, so there is one context, the
// device's primary one. hipCtxCreate and hipDevicePrimaryCtxRetain hand it
// out; the calling thread's stack of current contexts (push, pop, set) holds
// it; destroying or releasing it changes nothing (its memory, modules and
// streams are the device's).
#include <hip/hip_runtime_api.h>

#include <vector>

#include "guard.hpp"
#include "runtime.hpp"

using dppgemm::hipemu::record;
using dppgemm::hipemu::Runtime;

struct ihipCtx_t {};

namespace {

ihipCtx_t primary_context;
hipCtx_t primary() { return &primary_context; }

// The calling thread's current contexts, the top last; empty: the primary one is current.
thread_local std::vector<hipCtx_t> current;

hipError_t check_context(hipCtx_t ctx) {
    if (!Runtime::instance().device()) return hipErrorNoDevice;
    return ctx == primary() ? hipSuccess : hipErrorInvalidContext;
}

}  // namespace

extern "C" {

hipError_t hipCtxCreate(hipCtx_t* ctx, unsigned int flags, hipDevice_t device) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        (void)flags;
        if (!ctx) return record(hipErrorInvalidValue);
        if (hipError_t e = Runtime::instance().check_device(device); e != hipSuccess) return record(e);
        *ctx = primary();
        current.push_back(primary());  // a created context becomes current, as cuCtxCreate makes it
        return hipSuccess;
    });
}
hipError_t hipCtxDestroy(hipCtx_t ctx) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (hipError_t e = check_context(ctx); e != hipSuccess) return record(e);
        if (!current.empty() && current.back() == ctx) current.pop_back();
        return hipSuccess;
    });
}
hipError_t hipCtxPushCurrent(hipCtx_t ctx) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (hipError_t e = check_context(ctx); e != hipSuccess) return record(e);
        current.push_back(ctx);
        return hipSuccess;
    });
}
hipError_t hipCtxPopCurrent(hipCtx_t* ctx) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!Runtime::instance().device()) return record(hipErrorNoDevice);
        if (current.empty()) return record(hipErrorInvalidContext);
        if (ctx) *ctx = current.back();
        current.pop_back();
        return hipSuccess;
    });
}
hipError_t hipCtxSetCurrent(hipCtx_t ctx) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (ctx == nullptr) {  // unbinds the current context
            if (!current.empty()) current.pop_back();
            return hipSuccess;
        }
        if (hipError_t e = check_context(ctx); e != hipSuccess) return record(e);
        if (current.empty()) current.push_back(ctx);
        else current.back() = ctx;
        return hipSuccess;
    });
}
hipError_t hipCtxGetCurrent(hipCtx_t* ctx) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!ctx) return record(hipErrorInvalidValue);
        if (!Runtime::instance().device()) return record(hipErrorNoDevice);
        *ctx = current.empty() ? primary() : current.back();
        return hipSuccess;
    });
}
hipError_t hipCtxGetDevice(hipDevice_t* device) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!device) return record(hipErrorInvalidValue);
        if (!Runtime::instance().device()) return record(hipErrorNoDevice);
        *device = 0;
        return hipSuccess;
    });
}
// What ROCm 5.2 reports (its HIP version).
hipError_t hipCtxGetApiVersion(hipCtx_t ctx, int* apiVersion) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!apiVersion) return record(hipErrorInvalidValue);
        if (hipError_t e = check_context(ctx); e != hipSuccess) return record(e);
        return hipRuntimeGetVersion(apiVersion);
    });
}
hipError_t hipCtxGetCacheConfig(hipFuncCache_t* cacheConfig) { return hipDeviceGetCacheConfig(cacheConfig); }
hipError_t hipCtxSetCacheConfig(hipFuncCache_t cacheConfig) { return hipDeviceSetCacheConfig(cacheConfig); }
hipError_t hipCtxGetSharedMemConfig(hipSharedMemConfig* pConfig) { return hipDeviceGetSharedMemConfig(pConfig); }
hipError_t hipCtxSetSharedMemConfig(hipSharedMemConfig config) { return hipDeviceSetSharedMemConfig(config); }
hipError_t hipCtxSynchronize(void) { return hipDeviceSynchronize(); }
hipError_t hipCtxGetFlags(unsigned int* flags) { return hipGetDeviceFlags(flags); }

hipError_t hipDevicePrimaryCtxRetain(hipCtx_t* pctx, hipDevice_t dev) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!pctx) return record(hipErrorInvalidValue);
        if (hipError_t e = Runtime::instance().check_device(dev); e != hipSuccess) return record(e);
        *pctx = primary();
        return hipSuccess;
    });
}
hipError_t hipDevicePrimaryCtxRelease(hipDevice_t dev) {
    return dppgemm::hipemu::guarded(__func__,
                                    [&]() -> hipError_t { return record(Runtime::instance().check_device(dev)); });
}
// The primary context is always active: the device's state is never torn down but by hipDeviceReset.
hipError_t hipDevicePrimaryCtxGetState(hipDevice_t dev, unsigned int* flags, int* active) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!flags || !active) return record(hipErrorInvalidValue);
        if (hipError_t e = Runtime::instance().check_device(dev); e != hipSuccess) return record(e);
        if (hipError_t e = hipGetDeviceFlags(flags); e != hipSuccess) return e;
        *active = 1;
        return hipSuccess;
    });
}
hipError_t hipDevicePrimaryCtxSetFlags(hipDevice_t dev, unsigned int flags) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (hipError_t e = Runtime::instance().check_device(dev); e != hipSuccess) return record(e);
        return hipSetDeviceFlags(flags);
    });
}
hipError_t hipDevicePrimaryCtxReset(hipDevice_t dev) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (hipError_t e = Runtime::instance().check_device(dev); e != hipSuccess) return record(e);
        return hipDeviceReset();
    });
}

}  // extern "C"
