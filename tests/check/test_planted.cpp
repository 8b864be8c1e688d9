// One small kernel per rule that breaks it exactly once: the checker must
// name the rule, the instruction (pc) and the earlier instruction involved;
// the same kernel with the bug fixed must run clean.
//
// Kernel builder prologue: s[4:5] = p0 .. s[10:11] = p3, v0 = work-item id,
// v1 = 4 * v0. Buffers are 4096 bytes.

#include <catch2/catch.hpp>

#include "check_support.hpp"

using namespace check_test;

namespace {

struct PlantedCase {
    const char* name;
    Rule rule;
    std::string bug, fixed;
    const char* at;            // disassembly prefix of the instruction reported
    const char* earlier = "";  // ... of the earlier instruction ("" : none)
    PlantOptions options{};
    unsigned at_occurrence = 0;
};

PlantOptions with_lds(unsigned bytes, unsigned items = 64) {
    PlantOptions o;
    o.kernel.lds_bytes = bytes;
    o.block = {items, 1, 1};
    return o;
}
PlantOptions on(const char* mcpu) {
    PlantOptions o;
    o.kernel.mcpu = mcpu;
    return o;
}

const std::string store_v2 = "\n  global_store_dword v1, v2, s[6:7]";

// Two waves each write their own 256 bytes of LDS, then read the other wave's.
std::string exchange(bool wait, bool barrier) {
    return std::string("  ds_write_b32 v1, v0\n") + (wait ? "  s_waitcnt lgkmcnt(0)\n" : "") +
           (barrier ? "  s_barrier\n" : "") +
           "  v_xor_b32 v3, 0x100, v1\n  ds_read_b32 v2, v3\n  s_waitcnt lgkmcnt(0)" + store_v2;
}

std::vector<PlantedCase> cases() {
    std::vector<PlantedCase> c;
    c.push_back({"VMEM result read before vmcnt", Rule::read_before_wait,
                 "  global_load_dword v2, v1, s[4:5]\n  v_add_f32 v3, v2, v2\n  s_waitcnt vmcnt(0)" + store_v2,
                 "  global_load_dword v2, v1, s[4:5]\n  s_waitcnt vmcnt(0)\n  v_add_f32 v3, v2, v2" + store_v2,
                 "v_add_f32", "global_load_dword"});
    c.push_back({"VALU overwrites a register with a load in flight", Rule::overwrite_before_wait,
                 "  global_load_dword v2, v1, s[4:5]\n  v_mov_b32 v2, 0\n  s_waitcnt vmcnt(0)" + store_v2,
                 "  global_load_dword v2, v1, s[4:5]\n  s_waitcnt vmcnt(0)\n  v_mov_b32 v2, 0" + store_v2,
                 "v_mov_b32 v2, 0", "global_load_dword"});
    c.push_back({"SMEM returns out of order: lgkmcnt(1) covers neither load", Rule::read_before_wait,
                 "  s_load_dword s20, s[4:5], 0x0\n  s_load_dword s21, s[4:5], 0x4\n  s_waitcnt lgkmcnt(1)\n"
                 "  v_mov_b32 v2, s20\n  s_waitcnt lgkmcnt(0)" +
                     store_v2,
                 "  s_load_dword s20, s[4:5], 0x0\n  s_load_dword s21, s[4:5], 0x4\n  s_waitcnt lgkmcnt(0)\n"
                 "  v_mov_b32 v2, s20" +
                     store_v2,
                 "v_mov_b32 v2, s20", "s_load_dword s20"});
    c.push_back({"LDS returns in order: lgkmcnt(1) covers the older read only", Rule::read_before_wait,
                 "  ds_read_b32 v2, v1\n  ds_read_b32 v3, v1 offset:4\n  s_waitcnt lgkmcnt(1)\n  v_add_u32 v2, v3, v2\n"
                 "  s_waitcnt lgkmcnt(0)" +
                     store_v2,
                 "  ds_read_b32 v2, v1\n  ds_read_b32 v3, v1 offset:4\n  s_waitcnt lgkmcnt(1)\n  v_add_u32 v2, v2, v2\n"
                 "  s_waitcnt lgkmcnt(0)\n  v_add_u32 v2, v3, v2" +
                     store_v2,
                 "v_add_u32 v2, v3, v2", "ds_read_b32 v3", with_lds(1024)});
    c.push_back({"two SMEM loads into one SGPR race", Rule::overwrite_before_wait,
                 "  s_load_dword s20, s[4:5], 0x0\n  s_load_dword s20, s[4:5], 0x4\n  s_waitcnt lgkmcnt(0)\n  "
                 "v_mov_b32 v2, s20" +
                     store_v2,
                 "  s_load_dword s20, s[4:5], 0x0\n  s_waitcnt lgkmcnt(0)\n  s_load_dword s20, s[4:5], 0x4\n  "
                 "s_waitcnt lgkmcnt(0)\n"
                 "  v_mov_b32 v2, s20" +
                     store_v2,
                 "s_load_dword s20, s[4:5], 0x4", "s_load_dword s20, s[4:5], 0x0"});
    c.push_back({"LDS exchange without s_barrier", Rule::lds_race, exchange(true, false), exchange(true, true),
                 "ds_write_b32", "ds_read_b32", with_lds(512, 128)});
    c.push_back({"s_barrier before lgkmcnt(0) publishes the ds_write", Rule::lds_unpublished_write,
                 exchange(false, true), exchange(true, true), "s_barrier", "ds_write_b32", with_lds(512, 128)});
    c.push_back(
        {"DPP reads a VGPR 1 wait state after a VALU write", Rule::dpp_after_valu_write,
         "  v_mov_b32 v3, v0\n  s_nop 0\n  v_mov_b32_dpp v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf" +
             store_v2,
         "  v_mov_b32 v3, v0\n  s_nop 1\n  v_mov_b32_dpp v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf" +
             store_v2,
         "v_mov_b32_dpp", "v_mov_b32 v3, v0"});
    c.push_back({"DPP 4 wait states after a VALU write of EXEC", Rule::dpp_after_exec_write,
                 "  v_mov_b32 v3, v0\n  v_cmpx_gt_u32 vcc, 32, v0\n  s_nop 3\n"
                 "  v_mov_b32_dpp v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf" +
                     store_v2,
                 "  v_mov_b32 v3, v0\n  v_cmpx_gt_u32 vcc, 32, v0\n  s_nop 4\n"
                 "  v_mov_b32_dpp v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf" +
                     store_v2,
                 "v_mov_b32_dpp", "v_cmpx_gt_u32"});
    c.push_back(
        {"v_readlane lane select 3 wait states after v_readfirstlane", Rule::lane_select_after_valu,
         "  v_readfirstlane_b32 s20, v0\n  s_nop 2\n  v_readlane_b32 s21, v1, s20\n  v_mov_b32 v2, s21" + store_v2,
         "  v_readfirstlane_b32 s20, v0\n  s_nop 3\n  v_readlane_b32 s21, v1, s20\n  v_mov_b32 v2, s21" + store_v2,
         "v_readlane_b32", "v_readfirstlane_b32"});
    c.push_back({"VMEM reads an SGPR 4 wait states after a VALU wrote it", Rule::vmem_sgpr_after_valu,
                 "  v_mov_b32 v5, s4\n  v_readfirstlane_b32 s20, v5\n  s_mov_b32 s21, s5\n  s_nop 2\n"
                 "  global_load_dword v2, v1, s[20:21]\n  s_waitcnt vmcnt(0)" +
                     store_v2,
                 "  v_mov_b32 v5, s4\n  v_readfirstlane_b32 s20, v5\n  s_mov_b32 s21, s5\n  s_nop 3\n"
                 "  global_load_dword v2, v1, s[20:21]\n  s_waitcnt vmcnt(0)" +
                     store_v2,
                 "global_load_dword", "v_readfirstlane_b32"});
    c.push_back({"VMEM 4 wait states after a VALU write of EXEC", Rule::vmem_sgpr_after_valu,
                 "  v_mov_b32 v2, 1\n  v_cmpx_gt_u32 vcc, 32, v0\n  s_nop 3" + store_v2,
                 "  v_mov_b32 v2, 1\n  v_cmpx_gt_u32 vcc, 32, v0\n  s_nop 4" + store_v2, "global_store_dword",
                 "v_cmpx_gt_u32"});
    c.push_back({"VALU reads VCCZ 4 wait states after v_cmp writes VCC", Rule::execz_vccz_after_valu,
                 "  v_cmp_eq_u32 vcc, 0, v0\n  s_nop 3\n  v_mov_b32 v2, src_vccz" + store_v2,
                 "  v_cmp_eq_u32 vcc, 0, v0\n  s_nop 4\n  v_mov_b32 v2, src_vccz" + store_v2, "v_mov_b32 v2, src_vccz",
                 "v_cmp_eq_u32"});
    c.push_back({"s_movrel right after an SALU write of m0", Rule::movrel_after_m0,
                 "  s_mov_b32 m0, 1\n  s_movrels_b32 s20, s12\n  v_mov_b32 v2, s20" + store_v2,
                 "  s_mov_b32 m0, 1\n  s_nop 0\n  s_movrels_b32 s20, s12\n  v_mov_b32 v2, s20" + store_v2,
                 "s_movrels_b32", "s_mov_b32 m0"});
    c.push_back({"s_sendmsg right after an SALU write of m0", Rule::message_after_m0,
                 "  s_mov_b32 m0, 1\n  s_sendmsg sendmsg(MSG_INTERRUPT)\n  v_mov_b32 v2, 1" + store_v2,
                 "  s_mov_b32 m0, 1\n  s_nop 0\n  s_sendmsg sendmsg(MSG_INTERRUPT)\n  v_mov_b32 v2, 1" + store_v2,
                 "s_sendmsg", "s_mov_b32 m0"});
    c.push_back({"s_getreg 1 wait state after s_setreg of the same register", Rule::getreg_after_setreg,
                 "  s_setreg_b32 hwreg(HW_REG_TRAPSTS), s12\n  s_nop 0\n  s_getreg_b32 s20, hwreg(HW_REG_TRAPSTS)",
                 "  s_setreg_b32 hwreg(HW_REG_TRAPSTS), s12\n  s_nop 1\n  s_getreg_b32 s20, hwreg(HW_REG_TRAPSTS)",
                 "s_getreg_b32", "s_setreg_b32"});
    c.push_back({"VALU overwrites the data of a 128-bit store right away", Rule::store_data_overwrite,
                 "  global_store_dwordx4 v1, v[4:7], s[4:5]\n  v_mov_b32 v5, 0",
                 "  global_store_dwordx4 v1, v[4:7], s[4:5]\n  s_nop 0\n  v_mov_b32 v5, 0", "v_mov_b32 v5, 0",
                 "global_store_dwordx4"});
    // The fixed kernel chains a second MFMA on the first one's result at once (no VALU rule).
    c.push_back({"gfx90a: MFMA reads a VGPR 1 wait state after a VALU write", Rule::mfma_after_valu_write,
                 "  v_mov_b32 v3, 1.0\n  s_nop 0\n  v_mfma_f32_4x4x1f32 v[4:7], v3, v3, 0\n  s_nop 7\n"
                 "  v_mov_b32 v2, v4" +
                     store_v2,
                 "  v_mov_b32 v3, 1.0\n  s_nop 1\n  v_mfma_f32_4x4x1f32 v[4:7], v3, v3, 0\n"
                 "  v_mfma_f32_4x4x1f32 v[4:7], v3, v3, v[4:7]\n  s_nop 7\n  v_mov_b32 v2, v4" +
                     store_v2,
                 "v_mfma_f32_4x4x1f32", "v_mov_b32 v3, 1.0", on("gfx90a")});
    c.push_back(
        {"gfx908: MFMA 3 wait states after a VALU write of EXEC", Rule::mfma_after_exec_write,
         "  v_mov_b32 v3, 1.0\n  v_cmpx_gt_u32 vcc, 32, v0\n  s_nop 2\n  v_mfma_f32_4x4x1f32 a[0:3], v3, v3, a[0:3]\n"
         "  s_nop 7\n  v_accvgpr_read_b32 v2, a0\n  s_nop 1" +
             store_v2,
         "  v_mov_b32 v3, 1.0\n  v_cmpx_gt_u32 vcc, 32, v0\n  s_nop 3\n  v_mfma_f32_4x4x1f32 a[0:3], v3, v3, a[0:3]\n"
         "  s_nop 7\n  v_accvgpr_read_b32 v2, a0\n  s_nop 1" +
             store_v2,
         "v_mfma_f32_4x4x1f32", "v_cmpx_gt_u32", on("gfx908")});
    // MFMA rules: one per rule, the MFMA's passes named (4x4 = 2, 16x16x4f32 = 8, 32x32x2f32 = 16).
    const std::string v3 = "  v_mov_b32 v3, 1.0\n  v_mov_b32 v2, 0\n  s_nop 1\n";
    auto mfma_case = [&](const char* name, Rule rule, const std::string& before, const std::string& bug_nop,
                         const std::string& fixed_nop, const std::string& after, const char* at, const char* earlier,
                         const char* mcpu, unsigned at_occurrence = 0) {
        c.push_back({name, rule, v3 + before + bug_nop + after + store_v2, v3 + before + fixed_nop + after + store_v2,
                     at, earlier, on(mcpu), at_occurrence});
    };
    mfma_case("gfx90a: 16-pass MFMA result read as part of C 8 wait states later", Rule::mfma_srcc_overlap,
              "  v_mfma_f32_32x32x2f32 v[16:31], v3, v3, 0\n", "  s_nop 7\n", "  s_nop 15\n",
              "  v_mfma_f32_16x16x4f32 v[32:35], v3, v3, v[16:19]\n  s_nop 15\n", "v_mfma_f32_16x16x4f32",
              "v_mfma_f32_32x32x2f32", "gfx90a");
    mfma_case("gfx942: identical C right after a 2-pass MFMA", Rule::mfma_srcc_after_2pass,
              "  v_mfma_f32_4x4x1_16b_f32 v[4:7], v3, v3, 0\n", "", "  s_nop 1\n",
              "  v_mfma_f32_4x4x1_16b_f32 v[4:7], v3, v3, v[4:7]\n  s_nop 7\n", "v_mfma_f32_4x4x1_16b_f32",
              "v_mfma_f32_4x4x1_16b_f32", "gfx942", 1);
    mfma_case("gfx90a: 2-pass MFMA result read as A 4 wait states later", Rule::mfma_srcab_after_mfma,
              "  v_mfma_f32_4x4x1f32 v[4:7], v3, v3, 0\n", "  s_nop 3\n", "  s_nop 4\n",
              "  v_mfma_f32_4x4x1f32 v[8:11], v4, v3, 0\n  s_nop 7\n", "v_mfma_f32_4x4x1f32 v[8:11]",
              "v_mfma_f32_4x4x1f32 v[4:7]", "gfx90a");
    mfma_case("gfx90a: VALU reads a 2-pass MFMA result 4 wait states later", Rule::valu_read_after_mfma,
              "  v_mfma_f32_4x4x1f32 v[4:7], v3, v3, 0\n", "  s_nop 3\n", "  s_nop 4\n", "  v_mov_b32 v2, v4\n",
              "v_mov_b32 v2, v4", "v_mfma_f32_4x4x1f32", "gfx90a");
    mfma_case("gfx90a: VALU overwrites a 2-pass MFMA result 4 wait states later", Rule::valu_write_after_mfma,
              "  v_mfma_f32_4x4x1f32 v[4:7], v3, v3, 0\n", "  s_nop 3\n", "  s_nop 4\n", "  v_mov_b32 v5, 0\n",
              "v_mov_b32 v5, 0", "v_mfma_f32_4x4x1f32", "gfx90a");
    mfma_case("gfx90a: VALU overwrites an 8-pass MFMA's C 6 wait states later", Rule::valu_write_after_mfma_srcc,
              "  v_mfma_f32_16x16x4f32 v[4:7], v3, v3, v[8:11]\n", "  s_nop 5\n", "  s_nop 6\n",
              "  v_mov_b32 v8, 1.0\n  s_nop 15\n", "v_mov_b32 v8, 1.0", "v_mfma_f32_16x16x4f32", "gfx90a");
    mfma_case("gfx908: v_accvgpr_read 3 wait states after a 2-pass MFMA", Rule::accvgpr_read_after_mfma,
              "  v_mfma_f32_4x4x1f32 a[0:3], v3, v3, a[0:3]\n", "  s_nop 2\n", "  s_nop 3\n",
              "  v_accvgpr_read_b32 v2, a0\n  s_nop 1\n", "v_accvgpr_read_b32", "v_mfma_f32_4x4x1f32", "gfx908");
    mfma_case("gfx908: v_accvgpr_write over an 8-pass MFMA result 6 wait states later", Rule::accvgpr_write_after_mfma,
              "  v_mfma_f32_16x16x4f32 a[0:3], v3, v3, a[0:3]\n", "  s_nop 5\n", "  s_nop 6\n",
              "  v_accvgpr_write_b32 a1, v3\n", "v_accvgpr_write_b32", "v_mfma_f32_16x16x4f32", "gfx908");
    mfma_case("gfx908: v_accvgpr_write over an 8-pass MFMA's C 4 wait states later",
              Rule::accvgpr_write_after_mfma_srcc, "  v_mfma_f32_16x16x4f32 a[4:7], v3, v3, a[0:3]\n", "  s_nop 3\n",
              "  s_nop 4\n", "  v_accvgpr_write_b32 a1, v3\n  s_nop 15\n", "v_accvgpr_write_b32",
              "v_mfma_f32_16x16x4f32", "gfx908");
    mfma_case("gfx908: MFMA reads C right after v_accvgpr_write", Rule::mfma_srcc_after_accvgpr_write,
              "  v_accvgpr_write_b32 a0, v3\n", "", "  s_nop 0\n",
              "  v_mfma_f32_4x4x1f32 a[0:3], v3, v3, a[0:3]\n  s_nop 7\n", "v_mfma_f32_4x4x1f32", "v_accvgpr_write_b32",
              "gfx908");
    mfma_case("gfx908: MFMA reads A 2 wait states after v_accvgpr_write", Rule::mfma_srcab_after_accvgpr_write,
              "  v_accvgpr_write_b32 a4, v3\n", "  s_nop 1\n", "  s_nop 2\n",
              "  v_mfma_f32_4x4x1f32 a[0:3], a4, v3, a[0:3]\n  s_nop 7\n", "v_mfma_f32_4x4x1f32", "v_accvgpr_write_b32",
              "gfx908");
    mfma_case("gfx908: v_accvgpr_read 2 wait states after v_accvgpr_write", Rule::accvgpr_read_after_accvgpr_write,
              "  v_accvgpr_write_b32 a0, v3\n", "  s_nop 1\n", "  s_nop 2\n",
              "  v_accvgpr_read_b32 v2, a0\n  s_nop 1\n", "v_accvgpr_read_b32", "v_accvgpr_write_b32", "gfx908");
    mfma_case("gfx908: a store reads v_accvgpr_read's result 1 wait state later", Rule::memory_after_accvgpr_read,
              "  v_accvgpr_read_b32 v2, a0\n", "  s_nop 0\n", "  s_nop 1\n", "", "global_store_dword",
              "v_accvgpr_read_b32", "gfx908");
    c.push_back({"gfx940: VALU reads VCC 1 wait state after v_cmp", Rule::valu_sgpr_after_valu,
                 "  v_cmp_eq_u32 vcc, 0, v0\n  s_nop 0\n  v_cndmask_b32 v2, 0, 1, vcc" + store_v2,
                 "  v_cmp_eq_u32 vcc, 0, v0\n  s_nop 1\n  v_cndmask_b32 v2, 0, 1, vcc" + store_v2, "v_cndmask_b32",
                 "v_cmp_eq_u32", on("gfx940")});
    // The VOP3 forms name their lane mask as a source: VCC only when written so.
    c.push_back({"gfx940: v_cndmask_b32_e64 reads VCC as its mask right after v_cmp", Rule::valu_sgpr_after_valu,
                 "  v_cmp_eq_u32 vcc, 0, v0\n  v_cndmask_b32_e64 v2, 0, 1, vcc" + store_v2,
                 "  v_cmp_eq_u32 vcc, 0, v0\n  v_cndmask_b32_e64 v2, 0, 1, s[12:13]\n"
                 "  v_addc_co_u32_e64 v3, s[14:15], v0, v0, s[12:13]" +
                     store_v2,
                 "v_cndmask_b32", "v_cmp_eq_u32", on("gfx940")});
    c.push_back(
        {"gfx940: v_readfirstlane right after a VALU write of its VGPR", Rule::readlane_after_valu,
         "  v_mov_b32 v3, v0\n  v_readfirstlane_b32 s20, v3\n  s_nop 1\n  v_mov_b32 v2, s20" + store_v2,
         "  v_mov_b32 v3, v0\n  s_nop 0\n  v_readfirstlane_b32 s20, v3\n  s_nop 1\n  v_mov_b32 v2, s20" + store_v2,
         "v_readfirstlane_b32", "v_mov_b32 v3, v0", on("gfx940")});
    c.push_back(
        {"gfx940: v_readfirstlane 3 wait states after a VALU write of EXEC", Rule::rwlane_after_exec,
         "  v_cmpx_gt_u32 vcc, 32, v0\n  s_nop 2\n  v_readfirstlane_b32 s20, v0\n  s_nop 1\n  v_mov_b32 v2, s20" +
             store_v2,
         "  v_cmpx_gt_u32 vcc, 32, v0\n  s_nop 3\n  v_readfirstlane_b32 s20, v0\n  s_nop 1\n  v_mov_b32 v2, s20" +
             store_v2,
         "v_readfirstlane_b32", "v_cmpx_gt_u32", on("gfx940")});
    c.push_back({"gfx940: transcendental result read by the next VALU", Rule::trans_forwarding,
                 "  v_cvt_f32_u32 v3, v0\n  s_nop 1\n  v_rcp_f32 v3, v3\n  v_add_f32 v2, v3, v3" + store_v2,
                 "  v_cvt_f32_u32 v3, v0\n  s_nop 1\n  v_rcp_f32 v3, v3\n  s_nop 0\n  v_add_f32 v2, v3, v3" + store_v2,
                 "v_add_f32", "v_rcp_f32", on("gfx940")});
    c.push_back({"LDS read past the allocation", Rule::lds_out_of_range,
                 "  ds_read_b32 v2, v1 offset:256\n  s_waitcnt lgkmcnt(0)" + store_v2,
                 "  ds_read_b32 v2, v1 offset:0\n  s_waitcnt lgkmcnt(0)" + store_v2, "ds_read_b32", "", with_lds(256)});
    c.push_back({"ds_add_u32 at 2 bytes past 4-byte alignment", Rule::lds_misaligned,
                 "  v_mov_b32 v3, 1\n  ds_add_u32 v1, v3 offset:2\n  s_waitcnt lgkmcnt(0)",
                 "  v_mov_b32 v3, 1\n  ds_add_u32 v1, v3 offset:4\n  s_waitcnt lgkmcnt(0)", "ds_add_u32", "",
                 with_lds(1024)});
    c.push_back({"global load one buffer past the end", Rule::global_out_of_bounds,
                 "  v_add_u32 v3, 0x1000, v1\n  global_load_dword v2, v3, s[4:5]\n  s_waitcnt vmcnt(0)" + store_v2,
                 "  v_add_u32 v3, 0xf00, v1\n  global_load_dword v2, v3, s[4:5]\n  s_waitcnt vmcnt(0)" + store_v2,
                 "global_load_dword", ""});
    c.push_back({"scratch access without a private segment", Rule::scratch_without_allocation,
                 "  scratch_load_dword v2, v1, off\n  s_waitcnt vmcnt(0)" + store_v2,
                 "  global_load_dword v2, v1, s[4:5]\n  s_waitcnt vmcnt(0)" + store_v2, "scratch_load_dword", ""});
    PlantOptions private16;
    private16.kernel.private_bytes = 16;
    c.push_back({"scratch load of the 4 bytes past a 16-byte private segment", Rule::scratch_out_of_segment,
                 "  v_mov_b32 v3, 16\n  scratch_load_dword v2, v3, off\n  s_waitcnt vmcnt(0)" + store_v2,
                 "  v_mov_b32 v3, 12\n  scratch_load_dword v2, v3, off\n  s_waitcnt vmcnt(0)" + store_v2,
                 "scratch_load_dword", "", private16});
    PlantOptions no_endpgm;
    no_endpgm.drop_final_endpgm = true;
    c.push_back({"no s_endpgm: runs past the end of the code", Rule::past_end_of_code, "  v_mov_b32 v2, 0",
                 "  v_mov_b32 v2, 0\n  s_endpgm", "<end of code>", "", no_endpgm});
    PlantOptions watchdog;
    watchdog.watchdog = 1000;
    c.push_back(
        {"endless loop stopped by the watchdog", Rule::watchdog,
         "  s_mov_b32 s20, 0\n.Lloop:\n  s_add_u32 s20, s20, 1\n  s_branch .Lloop",
         "  s_mov_b32 s20, 0\n.Lloop:\n  s_add_u32 s20, s20, 1\n  s_cmp_lt_u32 s20, 100\n  s_cbranch_scc1 .Lloop",
         "s_branch", "", watchdog});
    return c;
}

}  // namespace

TEST_CASE("each planted bug is reported once, at its instruction, and its fix runs clean", "[check][planted]") {
    for (const PlantedCase& c : cases()) {
        INFO(c.name);
        const Planted bug = check_body(c.bug, c.options);
        INFO(bug.checked.text());
        REQUIRE(bug.checked.findings.size() >= 1);
        const Finding& f = bug.checked.findings.front();
        CHECK(f.rule == c.rule);
        const std::uint32_t expected_pc =
            std::string(c.at) == "<end of code>"
                ? static_cast<std::uint32_t>(bug.program.code_address + bug.program.insts.back().pc + 4)
                : bug.pc(c.at, c.at_occurrence);
        CHECK(f.pc == expected_pc);
        CHECK(f.kernel == "k");
        CHECK(f.has_earlier == (c.earlier[0] != 0));
        if (c.earlier[0]) CHECK(f.earlier_pc == bug.pc(c.earlier));
        for (const Finding& other : bug.checked.findings) CHECK(other.rule == c.rule);  // no collateral findings
        const Planted fixed = check_body(c.fixed, c.options);
        INFO("fixed:\n" << fixed.checked.text());
        CHECK(fixed.checked.findings.empty());
        CHECK(fixed.checked.result.ok());
    }
}

TEST_CASE("unaligned LDS and global accesses run byte for byte, with no finding", "[check][planted]") {
    // LDS byte a = a for a < 256 (lane l writes 0x03020100 + 0x04040404 l at
    // 4 l); then each lane reads at unaligned addresses, writes 8 bytes at
    // 1024 + 8 l + 3 and reads them back, and loads a dword from p1 + l + 1.
    const CodeObject co = exec_test::assemble_kernel(R"(
  v_mov_b32 v3, 0x04040404
  v_mul_lo_u32 v3, v3, v0
  v_add_u32 v3, 0x03020100, v3
  ds_write_b32 v1, v3
  s_waitcnt lgkmcnt(0)
  v_add_u32 v2, 3, v0
  ds_read_b32 v4, v2
  v_lshl_add_u32 v2, v0, 1, 1
  ds_read_b64 v[5:6], v2
  ds_read_b128 v[7:10], v0 offset:8
  v_add_u32 v2, 1, v0
  ds_read2_b32 v[11:12], v2 offset0:0 offset1:3
  v_lshl_add_u32 v2, v0, 3, 3
  v_mov_b32 v13, 0x11223344
  v_mov_b32 v14, v0
  ds_write_b64 v2, v[13:14] offset:1024
  s_waitcnt lgkmcnt(0)
  ds_read_b64 v[13:14], v2 offset:1024
  v_add_u32 v2, 1, v0
  global_load_dword v15, v2, s[6:7]
  s_waitcnt vmcnt(0) lgkmcnt(0)
  v_lshlrev_b32 v2, 6, v0
  global_store_dword v2, v4, s[4:5]
  global_store_dwordx2 v2, v[5:6], s[4:5] offset:4
  global_store_dwordx4 v2, v[7:10], s[4:5] offset:12
  global_store_dwordx2 v2, v[11:12], s[4:5] offset:28
  global_store_dwordx3 v2, v[13:15], s[4:5] offset:36
)",
                                                     [] {
                                                         exec_test::KernelOptions o;
                                                         o.lds_bytes = 2048;
                                                         return o;
                                                     }());
    const Program program = build_program(co, co.kernel("k"));
    exec_test::TestRun run;
    std::vector<std::uint32_t> global(64);
    for (std::uint32_t i = 0; i < 64; ++i) global[i] = 0x80808080u + 0x04040404u * i + 0x03020100u;
    run.fill(1, global);
    const Checked c = run_checked(run, program);
    INFO(c.text());
    REQUIRE(c.result.ok());
    CHECK(c.findings.empty());
    // Dword of bytes a..a+3 of LDS (byte a = a) and of p1 (byte a = 0x80 + a).
    const auto lds = [](std::uint32_t a) { return a | (a + 1) << 8 | (a + 2) << 16 | (a + 3) << 24; };
    const auto p1 = [&](std::uint32_t a) { return lds(a) + 0x80808080u; };
    const std::vector<std::uint32_t> out = run.read(0, 64 * 16);
    for (std::uint32_t l = 0; l < 64; ++l) {
        INFO("lane " << l);
        const std::uint32_t* o = &out[16 * l];
        CHECK(o[0] == lds(l + 3));
        CHECK(o[1] == lds(2 * l + 1));
        CHECK(o[2] == lds(2 * l + 5));
        for (std::uint32_t d = 0; d < 4; ++d) CHECK(o[3 + d] == lds(l + 8 + 4 * d));
        CHECK(o[7] == lds(l + 1));
        CHECK(o[8] == lds(l + 13));
        CHECK(o[9] == 0x11223344u);
        CHECK(o[10] == l);
        CHECK(o[11] == p1(l + 1));
    }
}

TEST_CASE("an LDS race names both waves' instructions and the lanes", "[check][planted]") {
    const Planted p = check_body(exchange(true, false), with_lds(512, 128));
    INFO(p.checked.text());
    REQUIRE(p.checked.findings.size() == 2);
    // Wave 0 ran first and read wave 1's bytes; wave 1's write comes after it (read-write),
    // then wave 1 reads what wave 0 wrote (write-read).
    const Finding& war = p.checked.findings[0];
    CHECK(war.wave == 1);
    CHECK(war.pc == p.pc("ds_write_b32"));
    CHECK(war.earlier_pc == p.pc("ds_read_b32"));
    CHECK(war.earlier_where == "wave 0");
    CHECK(war.lanes == ~0ull);
    const Finding& raw = p.checked.findings[1];
    CHECK(raw.pc == p.pc("ds_read_b32"));
    CHECK(raw.earlier_pc == p.pc("ds_write_b32"));
    CHECK(raw.message.find("written by wave 0") != std::string::npos);
}

TEST_CASE("v_div_fmas after a VALU write of VCC is reported", "[check][planted]") {
    const std::string tail = "\n  v_div_fmas_f32 v2, v0, v0, v0" + store_v2;
    const Planted bug = check_body("  v_cmp_eq_u32 vcc, 0, v0\n  s_nop 2" + tail);
    INFO(bug.checked.text());
    REQUIRE(bug.checked.findings.size() == 1);
    CHECK(bug.checked.findings[0].rule == Rule::div_fmas_after_vcc);
    CHECK(bug.checked.findings[0].pc == bug.pc("v_div_fmas_f32"));
    const Planted fixed = check_body("  v_cmp_eq_u32 vcc, 0, v0\n  s_nop 3" + tail);
    INFO(fixed.checked.text());
    CHECK(fixed.checked.findings.empty());
}

TEST_CASE("stop at the first finding", "[check][options]") {
    const CodeObject co = exec_test::assemble_kernel(
        "  global_load_dword v2, v1, s[4:5]\n  v_add_f32 v3, v2, v2\n  v_add_f32 v4, v2, v2\n  s_waitcnt vmcnt(0)" +
        store_v2);
    const Program program = build_program(co, co.kernel("k"));
    exec_test::TestRun run;
    run.grid = {4, 1, 1};
    run.threads = 2;
    CheckOptions first;
    first.stop_at_first = true;
    const Checked stopped = run_checked(run, program, first);
    INFO(stopped.text());
    REQUIRE(stopped.findings.size() == 1);
    CHECK(stopped.findings[0].workgroup[0] == 0);
    CHECK(stopped.findings[0].pc == pc_of(program, "v_add_f32 v3"));
    CHECK_FALSE(stopped.result.ok());
    const Checked all = run_checked(run, program);
    INFO(all.text());
    REQUIRE(all.findings.size() == 1);  // one per missing wait (not per later read), merged over 4 workgroups
    CHECK(all.findings[0].occurrences == 4);
    CHECK(all.result.ok());
}

TEST_CASE("finding text names kernel, workgroup, wave, lanes, pc, rule and the earlier instruction",
          "[check][format]") {
    Finding f;
    f.rule = Rule::read_before_wait;
    f.kernel = "k";
    f.workgroup = {1, 2, 0};
    f.wave = 3;
    f.lanes = 0xf0f;
    f.pc = 0x1c;
    f.instruction = "v_add_f32_e32 v2, v2, v2";
    f.has_earlier = true;
    f.earlier_pc = 0x14;
    f.earlier_instruction = "global_load_dword v2, v1, s[4:5]";
    f.message = "reads v2 before the load into it is covered by s_waitcnt vmcnt";
    CHECK(f.text() ==
          "kernel 'k': workgroup (1,2,0) wave 3 lanes 0-3,8-11 pc 0x1c: v_add_f32_e32 v2, v2, v2\n"
          "  [read-before-wait] reads v2 before the load into it is covered by s_waitcnt vmcnt\n"
          "  earlier: pc 0x14: global_load_dword v2, v1, s[4:5]");
    CHECK(lane_list(1) == "0");
    CHECK(lane_list(0x8000000000000005ull) == "0,2,63");
}

TEST_CASE("register names in findings", "[check][format]") {
    CHECK(range_name(RegRange{4, 4}) == "v[4:7]");
    CHECK(range_name(RegRange{static_cast<std::uint16_t>(slot_agpr + 3), 1}) == "a3");
    CHECK(range_name(RegRange{static_cast<std::uint16_t>(slot_sreg + 20), 2}) == "s[20:21]");
    CHECK(range_name(RegRange{static_cast<std::uint16_t>(slot_vcc), 2}) == "vcc");
    CHECK(range_name(RegRange{static_cast<std::uint16_t>(slot_vcc + 1), 1}) == "vcc_hi");
    CHECK(range_name(RegRange{static_cast<std::uint16_t>(slot_exec), 1}) == "exec_lo");
    CHECK(range_name(RegRange{static_cast<std::uint16_t>(slot_m0), 1}) == "m0");
}

TEST_CASE("max_findings keeps the first distinct findings", "[check][options]") {
    const CodeObject co = exec_test::assemble_kernel(
        "  global_load_dword v2, v1, s[4:5]\n  global_load_dword v3, v1, s[6:7]\n"
        "  v_add_f32 v4, v2, v2\n  v_add_f32 v5, v3, v3\n  s_waitcnt vmcnt(0)" +
        store_v2);
    const Program program = build_program(co, co.kernel("k"));
    exec_test::TestRun run;
    CheckOptions one;
    one.max_findings = 1;
    const Checked first = run_checked(run, program, one);
    INFO(first.text());
    REQUIRE(first.findings.size() == 1);
    CHECK(first.findings[0].pc == pc_of(program, "v_add_f32 v4"));
    const Checked all = run_checked(run, program);
    REQUIRE(all.findings.size() == 2);
    CHECK(all.findings[1].pc == pc_of(program, "v_add_f32 v5"));
}
