// Machine words -> Inst.  One short function per encoding family; which
// fields an instruction uses and how wide they are comes from the opcode
// table, which modifier bits it may carry from op_forms.inc.  A word LLVM
// would not decode becomes Op::invalid (printed `.long 0x...`), so the two
// disassemblers stay in step on any input.

#include <cstring>

#include "emu/decode/encoding_rules.hpp"
#include "emu/decode/inst.hpp"

namespace dppgemm::emu {
namespace {

using detail::Form;
using detail::Space;

constexpr std::uint32_t bits(std::uint64_t word, int lo, int count) {
    return static_cast<std::uint32_t>((word >> lo) & ((1ull << count) - 1));
}

// Cursor over the code bytes: every read is bounds-checked.
struct Reader {
    const std::uint8_t* code;
    std::size_t size;
    std::size_t offset;

    bool has(std::size_t dwords) const { return offset + 4 * dwords <= size; }
    std::uint32_t dword(std::size_t index) const {
        std::uint32_t value;
        std::memcpy(&value, code + offset + 4 * index, 4);
        return value;  // little-endian hosts only (x86-64, aarch64)
    }
};

// LLVM's FeatureGFX9Insts / FeatureGFX90AInsts / FeatureGFX940Insts: the bits
// these encodings add or rename (GCN3, gfx803, lacks the first).
bool gfx9_insts(Target t) { return has(t, Feature::gfx9_insts); }
bool gfx90a_insts(Target t) { return has(t, Feature::gfx90a_insts); }
bool gfx940_insts(Target t) { return has(t, Feature::gfx940_insts); }

// Decodes operand fields; `ok` turns false on anything LLVM rejects.
class Decoder {
public:
    Decoder(Target target, Reader reader) : target_(target), in_(reader) {}

    Inst run();

private:
    Target target_;
    Reader in_;
    Inst inst_;
    bool ok_ = true;
    bool literal_used_ = false;
    std::uint64_t word_ = 0;  // the first 64 bits (word1 = 0 for 32-bit encodings)

    const OpInfo& info() const { return op_info(inst_.op); }

    // A field the instruction does not use must be zero, unless LLVM ignores it.
    void unused_field(int field, unsigned value) {
        if (value && !detail::ignored_field(inst_.op, target_, field)) ok_ = false;
    }

    bool set_op(Space space, unsigned opcode) {
        inst_.op = detail::lookup(target_, space, opcode);
        return inst_.op != Op::invalid;
    }

    // Modifier bits set in the word that LLVM does not accept for this form.
    bool modifiers_ok(Form form, std::uint64_t probed_mask) {
        const detail::FormBits& fb = detail::form_bits(inst_.op, target_, form);
        if (!fb.available) return false;
        return (word_ & probed_mask & ~fb.accepted) == 0;
    }

    // Reads the second dword of a 64-bit encoding; false (and invalid) if the code ends.
    bool second_dword() {
        inst_.size = 8;
        if (!in_.has(2)) {
            ok_ = false;
            return false;
        }
        word_ |= static_cast<std::uint64_t>(in_.dword(1)) << 32;
        return true;
    }
    // src0..src2 of VOP3/VOP3P: 9-bit fields at bits 32, 41, 50 (no literal on gfx9).
    // MFMA: a scalar or constant accumulator input (src2) is one dword, splat.
    void vop3_sources(bool scalar_src2_single = false) {
        Operand* srcs[] = {&inst_.src0, &inst_.src1, &inst_.src2};
        for (int s = 0; s < 3; ++s) {
            unsigned code = bits(word_, 32 + 9 * s, 9);
            int dwords = info().dwords[F_SRC0 + s];
            if (s == 2 && scalar_src2_single && code < 256 && dwords) dwords = mfma_scalar_width(code, dwords);
            // v_accvgpr_read (LLVM 15): the field's low 8 bits name the AGPR, 255 included.
            if (s == 0 && dwords && detail::print_flag(inst_.op, target_, detail::PF_SRC0_VGPR_NUMBER))
                *srcs[s] = vgpr(code & 0xff, 1, info().has(OF_ACC_SRC));
            else if (dwords) *srcs[s] = source(code, dwords, false);
            else unused_field(F_SRC0 + s, code);
        }
    }

    // LLVM's width for a scalar MFMA accumulator input: an SGPR/ttmp tuple
    // where such a register class exists (2, 4, 8, 16), a 64-bit special
    // register by its pair name, anything else one dword.
    static int mfma_scalar_width(unsigned code, int dwords) {
        bool tuple = dwords == 2 || dwords == 4 || dwords == 8 || dwords == 16;
        if (code <= 101 || (code >= 108 && code <= 123)) return tuple ? dwords : 1;
        if (code == 102 || code == 104 || code == 106 || code == 126) return 2;
        return 1;
    }

    // 9-bit source operand (8-bit scalar sources are the same codes below 256).
    Operand source(unsigned code, int dwords, bool literal_ok = true);
    Operand sgpr_dst(unsigned code, int dwords);
    static Operand implicit_vcc() {
        Operand vcc;
        vcc.kind = OperandKind::special;
        vcc.code = 106;
        vcc.dwords = 2;
        return vcc;
    }
    Operand vgpr(unsigned index, int dwords, bool acc = false);
    void literal(Operand& op);

    void sop1();
    void sop2();
    void sopk();
    void sopc();
    void sopp();
    void smem();
    void vop1();
    void vop2();
    void vopc();
    void vop3();
    void vop3p();
    void ds();
    void flat();
    void mubuf();
    void mimg();
    void vop_dpp(Operand& src0);
    void vop_sdwa(Operand& src0, Operand* src1, bool vopc);
};

Operand Decoder::vgpr(unsigned index, int dwords, bool acc) {
    Operand op;
    op.kind = acc ? OperandKind::agpr : OperandKind::vgpr;
    op.dwords = static_cast<std::uint8_t>(dwords);
    op.code = static_cast<std::uint16_t>(256 + index);
    op.index = static_cast<std::uint16_t>(index);
    if (index + dwords > 256) ok_ = false;
    return op;
}

void Decoder::literal(Operand& op) {
    std::size_t index = inst_.size / 4;
    if (!literal_used_) {
        if (!in_.has(index + 1)) {
            ok_ = false;
            return;
        }
        inst_.size = static_cast<std::uint8_t>(inst_.size + 4);
        literal_used_ = true;
    }
    op.kind = OperandKind::literal;
    op.value = in_.dword(inst_.size / 4 - 1);
}

Operand Decoder::source(unsigned code, int dwords, bool literal_ok) {
    Operand op;
    op.code = static_cast<std::uint16_t>(code);
    op.dwords = static_cast<std::uint8_t>(dwords);
    if (code >= 256) return vgpr(code - 256, dwords);
    if (code <= 101) {
        op.kind = OperandKind::sgpr;
        op.index = static_cast<std::uint16_t>(code);
        // LLVM aligns a misaligned tuple down (and warns in a comment).
        if (dwords > 1) op.index = static_cast<std::uint16_t>(code & ~(dwords >= 4 ? 3u : 1u));
        if (op.index + dwords > 102) ok_ = false;
        return op;
    }
    if (code >= 128 && code <= 208) {
        op.kind = OperandKind::inline_int;
        op.value =
            static_cast<std::uint32_t>(code <= 192 ? static_cast<int>(code) - 128 : 192 - static_cast<int>(code));
        return op;
    }
    if (code >= 240 && code <= 248) {
        static constexpr std::uint32_t f32[] = {0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000,
                                                0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983};
        op.kind = OperandKind::inline_float;
        op.value = f32[code - 240];
        return op;
    }
    if (code == 255) {
        if (!literal_ok) ok_ = false;
        literal(op);
        return op;
    }
    bool special = (code >= 102 && code <= 127) || (code >= 235 && code <= 239) || (code >= 251 && code <= 254);
    if (!special) ok_ = false;
    op.kind = OperandKind::special;
    const unsigned ttmp0 = first_ttmp_code(target_);
    if (code >= ttmp0 && code <= 123) {
        op.index = static_cast<std::uint16_t>(code - ttmp0);
        if (dwords > 1) op.index = static_cast<std::uint16_t>(op.index & ~(dwords >= 4 ? 3u : 1u));
        op.code = static_cast<std::uint16_t>(ttmp0 + op.index);
        if (unsigned(op.index) + unsigned(dwords) > 124 - ttmp0) ok_ = false;
    } else if (code >= 108 && code < ttmp0) {
        // GCN3's trap base and trap memory addresses: tba, tma (pairs at 108, 110).
        if (dwords > 2 || (dwords == 2 && code % 2)) ok_ = false;
    } else if (dwords > 1 && code < 128) {
        // Pairs exist for flat_scratch, xnack_mask, vcc, exec only.
        if (!(code == 102 || code == 104 || code == 106 || code == 126) || dwords > 2) ok_ = false;
    }
    return op;
}

Operand Decoder::sgpr_dst(unsigned code, int dwords) {
    if (code >= 128) ok_ = false;  // no constants as destinations
    return source(code, dwords);
}

// ---- scalar ----

void Decoder::sop1() {
    if (!set_op(Space::SOP1, bits(word_, 8, 8))) return;
    const OpInfo& i = info();
    if (i.dwords[F_DST]) inst_.dst = sgpr_dst(bits(word_, 16, 7), i.dwords[F_DST]);
    else unused_field(F_DST, bits(word_, 16, 7));
    if (i.dwords[F_SRC0]) inst_.src0 = source(bits(word_, 0, 8), i.dwords[F_SRC0]);
    else unused_field(F_SRC0, bits(word_, 0, 8));
}

void Decoder::sop2() {
    if (!set_op(Space::SOP2, bits(word_, 23, 7))) return;
    const OpInfo& i = info();
    if (i.dwords[F_DST]) inst_.dst = sgpr_dst(bits(word_, 16, 7), i.dwords[F_DST]);
    inst_.src0 = source(bits(word_, 0, 8), i.dwords[F_SRC0]);
    inst_.src1 = source(bits(word_, 8, 8), i.dwords[F_SRC1]);
}

void Decoder::sopk() {
    if (!set_op(Space::SOPK, bits(word_, 23, 5))) return;
    const OpInfo& i = info();
    inst_.simm16 = static_cast<std::uint16_t>(bits(word_, 0, 16));
    if (i.dwords[F_DST]) inst_.dst = sgpr_dst(bits(word_, 16, 7), i.dwords[F_DST]);
    else unused_field(F_DST, bits(word_, 16, 7));
    if (inst_.op == Op::s_setreg_imm32_b32) {  // the value to write follows as a literal dword
        inst_.src0.dwords = 1;
        literal(inst_.src0);
    }
}

void Decoder::sopc() {
    if (!set_op(Space::SOPC, bits(word_, 16, 7))) return;
    const OpInfo& i = info();
    inst_.src0 = source(bits(word_, 0, 8), i.dwords[F_SRC0]);
    if (i.imm_kind() == ImmKind::gpr_idx) inst_.simm16 = static_cast<std::uint16_t>(bits(word_, 8, 8));
    else inst_.src1 = source(bits(word_, 8, 8), i.dwords[F_SRC1]);
}

void Decoder::sopp() {
    if (!set_op(Space::SOPP, bits(word_, 16, 7))) return;
    inst_.simm16 = static_cast<std::uint16_t>(bits(word_, 0, 16));
    if (info().imm_kind() == ImmKind::none && inst_.simm16 != 0) ok_ = false;
    if (info().has(OF_WAITCNT)) {
        // GCN3: vmcnt is bits 0..3 alone (bits 14..15 are ignored); gfx9 adds its high bits there.
        const unsigned vmcnt_high = gfx9_insts(target_) ? bits(word_, 14, 2) : 0;
        inst_.waitcnt.vmcnt = static_cast<std::uint8_t>(bits(word_, 0, 4) | vmcnt_high << 4);
        inst_.waitcnt.expcnt = static_cast<std::uint8_t>(bits(word_, 4, 3));
        inst_.waitcnt.lgkmcnt = static_cast<std::uint8_t>(bits(word_, 8, 4));
    }
}

void Decoder::smem() {
    if (!second_dword()) return;
    if (!set_op(Space::SMEM, bits(word_, 18, 8))) return;
    const OpInfo& i = info();
    if (!modifiers_ok(Form::native, 0x1c000)) {
        ok_ = false;
        return;
    }
    // GCN3 has no soffset (bit 14 is ignored) and a 20-bit unsigned offset.
    bool imm = bits(word_, 17, 1), soe = bits(word_, 14, 1) && gfx9_insts(target_);
    inst_.glc = bits(word_, 16, 1);
    inst_.smem_imm = imm;
    unsigned sdata = bits(word_, 6, 7);
    if (i.dwords[F_DST]) inst_.dst = source(sdata, i.dwords[F_DST]);
    else unused_field(F_DST, sdata);
    if (i.dwords[F_SRC0]) inst_.src0 = source(bits(word_, 0, 6) * 2, i.dwords[F_SRC0]);
    else unused_field(F_SRC0, bits(word_, 0, 6));
    if (i.dwords[F_SRC2]) {
        if (imm) {
            // gfx9: 21-bit signed byte offset.
            inst_.offset = gfx9_insts(target_) ? static_cast<std::int32_t>(bits(word_, 32, 21) << 11) >> 11
                                               : static_cast<std::int32_t>(bits(word_, 32, 20));
            if (soe) inst_.soffset = source(bits(word_, 57, 7), 1);
        } else {
            inst_.soffset = source(bits(word_, 32, 7), 1);  // offset field holds an SGPR
        }
    }
}

// ---- vector ALU ----

void Decoder::vop_dpp(Operand& src0) {
    if (!second_dword()) return;
    inst_.dpp = true;
    auto w = static_cast<std::uint32_t>(word_ >> 32);
    if (!modifiers_ok(Form::dpp, 0xfcull << 48)) {
        ok_ = false;
        return;
    }
    src0 = vgpr(bits(w, 0, 8), src0.dwords ? src0.dwords : 1);
    Dpp& d = inst_.dpp_ctrl;
    d.ctrl = static_cast<std::uint16_t>(bits(w, 8, 9));
    d.fi = bits(w, 18, 1);
    d.bound_ctrl = bits(w, 19, 1);
    d.bank_mask = static_cast<std::uint8_t>(bits(w, 24, 4));
    d.row_mask = static_cast<std::uint8_t>(bits(w, 28, 4));
    inst_.mods.neg = static_cast<std::uint8_t>(bits(w, 20, 1) | bits(w, 22, 1) << 1);
    inst_.mods.abs = static_cast<std::uint8_t>(bits(w, 21, 1) | bits(w, 23, 1) << 1);
    unsigned c = d.ctrl;
    d.arg = static_cast<std::uint8_t>(c & 0xf);
    if (c <= 0xff) {
        d.kind = DppKind::quad_perm;
        d.arg = static_cast<std::uint8_t>(c);
    } else if (c >= 0x101 && c <= 0x10f) d.kind = DppKind::row_shl;
    else if (c >= 0x111 && c <= 0x11f) d.kind = DppKind::row_shr;
    else if (c >= 0x121 && c <= 0x12f) d.kind = DppKind::row_ror;
    else if (c == 0x130) {
        d.kind = DppKind::wave_shl;
        d.arg = 1;
    } else if (c == 0x134) {
        d.kind = DppKind::wave_rol;
        d.arg = 1;
    } else if (c == 0x138) {
        d.kind = DppKind::wave_shr;
        d.arg = 1;
    } else if (c == 0x13c) {
        d.kind = DppKind::wave_ror;
        d.arg = 1;
    } else if (c == 0x140) d.kind = DppKind::row_mirror;
    else if (c == 0x141) d.kind = DppKind::row_half_mirror;
    else if (c == 0x142) {
        d.kind = DppKind::row_bcast15;
        d.arg = 15;
    } else if (c == 0x143) {
        d.kind = DppKind::row_bcast31;
        d.arg = 31;
    } else if (c >= 0x150 && c <= 0x15f)
        d.kind = has(target_, Feature::row_newbcast) ? DppKind::row_newbcast : DppKind::invalid;
    else d.kind = DppKind::invalid;
}

void Decoder::vop_sdwa(Operand& src0, Operand* src1, bool vopc) {
    if (!second_dword()) return;
    inst_.sdwa = true;
    auto w = static_cast<std::uint32_t>(word_ >> 32);
    std::uint64_t probed = 0xf8f8f8ull << 40;  // bits 43..47, 51..55, 59..63
    if (!modifiers_ok(Form::sdwa, probed)) {
        ok_ = false;
        return;
    }
    // GCN3's SDWA sources are VGPRs (gfx9 added the s0/s1 bits 23 and 31),
    // its VOPC form writes vcc (no sdst) and has clamp, its others no omod.
    const bool gfx9 = gfx9_insts(target_);
    unsigned s0 = bits(w, 0, 8);
    src0 = gfx9 && bits(w, 23, 1) ? source(s0, 1, false) : vgpr(s0, 1);
    if (src1 && gfx9 && bits(w, 31, 1)) *src1 = source(src1->index, 1, false);
    Sdwa& s = inst_.sdwa_sel;
    s.src0_sel = static_cast<std::uint8_t>(bits(w, 16, 3));
    s.src1_sel = static_cast<std::uint8_t>(bits(w, 24, 3));
    inst_.mods.sext = static_cast<std::uint8_t>(bits(w, 19, 1) | bits(w, 27, 1) << 1);
    inst_.mods.neg = static_cast<std::uint8_t>(bits(w, 20, 1) | bits(w, 28, 1) << 1);
    inst_.mods.abs = static_cast<std::uint8_t>(bits(w, 21, 1) | bits(w, 29, 1) << 1);
    if (s.src0_sel > 6 || s.src1_sel > 6) ok_ = false;
    if (!src1 && s.src1_sel) ok_ = false;  // VOP1: no src1
    if (vopc) {
        // bits 8..14: sdst, bit 15: sdst valid (else vcc)
        if (gfx9 && bits(w, 15, 1)) inst_.sdst = sgpr_dst(bits(w, 8, 7), 2);
        if (!gfx9) inst_.clamp = bits(w, 13, 1);
    } else {
        s.dst_sel = static_cast<std::uint8_t>(bits(w, 8, 3));
        s.dst_unused = static_cast<std::uint8_t>(bits(w, 11, 2));
        inst_.clamp = bits(w, 13, 1);
        if (gfx9) inst_.omod = static_cast<std::uint8_t>(bits(w, 14, 2));
        if (s.dst_sel > 6) ok_ = false;
    }
}

void Decoder::vop1() {
    if (!set_op(Space::VOP1, bits(word_, 9, 8))) return;
    const OpInfo& i = info();
    unsigned src = bits(word_, 0, 9);
    inst_.src0.dwords = i.dwords[F_SRC0];
    if (!i.dwords[F_SRC0]) unused_field(F_SRC0, src);  // v_nop: even 0xfa/0xf9 mean nothing
    else if (detail::print_flag(inst_.op, target_, detail::PF_SRC0_VGPR_NUMBER))
        inst_.src0 = vgpr(src & 0xff, 1, i.has(OF_ACC_SRC));  // v_swap_b32
    else if (src == 0xfa) vop_dpp(inst_.src0);
    else if (src == 0xf9) vop_sdwa(inst_.src0, nullptr, false);
    else inst_.src0 = source(src, i.dwords[F_SRC0]);
    // v_accvgpr_mov (LLVM 19): an AGPR-only source; the VGPR codes name AGPRs.
    if (i.has(OF_ACC_SRC) && inst_.src0.kind == OperandKind::vgpr) inst_.src0.kind = OperandKind::agpr;
    unsigned dst = bits(word_, 17, 8);
    if (i.dwords[F_DST])
        inst_.dst = i.has(OF_SCALAR_DST) ? sgpr_dst(dst, 1) : vgpr(dst, i.dwords[F_DST], i.has(OF_ACC_DST));
    else unused_field(F_DST, dst);
    if ((inst_.dpp || inst_.sdwa) && !i.dwords[F_SRC0]) ok_ = false;
}

void Decoder::vop2() {
    if (!set_op(Space::VOP2, bits(word_, 25, 6))) return;
    const OpInfo& i = info();
    unsigned src = bits(word_, 0, 9);
    inst_.src0.dwords = i.dwords[F_SRC0];
    inst_.src1 = vgpr(bits(word_, 9, 8), i.dwords[F_SRC1]);
    if (src == 0xfa) vop_dpp(inst_.src0);
    else if (src == 0xf9) vop_sdwa(inst_.src0, &inst_.src1, false);
    else inst_.src0 = source(src, i.dwords[F_SRC0]);
    inst_.dst = vgpr(bits(word_, 17, 8), i.dwords[F_DST]);
    if (i.has(OF_LITERAL_K)) {
        if (inst_.dpp || inst_.sdwa) ok_ = false;
        literal(inst_.src2);  // K
    }
    // The 32-bit forms name vcc implicitly; give it the place the VOP3 form's
    // explicit operand has, so both forms read alike: carry-out in sdst,
    // carry-in / lane mask in src2.
    if (i.has(OF_VOP3B)) inst_.sdst = implicit_vcc();
    if (i.has(OF_CARRY_IN)) inst_.src2 = implicit_vcc();
}

void Decoder::vopc() {
    if (!set_op(Space::VOPC, bits(word_, 17, 8))) return;
    const OpInfo& i = info();
    unsigned src = bits(word_, 0, 9);
    inst_.src0.dwords = i.dwords[F_SRC0];
    inst_.src1 = vgpr(bits(word_, 9, 8), i.dwords[F_SRC1]);
    inst_.sdst = implicit_vcc();  // unless SDWA names an SGPR pair
    if (src == 0xfa) vop_dpp(inst_.src0);
    else if (src == 0xf9) vop_sdwa(inst_.src0, &inst_.src1, true);
    else inst_.src0 = source(src, i.dwords[F_SRC0]);
}

void Decoder::vop3() {
    if (!second_dword()) return;
    if (!set_op(Space::VOP3, bits(word_, 16, 10))) return;
    const OpInfo& i = info();
    bool promoted = i.family != Family::VOP3;
    bool vop3b = i.has(OF_VOP3B);
    // VOP3b: bits 8..14 hold the carry-out SGPR pair, not abs/op_sel.
    std::uint64_t probed = (vop3b ? 0x8000ull : 0xff00ull) | (0x1full << 59);
    if (!modifiers_ok(promoted ? Form::vop3 : Form::native, probed)) {
        ok_ = false;
        return;
    }
    unsigned vdst = bits(word_, 0, 8);
    if (i.family == Family::VOPC) inst_.sdst = sgpr_dst(vdst, 2);  // the lane mask, like vcc in e32
    else if (i.has(OF_SCALAR_DST)) inst_.dst = sgpr_dst(vdst, 1);
    else if (i.dwords[F_DST]) inst_.dst = vgpr(vdst, i.dwords[F_DST], i.has(OF_ACC_DST));
    else unused_field(F_DST, vdst);
    if (vop3b) inst_.sdst = sgpr_dst(bits(word_, 8, 7), 2);
    vop3_sources();
    if (i.has(OF_ACC_SRC) && inst_.src0.kind == OperandKind::vgpr) inst_.src0.kind = OperandKind::agpr;
    if (!vop3b) {
        inst_.mods.abs = static_cast<std::uint8_t>(bits(word_, 8, 3));
        inst_.mods.op_sel = static_cast<std::uint8_t>(bits(word_, 11, 4));
    }
    inst_.clamp = bits(word_, 15, 1);
    inst_.omod = static_cast<std::uint8_t>(bits(word_, 59, 2));
    inst_.mods.neg = static_cast<std::uint8_t>(bits(word_, 61, 3));
}

void Decoder::vop3p() {
    if (!second_dword()) return;
    if (!set_op(Space::VOP3P, bits(word_, 16, 7))) return;
    const OpInfo& i = info();
    if (!modifiers_ok(Form::native, 0xff00ull | (0x1full << 59))) {
        ok_ = false;
        return;
    }
    bool mfma = i.has(OF_MFMA);
    bool acc_cd = mfma && (detail::print_flag(inst_.op, target_, detail::PF_MFMA_AGPR_DEFAULT) || bits(word_, 15, 1));
    unsigned vdst = bits(word_, 0, 8);
    if (i.dwords[F_DST]) inst_.dst = vgpr(vdst, i.dwords[F_DST], acc_cd || (!mfma && i.has(OF_ACC_DST)));
    else unused_field(F_DST, vdst);
    vop3_sources(mfma);
    if (mfma) {
        inst_.cbsz = static_cast<std::uint8_t>(bits(word_, 8, 3));
        inst_.abid = static_cast<std::uint8_t>(bits(word_, 11, 4));
        if (detail::print_flag(inst_.op, target_, detail::PF_MFMA_NEG))
            inst_.mods.neg = static_cast<std::uint8_t>(bits(word_, 61, 3));
        else inst_.blgp = static_cast<std::uint8_t>(bits(word_, 61, 3));
        if (bits(word_, 59, 1) && inst_.src0.kind == OperandKind::vgpr) inst_.src0.kind = OperandKind::agpr;
        if (bits(word_, 60, 1) && inst_.src1.kind == OperandKind::vgpr) inst_.src1.kind = OperandKind::agpr;
        // C follows D into the AGPRs; the sparse ops' src2 (as wide as one
        // dword, not as D) is their index register, always a VGPR.
        if (acc_cd && inst_.src2.kind == OperandKind::vgpr && i.dwords[F_SRC2] == i.dwords[F_DST])
            inst_.src2.kind = OperandKind::agpr;
        return;
    }
    if (detail::print_flag(inst_.op, target_, detail::PF_SRC0_VGPR_NUMBER))
        inst_.src0 = vgpr(bits(word_, 32, 8), 1, i.has(OF_ACC_SRC));
    // v_accvgpr_read (LLVM 19): an AGPR-only source; the VGPR codes name AGPRs.
    if (i.has(OF_ACC_SRC) && inst_.src0.kind == OperandKind::vgpr) inst_.src0.kind = OperandKind::agpr;
    inst_.mods.neg_hi = static_cast<std::uint8_t>(bits(word_, 8, 3));
    if (detail::print_flag(inst_.op, target_, detail::PF_MIXED_PRECISION)) {  // v_fma_mix*: those bits are abs
        inst_.mods.abs = inst_.mods.neg_hi;
        inst_.mods.neg_hi = 0;
    }
    inst_.mods.op_sel = static_cast<std::uint8_t>(bits(word_, 11, 3));
    inst_.mods.op_sel_hi = static_cast<std::uint8_t>(bits(word_, 59, 2) | bits(word_, 14, 1) << 2);
    inst_.clamp = bits(word_, 15, 1);
    inst_.mods.neg = static_cast<std::uint8_t>(bits(word_, 61, 3));
}

// ---- memory ----

void Decoder::ds() {
    if (!second_dword()) return;
    if (!set_op(Space::DS, bits(word_, 17, 8))) return;
    const OpInfo& i = info();
    // A GDS-only op requires the gds bit rather than accepting it.
    const bool gds_only = detail::print_flag(inst_.op, target_, detail::PF_GDS_ONLY);
    if ((gds_only && !bits(word_, 16, 1)) || !modifiers_ok(Form::native, (gds_only ? 0 : 1ull << 16) | (1ull << 25))) {
        ok_ = false;
        return;
    }
    bool acc = bits(word_, 25, 1) && gfx90a_insts(target_);
    const bool addr_is_data = detail::print_flag(inst_.op, target_, detail::PF_DS_ADDR_IS_DATA);
    inst_.gds = bits(word_, 16, 1);
    if (detail::print_flag(inst_.op, target_, detail::PF_DS_NO_OFFSET) && bits(word_, 0, 16)) ok_ = false;
    inst_.offset0 = static_cast<std::uint8_t>(bits(word_, 0, 8));
    inst_.offset1 = static_cast<std::uint8_t>(bits(word_, 8, 8));
    inst_.offset = static_cast<std::int32_t>(bits(word_, 0, 16));
    struct Field {
        Operand* op;
        int slot;
        int lo;
        bool data;
    };
    const Field fields[] = {{&inst_.dst, F_DST, 56, true},
                            {&inst_.src0, F_SRC0, 32, false},
                            {&inst_.src1, F_SRC1, 40, true},
                            {&inst_.src2, F_SRC2, 48, true}};
    for (const Field& f : fields) {
        unsigned index = bits(word_, f.lo, 8);
        if (i.dwords[f.slot])
            *f.op = vgpr(index, i.dwords[f.slot], acc && (f.data || (f.slot == F_SRC0 && addr_is_data)));
        else unused_field(f.slot, index);
    }
}

void Decoder::flat() {
    if (!second_dword()) return;
    static constexpr Space segs[] = {Space::FLAT, Space::SCRATCH, Space::GLOBAL, Space::FLAT};
    unsigned seg = bits(word_, 14, 2);
    if (seg == 3 || !set_op(segs[seg], bits(word_, 18, 7))) {
        inst_.op = Op::invalid;
        return;
    }
    const OpInfo& i = info();
    if (!modifiers_ok(Form::native, (1ull << 13) | (1ull << 16) | (1ull << 17) | (1ull << 25) | (1ull << 55))) {
        ok_ = false;
        return;
    }
    bool acc = bits(word_, 55, 1) && gfx90a_insts(target_);
    inst_.lds = bits(word_, 13, 1);
    inst_.glc = bits(word_, 16, 1);
    inst_.slc = bits(word_, 17, 1);
    inst_.sc1 = gfx90a_insts(target_) && bits(word_, 25, 1);  // gfx90a: scc, gfx940: sc1
    // FLAT: 12-bit unsigned offset; GLOBAL/SCRATCH: 13-bit signed.
    inst_.offset = seg == 0 ? static_cast<std::int32_t>(bits(word_, 0, 12))
                            : static_cast<std::int32_t>(bits(word_, 0, 13) << 19) >> 19;
    if (seg == 0 && bits(word_, 12, 1)) ok_ = false;
    unsigned saddr = bits(word_, 48, 7);
    bool has_saddr = seg != 0 && saddr != 0x7f;
    // gfx940 SCRATCH: bit 13 is SVE (a VGPR address is present), not lds.
    bool sve = gfx940_insts(target_) && seg == 1 && inst_.lds;
    if (gfx940_insts(target_) && seg == 1) inst_.lds = false;
    if (seg == 0 && saddr != 0) ok_ = false;  // FLAT has no SGPR base: the field must be zero
    if (has_saddr) inst_.soffset = source(saddr, seg == 2 ? 2 : 1);
    else if (seg != 0) inst_.soffset.kind = OperandKind::off;
    // With an SGPR base, GLOBAL's VGPR address shrinks to a 32-bit offset;
    // SCRATCH drops it altogether (printed `off`).
    unsigned addr = bits(word_, 32, 8);
    int addr_dwords = i.dwords[F_SRC0];
    if (has_saddr && seg == 2) addr_dwords = 1;
    if (sve) addr_dwords = 1;
    if (seg == 1 && (gfx940_insts(target_) ? !sve : has_saddr)) {
        inst_.src0.kind = OperandKind::off;
        if (addr && !gfx940_insts(target_)) ok_ = false;  // gfx940 ignores vaddr without SVE
    } else if (addr_dwords) {
        inst_.src0 = vgpr(addr, addr_dwords);
    } else {
        unused_field(F_SRC0, addr);
    }
    unsigned data = bits(word_, 40, 8), vdst = bits(word_, 56, 8);
    if (i.dwords[F_SRC1]) inst_.src1 = vgpr(data, i.dwords[F_SRC1], acc);
    else unused_field(F_SRC1, data);
    // Atomics write their pre-op value back only with glc (sc0).
    int dst_dwords = i.has(OF_ATOMIC) && !inst_.glc ? 0 : i.dwords[F_DST];
    if (dst_dwords) inst_.dst = vgpr(vdst, dst_dwords, acc);
    else unused_field(F_DST, vdst);
}

void Decoder::mubuf() {
    if (!second_dword()) return;
    if (!set_op(Space::MUBUF, bits(word_, 18, 7))) return;
    const OpInfo& i = info();
    const std::uint64_t probed = (0x3full << 12) | (1ull << 25) | (1ull << 55);
    if (!modifiers_ok(Form::native, probed & ~(1ull << 12))) {
        ok_ = false;
        return;
    }
    inst_.offset = static_cast<std::int32_t>(bits(word_, 0, 12));
    inst_.offen = bits(word_, 12, 1);
    inst_.idxen = bits(word_, 13, 1);
    inst_.glc = bits(word_, 14, 1);
    inst_.sc1 = gfx90a_insts(target_) && bits(word_, 15, 1);  // gfx90a: scc, gfx940: sc1
    inst_.lds = bits(word_, 16, 1);
    inst_.slc = bits(word_, 17, 1);
    bool acc = gfx90a_insts(target_) && bits(word_, 55, 1);
    inst_.tfe = !gfx90a_insts(target_) && bits(word_, 55, 1);
    unsigned vaddr = bits(word_, 32, 8);
    int addr_dwords = (inst_.offen ? 1 : 0) + (inst_.idxen ? 1 : 0);
    if (addr_dwords && i.dwords[F_SRC0]) inst_.src0 = vgpr(vaddr, addr_dwords);
    else inst_.src0.kind = OperandKind::off;
    if (addr_dwords && !i.dwords[F_SRC0]) ok_ = false;
    unsigned vdata = bits(word_, 40, 8);
    // GCN3's d16 format ops are unpacked: one VGPR per component (LLVM's FeatureUnpackedD16VMem).
    const bool unpacked_d16 = !gfx9_insts(target_) && i.has(OF_D16) && i.components > 0;
    if (i.dwords[F_DST]) inst_.dst = vgpr(vdata, unpacked_d16 ? i.components : i.dwords[F_DST], acc);
    if (!i.dwords[F_SRC2]) {  // buffer_wbinvl1 and friends: no operands at all
        inst_.src0 = Operand{};
        return;
    }
    inst_.src2 = source(bits(word_, 48, 5) * 4, 4);
    inst_.soffset = source(bits(word_, 56, 8), 1, false);
}

// MIMG (GCN3 and Vega ISA guides, "MIMG" microcode format): dmask 8..11,
// unorm 12, glc 13, da 14, r128/a16 15, tfe 16 (gfx90a: AGPR data), lwe 17,
// op 18..24, slc 25; vaddr 32..39, vdata 40..47, srsrc 48..52 (SGPR / 4),
// ssamp 53..57, d16 63; gfx90a: scc in bit 7.
void Decoder::mimg() {
    if (!second_dword()) return;
    if (!set_op(Space::MIMG, bits(word_, 18, 7))) return;
    const OpInfo& i = info();
    const std::uint64_t probed = 0xffull | (0x3full << 12) | (1ull << 25) | (0x3full << 58);
    if (!modifiers_ok(Form::native, probed)) {
        ok_ = false;
        return;
    }
    inst_.dmask = static_cast<std::uint8_t>(bits(word_, 8, 4));
    inst_.unorm = bits(word_, 12, 1);
    inst_.glc = bits(word_, 13, 1);
    inst_.da = bits(word_, 14, 1);
    inst_.a16 = bits(word_, 15, 1);
    const bool acc = gfx90a_insts(target_) && bits(word_, 16, 1);
    inst_.tfe = !gfx90a_insts(target_) && bits(word_, 16, 1);
    inst_.sc1 = gfx90a_insts(target_) && bits(word_, 7, 1);
    inst_.lwe = bits(word_, 17, 1);
    inst_.slc = bits(word_, 25, 1);
    inst_.d16 = bits(word_, 63, 1);
    int components = 0;
    for (unsigned m = inst_.dmask; m; m &= m - 1) ++components;
    int data_dwords = detail::mimg_vdata_dwords(inst_.op, target_, components ? components : 1, inst_.tfe, inst_.d16);
    if (!data_dwords) {
        ok_ = false;
        return;
    }
    unsigned vdata = bits(word_, 40, 8);
    // LLVM keeps the width it first decoded when the widened tuple would run
    // past the last VGPR.
    if (vdata + static_cast<unsigned>(data_dwords) > 256) data_dwords = i.dwords[F_DST];
    inst_.dst = vgpr(vdata, data_dwords, acc);
    inst_.src0 = vgpr(bits(word_, 32, 8), i.dwords[F_SRC0]);
    inst_.src2 = source(bits(word_, 48, 5) * 4, i.dwords[F_SRC2]);
    if (inst_.src2.kind != OperandKind::sgpr && inst_.src2.kind != OperandKind::special) ok_ = false;
    const unsigned ssamp = bits(word_, 53, 5);
    if (i.dwords[F_SRC1]) {
        inst_.src1 = source(ssamp * 4, i.dwords[F_SRC1]);
        if (inst_.src1.kind != OperandKind::sgpr && inst_.src1.kind != OperandKind::special) ok_ = false;
    } else {
        unused_field(F_SRC1, ssamp);
    }
}

Inst Decoder::run() {
    inst_.pc = static_cast<std::uint32_t>(in_.offset);
    std::uint32_t w = in_.dword(0);
    inst_.word0 = w;
    word_ = w;
    unsigned top = w >> 23;  // 9 bits
    if ((w >> 30) == 2) {
        if (top == 0x17d) {
            inst_.encoding = Encoding::SOP1;
            sop1();
        } else if (top == 0x17e) {
            inst_.encoding = Encoding::SOPC;
            sopc();
        } else if (top == 0x17f) {
            inst_.encoding = Encoding::SOPP;
            sopp();
        } else if ((w >> 28) == 0xb) {
            inst_.encoding = Encoding::SOPK;
            sopk();
        } else {
            inst_.encoding = Encoding::SOP2;
            sop2();
        }
    } else if ((w >> 31) == 0) {
        unsigned top7 = w >> 25;
        if (top7 == 0x3f) {
            inst_.encoding = Encoding::VOP1;
            vop1();
        } else if (top7 == 0x3e) {
            inst_.encoding = Encoding::VOPC;
            vopc();
        } else {
            inst_.encoding = Encoding::VOP2;
            vop2();
        }
    } else {
        switch (w >> 26) {
        case 0x30:
            inst_.encoding = Encoding::SMEM;
            smem();
            break;
        case 0x34:
            if (((w >> 23) & 7) == 7) {
                inst_.encoding = Encoding::VOP3P;
                vop3p();
            } else {
                inst_.encoding = Encoding::VOP3;
                vop3();
            }
            break;
        case 0x36:
            inst_.encoding = Encoding::DS;
            ds();
            break;
        case 0x37:
            inst_.encoding = Encoding::FLAT;
            flat();
            break;
        case 0x38:
            inst_.encoding = Encoding::MUBUF;
            mubuf();
            break;
        case 0x3c:
            inst_.encoding = Encoding::MIMG;
            mimg();
            break;
        default: ok_ = false; break;
        }
    }
    if (!ok_ || inst_.op == Op::invalid) {
        Inst invalid;
        invalid.pc = inst_.pc;
        invalid.word0 = w;
        invalid.size = 4;
        return invalid;
    }
    return inst_;
}

}  // namespace

Inst decode_one(Target target, const std::uint8_t* code, std::size_t size, std::size_t offset) {
    if (code == nullptr || offset + 4 > size || offset + 4 < offset) {
        Inst invalid;
        invalid.pc = static_cast<std::uint32_t>(offset);
        return invalid;
    }
    return Decoder(target, Reader{code, size, offset}).run();
}

std::vector<Inst> decode_all(Target target, const std::uint8_t* code, std::size_t size) {
    std::vector<Inst> out;
    out.reserve(size / 6);
    for (std::size_t offset = 0; offset + 4 <= size;) {
        out.push_back(decode_one(target, code, size, offset));
        offset += out.back().size;
    }
    return out;
}

}  // namespace dppgemm::emu
