// Hardware registers (s_getreg_b32, s_setreg_b32) and the clocks (s_memtime,
// s_memrealtime).
//
// s_getreg_b32 reads hwreg(id, offset, size): bits [offset + size - 1:offset]
// of the register, shifted down (Vega ISA, "SOPK": "D = (HW_REG >> offset) &
// mask"). The registers are the ones LLVM's assembler accepts for gfx9
// ("gfx9 hwreg" in the LLVM AMDGPU docs) with their fields as the Vega / CDNA
// ISA guides define them ("Hardware Registers" / "State registers"), filled
// in from what the emulator models:
//
//   1 MODE        the wave's MODE register (wave.hpp mode_register)
//   2 STATUS      SCC [0], EXECZ [9], VCCZ [10], VALID [16]; no priority,
//                 trap, halt, barrier or debug state is modelled (0), IN_TG
//                 [11] neither (0)
//   3 TRAPSTS     0: no exception is ever recorded (floating-point
//                 exceptions are not modelled and no trap handler runs)
//   4 HW_ID       WAVE_ID [3:0], SIMD_ID [5:4], CU_ID [11:8], TG_ID [19:16],
//                 the rest 0 (one queue, shader engine, VMID). The emulator
//                 is one compute unit whose four SIMDs take a workgroup's
//                 waves in turn: wave w is on SIMD w % 4 in slot w / 4; the
//                 workgroup slot is the linear workgroup id modulo 16.
//   5 GPR_ALLOC   VGPR_SIZE [13:8] = the descriptor's granulated VGPR count
//                 (rsrc1, the value the dispatcher programs), SGPR_SIZE
//                 [27:24] = SGPRs in 16-register granules minus 1; bases 0
//   6 LDS_ALLOC   LDS_SIZE [20:12] = the workgroup's LDS in 128-dword
//                 (512-byte) granules (the rsrc2 LDS_SIZE granule), base 0
//   7 IB_STS      VM_CNT [3:0] (+ [23:22] high bits), LGKM_CNT [11:8]: the
//                 wave's outstanding counter entries; EXP_CNT, VALU_CNT 0
//  15 SH_MEM_BASES PRIVATE_BASE [15:0], SHARED_BASE [31:16]: bits 63:48 of
//                 the private and shared aperture bases (apertures.hpp) --
//                 what `hipcc -O0` reads to build flat private addresses
//  16..19 TBA/TMA 0: no trap handler is installed
//  20 XCC_ID      (gfx940) 0: one XCC
//  21..23         (gfx940) SQ perf snapshot registers: 0 (no profiling)
// Any other id stops the run naming it.
//
// s_memtime and s_memrealtime return a 64-bit counter in an SGPR pair, like
// an SMEM load (lgkmcnt; Vega ISA "SMEM": "Return current 64-bit timestamp"
// / "Return current 64-bit RTC"). Both come from the host's monotonic clock:
// s_memtime counts nanoseconds (a 1 GHz shader clock), s_memrealtime 100 MHz
// ticks (the "wall clock" rate of MI-series GPUs). Never decreasing within
// and across waves, but (like the hardware) not deterministic.

#include <chrono>
#include <string>

#include "emu/exec/apertures.hpp"
#include "emu/exec/semantics.hpp"
#include "emu/util.hpp"

namespace dppgemm::emu::sem {
namespace {

enum Hwreg : unsigned {
    hw_mode = hwreg_mode,
    hw_status = 2,
    hw_trapsts = 3,
    hw_hw_id = 4,
    hw_gpr_alloc = 5,
    hw_lds_alloc = 6,
    hw_ib_sts = 7,
    hw_sh_mem_bases = 15,
    hw_tba_lo = 16,
    hw_tma_hi = 19,
    hw_xcc_id = 20,
    hw_perf_snapshot_last = 23,
};

u32 status(const Wave& w) { return u32(w.scc) | u32(w.exec() == 0) << 9 | u32(w.vcc() == 0) << 10 | 1u << 16; }

u32 hw_id(const Wave& w) {
    const u32 wave_slot = (w.id / 4) & 0xf, simd = w.id % 4, tg = u32(w.group->linear_id & 0xf);
    return wave_slot | simd << 4 | tg << 16;
}

u32 gpr_alloc(const Wave& w) {
    const KernelDescriptor& d = w.group->env->program->descriptor;
    const u32 sgpr_granules = (d.allocated_sgprs + 15) / 16;
    return (u32(d.vgpr_blocks) & 0x3f) << 8 | ((sgpr_granules ? sgpr_granules - 1 : 0) & 0xf) << 24;
}

u32 lds_alloc(const Wave& w) {
    const u32 granules = u32((w.group->lds.size() + 511) / 512);
    return (granules & 0x1ff) << 12;
}

u32 ib_sts(const Wave& w) {
    const u32 vm = w.pending.vmcnt(), lgkm = w.pending.lgkmcnt();
    // VM_CNT's high bits (22..23) are gfx9's; GCN3's counter is 4 bits.
    const u32 vm_high = has(w.group->env->program->target, Feature::gfx9_insts) ? (vm >> 4) & 3 : 0;
    return (vm & 0xf) | vm_high << 22 | (lgkm & 0xf) << 8;
}

u32 sh_mem_bases() { return u32(private_aperture_base >> 48) | u32(shared_aperture_base >> 48) << 16; }

u32 read_hwreg(const Wave& w, unsigned id) {
    const Target target = w.group->env->program->target;
    switch (id) {
    case hw_mode: return w.mode;
    case hw_status: return status(w);
    case hw_trapsts: return 0;
    case hw_hw_id: return hw_id(w);
    case hw_gpr_alloc: return gpr_alloc(w);
    case hw_lds_alloc: return lds_alloc(w);
    case hw_ib_sts: return ib_sts(w);
    case hw_sh_mem_bases: return sh_mem_bases();
    default: break;
    }
    if (id >= hw_tba_lo && id <= hw_tma_hi) return 0;
    if (has(target, Feature::gfx940_insts) && id >= hw_xcc_id && id <= hw_perf_snapshot_last) return 0;
    fail(FaultKind::invalid_operand, "s_getreg_b32 of hardware register id " + std::to_string(id) +
                                         " (not a readable register on " + std::string(target_name(target)) + ")");
}

// hwreg(id, offset, size) of s_getreg/s_setreg: the register and the mask of its bits.
struct HwregField {
    unsigned id, offset;
    u32 mask;
};
HwregField hwreg_field(const ExecInst& e) {
    const unsigned id = e.inst->simm16 & 0x3f, offset = (e.inst->simm16 >> 6) & 0x1f;
    const unsigned size = ((e.inst->simm16 >> 11) & 0x1f) + 1;
    return {id, offset, u32((size < 32 ? (1ull << size) - 1 : 0xffffffffull) << offset)};
}

void getreg(Wave& w, const ExecInst& e) {
    const HwregField f = hwreg_field(e);
    write32(w, e.dst, (read_hwreg(w, f.id) & f.mask) >> f.offset);
}

// s_setreg_b32 of HW_REG_MODE: the fp32 denorm mode switches the wave to the
// code built for it (Program::code_for); other float mode fields (round
// modes, fp16/64 denormals, DX10 clamp, IEEE) are not modelled, so changing
// them stops the run. Other registers (trap status, ...) have no effect here.
void setreg(Wave& w, const ExecInst& e) {
    const HwregField f = hwreg_field(e);
    if (f.id != hwreg_mode) return;
    // s_setreg_b32 has its SGPR in the sdst field, s_setreg_imm32_b32 a literal.
    const u32 value = read32(w, e.inst->op == Op::s_setreg_imm32_b32 ? e.src[0] : e.dst);
    const u32 mode = (w.mode & ~f.mask) | ((value << f.offset) & f.mask);
    constexpr u32 fp32_denorm = 3u << mode_fp32_denorm_shift,
                  modelled_elsewhere = 0x3cfu;  // round, fp16/64 denorm, clamp, IEEE
    if ((mode ^ w.mode) & modelled_elsewhere)
        fail(FaultKind::not_implemented,
             "s_setreg of HW_REG_MODE changing the round mode, fp16/64 denormals, DX10 clamp or IEEE mode is not "
             "implemented");
    const bool switches = (mode ^ w.mode) & fp32_denorm;
    w.mode = mode;
    if (!switches) return;
    const ExecInst* code =
        w.group->env->program->code_for(static_cast<FloatDenormMode>((mode & fp32_denorm) >> mode_fp32_denorm_shift));
    if (!code) fail(FaultKind::not_implemented, "s_setreg of HW_REG_MODE: no code built for this fp32 denorm mode");
    w.code = code;
    w.state = WaveState::code_switched;  // the run loop continues in `code`
}

template <u64 TicksPerSecond>
void memtime(Wave& w, const ExecInst& e) {
    const auto since_epoch = std::chrono::steady_clock::now().time_since_epoch();
    const u64 ns = u64(std::chrono::duration_cast<std::chrono::nanoseconds>(since_epoch).count());
    const u64 ticks = ns / (1000000000ull / TicksPerSecond);
    u32* data = issue_sgpr_result(w, e, 2);
    data[0] = u32(ticks);
    data[1] = u32(ticks >> 32);
}

}  // namespace

void register_hwreg(Table& t) {
    set(t, Op::s_getreg_b32, getreg, InstClass::salu);
    set(t, Op::s_setreg_b32, setreg, InstClass::salu);
    set(t, Op::s_setreg_imm32_b32, setreg, InstClass::salu);
    set(t, Op::s_memtime, memtime<1000000000ull>, InstClass::smem);
    set(t, Op::s_memrealtime, memtime<100000000ull>, InstClass::smem);
    // Branches on STATUS.COND_DBG_SYS/COND_DBG_USER, which no debugger sets here (STATUS reads them 0):
    // never taken.
    for (Op op :
         {Op::s_cbranch_cdbgsys, Op::s_cbranch_cdbguser, Op::s_cbranch_cdbgsys_or_user, Op::s_cbranch_cdbgsys_and_user})
        set(t, op, no_effect, InstClass::branch);
    // s_wakeup wakes the workgroup's other waves from s_sleep; waves run in turn and s_sleep does not wait.
    set(t, Op::s_wakeup, no_effect, InstClass::other);
}

}  // namespace dppgemm::emu::sem
