#pragma once
// One wave's wait-state clock: the gfx9 hazards the hardware does not
// interlock, checked on the dynamic instruction stream (so across branches
// and loop back-edges exactly as executed). A wait state is one issued
// instruction; s_nop N provides N + 1. "k wait states after X" means k
// instructions' worth between X and the reader (docs/checkers.md lists the
// rules, numbers and sources).

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "emu/check/finding.hpp"
#include "emu/check/inst_facts.hpp"

namespace dppgemm::emu::check {

struct HazardHit {
    Rule rule;
    std::uint32_t earlier = 0;  // the instruction that needed the wait states
    std::string message;
};

// gfx940 and gfx942 add the hazards of LLVM's hasVDecCoExecHazard and
// hasTransForwardingHazard.
inline bool has_gfx94x_hazards(Target target) { return has(target, Feature::gfx940_insts); }

class HazardTracker {
public:
    // The most wait states any rule needs (docs/checkers.md): an instruction
    // farther back than this cannot cause a hazard. Why it matters: the
    // tracker's clock counts only the instructions it is shown, and the
    // checkers show it every instruction within this many wait states before
    // each instruction that may break a rule (watch_plan.hpp), so the clock
    // difference to any write that matters is exact, and to any other at
    // least this much.
    static constexpr unsigned longest_wait = [] {
        unsigned most = 0;
        for (const RuleInfo& r : rule_table) most = std::max({most, r.wait_states, r.gfx94x_wait_states});
        return most;
    }();
    // The same with the MFMA rules, for programs with matrix-core ops (the
    // others keep the short window).
    static constexpr unsigned longest_mfma_wait = [] {
        unsigned most = longest_wait;
        for (const RuleInfo& r : rule_table)
            for (const auto& column : r.mfma_wait_states)
                for (std::uint8_t states : column) most = std::max<unsigned>(most, states);
        return most;
    }();
    static unsigned window(const std::vector<InstFacts>& facts) {
        return uses_matrix_core(facts) ? longest_mfma_wait : longest_wait;
    }
    // MFMA or v_accvgpr_read/write: the MFMA rules apply.
    static bool uses_matrix_core(const std::vector<InstFacts>& facts) {
        return std::any_of(facts.begin(), facts.end(),
                           [](const InstFacts& f) { return f.mfma || f.accvgpr_read || f.accvgpr_write; });
    }
    // `mfma`: the program has matrix-core ops (the MFMA rules' state is kept only then).
    void reset(Target target, bool mfma);
    // Hazards of the instruction about to issue (appended to `hits`).
    void check(const InstFacts& f, const ExecInst& e, std::vector<HazardHit>& hits) const;
    // A >64-bit store's data may still be read (the store-data rule applies to VALU writes).
    bool store_pending() const { return store_data_.count != 0; }
    // Records what the instruction writes and advances the clock.
    void issue(const InstFacts& f, std::uint32_t index);

private:
    struct Write {
        std::uint64_t clock = 0;  // wait-state clock just after the writer (0: never written)
        std::uint32_t inst = 0;
        bool trans = false;
        bool mfma = false;
    };
    // An MFMA's write of D or read of C, or a v_accvgpr_write/read's write.
    struct MfmaEvent {
        std::uint64_t clock = 0;  // as Write::clock
        std::uint32_t inst = 0;
        std::uint8_t passes = 0;
        MfmaColumn column = MfmaColumn::gfx908;
        RegRange range;  // the whole operand
    };
    std::uint64_t clock_ = 0;
    bool gfx94x_ = false;
    bool mfma_ = false;
    MfmaColumn column_ = MfmaColumn::gfx908;       // the target's (gfx94x: the non-XDL one)
    std::vector<MfmaEvent> mfma_d_, mfma_c_;       // per vector slot: last MFMA writing it as D, reading it as C
    std::vector<MfmaEvent> acc_write_, acc_read_;  // last v_accvgpr_write (AGPR), v_accvgpr_read (VGPR) writing it
    std::array<Write, slot_count> valu_;           // last VALU write per register slot
    Write m0_salu_;
    std::array<Write, 64> setreg_;  // per hardware register id
    Write store_;                   // last >64-bit store and its data registers
    RegRange store_data_;

    // A hit when `range` was written by VALU fewer than the rule's wait states ago.
    // Inline scan, out-of-line report: almost every check finds nothing, and
    // a DPP multiply-add makes four of them (the call was 1.8% of a checked
    // 256^3 dpp1 run's instructions under callgrind, its caller 3%).
    void need(const RegRange& range, Rule rule, const char* reader, std::vector<HazardHit>& hits) const {
        const unsigned needed = wait_states(rule, gfx94x_);
        for (unsigned s = range.slot; s < unsigned(range.slot) + range.count && s < slot_count; ++s) {
            const std::uint64_t written = valu_[s].clock;
            if (written != 0 && clock_ - written < needed) {
                report_need(s, rule, reader, hits);
                return;
            }
        }
    }
    void report_need(unsigned slot, Rule rule, const char* reader, std::vector<HazardHit>& hits) const;
    // A hit when `w` was fewer than the rule's wait states ago.
    void need_write(const Write& w, Rule rule, const std::string& what, std::vector<HazardHit>& hits) const;
    void check_gfx94x(const InstFacts& f, const ExecInst& e, std::vector<HazardHit>& hits) const;
    void check_mfma(const InstFacts& f, std::vector<HazardHit>& hits) const;
    void check_mfma_reader(const InstFacts& f, std::vector<HazardHit>& hits) const;
    void check_mfma_consumer(const InstFacts& f, std::vector<HazardHit>& hits) const;
    // The latest event over the slots of `range` (clock 0: none).
    const MfmaEvent& latest(const std::vector<MfmaEvent>& events, const RegRange& range) const;
    void need_mfma(const MfmaEvent& event, Rule rule, MfmaColumn column, unsigned passes, const std::string& what,
                   std::vector<HazardHit>& hits) const;
};

}  // namespace dppgemm::emu::check
