// The one way into libdppgemm-hipemu from C: every extern "C" entry point's
// body runs inside guarded(), so that no C++ exception ever unwinds into a
// HIP program (it would call std::terminate there, or worse, unwind through C
// frames). An exception that gets this far is a bug or an exhausted host: it
// becomes a HIP error code, recorded for hipGetLastError, and one stderr line
// naming the entry point:
//   std::bad_alloc, std::length_error  -> hipErrorOutOfMemory
//   std::system_error (no thread, ...)  -> hipErrorOutOfMemory
//   any other exception                 -> hipErrorUnknown
// docs/reliability.md ("libdppgemm-hipemu") lists the errors of each kind of bad input.
// An error an outermost entry point returns is also an API error finding
// (checks.hpp).
//
// Use (an entry point returning hipError_t):
//   hipError_t hipFoo(int x) {
//     return guarded(__func__, [&] { return runtime().foo(x); });
//   }
// and for entry points returning something else (void, a pointer), with the
// value to return after an exception:
//   void** __hipRegisterFatBinary(const void* d) {
//     return guarded_value(__func__, nullptr, [&] { ... });
//   }
#pragma once

#include <hip/hip_runtime_api.h>

#include <cstdio>
#include <exception>
#include <new>
#include <stdexcept>
#include <system_error>
#include <type_traits>

namespace dppgemm::hipemu {

// Remembers a failure for hipGetLastError and returns it (api.cpp).
hipError_t record(hipError_t error);

// Entry points in progress on this thread: one calls another (hipExtLaunchKernel
// calls hipLaunchKernel), and only the outermost reports its error.
inline thread_local unsigned api_call_depth = 0;
struct ApiCall {
    ApiCall() noexcept { ++api_call_depth; }
    ~ApiCall() { --api_call_depth; }
    ApiCall(const ApiCall&) = delete;
    ApiCall& operator=(const ApiCall&) = delete;
    bool outermost() const noexcept { return api_call_depth == 1; }
};

// The end of an outermost entry point's call: its error is an API error
// finding, with what the runtime said during the call (checks.hpp).
hipError_t finish_api_call(const char* entry, hipError_t error) noexcept;

namespace guard_detail {

inline hipError_t report(const char* entry, const char* what, hipError_t error) noexcept {
    std::fprintf(stderr, "hipemu: %s: %s (%s)\n", entry, what,
                 error == hipErrorOutOfMemory ? "hipErrorOutOfMemory" : "hipErrorUnknown");
    return record(error);
}

// The error for the exception being handled; must be called inside a catch.
inline hipError_t current_exception(const char* entry) noexcept {
    try {
        throw;
    } catch (const std::bad_alloc&) {
        return report(entry, "out of host memory", hipErrorOutOfMemory);
    } catch (const std::length_error& e) {
        return report(entry, e.what(), hipErrorOutOfMemory);
    } catch (const std::system_error& e) {
        return report(entry, e.what(), hipErrorOutOfMemory);
    } catch (const std::exception& e) {
        return report(entry, e.what(), hipErrorUnknown);
    } catch (...) {
        return report(entry, "unknown exception", hipErrorUnknown);
    }
}

}  // namespace guard_detail

template <class Body>
hipError_t guarded(const char* entry, Body&& body) noexcept {
    static_assert(std::is_same_v<decltype(body()), hipError_t>, "guarded(): the body returns a hipError_t");
    const ApiCall call;
    hipError_t error;
    try {
        error = record(body());
    } catch (...) {
        error = guard_detail::current_exception(entry);
    }
    return call.outermost() ? finish_api_call(entry, error) : error;
}

template <class T, class Body>
T guarded_value(const char* entry, T on_exception, Body&& body) noexcept {
    try {
        return body();
    } catch (...) {
        (void)guard_detail::current_exception(entry);
        return on_exception;
    }
}

template <class Body>
void guarded_void(const char* entry, Body&& body) noexcept {
    try {
        body();
    } catch (...) {
        (void)guard_detail::current_exception(entry);
    }
}

}  // namespace dppgemm::hipemu
