// host/hipemu/guard.hpp on its own: every kind of exception a HIP entry point
// body may throw becomes the documented hipError_t, recorded for
// hipGetLastError, and exactly one stderr line naming the entry point.
#include <catch2/catch.hpp>

#include <new>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "../../host/hipemu/guard.hpp"
#include "capture_stderr.hpp"

namespace dppgemm::hipemu {
std::vector<hipError_t> recorded;  // what the library's record() would remember
hipError_t record(hipError_t error) {
    recorded.push_back(error);
    return error;
}
std::vector<std::pair<std::string, hipError_t>> finished;  // the calls the library would report on
hipError_t finish_api_call(const char* entry, hipError_t error) noexcept {
    finished.emplace_back(entry, error);
    return error;
}
}  // namespace dppgemm::hipemu

using dppgemm::hipemu::finished;
using dppgemm::hipemu::guarded;
using dppgemm::hipemu::guarded_value;
using dppgemm::hipemu::guarded_void;
using dppgemm::hipemu::recorded;

TEST_CASE("hipemu guard: a body that returns passes its error through") {
    recorded.clear();
    CHECK(guarded("hipFoo", [] { return hipErrorInvalidValue; }) == hipErrorInvalidValue);
    CHECK(recorded == std::vector<hipError_t>{hipErrorInvalidValue});
}

TEST_CASE("hipemu guard: each exception becomes its error and one line") {
    struct Case {
        hipError_t (*body)();
        hipError_t error;
        const char* line;
    };
    const Case cases[] = {
        {[]() -> hipError_t { throw std::bad_alloc(); }, hipErrorOutOfMemory,
         "hipemu: hipFoo: out of host memory (hipErrorOutOfMemory)\n"},
        {[]() -> hipError_t { throw std::length_error("vector too long"); }, hipErrorOutOfMemory,
         "hipemu: hipFoo: vector too long (hipErrorOutOfMemory)\n"},
        {[]() -> hipError_t {
             throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again), "thread");
         },
         hipErrorOutOfMemory, nullptr},
        {[]() -> hipError_t { throw std::invalid_argument("bad segment"); }, hipErrorUnknown,
         "hipemu: hipFoo: bad segment (hipErrorUnknown)\n"},
        {[]() -> hipError_t { throw 42; }, hipErrorUnknown, "hipemu: hipFoo: unknown exception (hipErrorUnknown)\n"},
    };
    for (const Case& c : cases) {
        recorded.clear();
        CapturedStderr captured;
        CHECK(guarded("hipFoo", c.body) == c.error);
        const std::string text = captured.text();
        CHECK(recorded == std::vector<hipError_t>{c.error});
        CHECK(count_of(text, "\n") == 1);
        CHECK(text.rfind("hipemu: hipFoo: ", 0) == 0);
        if (c.line) CHECK(text == c.line);
    }
}

TEST_CASE("hipemu guard: entry points returning something else return the given value") {
    recorded.clear();
    CapturedStderr captured;
    int* fallback = nullptr;
    CHECK(guarded_value("__hipFoo", fallback, []() -> int* { throw std::bad_alloc(); }) == nullptr);
    CHECK(recorded == std::vector<hipError_t>{hipErrorOutOfMemory});
    CHECK(captured.text() == "hipemu: __hipFoo: out of host memory (hipErrorOutOfMemory)\n");
}

TEST_CASE("hipemu guard: entry points returning nothing only record and say") {
    recorded.clear();
    CapturedStderr captured;
    bool ran = false;
    guarded_void("__hipBar", [&] {
        ran = true;
        throw std::length_error("map too long");
    });
    CHECK(ran);
    CHECK(recorded == std::vector<hipError_t>{hipErrorOutOfMemory});
    CHECK(captured.text() == "hipemu: __hipBar: map too long (hipErrorOutOfMemory)\n");
}

TEST_CASE("hipemu guard: only the outermost entry point of a call finishes it") {
    finished.clear();
    const hipError_t e = guarded("hipOuter", [] {
        CHECK(guarded("hipInner", [] { return hipErrorNoBinaryForGpu; }) == hipErrorNoBinaryForGpu);
        return hipErrorInvalidValue;
    });
    CHECK(e == hipErrorInvalidValue);
    CHECK(finished == std::vector<std::pair<std::string, hipError_t>>{{"hipOuter", hipErrorInvalidValue}});
    finished.clear();
    CHECK(guarded("hipAfter", [] { return hipSuccess; }) == hipSuccess);
    CHECK(finished == std::vector<std::pair<std::string, hipError_t>>{{"hipAfter", hipSuccess}});
}
