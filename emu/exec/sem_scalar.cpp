// Scalar ALU, program flow and scalar memory. Each SALU op is a function
// (a, b, scc) -> result of the operand width T; one template applies any of
// them to its resolved operands.

#include <cstring>
#include <limits>

#include "emu/exec/memory_model.hpp"
#include "emu/exec/semantics.hpp"
#include "emu/exec/single_copy.hpp"
#include "emu/exec/weak_memory.hpp"
#include "emu/util.hpp"

namespace dppgemm::emu::sem {
namespace {

template <class T>
using SaluFn = T (*)(T, T, bool&);

// C++17 stand-ins for <bit>.
template <class T>
unsigned popcount(T x) {
    return unsigned(__builtin_popcountll(x));
}
template <class T>
unsigned countr_zero(T x) {
    return unsigned(__builtin_ctzll(x));
}  // x != 0
template <class T>
unsigned countl_zero(T x) {
    return unsigned(__builtin_clzll(x)) - (64 - 8 * sizeof(T));
}

// Reads both sources as T, writes the result at the destination's width.
template <class T, SaluFn<T> F>
void salu(Wave& w, const ExecInst& e) {
    const T a = static_cast<T>(read64(w, e.src[0]));
    const T b = static_cast<T>(read64(w, e.src[1]));
    bool scc = w.scc;
    const T r = F(a, b, scc);
    write_sdst(w, e.dst, r);
    w.scc = scc;
}

// SOPC: compare, SCC only.
template <class T, bool (*F)(T, T)>
void salu_compare(Wave& w, const ExecInst& e) {
    w.scc = F(static_cast<T>(read64(w, e.src[0])), static_cast<T>(read64(w, e.src[1])));
}

// An operand read as program.cpp chose (ScalarForms): what read64 gives for it.
template <class T, ScalarRead R>
inline T scalar_operand(const Wave& w, const Src& s) {
    if constexpr (R == ScalarRead::sreg) {
        if constexpr (sizeof(T) == 8) return w.read64(s.index);
        else return w.sreg[s.index];
    } else if constexpr (R == ScalarRead::imm) {
        return static_cast<T>(s.value);
    } else {
        return 0;
    }
}

// salu and salu_compare with the reads chosen at build time and the
// destination an SGPR (pair) of the op's width.
template <class T, SaluFn<T> F, ScalarRead A, ScalarRead B>
void salu_form(Wave& w, const ExecInst& e) {
    bool scc = w.scc;
    const T r = F(scalar_operand<T, A>(w, e.src[0]), scalar_operand<T, B>(w, e.src[1]), scc);
    if constexpr (sizeof(T) == 8) w.write64(e.dst.index, r);
    else w.sreg[e.dst.index] = r;
    w.scc = scc;
}
template <class T, bool (*F)(T, T), ScalarRead A, ScalarRead B>
void salu_compare_form(Wave& w, const ExecInst& e) {
    w.scc = F(scalar_operand<T, A>(w, e.src[0]), scalar_operand<T, B>(w, e.src[1]));
}

constexpr ScalarRead R_sreg = ScalarRead::sreg, R_imm = ScalarRead::imm, R_none = ScalarRead::none;
template <class T, SaluFn<T> F>
const ScalarForms salu_forms{
    {{salu_form<T, F, R_sreg, R_sreg>, salu_form<T, F, R_sreg, R_imm>, salu_form<T, F, R_sreg, R_none>},
     {salu_form<T, F, R_imm, R_sreg>, salu_form<T, F, R_imm, R_imm>, salu_form<T, F, R_imm, R_none>}},
    std::uint8_t(sizeof(T) / 4),
    true};
template <class T, bool (*F)(T, T)>
const ScalarForms compare_forms{{{salu_compare_form<T, F, R_sreg, R_sreg>, salu_compare_form<T, F, R_sreg, R_imm>,
                                  salu_compare_form<T, F, R_sreg, R_none>},
                                 {salu_compare_form<T, F, R_imm, R_sreg>, salu_compare_form<T, F, R_imm, R_imm>,
                                  salu_compare_form<T, F, R_imm, R_none>}},
                                std::uint8_t(sizeof(T) / 4),
                                false};

// Registers a SALU op: its general function and its forms.
template <class T, SaluFn<T> F>
void set_salu(Table& t, Op op) {
    set(t, op, salu<T, F>, InstClass::salu);
    set_scalar_forms(t, op, &salu_forms<T, F>);
}
template <class T, bool (*F)(T, T)>
void set_salu_compare(Table& t, Op op) {
    set(t, op, salu_compare<T, F>, InstClass::salu);
    set_scalar_forms(t, op, &compare_forms<T, F>);
}

// ---- 32/64-bit operations ---------------------------------------------------

template <class T>
T nonzero(T r, bool& scc) {
    scc = r != 0;
    return r;
}

u32 add_u32(u32 a, u32 b, bool& scc) {
    const u64 r = u64(a) + b;
    scc = r >> 32;
    return u32(r);
}
u32 sub_u32(u32 a, u32 b, bool& scc) {
    scc = b > a;
    return a - b;
}
u32 addc_u32(u32 a, u32 b, bool& scc) {
    const u64 r = u64(a) + b + scc;
    scc = r >> 32;
    return u32(r);
}
u32 subb_u32(u32 a, u32 b, bool& scc) {
    const u64 r = u64(a) - b - scc;
    scc = (r >> 32) != 0;
    return u32(r);
}
u32 add_i32(u32 a, u32 b, bool& scc) {
    const u32 r = a + b;
    scc = ((~(a ^ b) & (a ^ r)) >> 31) != 0;  // same-sign inputs, other-sign result
    return r;
}
u32 sub_i32(u32 a, u32 b, bool& scc) {
    const u32 r = a - b;
    scc = (((a ^ b) & (a ^ r)) >> 31) != 0;
    return r;
}
u32 min_i32(u32 a, u32 b, bool& scc) {
    scc = i32(a) < i32(b);
    return scc ? a : b;
}
u32 max_i32(u32 a, u32 b, bool& scc) {
    scc = i32(a) > i32(b);
    return scc ? a : b;
}
u32 min_u32(u32 a, u32 b, bool& scc) {
    scc = a < b;
    return scc ? a : b;
}
u32 max_u32(u32 a, u32 b, bool& scc) {
    scc = a > b;
    return scc ? a : b;
}
template <class T>
T cselect(T a, T b, bool& scc) {
    return scc ? a : b;
}
template <class T>
T and_(T a, T b, bool& scc) {
    return nonzero<T>(a & b, scc);
}
template <class T>
T or_(T a, T b, bool& scc) {
    return nonzero<T>(a | b, scc);
}
template <class T>
T xor_(T a, T b, bool& scc) {
    return nonzero<T>(a ^ b, scc);
}
template <class T>
T andn2(T a, T b, bool& scc) {
    return nonzero<T>(a & ~b, scc);
}
template <class T>
T orn2(T a, T b, bool& scc) {
    return nonzero<T>(a | ~b, scc);
}
template <class T>
T nand(T a, T b, bool& scc) {
    return nonzero<T>(~(a & b), scc);
}
template <class T>
T nor(T a, T b, bool& scc) {
    return nonzero<T>(~(a | b), scc);
}
template <class T>
T xnor(T a, T b, bool& scc) {
    return nonzero<T>(~(a ^ b), scc);
}
template <class T>
constexpr unsigned shift_mask = sizeof(T) * 8 - 1;
template <class T>
T lshl(T a, T b, bool& scc) {
    return nonzero<T>(a << (b & shift_mask<T>), scc);
}
template <class T>
T lshr(T a, T b, bool& scc) {
    return nonzero<T>(a >> (b & shift_mask<T>), scc);
}
template <class T>
T ashr(T a, T b, bool& scc) {
    using S = std::make_signed_t<T>;
    return nonzero<T>(T(S(a) >> (b & shift_mask<T>)), scc);
}
template <class T>
T bfm(T a, T b, bool&) {
    const unsigned width = unsigned(a) & shift_mask<T>;
    return ((T(1) << width) - 1) << (b & shift_mask<T>);
}
u32 mul_i32(u32 a, u32 b, bool&) { return a * b; }
u32 mul_hi_u32(u32 a, u32 b, bool&) { return u32((u64(a) * b) >> 32); }
u32 mul_hi_i32(u32 a, u32 b, bool&) { return u32(u64(i64(i32(a)) * i32(b)) >> 32); }
// s_bfe: offset in b[5:0] (b[4:0] for 32 bits), width in b[22:16].
template <class T, bool Signed>
T bfe(T a, T b, bool& scc) {
    const unsigned bits = sizeof(T) * 8;
    const unsigned offset = unsigned(b) & shift_mask<T>;
    const unsigned width = (unsigned(u64(b) >> 16)) & 0x7f;
    T r = 0;
    if (width != 0) {
        const unsigned w = width + offset > bits ? bits - offset : width;
        r = (a >> offset) & (w >= bits ? ~T(0) : ((T(1) << w) - 1));
        if (Signed && w < bits && ((r >> (w - 1)) & 1)) r |= ~T(0) << w;
    }
    return nonzero<T>(r, scc);
}
u32 absdiff_i32(u32 a, u32 b, bool& scc) {
    const u32 d = a - b;  // ISA: D = S0 - S1 (32 bits, wrapping), then negated if negative
    return nonzero<u32>(i32(d) < 0 ? 0u - d : d, scc);
}
template <unsigned N>
u32 lshl_add(u32 a, u32 b, bool& scc) {
    const u64 r = (u64(a) << N) + b;
    scc = (r >> 32) != 0;
    return u32(r);
}
u32 pack_ll(u32 a, u32 b, bool&) { return (a & 0xffffu) | (b << 16); }
u32 pack_lh(u32 a, u32 b, bool&) { return (a & 0xffffu) | (b & 0xffff0000u); }
u32 pack_hh(u32 a, u32 b, bool&) { return (a >> 16) | (b & 0xffff0000u); }

// SOP1 (b unused).
template <class T>
T mov(T a, T, bool&) {
    return a;
}
template <class T>
T not_(T a, T, bool& scc) {
    return nonzero<T>(~a, scc);
}
template <class T>
T brev(T a, T, bool&) {
    T r = 0;
    for (unsigned i = 0; i < sizeof(T) * 8; ++i) r |= ((a >> i) & 1) << (sizeof(T) * 8 - 1 - i);
    return r;
}
template <class T>
T wqm(T a, T, bool& scc) {
    T r = 0;
    for (unsigned q = 0; q < sizeof(T) * 8; q += 4)
        if ((a >> q) & 0xf) r |= T(0xf) << q;
    return nonzero<T>(r, scc);
}
template <class T>
T quadmask(T a, T, bool& scc) {
    T r = 0;
    for (unsigned q = 0; q < sizeof(T) * 8 / 4; ++q)
        if ((a >> (4 * q)) & 0xf) r |= T(1) << q;
    return nonzero<T>(r, scc);
}
template <class T>
T bcnt1(T a, T, bool& scc) {
    return nonzero<T>(T(popcount(a)), scc);
}
template <class T>
T bcnt0(T a, T, bool& scc) {
    return nonzero<T>(T(popcount(T(~a))), scc);
}
template <class T>
T ff1(T a, T, bool&) {
    return a ? T(countr_zero(a)) : T(u32(-1));
}
template <class T>
T ff0(T a, T, bool&) {
    return T(~a) ? T(countr_zero(T(~a))) : T(u32(-1));
}
template <class T>
T flbit(T a, T, bool&) {
    return a ? T(countl_zero(a)) : T(u32(-1));
}
template <class T>
T flbit_signed(T a, T, bool&) {
    using S = std::make_signed_t<T>;
    const T x = S(a) < 0 ? T(~a) : a;  // leading bits equal to the sign
    if (a == 0 || a == ~T(0)) return T(u32(-1));
    return T(countl_zero(x));
}
u32 sext_i8(u32 a, u32, bool&) { return u32(i32(std::int8_t(a))); }
u32 sext_i16(u32 a, u32, bool&) { return u32(i32(std::int16_t(a))); }
u32 abs_i32(u32 a, u32, bool& scc) { return nonzero<u32>(i32(a) < 0 ? u32(-i64(i32(a))) : a, scc); }
u64 bitreplicate(u64 a, u64, bool&) {
    u64 r = 0;
    for (unsigned i = 0; i < 32; ++i) r |= ((a >> i) & 1) * (u64(3) << (2 * i));
    return r;
}

// SOPC.
template <class T>
bool eq(T a, T b) {
    return a == b;
}
template <class T>
bool ne(T a, T b) {
    return a != b;
}
bool gt_i(u32 a, u32 b) { return i32(a) > i32(b); }
bool ge_i(u32 a, u32 b) { return i32(a) >= i32(b); }
bool lt_i(u32 a, u32 b) { return i32(a) < i32(b); }
bool le_i(u32 a, u32 b) { return i32(a) <= i32(b); }
bool gt_u(u32 a, u32 b) { return a > b; }
bool ge_u(u32 a, u32 b) { return a >= b; }
bool lt_u(u32 a, u32 b) { return a < b; }
bool le_u(u32 a, u32 b) { return a <= b; }
template <class T>
bool bitcmp0(T a, T b) {
    return ((a >> (b & shift_mask<T>)) & 1) == 0;
}
template <class T>
bool bitcmp1(T a, T b) {
    return ((a >> (b & shift_mask<T>)) & 1) != 0;
}

// ---- instructions reading their destination -------------------------------

template <class T>
void cmov(Wave& w, const ExecInst& e) {
    if (w.scc) write_sdst(w, e.dst, static_cast<T>(read64(w, e.src[0])));
}
template <class T, bool Value>
void bitset(Wave& w, const ExecInst& e) {
    T d = static_cast<T>(read64(w, e.dst));
    const T bit = T(1) << (read32(w, e.src[0]) & shift_mask<T>);
    d = Value ? (d | bit) : (d & ~bit);
    write_sdst(w, e.dst, d);
}

// s_*_saveexec_b64: dst = EXEC, EXEC = f(src, EXEC), SCC = EXEC != 0.
// The *_wrexec forms write the new EXEC to dst instead.
template <u64 (*F)(u64, u64), bool WriteNew>
void saveexec(Wave& w, const ExecInst& e) {
    const u64 src = read64(w, e.src[0]);
    const u64 old_exec = w.exec();
    const u64 new_exec = F(src, old_exec);
    w.set_exec(new_exec);
    w.scc = new_exec != 0;
    write_sdst(w, e.dst, WriteNew ? new_exec : old_exec);
}
u64 ex_and(u64 s, u64 x) { return s & x; }
u64 ex_or(u64 s, u64 x) { return s | x; }
u64 ex_xor(u64 s, u64 x) { return s ^ x; }
u64 ex_andn2(u64 s, u64 x) { return s & ~x; }
u64 ex_orn2(u64 s, u64 x) { return s | ~x; }
u64 ex_nand(u64 s, u64 x) { return ~(s & x); }
u64 ex_nor(u64 s, u64 x) { return ~(s | x); }
u64 ex_xnor(u64 s, u64 x) { return ~(s ^ x); }
u64 ex_andn1(u64 s, u64 x) { return ~s & x; }
u64 ex_orn1(u64 s, u64 x) { return ~s | x; }

// s_movrels: dst = s[src + M0]; s_movreld: s[dst + M0] = src.
template <unsigned Dwords, bool Relative_dst>
void movrel(Wave& w, const ExecInst& e) {
    const u32 m0 = w.sreg[sreg_m0];
    Src dst = e.dst, src = e.src[0];
    Src& moved = Relative_dst ? dst : src;
    if (moved.kind != Src::Kind::sreg) fail(FaultKind::invalid_operand, "s_movrel: the indexed operand is not an SGPR");
    if (moved.index + u64(m0) + Dwords > 102)
        fail(FaultKind::invalid_operand,
             "s_movrel index s" + std::to_string(moved.index) + " + m0 (" + std::to_string(m0) + ") outside the SGPRs");
    moved.index = static_cast<std::uint16_t>(moved.index + m0);
    write_sdst(w, dst, read64(w, src));
}

// ---- SOPK -----------------------------------------------------------------

u32 simm16_signed(const ExecInst& e) { return u32(i32(std::int16_t(e.inst->simm16))); }
u32 simm16_unsigned(const ExecInst& e) { return e.inst->simm16; }

void movk(Wave& w, const ExecInst& e) { write32(w, e.dst, simm16_signed(e)); }
void cmovk(Wave& w, const ExecInst& e) {
    if (w.scc) write32(w, e.dst, simm16_signed(e));
}
template <bool (*F)(u32, u32), bool Signed>
void cmpk(Wave& w, const ExecInst& e) {
    w.scc = F(read32(w, e.dst), Signed ? simm16_signed(e) : simm16_unsigned(e));
}
void addk(Wave& w, const ExecInst& e) {
    bool scc = w.scc;
    write32(w, e.dst, add_i32(read32(w, e.dst), simm16_signed(e), scc));
    w.scc = scc;
}
void mulk(Wave& w, const ExecInst& e) { write32(w, e.dst, read32(w, e.dst) * simm16_signed(e)); }

// ---- program flow ---------------------------------------------------------

void jump(Wave& w, const ExecInst& e) {
    if (e.target == Program::no_target)
        fail(FaultKind::bad_branch_target, "branch target is not an instruction of this kernel");
    const u64 limit = w.group->env->watchdog;
    if (limit && w.executed_through(e.index) > limit)
        fail(FaultKind::watchdog,
             "watchdog: more than " + std::to_string(limit) + " instructions in one wave (endless loop?)");
    w.pc = e.target;
}
void jump_to_address(Wave& w, u64 address) {
    const std::uint32_t index =
        w.group->env->program->index_of(static_cast<std::int64_t>(address - w.group->env->code_base));
    if (address < w.group->env->code_base || index == Program::no_target)
        fault_at(FaultKind::bad_branch_target,
                 "jump to an address that is not an instruction of this kernel or of a function it may call", address);
    w.pc = index;
}
u64 next_pc_address(const Wave& w, const ExecInst& e) { return w.group->env->code_base + e.inst->pc + e.inst->size; }

void branch(Wave& w, const ExecInst& e) { jump(w, e); }
template <bool (*Cond)(const Wave&)>
void cbranch(Wave& w, const ExecInst& e) {
    if (Cond(w)) jump(w, e);
}
bool scc0(const Wave& w) { return !w.scc; }
bool scc1(const Wave& w) { return w.scc; }
bool vccz(const Wave& w) { return w.vcc() == 0; }
bool vccnz(const Wave& w) { return w.vcc() != 0; }
bool execz(const Wave& w) { return w.exec() == 0; }
bool execnz(const Wave& w) { return w.exec() != 0; }

void getpc(Wave& w, const ExecInst& e) { write64(w, e.dst, next_pc_address(w, e)); }
void setpc(Wave& w, const ExecInst& e) { jump_to_address(w, read64(w, e.src[0])); }
void swappc(Wave& w, const ExecInst& e) {
    const u64 target = read64(w, e.src[0]);
    write64(w, e.dst, next_pc_address(w, e));
    jump_to_address(w, target);
}
void call(Wave& w, const ExecInst& e) {
    write64(w, e.dst, next_pc_address(w, e));
    const std::uint32_t index = w.group->env->program->index_of(e.inst->pc + 4 + 4 * i64(std::int16_t(e.inst->simm16)));
    if (index == Program::no_target)
        fail(FaultKind::bad_branch_target, "s_call target is not an instruction of this kernel");
    w.pc = index;
}

void endpgm(Wave& w, const ExecInst&) { w.state = WaveState::ended; }
void barrier(Wave& w, const ExecInst&) { w.state = WaveState::at_barrier; }
void waitcnt(Wave& w, const ExecInst& e) { wait(w, e.wait_vm, e.wait_lgkm); }
void trap(Wave&, const ExecInst&) { fail(FaultKind::trap, "s_trap"); }

// ---- scalar memory ---------------------------------------------------------

// s_load_dword*: address = sbase + offset (immediate and/or soffset), low two
// bits ignored. s_buffer_load_dword*: sbase is a V#; dwords past num_records
// read 0.
template <bool Buffer>
void smem_load(Wave& w, const ExecInst& e) {
    const unsigned dwords = e.dst.dwords;
    u64 offset = u64(i64(e.inst->offset));
    if (e.soffset.kind != Src::Kind::none) offset += read32(w, e.soffset);
    u32* data = issue_sgpr_result(w, e, dwords);
    if (Buffer) {
        u32 words[4];
        for (unsigned i = 0; i < 4; ++i) words[i] = w.sreg[e.src[0].index + i];
        const BufferResource r = BufferResource::from_sgprs(words);
        offset = u32(offset) & ~3u;
        for (unsigned d = 0; d < dwords; ++d) {
            const u64 off = offset + 4 * d;
            data[d] = 0;
            if (off + 4 > r.num_records) continue;
            const std::uint8_t* host = w.group->translator.translate(r.base + off, 4);
            if (!host) fault_at(FaultKind::global_out_of_bounds, "s_buffer_load outside any allocation", r.base + off);
            load_single_copy(&data[d], host, 4);
        }
    } else {
        const u64 address = (read64(w, e.src[0]) + offset) & ~u64(3);
        const std::uint8_t* host = w.group->translator.translate(address, 4ull * dwords);
        if (!host) fault_at(FaultKind::global_out_of_bounds, "s_load outside any allocation", address);
        if (w.group->weak)
            w.group->weak->load(w, address, host, 4u * dwords, scalar_load_bypasses_cache(*e.inst), data,
                                WeakMemory::Cache::scalar);
        else load_single_copy(data, host, 4u * dwords);
        // The inter-workgroup checker sees scalar loads of global memory as
        // one lane's access (lane 0).
        if (w.group->observe_global_memory) {
            MemoryAccess& a = w.group->observed_access;
            a.begin(MemoryAccess::Space::global, false, 1, 4u * dwords);
            a.address[0][0] = address;
            w.group->observer->memory_access(w, e, a);
        }
    }
    w.group->counters.scalar_read_bytes += 4ull * dwords;
}

void smem_store(Wave& w, const ExecInst& e) {
    const unsigned dwords = e.dst.dwords;
    u64 offset = u64(i64(e.inst->offset));
    if (e.soffset.kind != Src::Kind::none) offset += read32(w, e.soffset);
    const u64 address = (read64(w, e.src[0]) + offset) & ~u64(3);
    std::uint8_t* host = w.group->translator.translate(address, 4ull * dwords);
    if (!host) fault_at(FaultKind::global_out_of_bounds, "s_store outside any allocation", address);
    store_single_copy(host, &w.sreg[e.dst.index], 4u * dwords);
    InFlightMemoryOp entry;
    entry.counter = WaitCounter::lgkm_smem;
    entry.writes_memory = true;
    issue(w, e, entry);
}

}  // namespace

std::uint64_t constant64(const Wave& w, const Src& s) {
    return std::uint64_t(w.group->env->program->constant_high[s.index]) << 32 | s.value;
}

void register_scalar(Table& t) {
    const InstClass S = InstClass::salu;
    set_salu<u32, add_u32>(t, Op::s_add_u32);
    set_salu<u32, sub_u32>(t, Op::s_sub_u32);
    set_salu<u32, add_i32>(t, Op::s_add_i32);
    set_salu<u32, sub_i32>(t, Op::s_sub_i32);
    set_salu<u32, addc_u32>(t, Op::s_addc_u32);
    set_salu<u32, subb_u32>(t, Op::s_subb_u32);
    set_salu<u32, min_i32>(t, Op::s_min_i32);
    set_salu<u32, max_i32>(t, Op::s_max_i32);
    set_salu<u32, min_u32>(t, Op::s_min_u32);
    set_salu<u32, max_u32>(t, Op::s_max_u32);
    set_salu<u32, cselect<u32>>(t, Op::s_cselect_b32);
    set_salu<u64, cselect<u64>>(t, Op::s_cselect_b64);
    set_salu<u32, and_<u32>>(t, Op::s_and_b32);
    set_salu<u64, and_<u64>>(t, Op::s_and_b64);
    set_salu<u32, or_<u32>>(t, Op::s_or_b32);
    set_salu<u64, or_<u64>>(t, Op::s_or_b64);
    set_salu<u32, xor_<u32>>(t, Op::s_xor_b32);
    set_salu<u64, xor_<u64>>(t, Op::s_xor_b64);
    set_salu<u32, andn2<u32>>(t, Op::s_andn2_b32);
    set_salu<u64, andn2<u64>>(t, Op::s_andn2_b64);
    set_salu<u32, orn2<u32>>(t, Op::s_orn2_b32);
    set_salu<u64, orn2<u64>>(t, Op::s_orn2_b64);
    set_salu<u32, nand<u32>>(t, Op::s_nand_b32);
    set_salu<u64, nand<u64>>(t, Op::s_nand_b64);
    set_salu<u32, nor<u32>>(t, Op::s_nor_b32);
    set_salu<u64, nor<u64>>(t, Op::s_nor_b64);
    set_salu<u32, xnor<u32>>(t, Op::s_xnor_b32);
    set_salu<u64, xnor<u64>>(t, Op::s_xnor_b64);
    set_salu<u32, lshl<u32>>(t, Op::s_lshl_b32);
    set_salu<u64, lshl<u64>>(t, Op::s_lshl_b64);
    set_salu<u32, lshr<u32>>(t, Op::s_lshr_b32);
    set_salu<u64, lshr<u64>>(t, Op::s_lshr_b64);
    set_salu<u32, ashr<u32>>(t, Op::s_ashr_i32);
    set_salu<u64, ashr<u64>>(t, Op::s_ashr_i64);
    set_salu<u32, bfm<u32>>(t, Op::s_bfm_b32);
    set_salu<u64, bfm<u64>>(t, Op::s_bfm_b64);
    set_salu<u32, mul_i32>(t, Op::s_mul_i32);
    set_salu<u32, mul_hi_u32>(t, Op::s_mul_hi_u32);
    set_salu<u32, mul_hi_i32>(t, Op::s_mul_hi_i32);
    set_salu<u32, bfe<u32, false>>(t, Op::s_bfe_u32);
    set_salu<u32, bfe<u32, true>>(t, Op::s_bfe_i32);
    set_salu<u64, bfe<u64, false>>(t, Op::s_bfe_u64);
    set_salu<u64, bfe<u64, true>>(t, Op::s_bfe_i64);
    set_salu<u32, absdiff_i32>(t, Op::s_absdiff_i32);
    set_salu<u32, lshl_add<1>>(t, Op::s_lshl1_add_u32);
    set_salu<u32, lshl_add<2>>(t, Op::s_lshl2_add_u32);
    set_salu<u32, lshl_add<3>>(t, Op::s_lshl3_add_u32);
    set_salu<u32, lshl_add<4>>(t, Op::s_lshl4_add_u32);
    set_salu<u32, pack_ll>(t, Op::s_pack_ll_b32_b16);
    set_salu<u32, pack_lh>(t, Op::s_pack_lh_b32_b16);
    set_salu<u32, pack_hh>(t, Op::s_pack_hh_b32_b16);

    set_salu<u32, mov<u32>>(t, Op::s_mov_b32);
    set_salu<u64, mov<u64>>(t, Op::s_mov_b64);
    set(t, Op::s_cmov_b32, cmov<u32>, S);
    set(t, Op::s_cmov_b64, cmov<u64>, S);
    set_salu<u32, not_<u32>>(t, Op::s_not_b32);
    set_salu<u64, not_<u64>>(t, Op::s_not_b64);
    set_salu<u32, wqm<u32>>(t, Op::s_wqm_b32);
    set_salu<u64, wqm<u64>>(t, Op::s_wqm_b64);
    set_salu<u32, brev<u32>>(t, Op::s_brev_b32);
    set_salu<u64, brev<u64>>(t, Op::s_brev_b64);
    set_salu<u32, bcnt0<u32>>(t, Op::s_bcnt0_i32_b32);
    set_salu<u64, bcnt0<u64>>(t, Op::s_bcnt0_i32_b64);
    set_salu<u32, bcnt1<u32>>(t, Op::s_bcnt1_i32_b32);
    set_salu<u64, bcnt1<u64>>(t, Op::s_bcnt1_i32_b64);
    set_salu<u32, ff0<u32>>(t, Op::s_ff0_i32_b32);
    set_salu<u64, ff0<u64>>(t, Op::s_ff0_i32_b64);
    set_salu<u32, ff1<u32>>(t, Op::s_ff1_i32_b32);
    set_salu<u64, ff1<u64>>(t, Op::s_ff1_i32_b64);
    set_salu<u32, flbit<u32>>(t, Op::s_flbit_i32_b32);
    set_salu<u64, flbit<u64>>(t, Op::s_flbit_i32_b64);
    set_salu<u32, flbit_signed<u32>>(t, Op::s_flbit_i32);
    set_salu<u64, flbit_signed<u64>>(t, Op::s_flbit_i32_i64);
    set_salu<u32, sext_i8>(t, Op::s_sext_i32_i8);
    set_salu<u32, sext_i16>(t, Op::s_sext_i32_i16);
    set(t, Op::s_bitset0_b32, bitset<u32, false>, S);
    set(t, Op::s_bitset0_b64, bitset<u64, false>, S);
    set(t, Op::s_bitset1_b32, bitset<u32, true>, S);
    set(t, Op::s_bitset1_b64, bitset<u64, true>, S);
    set_salu<u32, quadmask<u32>>(t, Op::s_quadmask_b32);
    set_salu<u64, quadmask<u64>>(t, Op::s_quadmask_b64);
    set_salu<u32, abs_i32>(t, Op::s_abs_i32);
    set_salu<u64, bitreplicate>(t, Op::s_bitreplicate_b64_b32);
    set(t, Op::s_movrels_b32, movrel<1, false>, S);
    set(t, Op::s_movrels_b64, movrel<2, false>, S);
    set(t, Op::s_movreld_b32, movrel<1, true>, S);
    set(t, Op::s_movreld_b64, movrel<2, true>, S);
    set(t, Op::s_and_saveexec_b64, saveexec<ex_and, false>, S);
    set(t, Op::s_or_saveexec_b64, saveexec<ex_or, false>, S);
    set(t, Op::s_xor_saveexec_b64, saveexec<ex_xor, false>, S);
    set(t, Op::s_andn2_saveexec_b64, saveexec<ex_andn2, false>, S);
    set(t, Op::s_orn2_saveexec_b64, saveexec<ex_orn2, false>, S);
    set(t, Op::s_nand_saveexec_b64, saveexec<ex_nand, false>, S);
    set(t, Op::s_nor_saveexec_b64, saveexec<ex_nor, false>, S);
    set(t, Op::s_xnor_saveexec_b64, saveexec<ex_xnor, false>, S);
    set(t, Op::s_andn1_saveexec_b64, saveexec<ex_andn1, false>, S);
    set(t, Op::s_orn1_saveexec_b64, saveexec<ex_orn1, false>, S);
    set(t, Op::s_andn1_wrexec_b64, saveexec<ex_andn1, true>, S);
    set(t, Op::s_andn2_wrexec_b64, saveexec<ex_andn2, true>, S);
    set(t, Op::s_getpc_b64, getpc, S);

    set_salu_compare<u32, eq<u32>>(t, Op::s_cmp_eq_i32);
    set_salu_compare<u32, ne<u32>>(t, Op::s_cmp_lg_i32);
    set_salu_compare<u32, gt_i>(t, Op::s_cmp_gt_i32);
    set_salu_compare<u32, ge_i>(t, Op::s_cmp_ge_i32);
    set_salu_compare<u32, lt_i>(t, Op::s_cmp_lt_i32);
    set_salu_compare<u32, le_i>(t, Op::s_cmp_le_i32);
    set_salu_compare<u32, eq<u32>>(t, Op::s_cmp_eq_u32);
    set_salu_compare<u32, ne<u32>>(t, Op::s_cmp_lg_u32);
    set_salu_compare<u32, gt_u>(t, Op::s_cmp_gt_u32);
    set_salu_compare<u32, ge_u>(t, Op::s_cmp_ge_u32);
    set_salu_compare<u32, lt_u>(t, Op::s_cmp_lt_u32);
    set_salu_compare<u32, le_u>(t, Op::s_cmp_le_u32);
    set_salu_compare<u64, eq<u64>>(t, Op::s_cmp_eq_u64);
    set_salu_compare<u64, ne<u64>>(t, Op::s_cmp_lg_u64);
    set_salu_compare<u32, bitcmp0<u32>>(t, Op::s_bitcmp0_b32);
    set_salu_compare<u32, bitcmp1<u32>>(t, Op::s_bitcmp1_b32);
    set_salu_compare<u64, bitcmp0<u64>>(t, Op::s_bitcmp0_b64);
    set_salu_compare<u64, bitcmp1<u64>>(t, Op::s_bitcmp1_b64);

    set(t, Op::s_movk_i32, movk, S);
    set(t, Op::s_cmovk_i32, cmovk, S);
    set(t, Op::s_cmpk_eq_i32, cmpk<eq<u32>, true>, S);
    set(t, Op::s_cmpk_lg_i32, cmpk<ne<u32>, true>, S);
    set(t, Op::s_cmpk_gt_i32, cmpk<gt_i, true>, S);
    set(t, Op::s_cmpk_ge_i32, cmpk<ge_i, true>, S);
    set(t, Op::s_cmpk_lt_i32, cmpk<lt_i, true>, S);
    set(t, Op::s_cmpk_le_i32, cmpk<le_i, true>, S);
    set(t, Op::s_cmpk_eq_u32, cmpk<eq<u32>, false>, S);
    set(t, Op::s_cmpk_lg_u32, cmpk<ne<u32>, false>, S);
    set(t, Op::s_cmpk_gt_u32, cmpk<gt_u, false>, S);
    set(t, Op::s_cmpk_ge_u32, cmpk<ge_u, false>, S);
    set(t, Op::s_cmpk_lt_u32, cmpk<lt_u, false>, S);
    set(t, Op::s_cmpk_le_u32, cmpk<le_u, false>, S);
    set(t, Op::s_addk_i32, addk, S);
    set(t, Op::s_mulk_i32, mulk, S);

    const InstClass B = InstClass::branch;
    set(t, Op::s_branch, branch, B);
    set(t, Op::s_cbranch_scc0, cbranch<scc0>, B);
    set(t, Op::s_cbranch_scc1, cbranch<scc1>, B);
    set(t, Op::s_cbranch_vccz, cbranch<vccz>, B);
    set(t, Op::s_cbranch_vccnz, cbranch<vccnz>, B);
    set(t, Op::s_cbranch_execz, cbranch<execz>, B);
    set(t, Op::s_cbranch_execnz, cbranch<execnz>, B);
    set(t, Op::s_setpc_b64, setpc, B);
    set(t, Op::s_swappc_b64, swappc, B);
    set(t, Op::s_call_b64, call, B);

    set(t, Op::s_nop, no_effect, InstClass::nop);
    set(t, Op::s_endpgm, endpgm, InstClass::other);
    set(t, Op::s_barrier, barrier, InstClass::barrier);
    set(t, Op::s_waitcnt, waitcnt, InstClass::waitcnt);
    for (Op op : {Op::s_sleep, Op::s_setprio, Op::s_icache_inv, Op::s_incperflevel, Op::s_decperflevel,
                  Op::s_ttracedata, Op::s_sendmsg, Op::s_setkill})
        set(t, op, no_effect, InstClass::other);
    set(t, Op::s_trap, trap, InstClass::other);

    const InstClass M = InstClass::smem;
    for (Op op : {Op::s_load_dword, Op::s_load_dwordx2, Op::s_load_dwordx4, Op::s_load_dwordx8, Op::s_load_dwordx16})
        set(t, op, smem_load<false>, M);
    for (Op op : {Op::s_buffer_load_dword, Op::s_buffer_load_dwordx2, Op::s_buffer_load_dwordx4,
                  Op::s_buffer_load_dwordx8, Op::s_buffer_load_dwordx16})
        set(t, op, smem_load<true>, M);
    for (Op op : {Op::s_store_dword, Op::s_store_dwordx2, Op::s_store_dwordx4}) set(t, op, smem_store, M);
    for (Op op : {Op::s_dcache_discard, Op::s_dcache_discard_x2}) set(t, op, no_effect, M);
}

}  // namespace dppgemm::emu::sem
