#pragma once
// The loader tests' inputs (HIP C++, the two-kernel assembly template) and
// readers of what the LLVM tools say about a code object, so that the
// loader's results are checked against an independent decoder. Building and
// running the tools is the shared test toolchain's (tests/support/).

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "test_toolchain.hpp"

namespace loader_test {

// The shared test toolchain (tests/support/test_toolchain.hpp) under the
// names the loader and tools tests call it by.
using dppgemm::test_support::assemble;
using dppgemm::test_support::assemble_relocatable;
using dppgemm::test_support::read_bytes;
using dppgemm::test_support::run;
using dppgemm::test_support::work_dir;
using dppgemm::test_support::write_bytes;
inline std::string hipcc(const std::string& name, const std::string& source, int version) {
    return dppgemm::test_support::hipcc_gfx906(name, source, version);
}

// HIP C++ with two kernels: scaled_size reads its implicit arguments (so
// hipcc keeps the hidden ones in the metadata), _Z6reducePKfPf uses LDS,
// __syncthreads and branches.
extern const char* const hip_source;

// tests/loader/inputs/two_kernels.s.in with its @TOKENS@ filled in for the
// target and version.
std::string two_kernels_source(const std::string& processor, int version);

// `.amdhsa_*` directives from llvm-objdump-19 -D of the descriptor symbol:
// {"group_segment_fixed_size": 4096, "next_free_vgpr": 4, ...}.
std::map<std::string, std::int64_t> objdump_descriptor(const std::string& path, const std::string& kd_symbol);
// The same from llvm-objdump-19 -D output already in hand (one file's part).
std::map<std::string, std::int64_t> parse_objdump_descriptor(const std::string& text);

// Per kernel (in order), the scalar `.key: value` lines of its entry in
// llvm-readelf-15 --notes (kernel-level keys only, not .args).
std::vector<std::map<std::string, std::string>> readelf_kernels(const std::string& path);
std::vector<std::map<std::string, std::string>> parse_readelf_kernels(const std::string& text);

// PT_LOAD rows of llvm-readelf-15 -l: {vaddr, file size, memory size, "R E"}.
struct LoadSegment {
    std::uint64_t vaddr, file_size, memory_size;
    std::string flags;
};
std::vector<LoadSegment> readelf_load_segments(const std::string& path);
std::vector<LoadSegment> parse_readelf_load_segments(const std::string& text);

// The machine code bytes llvm-objdump -d prints for the STT_FUNC `symbol`
// (its range taken from llvm-readelf -s).
std::vector<std::uint8_t> objdump_code(const std::string& path, const std::string& symbol, const std::string& mcpu);

}  // namespace loader_test
