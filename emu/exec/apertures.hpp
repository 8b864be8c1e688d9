#pragma once
// Flat address apertures (gfx9): a flat address inside the shared aperture
// is an LDS offset, inside the private aperture a scratch offset; anything
// else is a global address. src_shared_base/src_private_base read the high
// halves of these bases. Both lie above the 48-bit global range, where no
// DeviceMemory allocation can be.

#include <cstdint>

namespace dppgemm::emu {

inline constexpr std::uint64_t shared_aperture_base = 0x0001'0000'0000'0000ull;
inline constexpr std::uint64_t private_aperture_base = 0x0002'0000'0000'0000ull;
inline constexpr std::uint64_t aperture_size = 0x1'0000'0000ull;  // 4 GiB

// The private segment's layout in a wave's scratch, as the ROCm runtime's
// scratch V# sets it up (swizzled, ADD_TID, index stride 64, 4-byte
// elements): byte o of lane l is at the wave's base + (o / 4) * 256 + 4 * l
// + o % 4, so that lanes reading one private address touch adjacent dwords.
inline constexpr std::uint32_t private_index_stride = 64;

}  // namespace dppgemm::emu
