#pragma once
// The code object a dppgemm-emu command works on, from any of the files a
// HIP user has: an AMDGPU ELF code object, a clang offload bundle (`hipcc
// --genco`), or a HIP executable or library (its `.hip_fatbin` section). A
// container with several targets needs --arch; a message lists them.

#include <optional>
#include <string>

#include "emu/loader/code_object.hpp"

namespace dppgemm::emu::tools {

// Throws UsageError (no code object for the target, several and no --arch,
// not a known kind of file) or CodeObjectError (a malformed code object).
CodeObject open_code_object(const std::string& path, const std::optional<std::string>& arch);

}  // namespace dppgemm::emu::tools
