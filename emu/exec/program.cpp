#include "emu/exec/program.hpp"

#include <algorithm>
#include <array>
#include <bitset>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "emu/exec/apertures.hpp"
#include "emu/exec/mfma.hpp"
#include "emu/exec/operand_types.hpp"
#include "emu/exec/semantics.hpp"

namespace dppgemm::emu {
namespace {

const sem::Table& semantics() {
    static const sem::Table table = [] {
        sem::Table t{};
        sem::register_scalar(t);
        sem::register_vector(t);
        sem::register_memory(t);
        sem::register_lds(t);
        sem::register_half(t);
        sem::register_divide(t);
        sem::register_hwreg(t);
        sem::register_media(t);
        sem::register_f64(t);
        sem::register_mfma(t);
        sem::register_smem(t);
        sem::register_gws(t);
        return t;
    }();
    return table;
}

// Inline float constants of 64-bit operands are doubles for f64 and 64-bit
// integer ops alike (LLVM's isInlinableLiteral64: s_mov_b64 s[0:1], 0.5 is
// 0x3fe0000000000000, which -O0 hipcc code uses to build f64 constants); a
// 32-bit literal is the high half only for f64 operands. Scalar ops have no
// operand-type row: their 64-bit operands are all integers or masks.
bool int64_operand(const OperandTypes& types, OperandType type) {
    return !types.declared() || type == OperandType::b64;
}

// A resolved operand; its constant as 64 bits (Src::value and Program::constant_high hold it).
struct Resolved {
    Src src;
    std::uint64_t value = 0;
};

Resolved resolve_operand(const Operand& op, bool f64_operand, bool int64_operand) {
    Resolved r;
    Src& s = r.src;
    std::uint64_t& value = r.value;
    s.dwords = op.dwords ? op.dwords : 1;
    s.index = op.index;
    switch (op.kind) {
    case OperandKind::none:
    case OperandKind::off: s.kind = Src::Kind::none; break;
    case OperandKind::sgpr:
        s.kind = Src::Kind::sreg;
        s.index = op.code;
        break;
    case OperandKind::vgpr: s.kind = Src::Kind::vgpr; break;
    case OperandKind::agpr: s.kind = Src::Kind::agpr; break;
    case OperandKind::inline_int:
        s.kind = Src::Kind::imm;
        value = static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<std::int32_t>(op.value)));
        break;
    case OperandKind::inline_float:
        s.kind = Src::Kind::imm;
        value = op.value;
        if (s.dwords == 2 && (f64_operand || int64_operand)) {
            const double d = fp::as_float(op.value);
            std::memcpy(&value, &d, 8);
        }
        break;
    case OperandKind::literal:
        s.kind = Src::Kind::imm;
        // 64-bit operands: an f64 literal is the high half, an integer
        // literal is zero-extended.
        value = (s.dwords == 2 && f64_operand) ? std::uint64_t(op.value) << 32 : op.value;
        break;
    case OperandKind::special:
        if (op.code < 128) {
            s.kind = Src::Kind::sreg;
            s.index = op.code;
        } else if (op.code == 251) {
            s.kind = Src::Kind::vccz;
        } else if (op.code == 252) {
            s.kind = Src::Kind::execz;
        } else if (op.code == 253) {
            s.kind = Src::Kind::scc;
        } else {
            // Aperture registers: the high half of the aperture base; a
            // 64-bit read gives the whole base.
            s.kind = Src::Kind::imm;
            std::uint64_t base = 0;
            if (op.code == 235 || op.code == 236) base = shared_aperture_base;
            if (op.code == 237 || op.code == 238) base = private_aperture_base;
            if (op.code == 236 || op.code == 238) base += aperture_size - 1;
            value = s.dwords == 2 ? base : base >> 32;
        }
        break;
    }
    return r;
}

// A 64-bit constant's high half goes to Program::constant_high (Src::index
// names it): the 8-byte Src keeps the low half.
Src resolve(Program& p, const Operand& op, bool f64_operand, bool int64_operand = false) {
    const Resolved r = resolve_operand(op, f64_operand, int64_operand);
    Src s = r.src;
    if (s.kind != Src::Kind::imm) return s;
    s.value = static_cast<std::uint32_t>(r.value);
    s.index = 0;
    if (s.dwords > 1) {
        const auto high = static_cast<std::uint32_t>(r.value >> 32);
        const auto known = std::find(p.constant_high.begin(), p.constant_high.end(), high);
        if (known == p.constant_high.end() && p.constant_high.size() > 0xffff)
            throw std::length_error("program has more than 65536 distinct 64-bit constants");
        s.index = static_cast<std::uint16_t>(known - p.constant_high.begin());
        if (known == p.constant_high.end()) p.constant_high.push_back(high);
    }
    return s;
}

std::string range_text(const Src& s) {
    const char file = s.kind == Src::Kind::agpr ? 'a' : 'v';
    if (s.dwords == 1) return file + std::to_string(s.index);
    return file + std::string("[") + std::to_string(s.index) + ":" + std::to_string(s.index + s.dwords - 1) + "]";
}

void track_registers(Program& p, const Src& s) {
    if (s.kind == Src::Kind::vgpr) p.vgprs_used = std::max<unsigned>(p.vgprs_used, s.index + s.dwords);
    if (s.kind == Src::Kind::agpr) p.agprs_used = std::max<unsigned>(p.agprs_used, s.index + s.dwords);
}

bool flushes_src(FloatDenormMode m) { return m == FloatDenormMode::flush_src_dst || m == FloatDenormMode::flush_src; }
bool flushes_dst(FloatDenormMode m) { return m == FloatDenormMode::flush_src_dst || m == FloatDenormMode::flush_dst; }

bool is_f32(OperandType t) { return t == OperandType::f32 || t == OperandType::pk_f32; }

// The denormal flushes of one instruction (ExecInst::flush_in/out,
// ST_FLUSH, ST_FLUSH64): its f32 operands under the fp32 mode `denorm32`,
// its f64 operands under the fp16/fp64 mode `denorm64` (MODE.FP_DENORM
// [5:4] single, [7:6] double and half precision), as the op table's type columns
// declare them: an integer source or result of a float op is never a
// denormal. (f16 operands: sem_half.cpp reads the mode itself.)
void set_denorm_flushes(ExecInst& e, const sem::Semantic& s, FloatDenormMode denorm32, FloatDenormMode denorm64) {
    const OperandTypes& types = operand_types(e.inst->op);
    const bool always = s.fp == sem::FloatPolicy::no_denormals, by_mode = s.fp == sem::FloatPolicy::mode;
    const bool in = always || (by_mode && flushes_src(denorm32)), out = always || (by_mode && flushes_dst(denorm32));
    const bool in64 = by_mode && flushes_src(denorm64), out64 = by_mode && flushes_dst(denorm64);
    std::uint8_t flush[3] = {0, 0, 0};
    bool any_source = false, all_f32 = true;
    for (int k = 0; k < 3; ++k) {
        // v_mac/v_fmac: the accumulator (src2) is the destination register.
        const OperandType t = (k == 2 && s.src2_is_dst) ? types.dst : types.src[k];
        if (in && is_f32(t)) flush[k] = ST_FLUSH;
        if (in64 && t == OperandType::f64) flush[k] = ST_FLUSH64;
        if (t != OperandType::none && t != OperandType::undeclared) any_source = true, all_f32 = all_f32 && is_f32(t);
    }
    e.flush_in = in && any_source && all_f32;  // every source: the lane loops flush them themselves
    e.flush_out = (out && is_f32(types.dst)) || (out64 && types.dst == OperandType::f64);
    if (e.inst->info().family == Family::VOP3P) return;
    for (int k = 0; k < 3; ++k) e.transform[k] = std::uint8_t((e.transform[k] & ~(ST_FLUSH | ST_FLUSH64)) | flush[k]);
}

// ExecInst::plain (PlainForm bits), from the facts set before it.
std::uint8_t plain_form(const ExecInst& e) {
    std::uint8_t plain = e.dpp ? 0 : PLAIN_NO_DPP;
    for (unsigned k = 0; k < 3; ++k) {
        const Src& s = e.src[k];
        if (e.transform[k] != 0 || s.dwords != 1 || s.kind == Src::Kind::none || s.kind == Src::Kind::agpr) continue;
        plain |= std::uint8_t(PLAIN_SRC0 << k);
        if (s.kind == Src::Kind::vgpr) plain |= std::uint8_t(PLAIN_SRC0_VGPR << k);
    }
    if (e.dst.kind == Src::Kind::vgpr && !e.output_modifiers && !e.sdwa_dst && !e.flush_in && !e.flush_out)
        plain |= PLAIN_RESULT;
    return plain;
}

// s_setreg of HW_REG_MODE anywhere in the kernel: it may change the fp32 denorm mode.
bool sets_mode(const Program& p) {
    return std::any_of(p.insts.begin(), p.insts.end(), [](const Inst& inst) {
        return (inst.op == Op::s_setreg_b32 || inst.op == Op::s_setreg_imm32_b32) && (inst.simm16 & 0x3f) == hwreg_mode;
    });
}

// Program::code_by_fp32_denorm: the code again for each other fp32 denorm
// mode (the flush flags are all that differ; multiply-add runs stay the same
// since a run's instructions share one function, so one policy).
void build_fp32_denorm_variants(Program& p, const sem::Table& table) {
    if (!sets_mode(p)) return;
    for (unsigned m = 0; m < p.code_by_fp32_denorm.size(); ++m) {
        const auto denorm = static_cast<FloatDenormMode>(m);
        if (denorm == p.descriptor.float_mode.denorm_32) continue;
        std::vector<ExecInst>& code = p.code_by_fp32_denorm[m];
        code = p.code;
        for (std::size_t i = 0; i < p.insts.size(); ++i) {
            set_denorm_flushes(code[i], table[static_cast<std::size_t>(p.insts[i].op)], denorm,
                               p.descriptor.float_mode.denorm_16_64);
            code[i].plain = plain_form(code[i]);
        }
    }
}

// ExecInst::multiply_add_run(_dpp, _in_place), from the end backwards, and the steps.
void count_multiply_add_runs(Program& p) {
    p.multiply_add_steps.assign(p.code.size(), MultiplyAddStep{});
    for (std::size_t i = p.insts.size(); i-- > 0;) {
        ExecInst& e = p.code[i];
        const ExecInst& next = p.code[i + 1];
        const bool continues = e.multiply_add && next.multiply_add && next.fn == e.fn && next.flush_in == e.flush_in &&
                               next.flush_out == e.flush_out && next.multiply_add_run < 0xffff;
        const std::uint16_t dpp = e.valu_dpp;
        e.multiply_add_run = continues ? static_cast<std::uint16_t>(next.multiply_add_run + 1) : 1;
        e.multiply_add_run_dpp = static_cast<std::uint16_t>(dpp + (continues ? next.multiply_add_run_dpp : 0));
        MultiplyAddStep& step = p.multiply_add_steps[i];
        step.kind = e.direct_vgprs    ? MultiplyAddStep::Kind::direct
                    : e.row_dpp_vgprs ? MultiplyAddStep::Kind::row_dpp
                                      : MultiplyAddStep::Kind::general;
        if (step.kind != MultiplyAddStep::Kind::general) {
            step.dst = static_cast<std::uint8_t>(e.dst.index);
            const bool packed = e.inst->info().family == Family::VOP3P;  // direct_vgprs: op_sel within v0..v255
            for (int k = 0; k < 3; ++k) {
                const unsigned lo = packed ? (e.inst->mods.op_sel >> k) & 1 : 0;
                const unsigned hi = packed ? (e.inst->mods.op_sel_hi >> k) & 1 : 0;
                step.src[k] = static_cast<std::uint8_t>(e.src[k].index + lo);
                step.src_hi[k] = static_cast<std::uint8_t>(e.src[k].index + hi);
            }
            step.dpp = e.dpp;
        }
        const std::uint16_t in_place = step.kind != MultiplyAddStep::Kind::general ? 1 : 0;
        e.multiply_add_run_in_place =
            static_cast<std::uint16_t>(in_place + (continues ? next.multiply_add_run_in_place : 0));
        e.multiply_add_steps = &p.multiply_add_steps[i];
    }
}

// ---- The LDS analyses (sem_lds.cpp's fast paths) ----------------------

// Registers of the vector file as Wave::v holds them: VGPR r at r, AGPR r
// at agpr_base + r.
struct VectorRange {
    unsigned first = 0, count = 0;
    bool overlaps(const VectorRange& o) const {
        return count && o.count && first < o.first + o.count && o.first < first + count;
    }
};

VectorRange vector_range(const Program& p, const Src& s, unsigned at_least = 0) {
    const unsigned count = std::max<unsigned>(s.dwords ? s.dwords : 1, at_least);
    if (s.kind == Src::Kind::vgpr) return {s.index, count};
    if (s.kind == Src::Kind::agpr) return {agpr_base(p) + s.index, count};
    return {};
}

bool is_memory(Family f) {
    return f == Family::DS || f == Family::MUBUF || f == Family::MIMG || f == Family::GLOBAL || f == Family::FLAT ||
           f == Family::SCRATCH;
}

// The registers a memory instruction's result may land in (an s_waitcnt
// writes them, after the instruction), none for a store: its destination, as many dwords as
// the widest of the counts the memory semantics land (the operand's, the
// access width's, a typed access's components). An image access's come
// from its dmask: `all` then.
struct Landing {
    bool all = false;
    VectorRange range;
};
Landing landing_of(const Program& p, const ExecInst& e) {
    if (!e.inst || !is_memory(e.inst->info().family)) return {};
    const OpInfo& info = e.inst->info();
    if (info.family == Family::MIMG) return {true, {}};
    // A store's data register (a MUBUF store's dst) is read at issue; nothing lands.
    if (info.has(OF_STORE) && !info.has(OF_LOAD) && !info.has(OF_ATOMIC)) return {};
    const unsigned elements = info.has(OF_PAIR) ? 2 : 1;
    const unsigned dwords = std::max<unsigned>((info.access_bytes + 3) / 4 * elements, info.components);
    return {false, vector_range(p, e.dst, dwords)};
}

// The counter an instruction's entry occupies, from the class its
// function is registered under (each function of these classes issues
// exactly one entry); none for the rest.
enum class Counter : std::uint8_t { none, vm, lds };
Counter counter_of(InstClass cls) {
    switch (cls) {
    case InstClass::vmem_load:
    case InstClass::vmem_store:
    case InstClass::vmem_atomic: return Counter::vm;
    case InstClass::lds_read:
    case InstClass::lds_write: return Counter::lds;
    default: return Counter::none;
    }
}

// Whether a scalar operand is an SGPR (s0..s101) or a constant: what an
// SCC fact (LdsAnalysis::entry_fact) may compare.
bool plain_scalar(const Src& s) {
    return s.kind == Src::Kind::imm || (s.kind == Src::Kind::sreg && s.index + s.dwords <= 102);
}
bool same_operand(const Src& a, const Src& b) {
    return a.kind == b.kind && a.dwords == b.dwords && a.index == b.index && a.value == b.value;
}
bool sgprs_overlap(const Src& a, const Src& b) {
    return a.kind == Src::Kind::sreg && b.kind == Src::Kind::sreg && a.index < b.index + b.dwords &&
           b.index < a.index + a.dwords;
}

// An SOPC instruction whose only effect is SCC, a function of its two
// operands: every SOPC of gfx9 (s_cmp_*, s_bitcmp*) but s_setvskip, which
// sets the VSKIP mode, and s_set_gpr_idx_on, which writes M0 and enables
// GPR indexing (the Vega and CDNA ISA guides, "SOPC Instructions").
bool pure_scalar_compare(const Inst& inst) {
    return inst.info().family == Family::SOPC && inst.op != Op::s_setvskip && inst.op != Op::s_set_gpr_idx_on;
}

// What the path into an instruction tells of SCC, for the window search:
// `compare` (a pure_scalar_compare of SGPRs and constants) evaluates to `value` while
// none of its SGPRs is written, and SCC is 0, 1 or unknown (-1).
struct SccFact {
    const ExecInst* compare = nullptr;
    bool value = false;
    int scc = -1;
    // The search's visit state: 0..5.
    unsigned state() const { return (compare ? 3u : 0u) + unsigned(scc + 1); }
};

// What the LDS analyses share: every instruction's landing, the loads
// (instructions with one), and the scratch of the window search.
struct LdsAnalysis {
    static constexpr unsigned fact_states = 6;  // SccFact::state
    const Program& p;
    std::vector<Landing> landing;
    std::vector<std::uint32_t> loads;
    std::vector<std::uint8_t> fewest_since;  // the window search's visits by SccFact state; unvisited: 0xff
    std::vector<std::uint8_t> listed;
    std::vector<std::uint32_t> visited;
    std::vector<std::uint8_t> targeted;  // a branch's target
    bool indirect_branches = false;      // s_setpc and the like: any instruction may be a target
    std::vector<Src> scalar_loads;       // the SGPRs SMEM instructions may land in

    explicit LdsAnalysis(const Program& program)
        : p(program),
          landing(program.code.size()),
          fewest_since(program.code.size() * fact_states, 0xff),
          listed(program.code.size(), 0),
          targeted(program.code.size(), 0) {
        for (std::uint32_t i = 0; i < p.code.size(); ++i) {
            landing[i] = landing_of(p, p.code[i]);
            if (landing[i].all || landing[i].range.count) loads.push_back(i);
            const ExecInst& e = p.code[i];
            if (!e.inst) continue;
            const OpInfo& info = e.inst->info();
            if (info.has(OF_BRANCH) && info.family != Family::SOPP) indirect_branches = true;
            if (info.has(OF_BRANCH) && e.target < p.code.size()) targeted[e.target] = 1;
            if (info.family == Family::SMEM) scalar_loads.push_back(e.dst);
        }
    }

    // The fact a window search from instruction `issuer` starts with. When
    // the issuer is reached only through straight-line code (no branch
    // target, no indirect branch anywhere) from the fall-through of an
    // s_cbranch_scc0/1 right after a pure_scalar_compare of SGPRs and constants (no
    // SMEM load anywhere into those SGPRs, which could land in them later),
    // that compare's result is known, as far as the code between keeps it
    // (after). The SGEMM kernels' loop skips its loads on the last trip
    // (s_cmp_eq_u32 s40, 0; s_cbranch_scc1) and leaves the loop after the
    // trip's multiply-adds on the same compare: without the fact, a path
    // from the loads past the loop's s_waitcnt vmcnt(0) into the epilogue
    // (which reuses their registers) kept every load from landing at issue
    // (dpp0_32).
    SccFact entry_fact(std::uint32_t issuer) const {
        if (indirect_branches) return {};
        std::uint32_t k = issuer;  // the first instruction after the branch
        for (unsigned steps = 0;; ++steps) {
            if (steps == 64 || k < 2 || k == p.entry || targeted[k]) return {};
            const ExecInst& prev = p.code[k - 1];
            if (!prev.inst || prev.next != k) return {};
            const Op op = prev.inst->op;
            if (op == Op::s_cbranch_scc0 || op == Op::s_cbranch_scc1) break;
            if (op == Op::s_branch || (prev.inst->info().has(OF_BRANCH) && prev.inst->info().family != Family::SOPP))
                return {};
            --k;
        }
        const ExecInst& b = p.code[k - 1];
        const ExecInst& c = p.code[k - 2];
        if (targeted[k - 1] || k - 1 == p.entry || !c.inst || c.next != k - 1) return {};
        if (!pure_scalar_compare(*c.inst)) return {};
        if (!plain_scalar(c.src[0]) || !plain_scalar(c.src[1])) return {};
        for (const Src& loaded : scalar_loads)
            if (sgprs_overlap(loaded, c.src[0]) || sgprs_overlap(loaded, c.src[1])) return {};
        const bool value = b.inst->op == Op::s_cbranch_scc0;  // fell through: SCC was the other value
        SccFact f{&c, value, value ? 1 : 0};
        for (std::uint32_t j = k; j < issuer; ++j) f = after(p.code[j], f);
        return f;
    }

    // The fact after instruction e runs.
    static SccFact after(const ExecInst& e, SccFact f) {
        const OpInfo& info = e.inst->info();
        const bool same_compare = f.compare && e.inst->op == f.compare->inst->op &&
                                  same_operand(e.src[0], f.compare->src[0]) &&
                                  same_operand(e.src[1], f.compare->src[1]);
        // SCC writers, conservatively: every SALU op, and SOPP ops but branches, waits, barriers and nops.
        const bool salu = info.family == Family::SOP1 || info.family == Family::SOP2 || info.family == Family::SOPC ||
                          info.family == Family::SOPK;
        const bool sopp_keeps = info.has(OF_BRANCH) || e.cls == InstClass::waitcnt || e.inst->op == Op::s_barrier ||
                                e.inst->op == Op::s_nop;
        if (same_compare) f.scc = f.value ? 1 : 0;
        else if (salu || (info.family == Family::SOPP && !sopp_keeps)) f.scc = -1;
        if (f.compare) {
            const bool writes = info.has(OF_M0_RELATIVE) || info.family == Family::SMEM ||
                                sgprs_overlap(e.dst, f.compare->src[0]) || sgprs_overlap(e.dst, f.compare->src[1]) ||
                                sgprs_overlap(e.sdst, f.compare->src[0]) || sgprs_overlap(e.sdst, f.compare->src[1]);
            if (writes) f.compare = nullptr;
        }
        return f;
    }

    // Whether executing instruction k may read or write any register of
    // `r`, or issue a load that lands in one: its operands and its landing.
    // A dense MFMA's operands are register tuples as wide as its shape gives
    // (A, B, C and D: MfmaShape). Image accesses, other matrix-core ops and
    // M0-indexed moves reach registers their operands do not name: always.
    bool may_touch(std::uint32_t k, const VectorRange& r) const {
        const ExecInst& e = p.code[k];
        if (!e.inst) return false;  // the end of the code: the run stops there
        const OpInfo& info = e.inst->info();
        if (e.cls == InstClass::mfma) {
            const MfmaShape& s = mfma_shape(e.inst->op);
            if (!s.valid()) return true;
            return vector_range(p, e.src[0], s.a_dwords()).overlaps(r) ||
                   vector_range(p, e.src[1], s.b_dwords()).overlaps(r) ||
                   vector_range(p, e.src[2], s.cd_dwords()).overlaps(r) ||
                   vector_range(p, e.dst, s.cd_dwords()).overlaps(r);
        }
        if (info.family == Family::MIMG || info.has(OF_M0_RELATIVE)) return true;
        for (const Src* s : {&e.dst, &e.sdst, &e.src[0], &e.src[1], &e.src[2], &e.soffset})
            if (vector_range(p, *s).overlaps(r)) return true;
        return landing[k].all || landing[k].range.overlaps(r);
    }

    // The instructions that may run while the entry of memory instruction
    // `issuer` is in flight: every path from the one after it up to an
    // s_waitcnt that certainly retires the entry (its counter's entries
    // retire in issue order, so one whose field is at most the number of
    // entries issued on that counter since), an s_endpgm, or the end of the
    // code. A wait that retires lgkmcnt counts LDS entries only, which
    // leave before SMEM ones (counter_queue.cpp): SMEM entries only make it
    // retire more. A retirement earlier than the one found (the counter's
    // limit) only shortens the real window. An s_cbranch_scc0/1 whose SCC
    // the path decides (entry_fact, after) goes one way only. A visit with
    // more entries issued since than an earlier visit of the same
    // instruction with the same SCC fact finds nothing new (its waits
    // retire no later). False when the window cannot
    // be bounded: an indirect branch, another counter, or too long a search.
    bool in_flight_window(std::uint32_t issuer, std::vector<std::uint32_t>& window) {
        const Counter counter = counter_of(p.code[issuer].cls);
        window.clear();
        if (counter == Counter::none) return false;
        // Entries issued since, capped where every field is certainly met.
        const unsigned cap = counter == Counter::vm ? 64 : 16;
        struct Visit {
            std::uint32_t at;
            unsigned since;
            SccFact fact;
        };
        const SccFact start = entry_fact(issuer);
        // The issuer itself runs first: the fact after it (a load writes no SGPR and keeps SCC).
        std::vector<Visit> stack{{issuer + 1, 0, after(p.code[issuer], start)}};
        unsigned budget = 8192;
        bool bounded = true;
        while (bounded && !stack.empty()) {
            const auto [at, since, fact] = stack.back();
            stack.pop_back();
            if (at >= p.code.size()) continue;
            std::uint8_t& fewest = fewest_since[std::size_t(at) * fact_states + fact.state()];
            if (fewest <= since) continue;
            if (fewest == 0xff) visited.push_back(at);
            fewest = static_cast<std::uint8_t>(since);
            if (budget-- == 0) bounded = false;
            const ExecInst& e = p.code[at];
            if (!e.inst) continue;  // the end of the code: the run stops there
            const OpInfo& info = e.inst->info();
            if (e.cls == InstClass::waitcnt && e.inst->op == Op::s_waitcnt) {
                const unsigned field = counter == Counter::vm ? e.inst->waitcnt.vmcnt : e.inst->waitcnt.lgkmcnt;
                if (since >= field) continue;
            }
            if (!listed[at]) window.push_back(at), listed[at] = 1;
            if (info.has(OF_ENDPGM)) continue;
            const unsigned next_since = std::min(cap, since + (counter_of(e.cls) == counter ? 1u : 0u));
            const SccFact next_fact = after(e, fact);
            bool falls_through = true, jumps = false;
            if (info.has(OF_BRANCH)) {
                if (info.family != Family::SOPP) bounded = false;  // s_setpc/s_swappc: the target is data
                jumps = e.target != Program::no_target;            // else it faults
                falls_through = e.inst->op != Op::s_branch;
                // A conditional SCC branch whose SCC the path decides takes one way.
                const bool on_scc1 = e.inst->op == Op::s_cbranch_scc1;
                if ((on_scc1 || e.inst->op == Op::s_cbranch_scc0) && fact.scc >= 0) {
                    const bool taken = (fact.scc == 1) == on_scc1;
                    jumps = jumps && taken;
                    falls_through = !taken;
                }
            }
            if (jumps) stack.push_back({e.target, next_since, next_fact});
            if (falls_through) stack.push_back({e.next, next_since, next_fact});
        }
        for (const std::uint32_t at : visited) {
            for (unsigned k = 0; k < fact_states; ++k) fewest_since[std::size_t(at) * fact_states + k] = 0xff;
            listed[at] = 0;
        }
        visited.clear();
        return bounded;
    }
};

// ExecInst::lds_lands_at_issue and vmem_lands_at_issue. A ds_read's or a
// vector memory load's data is read at issue either way; landing it then
// instead of at the retiring wait changes nothing any instruction or
// landing can see when (1) no instruction that may run while the load is in
// flight touches its destination (reads it, writes it, issues a load into
// it), nor its own address or data operands overlap the destination, and
// (2) no other load that may land in those registers can be in flight when
// it issues (that one would land on top, later). Whole-dword loads only (a
// d16 load keeps half the register). With an observer attached the
// semantics keep the entry's data (an observer may read any register), but
// for LDS reads under an observer that reads only operands
// (WorkgroupObserver::reads_only_operands).
template <class Loads, class Mark>
void loads_landing_at_issue(Program& p, LdsAnalysis& analysis, Loads candidate, Mark mark) {
    std::vector<std::vector<std::uint32_t>> windows(p.code.size());
    std::vector<std::uint8_t> bounded(p.code.size(), 0), computed(p.code.size(), 0);
    auto window_of = [&](std::uint32_t j) -> const std::vector<std::uint32_t>* {
        if (!computed[j]) {
            computed[j] = 1;
            bounded[j] = analysis.in_flight_window(j, windows[j]);
        }
        return bounded[j] ? &windows[j] : nullptr;
    };
    for (std::uint32_t i = 0; i < p.insts.size(); ++i) {
        ExecInst& e = p.code[i];
        const OpInfo& info = e.inst->info();
        if (!candidate(e) || info.access_bytes < 4 || info.has(OF_D16) || !e.dst.is_vector()) continue;
        const VectorRange dest = analysis.landing[i].range;
        bool safe = !vector_range(p, e.src[0]).overlaps(dest) && !vector_range(p, e.src[1]).overlaps(dest) &&
                    !vector_range(p, e.src[2]).overlaps(dest);
        const std::vector<std::uint32_t>* own = safe ? window_of(i) : nullptr;
        safe =
            own && std::none_of(own->begin(), own->end(), [&](std::uint32_t k) { return analysis.may_touch(k, dest); });
        for (const std::uint32_t j : analysis.loads) {
            if (!safe) break;
            const Landing& landing = analysis.landing[j];
            if (j == i || (!landing.all && !landing.range.overlaps(dest))) continue;
            const std::vector<std::uint32_t>* other = window_of(j);
            safe = other && std::find(other->begin(), other->end(), i) == other->end();
        }
        mark(e, safe);
    }
}

// ExecInst::buffer_dword_offen: the form alone; sem_memory.cpp looks at
// the V#, EXEC and the offsets each time.
void buffer_load_forms(Program& p, ExecFn vmem_load) {
    for (ExecInst& e : p.code) {
        if (!e.inst || e.fn != vmem_load) continue;
        const Inst& inst = *e.inst;
        e.buffer_dword_offen = inst.op == Op::buffer_load_dword && inst.offen && !inst.idxen &&
                               e.src[0].kind == Src::Kind::vgpr && e.dst.kind == Src::Kind::vgpr;
    }
}

// ExecInst::lds_offset and lds_whole_dwords of each ds_read/ds_write.
void lds_access_facts(Program& p, ExecFn ds_read, ExecFn ds_write) {
    for (ExecInst& e : p.code) {
        if (!e.inst || (e.fn != ds_read && e.fn != ds_write)) continue;
        const OpInfo& info = e.inst->info();
        e.lds_offset = static_cast<std::uint16_t>(e.inst->offset & 0xffff);
        const bool whole = !info.has(OF_PAIR) && info.access_bytes >= 4 && e.src[0].kind == Src::Kind::vgpr;
        e.lds_whole_dwords = whole ? static_cast<std::uint8_t>(info.access_bytes / 4) : 0;
    }
}

// ExecInst::lds_address_verifier: for each ds_read/ds_write, the nearest
// ds_read/ds_write before it that addresses through the same VGPR, when
// only straight-line code lies between them (no branch target after the
// first, nothing that stops the wave or hands its thread to another wave)
// and nothing between writes that VGPR, while no load anywhere in the
// program may land in it. Then the VGPR holds the same values at both:
// the second's lanes have the relative pattern the first found.
// The vector registers some load of the program may land in.
std::vector<std::uint8_t> registers_loads_land_in(const LdsAnalysis& analysis) {
    std::vector<std::uint8_t> landed_in(vector_file_size, 0);
    for (const std::uint32_t j : analysis.loads) {
        const Landing& landing = analysis.landing[j];
        const unsigned first = landing.all ? 0 : landing.range.first;
        const unsigned end = landing.all ? vector_file_size : landing.range.first + landing.range.count;
        for (unsigned r = first; r < end && r < vector_file_size; ++r) landed_in[r] = 1;
    }
    return landed_in;
}

void lds_address_verifiers(Program& p, const LdsAnalysis& analysis, ExecFn ds_read, ExecFn ds_write,
                           const std::vector<std::uint8_t>& landed_in) {
    const auto is_access = [&](const ExecInst& e) {
        return (e.fn == ds_read || e.fn == ds_write) && e.src[0].kind == Src::Kind::vgpr;
    };
    std::vector<std::uint8_t> entered(p.code.size(), 0);  // reached other than from the instruction before
    entered[p.entry] = 1;
    for (const ExecInst& e : p.code)
        if (e.target != Program::no_target && e.target < p.code.size()) entered[e.target] = 1;
    for (std::uint32_t i = 0; i < p.insts.size(); ++i) {
        ExecInst& e = p.code[i];
        if (!is_access(e)) continue;
        const VectorRange address = vector_range(p, e.src[0]);
        if (address.first >= vector_file_size || landed_in[address.first]) continue;
        for (std::uint32_t k = i; k-- > 0;) {
            if (entered[k + 1]) break;
            const ExecInst& before = p.code[k];
            const InstClass cls = before.cls;
            const bool straight = (cls == InstClass::salu || cls == InstClass::valu || cls == InstClass::smem ||
                                   cls == InstClass::waitcnt || cls == InstClass::nop || cls == InstClass::lds_read ||
                                   cls == InstClass::lds_write) &&
                                  !before.inst->info().has(OF_BRANCH);
            if (!straight) break;
            if (is_access(before) && before.src[0].index == e.src[0].index) {
                const bool only_addresses = !vector_range(p, before.dst).overlaps(address) &&
                                            !vector_range(p, before.src[1]).overlaps(address) &&
                                            !vector_range(p, before.src[2]).overlaps(address);
                if (only_addresses) e.lds_address_verifier = k + 1;
                break;
            }
            if (analysis.may_touch(k, address)) break;
        }
    }
}

// Whether `e` adds the same value to every lane of VGPR `a` and writes the
// sum back to `a`: v_add_u32 a, s|k, a (either order) or v_subrev_u32 a,
// s|k, a (a - s), the other operand an SGPR or a constant, without DPP,
// SDWA, abs/neg, clamp or omod. With every lane active (EXEC is not written
// between: the caller) the lanes' addresses relative to lane 0's stay as
// they were, mod 2^32.
bool uniform_add_to(const ExecInst& e, std::uint16_t a) {
    if (!e.inst || e.dst.kind != Src::Kind::vgpr || e.dst.index != a || e.dst.dwords != 1) return false;
    const Op op = e.inst->op;
    if (op != Op::v_add_u32 && op != Op::v_subrev_u32) return false;
    if (e.dpp || e.transform[0] || e.transform[1] || e.output_modifiers || e.sdwa_dst) return false;
    const auto uniform = [](const Src& s) {
        return (s.kind == Src::Kind::sreg || s.kind == Src::Kind::imm) && s.dwords == 1;
    };
    const auto is_a = [&](const Src& s) { return s.kind == Src::Kind::vgpr && s.index == a && s.dwords == 1; };
    if (op == Op::v_subrev_u32) return uniform(e.src[0]) && is_a(e.src[1]);
    return (uniform(e.src[0]) && is_a(e.src[1])) || (is_a(e.src[0]) && uniform(e.src[1]));
}

// Whether `e` is a VALU op that may read vector range `r` but cannot write it:
// a VALU op writes only its destination (besides v_swap_b32, which writes
// its source too, and the M0-relative moves).
bool valu_only_reads(const Program& p, const ExecInst& e, const VectorRange& r) {
    if (!e.inst) return false;
    const OpInfo& info = e.inst->info();
    const Family f = info.family;
    if (f != Family::VOP1 && f != Family::VOP2 && f != Family::VOPC && f != Family::VOP3 && f != Family::VOP3P)
        return false;
    if (e.inst->op == Op::v_swap_b32 || info.has(OF_M0_RELATIVE) || info.has(OF_MFMA)) return false;
    return !vector_range(p, e.dst).overlaps(r) && !vector_range(p, e.sdst).overlaps(r);
}

// ExecInst::lds_loop_slot() and lds_verifier_slot(), for the accesses
// without a straight-line verifier (lds_address_verifiers). Every
// ds_read/ds_write through an address VGPR that has a slot records there
// what it finds (Wave::lds_verified), so the slot holds the finding of the
// last access through that VGPR the wave made. A forward data-flow over the
// code, per address VGPR, finds the accesses where, on every path, such an
// access came before and since then only uniform adds (uniform_add_to)
// changed the VGPR and nothing wrote EXEC (with EXEC unchanged since, the
// access's own full EXEC was the add's): a loop's access at a base that
// advances by an SGPR or a constant, across branches and barriers. A path
// from the kernel's entry with no access through the VGPR yet may meet
// those: on it the slot is still empty (it is cleared when the wave starts),
// and the access looks for itself, as on a loop's first trip. Such an
// access reads the slot (lds_loop_slot()), and its lds_address_verifier
// names the last access on the paths, the latest in the code where they
// differ (whose memo tells whether its pattern is this one's). Not where a
// load may land in the VGPR, nor in code with indirect branches; at most
// Wave::lds_verifier_slots VGPRs get a slot.
void lds_loop_verifiers(Program& p, const LdsAnalysis& analysis, ExecFn ds_read, ExecFn ds_write,
                        const std::vector<std::uint8_t>& landed_in) {
    static_assert(Wave::lds_verifier_slots < 16, "ExecInst::lds_slots holds a slot number in four bits");
    if (analysis.indirect_branches) return;
    const auto is_access = [&](const ExecInst& e) {
        return (e.fn == ds_read || e.fn == ds_write) && e.src[0].kind == Src::Kind::vgpr && e.src[0].dwords == 1;
    };
    const std::uint32_t n = static_cast<std::uint32_t>(p.insts.size());
    std::vector<std::uint16_t> tracked;  // address VGPRs of accesses that could use a loop verifier
    for (std::uint32_t i = 0; i < n; ++i) {
        const ExecInst& e = p.code[i];
        if (!is_access(e) || e.lds_address_verifier || e.src[0].index >= vector_file_size || landed_in[e.src[0].index])
            continue;
        if (std::find(tracked.begin(), tracked.end(), e.src[0].index) == tracked.end())
            tracked.push_back(e.src[0].index);
    }
    // The state on entry to each instruction: unreached; none (no access
    // through the VGPR since the kernel's entry); index + 1 of the last
    // access (the latest in the code where paths differ), only uniform adds
    // since; or lost.
    constexpr std::uint32_t unreached = 0, none = 0xfffffffeu, lost = 0xffffffffu;
    const auto merge = [&](std::uint32_t at, std::uint32_t state) {
        if (at == unreached || at == none) return state == none && at == none ? none : state;
        if (state == none) return at;
        return at == lost || state == lost ? lost : std::max(at, state);
    };
    // What writes EXEC, once for every address VGPR's pass.
    const auto names_exec = [](const Src& d) {
        return d.kind == Src::Kind::sreg && d.index <= 127 && d.index + std::max<unsigned>(d.dwords, 1) > 126;
    };
    std::vector<std::uint8_t> writes_exec(n);
    for (std::uint32_t k = 0; k < n; ++k) {
        const ExecInst& e = p.code[k];
        writes_exec[k] = e.inst->info().has(OF_WRITES_EXEC) || names_exec(e.dst) || names_exec(e.sdst);
    }
    std::vector<std::uint32_t> in(p.code.size());
    std::vector<std::uint32_t> work;
    unsigned slots = 0;
    for (const std::uint16_t a : tracked) {
        if (slots == Wave::lds_verifier_slots) break;
        const VectorRange address{a, 1};
        std::fill(in.begin(), in.end(), unreached);
        const auto flow = [&](std::uint32_t to, std::uint32_t state) {
            if (to >= n) return;  // the end of the code (a fault), or no target
            const std::uint32_t merged = merge(in[to], state);
            if (merged == in[to]) return;
            in[to] = merged;
            work.push_back(to);
        };
        flow(p.entry, none);
        while (!work.empty()) {
            const std::uint32_t k = work.back();
            work.pop_back();
            const ExecInst& e = p.code[k];
            const OpInfo& info = e.inst->info();
            std::uint32_t out = in[k];
            if (is_access(e) && e.src[0].index == a) {
                const bool writes_address = vector_range(p, e.dst).overlaps(address) ||
                                            vector_range(p, e.src[1]).overlaps(address) ||
                                            vector_range(p, e.src[2]).overlaps(address);
                out = writes_address || writes_exec[k] ? lost : k + 1;
            } else if (out != none && (writes_exec[k] || (!uniform_add_to(e, a) && analysis.may_touch(k, address) &&
                                                          !valu_only_reads(p, e, address)))) {
                out = lost;
            }
            if (info.has(OF_ENDPGM)) continue;
            bool falls_through = true, jumps = false;
            if (info.has(OF_BRANCH)) {
                jumps = e.target != Program::no_target;
                falls_through = e.inst->op != Op::s_branch;
            }
            if (jumps) flow(e.target, out);
            if (falls_through) flow(e.next, out);
        }
        std::vector<std::uint32_t> verified;  // the accesses through `a` that the slot verifies
        for (std::uint32_t i = 0; i < n; ++i) {
            const ExecInst& e = p.code[i];
            const std::uint32_t state = in[i];
            if (is_access(e) && e.src[0].index == a && !e.lds_address_verifier && state != unreached && state != none &&
                state != lost)
                verified.push_back(i);
        }
        if (verified.empty()) continue;
        const auto slot = static_cast<std::uint8_t>(++slots);
        p.lds_verifier_slots = slots;
        for (std::uint32_t i = 0; i < n; ++i)
            if (is_access(p.code[i]) && p.code[i].src[0].index == a)
                p.code[i].lds_slots = static_cast<std::uint8_t>((p.code[i].lds_slots & 0xf0u) | slot);
        for (const std::uint32_t i : verified) {
            p.code[i].lds_slots = static_cast<std::uint8_t>((p.code[i].lds_slots & 0x0fu) | (slot << 4));
            p.code[i].lds_address_verifier = in[i];
        }
    }
}

// How a SALU op reads operand `s` of a `dwords`-wide op without its
// general function's tests, if it can (ScalarForms); nothing: it cannot.
bool scalar_read(const Src& s, unsigned dwords, const std::vector<std::uint32_t>& constant_high,
                 sem::ScalarRead& read) {
    if (s.kind == Src::Kind::sreg && s.dwords == dwords) read = sem::ScalarRead::sreg;
    else if (s.kind == Src::Kind::imm && (s.dwords == 1 || constant_high[s.index] == 0)) read = sem::ScalarRead::imm;
    else if (s.kind == Src::Kind::none) read = sem::ScalarRead::none;
    else return false;
    return true;
}

// The SALU form of e (ScalarForms) when its operands allow one, else its function.
ExecFn scalar_form(const ExecInst& e, const sem::ScalarForms& forms, const std::vector<std::uint32_t>& constant_high) {
    sem::ScalarRead a{}, b{};
    if (!scalar_read(e.src[0], forms.dwords, constant_high, a) || a == sem::ScalarRead::none ||
        !scalar_read(e.src[1], forms.dwords, constant_high, b))
        return e.fn;
    if (forms.writes_dst ? e.dst.kind != Src::Kind::sreg || e.dst.dwords != forms.dwords
                         : e.dst.kind != Src::Kind::none)
        return e.fn;
    return forms.fn[static_cast<unsigned>(a)][static_cast<unsigned>(b)];
}

// One DppPattern per distinct pattern: the run loops read fewer cache lines.
const DppPattern* intern(Program& p, const DppPattern& pattern) {
    for (const auto& known : p.dpp_patterns)
        if (known->same_as(pattern)) return known.get();
    p.dpp_patterns.push_back(std::make_unique<DppPattern>(pattern));
    return p.dpp_patterns.back().get();
}

}  // namespace

bool has_semantics(Op op) { return semantics()[static_cast<std::size_t>(op)].fn != nullptr; }

std::uint32_t Program::index_of(std::int64_t pc) const {
    auto it = std::lower_bound(insts.begin(), insts.end(), pc,
                               [](const Inst& inst, std::int64_t value) { return inst.pc < value; });
    if (it == insts.end() || it->pc != pc) return no_target;
    return static_cast<std::uint32_t>(it - insts.begin());
}

std::string Program::disassemble(std::uint32_t index) const {
    if (index >= insts.size()) return "<end of code>";
    return emu::disassemble(insts[index], target);
}

namespace {

Program program_header(const Kernel& kernel, Target target) {
    Program p;
    p.target = target;
    p.kernel_name = kernel.name;
    p.descriptor = kernel.descriptor;
    p.metadata = kernel.metadata;
    p.code_address = kernel.code_address;
    p.vgprs_used = 3;  // workitem ids
    return p;
}

// Program::code from Program::insts, all of them decoded (branch targets are looked up among them).
// Why launch() keeps a workgroup's waves in order (dispatch.hpp, "Small
// grids"): between two barriers the waves of a race-free program touch
// disjoint memory, except through read-modify-writes. An atomic (LDS,
// global, flat, buffer or scalar) returns, and for floating-point adds
// stores, values that depend on which wave came first; ds_append/ds_consume
// (not flagged atomic in the op table, being counters at M0 rather than
// memory operands) hand each wave its slot in arrival order. Any of them
// anywhere in the program keeps the waves sequential.
bool wave_order_matters(const Inst& inst) {
    return inst.info().has(OF_ATOMIC) || inst.op == Op::ds_append || inst.op == Op::ds_consume;
}

// ExecInst::host_mode_free. gfx9's scalar unit has no floating point; DS,
// buffer and flat loads and stores move bits, except the atomics (ds_min_f32,
// ds_add_f32, global_atomic_add_f32 ...) and the typed buffer accesses
// (format conversions); a VALU op computes in floating point only on
// operands of a float type in the op table's type columns (OperandTypes),
// integer ones run on integer host instructions. Matrix ops, images and
// anything undeclared count as float.
bool host_mode_free(const Inst& inst, const sem::Semantic& s) {
    if (s.sets_host_float_mode) return true;
    const OpInfo& info = inst.info();
    switch (info.family) {
    case Family::SOP1:
    case Family::SOP2:
    case Family::SOPK:
    case Family::SOPC:
    case Family::SOPP:
    case Family::SMEM: return true;
    case Family::DS:
    case Family::FLAT:
    case Family::SCRATCH:
    case Family::GLOBAL:
    case Family::MUBUF: return !info.has(OF_ATOMIC) && info.components == 0;
    case Family::VOP1:
    case Family::VOP2:
    case Family::VOPC:
    case Family::VOP3:
    case Family::VOP3P: {
        if (info.has(OF_MFMA)) return false;
        const OperandTypes& types = operand_types(inst.op);
        if (!types.declared()) return false;
        for (OperandType t : {types.dst, types.src[0], types.src[1], types.src[2]}) {
            switch (t) {
            case OperandType::none:
            case OperandType::b16:
            case OperandType::b32:
            case OperandType::b64:
            case OperandType::b128:
            case OperandType::pk_b16:
            case OperandType::mask: break;
            default: return false;
            }
        }
        return true;
    }
    default: return false;
    }
}

// ExecInst::lds_block. An SGEMM kernel's k step is straight-line groups of
// two LDS reads, an s_waitcnt and a run of multiply-adds (32x32 tiles: 56
// of the loop's 90 instructions). Run one by one, each instruction costs the
// run loop's dispatch, and each multiply-add run ends a counting stretch
// (dispatch.cpp, run_wave). A block is a maximal sequence of such
// instructions from a ds_read: ds_reads that may take the repeated whole
// access's path (whole dwords, landing at issue), plain s_waitcnts, and
// multiply-add runs whose steps read their VGPRs in place; each keeps its
// op's own function (none of them can fault on that path: a register
// outside the allocation, say, leaves the block), and nothing in it needs
// the host's default float mode but the runs, which set their own. Worth it
// with two reads and a run at least.
void lds_multiply_add_blocks(Program& p, const sem::Table& table, ExecFn ds_read) {
    const auto joins = [&](const ExecInst& e) -> unsigned {  // the instructions e brings, 0: none
        if (!e.inst || e.fn != table[static_cast<std::size_t>(e.inst->op)].fn) return 0;
        if (e.fn == ds_read && e.cls == InstClass::lds_read && e.lds_whole_dwords && e.lds_lands_at_issue &&
            e.host_mode_free)
            return 1;
        if (e.cls == InstClass::waitcnt && e.inst->op == Op::s_waitcnt && e.host_mode_free) return 1;
        if (e.multiply_add && e.cls == InstClass::valu && e.multiply_add_run_in_place == e.multiply_add_run)
            return e.multiply_add_run;
        return 0;
    };
    const std::size_t size = p.insts.size();
    for (std::size_t head = 0; head < size;) {
        ExecInst& e = p.code[head];
        if (e.fn != ds_read || !joins(e)) {
            ++head;
            continue;
        }
        std::size_t end = head;
        unsigned reads = 0, runs = 0;
        for (unsigned n; end < size && (n = joins(p.code[end])) != 0; end += n) {
            reads += p.code[end].fn == ds_read;
            runs += p.code[end].multiply_add;
        }
        if (reads >= 2 && runs >= 1 && end - head <= 0xffff) {
            e.lds_block = static_cast<std::uint16_t>(end - head);
            e.fn = sem::lds_multiply_add_block;
        }
        head = end;
    }
}

// LdsBlockPlan (program.hpp) for a block that admits one: false if not.
// One pass in program order: the reads, the runs' shape, and which read
// wrote each VGPR last before each multiplicand (-1: none, the value from
// before the block) and at the end.
bool plan_block(const ExecInst* const head, LdsBlockPlan& plan) {
    const ExecInst* const end = head + head->lds_block;
    constexpr unsigned steps = 4;
    std::bitset<256> read_vgprs, addresses, multiplicands;
    std::bitset<256> before_block;  // a multiplicand's value from before the block
    std::array<int, 256> writer;
    writer.fill(-1);
    std::vector<const ExecInst*> reads;
    std::vector<std::pair<int, unsigned>> uses;  // per multiplicand: the writing read, else -1; the VGPR
    Op op = Op::invalid;
    unsigned rows = 0, runs = 0;
    bool checks_first = true, verified_inside = true;
    unsigned outstanding = 0;  // on lgkmcnt, from none at the head
    for (const ExecInst* e = head; e != end;) {
        if (e->cls == InstClass::lds_read) {
            if (e->dst.kind != Src::Kind::vgpr || e->src[0].kind != Src::Kind::vgpr ||
                e->dst.index + e->lds_whole_dwords > 256)
                return false;
            for (unsigned d = 0; d < e->lds_whole_dwords; ++d) {
                read_vgprs.set(e->dst.index + d);
                writer[e->dst.index + d] = static_cast<int>(reads.size());
            }
            addresses.set(e->src[0].index);
            LdsBlockPlan::Read read;
            read.row = static_cast<std::uint16_t>(rows);
            read.at = static_cast<std::uint16_t>(e - head);
            const std::uint32_t verifier = e->lds_address_verifier;  // index + 1
            if (!e->lds_loop_slot() && verifier > head->index && verifier <= e->index)
                for (std::size_t r = 0; r < reads.size() && r < LdsBlockPlan::max_reads_checked_first; ++r)
                    if (reads[r]->index + 1 == verifier) read.verified_by = static_cast<std::int8_t>(r);
            checks_first = checks_first && verifier && outstanding < InFlightQueue::max_lgkm &&
                           (e->lds_loop_slot() || verifier <= head->index || read.verified_by >= 0);
            verified_inside = verified_inside && (e->lds_loop_slot() || read.verified_by >= 0);
            ++outstanding;
            plan.reads.push_back(read);
            reads.push_back(e);
            rows += e->lds_whole_dwords;
            ++e;
        } else if (e->cls == InstClass::waitcnt) {
            plan.lowest_wait_vm = std::min(plan.lowest_wait_vm, e->wait_vm);
            outstanding = std::min<unsigned>(outstanding, e->wait_lgkm);
            ++plan.waits;
            ++e;
        } else {
            if (!runs) plan.first_run = static_cast<std::uint16_t>(e - head);
            if ((e->inst->op != Op::v_mac_f32 && e->inst->op != Op::v_fmac_f32) ||
                (op != Op::invalid && e->inst->op != op) || e->multiply_add_run_dpp)
                return false;
            op = e->inst->op;
            if (++runs > LdsBlockPlan::max_runs || e->multiply_add_run != steps) return false;
            if (runs == 1)
                for (unsigned k = 0; k < steps; ++k) plan.accumulators[k] = e->multiply_add_steps[k].dst;
            for (unsigned k = 0; k < steps; ++k) {
                const MultiplyAddStep& x = e->multiply_add_steps[k];
                if (x.kind != MultiplyAddStep::Kind::direct || x.src[2] != x.dst || x.dst != plan.accumulators[k])
                    return false;
                for (const unsigned v : {x.src[0], x.src[1]}) {
                    multiplicands.set(v);
                    uses.push_back({writer[v], v});
                    if (writer[v] < 0) before_block.set(v);
                }
            }
            e += steps;
        }
    }
    std::bitset<256> accumulators;
    for (std::uint8_t a : plan.accumulators) accumulators.set(a);
    if (op == Op::invalid || accumulators.count() != steps || rows > LdsBlockPlan::max_rows ||
        (accumulators & (read_vgprs | addresses | multiplicands)).any() || (read_vgprs & addresses).any())
        return false;
    plan.fused = op == Op::v_fmac_f32;
    plan.runs = static_cast<std::uint16_t>(runs);
    plan.outstanding_at_end = static_cast<std::uint8_t>(outstanding);
    plan.checks_first = checks_first && reads.size() <= LdsBlockPlan::max_reads_checked_first;
    plan.checks_kept = plan.checks_first && verified_inside;

    // A read goes straight into its VGPRs when it writes them last and no
    // step reads what they held before the block.
    for (std::size_t r = 0; r < reads.size(); ++r) {
        bool last = true;
        for (unsigned d = 0; d < reads[r]->lds_whole_dwords; ++d)
            last = last && writer[reads[r]->dst.index + d] == int(r) && !before_block.test(reads[r]->dst.index + d);
        plan.reads[r].into_vgprs = last;
    }
    // Where the value read by `by` into VGPR v is after the reads.
    const auto row_of = [&](int by, unsigned v) {
        return static_cast<std::uint16_t>(plan.reads[by].row + (v - reads[by]->dst.index));
    };
    for (const auto& [by, v] : uses)
        plan.sources.push_back(by < 0 || plan.reads[by].into_vgprs ? static_cast<std::uint16_t>(v)
                                                                   : LdsBlockPlan::from_rows | row_of(by, v));
    plan.outer_product = true;
    for (std::size_t k = 0; k < plan.sources.size(); k += 8) {
        const std::uint16_t* x = &plan.sources[k];  // src0, src1 of steps 0..3
        plan.outer_product = plan.outer_product && x[0] == x[2] && x[4] == x[6] && x[1] == x[5] && x[3] == x[7];
    }
    for (unsigned v = 0; v < 256; ++v)
        if (writer[v] >= 0 && !plan.reads[writer[v]].into_vgprs)
            plan.copies.push_back({static_cast<std::uint8_t>(v), row_of(writer[v], v)});
    return true;
}

// Plans for the blocks that admit one (LdsBlockPlan, program.hpp).
void lds_block_plans(Program& p) {
    for (std::size_t i = 0; i < p.insts.size(); ++i) {
        ExecInst& head = p.code[i];
        if (!head.lds_block) continue;
        LdsBlockPlan plan;
        if (p.lds_block_plans.size() < 255 && plan_block(&head, plan)) {
            p.lds_block_plans.push_back(std::move(plan));
            head.lds_block_plan = static_cast<std::uint8_t>(p.lds_block_plans.size());
        }
        i += head.lds_block - 1;
    }
}

void build_code(Program& p) {
    const Target target = p.target;
    const sem::Table& table = semantics();
    const FloatDenormMode denorm = p.descriptor.float_mode.denorm_32;
    p.code.resize(p.insts.size() + 1);
    for (std::size_t i = 0; i < p.insts.size(); ++i) {
        const Inst& inst = p.insts[i];
        ExecInst& e = p.code[i];
        const sem::Semantic& s = table[static_cast<std::size_t>(inst.op)];
        const OpInfo& info = inst.info();
        e.inst = &inst;
        e.index = static_cast<std::uint32_t>(i);
        e.next = e.index + 1;
        e.target = Program::no_target;
        e.fn = s.fn ? s.fn : sem::not_implemented;
        e.cls = s.cls;
        e.valu_dpp = inst.dpp && e.cls == InstClass::valu ? 1 : 0;
        e.host_mode_free = host_mode_free(inst, s);

        // A 64-bit constant is an f64 (inline float, literal high half) where the operand is one.
        const OperandTypes& types = operand_types(inst.op);
        const auto is_f64 = [](OperandType t) { return t == OperandType::f64; };
        e.multiply_add = info.has(OF_MULTIPLY_ADD);
        e.dst = resolve(p, inst.dst, false);
        e.sdst = resolve(p, inst.sdst, false);
        for (int i = 0; i < 3; ++i) {
            const Operand& src = i == 0 ? inst.src0 : i == 1 ? inst.src1 : inst.src2;
            e.src[i] = resolve(p, src, is_f64(types.src[i]), int64_operand(types, types.src[i]));
        }
        e.soffset = resolve(p, inst.soffset, false);
        if (s.src2_is_dst) e.src[2] = e.dst;
        for (const Src* src : {&e.dst, &e.src[0], &e.src[1], &e.src[2]}) track_registers(p, *src);
        if (!register_operand_error(p, e).empty()) e.fn = sem::register_out_of_allocation;

        if (info.has(OF_BRANCH) && info.family == Family::SOPP) e.target = p.index_of(inst.branch_target());

        // Source transforms: abs/neg (VOP3, DPP, SDWA float ops) and denormal flushing.
        e.output_modifiers = inst.clamp || inst.omod;  // the lane loops flush results themselves
        if (info.family != Family::VOP3P) {
            for (int k = 0; k < 3; ++k) {
                std::uint8_t t = 0;
                if ((inst.mods.abs >> k) & 1) t |= ST_ABS;
                if ((inst.mods.neg >> k) & 1) t |= ST_NEG;
                e.transform[k] = t;
            }
        }
        set_denorm_flushes(e, s, denorm, p.descriptor.float_mode.denorm_16_64);
        if (inst.dpp) {
            try {
                e.dpp = intern(p, make_dpp_pattern(inst.dpp_ctrl, target));
            } catch (const std::invalid_argument&) {
                e.fn = sem::not_implemented;
            }
        }
        if (inst.sdwa) {
            // Source selects apply as a transform; a partial destination is placed by commit_vdst.
            if (inst.sdwa_sel.src0_sel != 6 || (inst.mods.sext & 1)) e.transform[0] |= ST_SDWA;
            if (inst.sdwa_sel.src1_sel != 6 || (inst.mods.sext & 2)) e.transform[1] |= ST_SDWA;
            e.sdwa_dst = info.family != Family::VOPC && inst.sdwa_sel.dst_sel != 6;
        }
        const bool vgprs_as_they_are =
            e.dst.kind == Src::Kind::vgpr && !inst.sdwa && !e.output_modifiers &&
            std::all_of(std::begin(e.src), std::end(e.src), [&](const Src& src) {
                const std::size_t k = &src - e.src;
                return src.kind == Src::Kind::none || (src.kind == Src::Kind::vgpr && !(e.transform[k] & ~ST_FLUSH));
            });
        e.direct_vgprs = vgprs_as_they_are && !e.dpp;
        if (info.family == Family::VOP3P) {
            // Packed ops keep neg_lo/neg_hi in the modifiers, not in transform; the
            // packed multiply-add rows take the dwords op_sel/op_sel_hi name as
            // they are, so no negation, and every dword named within v0..v255.
            const bool in_range = unsigned(e.dst.index) + 1 < max_vgprs &&
                                  std::all_of(std::begin(e.src), std::end(e.src), [](const Src& src) {
                                      return src.kind == Src::Kind::none || unsigned(src.index) + 1 < max_vgprs;
                                  });
            e.direct_vgprs = e.direct_vgprs && !inst.mods.neg && !inst.mods.neg_hi && in_range;
        }
        e.row_dpp_vgprs = vgprs_as_they_are && e.dpp && e.dpp->row_local;
        // Integer clamp saturates where the op registers its saturating form; other integer clamp and output
        // modifiers of integer or mask results are not modelled: stop rather than guess.
        const OperandType result = operand_types(inst.op).dst;
        const bool float_result = (result == OperandType::f32 && s.fp != sem::FloatPolicy::none) ||
                                  (result == OperandType::f16 && s.fp == sem::FloatPolicy::half);
        if (s.fn && inst.clamp && !inst.omod && s.saturating) {
            e.fn = s.saturating;
            e.output_modifiers = false;  // the saturating form clamps itself; no fp32 clamp on top
        } else if (s.fn && (inst.clamp || inst.omod) && info.family != Family::VOP3P && !float_result) {
            e.fn = sem::not_implemented;
        }
        if (!inst.valid()) e.fn = sem::not_implemented;
        e.plain = plain_form(e);
        if (e.fn == s.fn && s.scalar_forms) e.fn = scalar_form(e, *s.scalar_forms, p.constant_high);
        e.wait_vm = inst.waitcnt.vmcnt;
        e.wait_lgkm = inst.waitcnt.lgkmcnt;
    }
    // Running off the end of the code is an error, not an s_endpgm.
    ExecInst& end = p.code.back();
    end.fn = sem::not_implemented;
    end.index = static_cast<std::uint32_t>(p.insts.size());
    end.next = end.index;
    end.target = Program::no_target;
    count_multiply_add_runs(p);
    const ExecFn ds_read = table[static_cast<std::size_t>(Op::ds_read_b32)].fn;
    const ExecFn ds_write = table[static_cast<std::size_t>(Op::ds_write_b32)].fn;
    LdsAnalysis analysis(p);
    loads_landing_at_issue(
        p, analysis, [&](const ExecInst& e) { return e.fn == ds_read; },
        [](ExecInst& e, bool safe) { e.lds_lands_at_issue = safe; });
    const ExecFn vmem_load = table[static_cast<std::size_t>(Op::buffer_load_dword)].fn;
    loads_landing_at_issue(
        p, analysis, [&](const ExecInst& e) { return e.fn == vmem_load; },
        [](ExecInst& e, bool safe) { e.vmem_lands_at_issue = safe; });
    buffer_load_forms(p, vmem_load);
    const std::vector<std::uint8_t> landed_in = registers_loads_land_in(analysis);
    lds_address_verifiers(p, analysis, ds_read, ds_write, landed_in);
    lds_access_facts(p, ds_read, ds_write);
    lds_loop_verifiers(p, analysis, ds_read, ds_write, landed_in);
    lds_multiply_add_blocks(p, table, ds_read);
    lds_block_plans(p);
    build_fp32_denorm_variants(p, table);
    p.wave_order_matters = std::any_of(p.insts.begin(), p.insts.end(), wave_order_matters);
}

// The functions the kernel may call: every other sized function in the code
// object's executable sections, except other kernels and code inside this one.
std::vector<const Function*> callable_functions(const CodeObject& code_object, const Kernel& kernel) {
    std::vector<const Function*> functions;
    const std::uint64_t kernel_end = kernel.code_address + kernel.code.size();
    for (const Function& f : code_object.functions) {
        const bool is_kernel = std::any_of(code_object.kernels.begin(), code_object.kernels.end(),
                                           [&](const Kernel& k) { return k.code_address == f.address; });
        const bool inside_kernel = f.address >= kernel.code_address && f.address < kernel_end;
        const bool overlaps_previous =
            !functions.empty() && f.address < functions.back()->address + functions.back()->code.size();
        if (!is_kernel && !inside_kernel && !overlaps_previous) functions.push_back(&f);
    }
    return functions;
}

}  // namespace

unsigned agpr_base(const Program& program) {
    return has_unified_vgpr_file(program.target) ? program.descriptor.accum_offset : max_vgprs;
}

std::string register_operand_error(const Program& program, const ExecInst& e) {
    const KernelDescriptor& kd = program.descriptor;
    const bool unified = has_unified_vgpr_file(program.target);
    for (const Src* s : {&e.dst, &e.src[0], &e.src[1], &e.src[2]}) {
        if (!s->is_vector()) continue;
        const unsigned end = s->index + s->dwords;
        if (s->dwords > 1 && (s->index & 1) && has(program.target, Feature::gfx90a_insts))
            return range_text(*s) + " is not 64-bit aligned (" + target_name(program.target) +
                   " needs an even first register)";
        if (kd.allocated_vgprs == 0) continue;  // no descriptor: nothing to check against
        if (s->kind == Src::Kind::vgpr && end > kd.allocated_vgprs)
            return range_text(*s) + " is past the kernel's " + std::to_string(kd.allocated_vgprs) + " allocated VGPRs";
        if (s->kind == Src::Kind::agpr && unified && kd.accum_offset + end > kd.allocated_vgprs)
            return range_text(*s) + " is past the kernel's " + std::to_string(kd.acc_vgprs) + " AGPRs (accum_offset " +
                   std::to_string(kd.accum_offset) + " of " + std::to_string(kd.allocated_vgprs) + " allocated VGPRs)";
        if (s->kind == Src::Kind::agpr && !unified && end > kd.acc_vgprs)
            return range_text(*s) + " is past the kernel's " + std::to_string(kd.acc_vgprs) + " allocated AGPRs";
    }
    return {};
}

Program build_program(const Kernel& kernel, Target target) {
    Program p = program_header(kernel, target);
    p.insts = decode_all(target, kernel.code.data(), kernel.code.size());
    build_code(p);
    return p;
}

void use_general_paths(Program& program) {
    const sem::Table& table = semantics();
    auto general = [&table](std::vector<ExecInst>& code) {
        for (ExecInst& e : code) {
            e.plain = 0;
            if (e.inst) {
                // A SALU form back to its op's general function.
                const sem::Semantic& s = table[static_cast<std::size_t>(e.inst->op)];
                if (s.scalar_forms)
                    for (const auto& by_src1 : s.scalar_forms->fn)
                        for (ExecFn form : by_src1)
                            if (e.fn == form) e.fn = s.fn;
                if (e.lds_block) e.fn = s.fn;  // a block's head back to its ds_read
            }
            e.lds_block = 0;
            e.lds_block_plan = 0;
            e.direct_vgprs = false;
            e.row_dpp_vgprs = false;
            e.multiply_add_run = 1;
            e.multiply_add_run_dpp = e.valu_dpp;
            e.lds_lands_at_issue = false;
            e.buffer_dword_offen = false;
            e.vmem_lands_at_issue = false;
            e.lds_address_verifier = 0;
            e.lds_slots = 0;
            e.lds_whole_dwords = 0;
            e.multiply_add_run_in_place = 0;
        }
    };
    for (MultiplyAddStep& step : program.multiply_add_steps) step = MultiplyAddStep{};
    // Every DPP source gathered lane by lane (dpp_gather), not by rows.
    for (const std::unique_ptr<DppPattern>& pattern : program.dpp_patterns)
        pattern->row_local = pattern->half_local = false;
    general(program.code);
    for (std::vector<ExecInst>& code : program.code_by_fp32_denorm) general(code);
    program.lds_verifier_slots = 0;
}

const ExecInst* Program::code_for(FloatDenormMode fp32_denorm) const {
    if (fp32_denorm == descriptor.float_mode.denorm_32) return code.data();
    const std::vector<ExecInst>& variant = code_by_fp32_denorm[static_cast<std::size_t>(fp32_denorm)];
    return variant.empty() ? nullptr : variant.data();
}

Program build_program(const CodeObject& code_object, const Kernel& kernel) {
    std::uint64_t end = 0;
    for (const Segment& s : code_object.segments) end = std::max(end, s.vaddr + s.memory_size);
    if (end > max_code_object_bytes) throw std::invalid_argument("code object image larger than 256 MiB");
    Program p = program_header(kernel, code_object.target.processor);

    // The kernel and the functions it may call, decoded piece by piece (data
    // or padding between them never shifts an instruction boundary), in
    // address order so that Program::index_of finds any of them; pcs count
    // from the lowest piece, whose address becomes Program::code_address.
    struct Piece {
        std::uint64_t address;
        const std::vector<std::uint8_t>* code;
    };
    std::vector<Piece> pieces{{kernel.code_address, &kernel.code}};
    for (const Function* f : callable_functions(code_object, kernel)) pieces.push_back({f->address, &f->code});
    std::sort(pieces.begin(), pieces.end(), [](const Piece& a, const Piece& b) { return a.address < b.address; });
    p.code_address = pieces.front().address;
    for (const Piece& piece : pieces) {
        const auto offset = static_cast<std::uint32_t>(piece.address - p.code_address);
        if (piece.address == kernel.code_address) p.entry = static_cast<std::uint32_t>(p.insts.size());
        for (Inst& inst : decode_all(p.target, piece.code->data(), piece.code->size())) {
            inst.pc += offset;
            p.insts.push_back(inst);
        }
    }
    build_code(p);

    p.image.assign(end, 0);
    for (const Segment& s : code_object.segments)
        std::copy(s.file_bytes.begin(), s.file_bytes.end(), p.image.begin() + static_cast<std::ptrdiff_t>(s.vaddr));
    return p;
}

}  // namespace dppgemm::emu
