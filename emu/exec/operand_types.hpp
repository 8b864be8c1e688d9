#pragma once
// What each operand of a VALU instruction holds, as the ISA defines the op
// (the pseudo-code's S0.f32, S1.i32, D0.u32 ...): the op table's type columns
// (`types=` in emu/decode/gen/op_semantics.txt). The denorm modes act on operands, not on ops: an fp32
// mode flushes the f32 operands of an op and leaves its integer ones alone
// (v_cvt_f32_u32 reads S0.u32, v_ldexp_f32 reads S1.i32, v_cvt_i32_f32
// writes D0.i32), the fp16/fp64 mode its f16 and f64 operands.

#include <cstdint>

#include "emu/decode/op_table.hpp"

namespace dppgemm::emu {

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
