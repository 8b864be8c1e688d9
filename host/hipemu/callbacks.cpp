// Host functions on streams. Work runs when it is enqueued (runtime.hpp), so
// everything enqueued before a callback has finished when it is added: the
// callback runs at once, on the calling thread, with the stream's status.
// A callback that throws ends in the guard's error (guard.hpp) instead of
// unwinding through the caller's C frames.
#include <hip/hip_runtime_api.h>

#include "guard.hpp"
#include "runtime.hpp"

using dppgemm::hipemu::record;
using dppgemm::hipemu::Runtime;

extern "C" {

hipError_t hipStreamAddCallback(hipStream_t stream, hipStreamCallback_t callback, void* userData, unsigned int flags) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!callback || flags != 0) return record(hipErrorInvalidValue);
        if (hipError_t e = Runtime::instance().check_stream(stream); e != hipSuccess) return record(e);
        // In a capture it becomes a graph's host node (ROCm 5.2 exports no
        // hipLaunchHostFunc, so programs linked against it use this), called
        // with the stream it was captured from and the status when it runs.
        const auto call = [callback, stream, userData]() {
            callback(stream, Runtime::instance().peek_pending_fault(), userData);
            return hipSuccess;
        };
        if (dppgemm::hipemu::capture(stream, call)) return hipSuccess;
        return call();
    });
}

hipError_t hipLaunchHostFunc(hipStream_t stream, hipHostFn_t fn, void* userData) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!fn) return record(hipErrorInvalidValue);
        if (hipError_t e = Runtime::instance().check_stream(stream); e != hipSuccess) return record(e);
        const auto call = [fn, userData]() {
            fn(userData);
            return hipSuccess;
        };
        if (dppgemm::hipemu::capture(stream, call)) return hipSuccess;  // a graph's host node
        return call();
    });
}

}  // extern "C"
