#include "kernel_builder.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "test_toolchain.hpp"

namespace exec_test {
namespace {

// One kernel's entry of the code object metadata (amdhsa.kernels).
const char* metadata_entry = R"(
  - .name: NAME
    .symbol: NAME.kd
    .kernarg_segment_size: 48
    .kernarg_segment_align: 8
    .group_segment_fixed_size: LDS_BYTES
    .private_segment_fixed_size: PRIVATE_BYTES
    .wavefront_size: 64
    .sgpr_count: 40
    .vgpr_count: VGPRS
    .max_flat_workgroup_size: 1024
    .args:
      - { .name: p0, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: p1, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: p2, .offset: 16, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: p3, .offset: 24, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: u0, .offset: 32, .size: 4, .value_kind: by_value }
      - { .name: u1, .offset: 36, .size: 4, .value_kind: by_value }
      - { .name: u2, .offset: 40, .size: 4, .value_kind: by_value }
      - { .name: u3, .offset: 44, .size: 4, .value_kind: by_value }
)";

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
    for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
        s.replace(at, from.size(), to);
    return s;
}

}  // namespace

CodeObject assemble_source(const std::string& source, const std::string& mcpu) {
    namespace support = dppgemm::test_support;
    static std::atomic<unsigned> assembled{0};
    const std::string name = "kernel." + std::to_string(assembled++);
    std::string path;
    try {
        path = support::assemble(name, source, mcpu, 4);  // 4: clang-15's default
    } catch (const std::runtime_error& failure) {
        throw std::runtime_error("assembling failed:\n" + std::string(failure.what()) + "\nsource:\n" + source);
    }
    CodeObject co = load_code_object(path);
    for (const char* suffix : {".s", ".o", ".co"}) std::filesystem::remove(support::work_dir() + "/" + name + suffix);
    return co;
}

namespace {

// Kernel `name`'s code (the prologue, `body`, s_endpgm) and descriptor.
std::string kernel_text(const std::string& name, const std::string& body, const KernelOptions& o) {
    std::ostringstream s;
    s << ".text\n.globl " << name << "\n.p2align 8\n.type " << name << ",@function\n" << name << ":\n";
    const bool architected = o.mcpu == "gfx940" || o.mcpu == "gfx942";
    const bool unified = o.mcpu == "gfx90a" || architected;  // one VGPR file with the AGPRs at accum_offset
    if (o.private_bytes && !architected)
        // User SGPRs s[0:3] V#, s[4:5] kernarg, s[6:7] flat scratch init; s8 workgroup id, s9 wave offset:
        // moved to where the prologue below expects kernarg and workgroup id.
        s << "  s_add_u32 flat_scratch_lo, s6, s9\n  s_addc_u32 flat_scratch_hi, s7, 0\n  s_mov_b32 s33, s9\n"
          << "  s_mov_b64 s[36:37], s[0:1]\n  s_mov_b64 s[38:39], s[2:3]\n  s_mov_b64 s[0:1], s[4:5]\n  s_mov_b32 s2, "
             "s8\n";
    if (o.prologue)
        s << "  s_load_dwordx8 s[4:11], s[0:1], 0x0\n"
          << "  s_load_dwordx4 s[12:15], s[0:1], 0x20\n"
          << "  v_lshlrev_b32 v1, 2, v0\n"
          << "  s_waitcnt lgkmcnt(0)\n";
    s << body << "\n  s_endpgm\n.L" << name << "_end:\n.size " << name << ", .L" << name << "_end-" << name << "\n"
      << ".rodata\n.p2align 6\n.amdhsa_kernel " << name << "\n"
      << "  .amdhsa_group_segment_fixed_size " << o.lds_bytes << "\n"
      << "  .amdhsa_kernarg_size 48\n"
      << "  .amdhsa_private_segment_fixed_size " << o.private_bytes << "\n";
    if (o.private_bytes && architected) s << "  .amdhsa_enable_private_segment 1\n";
    if (o.private_bytes && !architected)
        s << "  .amdhsa_user_sgpr_private_segment_buffer 1\n  .amdhsa_user_sgpr_flat_scratch_init 1\n"
          << "  .amdhsa_system_sgpr_private_segment_wavefront_offset 1\n";
    s << "  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n"
      << "  .amdhsa_system_sgpr_workgroup_id_x 1\n"
      << "  .amdhsa_next_free_vgpr " << (unified ? o.vgprs + o.agprs : std::max(o.vgprs, o.agprs)) << "\n"
      << "  .amdhsa_next_free_sgpr 40\n"
      << "  .amdhsa_float_denorm_mode_32 " << o.denorm_mode_32 << "\n"
      << "  .amdhsa_float_denorm_mode_16_64 " << o.denorm_mode_16_64 << "\n";
    if (unified) s << "  .amdhsa_accum_offset " << o.vgprs << "\n";
    s << ".end_amdhsa_kernel\n";
    return s.str();
}

std::string metadata_text(const std::string& name, const KernelOptions& o) {
    return replace_all(
        replace_all(replace_all(replace_all(metadata_entry, "NAME", name), "LDS_BYTES", std::to_string(o.lds_bytes)),
                    "VGPRS", std::to_string(o.vgprs)),
        "PRIVATE_BYTES", std::to_string(o.private_bytes));
}

std::string source_of(const std::vector<std::pair<std::string, std::string>>& kernels, const KernelOptions& o) {
    std::string source = ".amdgcn_target \"amdgcn-amd-amdhsa--" + o.mcpu + "\"\n";
    std::string metadata = "\n.amdgpu_metadata\n---\namdhsa.version: [ 1, 1 ]\namdhsa.kernels:";
    for (const auto& [name, body] : kernels) {
        source += kernel_text(name, body, o);
        metadata += metadata_text(name, o);
    }
    return source + metadata + "\n...\n.end_amdgpu_metadata\n";
}

}  // namespace

CodeObject assemble_kernel(const std::string& body, const KernelOptions& o) {
    return assemble_source(source_of({{"k", body}}, o), o.mcpu);
}

CodeObject assemble_kernels(const std::vector<std::string>& bodies, const KernelOptions& o) {
    std::vector<std::pair<std::string, std::string>> kernels;
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        const std::string name = "k" + std::to_string(i);
        // Each body's own .L labels.
        kernels.emplace_back(name, replace_all(bodies[i], ".L", ".L" + name + "_"));
    }
    return assemble_source(source_of(kernels, o), o.mcpu);
}

TestRun::TestRun(std::size_t n) : dwords(n) {
    for (int i = 0; i < 4; ++i) buffer[i] = memory.allocate(4 * n, "p" + std::to_string(i));
}

void TestRun::fill(int index, const std::vector<std::uint32_t>& data) {
    memory.write(buffer[index], data.data(), 4 * data.size());
}
void TestRun::fill_floats(int index, const std::vector<float>& data) {
    memory.write(buffer[index], data.data(), 4 * data.size());
}
std::vector<std::uint32_t> TestRun::read(int index, std::size_t n) const {
    std::vector<std::uint32_t> out(n);
    memory.read(buffer[index], out.data(), 4 * n);
    return out;
}
std::vector<float> TestRun::read_floats(int index, std::size_t n) const {
    std::vector<float> out(n);
    memory.read(buffer[index], out.data(), 4 * n);
    return out;
}

DispatchResult TestRun::run(const Program& program) {
    Kernargs args(program);
    for (int i = 0; i < 4; ++i) args.set(i, buffer[i]);
    for (int i = 0; i < 4; ++i) args.set(4 + i, value[i]);
    LaunchConfig config;
    config.grid = grid;
    config.block = block;
    config.kernarg = args.bytes();
    config.threads = threads;
    config.observer = observer;
    config.watchdog = watchdog;
    config.progress = progress;
    config.cooperative = cooperative;
    config.team_join_instructions = team_join_instructions;
    config.schedule = schedule;
    return launch(memory, program, config);
}

DispatchResult TestRun::run_to_end(const Program& program) {
    DispatchResult result = run(program);
    if (result.fault) throw std::runtime_error("the kernel faulted: " + result.fault->message);
    return result;
}

CodeObject compile_hip(const std::string& source, const std::string& flags) {
    const std::string path = dppgemm::test_support::compile_hip(source, flags);
    CodeObject loaded = load_code_object(path);
    std::filesystem::remove_all(std::filesystem::path(path).parent_path());
    return loaded;
}

const CodeObject& hip_code_object(const std::string& file, const std::string& arch, const std::string& options) {
    static std::mutex lock;
    static std::map<std::string, std::unique_ptr<CodeObject>> built;
    const std::lock_guard<std::mutex> guard(lock);
    std::unique_ptr<CodeObject>& slot = built[file + " " + arch + " " + options];
    if (!slot) {
        slot = std::make_unique<CodeObject>(
            compile_hip(dppgemm::test_support::hip_source(file), "--offload-arch=" + arch + " " + options));
    }
    return *slot;
}

const char* const load_three = R"(
  global_load_dword v2, v1, s[6:7]
  global_load_dword v3, v1, s[8:9]
  global_load_dword v4, v1, s[10:11]
  s_waitcnt vmcnt(0)
)";

std::vector<std::uint32_t> run_three(const std::string& op, const std::vector<std::uint32_t>& a,
                                     const std::vector<std::uint32_t>& b, const std::vector<std::uint32_t>& c,
                                     const KernelOptions& options) {
    const CodeObject co =
        assemble_kernel(std::string(load_three) + op + "\n  global_store_dword v1, v5, s[4:5]\n", options);
    const Program program = build_program(co, co.kernels.at(0));
    TestRun run(64);
    run.fill(1, a);
    run.fill(2, b);
    run.fill(3, c);
    run.run_to_end(program);
    return run.read(0, 64);
}

std::vector<std::vector<std::uint32_t>> run_three_each(const std::vector<std::string>& ops,
                                                       const std::vector<std::uint32_t>& a,
                                                       const std::vector<std::uint32_t>& b,
                                                       const std::vector<std::uint32_t>& c,
                                                       const KernelOptions& options) {
    std::string body;
    for (std::size_t i = 0; i < ops.size(); ++i) {
        body += std::string(load_three);
        // What a fresh wave of run_three has in the registers an op may read back or half-write.
        for (const char* reg : {"v5", "v6", "v7", "v8", "v9"}) body += std::string("  v_mov_b32 ") + reg + ", 0\n";
        body += "  s_mov_b64 s[20:21], 0\n  s_mov_b64 vcc, 0\n";
        body += ops[i] + "\n  s_add_u32 s34, s4, " + std::to_string(256 * i) + "\n  s_addc_u32 s35, s5, 0\n" +
                "  global_store_dword v1, v5, s[34:35]\n";
    }
    const CodeObject co = assemble_kernel(body, options);
    const Program program = build_program(co, co.kernels.at(0));
    TestRun run(64 * std::max<std::size_t>(ops.size(), 1));
    run.fill(1, a);
    run.fill(2, b);
    run.fill(3, c);
    const DispatchResult r = run.run(program);
    if (!r.ok()) throw std::runtime_error("run_three_each: " + (r.fault ? r.fault->message : std::string("not ok")));
    const std::vector<std::uint32_t> all = run.read(0, 64 * ops.size());
    std::vector<std::vector<std::uint32_t>> results;
    for (std::size_t i = 0; i < ops.size(); ++i) results.emplace_back(all.begin() + 64 * i, all.begin() + 64 * (i + 1));
    return results;
}

const CodeObject& hip_kernels() { return hip_code_object("kernels.hip", "gfx906", "-O2"); }

namespace {
template <class To, class From>
To same_bits(From from) {
    static_assert(sizeof(To) == sizeof(From));
    To to;
    std::memcpy(&to, &from, sizeof to);
    return to;
}
}  // namespace

std::uint32_t bits(float f) { return same_bits<std::uint32_t>(f); }
float from_bits(std::uint32_t u) { return same_bits<float>(u); }
std::uint64_t bits64(double d) { return same_bits<std::uint64_t>(d); }
double from_bits64(std::uint64_t u) { return same_bits<double>(u); }

}  // namespace exec_test
