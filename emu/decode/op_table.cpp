#include "emu/decode/op_table.hpp"

namespace dppgemm::emu {
namespace {

// DPPGEMM_OP below and the invalid row spell one opcode and one VOP3 opcode
// per target: a target added to targets.def adds one of each.
static_assert(target_count == 7, "op_table.cpp: one o/e parameter of DPPGEMM_OP and one -1 per target");

constexpr OpInfo table[] = {
    {"<invalid>",
     Family::SOPP,
     MemClass::none,
     {-1, -1, -1, -1, -1, -1, -1},
     {-1, -1, -1, -1, -1, -1, -1},
     {0, 0, 0, 0},
     ImmKind::none,
     0,
     {},
     0,
     0,
     AtomicKind::none},
#define DPPGEMM_OP(name, family, mem, o0, o1, o2, o3, o4, o5, o6, e0, e1, e2, e3, e4, e5, e6, d0, d1, d2, d3, imm, \
                   flags, t0, t1, t2, t3, bytes, components, atomic)                                               \
    {#name,                                                                                                        \
     Family::family,                                                                                               \
     MemClass::mem,                                                                                                \
     {o0, o1, o2, o3, o4, o5, o6},                                                                                 \
     {e0, e1, e2, e3, e4, e5, e6},                                                                                 \
     {d0, d1, d2, d3},                                                                                             \
     ImmKind::imm,                                                                                                 \
     flags,                                                                                                        \
     {OperandType::t0, OperandType::t1, OperandType::t2, OperandType::t3},                                         \
     bytes,                                                                                                        \
     components,                                                                                                   \
     AtomicKind::atomic},
#include "emu/decode/op_table.inc"
#undef DPPGEMM_OP
};
static_assert(sizeof(table) / sizeof(table[0]) == op_count, "one row per Op");

// The generated tables' target columns must be the Target enum's order
// (include/dppgemm/targets.def): gen_table.py writes its target list into
// op_table.inc. After adding or moving a target row, regenerate the tables
// (docs/contributing.md, "Regenerating the tables").
namespace generated {
#define DPPGEMM_TARGET(name, ...) constexpr Target name = Target::name;
#include "include/dppgemm/targets.def"
#define DPPGEMM_OP(...)
#define DPPGEMM_OP_TABLE_TARGETS(...) constexpr Target column_targets[] = {__VA_ARGS__};
#include "emu/decode/op_table.inc"
#undef DPPGEMM_OP_TABLE_TARGETS
#undef DPPGEMM_OP
}  // namespace generated

constexpr bool same_targets(const Target (&columns)[std::size(generated::column_targets)]) {
    if (std::size(generated::column_targets) != std::size(all_targets)) return false;
    for (std::size_t i = 0; i < std::size(all_targets); ++i)
        if (columns[i] != all_targets[i]) return false;
    return true;
}
static_assert(same_targets(generated::column_targets),
              "op_table.inc's target columns differ from include/dppgemm/targets.def: regenerate the tables");

}  // namespace

const OpInfo& op_info(Op op) {
    auto index = static_cast<std::size_t>(op);
    return table[index < op_count ? index : 0];
}

const char* family_name(Family family) {
#define DPPGEMM_EMU_FAMILY(name) #name,
    static constexpr const char* names[] = {DPPGEMM_EMU_FAMILIES(DPPGEMM_EMU_FAMILY, DPPGEMM_EMU_FAMILY)};
#undef DPPGEMM_EMU_FAMILY
    return names[static_cast<int>(family)];
}

}  // namespace dppgemm::emu
