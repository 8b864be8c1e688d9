#pragma once
// Per-instruction encoding facts the decoder and the printer share but the
// executor never needs: which modifier bits LLVM accepts in each form of an
// instruction and which of them show in its text (op_forms.inc, probed from
// llvm-objdump by gen/probe.py), and the reverse opcode maps.

#include <cstdint>
#include <string_view>

#include "emu/decode/op_table.hpp"

namespace dppgemm::emu::detail {

// The forms an Op can be encoded in.
enum class Form : std::uint8_t { native, vop3, dpp, sdwa, count };

struct FormBits {
    bool available = false;
    std::uint64_t accepted = 0;  // modifier bits (bit i of the 64-bit instruction) that may be set
    std::uint64_t printed = 0;   // accepted bits that change the text
};

const FormBits& form_bits(Op op, Target target, Form form);

// How LLVM prints an op's operands on a target (DPPGEMM_PRINTING rows of
// op_forms.inc, read off the probes by gen_table.py, which emits the PF_
// names; this is their one definition).
enum PrintFlag : std::uint32_t {
    PF_SRC0_VGPR_NUMBER = 1u << 0,   // src0 is a plain VGPR number (v_swap_b32)
    PF_DS_NO_OFFSET = 1u << 1,       // DS without offset: the field must be zero
    PF_DS_OFFSET_HIDDEN = 1u << 2,   // DS offset decoded but not shown
    PF_DS_TWO_OFFSETS = 1u << 3,     // two 8-bit offsets (read2/write2 forms)
    PF_E32_SUFFIX = 1u << 4,         // LLVM names the 32-bit form with _e32
    PF_E64_SUFFIX = 1u << 5,         // ... and the VOP3 form with _e64
    PF_SWIZZLE_OFFSET = 1u << 6,     // offset printed as swizzle(...)
    PF_F16_SOURCES = 1u << 7,        // 16-bit float sources (literals as half constants)
    PF_I16_SRC0 = 1u << 8,           // 16-bit integer src0
    PF_MFMA_AGPR_DEFAULT = 1u << 9,  // MFMA accumulators in AGPRs even with the acc_cd bit clear
    PF_IMMEDIATE_FIRST = 1u << 10,   // the immediate prints before the register (s_setreg_b32)
    PF_SDATA_NUMBER = 1u << 11,      // sdata holds a number, not a register (s_atc_probe)
    PF_MIXED_PRECISION = 1u << 12,   // v_*_mix*: op_sel_hi defaults to 0, neg_hi bits are abs
    PF_GDS_ONLY = 1u << 13,          // DS that LLVM decodes only with the gds bit set (ds_gws_*)
    PF_DS_ADDR_IS_DATA = 1u << 14,   // the address field holds data: the acc bit makes it an AGPR
    PF_MFMA_NEG = 1u << 15,          // MFMA whose BLGP field holds neg bits (gfx940 f64)
    PF_SDWA_NO_SUFFIX = 1u << 16,    // the SDWA form prints without _sdwa (GCN3 VOPC)
    PF_MIMG_R128 = 1u << 17,         // MIMG bit 15 prints r128 (GCN3), else a16
};

struct OperandPrinting {
    std::uint64_t sext_neg_bits = 0;         // neg bits (of the 64-bit instruction) printed as sext(): integer sources
    std::uint8_t int16_sources = 0;          // bit i: source i is a 16-bit integer (inline floats print as half bits)
    std::uint8_t register_only_sources = 0;  // bit i: constants print "/*invalid immediate*/"
    std::uint8_t ignored_fields = 0;         // bit i (Field): LLVM decodes any value and prints none
    std::uint8_t op_sel_entries = 0;         // op_sel entries LLVM prints (VOP3)
    std::uint32_t flags = 0;                 // PrintFlag

    bool has(PrintFlag f) const { return (flags & f) != 0; }
};

const OperandPrinting& operand_printing(Op op, Target target);

// The op's mnemonic as LLVM spells it on the target: its name, or the GCN3
// name of an op GFX9 renamed (DPPGEMM_SPELLING rows: v_add_u32 for
// v_add_co_u32 on gfx803).
std::string_view spelling(Op op, Target target);

inline bool int16_source(Op op, Target t, int src) { return (operand_printing(op, t).int16_sources >> src) & 1; }
inline bool register_only_source(Op op, Target t, int src) {
    return (operand_printing(op, t).register_only_sources >> src) & 1;
}
inline bool ignored_field(Op op, Target t, int field) { return (operand_printing(op, t).ignored_fields >> field) & 1; }
inline bool print_flag(Op op, Target t, PrintFlag flag) { return operand_printing(op, t).has(flag); }
inline int op_sel_entries(Op op, Target t) { return operand_printing(op, t).op_sel_entries; }
inline bool neg_is_sext(Op op, Target t, int bit) { return (operand_printing(op, t).sext_neg_bits >> bit) & 1; }

// The vdata dwords LLVM prints for an image op with `components` (1..4)
// enabled by dmask, tfe and d16 (DPPGEMM_MIMG_WIDTHS rows of op_forms.inc);
// 0 where LLVM refuses the encoding.
int mimg_vdata_dwords(Op op, Target target, int components, bool tfe, bool d16);

// Each family numbers its opcodes on its own (VOP3's numbering also holds
// the VOP3 forms of VOP1, VOP2 and VOPC ops): the opcode spaces are the
// families.
using Space = Family;
// Op for an opcode number in a space on a target (Op::invalid when none).
Op lookup(Target target, Space space, unsigned opcode);

}  // namespace dppgemm::emu::detail
