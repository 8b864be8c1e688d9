#pragma once
// Device memory as other host threads see it. Workgroups run concurrently on
// host threads, and kernels pass data between them through global memory with
// the AMDGPU memory model (LLVM AMDGPUUsage, "Memory Model GFX6-GFX9", "Memory
// Model GFX90A", "Memory Model GFX942"): "load atomic" and "store atomic" of
// up to 64 bits are plain buffer/global/flat loads and stores, so a naturally
// aligned 32- or 64-bit access is single-copy atomic on the GPU. rocPRIM's
// look-back scan, for one, packs a flag and a value into one dwordx2 and
// reads it with one global_load_dwordx2 glc.
//
// Every access of device memory by a kernel therefore goes through these
// copies: each naturally aligned 1-, 2-, 4- or 8-byte piece of the access is
// one host access (a relaxed atomic), so no other thread ever sees half of
// it. On x86-64 and AArch64 a relaxed atomic load or store of an aligned
// word is an ordinary move: the copies cost what memcpy did. Pieces of a
// wider access (dwordx3, dwordx4) are each atomic, not the whole, as on the
// GPU, where single-copy atomicity stops at 64 bits.

#include <cstdint>
#include <cstring>

namespace dppgemm::emu {

namespace single_copy_detail {
// The widest power of two <= 8 that divides `address` and fits in `left`.
inline unsigned piece_size(std::uintptr_t address, unsigned left) {
    unsigned piece = 8;
    while (piece > left || (address & (piece - 1))) piece /= 2;
    return piece;
}
}  // namespace single_copy_detail

// out[0, bytes) = host[0, bytes), as the aligned pieces of one device access.
inline void load_single_copy(void* out, const std::uint8_t* host, unsigned bytes) {
    auto* to = static_cast<std::uint8_t*>(out);
    while (bytes) {
        const unsigned piece = single_copy_detail::piece_size(reinterpret_cast<std::uintptr_t>(host), bytes);
        switch (piece) {
        case 8: {
            const std::uint64_t v = __atomic_load_n(reinterpret_cast<const std::uint64_t*>(host), __ATOMIC_RELAXED);
            std::memcpy(to, &v, 8);
            break;
        }
        case 4: {
            const std::uint32_t v = __atomic_load_n(reinterpret_cast<const std::uint32_t*>(host), __ATOMIC_RELAXED);
            std::memcpy(to, &v, 4);
            break;
        }
        case 2: {
            const std::uint16_t v = __atomic_load_n(reinterpret_cast<const std::uint16_t*>(host), __ATOMIC_RELAXED);
            std::memcpy(to, &v, 2);
            break;
        }
        default: *to = __atomic_load_n(host, __ATOMIC_RELAXED); break;
        }
        host += piece, to += piece, bytes -= piece;
    }
}

// host[0, bytes) = data[0, bytes), as the aligned pieces of one device access.
inline void store_single_copy(std::uint8_t* host, const void* data, unsigned bytes) {
    const auto* from = static_cast<const std::uint8_t*>(data);
    while (bytes) {
        const unsigned piece = single_copy_detail::piece_size(reinterpret_cast<std::uintptr_t>(host), bytes);
        switch (piece) {
        case 8: {
            std::uint64_t v;
            std::memcpy(&v, from, 8);
            __atomic_store_n(reinterpret_cast<std::uint64_t*>(host), v, __ATOMIC_RELAXED);
            break;
        }
        case 4: {
            std::uint32_t v;
            std::memcpy(&v, from, 4);
            __atomic_store_n(reinterpret_cast<std::uint32_t*>(host), v, __ATOMIC_RELAXED);
            break;
        }
        case 2: {
            std::uint16_t v;
            std::memcpy(&v, from, 2);
            __atomic_store_n(reinterpret_cast<std::uint16_t*>(host), v, __ATOMIC_RELAXED);
            break;
        }
        default: __atomic_store_n(host, *from, __ATOMIC_RELAXED); break;
        }
        host += piece, from += piece, bytes -= piece;
    }
}

}  // namespace dppgemm::emu
