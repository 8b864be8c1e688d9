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

// "0x1c": lower-case, no padding, as llvm-objdump prints addresses and immediates.
inline std::string hex(std::uint64_t value) {
    char text[19];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
    return text;
}

}  // namespace dppgemm::emu
