// Hardware registers and clocks: s_getreg_b32 of every register the emulator
// models, s_memtime and s_memrealtime.

#include <catch2/catch.hpp>

#include <vector>

#include "emu/exec/apertures.hpp"
#include "kernel_builder.hpp"

using namespace exec_test;

TEST_CASE("s_getreg_b32 reads every hardware register the emulator models", "[alu][hwreg]") {
    // Two waves (block 128); wave 1 reads IB_STS with one load outstanding.
    const std::string body = R"(
  s_getreg_b32 s16, hwreg(HW_REG_SH_MEM_BASES)
  s_getreg_b32 s17, hwreg(HW_REG_SH_MEM_BASES, 0, 16)
  s_mov_b64 s[18:19], src_private_base
  s_mov_b64 s[20:21], src_shared_base
  s_getreg_b32 s22, hwreg(HW_REG_HW_ID)
  s_getreg_b32 s23, hwreg(HW_REG_GPR_ALLOC)
  s_getreg_b32 s24, hwreg(HW_REG_LDS_ALLOC)
  s_getreg_b32 s25, hwreg(HW_REG_TRAPSTS)
  s_cmp_eq_u32 s2, s2
  s_getreg_b32 s26, hwreg(HW_REG_STATUS)
  global_load_dword v9, v1, s[6:7]
  s_getreg_b32 s27, hwreg(HW_REG_IB_STS)
  s_waitcnt vmcnt(0)
  s_getreg_b32 s28, hwreg(HW_REG_IB_STS)
  s_getreg_b32 s29, hwreg(HW_REG_MODE)
  v_mov_b32 v2, s16
  v_mov_b32 v3, s17
  v_mov_b32 v4, s19
  v_mov_b32 v5, s21
  v_mov_b32 v6, s22
  v_mov_b32 v7, s23
  v_mov_b32 v8, s24
  v_mov_b32 v9, s25
  v_mov_b32 v10, s26
  v_mov_b32 v11, s27
  v_mov_b32 v12, s28
  v_mov_b32 v13, s29
  v_lshlrev_b32 v14, 6, v0
  global_store_dwordx4 v14, v[2:5], s[4:5]
  global_store_dwordx4 v14, v[6:9], s[4:5] offset:16
  global_store_dwordx4 v14, v[10:13], s[4:5] offset:32
)";
    KernelOptions options;
    options.lds_bytes = 1000;
    const CodeObject co = assemble_kernel(body, options);
    const Program p = build_program(co, co.kernels.at(0));
    TestRun run(128 * 16);
    run.block = {128, 1, 1};
    run.run_to_end(p);
    const auto out = run.read(0, 128 * 16);
    const u32 bases = u32(private_aperture_base >> 48) | u32(shared_aperture_base >> 48) << 16;
    for (unsigned wave = 0; wave < 2; ++wave) {
        const u32* w = &out[wave * 64 * 16];
        INFO("wave " << wave);
        CHECK(w[0] == bases);
        // -O0 code: s_getreg(SH_MEM_BASES, 0, 16) << 16 is the private aperture's high half.
        CHECK(w[1] << 16 == w[2]);
        CHECK(w[0] >> 16 << 16 == w[3]);
        CHECK(w[4] == (wave % 4) << 4);  // HW_ID: SIMD_ID = wave, WAVE_ID 0, TG_ID 0
        CHECK(w[5] == (u32(p.descriptor.vgpr_blocks) << 8 | u32((p.descriptor.allocated_sgprs + 15) / 16 - 1) << 24));
        CHECK(w[6] == 2u << 12);                    // 1000 bytes: two 512-byte granules
        CHECK(w[7] == 0);                           // TRAPSTS
        CHECK(w[8] == (1u | 1u << 10 | 1u << 16));  // STATUS: SCC, VCCZ (VCC still 0), VALID
        CHECK(w[9] == 1);                           // IB_STS: one load outstanding
        CHECK(w[10] == 0);
        CHECK(w[11] == 0x3f0);  // MODE: the descriptor's denorm modes, IEEE off
    }
}

TEST_CASE("s_memtime and s_memrealtime count up and land at lgkmcnt", "[alu][clock]") {
    const CodeObject co = assemble_kernel(R"(
  s_memtime s[16:17]
  s_memrealtime s[18:19]
  s_waitcnt lgkmcnt(0)
  s_memtime s[20:21]
  s_memrealtime s[22:23]
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v2, s16
  v_mov_b32 v3, s17
  v_mov_b32 v4, s18
  v_mov_b32 v5, s19
  v_mov_b32 v6, s20
  v_mov_b32 v7, s21
  v_mov_b32 v8, s22
  v_mov_b32 v9, s23
  v_lshlrev_b32 v14, 5, v0
  global_store_dwordx4 v14, v[2:5], s[4:5]
  global_store_dwordx4 v14, v[6:9], s[4:5] offset:16
)");
    TestRun run(64 * 8);
    const DispatchResult r = run.run(build_program(co, co.kernels.at(0)));
    REQUIRE(r.ok());
    const auto out = run.read(0, 8);
    const u64 t0 = out[0] | u64(out[1]) << 32, w0 = out[2] | u64(out[3]) << 32;
    const u64 t1 = out[4] | u64(out[5]) << 32, w1 = out[6] | u64(out[7]) << 32;
    CHECK(t0 != 0);
    CHECK(t0 <= t1);
    CHECK(w0 != 0);
    CHECK(w0 <= w1);
}
