// The faults instructions raise (an ExecError naming its FaultKind), and the
// semantics of an instruction that cannot run: not implemented, invalid, or
// with a register operand outside the kernel's allocation.

#include "emu/exec/semantics.hpp"

namespace dppgemm::emu::sem {

void fail(FaultKind kind, const std::string& what) { throw ExecError(kind, what); }
void fault_at(FaultKind kind, const std::string& what, std::uint64_t address) {
    throw ExecError(kind, what, true, address);
}

void not_implemented(Wave& w, const ExecInst& e) {
    (void)w;
    if (!e.inst) fail(FaultKind::past_end_of_code, "executed past the end of the code (no s_endpgm)");
    if (!e.inst->valid()) fail(FaultKind::invalid_instruction, "invalid instruction word");
    if (has_semantics(e.inst->op) && (e.inst->clamp || e.inst->omod))
        fail(FaultKind::not_implemented, "clamp/omod on this (integer) operation is not implemented");
    if (e.inst->dpp && !e.dpp) fail(FaultKind::invalid_instruction, "DPP control not available on this target");
    fail(FaultKind::not_implemented, "instruction not implemented");
}

void register_out_of_allocation(Wave& w, const ExecInst& e) {
    fail(FaultKind::invalid_operand, register_operand_error(*w.group->env->program, e));
}

}  // namespace dppgemm::emu::sem
