#pragma once
// Containers of code objects, as hipcc writes them: the clang offload bundle
// (`hipcc --genco`, and the `.hip_fatbin` section of a HIP executable), whose
// header is "__CLANG_OFFLOAD_BUNDLE__", a 64-bit entry count, then per entry
// a 64-bit offset, size and triple length and the triple
// ("hipv4-amdgcn-amd-amdhsa--gfx90a:xnack+"), every number little-endian.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dppgemm::emu {

struct BundleEntry {
    std::uint64_t offset = 0, size = 0;  // within the bundle
    std::string triple;
    // The processor (e.g. gfx90a) for an amdgcn-amd-amdhsa triple, "" for others (the host entry).
    std::string processor() const;
};

bool is_offload_bundle(const void* bytes, std::size_t size);

// The entries; nullopt when the table runs past `size`.
std::optional<std::vector<BundleEntry>> offload_bundle_entries(const void* bytes, std::size_t size);

// The contents of the `.hip_fatbin` section of a 64-bit ELF (a HIP
// executable or shared library): offset and size in the file; nullopt when
// the bytes are no such ELF or it has no such section.
std::optional<std::pair<std::size_t, std::size_t>> hip_fatbin_section(const void* bytes, std::size_t size);

}  // namespace dppgemm::emu
