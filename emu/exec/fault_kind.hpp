#pragma once

#include <cstdint>

namespace dppgemm::emu {

// What stopped a wave. Set where the fault is raised, so that whoever reports
// it (the checker's rules, docs/checkers.md) switches on the kind, never on
// the message text.
enum class FaultKind : std::uint8_t {
    global_out_of_bounds,        // global/flat/buffer/scalar access outside every allocation
    lds_out_of_range,            // LDS (or flat-to-LDS) byte outside the workgroup's allocation
    lds_misaligned,              // LDS atomic address not aligned to its element
    misaligned,                  // other atomic address not aligned to its size
    scratch_without_allocation,  // scratch access, but the kernel has no private segment
    scratch_out_of_segment,      // scratch access past the work-item's private segment
    past_end_of_code,            // ran off the end of the code (no s_endpgm)
    bad_branch_target,           // branch/jump/call to an address that is not an instruction
    watchdog,                    // more instructions in one wave than the watchdog allows
    invalid_instruction,         // an invalid word, or a control this target does not have
    invalid_operand,             // an operand value the instruction cannot take (s_movrel index, hwreg id)
    not_implemented,             // an instruction or mode the emulator does not model
    trap,                        // s_trap
    checker_stop,                // a checker finding with CheckOptions::stop_at_first
    no_gws,                      // ds_gws_* outside a cooperative launch (no GWS resources)
    deadlock,                    // every wave of a cooperative grid waits and none can release the others
};

}  // namespace dppgemm::emu
