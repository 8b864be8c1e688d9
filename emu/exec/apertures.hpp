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

}  // namespace dppgemm::emu
