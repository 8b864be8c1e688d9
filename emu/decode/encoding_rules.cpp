#include "emu/decode/encoding_rules.hpp"

#include <array>
#include <string_view>
#include <vector>

namespace dppgemm::emu::detail {
namespace {

struct FormRow {
    Op op;
    int target;
    Form form;
    std::uint64_t accepted, printed;
};

constexpr FormRow form_rows[] = {
#define DPPGEMM_FORMS(name, target, form, accepted, printed) {Op::name, target, Form::form, accepted, printed},
#include "emu/decode/op_forms.inc"
};

struct PrintingRow {
    Op op;
    int target;
    OperandPrinting printing;
};

constexpr PrintingRow printing_rows[] = {
#define DPPGEMM_PRINTING(name, target, sext, int16, register_only, ignored, op_sel, flags) \
    {Op::name, target, {sext, int16, register_only, ignored, op_sel, static_cast<std::uint32_t>(flags)}},
#include "emu/decode/op_forms.inc"
};

struct SpellingRow {
    Op op;
    int target;
    std::string_view spelling;
};

constexpr SpellingRow spelling_rows[] = {
#define DPPGEMM_SPELLING(name, target, spelling) {Op::name, target, #spelling},
#include "emu/decode/op_forms.inc"
};

struct MimgWidthsRow {
    Op op;
    int target;
    std::uint64_t widths;
};

constexpr MimgWidthsRow mimg_width_rows[] = {
#define DPPGEMM_MIMG_WIDTHS(name, target, widths) {Op::name, target, widths},
#include "emu/decode/op_forms.inc"
};

// Opcodes per family (Family order).
constexpr int space_size[] = {256, 128, 32, 256, 128, 256, 256, 64, 256, 1024, 128, 256, 128, 128, 128, 128, 128};
static_assert(sizeof(space_size) / sizeof(space_size[0]) == family_count);

struct Tables {
    // forms[op][target][form]
    std::vector<std::array<std::array<FormBits, static_cast<int>(Form::count)>, target_count>> forms;
    std::vector<std::array<OperandPrinting, target_count>> printing;    // printing[op][target]
    std::vector<std::array<std::string_view, target_count>> spellings;  // spellings[op][target]
    std::vector<std::array<std::uint64_t, target_count>> mimg_widths;   // mimg_widths[op][target]
    // ops[target][space] -> opcode-indexed Op
    std::array<std::array<std::vector<Op>, family_count>, target_count> ops;

    Tables() : forms(op_count), printing(op_count), spellings(op_count), mimg_widths(op_count) {
        for (const MimgWidthsRow& row : mimg_width_rows)
            mimg_widths[static_cast<std::size_t>(row.op)][row.target] = row.widths;
        for (std::size_t i = 0; i < op_count; ++i) spellings[i].fill(mnemonic(static_cast<Op>(i)));
        for (const SpellingRow& row : spelling_rows)
            spellings[static_cast<std::size_t>(row.op)][row.target] = row.spelling;
        for (const PrintingRow& row : printing_rows)
            printing[static_cast<std::size_t>(row.op)][row.target] = row.printing;
        for (const FormRow& row : form_rows) {
            FormBits& bits = forms[static_cast<std::size_t>(row.op)][row.target][static_cast<int>(row.form)];
            bits = {true, row.accepted, row.printed};
        }
        for (int t = 0; t < target_count; ++t)
            for (int s = 0; s < family_count; ++s) ops[t][s].assign(space_size[s], Op::invalid);
        for (std::size_t i = 1; i < op_count; ++i) {
            const OpInfo& info = op_info(static_cast<Op>(i));
            for (int t = 0; t < target_count; ++t) {
                if (info.opcode[t] >= 0) ops[t][static_cast<int>(info.family)][info.opcode[t]] = static_cast<Op>(i);
                if (info.vop3_opcode[t] >= 0)
                    ops[t][static_cast<int>(Space::VOP3)][info.vop3_opcode[t]] = static_cast<Op>(i);
            }
        }
    }
};

const Tables& tables() {
    static const Tables instance;
    return instance;
}

}  // namespace

const OperandPrinting& operand_printing(Op op, Target target) {
    return tables().printing[static_cast<std::size_t>(op)][target_index(target)];
}

std::string_view spelling(Op op, Target target) {
    return tables().spellings[static_cast<std::size_t>(op)][target_index(target)];
}

const FormBits& form_bits(Op op, Target target, Form form) {
    return tables().forms[static_cast<std::size_t>(op)][target_index(target)][static_cast<int>(form)];
}

int mimg_vdata_dwords(Op op, Target target, int components, bool tfe, bool d16) {
    if (components < 1 || components > 4) return 0;
    const std::uint64_t widths = tables().mimg_widths[static_cast<std::size_t>(op)][target_index(target)];
    const int index = (components - 1) | (tfe ? 4 : 0) | (d16 ? 8 : 0);
    return static_cast<int>((widths >> (4 * index)) & 0xf);
}

Op lookup(Target target, Space space, unsigned opcode) {
    const std::vector<Op>& row = tables().ops[target_index(target)][static_cast<int>(space)];
    return opcode < row.size() ? row[opcode] : Op::invalid;
}

}  // namespace dppgemm::emu::detail
