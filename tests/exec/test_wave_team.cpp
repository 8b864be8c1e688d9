// One workgroup's waves on several threads (dispatch.hpp, "Small grids" in
// docs/emulator-performance.md): a grid of fewer workgroups than threads
// gives the idle threads to the waves, phase by phase between barriers.
// Whatever the thread count, memory, counters and the reported fault are
// those of the sequential schedule (threads = 1).

#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <random>

#include "kernel_builder.hpp"
#include "sgemm_run.hpp"
#include "test_toolchain.hpp"

using namespace exec_test;

namespace {

struct Outcome {
    std::vector<std::uint32_t> memory;  // every buffer the kernel may write, concatenated
    DispatchResult dispatch;
};

void require_same(const Outcome& sequential, const Outcome& parallel) {
    CHECK(parallel.memory == sequential.memory);
    CHECK(parallel.dispatch.counters == sequential.dispatch.counters);
    REQUIRE(parallel.dispatch.fault.has_value() == sequential.dispatch.fault.has_value());
    if (sequential.dispatch.fault) CHECK(parallel.dispatch.fault->message == sequential.dispatch.fault->message);
}

// dppgemm SGEMM 128x128xK: one workgroup of four waves, LDS tiles between
// two barriers per K step.
Outcome run_sgemm(const Program& program, unsigned threads, int k) {
    std::mt19937 rng(7);
    const std::vector<float> a = random_matrix(std::size_t(128) * k, rng), b = random_matrix(std::size_t(k) * 128, rng),
                             c = random_matrix(128 * 128, rng);
    const Gemm g{'N', 'N', 128, 128, k, 128, k, 128, 1.25f, -0.5f};
    const GemmResult r = run_gemm(program, 128 /* dpp0, dpp1 */, g, a, b, c, threads);
    Outcome o;
    o.dispatch = r.dispatch;
    o.memory.resize(r.c.size());
    std::memcpy(o.memory.data(), r.c.data(), 4 * r.c.size());
    return o;
}

}  // namespace

TEST_CASE("a one-workgroup dppgemm SGEMM gives the same C and counters on 1, 2 and 4 threads", "[waves]") {
    for (const char* variant : {"dpp0", "dpp1"}) {
        const std::string path =
            dppgemm::test_support::code_object_dir() + "/gfx906/dppgemm_sgemm_" + variant + "_NN.co";
        REQUIRE(std::filesystem::exists(path));
        const CodeObject co = load_code_object(path);
        const Program program = build_program(co, co.kernels.at(0));
        REQUIRE_FALSE(program.wave_order_matters);
        const Outcome sequential = run_sgemm(program, 1, 96);
        INFO(variant);
        REQUIRE(sequential.dispatch.ok());
        CHECK(sequential.dispatch.counters[InstClass::barrier] >= 4 * 10);  // many phases per wave
        for (unsigned threads : {2u, 4u}) {
            INFO("threads " << threads);
            require_same(sequential, run_sgemm(program, threads, 96));
        }
    }
}

TEST_CASE("a one-workgroup hipcc LDS reduction with __syncthreads is the same on 1, 2 and 4 threads", "[waves][hip]") {
    const Program program = build_program(hip_kernels(), hip_kernels().kernel("reduce"));
    REQUIRE_FALSE(program.wave_order_matters);
    auto run = [&](unsigned threads) {
        const int n = 256;
        std::vector<float> in(n);
        for (int i = 0; i < n; ++i) in[i] = 1.0f / float(i + 1);  // inexact sums: the addition order shows
        DeviceMemory memory;
        const std::uint64_t din = memory.allocate(4 * n), dout = memory.allocate(4);
        memory.write(din, in.data(), 4 * n);
        Kernargs args(program);
        args.set(0, din).set(1, dout).set(2, n);
        LaunchConfig config;
        config.block = {256, 1, 1};
        config.kernarg = args.bytes();
        config.threads = threads;
        Outcome o;
        o.dispatch = launch(memory, program, config);
        o.memory.resize(1);
        memory.read(dout, o.memory.data(), 4);
        return o;
    };
    const Outcome sequential = run(1);
    REQUIRE(sequential.dispatch.ok());
    CHECK(sequential.dispatch.counters[InstClass::barrier] == 4 * 9);  // 4 waves, 9 __syncthreads
    for (unsigned threads : {2u, 4u}) {
        INFO("threads " << threads);
        require_same(sequential, run(threads));
    }
}

// Waves 1 and 3 fault in the same phase; wave 3 at once, wave 1 after a
// loop, so that on several threads wave 3 faults first in time. The
// sequential schedule stops at wave 1 (waves run in order), and so must the
// team: same fault, same counters (wave 2's and 3's work in that phase is
// not counted). Wave 0's store, before wave 1 in order, is there either way.
TEST_CASE("the fault a workgroup reports on several threads is its lowest faulting wave's, as on one", "[waves]") {
    const CodeObject co = assemble_kernel(R"(
  v_readfirstlane_b32 s20, v0
  s_lshr_b32 s20, s20, 6              // wave index
  global_store_dword v1, v0, s[6:7]   // phase 0: every wave stores
  s_waitcnt vmcnt(0)
  s_barrier
  s_cmp_eq_u32 s20, 1
  s_cbranch_scc0 not_wave1
  s_mov_b32 s21, 3000
spin:
  s_sub_u32 s21, s21, 1
  s_cmp_lg_u32 s21, 0
  s_cbranch_scc1 spin
  s_branch fault
not_wave1:
  s_cmp_eq_u32 s20, 3
  s_cbranch_scc1 fault
  global_store_dword v1, v0, s[4:5]
  s_endpgm
fault:
  v_mov_b32 v2, 0x40
  v_mov_b32 v3, s20                   // 0x1_0000_0040 for wave 1, 0x3_0000_0040 for wave 3: no allocation
  global_load_dword v4, v[2:3], off
  s_waitcnt vmcnt(0)
)");
    const Program program = build_program(co, co.kernels.at(0));
    auto run = [&](unsigned threads) {
        TestRun r(256);
        r.block = {256, 1, 1};
        r.threads = threads;
        Outcome o;
        o.dispatch = r.run(program);
        o.memory = r.read(0, 64);                                      // wave 0's phase-1 stores
        for (std::uint32_t x : r.read(1, 256)) o.memory.push_back(x);  // every wave's phase-0 stores
        return o;
    };
    const Outcome sequential = run(1);
    REQUIRE(sequential.dispatch.fault.has_value());
    CHECK(sequential.dispatch.fault->wave == 1);
    CHECK(sequential.dispatch.fault->address == 0x100000040ull);
    CHECK(sequential.memory[63] == 63);
    for (unsigned threads : {2u, 4u}) {
        INFO("threads " << threads);
        for (int repeat = 0; repeat < 5; ++repeat) require_same(sequential, run(threads));
    }
}

// An LDS atomic returns what the waves before it left: the order of the
// waves shows in the results, so such a program runs them in order however
// many threads there are (Program::wave_order_matters).
TEST_CASE("a program with atomics keeps its waves in order on several threads", "[waves]") {
    const CodeObject co = assemble_kernel(R"(
  v_mov_b32 v2, 0
  v_mov_b32 v3, 1
  ds_add_rtn_u32 v4, v2, v3
  s_waitcnt lgkmcnt(0)
  global_store_dword v1, v4, s[4:5]
)",
                                          [] {
                                              KernelOptions options;
                                              options.lds_bytes = 64;
                                              return options;
                                          }());
    const Program program = build_program(co, co.kernels.at(0));
    CHECK(program.wave_order_matters);
    auto run = [&](unsigned threads) {
        TestRun r(256);
        r.block = {256, 1, 1};
        r.threads = threads;
        Outcome o;
        o.dispatch = r.run(program);
        o.memory = r.read(0, 256);
        return o;
    };
    const Outcome sequential = run(1);
    REQUIRE(sequential.dispatch.ok());
    // Wave w runs after waves 0..w-1: its lanes see 64w.. 64w+63 in some order.
    for (unsigned wave = 0; wave < 4; ++wave)
        for (unsigned lane = 0; lane < 64; ++lane) {
            const std::uint32_t old = sequential.memory[64 * wave + lane];
            CHECK((old >= 64 * wave && old < 64 * wave + 64));
        }
    for (unsigned threads : {2u, 4u})
        for (int repeat = 0; repeat < 5; ++repeat) require_same(sequential, run(threads));
}
