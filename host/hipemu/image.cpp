#include "image.hpp"

#include <elf.h>

#include <algorithm>
#include <cstring>

namespace dppgemm::hipemu {

namespace {

constexpr char kBundleMagic[] = "__CLANG_OFFLOAD_BUNDLE__";
constexpr std::size_t kBundleMagicSize = sizeof kBundleMagic - 1;

bool is_elf(const void* image) { return std::memcmp(image, ELFMAG, SELFMAG) == 0; }
bool is_bundle(const void* image) { return std::memcmp(image, kBundleMagic, kBundleMagicSize) == 0; }

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
  std::size_t end = std::max<std::size_t>({sizeof header, header.e_shoff + std::size_t(header.e_shnum) * header.e_shentsize,
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

// One entry of the bundle's table: after the magic, a 64-bit count, then per
// entry 64-bit offset, size and triple length, and the triple.
struct BundleEntry {
  std::uint64_t offset, size;
  std::string triple;
};

// Calls visit(entry) for each entry; false when the table runs past `size`.
template <class Visit>
bool for_each_entry(const std::uint8_t* bytes, std::size_t size, Visit visit) {
  std::size_t at = kBundleMagicSize;
  if (at + 8 > size) return false;
  const auto count = read<std::uint64_t>(bytes, at);
  at += 8;
  for (std::uint64_t i = 0; i < count; ++i) {
    if (at + 24 > size) return false;
    BundleEntry entry{read<std::uint64_t>(bytes, at), read<std::uint64_t>(bytes, at + 8), {}};
    const auto triple_size = read<std::uint64_t>(bytes, at + 16);
    at += 24;
    if (triple_size > size - at) return false;
    entry.triple.assign(reinterpret_cast<const char*>(bytes + at), triple_size);
    at += triple_size;
    visit(entry);
  }
  return true;
}

// "hipv4-amdgcn-amd-amdhsa--gfx90a:xnack+" -> "gfx90a"; "" for other triples.
std::string processor_of(const std::string& triple) {
  const std::string amdhsa = "amdgcn-amd-amdhsa-";
  const std::size_t at = triple.find(amdhsa);
  if (at == std::string::npos) return "";
  std::string rest = triple.substr(at + amdhsa.size());
  rest.erase(0, rest.find_first_not_of('-'));
  return rest.substr(0, rest.find(':'));
}

}  // namespace

std::optional<std::size_t> image_size(const void* image) {
  const auto* bytes = static_cast<const std::uint8_t*>(image);
  if (is_elf(image)) return elf_size(bytes);
  if (!is_bundle(image)) return std::nullopt;
  std::size_t end = kBundleMagicSize + 8;
  // The table's own extent is unknown until it is read: bound it generously.
  const bool complete = for_each_entry(bytes, std::size_t(1) << 40, [&](const BundleEntry& entry) {
    end = std::max<std::size_t>(end, entry.offset + entry.size);
  });
  return complete ? std::optional<std::size_t>(end) : std::nullopt;
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
  if (size < kBundleMagicSize || !is_bundle(image)) {
    out.why = "neither an ELF code object nor a clang offload bundle";
    return out;
  }
  std::string triples;
  const bool complete = for_each_entry(bytes, size, [&](const BundleEntry& entry) {
    triples += (triples.empty() ? "" : ", ") + entry.triple;
    if (out.data || processor_of(entry.triple) != processor) return;
    if (entry.offset > size || entry.size > size - entry.offset) return;
    out.data = bytes + entry.offset;
    out.size = entry.size;
  });
  if (!complete) {
    out.data = nullptr;
    out.why = "offload bundle table runs past the end of the image";
  } else if (!out.data) {
    out.error = hipErrorNoBinaryForGpu;
    out.why = "offload bundle has no code object for " + processor + " (it has: " + triples + ")";
  } else {
    out.error = hipSuccess;
  }
  return out;
}

}  // namespace dppgemm::hipemu
