#include "emu/loader/offload_bundle.hpp"

#include <elf.h>

#include <cstring>

namespace dppgemm::emu {
namespace {

constexpr char bundle_magic[] = "__CLANG_OFFLOAD_BUNDLE__";
constexpr std::size_t bundle_magic_size = sizeof bundle_magic - 1;

template <class T>
T read(const std::uint8_t* bytes, std::size_t offset) {
    T value;
    std::memcpy(&value, bytes + offset, sizeof value);
    return value;
}

}  // namespace

std::string BundleEntry::processor() const {
    const std::string amdhsa = "amdgcn-amd-amdhsa-";
    const std::size_t at = triple.find(amdhsa);
    if (at == std::string::npos) return "";
    std::string rest = triple.substr(at + amdhsa.size());
    rest.erase(0, rest.find_first_not_of('-'));
    return rest.substr(0, rest.find(':'));
}

bool is_offload_bundle(const void* bytes, std::size_t size) {
    return size >= bundle_magic_size && std::memcmp(bytes, bundle_magic, bundle_magic_size) == 0;
}

std::optional<std::vector<BundleEntry>> offload_bundle_entries(const void* data, std::size_t size) {
    const auto* bytes = static_cast<const std::uint8_t*>(data);
    if (!is_offload_bundle(data, size)) return std::nullopt;
    std::size_t at = bundle_magic_size;
    if (at + 8 > size) return std::nullopt;
    const auto count = read<std::uint64_t>(bytes, at);
    at += 8;
    std::vector<BundleEntry> entries;
    for (std::uint64_t i = 0; i < count; ++i) {
        if (at + 24 > size) return std::nullopt;
        BundleEntry entry;
        entry.offset = read<std::uint64_t>(bytes, at);
        entry.size = read<std::uint64_t>(bytes, at + 8);
        const auto triple_size = read<std::uint64_t>(bytes, at + 16);
        at += 24;
        if (triple_size > size - at) return std::nullopt;
        entry.triple.assign(reinterpret_cast<const char*>(bytes + at), triple_size);
        at += triple_size;
        entries.push_back(std::move(entry));
    }
    return entries;
}

std::optional<std::pair<std::size_t, std::size_t>> hip_fatbin_section(const void* data, std::size_t size) {
    const auto* bytes = static_cast<const std::uint8_t*>(data);
    if (size < sizeof(Elf64_Ehdr) || std::memcmp(bytes, ELFMAG, SELFMAG) != 0 || bytes[EI_CLASS] != ELFCLASS64)
        return std::nullopt;
    const auto header = read<Elf64_Ehdr>(bytes, 0);
    if (header.e_shentsize != sizeof(Elf64_Shdr) || header.e_shoff > size ||
        std::uint64_t(header.e_shnum) * sizeof(Elf64_Shdr) > size - header.e_shoff ||
        header.e_shstrndx >= header.e_shnum)
        return std::nullopt;
    const auto names = read<Elf64_Shdr>(bytes, header.e_shoff + header.e_shstrndx * sizeof(Elf64_Shdr));
    if (names.sh_offset > size || names.sh_size > size - names.sh_offset) return std::nullopt;
    constexpr char wanted[] = ".hip_fatbin";
    for (unsigned i = 0; i < header.e_shnum; ++i) {
        const auto section = read<Elf64_Shdr>(bytes, header.e_shoff + i * sizeof(Elf64_Shdr));
        if (section.sh_name + sizeof wanted > names.sh_size) continue;
        if (std::memcmp(bytes + names.sh_offset + section.sh_name, wanted, sizeof wanted) != 0) continue;
        if (section.sh_type == SHT_NOBITS || section.sh_offset > size || section.sh_size > size - section.sh_offset)
            return std::nullopt;
        return std::make_pair(std::size_t(section.sh_offset), std::size_t(section.sh_size));
    }
    return std::nullopt;
}

}  // namespace dppgemm::emu
