// Code objects as hipModuleLoad and hipModuleLoadData receive them: an AMDGPU
// ELF, or a clang offload bundle (what `hipcc --genco` writes) holding one ELF
// per target.
#pragma once

#include <hip/hip_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace dppgemm::hipemu {

// hipModuleLoadData passes no size: the extent of an ELF or bundle from its
// headers; nullopt when the bytes are neither.
std::optional<std::size_t> image_size(const void* image);

struct ExtractedCodeObject {
    const std::uint8_t* data = nullptr;  // nullptr: see error and why
    std::size_t size = 0;
    hipError_t error = hipSuccess;  // hipErrorInvalidImage, or hipErrorNoBinaryForGpu for a bundle without `processor`
    std::string why;
};

// The ELF in `image` for a processor (e.g. gfx906): the image itself when it is
// an ELF (its target is checked when loaded), else the bundle entry whose
// triple names the processor.
ExtractedCodeObject extract_code_object(const void* image, std::size_t size, const std::string& processor);

}  // namespace dppgemm::hipemu
