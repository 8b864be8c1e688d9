#pragma once
// What each operand of a VALU instruction holds, as the ISA defines the op
// (the pseudo-code's S0.f32, S1.i32, D0.u32 ...): one row per op in
// operand_types.inc. The denorm modes act on operands, not on ops: an fp32
// mode flushes the f32 operands of an op and leaves its integer ones alone
// (v_cvt_f32_u32 reads S0.u32, v_ldexp_f32 reads S1.i32, v_cvt_i32_f32
// writes D0.i32), the fp16/fp64 mode its f16 and f64 operands.

#include <cstdint>

#include "emu/decode/op_table.hpp"

namespace dppgemm::emu {

enum class OperandType : std::uint8_t {
    undeclared,  // no row for the op (a VALU op needs one: tests/exec checks it)
    none,        // the field is not used
    b16,         // 16-bit integer / bits (the low half, or the op_sel half)
    b32,         // 32-bit integer / bits
    b64,         // 64-bit integer / bits
    b128,        // 128-bit integer / bits (v_mqsad_u32_u8)
    f16,
    f32,
    f64,
    pk_b16,      // two 16-bit integers
    pk_f16,      // two f16
    pk_f32,      // two f32 (a register pair)
    mask,        // a 64-bit lane mask: VOPC result, carry-in, v_cndmask's condition
    mix,         // v_fma_mix*: f32, or f16 when the op_sel_hi bit is set
};

// Destination and sources, in the op table's field order (F_DST, F_SRC0..2).
struct OperandTypes {
    OperandType dst = OperandType::undeclared;
    OperandType src[3] = {OperandType::undeclared, OperandType::undeclared, OperandType::undeclared};

    bool declared() const { return dst != OperandType::undeclared; }
};

const OperandTypes& operand_types(Op op);

// Dwords an operand of this type occupies (0 for none/undeclared).
unsigned operand_dwords(OperandType type);
const char* operand_type_name(OperandType type);

}  // namespace dppgemm::emu
