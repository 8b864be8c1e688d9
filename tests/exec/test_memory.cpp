// Memory: buffer range rules, faults outside allocations, results landing at
// s_waitcnt, LDS forms, lane exchanges and LDS counters.

#include <catch2/catch.hpp>

#include "kernel_builder.hpp"

using namespace exec_test;

namespace {

// s[20:23] = raw V# over p1 with num_records = u0 bytes.
const char* make_vsharp = R"(
  s_mov_b32 s20, s6
  s_and_b32 s21, s7, 0xffff
  s_mov_b32 s22, s12
  s_mov_b32 s23, 0
)";

Program build(const std::string& body, KernelOptions options = {}) {
    const CodeObject co = assemble_kernel(body, options);
    return build_program(co, co.kernels.at(0));
}

std::vector<std::uint32_t> iota(std::size_t n, std::uint32_t first) {
    std::vector<std::uint32_t> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = first + std::uint32_t(i);
    return v;
}

}  // namespace

TEST_CASE("buffer loads past num_records read 0, per dword", "[memory][buffer]") {
    const Program program = build(std::string(make_vsharp) + R"(
  v_lshlrev_b32 v2, 4, v0
  buffer_load_dwordx4 v[6:9], v2, s[20:23], 0 offen
  s_waitcnt vmcnt(0)
  global_store_dwordx4 v2, v[6:9], s[4:5]
)");
    TestRun run(256);
    run.fill(1, iota(256, 1));
    run.value[0] = 100;  // bytes: lane 6 covers 96..111, only its first dword is in range
    REQUIRE(run.run(program).ok());
    const auto out = run.read(0, 256);
    for (unsigned l = 0; l < 64; ++l)
        for (unsigned d = 0; d < 4; ++d) {
            const std::uint32_t byte = 16 * l + 4 * d;
            INFO("lane " << l << " dword " << d);
            CHECK(out[4 * l + d] == (byte + 4 <= 100 ? 4 * l + d + 1 : 0u));
        }
    // The SGPR offset moves the address but not the range check.
    const Program with_soffset = build(std::string(make_vsharp) + R"(
  s_mov_b32 s24, 8
  buffer_load_dword v6, v1, s[20:23], s24 offen
  s_waitcnt vmcnt(0)
  global_store_dword v1, v6, s[4:5]
)");
    TestRun run2(256);
    run2.fill(1, iota(256, 1));
    run2.value[0] = 40;
    REQUIRE(run2.run(with_soffset).ok());
    const auto out2 = run2.read(0, 64);
    for (unsigned l = 0; l < 64; ++l) CHECK(out2[l] == (4 * l + 4 <= 40 ? l + 3 : 0u));
}

TEST_CASE("buffer stores past num_records are dropped", "[memory][buffer]") {
    const Program program = build(std::string(make_vsharp) + R"(
  v_add_u32 v6, 500, v0
  buffer_store_dword v6, v1, s[20:23], 0 offen offset:4
)");
    TestRun run(128);
    run.fill(1, std::vector<std::uint32_t>(128, 0xdead));
    run.value[0] = 40;
    const DispatchResult r = run.run(program);
    REQUIRE(r.ok());
    const auto out = run.read(1, 128);
    CHECK(out[0] == 0xdeadu);
    for (unsigned l = 0; l < 64; ++l) CHECK(out[l + 1] == (4 * l + 4 + 4 <= 40 ? 500 + l : 0xdeadu));
    CHECK(r.counters.global_write_bytes == 4 * 9);
}

TEST_CASE("an access outside every allocation faults with its address and PC", "[memory][fault]") {
    const Program program = build(R"(
  v_add_u32 v2, s12, v1
  global_load_dword v6, v2, s[4:5]
  s_waitcnt vmcnt(0)
)");
    TestRun run(64);
    run.value[0] = 64 * 4 - 8;  // lanes 2.. fall off the end of p0
    const DispatchResult r = run.run(program);
    REQUIRE(r.fault.has_value());
    CHECK(r.fault->has_address);
    CHECK(r.fault->address == run.buffer[0] + 256);
    CHECK(r.fault->instruction == "global_load_dword v6, v2, s[4:5]");
    CHECK(r.fault->pc == program.code_address + program.insts[5].pc);  // after the 4-instruction prologue and v_add_u32
    CHECK(r.fault->message.find("outside any allocation") != std::string::npos);
    CHECK(r.fault->message.find("wave 0") != std::string::npos);
}

TEST_CASE("loads land at s_waitcnt: early reads see stale registers", "[memory][waitcnt]") {
    const Program program = build(R"(
  v_mov_b32 v5, 11
  v_mov_b32 v6, 22
  global_load_dword v5, v1, s[6:7]
  global_load_dword v6, v1, s[8:9]
  v_mov_b32 v7, v5
  s_waitcnt vmcnt(1)
  v_mov_b32 v8, v5
  v_mov_b32 v9, v6
  s_waitcnt vmcnt(0)
  v_mov_b32 v10, v6
  v_lshlrev_b32 v2, 4, v0
  global_store_dwordx4 v2, v[7:10], s[4:5]
)");
    TestRun run(256);
    run.fill(1, iota(64, 100));
    run.fill(2, iota(64, 200));
    REQUIRE(run.run(program).ok());
    const auto out = run.read(0, 256);
    for (unsigned l = 0; l < 64; ++l) {
        CHECK(out[4 * l + 0] == 11u);      // before any wait
        CHECK(out[4 * l + 1] == 100 + l);  // vmcnt(1): the older load landed
        CHECK(out[4 * l + 2] == 22u);      // ... the newer one not yet
        CHECK(out[4 * l + 3] == 200 + l);
    }
}

TEST_CASE("LDS and SMEM results land at lgkmcnt", "[memory][waitcnt][lds]") {
    KernelOptions options;
    options.lds_bytes = 256;
    const Program program = build(R"(
  v_add_u32 v2, 50, v0
  ds_write_b32 v1, v2
  v_mov_b32 v5, 1
  ds_read_b32 v5, v1
  v_mov_b32 v6, v5
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v7, v5
  s_mov_b32 s30, 3
  s_load_dword s30, s[0:1], 0x20
  v_mov_b32 v8, s30
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v9, s30
  v_lshlrev_b32 v2, 4, v0
  global_store_dwordx4 v2, v[6:9], s[4:5]
)",
                                  options);
    TestRun run(256);
    run.value[0] = 77;
    REQUIRE(run.run(program).ok());
    const auto out = run.read(0, 256);
    for (unsigned l = 0; l < 64; ++l) {
        CHECK(out[4 * l + 0] == 1u);
        CHECK(out[4 * l + 1] == 50 + l);
        CHECK(out[4 * l + 2] == 3u);
        CHECK(out[4 * l + 3] == 77u);
    }
}

TEST_CASE("ds_read2/write2 offsets, b64, st64", "[lds]") {
    KernelOptions options;
    options.lds_bytes = 65536;
    const Program program = build(R"(
  v_lshlrev_b32 v2, 3, v0
  v_add_u32 v3, 1000, v0
  v_add_u32 v4, 2000, v0
  ds_write2_b32 v2, v3, v4 offset0:0 offset1:1
  s_waitcnt lgkmcnt(0)
  ds_read_b64 v[6:7], v2
  v_lshlrev_b32 v8, 4, v0
  v_mov_b32 v9, 3000
  v_mov_b32 v10, 4000
  ds_write2st64_b64 v8, v[9:10], v[9:10] offset0:2 offset1:5
  s_waitcnt lgkmcnt(0)
  ds_read2st64_b64 v[10:13], v8 offset0:5 offset1:2
  s_waitcnt lgkmcnt(0)
  v_lshlrev_b32 v2, 4, v0
  global_store_dwordx2 v2, v[6:7], s[4:5]
  global_store_dwordx4 v2, v[10:13], s[6:7]
)",
                                  options);
    TestRun run(256);
    const DispatchResult r = run.run(program);
    INFO((r.fault ? r.fault->message : ""));
    REQUIRE(r.ok());
    const auto pairs = run.read(0, 256);
    const auto quads = run.read(1, 256);
    for (unsigned l = 0; l < 64; ++l) {
        CHECK(pairs[4 * l] == 1000 + l);
        CHECK(pairs[4 * l + 1] == 2000 + l);
        CHECK(quads[4 * l] == 3000u);
        CHECK(quads[4 * l + 1] == 4000u);
        CHECK(quads[4 * l + 2] == 3000u);
        CHECK(quads[4 * l + 3] == 4000u);
    }
    CHECK(r.counters.lds_write_requests == 128);
    CHECK(r.counters.lds_read_requests == 128);
    CHECK(r.counters.lds_write_bytes == 64 * 8 + 64 * 16);
    CHECK(r.counters[InstClass::lds_read] == 2);
    CHECK(r.counters[InstClass::lds_write] == 2);
}

TEST_CASE("ds_read_b64 and ds_read_b128 with every lane active read what they read with one lane off", "[lds]") {
    // Full EXEC takes the executor's whole-wave gathers, EXEC without lane 0
    // the lane-by-lane one: same scattered, dword-aligned addresses.
    KernelOptions options;
    options.lds_bytes = 4096;
    const Program program = build(R"(
  v_lshlrev_b32 v2, 2, v0
  v_add_u32 v3, 100, v0
  ds_write_b32 v2, v3
  ds_write_b32 v2, v3 offset:256
  ds_write_b32 v2, v3 offset:512
  s_waitcnt lgkmcnt(0)
  v_mul_u32_u24 v4, 37, v0
  v_and_b32 v4, 63, v4
  v_lshl_add_u32 v4, v4, 3, 4
  v_mul_u32_u24 v5, 29, v0
  v_and_b32 v5, 31, v5
  v_lshl_add_u32 v5, v5, 4, 4
  ds_read_b64 v[6:7], v4
  ds_read_b128 v[8:11], v5
  s_mov_b64 exec, -2
  ds_read_b64 v[12:13], v4
  ds_read_b128 v[14:17], v5
  s_mov_b64 exec, -1
  s_waitcnt lgkmcnt(0)
  v_lshlrev_b32 v2, 5, v0
  global_store_dwordx2 v2, v[6:7], s[4:5]
  global_store_dwordx4 v2, v[8:11], s[4:5] offset:8
  global_store_dwordx2 v2, v[12:13], s[6:7]
  global_store_dwordx4 v2, v[14:17], s[6:7] offset:8
)",
                                  options);
    TestRun run(512);
    const DispatchResult r = run.run(program);
    INFO((r.fault ? r.fault->message : ""));
    REQUIRE(r.ok());
    const auto all_lanes = run.read(0, 512), one_off = run.read(1, 512);
    // LDS dword i holds 100 + i % 64.
    const auto lds = [](unsigned dword) { return 100u + dword % 64; };
    for (unsigned l = 0; l < 64; ++l) {
        const unsigned pair = (l * 37 % 64) * 2 + 1, quad = (l * 29 % 32) * 4 + 1;
        CHECK(all_lanes[8 * l] == lds(pair));
        CHECK(all_lanes[8 * l + 1] == lds(pair + 1));
        for (unsigned d = 0; d < 4; ++d) CHECK(all_lanes[8 * l + 2 + d] == lds(quad + d));
        if (l == 0) continue;
        for (unsigned d = 0; d < 6; ++d) CHECK(one_off[8 * l + d] == all_lanes[8 * l + d]);
    }
}

TEST_CASE("VMEM atomics, returning or not, count as vmem_atomic and move their bytes both ways", "[memory][counters]") {
    const Program program = build(R"(
  v_mov_b32 v3, 1
  global_atomic_add v1, v3, s[4:5]
  global_atomic_add v5, v1, v3, s[4:5] glc
  s_waitcnt vmcnt(0)
  v_cmpx_gt_u32 vcc, 16, v0
  global_store_dword v1, v5, s[6:7]
)");
    TestRun run(64);
    const DispatchResult r = run.run(program);
    REQUIRE(r.ok());
    const auto after_adds = run.read(0, 64), returned = run.read(1, 64);
    for (unsigned l = 0; l < 64; ++l) {
        INFO("lane " << l);
        CHECK(after_adds[l] == 2u);
        CHECK(returned[l] == (l < 16 ? 1u : 0u));  // the glc add returned the first add's result
    }
    // The prologue's two s_load, v_lshlrev and s_waitcnt; then the body; then s_endpgm.
    CHECK(r.counters[InstClass::vmem_atomic] == 2);
    CHECK(r.counters[InstClass::vmem_load] == 0);
    CHECK(r.counters[InstClass::vmem_store] == 1);
    CHECK(r.counters[InstClass::smem] == 2);
    CHECK(r.counters[InstClass::valu] == 3);
    CHECK(r.counters[InstClass::waitcnt] == 2);
    CHECK(r.counters[InstClass::other] == 1);
    CHECK(r.counters.wave_instructions() == 11);
    CHECK(r.counters.global_read_bytes == 2 * 64 * 4);
    CHECK(r.counters.global_write_bytes == 2 * 64 * 4 + 16 * 4);
}

TEST_CASE("LDS bank conflicts and requests counted from a kernel", "[lds][counters]") {
    KernelOptions options;
    options.lds_bytes = 65536;
    // b32 writes with a 128-byte lane stride: 31 extra cycles per half; b128
    // reads of consecutive vectors: none; half the lanes active for a second read.
    const Program program = build(R"(
  v_lshlrev_b32 v2, 7, v0
  ds_write_b32 v2, v0
  v_lshlrev_b32 v3, 4, v0
  ds_read_b128 v[4:7], v3
  v_cmpx_gt_u32 vcc, 32, v0
  ds_read_b128 v[4:7], v3
  s_waitcnt lgkmcnt(0)
)",
                                  options);
    TestRun run(64);
    const DispatchResult r = run.run(program);
    REQUIRE(r.ok());
    CHECK(r.counters.lds_bank_conflict_cycles == 62);
    CHECK(r.counters.lds_write_requests == 64);
    CHECK(r.counters.lds_write_bytes == 256);
    CHECK(r.counters.lds_read_requests == 96);
    CHECK(r.counters.lds_read_bytes == 96 * 16);
}

TEST_CASE("LDS bank conflicts use the target's lane grouping", "[lds][counters]") {
    // Lane l reads and writes the 16 bytes at 1024 * (l / 4) + 16 * (l % 4),
    // plus 64 (the upper 16 banks) when bit 4 of l is set: quads 2k and 2k+1
    // share banks (one conflict per pass of 8 consecutive lanes), the quads
    // gfx940/gfx942 read together ({0-3,20-23}, {4-7,16-19}, ...) do not.
    const std::string body = R"(
  v_and_b32 v2, 3, v0
  v_lshlrev_b32 v2, 4, v2
  v_and_b32 v3, 16, v0
  v_lshlrev_b32 v3, 2, v3
  v_add_u32 v2, v2, v3
  v_and_b32 v3, 60, v0
  v_lshlrev_b32 v3, 8, v3
  v_add_u32 v2, v2, v3
  ds_read_b128 v[4:7], v2
  s_waitcnt lgkmcnt(0)
  s_barrier
  ds_write_b128 v2, v[4:7]
  s_waitcnt lgkmcnt(0)
)";
    struct Expected {
        const char* mcpu;
        std::uint64_t conflicts;  // read + write
    };
    for (const Expected e : {Expected{"gfx906", 8 + 8}, Expected{"gfx90a", 8 + 8}, Expected{"gfx940", 0 + 8}}) {
        KernelOptions options;
        options.mcpu = e.mcpu;
        options.lds_bytes = 16384;
        const Program program = build(body, options);
        TestRun run(64);
        const DispatchResult r = run.run(program);
        INFO(e.mcpu);
        REQUIRE(r.ok());
        CHECK(r.counters.lds_bank_conflict_cycles == e.conflicts);
        CHECK(r.counters.lds_read_requests == 64);
    }
}

TEST_CASE("LDS access past the allocation faults", "[lds][fault]") {
    KernelOptions options;
    options.lds_bytes = 128;
    const Program program = build("  ds_read_b32 v5, v1\n  s_waitcnt lgkmcnt(0)\n", options);
    TestRun run(64);
    const DispatchResult r = run.run(program);
    REQUIRE(r.fault.has_value());
    CHECK(r.fault->address == 128);
    CHECK(r.fault->message.find("LDS access outside the workgroup's 128 bytes") != std::string::npos);
}

TEST_CASE("ds_bpermute_b32 and ds_swizzle_b32", "[lds]") {
    const Program program = build(R"(
  v_add_u32 v2, 100, v0
  v_xor_b32 v3, 1, v0
  v_lshlrev_b32 v3, 2, v3
  ds_bpermute_b32 v5, v3, v2
  ds_swizzle_b32 v6, v2 offset:swizzle(QUAD_PERM,3,2,1,0)
  ds_swizzle_b32 v7, v2 offset:swizzle(BITMASK_PERM,"00p11")
  s_waitcnt lgkmcnt(0)
  v_lshlrev_b32 v8, 4, v0
  global_store_dwordx3 v8, v[5:7], s[4:5]
)");
    TestRun run(256);
    const DispatchResult r = run.run(program);
    INFO((r.fault ? r.fault->message : ""));
    REQUIRE(r.ok());
    const auto out = run.read(0, 256);
    for (unsigned l = 0; l < 64; ++l) {
        CHECK(out[4 * l] == 100 + (l ^ 1));
        CHECK(out[4 * l + 1] == 100 + ((l & ~3u) | (3 - (l & 3))));
        // "00p11": bits 4..0 = and 0, and 0, preserve, set, set -> (l & 0b00100) | 0b00011 within 32 lanes
        CHECK(out[4 * l + 2] == 100 + ((l & 32u) | (l & 4u) | 3u));
    }
}

TEST_CASE("flat addresses reach global memory and, in the shared aperture, LDS", "[memory][flat]") {
    KernelOptions options;
    options.lds_bytes = 256;
    const Program program = build(R"(
  s_mov_b64 s[20:21], src_shared_base
  v_mov_b32 v2, v1
  v_mov_b32 v3, s21
  v_add_u32 v6, 9, v0
  flat_store_dword v[2:3], v6
  s_waitcnt vmcnt(0) lgkmcnt(0)
  ds_read_b32 v7, v1
  v_mov_b32 v9, s7
  v_add_co_u32 v8, vcc, s6, v1
  v_addc_co_u32 v9, vcc, 0, v9, vcc
  flat_load_dword v10, v[8:9]
  s_waitcnt vmcnt(0) lgkmcnt(0)
  v_add_u32 v7, v7, v10
  global_store_dword v1, v7, s[4:5]
)",
                                  options);
    TestRun run(64);
    run.fill(1, iota(64, 1000));
    const DispatchResult r = run.run(program);
    INFO((r.fault ? r.fault->message : ""));
    REQUIRE(r.ok());
    const auto out = run.read(0, 64);
    for (unsigned l = 0; l < 64; ++l) CHECK(out[l] == 9 + l + 1000 + l);
}
