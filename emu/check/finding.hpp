#pragma once
// What the checkers report: one broken rule at one instruction of one wave,
// with the earlier instruction that makes it wrong (the load whose wait is
// missing, the VALU write too close to a DPP read, the other wave's access).

#include <array>
#include <cstdint>
#include <string>

#include "emu/util.hpp"

namespace dppgemm::emu::check {

enum class Rule : std::uint8_t {
    // Memory counters (s_waitcnt).
    read_before_wait,       // a source register's load has not been waited for
    overwrite_before_wait,  // a register is written while a load into it is in flight
    // LDS between waves.
    lds_race,               // two waves touch the same LDS bytes with no s_barrier between
    lds_unpublished_write,  // s_barrier while a ds_write is not covered by lgkmcnt
    // Global memory between workgroups (global_sync.hpp).
    global_race,  // a plain load of another workgroup's store with no release/acquire between
    // Software-managed hazards (wait states, docs/checkers.md).
    dpp_after_valu_write,    // VALU writes a VGPR, DPP instruction reads it: 2
    dpp_after_exec_write,    // VALU writes EXEC, DPP instruction: 5
    lane_select_after_valu,  // VALU writes an SGPR, v_readlane/v_writelane lane select: 4
    vmem_sgpr_after_valu,    // VALU writes an SGPR, VMEM reads it: 5
    execz_vccz_after_valu,   // VALU writes EXEC/VCC, VALU reads EXECZ/VCCZ: 5
    div_fmas_after_vcc,      // VALU writes VCC, v_div_fmas: 4
    movrel_after_m0,         // SALU writes M0, s_movrel: 1
    getreg_after_setreg,     // s_setreg, s_getreg/s_setreg of the same register: 2
    store_data_overwrite,    // >64-bit store, VALU writes its data VGPRs: 1 (gfx94x: 2)
    valu_sgpr_after_valu,    // gfx94x: VALU writes an SGPR/VCC, VALU reads it: 2
    readlane_after_valu,     // gfx94x: VALU writes a VGPR, v_readlane/readfirstlane reads it: 1
    rwlane_after_exec,       // gfx94x: VALU writes EXEC, v_readlane/readfirstlane/writelane: 4
    trans_forwarding,        // gfx94x: transcendental VALU result read by a VALU: 1
    // Bounds and validity.
    lds_out_of_range,            // LDS address outside the kernel's allocation
    lds_misaligned,              // LDS atomic address not aligned to its element
    global_out_of_bounds,        // global/flat/buffer/scalar access outside every allocation
    scratch_without_allocation,  // scratch access in a kernel with no private segment
    scratch_out_of_segment,      // scratch access past the work-item's private segment
    past_end_of_code,            // ran off the end of the code (no s_endpgm)
    watchdog,                    // more instructions in one wave than the watchdog allows
    execution_fault,             // anything else the executor stopped at
    count
};
inline constexpr std::size_t rule_count = static_cast<std::size_t>(Rule::count);

// Stable short names ("read-before-wait", ...), used in messages and tests.
const char* rule_name(Rule rule);

struct Finding {
    Rule rule = Rule::execution_fault;
    std::string kernel;
    std::array<std::uint32_t, 3> workgroup{};
    std::uint32_t wave = 0;
    std::uint64_t lanes = 0;  // lanes involved (0: the whole wave / not lane specific)
    std::uint32_t pc = 0;     // the instruction's address in the code object (llvm-objdump's)
    std::string instruction;  // disassembled
    bool has_earlier = false;
    std::uint32_t earlier_pc = 0;  // the other instruction involved
    std::string earlier_instruction;
    std::string earlier_where;      // "", or e.g. "wave 2" when it ran in another wave
    std::string message;            // what is wrong, naming registers/addresses
    std::uint64_t occurrences = 1;  // identical findings (rule, pc, earlier pc) merged into this one

    // Multi-line text as `dppgemm-emu run` prints it.
    std::string text() const;
};

// "0-63", "0,2,4-7".
std::string lane_list(std::uint64_t lanes);

}  // namespace dppgemm::emu::check
