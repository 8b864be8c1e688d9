#pragma once
// Internal to the executor: the Op -> semantics table and the helpers the
// instruction-family files share (operand fetch, masked writes, load
// queueing). One function per instruction family, parameterised by a small
// functor for the per-lane operation.

#include <array>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

#include "emu/exec/float_ops.hpp"
#include "emu/exec/program.hpp"
#include "emu/exec/wave.hpp"

namespace dppgemm::emu::sem {

// How an op treats denormals (see float_ops.hpp); which of its operands
// are floats, and so flushed, is the op table's type columns' (types= in op_semantics.txt).
enum class FloatPolicy : std::uint8_t {
    none,          // integer op, or the op ignores the mode
    mode,          // flush its f32 operands as the FP32 denorm mode says, its f64 ones as the FP16/64 mode
                   // (ExecInst::flush_in/out, ST_FLUSH, ST_FLUSH64)
    no_denormals,  // v_mad_f32/v_mac_f32: always flush
    half,          // f16 op: applies the FP16 denorm mode and f16 clamp/omod itself (sem_half.cpp)
};

// A SALU op's functions for operands whose kinds are known at build time
// (sem_scalar.cpp): fn[src0][src1] by ScalarRead, for a destination that is
// an SGPR of the op's width (or none for a compare). Why: the general
// function's reads and write test the operands' kinds and widths on every
// instruction (read64, write_sdst), and SALU instructions are about a
// quarter of the 32x32 kernels' instructions.
enum class ScalarRead : std::uint8_t {
    sreg,  // Wave::sreg[index]: `dwords` dwords
    imm,   // Src::value, zero-extended
    none,  // 0 (no such operand)
};
struct ScalarForms {
    ExecFn fn[2][3] = {};     // [src0: sreg, imm][src1: sreg, imm, none]
    std::uint8_t dwords = 1;  // the op's operand and result width
    bool writes_dst = true;   // false: SCC only (s_cmp)
};

struct Semantic {
    ExecFn fn = nullptr;
    InstClass cls = InstClass::other;
    FloatPolicy fp = FloatPolicy::none;
    bool src2_is_dst = false;  // v_mac/v_fmac: the accumulator is the destination
    // The op with VOP3 clamp set on an integer result: its saturating form
    // (the ISA's "Supports saturation (unsigned 32-bit integer domain)" and
    // the like); null where integer clamp is not modelled (the run stops).
    ExecFn saturating = nullptr;
    const ScalarForms* scalar_forms = nullptr;  // SALU ops with build-time operand reads
    // The function puts the host in the float mode it needs itself (the
    // multiply-add runs: host_float_mode.hpp).
    bool sets_host_float_mode = false;
};

using Table = std::array<Semantic, op_count>;

// Where an op's src2 comes from: as decoded, or (v_mac, v_fmac and the like)
// the destination register, which the op accumulates into.
enum class Accumulator : bool { as_decoded, destination };

// An op's one semantic: registering an op twice is a bug the table build
// stops at, naming the op.
inline void set(Table& t, Op op, ExecFn fn, InstClass cls, FloatPolicy fp = FloatPolicy::none,
                Accumulator accumulator = Accumulator::as_decoded) {
    Semantic& s = t[static_cast<std::size_t>(op)];
    if (s.fn) throw std::logic_error("semantic table: " + std::string(mnemonic(op)) + " is registered twice");
    s = Semantic{fn, cls, fp, accumulator == Accumulator::destination};
}

// Registers an op's ScalarForms (after its semantic).
inline void set_scalar_forms(Table& t, Op op, const ScalarForms* forms) {
    t[static_cast<std::size_t>(op)].scalar_forms = forms;
}

// Registers the form op runs when its clamp bit is set (Semantic::saturating).
inline void set_saturating(Table& t, Op op, ExecFn fn) { t[static_cast<std::size_t>(op)].saturating = fn; }

void register_scalar(Table& t);
void register_vector(Table& t);
void register_memory(Table& t);
void register_lds(Table& t);
void register_half(Table& t);    // sem_half.cpp: 16-bit VALU (f16 and i16/u16 incl. min3/max3/med3, packed, v_fma_mix*)
void register_divide(Table& t);  // sem_divide.cpp: division/sqrt expansions, f64 compares
void register_hwreg(Table& t);   // sem_hwreg.cpp: s_getreg, s_setreg, s_memtime/s_memrealtime
void register_smem(Table& t);    // sem_smem.cpp: s_buffer_store, scalar atomics, cache maintenance
void register_media(Table& t);   // sem_media.cpp: dot products, packing conversions, media ops
void register_f64(Table& t);     // sem_f64.cpp: f64 rounding, v_fmac_f64, v_trig_preop_f64
void register_gws(Table& t);     // sem_gws.cpp: ds_gws_* on a cooperative launch's GWS resources
void register_mfma(Table& t);    // sem_mfma.cpp: dense matrix-core ops (shapes: mfma.hpp)

// f16 <-> f32 bit patterns outside any mode (sem_half.cpp): exact one way,
// rounded to nearest even the other, NaNs quieted with their high payload
// bits; what the typed buffer formats convert with.
std::uint32_t half_to_float_bits(std::uint32_t half);
std::uint32_t float_to_half_bits(std::uint32_t f32);
inline float half_as_float(std::uint32_t half) { return fp::as_float(half_to_float_bits(half)); }
inline std::uint32_t float_as_half(float f) { return float_to_half_bits(fp::as_bits(f)); }
// An f16 denormal (the low 16 bits) -> a zero of its sign; anything else unchanged.
inline std::uint32_t flush16(std::uint32_t h) { return (h & 0x7c00u) == 0 && (h & 0x3ffu) != 0 ? h & 0x8000u : h; }

// MODE.FP_DENORM as the wave holds it now (s_setreg may change it): fp32 in
// [5:4], fp16/fp64 in [7:6]; for ops that read the mode themselves.
inline FloatDenormMode denorm_32(const Wave& w) {
    return static_cast<FloatDenormMode>((w.mode >> mode_fp32_denorm_shift) & 3);
}
inline FloatDenormMode denorm_16_64(const Wave& w) {
    return static_cast<FloatDenormMode>((w.mode >> (mode_fp32_denorm_shift + 2)) & 3);
}
inline bool flushes_inputs(FloatDenormMode d) {
    return d == FloatDenormMode::flush_src_dst || d == FloatDenormMode::flush_src;
}

// ---- scalar operands ------------------------------------------------------

inline std::uint32_t read32(const Wave& w, const Src& s) {
    switch (s.kind) {
    case Src::Kind::sreg: return w.sreg[s.index];
    case Src::Kind::imm: return s.value;
    case Src::Kind::scc: return w.scc ? 1u : 0u;
    case Src::Kind::vccz: return w.vcc() == 0 ? 1u : 0u;
    case Src::Kind::execz: return w.exec() == 0 ? 1u : 0u;
    default: return 0;
    }
}
// A 64-bit constant: Src::value and its high half in the program (Program::constant_high).
std::uint64_t constant64(const Wave& w, const Src& s);
inline std::uint64_t read64(const Wave& w, const Src& s) {
    switch (s.kind) {
    case Src::Kind::sreg: return s.dwords > 1 ? w.read64(s.index) : w.sreg[s.index];
    case Src::Kind::imm: return s.dwords > 1 ? constant64(w, s) : s.value;
    default: return read32(w, s);
    }
}
inline void write32(Wave& w, const Src& d, std::uint32_t value) { w.sreg[d.index] = value; }
inline void write64(Wave& w, const Src& d, std::uint64_t value) { w.write64(d.index, value); }
// Writes one or two dwords as the destination is wide.
inline void write_sdst(Wave& w, const Src& d, std::uint64_t value) {
    if (d.kind != Src::Kind::sreg) return;
    if (d.dwords > 1) w.write64(d.index, value);
    else w.sreg[d.index] = static_cast<std::uint32_t>(value);
}

// ---- vector operands ------------------------------------------------------

using Lanes = std::uint32_t[64];

inline std::uint32_t* vreg(Wave& w, const Src& s, unsigned dword = 0) {
    return s.kind == Src::Kind::agpr ? w.a[s.index + dword] : w.v[s.index + dword];
}

// SDWA: the selected byte/word of source i, zero- or sign-extended (out may be lanes).
void sdwa_select(const ExecInst& e, unsigned i, const std::uint32_t* lanes, std::uint32_t* out);
// SDWA: places a result in dst_sel of the destination (pad, sign-extend or preserve the rest).
void sdwa_place(const std::uint32_t* old, std::uint32_t* value, const Inst& inst);

// The 64 lanes of source i (dword `dword` of it): a VGPR directly when no
// transform applies, otherwise a copy in tmp (scalars broadcast, DPP
// gathered, abs/neg applied). Transforms in `skip` are left to the caller
// (the lane-loop templates fuse the denormal flush into their loop).
const std::uint32_t* fetch_copy(Wave& w, const ExecInst& e, unsigned i, Lanes tmp, unsigned dword, std::uint8_t skip);
inline const std::uint32_t* fetch(Wave& w, const ExecInst& e, unsigned i, Lanes tmp, unsigned dword = 0,
                                  std::uint8_t skip = 0) {
    const Src& s = e.src[i];
    if (s.kind == Src::Kind::vgpr && !(e.transform[i] & ~skip) && !(i == 0 && e.dpp)) return w.v[s.index + dword];
    return fetch_copy(w, e, i, tmp, dword, skip);
}

// Whether the plain VALU forms (sem_vector.cpp) take their AVX2 loops where
// the host has AVX2 (the default) or the SSE2 ones: for tests, which set it
// only while no launch runs.
void use_plain_avx2(bool avx2);

// Lanes a VALU instruction writes: EXEC, narrowed by DPP masks.
inline std::uint64_t write_lanes(const Wave& w, const ExecInst& e) {
    const std::uint64_t exec = w.exec();
    if (!e.dpp) return exec;
    return e.dpp->write_mask(exec, e.dpp->valid_sources(exec));
}

// dst[l] = value[l] for lanes in mask (dst and value do not overlap).
inline void commit(std::uint32_t* __restrict dst, const std::uint32_t* __restrict value, std::uint64_t mask) {
    if (mask == ~0ull) {
        std::memcpy(dst, value, 64 * sizeof(std::uint32_t));  // fixed size: inlined, never a library call
    } else {
        for (unsigned l = 0; l < 64; ++l) dst[l] = ((mask >> l) & 1) ? value[l] : dst[l];
    }
}

// 64-bit lane values of source i (f64 sources flushed per ST_FLUSH64) and the
// 64-bit result (flushed per flush_out): sem_vector.cpp.
void fetch_wide(Wave& w, const ExecInst& e, unsigned i, std::uint64_t* out);
void commit_wide(Wave& w, const ExecInst& e, const std::uint64_t* value);

// Output modifiers of fp32 results: omod, clamp, flush.
void apply_output_modifiers(const ExecInst& e, std::uint32_t* value);
inline void commit_vdst(Wave& w, const ExecInst& e, std::uint32_t* value, unsigned dword = 0) {
    if (e.output_modifiers) apply_output_modifiers(e, value);
    if (e.sdwa_dst) sdwa_place(vreg(w, e.dst, dword), value, *e.inst);
    commit(vreg(w, e.dst, dword), value, write_lanes(w, e));
}

// ---- atomics (sem_memory.cpp; the DS and SMEM atomics share the arithmetic) --

// Applies op (OpInfo::atomic) to the word at host atomically and returns the
// old value; cmpswap writes data where the word equals compare.
std::uint32_t atomic_apply32(std::uint8_t* host, AtomicKind op, std::uint32_t data, std::uint32_t compare);
std::uint64_t atomic_apply64(std::uint8_t* host, AtomicKind op, std::uint64_t data, std::uint64_t compare);

// ---- errors -----------------------------------------------------------------

[[noreturn]] void fail(FaultKind kind, const std::string& what);
[[noreturn]] void fault_at(FaultKind kind, const std::string& what, std::uint64_t address);
[[noreturn]] void not_implemented(Wave& w, const ExecInst& e);
// A register operand outside the kernel's allocation or misaligned
// (register_operand_error, program.hpp): FaultKind::invalid_operand.
[[noreturn]] void register_out_of_allocation(Wave& w, const ExecInst& e);
// An instruction with nothing to do here (s_nop, cache control, hints).
inline void no_effect(Wave&, const ExecInst&) {}

// ---- counter queue (memory results land at s_waitcnt) ---------------------

// Issues a counter entry; makes room first when the counter is at its limit.
InFlightMemoryOp& issue(Wave& w, const ExecInst& e, const InFlightMemoryOp& entry);
// Issues an SMEM-counter (lgkmcnt) entry whose `dwords` dwords land in the
// SGPRs from e.dst; returns where to put them.
inline std::uint32_t* issue_sgpr_result(Wave& w, const ExecInst& e, unsigned dwords) {
    InFlightMemoryOp entry;
    entry.counter = WaitCounter::lgkm_smem;
    entry.dest = InFlightMemoryOp::Dest::sgpr;
    entry.dwords = static_cast<std::uint8_t>(dwords);
    entry.reg = e.dst.index;
    return w.pending.data(issue(w, e, entry));
}
// Retires entries until at most vm / lgkm remain outstanding.
void wait(Wave& w, unsigned vm, unsigned lgkm);
// Applies one entry's data to the registers.
void land(Wave& w, const InFlightMemoryOp& p);

// ---- LDS-fed multiply-add blocks (sem_lds.cpp) -----------------------------

// The function of a ds_read heading such a block (ExecInst::lds_block): in
// an unobserved wave run by stretches, the block's LDS reads, s_waitcnts and
// multiply-add runs in one call while each read takes the repeated whole
// access's path; elsewhere (and for the rest of the block from a read that
// does not) the instructions one by one.
void lds_multiply_add_block(Wave& w, const ExecInst& head);

// The multiply-adds of such a block's first `runs` runs after its reads
// (sem_vector.cpp; LdsBlockPlan, program.hpp), the multiplicands in the
// plan's VGPRs and `rows`: the same results as the runs one by one. Only
// while block_multiply_adds_available(): a host with AVX2, FMA and the
// denormals-are-zero mode (blocks with a plan otherwise run as those
// without).
bool block_multiply_adds_available();
void block_multiply_adds(Wave& w, const ExecInst& first_run, const LdsBlockPlan& plan, const std::uint32_t (*rows)[64],
                         unsigned runs);
// The same in two parts: the multiplicands' lanes (per run, a_0, a_1, b_0,
// b_1 for an outer product, else each step's src0 and src1: at most
// LdsBlockPlan::max_runs x 8), which a caller may keep while the wave's
// VGPRs and `rows` stay where they are, and the runs from them.
void block_multiplicands(const Wave& w, const LdsBlockPlan& plan, const std::uint32_t (*rows)[64], unsigned runs,
                         const std::uint32_t** out);
void block_multiply_adds(Wave& w, const ExecInst& first_run, const LdsBlockPlan& plan,
                         const std::uint32_t* const* multiplicands, unsigned runs);
// The instruction set they use: the best the host has (the default), or a
// lesser one for tests; none: planned blocks run as the others.
enum class BlockMultiplyAddIsa : std::uint8_t { none, avx2, avx512 };
void use_block_multiply_add_isa(BlockMultiplyAddIsa isa);

}  // namespace dppgemm::emu::sem
