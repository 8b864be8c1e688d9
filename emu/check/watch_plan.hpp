#pragma once
// Which instructions the checkers must see, decided once per program. The
// executor calls before_instruction only for these
// (WorkgroupObserver::watched_instructions); the others, in the SGEMM
// kernels nearly every multiply-add, keep the executor's fast paths. Why:
// calling the checkers before every instruction cost more than the
// instruction itself (a checked SGEMM took 2.7x the unchecked one).
//
// An instruction is watched when, on some path through the code,
//   * something is checked at it whatever came before (`always`):
//     s_waitcnt and s_barrier (the counters' model), scratch instructions
//     (a kernel without scratch), the end of the code;
//   * it may break a wait-state rule (`hazard`): HazardTracker, run on each
//     path of HazardTracker::longest_wait wait states that leads to it,
//     reports something. Every instruction of those paths is then watched
//     too (`hazard_window`), so that the tracker sees the writes the rule
//     looks back at and counts the wait states between exactly;
//   * a load may still be in flight into a register it reads or writes
//     (`pending`): a forward analysis of what the memory counters certainly
//     complete (Scoreboard's rules, `completes`), joined over every path.
// What is checked at a watched instruction does not change, so the findings
// are those of watching every instruction (tests/check runs both and
// compares). Control flow is followed through direct branches; a program
// with an indirect one (s_setpc_b64, s_swappc_b64) has no known control
// flow and is watched everywhere (`unknown_flow`), as is one whose paths
// are too many to follow.

#include <cstdint>
#include <optional>
#include <vector>

#include "emu/check/inst_facts.hpp"
#include "emu/exec/wave.hpp"

namespace dppgemm::emu::check {

struct WatchPlan {
    enum Reason : std::uint8_t { always = 1, hazard = 2, hazard_window = 4, pending = 8, unknown_flow = 16 };
    std::vector<std::uint8_t> watched;  // Reason bits per instruction index; 0: not watched
    // Per instruction, the counter its entry occupies (none: it issues no
    // entry) and the registers that entry may write when it lands (count 0:
    // none). The pending analysis rests on these; the checker compares every
    // issued entry with them and watches everything if one differs.
    std::vector<std::optional<WaitCounter>> counter;
    std::vector<RegRange> load_result;
};

WatchPlan watch_plan(const Program& program, const std::vector<InstFacts>& facts);

}  // namespace dppgemm::emu::check
