// The checkers' watch plan (emu/check/watch_plan.hpp): which instructions
// they must see. Small kernels where the answer follows from the rules
// (docs/checkers.md), and the dppgemm kernels, whose multiply-adds must need
// no checking at all (that is what makes checked runs cheap). That the
// findings do not depend on the plan is tested wherever the checkers run
// (check_support.hpp, planned_and_every).

#include <catch2/catch.hpp>

#include "check_support.hpp"
#include "dppgemm/code_objects.h"

using namespace check_test;

namespace {

struct Planned {
    Program program;
    WatchPlan plan;
    std::uint8_t at(const std::string& prefix, unsigned n = 0) const {
        return plan.watched.at(find_inst(program, prefix, n));
    }
};

Planned plan_of(const std::string& body, const exec_test::KernelOptions& options = {}) {
    const CodeObject co = exec_test::assemble_kernel(body, options);
    Planned p{build_program(co, co.kernel("k")), {}};
    p.plan = watch_plan(p.program, inst_facts(p.program));
    return p;
}

const char* const dpp_read = "v_mov_b32_dpp v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf";

}  // namespace

TEST_CASE("watch plan: a DPP read too close to a VALU write, and the instructions before it", "[check][plan]") {
    const Planned close = plan_of("  v_mov_b32 v3, v0\n  s_nop 0\n  " + std::string(dpp_read));
    CHECK(close.at("v_mov_b32_dpp") == WatchPlan::hazard);
    CHECK(close.at("v_mov_b32 v3") == WatchPlan::hazard_window);
    CHECK(close.at("s_nop") == WatchPlan::hazard_window);
    // Two wait states are enough: nothing to watch.
    const Planned apart = plan_of("  v_mov_b32 v3, v0\n  s_nop 1\n  " + std::string(dpp_read));
    CHECK(apart.at("v_mov_b32_dpp") == 0);
    CHECK(apart.at("v_mov_b32 v3") == 0);
}

TEST_CASE("watch plan: a hazard only on a loop's back edge is watched", "[check][plan]") {
    // On entry v3 was written long before the DPP read; from the back edge,
    // right before it.
    const std::string loop = R"(
  v_mov_b32 v3, v0
  s_mov_b32 s20, 0
  s_nop 4
.Lloop:
  v_mov_b32_dpp v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
  s_add_u32 s20, s20, 1
  s_cmp_lt_u32 s20, 3
  v_add_u32 v3, 1, v3
  s_cbranch_scc1 .Lloop)";
    const Planned p = plan_of(loop);
    // Run: found in the second and third iterations, not the first.
    const Planted run = check_body(loop);
    INFO(run.checked.text());
    REQUIRE(run.checked.findings.size() == 1);
    CHECK(run.checked.findings[0].rule == Rule::dpp_after_valu_write);
    CHECK(run.checked.findings[0].occurrences == 2);
    CHECK(run.checked.findings[0].message.find("1 wait state before; needs 2") != std::string::npos);
    CHECK((p.at("v_mov_b32_dpp") & WatchPlan::hazard) != 0);
    // Every instruction within HazardTracker::longest_wait (5) wait states
    // before it on some path: the loop body (the DPP read itself too, from
    // the iteration before) and, on entry, the s_nop 4 (which provides 5).
    for (const char* before : {"v_add_u32", "s_cbranch_scc1", "s_cmp_lt_u32", "s_add_u32", "v_mov_b32_dpp", "s_nop"}) {
        INFO(before);
        CHECK((p.at(before) & WatchPlan::hazard_window) != 0);
    }
    CHECK(p.at("v_mov_b32 v3") == 0);
    CHECK(p.at("s_mov_b32") == 0);
    const Planned fixed = plan_of(R"(
  v_mov_b32 v3, v0
  s_mov_b32 s20, 0
  s_nop 4
.Lloop:
  v_mov_b32_dpp v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
  s_add_u32 s20, s20, 1
  v_add_u32 v3, 1, v3
  s_cmp_lt_u32 s20, 3
  s_cbranch_scc1 .Lloop)");
    CHECK(fixed.at("v_mov_b32_dpp") == 0);
}

TEST_CASE("watch plan: registers a load may still be writing", "[check][plan]") {
    const Planned p = plan_of(R"(
  global_load_dword v2, v1, s[4:5]
  v_add_u32 v4, v3, v3
  v_add_u32 v5, v2, v3
  v_mov_b32 v2, 0
  s_waitcnt vmcnt(0)
  v_add_u32 v6, v2, v2)");
    CHECK(p.at("v_add_u32 v4") == 0);
    CHECK(p.at("v_add_u32 v5") == WatchPlan::pending);
    CHECK(p.at("v_mov_b32 v2") == WatchPlan::pending);  // an overwrite is checked too
    CHECK(p.at("s_waitcnt") == WatchPlan::always);
    CHECK(p.at("v_add_u32 v6") == 0);
}

TEST_CASE("watch plan: lgkmcnt(n) completes LDS reads in order, SMEM loads only at 0", "[check][plan]") {
    exec_test::KernelOptions lds;
    lds.lds_bytes = 1024;
    const Planned p = plan_of(R"(
  s_load_dword s20, s[4:5], 0x0
  ds_read_b32 v2, v1
  ds_read_b32 v3, v1 offset:4
  s_waitcnt lgkmcnt(1)
  v_add_u32 v4, v2, v2
  v_add_u32 v5, v3, v3
  v_add_u32 v6, s20, v2
  s_waitcnt lgkmcnt(0)
  v_add_u32 v7, s20, v3)",
                              lds);
    CHECK(p.at("v_add_u32 v4") == 0);                   // the older LDS read is done
    CHECK(p.at("v_add_u32 v5") == WatchPlan::pending);  // the newer one may not be
    CHECK(p.at("v_add_u32 v6") == WatchPlan::pending);  // SMEM: any order
    CHECK(p.at("v_add_u32 v7") == 0);
}

TEST_CASE("watch plan: vmcnt(n) completes all but the newest n, across a loop", "[check][plan]") {
    // Each iteration issues two loads and waits for all but the newest:
    // v2's load is done at the wait, v3's may not be, also on the back edge.
    const Planned p = plan_of(R"(
  s_mov_b32 s20, 0
.Lloop:
  global_load_dword v2, v1, s[4:5]
  global_load_dword v3, v1, s[6:7]
  s_waitcnt vmcnt(1)
  v_add_u32 v4, v2, v2
  v_add_u32 v5, v3, v3
  s_add_u32 s20, s20, 1
  s_cmp_lt_u32 s20, 3
  s_cbranch_scc1 .Lloop
  s_waitcnt vmcnt(0))");
    CHECK(p.at("v_add_u32 v4") == 0);
    CHECK(p.at("v_add_u32 v5") == WatchPlan::pending);
    // A load does not touch its result register when it issues (a load
    // into a register another load may still write is checked when it
    // issues, not before).
    CHECK(p.at("global_load_dword v3") == 0);
}

TEST_CASE("watch plan: an indirect branch leaves the control flow unknown", "[check][plan]") {
    const Planned p = plan_of(R"(
  s_getpc_b64 s[20:21]
  s_add_u32 s20, s20, 12
  s_addc_u32 s21, s21, 0
  s_setpc_b64 s[20:21]
  v_mov_b32 v2, 0)");
    for (std::size_t i = 0; i < p.program.code.size(); ++i) {
        INFO(p.program.disassemble(static_cast<std::uint32_t>(i)));
        CHECK((p.plan.watched[i] & WatchPlan::unknown_flow) != 0);
    }
}

TEST_CASE("watch plan: no multiply-add of a dppgemm kernel needs watching", "[check][plan][sgemm]") {
    // The kernels' multiply-adds read no register a load may still be
    // writing and follow no VALU write they would need wait states after
    // (asm/sgemm.s): a checked SGEMM runs them on the executor's fast paths.
    for (std::size_t k = 0; k < dppgemm_code_object_count(); ++k) {
        const dppgemm_code_object* o = dppgemm_code_object_at(k);
        const CodeObject co = load_code_object(o->data, o->size, o->kernel_name);
        const Program program = build_program(co, co.kernels.at(0));
        const WatchPlan plan = watch_plan(program, inst_facts(program));
        unsigned multiply_adds = 0, mfmas = 0;
        for (std::uint32_t i = 0; i < program.code.size(); ++i) {
            const bool mfma = program.code[i].cls == InstClass::mfma;
            if (!program.code[i].multiply_add && !mfma) continue;
            ++(mfma ? mfmas : multiply_adds);
            INFO(o->target << " " << o->kernel_name << ": " << program.disassemble(i));
            CHECK(plan.watched[i] == 0);
        }
        // 8 k of a micro tile's multiply-adds at least, a micro tile being the
        // macro tile / 16 (16 x 16 lanes): 2x2 4 per k, 4x4 16, 8x8 64, packed
        // half of that (two FMAs per instruction); the MFMA row: 16 MFMAs per
        // wave and step, and no multiply-add in the loop.
        const unsigned micro = dppgemm_code_object_macro_tile(o) / 16;
        CHECK((multiply_adds >= 8 * micro * micro / 2 || mfmas == 16));
    }
}
