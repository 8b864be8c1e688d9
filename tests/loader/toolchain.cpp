#include "toolchain.hpp"

#include "emu/loader/target.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <sstream>

namespace loader_test {
namespace {

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
    return text;
}

// The processor of an -mcpu value ("gfx90a:xnack+" -> gfx90a), from the target table.
dppgemm::emu::Target processor_of(const std::string& mcpu) {
    const auto target = dppgemm::emu::target_from_name(mcpu.substr(0, mcpu.find(':')));
    REQUIRE(target);
    return *target;
}

}  // namespace

const char* const hip_source = R"(
#include <hip/hip_runtime.h>
extern "C" __global__ void scaled_size(int* out, float scale) {
  const char* implicit = (const char*)__builtin_amdgcn_implicitarg_ptr();
  out[threadIdx.x] = blockDim.x * gridDim.x * scale + implicit[threadIdx.x];
}
__global__ void reduce(const float* in, float* out) {
  __shared__ float partial[256];
  partial[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  __syncthreads();
  for (int s = 128; s > 0; s >>= 1) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}
)";

std::string two_kernels_source(const std::string& processor, int version) {
    std::ifstream file(std::string(LOADER_TEST_INPUTS) + "/two_kernels.s.in");
    REQUIRE(file);
    std::stringstream text;
    text << file.rdbuf();
    const bool unified = dppgemm::emu::has_unified_vgpr_file(processor_of(processor));
    const bool architected_scratch = dppgemm::emu::has_architected_flat_scratch(processor_of(processor));
    const std::map<std::string, std::string> tokens = {
        {"SCRATCH_USER_SGPRS", architected_scratch ? ""
                                                   : "\t\t.amdhsa_user_sgpr_private_segment_buffer 1\n"
                                                     "\t\t.amdhsa_user_sgpr_flat_scratch_init 1"},
        {"PRIVATE_SEGMENT", architected_scratch ? "\t\t.amdhsa_enable_private_segment"
                                                : "\t\t.amdhsa_system_sgpr_private_segment_wavefront_offset"},
        {"WIDE_VGPRS", unified ? "56" : "37"},
        {"WIDE_ACCUM", unified ? "\t\t.amdhsa_accum_offset 40" : ""},
        {"NARROW_ACCUM", unified ? "\t\t.amdhsa_accum_offset 4" : ""},
        {"RESERVE_FLAT_SCRATCH", architected_scratch ? "" : "\t\t.amdhsa_reserve_flat_scratch 0"},
        {"METADATA_MINOR", version == 4 ? "1" : "2"},
        {"WIDE_AGPRS", unified ? "16" : "0"},
    };
    std::string source = text.str();
    for (const auto& [key, value] : tokens) source = replace_all(source, "@" + key + "@", value);
    REQUIRE_FALSE(std::regex_search(source, std::regex("@[A-Z_]+@")));
    return source;
}

std::map<std::string, std::int64_t> objdump_descriptor(const std::string& path, const std::string& kd_symbol) {
    return parse_objdump_descriptor(
        run(dppgemm::test_support::llvm19().objdump + " -D --disassemble-symbols=" + kd_symbol + " " + path));
}

std::map<std::string, std::int64_t> parse_objdump_descriptor(const std::string& text) {
    std::map<std::string, std::int64_t> directives;
    const std::regex line(R"(^\s*\.amdhsa_(\w+)\s+(-?\d+)\s*$)");
    std::istringstream lines(text);
    for (std::string l; std::getline(lines, l);) {
        std::smatch match;
        if (std::regex_match(l, match, line)) directives[match[1]] = std::stoll(match[2]);
    }
    REQUIRE(!directives.empty());
    return directives;
}

std::vector<std::map<std::string, std::string>> readelf_kernels(const std::string& path) {
    return parse_readelf_kernels(run(dppgemm::test_support::llvm15().readelf + " --notes " + path));
}

std::vector<std::map<std::string, std::string>> parse_readelf_kernels(const std::string& text) {
    // Kernel-level keys are indented by 4 spaces ("  - .args:" opens a
    // kernel, "    .name: x"); argument keys are deeper.
    std::vector<std::map<std::string, std::string>> kernels;
    const std::regex opener(R"(^  - \.(\w+):\s*(.*)$)");
    const std::regex key(R"(^    \.(\w+):\s+(\S.*)$)");
    std::istringstream lines(text);
    for (std::string l; std::getline(lines, l);) {
        std::smatch match;
        if (std::regex_match(l, match, opener)) {
            kernels.emplace_back();
            if (!match[2].str().empty()) kernels.back()[match[1]] = match[2];
        } else if (!kernels.empty() && std::regex_match(l, match, key)) {
            kernels.back()[match[1]] = match[2];
        }
    }
    return kernels;
}

std::vector<LoadSegment> readelf_load_segments(const std::string& path) {
    return parse_readelf_load_segments(run(dppgemm::test_support::llvm15().readelf + " -l --wide " + path));
}

std::vector<LoadSegment> parse_readelf_load_segments(const std::string& text) {
    // "  LOAD  0x000800 0x0000000000001800 0x0000000000001800 0x000108 0x000108 R E 0x1000"
    const std::regex row(R"(^\s*LOAD\s+0x[0-9a-f]+ 0x([0-9a-f]+) 0x[0-9a-f]+ 0x([0-9a-f]+) 0x([0-9a-f]+) (.{3}) 0x)");
    std::vector<LoadSegment> segments;
    std::istringstream lines(text);
    for (std::string l; std::getline(lines, l);) {
        std::smatch match;
        if (std::regex_search(l, match, row))
            segments.push_back({std::stoull(match[1], nullptr, 16), std::stoull(match[2], nullptr, 16),
                                std::stoull(match[3], nullptr, 16), match[4]});
    }
    return segments;
}

std::vector<std::uint8_t> objdump_code(const std::string& path, const std::string& symbol, const std::string& mcpu) {
    // The symbol's range from llvm-readelf: llvm-objdump alone disassembles
    // up to the next symbol, padding included.
    const std::string symbols = run(dppgemm::test_support::llvm15().readelf + " -s --wide " + path);
    const std::regex entry("^\\s*\\d+: ([0-9a-f]+)\\s+(\\d+) FUNC .* " + symbol + "$");
    std::uint64_t start = 0, size = 0;
    std::istringstream symbol_lines(symbols);
    for (std::string l; std::getline(symbol_lines, l);) {
        std::smatch match;
        if (std::regex_match(l, match, entry)) {
            start = std::stoull(match[1], nullptr, 16);
            size = std::stoull(match[2]);
        }
    }
    REQUIRE(size > 0);
    std::ostringstream command;
    command << dppgemm::test_support::llvm_for(mcpu).objdump << " -d --mcpu=" << mcpu << std::hex
            << " --start-address=0x" << start << " --stop-address=0x" << start + size << " " << path;
    // "	s_cbranch_scc1 2     // 000000001E60: BF850002 <_Z6reducePKfPf+0x60>"
    const std::regex line(R"(// [0-9A-Fa-f]+: ((?:[0-9A-F]{8}(?: |$))+))");
    std::vector<std::uint8_t> bytes;
    std::istringstream lines(run(command.str()));
    for (std::string l; std::getline(lines, l);) {
        std::smatch match;
        if (!std::regex_search(l, match, line)) continue;
        std::istringstream words(match[1].str());
        for (std::string word; words >> word;) {
            const std::uint32_t value = static_cast<std::uint32_t>(std::stoul(word, nullptr, 16));
            for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
        }
    }
    return bytes;
}

}  // namespace loader_test
