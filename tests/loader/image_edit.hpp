#pragma once
// Byte-level edits of a code object image, for the malformed-input tests.

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace loader_test {

using Bytes = std::vector<std::uint8_t>;

template <typename T>
T get(const Bytes& bytes, std::size_t at) {
    T value;
    std::memcpy(&value, bytes.data() + at, sizeof value);
    return value;
}

template <typename T>
void put(Bytes& bytes, std::size_t at, T value) {
    std::memcpy(bytes.data() + at, &value, sizeof value);
}

// Offset of the first occurrence of `needle`, or npos.
inline std::size_t find(const Bytes& bytes, const Bytes& needle) {
    for (std::size_t at = 0; at + needle.size() <= bytes.size(); ++at)
        if (std::memcmp(bytes.data() + at, needle.data(), needle.size()) == 0) return at;
    return std::string::npos;
}

inline std::size_t find(const Bytes& bytes, const std::string& text) {
    return find(bytes, Bytes(text.begin(), text.end()));
}

// The NT_AMDGPU_METADATA note's description: {offset, size}.
inline std::pair<std::size_t, std::size_t> metadata_note(const Bytes& bytes) {
    const Bytes owner = {'A', 'M', 'D', 'G', 'P', 'U', 0, 0};
    for (std::size_t at = 12; at + owner.size() <= bytes.size(); ++at) {
        if (std::memcmp(bytes.data() + at, owner.data(), owner.size()) != 0) continue;
        if (get<std::uint32_t>(bytes, at - 4) != 32 || get<std::uint32_t>(bytes, at - 12) != 7) continue;
        return {at + 8, get<std::uint32_t>(bytes, at - 8)};
    }
    return {std::string::npos, 0};
}

// ELF64 header field offsets.
constexpr std::size_t ei_class = 4, ei_data = 5, ei_osabi = 7, ei_abiversion = 8;
constexpr std::size_t e_type = 16, e_machine = 18, e_phoff = 32, e_shoff = 40, e_flags = 48, e_phnum = 56, e_shnum = 60,
                      e_shstrndx = 62;

}  // namespace loader_test
