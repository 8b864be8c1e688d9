#include "emu/exec/operand_types.hpp"

#include <array>

namespace dppgemm::emu {

const OperandTypes& operand_types(Op op) {
    static const std::array<OperandTypes, op_count> rows = [] {
        std::array<OperandTypes, op_count> t{};
        for (std::size_t i = 0; i < op_count; ++i) {
            const OperandType* types = op_info(static_cast<Op>(i)).types;
            t[i] = OperandTypes{types[F_DST], {types[F_SRC0], types[F_SRC1], types[F_SRC2]}};
        }
        return t;
    }();
    return rows[static_cast<std::size_t>(op)];
}

unsigned operand_dwords(OperandType type) {
    switch (type) {
    case OperandType::undeclared:
    case OperandType::none: return 0;
    case OperandType::b64:
    case OperandType::f64:
    case OperandType::pk_f32:
    case OperandType::mask: return 2;
    case OperandType::b128: return 4;
    default: return 1;
    }
}

const char* operand_type_name(OperandType type) {
    static constexpr const char* names[] = {"undeclared", "none", "b16",    "b32",    "b64",    "b128", "f16",
                                            "f32",        "f64",  "pk_b16", "pk_f16", "pk_f32", "mask", "mix"};
    return names[static_cast<std::size_t>(type)];
}

}  // namespace dppgemm::emu
