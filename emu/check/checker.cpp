#include "emu/check/checker.hpp"

#include <map>
#include <tuple>

#include "emu/check/hazards.hpp"
#include "emu/check/lds_shadow.hpp"
#include "emu/check/scoreboard.hpp"
#include "emu/exec/memory_model.hpp"
#include "emu/exec/wave.hpp"

namespace dppgemm::emu::check {
namespace {

const char* counter_name(const InFlightMemoryOp& e) {
    if (e.vm && e.lgkm) return "vmcnt and lgkmcnt(0)";
    return e.vm ? "vmcnt" : (e.lgkm_in_order ? "lgkmcnt" : "lgkmcnt(0)");
}

RegRange destination(const emu::InFlightMemoryOp& p) {
    switch (p.dest) {
    case emu::InFlightMemoryOp::Dest::vgpr: return RegRange{p.reg, p.dwords};
    case emu::InFlightMemoryOp::Dest::agpr: return RegRange{static_cast<std::uint16_t>(slot_agpr + p.reg), p.dwords};
    case emu::InFlightMemoryOp::Dest::sgpr: return RegRange{static_cast<std::uint16_t>(slot_sreg + p.reg), p.dwords};
    default: return RegRange{};
    }
}

// The instruction's address in the code object, as llvm-objdump prints it.
std::uint32_t pc_of(const Program& p, std::uint32_t index) {
    if (index < p.insts.size()) return static_cast<std::uint32_t>(p.code_address + p.insts[index].pc);
    return static_cast<std::uint32_t>(p.code_address + (p.insts.empty() ? 0 : p.insts.back().pc + p.insts.back().size));
}

// Scratch the dispatch allocates (fixed size, or a dynamic stack).
bool has_private_segment(const KernelDescriptor& kd) { return kd.private_segment_fixed_size || kd.uses_dynamic_stack; }

}  // namespace

class WorkgroupChecker : public WorkgroupObserver {
public:
    explicit WorkgroupChecker(const Checker& checker) : checker_(checker) {}

    void begin(std::uint64_t workgroup_linear_id) {
        if (checker_.options().watch_every_instruction) watched_.assign(checker_.plan().watched.size(), 1);
        else watched_ = checker_.plan().watched;
        sync_ = checker_.global_sync().active();
        if (sync_) {
            const Program& p = checker_.program();
            for (std::size_t i = 0; i < p.insts.size() && i < watched_.size(); ++i)
                if (invalidates_l1(p.insts[i].op) || invalidates_scalar_cache(p.insts[i].op)) watched_[i] = 1;
        }
        workgroup_ = workgroup_linear_id;
        for (std::size_t i = 0; i < waves_.size(); ++i) reset(*waves_[i], static_cast<std::uint32_t>(i));
        findings_.clear();
        seen_.clear();
        lds_ready_ = false;
    }
    std::vector<Finding> take_findings() { return std::move(findings_); }

    void before_instruction(const Wave& w, const ExecInst& e) override {
        const InstFacts& f = checker_.facts()[e.index];
        if (f.end_of_code) {
            report(w, Rule::past_end_of_code, 0, e.index, nullptr, "", "no s_endpgm before the end of the code");
            return;
        }
        if (f.scratch && !has_private_segment(checker_.program().descriptor))
            report(w, Rule::scratch_without_allocation, w.exec(), e.index, nullptr, "",
                   "scratch access, but the kernel has no private segment (private_segment_fixed_size 0)");
        WaveModel& m = model(w);
        if (sync_ && invalidates_l1(e.inst->op)) {
            join(m.sync.acquired, m.sync.pending);
            m.sync.published.reset();
        }
        if (sync_ && invalidates_scalar_cache(e.inst->op)) join(m.sync.acquired_scalar, m.sync.pending);
        if (f.waitcnt) m.scoreboard.wait(e.inst->waitcnt.vmcnt, e.inst->waitcnt.lgkmcnt);
        if (f.barrier) check_published(w, e, m);
        if (!m.scoreboard.empty() && m.scoreboard.touches_pending(f)) check_pending(w, e, f, m);
        if (f.hazard_reader || (f.valu && m.hazards.store_pending())) {
            hits_.clear();
            m.hazards.check(f, e, hits_);
            for (const HazardHit& h : hits_) report(w, h.rule, 0, e.index, &h.earlier, "", h.message);
        }
        m.hazards.issue(f, e.index);
    }

    const std::uint8_t* watched_instructions() const override { return watched_.data(); }

    // Inline, as planned (nearly every issue): the plan's entry goes into
    // the scoreboard as it is; an entry that differs goes out of line.
    void issued(const Wave& w, const ExecInst& e, const emu::InFlightMemoryOp& p) override {
        const Checker::PlannedIssue& planned = checker_.planned_issue(e.index);
        const RegRange dest = destination(p);
        if (!(planned.counter == p.counter && dest.slot == planned.entry.dest.slot &&
              dest.count == planned.entry.dest.count)) {
            issued_unplanned(w, e, p, dest);
            return;
        }
        issue(w, e, p, planned.entry);
    }

    [[gnu::noinline]] void issued_unplanned(const Wave& w, const ExecInst& e, const emu::InFlightMemoryOp& p,
                                            const RegRange& dest) {
        InFlightMemoryOp entry = entry_kind(p.counter, checker_.planned_issue(e.index).flat);
        entry.inst = e.index;
        entry.dest = dest;
        entry.footprint = footprint_of(dest);
        if (!as_planned(e.index, p.counter, entry.dest)) watched_.assign(watched_.size(), 1);
        issue(w, e, p, entry);
    }

    // `entry`: what issued() derived of `p` but the issue's lanes and lds_write, footprint set.
    [[gnu::always_inline]] void issue(const Wave& w, const ExecInst& e, const emu::InFlightMemoryOp& p,
                                      const InFlightMemoryOp& entry) {
        const std::uint64_t lanes = p.dest == emu::InFlightMemoryOp::Dest::sgpr ? 0 : p.lanes;
        const bool lds_write = checker_.planned_issue(e.index).ds && p.dest == emu::InFlightMemoryOp::Dest::none;
        WaveModel& m = model(w);
        const bool dest_pending = entry.dest.count && m.scoreboard.any_pending(entry.dest, entry.footprint);
        if (dest_pending)
            if (const InFlightMemoryOp* other = m.scoreboard.unordered_with(entry))
                report_unordered_load(w, e, p.lanes, entry, *other);
        m.scoreboard.issue_entry(entry, lanes, lds_write, dest_pending);
        if (p.writes_memory && p.counter == WaitCounter::vm) ++m.sync.stores_issued;
    }

    // Only a store's completion matters (the inter-workgroup check's release
    // sequences); the scoreboard models the waits themselves.
    bool observes_every_landing() const override { return false; }
    void landed(const Wave& w, const emu::InFlightMemoryOp& p) override {
        if (!p.writes_memory || p.counter != WaitCounter::vm) return;
        WaveSync& sync = model(w).sync;
        ++sync.stores_completed;
        sync.published.reset();
    }

    // Global bounds are the executor's own fault; global accesses matter
    // only to the inter-workgroup check, for the kernels it watches.
    bool observes_global_memory() const override { return sync_; }
    // The checks read registers' ranges, never their values.
    bool reads_only_operands() const override { return true; }

    void memory_access(const Wave& w, const ExecInst& e, const MemoryAccess& a) override {
        if (a.space == MemoryAccess::Space::global) {
            if (sync_) check_global(w, e, a);
            return;
        }
        // Unaligned ds accesses are no finding: the HSA runtime runs gfx9 in
        // unaligned mode (docs/checkers.md); a misaligned atomic faults in
        // the executor. Atomics are meant to be shared.
        if (checker_.facts()[e.index].atomic) return;
        if (!lds_ready_) {
            lds_.reset(w.group->lds.size());
            lds_ready_ = true;
        }
        const LdsConflict c = lds_.check(a, e.index, w.id, !checker_.options().compare_lds_patterns);
        if (c.any()) report_race(w, e, a, c);
    }

    // The waves of a workgroup share their CU's L1, and the barrier orders
    // each wave's earlier accesses before every wave's later ones: what one
    // acquired, and the stores each had completed, all of them now know.
    void barrier_released(std::uint32_t) override {
        if (lds_ready_) lds_.new_epoch();
        if (!sync_) return;
        Knowledge all, all_scalar;
        for (auto& m : waves_) {
            join(all, m->sync.acquired);
            join(all, Knowledge{{m->sync.key, m->sync.stores_completed}});
            join(all_scalar, m->sync.acquired_scalar);
        }
        for (auto& m : waves_) {
            m->sync.acquired = all;
            m->sync.acquired_scalar = all_scalar;
            m->sync.published.reset();
        }
    }

    // A GWS barrier or semaphore (cooperative launches) orders the waves of
    // different workgroups: what a wave released to the resource, every
    // wave that later acquires from it has acquired. Counted as acquired,
    // not pending an L1 invalidation: hipcc's grid sync
    // (__ockl_grid_sync) invalidates the L1 in its agent-scope fence before
    // the barrier, not after; a line an L1 could take in between and serve
    // stale after the barrier is one a load racing with the store brought
    // in, which is reported at that load.
    void gws_release(const Wave& w, unsigned resource) override {
        if (sync_) checker_.global_sync().gws_release(resource, *model(w).sync.release());
    }
    void gws_acquire(const Wave& w, unsigned resource) override {
        if (!sync_) return;
        WaveSync& sync = model(w).sync;
        join(sync.acquired, checker_.global_sync().gws_released(resource));
        sync.published.reset();
    }

private:
    struct WaveModel {
        Scoreboard scoreboard;
        HazardTracker hazards;
        WaveSync sync;
    };
    using Key = std::tuple<Rule, std::uint32_t, bool, std::uint32_t>;

    const Checker& checker_;
    std::vector<std::unique_ptr<WaveModel>> waves_;
    LdsShadow lds_;
    bool lds_ready_ = false;  // reset for this workgroup's LDS size
    bool sync_ = false;       // GlobalSync::active(): global accesses are checked
    std::uint64_t workgroup_ = 0;
    std::vector<Finding> findings_;
    std::map<Key, std::size_t> seen_;
    std::vector<HazardHit> hits_;
    // The checker's plan (or every instruction), this workgroup's copy.
    std::vector<std::uint8_t> watched_;

    // Whether an entry matches what the plan's pending analysis assumed of its
    // instruction. If not, watching everything from its issue on leaves nothing
    // unchecked: what the entry changes has not run yet.
    bool as_planned(std::uint32_t index, WaitCounter counter, const RegRange& dest) const {
        const WatchPlan& plan = checker_.plan();
        if (plan.counter[index] != counter) return false;
        const RegRange& result = plan.load_result[index];
        return dest.count == 0 || (dest.slot >= result.slot && dest.slot + dest.count <= result.slot + result.count);
    }

    void reset(WaveModel& m, std::uint32_t wave) const {
        m.scoreboard.reset();
        m.hazards.reset(checker_.program().target, checker_.has_mfma());
        m.sync.reset(workgroup_ << 8 | wave);
    }

    WaveModel& model(const Wave& w) { return w.id < waves_.size() ? *waves_[w.id] : add_models(w.id); }
    [[gnu::noinline]] WaveModel& add_models(std::uint32_t wave) {
        while (waves_.size() <= wave) {
            waves_.push_back(std::make_unique<WaveModel>());
            reset(*waves_.back(), static_cast<std::uint32_t>(waves_.size() - 1));
        }
        return *waves_[wave];
    }

    [[gnu::noinline]] void check_global(const Wave& w, const ExecInst& e, const MemoryAccess& a) {
        GlobalSync& global = checker_.global_sync();
        WaveSync& sync = model(w).sync;
        const bool atomic = a.read && a.write;
        const bool scalar = e.inst->info().family == Family::SMEM;
        const bool bypass = atomic || (a.read && (scalar ? scalar_load_bypasses_cache(*e.inst)
                                                         : load_bypasses_l1(checker_.program().target, *e.inst)));
        const Knowledge& acquired = scalar ? sync.acquired_scalar : sync.acquired;
        std::optional<GlobalSync::Store> race;
        std::uint64_t race_lanes = 0, race_address = 0;
        for (unsigned l = 0; l < 64; ++l) {
            if (!((a.lanes >> l) & 1)) continue;
            const std::uint64_t address = a.address_of(0, l);
            if (bypass) global.read_synchronizing(sync, address, a.bytes_per_lane);
            if (a.write) {
                global.store(sync, w.group->id, e.index, address, a.bytes_per_lane, atomic);
            } else if (!bypass) {
                std::optional<GlobalSync::Store> st = global.unordered_store(sync, acquired, address, a.bytes_per_lane);
                if (!st) continue;
                if (!race) race = st, race_address = address;
                if (st->inst == race->inst) race_lanes |= std::uint64_t{1} << l;
            }
        }
        if (race) report_global_race(w, e, race_lanes, race_address, *race);
    }

    [[gnu::noinline]] void report_global_race(const Wave& w, const ExecInst& e, std::uint64_t lanes,
                                              std::uint64_t address, const GlobalSync::Store& st) {
        const std::string writer = "workgroup (" + std::to_string(st.workgroup[0]) + "," +
                                   std::to_string(st.workgroup[1]) + "," + std::to_string(st.workgroup[2]) + ") wave " +
                                   std::to_string(st.writer & 0xff);
        report(w, Rule::global_race, lanes, e.index, &st.inst, writer,
               "reads global " + hex(address) + ", written by " + writer +
                   " in this dispatch, with no release/acquire between (writer: s_waitcnt vmcnt(0) before a "
                   "store or atomic that this wave reads with glc/sc1 or an atomic; reader: then "
                   "buffer_wbinvl1_vol/buffer_inv before this load): the load may see the old value");
    }

    void check_published(const Wave& w, const ExecInst& e, const WaveModel& m) {
        if (const InFlightMemoryOp* write = m.scoreboard.unfinished_lds_write())
            report(w, Rule::lds_unpublished_write, 0, e.index, &write->inst, "",
                   "s_barrier while a ds_write is not covered by s_waitcnt lgkmcnt: other waves may read the LDS "
                   "before it is written");
    }

    // The instruction touches a register a load may still write.
    [[gnu::noinline]] void check_pending(const Wave& w, const ExecInst& e, const InstFacts& f, WaveModel& m) {
        for (unsigned i = 0; i < f.read_count; ++i)
            if (const InFlightMemoryOp* p = m.scoreboard.pending_in(f.reads[i])) {
                report(w, Rule::read_before_wait, p->lanes & w.exec(), e.index, &p->inst, "",
                       "reads " + range_name(f.reads[i]) + " before the load into it is covered by s_waitcnt " +
                           counter_name(*p));
                m.scoreboard.mark_reported(*p);
                break;
            }
        for (unsigned i = 0; i < f.write_count; ++i)
            if (const InFlightMemoryOp* p = m.scoreboard.pending_in(f.writes[i])) {
                report(w, Rule::overwrite_before_wait, p->lanes & w.exec(), e.index, &p->inst, "",
                       "writes " + range_name(f.writes[i]) + " while a load into it is in flight (s_waitcnt " +
                           counter_name(*p) + " missing): the load may land afterwards");
                m.scoreboard.mark_reported(*p);
                break;
            }
    }

    [[gnu::noinline]] void report_unordered_load(const Wave& w, const ExecInst& e, std::uint64_t lanes,
                                                 const InFlightMemoryOp& entry, const InFlightMemoryOp& other) {
        report(w, Rule::overwrite_before_wait, lanes, e.index, &other.inst, "",
               "loads into " + range_name(entry.dest) +
                   " while an earlier load into it, which may complete later, is in flight (" + counter_name(other) +
                   ")");
    }

    [[gnu::noinline]] void report_race(const Wave& w, const ExecInst& e, const MemoryAccess& a, const LdsConflict& c) {
        const std::string other = c.other_wave == ~0u ? "other waves" : "wave " + std::to_string(c.other_wave);
        const std::string verb = a.write ? "writes" : "reads";
        const std::string what = c.other_wrote ? "written" : "read";
        report(w, Rule::lds_race, c.lanes, e.index, &c.other_inst, other,
               verb + " LDS " + hex(c.address) + ", " + what + " by " + other + " with no s_barrier between");
    }

    [[gnu::noinline]] void report(const Wave& w, Rule rule, std::uint64_t lanes, std::uint32_t index,
                                  const std::uint32_t* earlier, const std::string& where, const std::string& message) {
        const Key key{rule, index, earlier != nullptr, earlier ? *earlier : 0};
        const auto it = seen_.find(key);
        if (it != seen_.end()) {
            ++findings_[it->second].occurrences;
            return;
        }
        if (findings_.size() >= checker_.options().max_findings) return;
        const Program& p = checker_.program();
        Finding f;
        f.rule = rule;
        f.kernel = p.kernel_name;
        f.workgroup = w.group->id;
        f.wave = w.id;
        f.lanes = lanes;
        f.pc = pc_of(p, index);
        f.instruction = p.disassemble(index);
        if (earlier) {
            f.has_earlier = true;
            f.earlier_pc = pc_of(p, *earlier);
            f.earlier_instruction = p.disassemble(*earlier);
            f.earlier_where = where;
        }
        f.message = message;
        seen_.emplace(key, findings_.size());
        findings_.push_back(std::move(f));
        if (checker_.options().stop_at_first)
            throw ExecError(FaultKind::checker_stop, std::string("checker: ") + rule_name(rule) + ": " + message);
    }
};

Checker::Checker(const Program& program, CheckOptions options)
    : program_(program),
      options_(options),
      facts_(inst_facts(program)),
      has_mfma_(HazardTracker::uses_matrix_core(facts_)),
      plan_(watch_plan(program, facts_)),
      global_sync_(program) {
    planned_entries_.resize(plan_.counter.size());
    for (std::size_t i = 0; i < planned_entries_.size(); ++i) {
        PlannedIssue& planned = planned_entries_[i];
        planned.counter = plan_.counter[i];
        if (i < facts_.size()) {
            planned.ds = facts_[i].ds;
            planned.flat = facts_[i].flat;
        }
        if (!plan_.counter[i]) continue;
        InFlightMemoryOp& entry = planned.entry;
        entry = entry_kind(*plan_.counter[i], planned.flat);
        entry.inst = static_cast<std::uint32_t>(i);
        entry.dest = plan_.load_result[i];
        entry.footprint = footprint_of(entry.dest);
    }
}

Checker::~Checker() = default;

std::unique_ptr<WorkgroupObserver> Checker::start(std::uint64_t workgroup_linear_id) {
    std::unique_ptr<WorkgroupObserver> observer;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!pool_.empty()) {
            observer = std::move(pool_.back());
            pool_.pop_back();
        }
    }
    if (!observer) observer = std::make_unique<WorkgroupChecker>(*this);
    static_cast<WorkgroupChecker&>(*observer).begin(workgroup_linear_id);
    return observer;
}

void Checker::finish(std::uint64_t workgroup_linear_id, std::unique_ptr<WorkgroupObserver> observer) {
    std::vector<Finding> found = static_cast<WorkgroupChecker&>(*observer).take_findings();
    std::lock_guard<std::mutex> lock(mutex_);
    if (!found.empty()) by_workgroup_[workgroup_linear_id] = std::move(found);
    pool_.push_back(std::move(observer));
}

void Checker::clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    by_workgroup_.clear();
    global_sync_.clear();
}

Rule rule_of_fault(const Fault& fault) {
    switch (fault.kind) {
    case FaultKind::global_out_of_bounds: return Rule::global_out_of_bounds;
    case FaultKind::lds_out_of_range: return Rule::lds_out_of_range;
    case FaultKind::lds_misaligned: return Rule::lds_misaligned;
    case FaultKind::scratch_without_allocation: return Rule::scratch_without_allocation;
    case FaultKind::scratch_out_of_segment: return Rule::scratch_out_of_segment;
    case FaultKind::past_end_of_code: return Rule::past_end_of_code;
    case FaultKind::watchdog: return Rule::watchdog;
    case FaultKind::misaligned:
    case FaultKind::bad_branch_target:
    case FaultKind::invalid_instruction:
    case FaultKind::invalid_operand:
    case FaultKind::not_implemented:
    case FaultKind::trap:
    case FaultKind::checker_stop:
    case FaultKind::no_gws:
    case FaultKind::deadlock: return Rule::execution_fault;
    }
    return Rule::execution_fault;
}

namespace {

Finding finding_of_fault(const Fault& fault) {
    Finding f;
    f.rule = rule_of_fault(fault);
    f.kernel = fault.kernel;
    f.workgroup = fault.workgroup;
    f.wave = fault.wave;
    f.pc = fault.pc;
    f.instruction = fault.instruction;
    f.message = fault.what + (fault.has_address ? " at " + hex(fault.address) : std::string());
    return f;
}

}  // namespace

std::vector<Finding> Checker::findings(const DispatchResult& result) const {
    std::vector<Finding> merged;
    std::map<std::tuple<Rule, std::uint32_t, bool, std::uint32_t>, std::size_t> index;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        for (const auto& [workgroup, found] : by_workgroup_)
            for (const Finding& f : found) {
                const auto key = std::make_tuple(f.rule, f.pc, f.has_earlier, f.earlier_pc);
                const auto it = index.find(key);
                if (it != index.end()) {
                    merged[it->second].occurrences += f.occurrences;
                } else if (merged.size() < options_.max_findings) {
                    index.emplace(key, merged.size());
                    merged.push_back(f);
                }
            }
    }
    if (!result.fault || result.fault->kind == FaultKind::checker_stop) return merged;
    const Fault& fault = *result.fault;
    for (const Finding& f : merged)
        if (f.workgroup == fault.workgroup && f.wave == fault.wave && f.pc == fault.pc) return merged;
    merged.push_back(finding_of_fault(fault));
    return merged;
}

}  // namespace dppgemm::emu::check
