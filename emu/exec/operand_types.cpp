#include "emu/exec/operand_types.hpp"

#include <array>

namespace dppgemm::emu {
namespace {

using T = OperandType;
constexpr T none = T::none, b16 = T::b16, b32 = T::b32, b64 = T::b64, b128 = T::b128, f16 = T::f16, f32 = T::f32, f64 = T::f64,
            pk_b16 = T::pk_b16, pk_f16 = T::pk_f16, pk_f32 = T::pk_f32, mask = T::mask, mix = T::mix;

const std::array<OperandTypes, op_count>& table() {
    static const std::array<OperandTypes, op_count> rows = [] {
        std::array<OperandTypes, op_count> t{};
#define DPPGEMM_OPERANDS(op, d, s0, s1, s2) t[static_cast<std::size_t>(Op::op)] = OperandTypes{d, {s0, s1, s2}};
#include "emu/exec/operand_types.inc"
#undef DPPGEMM_OPERANDS
        return t;
    }();
    return rows;
}

}  // namespace

const OperandTypes& operand_types(Op op) { return table()[static_cast<std::size_t>(op)]; }

unsigned operand_dwords(OperandType type) {
    switch (type) {
    case T::undeclared:
    case T::none: return 0;
    case T::b64:
    case T::f64:
    case T::pk_f32:
    case T::mask: return 2;
    case T::b128: return 4;
    default: return 1;
    }
}

const char* operand_type_name(OperandType type) {
    static constexpr const char* names[] = {"undeclared", "none", "b16",    "b32",    "b64",  "b128", "f16", "f32",
                                            "f64",        "pk_b16", "pk_f16", "pk_f32", "mask", "mix"};
    return names[static_cast<std::size_t>(type)];
}

}  // namespace dppgemm::emu
