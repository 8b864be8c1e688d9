#pragma once
// Small helpers shared across emu/: the fixed-width integer names the
// semantics use, and the hex form of addresses and words in messages.

#include <cstdint>
#include <cstdio>
#include <string>

namespace dppgemm::emu {

using u16 = std::uint16_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;
using i16 = std::int16_t;
using i32 = std::int32_t;
using i64 = std::int64_t;

// A function compiled twice, for AVX2 and for the build's baseline (x86-64:
// SSE2), the CPU picking one when the library loads (an ifunc). For the
// 64-lane integer loops of the LDS path (addresses, their largest, the
// pattern comparisons): with SSE2 an unsigned max takes five instructions
// per four lanes, with AVX2 one per eight. The results are the same.
#if defined(__x86_64__) && defined(__ELF__) && defined(__GNUC__)
#define DPPGEMM_AVX2_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define DPPGEMM_AVX2_CLONES
#endif

// What the host CPU can do, asked once: the fast paths that pick AVX2 or
// AVX-512 loops, or a 16-byte load as one single-copy access, all ask here.
struct HostCpu {
    bool avx = false, avx2 = false, fma = false, avx512f = false;
};
inline const HostCpu& host_cpu() {
    static const HostCpu cpu = [] {
        HostCpu c;
#if defined(__x86_64__) && defined(__GNUC__)
        __builtin_cpu_init();
        c.avx = __builtin_cpu_supports("avx") != 0;
        c.avx2 = __builtin_cpu_supports("avx2") != 0;
        c.fma = __builtin_cpu_supports("fma") != 0;
        c.avx512f = __builtin_cpu_supports("avx512f") != 0;
#endif
        return c;
    }();
    return cpu;
}

// "0x1c": lower-case, no padding, as llvm-objdump prints addresses and immediates.
inline std::string hex(std::uint64_t value) {
    char text[19];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
    return text;
}

}  // namespace dppgemm::emu
