#include "emu/decode/op_table.hpp"

namespace dppgemm::emu {
namespace {

constexpr OpInfo table[] = {
    {"<invalid>", Family::SOPP, MemClass::none, {-1, -1, -1, -1, -1, -1}, {-1, -1, -1, -1, -1, -1}, {0, 0, 0, 0},
     ImmKind::none, 0, {}, 0, 0, AtomicKind::none},
#define DPPGEMM_OP(name, family, mem, o0, o1, o2, o3, o4, o5, e0, e1, e2, e3, e4, e5, d0, d1, d2, d3, imm, flags, t0, t1, \
                   t2, t3, bytes, components, atomic)                                                                    \
    {#name,                                                                                                              \
     Family::family,                                                                                                     \
     MemClass::mem,                                                                                                      \
     {o0, o1, o2, o3, o4, o5},                                                                                           \
     {e0, e1, e2, e3, e4, e5},                                                                                           \
     {d0, d1, d2, d3},                                                                                                   \
     ImmKind::imm,                                                                                                       \
     flags,                                                                                                              \
     {OperandType::t0, OperandType::t1, OperandType::t2, OperandType::t3},                                               \
     bytes,                                                                                                              \
     components,                                                                                                         \
     AtomicKind::atomic},
#include "emu/decode/op_table.inc"
#undef DPPGEMM_OP
};
static_assert(sizeof(table) / sizeof(table[0]) == op_count, "one row per Op");

}  // namespace

const OpInfo& op_info(Op op) {
    auto index = static_cast<std::size_t>(op);
    return table[index < op_count ? index : 0];
}

const char* family_name(Family family) {
    static constexpr const char* names[] = {"SOP1", "SOP2", "SOPK", "SOPC", "SOPP", "SMEM", "VOP1", "VOP2",
                                            "VOPC", "VOP3", "VOP3P", "DS", "FLAT", "SCRATCH", "GLOBAL", "MUBUF"};
    return names[static_cast<int>(family)];
}

}  // namespace dppgemm::emu
