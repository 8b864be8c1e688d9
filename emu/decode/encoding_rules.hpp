#pragma once
// Per-instruction encoding facts the decoder and the printer share but the
// executor never needs: which modifier bits LLVM accepts in each form of an
// instruction and which of them show in its text (op_forms.inc, probed from
// llvm-objdump by gen/probe.py), and the reverse opcode maps.

#include <cstdint>

#include "emu/decode/op_table.hpp"

namespace dppgemm::emu::detail {

// The forms an Op can be encoded in, plus `operands`: per-source printing
// facts (accepted = the neg bits that print as sext(), printed = mask of
// sources that are 16-bit integers).
enum class Form : std::uint8_t { native, vop3, dpp, sdwa, operands, count };

struct FormBits {
    bool available = false;
    std::uint64_t accepted = 0;  // modifier bits (bit i of the 64-bit instruction) that may be set
    std::uint64_t printed = 0;   // accepted bits that change the text
};

const FormBits& form_bits(Op op, Target target, Form form);

// From Form::operands: a 16-bit integer source (inline floats print as half
// bits), a register-only source (constants print "/*invalid immediate*/"),
// an operand field LLVM ignores (any value decodes).
inline bool int16_source(Op op, Target t, int src) { return (form_bits(op, t, Form::operands).printed >> src) & 1; }
inline bool register_only_source(Op op, Target t, int src) {
    return (form_bits(op, t, Form::operands).printed >> (8 + src)) & 1;
}
inline bool ignored_field(Op op, Target t, int field) {
    return (form_bits(op, t, Form::operands).printed >> (16 + field)) & 1;
}
inline bool ds_offset_unused(Op op, Target t) { return (form_bits(op, t, Form::operands).printed >> 20) & 1; }
inline bool ds_offset_hidden(Op op, Target t) { return (form_bits(op, t, Form::operands).printed >> 21) & 1; }
inline bool e32_suffix(Op op, Target t) { return (form_bits(op, t, Form::operands).printed >> 22) & 1; }
inline bool e64_suffix(Op op, Target t) { return (form_bits(op, t, Form::operands).printed >> 23) & 1; }
inline bool swizzle_offset(Op op, Target t) { return (form_bits(op, t, Form::operands).printed >> 24) & 1; }
inline int op_sel_entries(Op op, Target t) { return (form_bits(op, t, Form::operands).printed >> 25) & 7; }
inline bool f16_sources(Op op, Target t) { return (form_bits(op, t, Form::operands).printed >> 28) & 1; }
inline bool i16_src0(Op op, Target t) { return (form_bits(op, t, Form::operands).printed >> 29) & 1; }
inline bool mfma_agpr_default(Op op, Target t) { return (form_bits(op, t, Form::operands).printed >> 30) & 1; }
inline bool ds_two_offsets(Op op, Target t) { return (form_bits(op, t, Form::operands).printed >> 3) & 1; }
inline bool immediate_first(Op op, Target t) { return (form_bits(op, t, Form::operands).printed >> 4) & 1; }
inline bool sdata_is_number(Op op, Target t) { return (form_bits(op, t, Form::operands).printed >> 5) & 1; }
inline bool mixed_precision(Op op, Target t) { return (form_bits(op, t, Form::operands).printed >> 31) & 1; }
inline bool src0_vgpr_number(Op op, Target t) { return (form_bits(op, t, Form::operands).printed >> 12) & 1; }
inline bool neg_is_sext(Op op, Target t, int bit) { return (form_bits(op, t, Form::operands).accepted >> bit) & 1; }

// Encoding spaces with their own opcode numbering.
enum class Space : std::uint8_t {
    SOP1, SOP2, SOPK, SOPC, SOPP, SMEM, VOP1, VOP2, VOPC, VOP3, VOP3P, DS, FLAT, SCRATCH, GLOBAL, MUBUF, count
};
// Op for an opcode number in a space on a target (Op::invalid when none).
Op lookup(Target target, Space space, unsigned opcode);

}  // namespace dppgemm::emu::detail
