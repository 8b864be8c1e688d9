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
#define DPPGEMM_MFMA_RULE(rule, name, gfx908, gfx90a, gfx94x, gfx94x_xdl, first, second) rule,
#include "emu/check/rules.def"
    count
};
inline constexpr std::size_t rule_count = static_cast<std::size_t>(Rule::count);

// The columns of an MFMA rule: the target generation, and on gfx940/gfx942
// whether the MFMA the rule names is an XDL one (every dense MFMA but f32:
// LLVM's getMAIIsGFX940XDL; the f32 ones run on the non-XDL path).
enum class MfmaColumn : std::uint8_t { gfx908, gfx90a, gfx94x, gfx94x_xdl };
inline constexpr unsigned mfma_pass_counts[4] = {2, 4, 8, 16};

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
    bool mfma_rule = false;       // an MFMA rule: wait states by column and passes (2, 4, 8, 16)
    std::uint8_t mfma_wait_states[4][4] = {};
};
inline constexpr RuleInfo rule_table[] = {
#define DPPGEMM_RULE(rule, name, meaning) {Rule::rule, name, meaning, false, 0, 0, "", ""},
#define DPPGEMM_WAIT_STATE_RULE(rule, name, wait_states, gfx94x_wait_states, first, second) \
    {Rule::rule, name, "", true, wait_states, gfx94x_wait_states, first, second},
#define DPPGEMM_PASSES(p2, p4, p8, p16) \
    { p2, p4, p8, p16 }
#define DPPGEMM_MFMA_RULE(rule, name, gfx908, gfx90a, gfx94x, gfx94x_xdl, first, second) \
    {Rule::rule, name, "", false, 0, 0, first, second, true, {gfx908, gfx90a, gfx94x, gfx94x_xdl}},
#include "emu/check/rules.def"
#undef DPPGEMM_PASSES
};
static_assert(std::size(rule_table) == rule_count);

// The wait states a wait-state rule needs on gfx94x or the other targets (0:
// none, or not a wait-state rule).
constexpr unsigned wait_states(Rule rule, bool gfx94x) {
    const RuleInfo& r = rule_table[static_cast<std::size_t>(rule)];
    return gfx94x ? r.gfx94x_wait_states : r.wait_states;
}

// The wait states an MFMA rule needs in `column` after (or before) an MFMA of
// `passes` passes; 0 for pass counts the table has no column for.
constexpr unsigned mfma_wait_states(Rule rule, MfmaColumn column, unsigned passes) {
    const RuleInfo& r = rule_table[static_cast<std::size_t>(rule)];
    for (unsigned i = 0; i < 4; ++i)
        if (mfma_pass_counts[i] == passes) return r.mfma_wait_states[static_cast<unsigned>(column)][i];
    return 0;
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
