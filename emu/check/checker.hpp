#pragma once
// The emulator's checkers: a DispatchObserver that watches the waves (every
// instruction that can matter to a finding, watch_plan.hpp) and reports what
// would fail silently on hardware:
//
//   * memory counters: a register written by a load (global, buffer, flat,
//     SMEM, LDS) is pending until an s_waitcnt covers it; reading or
//     overwriting it before is reported (vmcnt in order, LDS in order,
//     SMEM and the LDS half of FLAT out of order);
//   * LDS between waves: the same bytes touched by two waves with no
//     s_barrier between (write-read, read-write, write-write), and an
//     s_barrier reached while a ds_write is not covered by lgkmcnt;
//   * global memory between workgroups: a plain load of what another
//     workgroup stored in the dispatch with no release/acquire between
//     (global_sync.hpp);
//   * the gfx9 software-managed hazards (wait states), docs/checkers.md;
//   * bounds and validity: LDS outside the allocation, an LDS atomic
//     misaligned (unaligned loads and stores are legal: ROCm runs gfx9 in
//     unaligned mode, docs/checkers.md), global
//     outside every allocation, scratch without an allocation or past the
//     private segment, running past the end of the code, the watchdog (the last ones come from the
//     executor's fault, turned into a finding by findings()).
//
//   Checker checker(program);
//   config.observer = &checker;
//   DispatchResult r = launch(memory, program, config);
//   for (const Finding& f : checker.findings(r)) std::cerr << f.text() << "\n";
//
// Findings are deterministic: each workgroup collects its own, merged in
// workgroup order whatever the number of host threads.

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "emu/check/finding.hpp"
#include "emu/check/global_sync.hpp"
#include "emu/check/inst_facts.hpp"
#include "emu/check/scoreboard.hpp"
#include "emu/check/watch_plan.hpp"
#include "emu/exec/dispatch.hpp"

namespace dppgemm::emu::check {

struct CheckOptions {
    // Stop the dispatch at the first finding (the executor reports it as a fault).
    bool stop_at_first = false;
    // Distinct findings kept per workgroup and in all (identical ones are merged).
    std::size_t max_findings = 100;
    // Watch every instruction instead of the WatchPlan's (watch_plan.hpp):
    // slower, same findings (tests compare the two).
    bool watch_every_instruction = false;
    // Compare each LDS access's lane addresses with its instruction's last
    // ones instead of trusting the executor's MemoryAccess::pattern_id:
    // slower, same findings (tests compare the two).
    bool compare_lds_patterns = false;
};

class WorkgroupChecker;

class Checker : public DispatchObserver {
public:
    explicit Checker(const Program& program, CheckOptions options = {});
    ~Checker() override;

    std::unique_ptr<WorkgroupObserver> start(std::uint64_t workgroup_linear_id) override;
    void finish(std::uint64_t workgroup_linear_id, std::unique_ptr<WorkgroupObserver> observer) override;

    // The findings of the dispatches observed since construction or clear(), in
    // workgroup order, identical ones merged; the dispatch's fault (if any and
    // not already a finding) last.
    std::vector<Finding> findings(const DispatchResult& result) const;
    void clear();

    const Program& program() const { return program_; }
    const std::vector<InstFacts>& facts() const { return facts_; }
    const WatchPlan& plan() const { return plan_; }
    bool has_mfma() const { return has_mfma_; }  // the MFMA hazard rules apply
    const CheckOptions& options() const { return options_; }
    GlobalSync& global_sync() const { return global_sync_; }
    // What the plan expects instruction `index` to issue, together with the
    // facts issued() needs, so that an issue as planned reads one record.
    // Why: the plan's counter, the entry and the instruction's facts were
    // three arrays, and the entry's slot words were worked out at every
    // issue (about 290 host instructions per issue, callgrind dpp0 256^3).
    struct PlannedIssue {
        // WatchPlan::counter and load_result as an entry; lanes and
        // lds_write are the issue's own. entry.footprint: of entry.dest.
        InFlightMemoryOp entry;
        std::optional<WaitCounter> counter;
        bool ds = false, flat = false;  // InstFacts::ds, flat
    };
    const PlannedIssue& planned_issue(std::uint32_t index) const { return planned_entries_[index]; }
    const InFlightMemoryOp& planned_entry(std::uint32_t index) const { return planned_entries_[index].entry; }

private:
    const Program& program_;
    CheckOptions options_;
    std::vector<InstFacts> facts_;
    bool has_mfma_ = false;
    WatchPlan plan_;
    std::vector<PlannedIssue> planned_entries_;
    mutable GlobalSync global_sync_;
    mutable std::mutex mutex_;
    std::map<std::uint64_t, std::vector<Finding>> by_workgroup_;
    std::vector<std::unique_ptr<WorkgroupObserver>> pool_;  // reused WorkgroupCheckers
};

// The rule an executor fault breaks, by its kind (FaultKind::global_out_of_bounds
// -> Rule::global_out_of_bounds; kinds with no rule of their own -> execution_fault).
Rule rule_of_fault(const Fault& fault);

}  // namespace dppgemm::emu::check
