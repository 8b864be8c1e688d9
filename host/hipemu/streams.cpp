// Streams and events: creation, priorities and flags, synchronization, and
// the stream memory operations (hipStreamWriteValue*, hipStreamWaitValue*).
// Work runs when it is enqueued, so a stream is always idle when a call
// returns; synchronizing reports what an earlier launch left behind.
#include <hip/hip_runtime_api.h>

#include <cstdint>
#include <cstdio>

#include "guard.hpp"
#include "runtime.hpp"

using dppgemm::hipemu::record;
using dppgemm::hipemu::Runtime;

namespace {

Runtime& runtime() { return Runtime::instance(); }

// The comparison of hip_runtime_api.h: Gte (*ptr & mask) >= value, Eq ==,
// And ((*ptr & mask) & value) != 0, Nor ~((*ptr & mask) | (value & mask)) != 0.
template <class T>
hipError_t wait_value(const char* entry, hipStream_t stream, void* ptr, T value, unsigned flags, T mask) {
    if (hipError_t e = runtime().check_stream(stream); e != hipSuccess) return e;
    if (!ptr || flags > hipStreamWaitValueNor) return hipErrorInvalidValue;
    T now = 0;
    if (hipError_t e = runtime().copy(&now, ptr, sizeof now, hipMemcpyDefault); e != hipSuccess) return e;
    const T masked = now & mask;
    const bool holds = flags == hipStreamWaitValueGte   ? masked >= value
                       : flags == hipStreamWaitValueEq  ? masked == value
                       : flags == hipStreamWaitValueAnd ? (masked & value) != 0
                                                        : T(~(masked | (value & mask))) != 0;
    if (holds) return hipSuccess;
    std::fprintf(stderr,
                 "hipemu: %s: the condition does not hold when the wait is enqueued, and waiting for a later "
                 "write is not provided (work runs when it is enqueued)\n",
                 entry);
    return hipErrorNotSupported;
}

}  // namespace

extern "C" {

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
        return record(runtime().take_pending_fault());
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
        return record(runtime().take_pending_fault());
    });
}
hipError_t hipEventQuery(hipEvent_t event) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t { return record(runtime().check_event(event)); });
}
hipError_t hipEventElapsedTime(float* ms, hipEvent_t start, hipEvent_t stop) {
    return dppgemm::hipemu::guarded(
        __func__, [&]() -> hipError_t { return record(runtime().elapsed_milliseconds(ms, start, stop)); });
}

hipError_t hipDeviceGetStreamPriorityRange(int* leastPriority, int* greatestPriority) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (leastPriority) *leastPriority = Runtime::stream_priority_low;
        if (greatestPriority) *greatestPriority = Runtime::stream_priority_high;
        return hipSuccess;
    });
}
hipError_t hipStreamCreateWithPriority(hipStream_t* stream, unsigned int flags, int priority) {
    return dppgemm::hipemu::guarded(
        __func__, [&]() -> hipError_t { return record(runtime().create_stream(stream, flags, priority)); });
}
hipError_t hipStreamGetPriority(hipStream_t stream, int* priority) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!priority) return record(hipErrorInvalidValue);
        return record(runtime().stream_flags(stream, nullptr, priority));
    });
}
hipError_t hipStreamGetFlags(hipStream_t stream, unsigned int* flags) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!flags) return record(hipErrorInvalidValue);
        return record(runtime().stream_flags(stream, flags, nullptr));
    });
}

// ---- stream memory operations ----

// The writes happen when enqueued (the stream has finished everything before
// them). A wait whose condition already holds passes; one that does not would
// wait for a write still to come, which a runtime that runs work when it is
// enqueued cannot do: hipErrorNotSupported, said on stderr.
hipError_t hipStreamWriteValue32(hipStream_t stream, void* ptr, uint32_t value, unsigned int flags) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (hipError_t e = runtime().check_stream(stream); e != hipSuccess) return record(e);
        if (!ptr || flags != 0) return record(hipErrorInvalidValue);
        return record(runtime().copy(ptr, &value, sizeof value, hipMemcpyDefault));
    });
}
hipError_t hipStreamWriteValue64(hipStream_t stream, void* ptr, uint64_t value, unsigned int flags) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (hipError_t e = runtime().check_stream(stream); e != hipSuccess) return record(e);
        if (!ptr || flags != 0) return record(hipErrorInvalidValue);
        return record(runtime().copy(ptr, &value, sizeof value, hipMemcpyDefault));
    });
}
hipError_t hipStreamWaitValue32(hipStream_t stream, void* ptr, uint32_t value, unsigned int flags, uint32_t mask) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        return record(wait_value("hipStreamWaitValue32", stream, ptr, value, flags, mask));
    });
}
hipError_t hipStreamWaitValue64(hipStream_t stream, void* ptr, uint64_t value, unsigned int flags, uint64_t mask) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        return record(wait_value("hipStreamWaitValue64", stream, ptr, value, flags, mask));
    });
}

}  // extern "C"
