#include "emu/tools/open.hpp"

#include <elf.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "emu/loader/offload_bundle.hpp"
#include "emu/tools/launch.hpp"

namespace dppgemm::emu::tools {
namespace {

bool is_amdgpu_elf(const std::vector<char>& bytes) {
    if (bytes.size() < sizeof(Elf64_Ehdr) || std::memcmp(bytes.data(), ELFMAG, SELFMAG) != 0) return false;
    Elf64_Ehdr header;
    std::memcpy(&header, bytes.data(), sizeof header);
    return header.e_machine == EM_AMDGPU;
}

// The bundle's code object for `arch`, or its only one.
CodeObject from_bundle(const std::string& path, const char* bundle, std::size_t size,
                       const std::optional<std::string>& arch) {
    const auto entries = offload_bundle_entries(bundle, size);
    if (!entries) throw UsageError("'" + path + "': the offload bundle's table runs past its end");
    std::vector<const BundleEntry*> device;
    std::string listed;
    for (const BundleEntry& entry : *entries) {
        if (entry.processor().empty()) continue;
        device.push_back(&entry);
        listed += (listed.empty() ? "" : ", ") + entry.processor();
    }
    const BundleEntry* chosen = nullptr;
    for (const BundleEntry* entry : device)
        if (!arch || entry->processor() == *arch) {
            if (chosen && !arch)
                throw UsageError("'" + path + "' holds code objects for " + listed + ": choose one with --arch");
            if (!chosen) chosen = entry;
        }
    if (!chosen)
        throw UsageError("'" + path + "' has no code object for " + (arch ? *arch : std::string("any AMDGPU target")) +
                         " (it has: " + (listed.empty() ? "none" : listed) + ")");
    if (chosen->offset > size || chosen->size > size - chosen->offset)
        throw UsageError("'" + path + "': bundle entry " + chosen->triple + " lies outside the bundle");
    return load_code_object(bundle + chosen->offset, chosen->size, path + " [" + chosen->triple + "]");
}

}  // namespace

CodeObject open_code_object(const std::string& path, const std::optional<std::string>& arch) {
    if (arch && arch->empty()) throw UsageError("--arch '': expected a target name such as gfx906");
    // Read once: a pipe or /dev/stdin cannot be read again.
    const std::vector<char> bytes = read_code_object_file(path);
    if (is_offload_bundle(bytes.data(), bytes.size())) return from_bundle(path, bytes.data(), bytes.size(), arch);
    if (!is_amdgpu_elf(bytes))
        if (const auto section = hip_fatbin_section(bytes.data(), bytes.size()))
            return from_bundle(path, bytes.data() + section->first, section->second, arch);
    // A code object, or a file the loader explains what is wrong with.
    CodeObject co = load_code_object(bytes.data(), bytes.size(), path);
    if (arch && target_name(co.target.processor) != *arch)
        throw UsageError("'" + path + "' is a code object for " + co.target.str() + ", not " + *arch);
    return co;
}

}  // namespace dppgemm::emu::tools
