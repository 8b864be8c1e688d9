// Scratch (private memory): the private segment buffer V# and wave offset the
// dispatch sets up, swizzled buffer addressing, scratch_* and flat accesses
// in the private aperture meeting the same per-lane memory, and hipcc
// kernels that need scratch (a local array indexed at run time, spills).

#include <catch2/catch.hpp>

#include <random>
#include <set>

#include "emu/exec/apertures.hpp"
#include "kernel_builder.hpp"

using namespace exec_test;

namespace {

Program build(const std::string& body, KernelOptions options) {
    const CodeObject co = assemble_kernel(body, options);
    return build_program(co, co.kernels.at(0));
}

KernelOptions with_scratch(unsigned bytes, const std::string& mcpu = "gfx906") {
    KernelOptions o;
    o.mcpu = mcpu;
    o.private_bytes = bytes;
    return o;
}

// Every work-item (global id g in v2) writes g*256 at private offset 0 and
// g*256+1 at 60 through the private segment buffer, then, after a barrier (all
// waves have written), reads offset 60*(g&1) back three ways: p0 by buffer,
// p1 by scratch_load, p2 by a flat load in the private aperture. p3 gets a
// value written by scratch_store at offset 32 and read back by buffer.
const char* three_ways = R"(
  s_lshl_b32 s20, s2, 8
  v_add_u32 v2, s20, v0
  v_lshlrev_b32 v3, 8, v2
  v_add_u32 v4, 1, v3
  v_add_u32 v12, 2, v3
  v_mov_b32 v14, 32
  buffer_store_dword v3, off, s[36:39], s33
  buffer_store_dword v4, off, s[36:39], s33 offset:60
  scratch_store_dword v14, v12, off
  s_waitcnt vmcnt(0)
  s_barrier
  v_and_b32 v5, 1, v2
  v_mul_u32_u24 v5, 60, v5
  buffer_load_dword v6, v5, s[36:39], s33 offen
  scratch_load_dword v8, v5, off
  s_mov_b32 s25, src_private_base
  v_mov_b32 v11, s25
  v_mov_b32 v10, v5
  flat_load_dword v9, v[10:11]
  buffer_load_dword v13, off, s[36:39], s33 offset:32
  s_waitcnt vmcnt(0) lgkmcnt(0)
  v_lshlrev_b32 v7, 2, v2
  global_store_dword v7, v6, s[4:5]
  global_store_dword v7, v8, s[6:7]
  global_store_dword v7, v9, s[8:9]
  global_store_dword v7, v13, s[10:11]
)";

// Runs hipcc kernel `name`(const int* in, T* out, int n) on n work-items in
// workgroups of 256 and returns out.
template <class T>
std::vector<T> run_hip(const std::string& name, const std::vector<std::int32_t>& in, int n, unsigned threads) {
    const Program p = build_program(hip_kernels(), hip_kernels().kernel(name));
    REQUIRE(p.descriptor.private_segment_fixed_size > 0);
    DeviceMemory memory;
    const std::uint64_t din = memory.allocate(4 * in.size()), dout = memory.allocate(sizeof(T) * n);
    memory.write(din, in.data(), 4 * in.size());
    run_1d(memory, p, static_cast<std::uint32_t>(n), 256, threads, din, dout, n);
    std::vector<T> out(n);
    memory.read(dout, out.data(), sizeof(T) * n);
    return out;
}

}  // namespace

TEST_CASE("swizzled buffer addressing follows the ISA formula", "[scratch][buffer]") {
    // The private segment buffer: stride 0, index stride 64, ADD_TID.
    const std::uint32_t scratch_words[4] = {0x1000, 0x8000u | (1u << 31), 0xffffffffu, (3u << 21) | (1u << 23)};
    const BufferResource scratch = BufferResource::from_sgprs(scratch_words);
    CHECK(scratch.swizzle);
    CHECK(scratch.index_stride == 64);
    CHECK_FALSE(scratch.range_checked(false));
    CHECK(scratch.range_checked(true));
    const std::uint64_t base = 0x800000001000ull;
    for (std::uint64_t lane : {0u, 1u, 63u})
        for (std::uint64_t offset : {0u, 3u, 4u, 60u, 1024u})
            CHECK(scratch.address(lane, offset, 0x400) == base + 0x400 + (offset / 4) * 256 + 4 * lane + offset % 4);
    // Structured and swizzled: stride 16, index stride 8 (word3 INDEX_STRIDE 0).
    // index 9 = msb 1, lsb 1; offset 6 = msb 1, lsb 2: (1*16 + 1*4)*8 + 1*4 + 2.
    const std::uint32_t structured_words[4] = {0, (16u << 16) | (1u << 31), 100, 0};
    const BufferResource structured = BufferResource::from_sgprs(structured_words);
    CHECK(structured.index_stride == 8);
    CHECK(structured.address(9, 6, 0) == 166);
}

TEST_CASE("the private segment: per lane and per wave, by buffer, scratch and flat", "[scratch]") {
    for (const char* mcpu : {"gfx906", "gfx908", "gfx90a"}) {
        for (unsigned threads : {1u, 3u}) {
            INFO(mcpu << ", " << threads << " host threads");
            const Program program = build(three_ways, with_scratch(64, mcpu));
            TestRun run(768);
            run.grid = {3, 1, 1};
            run.block = {256, 1, 1};  // four waves: they must not share scratch
            run.threads = threads;
            const DispatchResult r = run.run(program);
            INFO((r.fault ? r.fault->message : std::string()));
            REQUIRE(r.ok());
            for (int buffer = 0; buffer < 3; ++buffer) {
                const auto out = run.read(buffer, 768);
                for (std::uint32_t g = 0; g < 768; ++g) {
                    INFO("buffer " << buffer << " work-item " << g);
                    REQUIRE(out[g] == g * 256 + (g & 1));
                }
            }
            const auto by_scratch = run.read(3, 768);
            for (std::uint32_t g = 0; g < 768; ++g) REQUIRE(by_scratch[g] == g * 256 + 2);
        }
    }
}

TEST_CASE("the private segment buffer V# and wave offsets are the runtime's", "[scratch]") {
    const Program program = build(R"(
  v_mov_b32 v2, s33
  v_mov_b32 v3, s37
  v_mov_b32 v4, s39
  global_store_dword v1, v2, s[4:5]
  global_store_dword v1, v3, s[6:7]
  global_store_dword v1, v4, s[8:9]
)",
                                  with_scratch(16));
    TestRun run(256);
    run.block = {256, 1, 1};
    REQUIRE(run.run(program).ok());
    const auto offsets = run.read(0, 256), word1 = run.read(1, 256), word3 = run.read(2, 256);
    std::set<std::uint32_t> waves;
    for (unsigned i = 0; i < 256; ++i) {
        CHECK(offsets[i] == offsets[i / 64 * 64]);  // one offset per wave
        CHECK(word1[i] >> 31 == 1u);                // SWIZZLE_ENABLE
        CHECK(((word1[i] >> 16) & 0x3fffu) == 0u);  // stride 0
        CHECK(((word3[i] >> 21) & 7u) == 7u);       // INDEX_STRIDE 64, ADD_TID_ENABLE
        waves.insert(offsets[i]);
    }
    CHECK(waves.size() == 4);
    for (std::uint32_t offset : waves) CHECK(offset % 1024 == 0);  // 16 bytes x 64 lanes rounded to 1 KiB slots
}

TEST_CASE("gfx940 architected flat scratch: scratch_* relative to FLAT_SCRATCH", "[scratch]") {
    const Program program = build(R"(
  v_and_b32 v2, 0x7c, v1
  v_add_u32 v3, 7, v0
  scratch_store_dword v2, v3, off offset:4
  s_waitcnt vmcnt(0)
  s_barrier
  scratch_load_dword v4, v2, off offset:4
  s_waitcnt vmcnt(0)
  global_store_dword v1, v4, s[4:5]
)",
                                  with_scratch(132, "gfx940"));
    TestRun run(256);
    run.block = {256, 1, 1};
    const DispatchResult r = run.run(program);
    INFO((r.fault ? r.fault->message : std::string()));
    REQUIRE(r.ok());
    const auto out = run.read(0, 256);
    for (std::uint32_t i = 0; i < 256; ++i) CHECK(out[i] == i + 7);
}

TEST_CASE("s_scratch_load/store: SGPR data at the scratch base + offset", "[scratch][smem]") {
    // address = SGPR[sbase] + (OFFSET & ~3) + (SGPR[soffset] & ~3) * 64, sbase = FLAT_SCRATCH
    // (the wave's slot, as the prologue sets it); byte o of lane l's private segment is at
    // slot + (o/4)*256 + 4*l + o%4. So the stores land at private offset 4 of lanes 0-3
    // (immediate 0x100), offset 8 of lane 0 (SGPR offset 8: 8 * 64 = 0x200) and offset 12
    // of lanes 1-2 (immediate 0x304).
    const Program program = build(R"(
  s_mov_b32 s20, 0x11111111
  s_mov_b32 s21, 0x22222222
  s_mov_b32 s22, 0x33333333
  s_mov_b32 s23, 0x44444444
  s_mov_b32 s24, 0x55555555
  s_mov_b32 s25, 8
  s_mov_b32 s26, 0x66666666
  s_mov_b32 s27, 0x77777777
  s_mov_b32 s28, 11
  s_scratch_store_dwordx4 s[20:23], flat_scratch, 0x100
  s_scratch_store_dword s24, flat_scratch, s25
  s_scratch_store_dwordx2 s[26:27], flat_scratch, 0x304
  s_waitcnt lgkmcnt(0)
  s_scratch_load_dwordx4 s[40:43], flat_scratch, 0x100
  s_scratch_load_dword s44, flat_scratch, s25
  s_scratch_load_dwordx2 s[46:47], flat_scratch, 0x306
  s_scratch_load_dword s45, flat_scratch, s28
  s_waitcnt lgkmcnt(0)
  s_store_dwordx4 s[40:43], s[4:5], 0x0
  s_store_dwordx2 s[44:45], s[4:5], 0x10
  s_store_dwordx2 s[46:47], s[4:5], 0x18
  buffer_load_dword v2, off, s[36:39], s33 offset:4
  buffer_load_dword v3, off, s[36:39], s33 offset:8
  buffer_load_dword v4, off, s[36:39], s33 offset:12
  s_waitcnt vmcnt(0) lgkmcnt(0)
  global_store_dword v1, v2, s[6:7]
  global_store_dword v1, v3, s[8:9]
  global_store_dword v1, v4, s[10:11]
)",
                                  with_scratch(64));
    TestRun run(64);
    const DispatchResult r = run.run(program);
    INFO((r.fault ? r.fault->message : std::string()));
    REQUIRE(r.ok());
    // Read back by s_scratch_load: the low two bits of both offsets are ignored (0x306, s28 = 11).
    const auto sgprs = run.read(0, 8);
    CHECK(sgprs == std::vector<std::uint32_t>{0x11111111, 0x22222222, 0x33333333, 0x44444444, 0x55555555, 0x55555555,
                                              0x66666666, 0x77777777});
    // Seen by each lane through the private segment buffer.
    const auto offset4 = run.read(1, 64), offset8 = run.read(2, 64), offset12 = run.read(3, 64);
    for (unsigned l = 0; l < 64; ++l) {
        INFO("lane " << l);
        CHECK(offset4[l] == (l < 4 ? 0x11111111u * (l + 1) : 0u));
        CHECK(offset8[l] == (l == 0 ? 0x55555555u : 0u));
        CHECK(offset12[l] == (l == 1 ? 0x66666666u : l == 2 ? 0x77777777u : 0u));
    }
}

TEST_CASE("scratch accesses outside the private segment fault", "[scratch][fault]") {
    SECTION("no private segment") {
        const Program program = build("  scratch_load_dword v2, v1, off\n  s_waitcnt vmcnt(0)", KernelOptions{});
        TestRun run;
        const DispatchResult r = run.run(program);
        REQUIRE(r.fault);
        CHECK(r.fault->what.find("no private segment") != std::string::npos);
    }
    SECTION("past the work-item's segment") {
        const Program program =
            build("  v_mov_b32 v2, 64\n  scratch_load_dword v3, v2, off\n  s_waitcnt vmcnt(0)", with_scratch(64));
        TestRun run;
        const DispatchResult r = run.run(program);
        REQUIRE(r.fault);
        CHECK(r.fault->what.find("past the work-item's 64-byte private segment") != std::string::npos);
    }
}

TEST_CASE("hipcc: a local array indexed at run time", "[scratch][hip]") {
    const int n = 1000;  // four workgroups of 256, the last one partial
    std::mt19937 rng(5);
    std::vector<std::int32_t> index(n);
    for (int& x : index) x = static_cast<int>(rng() % 1000);
    for (unsigned threads : {1u, 3u}) {
        INFO(threads << " host threads");
        const std::vector<float> out = run_hip<float>("local_array", index, n, threads);
        for (int i = 0; i < n; ++i) CHECK(out[i] == float(index[i] & 31) * 1.5f + float(i));
    }
}

TEST_CASE("hipcc: a kernel that spills registers", "[scratch][hip]") {
    const int n = 1000;
    std::mt19937 rng(6);
    std::vector<std::int32_t> in(n * 40);
    for (int& x : in) x = static_cast<int>(rng());
    for (unsigned threads : {1u, 3u}) {
        INFO(threads << " host threads");
        const std::vector<std::int32_t> out = run_hip<std::int32_t>("spill", in, n, threads);
        for (int i = 0; i < n; ++i) {
            const std::int32_t* v = &in[std::size_t(i) * 40];
            std::uint32_t acc = 0;
            for (int j = 0; j < 40; ++j) acc = acc * 3u + (std::uint32_t(v[j]) ^ std::uint32_t(v[39 - j]));
            CHECK(out[i] == std::int32_t(acc));
        }
    }
}
