// One workgroup's waves on several threads (dispatch.hpp, "Small grids" in
// docs/emulator-performance.md): a grid of fewer workgroups than threads
// gives the idle threads to the waves, phase by phase between barriers,
// once a workgroup has run LaunchConfig::team_join_instructions alone (0
// here unless said: the team from the first phase). Whatever the thread
// count and the point where the team joins, memory, counters and the
// reported fault are those of the sequential schedule (threads = 1).

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
Outcome run_sgemm(const Program& program, unsigned threads, int k, std::uint64_t team_join_instructions = 0) {
    std::mt19937 rng(7);
    const std::vector<float> a = random_matrix(std::size_t(128) * k, rng), b = random_matrix(std::size_t(k) * 128, rng),
                             c = random_matrix(128 * 128, rng);
    dppgemm::test_support::SgemmLaunch run(
        a, b, c, dppgemm::test_support::sgemm_kernargs(128, 128, k, 128, k, 128, 1.25f, -0.5f), 128 /* dpp0, dpp1 */);
    run.config.threads = threads;
    run.config.team_join_instructions = team_join_instructions;
    Outcome o;
    o.dispatch = launch(run.memory, program, run.config);
    const std::vector<float> result = run.c();
    o.memory.resize(result.size());
    std::memcpy(o.memory.data(), result.data(), 4 * result.size());
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
        // The team joins after 1000 wave instructions (in the middle of a
        // phase: more than a few waves' worth), and never.
        REQUIRE(sequential.dispatch.counters.wave_instructions() > 4 * 1000);
        require_same(sequential, run_sgemm(program, 2, 96, 1000));
        require_same(sequential, run_sgemm(program, 2, 96, ~std::uint64_t{0}));
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
        config.team_join_instructions = 0;
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
        r.team_join_instructions = 0;
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

// A workgroup starts with zeroed LDS, SGPRs and the VGPRs its program uses,
// whatever an earlier workgroup, launch or program left in the (pooled)
// waves and LDS: each work-item reads its LDS dword, v20 and s30 before
// writing them, and stores what it read.
TEST_CASE("LDS and registers start zero in every workgroup, launch and program", "[waves]") {
    const std::string reads_then_writes = R"(
  s_mul_i32 s20, s2, 512
  v_add_u32 v2, s20, v1               // this work-item's byte in the outputs
  ds_read_b32 v3, v1
  s_waitcnt lgkmcnt(0)
  global_store_dword v2, v3, s[4:5]
  global_store_dword v2, v20, s[6:7]
  v_mov_b32 v4, s30
  global_store_dword v2, v4, s[8:9]
  v_mov_b32 v5, 0x5a5a
  ds_write_b32 v1, v5
  v_mov_b32 v20, 0x1234
  s_mov_b32 s30, 0x4321
  s_waitcnt vmcnt(0) lgkmcnt(0)
)";
    // Another program that leaves other values in the same places.
    const std::string writes = R"(
  v_mov_b32 v5, 0x7777
  ds_write_b32 v1, v5
  v_mov_b32 v20, 0x2468
  s_mov_b32 s30, 0x1357
  s_waitcnt lgkmcnt(0)
)";
    KernelOptions options;
    options.lds_bytes = 512;
    const CodeObject co = assemble_kernels({reads_then_writes, writes}, options);
    const Program reader = build_program(co, co.kernel("k0")), writer = build_program(co, co.kernel("k1"));
    for (unsigned threads : {1u, 2u}) {
        for (std::uint32_t workgroups : {1u, 3u}) {
            INFO("threads " << threads << ", workgroups " << workgroups);
            TestRun r(3 * 128);
            r.grid = {workgroups, 1, 1};
            r.block = {128, 1, 1};
            r.threads = threads;
            r.team_join_instructions = 0;
            for (int launch = 0; launch < 2; ++launch) {
                r.fill(0, std::vector<std::uint32_t>(3 * 128, 1));
                r.fill(1, std::vector<std::uint32_t>(3 * 128, 1));
                r.fill(2, std::vector<std::uint32_t>(3 * 128, 1));
                REQUIRE(r.run(reader).ok());
                const std::vector<std::uint32_t> zeros(128 * workgroups, 0);
                CHECK(r.read(0, 128 * workgroups) == zeros);  // LDS
                CHECK(r.read(1, 128 * workgroups) == zeros);  // v20
                CHECK(r.read(2, 128 * workgroups) == zeros);  // s30
                REQUIRE(r.run(writer).ok());
            }
        }
    }
}
