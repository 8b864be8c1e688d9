#pragma once
// What the checkers report: one broken rule at one instruction of one wave,
// with the earlier instruction that makes it wrong (the load whose wait is
// missing, the VALU write too close to a DPP read, the other wave's access).

#include <array>
#include <cstdint>
#include <iterator>
#include <string>

#include "emu/util.hpp"

namespace dppgemm::emu::check {

// One enumerator per row of emu/check/rules.def, in its order.
enum class Rule : std::uint8_t {
#define DPPGEMM_RULE(rule, name, meaning) rule,
#define DPPGEMM_WAIT_STATE_RULE(rule, name, wait_states, gfx94x_wait_states, first, second) rule,
#include "emu/check/rules.def"
    count
};
inline constexpr std::size_t rule_count = static_cast<std::size_t>(Rule::count);

// One row of rules.def.
struct RuleInfo {
    Rule rule;
    const char* name;             // "read-before-wait"
    const char* meaning;          // what is wrong ("" for a wait-state rule: first and second say it)
    bool wait_state_rule;         // a software-managed hazard:
    unsigned wait_states;         //   needed on gfx900..gfx90a; 0: not a hazard there
    unsigned gfx94x_wait_states;  //   needed on gfx940, gfx942
    const char* first;            //   the earlier instruction
    const char* second;           //   the later one, which needs the wait states
};
inline constexpr RuleInfo rule_table[] = {
#define DPPGEMM_RULE(rule, name, meaning) {Rule::rule, name, meaning, false, 0, 0, "", ""},
#define DPPGEMM_WAIT_STATE_RULE(rule, name, wait_states, gfx94x_wait_states, first, second) \
    {Rule::rule, name, "", true, wait_states, gfx94x_wait_states, first, second},
#include "emu/check/rules.def"
};
static_assert(std::size(rule_table) == rule_count);

// The wait states a wait-state rule needs on gfx94x or the other targets (0:
// none, or not a wait-state rule).
constexpr unsigned wait_states(Rule rule, bool gfx94x) {
    const RuleInfo& r = rule_table[static_cast<std::size_t>(rule)];
    return gfx94x ? r.gfx94x_wait_states : r.wait_states;
}

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
