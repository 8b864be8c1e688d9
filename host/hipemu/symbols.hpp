// The stubs behind every libamdhip64 export hipemu does not implement
// (generated from libamdhip64.symbols, see CMakeLists.txt). A stub is weak:
// an implementation anywhere in the library replaces it. Each is named by an
// assembler label, so that C++ names and clashing prototypes do not matter.
#pragma once

#include <cstddef>

namespace dppgemm::hipemu {

// Says "hipemu: NAME is not provided" on stderr, once per name.
void say_not_provided(const char* name) noexcept;
// The same, and records hipErrorNotSupported for hipGetLastError; returns it.
int not_provided_error(const char* name) noexcept;

}  // namespace dppgemm::hipemu

#define HIPEMU_STUB_DECLARE(index, type, name) \
    extern "C" __attribute__((weak, visibility("default"))) type hipemu_not_provided_##index() __asm__(name);

#define HIPEMU_STUB_error(index, name)    \
    HIPEMU_STUB_DECLARE(index, int, name) \
    int hipemu_not_provided_##index() { return dppgemm::hipemu::not_provided_error(name); }
#define HIPEMU_STUB_hiprtc(index, name)              \
    HIPEMU_STUB_DECLARE(index, int, name)            \
    int hipemu_not_provided_##index() {              \
        dppgemm::hipemu::say_not_provided(name);     \
        return 11; /* HIPRTC_ERROR_INTERNAL_ERROR */ \
    }
#define HIPEMU_STUB_string(index, name)           \
    HIPEMU_STUB_DECLARE(index, const char*, name) \
    const char* hipemu_not_provided_##index() {   \
        dppgemm::hipemu::say_not_provided(name);  \
        return "";                                \
    }
#define HIPEMU_STUB_void(index, name)      \
    HIPEMU_STUB_DECLARE(index, void, name) \
    void hipemu_not_provided_##index() { dppgemm::hipemu::say_not_provided(name); }
#define HIPEMU_STUB_int(index, name)             \
    HIPEMU_STUB_DECLARE(index, int, name)        \
    int hipemu_not_provided_##index() {          \
        dppgemm::hipemu::say_not_provided(name); \
        return -1;                               \
    }
#define HIPEMU_STUB_size(index, name)             \
    HIPEMU_STUB_DECLARE(index, std::size_t, name) \
    std::size_t hipemu_not_provided_##index() {   \
        dppgemm::hipemu::say_not_provided(name);  \
        return 0;                                 \
    }
#define HIPEMU_STUB_bool(index, name)            \
    HIPEMU_STUB_DECLARE(index, bool, name)       \
    bool hipemu_not_provided_##index() {         \
        dppgemm::hipemu::say_not_provided(name); \
        return false;                            \
    }
