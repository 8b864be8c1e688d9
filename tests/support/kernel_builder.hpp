#pragma once
// Test support: assemble a small kernel (clang-15/ld.lld-15, test_toolchain.hpp) and run it on the emulator.
//
// A test kernel has four buffer arguments p0..p3 (8 bytes each, offsets 0..24)
// and four 32-bit values u0..u3 (offsets 32..44). Its prologue leaves
//   s[4:5] = p0, s[6:7] = p1, s[8:9] = p2, s[10:11] = p3, s12..s15 = u0..u3,
//   s2 = workgroup id x, v0 = work-item id x, v1 = 4 * (v0 % 64... lane id) bytes
// (v1 = 4 * v0, the byte offset of the work-item's dword), so a body can end
// with `global_store_dword v1, vN, s[4:5]`.

#include <array>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "emu/exec/dispatch.hpp"
#include "emu/loader/code_object.hpp"
#include "emu/util.hpp"  // u32, u64, i32, i64 for the tests
#include "test_toolchain.hpp"

namespace exec_test {

using namespace dppgemm::emu;
using dppgemm::test_support::code_object_dir;
using dppgemm::test_support::hip_source;

struct KernelOptions {
    std::string mcpu = "gfx906";
    unsigned lds_bytes = 0;
    unsigned denorm_mode_32 = 3;     // .amdhsa_float_denorm_mode_32
    unsigned denorm_mode_16_64 = 3;  // .amdhsa_float_denorm_mode_16_64
    unsigned vgprs = 64;
    // AGPRs (gfx908+): gfx90a+ allocate them after the vgprs ArchVGPRs
    // (.amdhsa_accum_offset vgprs, next_free_vgpr vgprs + agprs); gfx908's
    // separate file has max(vgprs, agprs), as its descriptor counts both.
    unsigned agprs = 0;
    bool prologue = true;
    // Scratch bytes per work-item (.amdhsa_private_segment_fixed_size). When
    // not 0, the prologue also leaves the private segment buffer V# in
    // s[36:39], the wave's scratch offset in s33 and (gfx9) FLAT_SCRATCH set
    // as LLVM's prologue does; gfx940 sets FLAT_SCRATCH itself.
    unsigned private_bytes = 0;
};

// Assembles `body` (followed by s_endpgm) as kernel "k".
CodeObject assemble_kernel(const std::string& body, const KernelOptions& options = {});
// Several kernels in one code object (one assembly): body i becomes kernel
// "k<i>" (co.kernel("k0"), ...), with its .L labels renamed apart.
CodeObject assemble_kernels(const std::vector<std::string>& bodies, const KernelOptions& options = {});
// Assembles a whole source file.
CodeObject assemble_source(const std::string& source, const std::string& mcpu);

// A device with the four buffers of a test kernel.
struct TestRun {
    DeviceMemory memory;
    std::array<std::uint64_t, 4> buffer{};
    std::array<std::uint32_t, 4> value{};
    std::array<std::uint32_t, 3> grid{1, 1, 1};
    std::array<std::uint32_t, 3> block{64, 1, 1};
    unsigned threads = 1;
    DispatchObserver* observer = nullptr;
    std::uint64_t watchdog = LaunchConfig{}.watchdog;
    std::function<void(std::uint64_t, std::uint64_t)> progress;                    // LaunchConfig::progress
    bool cooperative = false;                                                      // LaunchConfig::cooperative
    std::uint64_t team_join_instructions = LaunchConfig{}.team_join_instructions;  // LaunchConfig's
    Schedule schedule;                                                             // LaunchConfig::schedule

    // Buffers of `dwords` dwords each, zeroed.
    explicit TestRun(std::size_t dwords = 1024);
    void fill(int index, const std::vector<std::uint32_t>& data);
    void fill_floats(int index, const std::vector<float>& data);
    std::vector<std::uint32_t> read(int index, std::size_t dwords) const;
    std::vector<float> read_floats(int index, std::size_t count) const;
    DispatchResult run(const Program& program);
    // run(), throwing std::runtime_error with the fault's message when the program faults.
    DispatchResult run_to_end(const Program& program);

    std::size_t dwords;
};

// Loads p1[lane], p2[lane], p3[lane] into v2, v3, v4.
extern const char* const load_three;
// load_three, then `op`, then stores v5 to p0; p0 per lane after the run.
// Throws std::runtime_error with the fault's message when the run faults.
std::vector<std::uint32_t> run_three(const std::string& op, const std::vector<std::uint32_t>& a,
                                     const std::vector<std::uint32_t>& b, const std::vector<std::uint32_t>& c,
                                     const KernelOptions& options = {});
// run_three of each op on the same inputs, in one kernel (one assembly): the
// ops run one after another, each with fresh inputs and v5..v9, s[20:21] and
// vcc zero as in run_three's fresh wave; result i is what run_three(ops[i])
// would return. Uses s[34:35].
std::vector<std::vector<std::uint32_t>> run_three_each(const std::vector<std::string>& ops,
                                                       const std::vector<std::uint32_t>& a,
                                                       const std::vector<std::uint32_t>& b,
                                                       const std::vector<std::uint32_t>& c,
                                                       const KernelOptions& options = {});

// The hipcc-compiled kernels of hip/kernels.hip (gfx906), built once per process.
const CodeObject& hip_kernels();
// hipcc `flags` --cuda-device-only -O2 of one HIP source file.
CodeObject compile_hip(const std::string& source, const std::string& flags);
// hip/<file> compiled by hipcc for `arch` with `options` (e.g. "-O0 -g"), once per process and combination.
const CodeObject& hip_code_object(const std::string& file, const std::string& arch, const std::string& options);

// Runs `program` on `items` work-items in 1-D workgroups of `block`, its
// explicit arguments given in order (each of the argument's exact size).
// Throws with the fault's message when the kernel faults.
template <class... Args>
DispatchResult run_1d(DeviceMemory& memory, const Program& program, std::uint32_t items, std::uint32_t block,
                      unsigned threads, const Args&... args) {
    Kernargs kernargs(program);
    std::size_t position = 0;
    (kernargs.set(position++, args), ...);
    LaunchConfig config;
    config.grid = {(items + block - 1) / block, 1, 1};
    config.block = {block, 1, 1};
    config.kernarg = kernargs.bytes();
    config.threads = threads;
    DispatchResult result = launch(memory, program, config);
    if (result.fault) throw std::runtime_error(result.fault->message);
    return result;
}

std::uint32_t bits(float f);
float from_bits(std::uint32_t u);
std::uint64_t bits64(double d);
double from_bits64(std::uint64_t u);

}  // namespace exec_test
