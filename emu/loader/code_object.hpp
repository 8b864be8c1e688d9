#pragma once
// An AMDGPU code object (ELF, OS ABI AMDGPU_HSA, code object v4 or v5) as the
// emulator needs it: target, kernels with their machine code, kernel
// descriptors and metadata, and the loadable segments.
//
//   CodeObject co = load_code_object("sgemm.co");
//   const Kernel& k = co.kernel("sgemm_dpp0");   // throws if absent
//   decode_all(co.target.processor, k.code.data(), k.code.size());  // emu/decode
//
// Loading checks everything it reads and throws CodeObjectError, whose
// message names the file (or "<memory>"), the field and the offending value.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "emu/loader/error.hpp"
#include "emu/loader/kernel_descriptor.hpp"
#include "emu/loader/metadata.hpp"
#include "emu/loader/target.hpp"

namespace dppgemm::emu {

struct Kernel {
    std::string name;  // metadata .name (mangled for C++ kernels)
    KernelMetadata metadata;
    KernelDescriptor descriptor;
    std::uint64_t descriptor_address = 0;  // virtual address of <name>.kd
    // Virtual address of the first instruction: descriptor_address +
    // kernel_code_entry_byte_offset, the address llvm-objdump prints.
    std::uint64_t code_address = 0;
    // Machine code from code_address to the end of the kernel's STT_FUNC
    // symbol, or, without a sized symbol, to the end of its section.
    std::vector<std::uint8_t> code;
    bool code_size_from_symbol = false;
};

// A PT_LOAD segment: memory image of the code object at vaddr. Bytes past
// file_bytes.size() up to memory_size are zero (.bss).
struct Segment {
    std::uint64_t vaddr = 0;
    std::uint64_t memory_size = 0;
    std::uint32_t flags = 0;  // PF_R | PF_W | PF_X
    std::vector<std::uint8_t> file_bytes;
};

// A sized function symbol (STT_FUNC) in an executable section: a kernel's
// code or a device function that kernels call (s_swappc_b64).
struct Function {
    std::string name;
    std::uint64_t address = 0;
    std::vector<std::uint8_t> code;
};

// A sized data symbol (STT_OBJECT) other than a kernel descriptor: a
// `__device__` or `__constant__` variable, at its address in the image.
struct Variable {
    std::string name;
    std::uint64_t address = 0;
    std::uint64_t size = 0;
};

// A dynamic relocation (.rela.dyn) the loader applies when it places the
// image at a base address (AMDGPU ELF ABI, "Relocation Records").
struct Relocation {
    std::uint64_t offset = 0;        // image address patched
    std::uint32_t type = 0;          // R_AMDGPU_*
    std::uint64_t symbol_value = 0;  // S; 0 without a symbol
    std::int64_t addend = 0;         // A
};

struct CodeObject {
    std::string source;  // file path or "<memory>"
    TargetId target;
    unsigned abi_version = 0;  // code object version: 4 or 5
    unsigned metadata_version_major = 0, metadata_version_minor = 0;
    std::vector<Kernel> kernels;  // in metadata order
    std::vector<Segment> segments;
    std::vector<Function> functions;  // by address
    std::vector<Variable> variables;  // by name
    std::vector<Relocation> relocations;
    // Things that are legal but suspicious, e.g. the descriptor and the
    // metadata disagreeing on the LDS size (one line each).
    std::vector<std::string> warnings;

    // nullptr when absent.
    const Kernel* find_kernel(std::string_view name) const;
    // Throws CodeObjectError listing the kernels when absent.
    const Kernel& kernel(std::string_view name) const;
    // nullptr when absent.
    const Variable* find_variable(std::string_view name) const;
    // Bytes from address 0 to the end of the last PT_LOAD segment.
    std::uint64_t image_size() const;
};

// The memory image as a loader places it at device address `base`: every
// PT_LOAD segment at base + vaddr (zero-filled to its memory size) with the
// dynamic relocations applied. The result covers [base, base + image_size()).
std::vector<std::uint8_t> loaded_image(const CodeObject& code_object, std::uint64_t base);

// The emulator's code object image: every PT_LOAD segment lies below this
// address, and a file is at most this big (pipes and devices are read up to
// it, never further).
inline constexpr std::uint64_t max_code_object_bytes = std::uint64_t(1) << 28;

// Reads and checks a code object. The file is read whole (at most
// max_code_object_bytes); a directory, a FIFO without a writer or anything
// larger is a CodeObjectError.
CodeObject load_code_object(const std::string& path);
// The bytes load_code_object(path) reads, with the same limits and errors
// (CodeObjectError naming the path): for callers that look inside the file
// (an offload bundle, a HIP executable) before loading it, reading it once.
std::vector<char> read_code_object_file(const std::string& path);
// The same from bytes in memory; source_name is used in messages. The bytes
// are copied: the caller's buffer is neither kept nor modified.
CodeObject load_code_object(const void* bytes, std::size_t size, std::string source_name = "<memory>");

}  // namespace dppgemm::emu
