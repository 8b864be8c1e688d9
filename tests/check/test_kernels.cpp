// The checkers on real code: every dppgemm kernel reports nothing, every
// s_waitcnt / s_barrier / s_nop removed one at a time is found, and the
// hipcc-compiled kernels of the executor tests report nothing.

#include <catch2/catch.hpp>

#include <map>
#include <mutex>
#include <random>
#include <sstream>

#include "../support/kernel_table.hpp"
#include "../support/sgemm_launch.hpp"
#include "check_support.hpp"
#include "dppgemm/code_objects.h"
#include "test_toolchain.hpp"

using namespace check_test;
using dppgemm::test_support::random_matrix;
using dppgemm::test_support::sgemm_kernargs;
using dppgemm::test_support::SgemmLaunch;

namespace {

struct SgemmKernel {
    const dppgemm_code_object* object;
    CodeObject code;
    std::string name() const { return std::string(object->target) + " " + object->kernel_name; }
};

std::vector<SgemmKernel> sgemm_kernels() {
    std::vector<SgemmKernel> kernels;
    for (std::size_t i = 0; i < dppgemm_code_object_count(); ++i) {
        const dppgemm_code_object* o = dppgemm_code_object_at(i);
        kernels.push_back({o, load_code_object(o->data, o->size, o->kernel_name)});
    }
    return kernels;
}

// M = N = the kernel's macro tile + 2 (2 x 2 workgroups, edge tiles: 130 at
// 128x128), K = 17 (3 k steps: prologue, loop with prefetch, last step), alpha
// and beta non-zero (the blend epilogue with its loads of C runs).
Checked run_sgemm(const Program& program, const std::string& layout, unsigned macro_tile, CheckOptions options = {}) {
    const int m = int(macro_tile) + 2, n = m, k = 17;
    const bool ta = layout[0] == 'T', tb = layout[1] == 'T';
    const int lda = (ta ? k : m) + 1, ldb = (tb ? n : k) + 2, ldc = m + 3;
    // The same operands for every run of a layout and tile (the mutation test
    // runs each layout hundreds of times): made once.
    struct Operands {
        std::vector<float> a, b, c;
    };
    static std::map<std::string, Operands> cache;
    static std::mutex cache_mutex;
    std::unique_lock<std::mutex> lock(cache_mutex);
    auto [entry, made] = cache.try_emplace(layout + std::to_string(macro_tile));
    if (made) {
        std::mt19937 rng(3);
        entry->second.a = random_matrix(std::size_t(lda) * (ta ? m : k), rng);
        entry->second.b = random_matrix(std::size_t(ldb) * (tb ? k : n), rng);
        entry->second.c = random_matrix(std::size_t(ldc) * n, rng);
    }
    const Operands& operands = entry->second;
    lock.unlock();
    SgemmLaunch run(operands.a, operands.b, operands.c, sgemm_kernargs(m, n, k, lda, ldb, ldc, 1.5f, 0.5f), macro_tile);
    run.config.threads = 2;
    return launch_checked(run.memory, program, run.config, options);
}

// run_sgemm with the checker's watch plan, compared with watching every instruction.
Checked run_sgemm_both(const Program& program, const std::string& layout, unsigned macro_tile) {
    return planned_and_every([&](CheckOptions options) { return run_sgemm(program, layout, macro_tile, options); });
}

bool is_mutation_site(const Inst& inst) {
    const OpInfo& info = inst.info();
    return info.has(OF_WAITCNT) || info.has(OF_BARRIER) || info.has(OF_NOP);
}

// Per kernel (SgemmKernel::name), the s_waitcnt, s_barrier and s_nop lines of
// llvm-objdump's listing (the disassembly oracle, not the emulator's decoder):
// the mutants the test must make. One llvm-objdump per target.
std::map<std::string, unsigned> disassembled_mutation_sites(const std::vector<SgemmKernel>& kernels) {
    namespace support = dppgemm::test_support;
    std::map<std::string, std::vector<const SgemmKernel*>> by_target;
    for (const SgemmKernel& k : kernels) by_target[k.object->target].push_back(&k);
    const std::string dir = support::fresh_dir("objdump");
    std::map<std::string, unsigned> sites;
    for (const auto& [target, list] : by_target) {
        std::string command = support::llvm_for(target).objdump + " -d --mcpu=" + target;
        std::map<std::string, std::string> name_of;  // the listing's "<path>:" -> kernel
        for (const SgemmKernel* k : list) {
            const std::string path = dir + "/" + target + "_" + k->object->kernel_name + ".co";
            support::write_bytes(path, {k->object->data, k->object->data + k->object->size});
            command += " " + path;
            name_of[path + ":"] = k->name();
            sites[k->name()] = 0;
        }
        // Each object's listing starts "<path>:\tfile format ..."; an instruction
        // line starts with its mnemonic.
        std::istringstream counts(support::run(
            command + " | awk '/file format/ { object = $1 } $1 ~ /^s_(waitcnt|barrier|nop)$/ { ++n[object] } " +
            "END { for (o in n) print o, n[o] }'"));
        std::string object;
        for (unsigned n; counts >> object >> n;) sites.at(name_of.at(object)) = n;
    }
    return sites;
}

// One kernel, run checked with the watch plan and watching everything: no
// finding, and its fp32 denorm mode is the row's.
void check_reports_nothing(const SgemmKernel& k) {
    // The rows that keep fp32 denormals (FP32_DENORMALS=1) start the wave
    // with MODE's fp32 denorm field at 3; every other kernel flushes (0).
    CHECK(k.code.kernels.at(0).descriptor.float_mode.denorm_32 == (dppgemm_test::keeps_denormals(k.object->variant)
                                                                       ? FloatDenormMode::flush_none
                                                                       : FloatDenormMode::flush_src_dst));
    const Program program = build_program(k.code, k.code.kernels.at(0));
    const Checked c = run_sgemm_both(program, k.object->layout, dppgemm_code_object_macro_tile(k.object));
    INFO(k.name() << "\n" << c.text());
    CHECK(c.findings.empty());
    CHECK(c.result.ok());
}

}  // namespace

TEST_CASE("the dppgemm kernels report nothing on every target, variant and layout", "[check][sgemm][every-kernel]") {
    const std::vector<SgemmKernel> kernels = sgemm_kernels();
    CHECK(kernels.size() == dppgemm_test::expected_code_objects());
    for (const SgemmKernel& k : kernels) check_reports_nothing(k);
}

// The sweep above in a sample small enough for the sanitized build, where
// the sweep takes a minute: every variant on the last target that has it, in
// one layout each (the four in turn), and every target's first kernel.
TEST_CASE("the dppgemm kernels report nothing: every variant once, every target once", "[check][sgemm]") {
    const std::vector<SgemmKernel> kernels = sgemm_kernels();
    std::map<std::string, const SgemmKernel*> last_target_of;   // variant -> its kernel on the last target
    std::map<std::string, const SgemmKernel*> first_of_target;  // target -> its first kernel
    for (const SgemmKernel& k : kernels) {
        last_target_of[k.object->variant] = &k;
        first_of_target.try_emplace(k.object->target, &k);
    }
    const char* const layouts[] = {"NN", "NT", "TN", "TT"};
    std::size_t turn = 0, sampled = 0;
    for (const auto& [variant, last] : last_target_of) {
        const std::string layout = layouts[turn++ % 4];
        for (const SgemmKernel& k : kernels)
            if (k.object->variant == variant && std::string(k.object->target) == last->object->target &&
                k.object->layout == layout) {
                check_reports_nothing(k);
                ++sampled;
            }
    }
    for (const auto& [target, first] : first_of_target) {
        check_reports_nothing(*first);
        ++sampled;
    }
    CHECK(sampled == last_target_of.size() + first_of_target.size());
}

TEST_CASE("every s_waitcnt, s_barrier and s_nop removed from a dppgemm kernel is found", "[check][sgemm][mutation]") {
    // The kernels need no DPP s_nop: B registers, the only DPP sources, are
    // written by ds_read and never by VALU (asm/sgemm.s). Their only s_nops
    // are the gfx94x VCC ones between v_cmp and v_cndmask. Removing any
    // s_waitcnt, s_barrier or s_nop breaks a rule on the executed path: every
    // wait guards a read of the registers it covers (or, before each
    // s_barrier, the ds_writes the barrier publishes), and every barrier
    // separates one stage's ds_writes from the other waves' ds_reads of it.
    // One finding is all this asks for: the dispatch stops at the first
    // (CheckOptions::stop_at_first), and a mutation that went unnoticed still
    // runs to the end.
    CheckOptions first_only;
    first_only.stop_at_first = true;
    const std::vector<SgemmKernel> kernels = sgemm_kernels();
    const std::map<std::string, unsigned> disassembled = disassembled_mutation_sites(kernels);
    unsigned mutations = 0, nops = 0, expected = 0;
    for (const SgemmKernel& k : kernels) {
        const Kernel& kernel = k.code.kernels.at(0);
        const Target target = k.code.target.processor;
        const Program original = build_program(kernel, target);
        const unsigned before = mutations;
        for (const Inst& inst : original.insts) {
            if (!is_mutation_site(inst)) continue;
            const Program mutated = build_program(with_nop_at(kernel, inst.pc), target);
            // Every fourth mutant is also run watching every instruction (all of
            // them would double the test's time): the findings must not differ.
            // Those run to the end: with stop_at_first, how many workgroups
            // report before the dispatch stops depends on the thread timing.
            const bool compare = mutations % 4 == 0;
            const unsigned tile = dppgemm_code_object_macro_tile(k.object);
            const Checked c = compare ? run_sgemm_both(mutated, k.object->layout, tile)
                                      : run_sgemm(mutated, k.object->layout, tile, first_only);
            INFO(k.name() << ": removed pc " << inst.pc << " " << original.disassemble(original.index_of(inst.pc))
                          << "\n"
                          << c.text());
            CHECK_FALSE(c.findings.empty());
            ++mutations;
            nops += inst.info().has(OF_NOP);
        }
        INFO(k.name());
        CHECK(mutations - before == disassembled.at(k.name()));
        expected += disassembled.at(k.name());
    }
    CHECK(mutations == expected);
    CHECK(nops > 0);
}

namespace {

// A hipcc kernel with float/int buffers of `count` elements at the pointer
// positions and the given values after them.
Checked run_hip(const char* name, unsigned buffers, std::size_t count, const std::vector<int>& values,
                std::array<std::uint32_t, 3> grid, std::array<std::uint32_t, 3> block, CheckOptions options) {
    const Program program = build_program(exec_test::hip_kernels(), exec_test::hip_kernels().kernel(name));
    DeviceMemory memory;
    Kernargs args(program);
    std::vector<float> data(count);
    for (std::size_t i = 0; i < count; ++i) data[i] = float(i % 13);
    for (unsigned b = 0; b < buffers; ++b) {
        const std::uint64_t address = memory.allocate(4 * count);
        memory.write(address, data.data(), 4 * count);
        args.set(b, address);
    }
    for (std::size_t i = 0; i < values.size(); ++i) args.set(buffers + i, values[i]);
    LaunchConfig config;
    config.grid = grid;
    config.block = block;
    config.kernarg = args.bytes();
    config.threads = 2;
    return launch_checked(memory, program, config, options);
}

Checked run_hip_both(const char* name, unsigned buffers, std::size_t count, const std::vector<int>& values,
                     std::array<std::uint32_t, 3> grid, std::array<std::uint32_t, 3> block) {
    return planned_and_every(
        [&](CheckOptions options) { return run_hip(name, buffers, count, values, grid, block, options); });
}

}  // namespace

TEST_CASE("the hipcc-compiled kernels report nothing", "[check][hip]") {
    const Checked runs[] = {
        run_hip_both("vadd", 3, 1000, {1000}, {4, 1, 1}, {256, 1, 1}),
        run_hip_both("naive_sgemm", 3, 37 * 21, {37, 21, 13}, {3, 3, 1}, {16, 8, 1}),
        run_hip_both("reduce", 2, 1000, {1000}, {4, 1, 1}, {256, 1, 1}),
        run_hip_both("shuffle", 2, 64, {}, {1, 1, 1}, {64, 1, 1}),
    };
    for (const Checked& c : runs) {
        INFO(c.text());
        CHECK(c.findings.empty());
        CHECK(c.result.ok());
    }
}
