#include "image.hpp"

#include <elf.h>

#include <algorithm>
#include <cstring>

#include "emu/loader/offload_bundle.hpp"

namespace dppgemm::hipemu {

namespace {

bool is_elf(const void* image) { return std::memcmp(image, ELFMAG, SELFMAG) == 0; }

template <class T>
T read(const std::uint8_t* bytes, std::size_t offset) {
    T value;
    std::memcpy(&value, bytes + offset, sizeof value);
    return value;
}

// An ELF ends with the last of its headers, sections and segments.
std::optional<std::size_t> elf_size(const std::uint8_t* bytes) {
    const auto header = read<Elf64_Ehdr>(bytes, 0);
    if (header.e_ident[EI_CLASS] != ELFCLASS64) return std::nullopt;
    std::size_t end =
        std::max<std::size_t>({sizeof header, header.e_shoff + std::size_t(header.e_shnum) * header.e_shentsize,
                               header.e_phoff + std::size_t(header.e_phnum) * header.e_phentsize});
    for (unsigned i = 0; i < header.e_shnum && header.e_shentsize >= sizeof(Elf64_Shdr); ++i) {
        const auto section = read<Elf64_Shdr>(bytes, header.e_shoff + std::size_t(i) * header.e_shentsize);
        if (section.sh_type != SHT_NOBITS) end = std::max<std::size_t>(end, section.sh_offset + section.sh_size);
    }
    for (unsigned i = 0; i < header.e_phnum && header.e_phentsize >= sizeof(Elf64_Phdr); ++i) {
        const auto segment = read<Elf64_Phdr>(bytes, header.e_phoff + std::size_t(i) * header.e_phentsize);
        end = std::max<std::size_t>(end, segment.p_offset + segment.p_filesz);
    }
    return end;
}

}  // namespace

std::optional<std::size_t> image_size(const void* image) {
    const auto* bytes = static_cast<const std::uint8_t*>(image);
    if (is_elf(image)) return elf_size(bytes);
    // The table's own extent is unknown until it is read: bound it generously.
    const auto entries = emu::offload_bundle_entries(image, std::size_t(1) << 40);
    if (!entries) return std::nullopt;
    std::size_t end = 0;
    for (const emu::BundleEntry& entry : *entries) end = std::max<std::size_t>(end, entry.offset + entry.size);
    return end;
}

ExtractedCodeObject extract_code_object(const void* image, std::size_t size, const std::string& processor) {
    const auto* bytes = static_cast<const std::uint8_t*>(image);
    ExtractedCodeObject out;
    if (size >= SELFMAG && is_elf(image)) {
        out.data = bytes;
        out.size = size;
        return out;
    }
    out.error = hipErrorInvalidImage;
    if (!emu::is_offload_bundle(image, size)) {
        out.why = "neither an ELF code object nor a clang offload bundle";
        return out;
    }
    std::string triples;
    const auto entries = emu::offload_bundle_entries(image, size);
    for (const emu::BundleEntry& entry : entries ? *entries : std::vector<emu::BundleEntry>{}) {
        triples += (triples.empty() ? "" : ", ") + entry.triple;
        if (out.data || entry.processor() != processor) continue;
        if (entry.offset > size || entry.size > size - entry.offset) continue;
        out.data = bytes + entry.offset;
        out.size = entry.size;
    }
    if (!entries) {
        out.data = nullptr;
        out.why = "offload bundle table runs past the end of the image";
    } else if (!out.data) {
        out.error = hipErrorNoBinaryForGpu;
        // Which device is played is the user's choice (docs/host.md): say how to make them meet.
        out.why = "offload bundle has no code object for " + processor + " (it has: " + triples +
                  "); the emulated device is chosen by DPPGEMM_HIPEMU_ARCH (default: gfx906, or the program's "
                  "own target): set it to a target it has, or build it with --offload-arch=" +
                  processor;
    } else {
        out.error = hipSuccess;
    }
    return out;
}

}  // namespace dppgemm::hipemu
