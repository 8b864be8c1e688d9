#include "symbols.hpp"

#include <hip/hip_runtime_api.h>

#include <cstdio>
#include <cstring>
#include <mutex>
#include <new>
#include <set>
#include <string>

#include "guard.hpp"
#include "runtime.hpp"

namespace dppgemm::hipemu {

// The stubs are extern "C": nothing may throw out of them. Without the
// memory to remember a name, it is said again on every call.
void say_not_provided(const char* name) noexcept {
    static std::mutex mutex;
    // Never destroyed: stubs may be called from static destructors.
    static std::set<std::string>* said = new (std::nothrow) std::set<std::string>;
    bool first = true;
    try {
        std::lock_guard<std::mutex> lock(mutex);
        if (said) first = said->insert(name).second;
    } catch (...) {
    }
    if (first) std::fprintf(stderr, "hipemu: %s is not provided\n", name);
}

int not_provided_error(const char* name) noexcept {
    say_not_provided(name);
    return finish_api_call(name, record(hipErrorNotSupported));
}

}  // namespace dppgemm::hipemu

// The exports that are not hipError_t functions but are simple enough to
// provide whole (libamdhip64.symbols kinds half, float, channel_desc).
extern "C" {

unsigned short __gnu_f2h_ieee(float value) {
    const _Float16 half = static_cast<_Float16>(value);  // round to nearest even, as the C library does
    unsigned short bits;
    std::memcpy(&bits, &half, sizeof bits);
    return bits;
}

float __gnu_h2f_ieee(unsigned short bits) {
    _Float16 half;
    std::memcpy(&half, &bits, sizeof half);
    return static_cast<float>(half);
}

hipChannelFormatDesc hipCreateChannelDesc(int x, int y, int z, int w, hipChannelFormatKind f) {
    hipChannelFormatDesc desc;
    desc.x = x;
    desc.y = y;
    desc.z = z;
    desc.w = w;
    desc.f = f;
    return desc;
}

}  // extern "C"
