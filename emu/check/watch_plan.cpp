#include "emu/check/watch_plan.hpp"

#include <algorithm>
#include <array>

#include "emu/check/hazards.hpp"
#include "emu/check/scoreboard.hpp"

namespace dppgemm::emu::check {
namespace {

// The counter an instruction's entry occupies, from the class the executor
// registered its function under (emu/exec/sem_*.cpp): each function of
// these classes issues exactly one entry, loads and stores alike.
std::optional<WaitCounter> counter_of(InstClass cls) {
    switch (cls) {
    case InstClass::vmem_load:
    case InstClass::vmem_store:
    case InstClass::vmem_atomic: return WaitCounter::vm;
    case InstClass::lds_read:
    case InstClass::lds_write: return WaitCounter::lgkm_lds;
    case InstClass::smem: return WaitCounter::lgkm_smem;
    default: return std::nullopt;
    }
}

// Classes whose entry may carry a result (a non-returning atomic of these
// classes has none: a superset is what the analysis needs).
bool may_load(InstClass cls) {
    return cls == InstClass::vmem_load || cls == InstClass::vmem_atomic || cls == InstClass::lds_read ||
           cls == InstClass::smem;
}

struct Flow {
    std::vector<std::vector<std::uint32_t>> successors, predecessors;
    bool known = true;  // false: an indirect branch, whose target is data
};

Flow control_flow(const Program& program) {
    const std::size_t n = program.code.size();
    Flow flow;
    flow.successors.resize(n);
    flow.predecessors.resize(n);
    auto edge = [&](std::uint32_t from, std::uint32_t to) {
        if (to >= n) return;
        flow.successors[from].push_back(to);
        flow.predecessors[to].push_back(from);
    };
    for (std::uint32_t i = 0; i < n; ++i) {
        const ExecInst& e = program.code[i];
        if (!e.inst) continue;  // the end of the code: the run stops there
        const OpInfo& info = e.inst->info();
        if (info.has(OF_ENDPGM)) continue;
        bool falls_through = true;
        if (info.has(OF_BRANCH)) {
            if (info.family != Family::SOPP) {  // s_setpc_b64, s_swappc_b64, s_call_b64
                flow.known = false;
                continue;
            }
            edge(i, e.target);  // no_target (an invalid target faults): no edge
            falls_through = e.inst->op != Op::s_branch;
        }
        if (falls_through) edge(i, e.next);
    }
    return flow;
}

// Visits every path that leads to path[0] (path[k]: the instruction k
// before it) and provides at least `missing` more wait states, or begins
// where waves begin. False when more than `budget` paths were followed.
template <class Visit>
bool each_window(const Flow& flow, const std::vector<InstFacts>& facts, std::uint32_t entry,
                 std::vector<std::uint32_t>& path, unsigned missing, unsigned& budget, const Visit& visit) {
    const std::uint32_t at = path.back();
    if (at == entry || flow.predecessors[at].empty()) visit(path);
    for (const std::uint32_t before : flow.predecessors[at]) {
        if (budget == 0) return false;
        --budget;
        path.push_back(before);
        const unsigned states = facts[before].wait_states;
        if (states >= missing) visit(path);
        else if (!each_window(flow, facts, entry, path, missing - states, budget, visit)) return false;
        path.pop_back();
    }
    return true;
}

// Marks the instructions that may break a wait-state rule, and the paths
// that lead to them. False when the paths are too many to follow.
bool plan_hazards(const Program& program, const std::vector<InstFacts>& facts, const Flow& flow, WatchPlan& plan) {
    const unsigned window = HazardTracker::window(facts);
    const bool mfma = window != HazardTracker::longest_wait;
    HazardTracker tracker;
    std::vector<HazardHit> hits;
    std::vector<std::uint32_t> path;
    for (std::uint32_t i = 0; i < program.code.size(); ++i) {
        const InstFacts& f = facts[i];
        if (f.end_of_code || !(f.hazard_reader || f.valu)) continue;  // VALU: the store-data rule
        bool may_hit = false;
        auto try_path = [&](const std::vector<std::uint32_t>& p) {
            tracker.reset(program.target, mfma);
            for (std::size_t k = p.size() - 1; k > 0; --k) tracker.issue(facts[p[k]], p[k]);
            hits.clear();
            tracker.check(f, program.code[i], hits);
            may_hit = may_hit || !hits.empty();
        };
        unsigned budget = 4096;
        path.assign(1, i);
        if (!each_window(flow, facts, program.entry, path, window, budget, try_path)) return false;
        if (!may_hit) continue;
        plan.watched[i] |= WatchPlan::hazard;
        auto mark = [&](const std::vector<std::uint32_t>& p) {
            for (std::size_t k = 1; k < p.size(); ++k) plan.watched[p[k]] |= WatchPlan::hazard_window;
        };
        path.assign(1, i);
        budget = 4096;
        each_window(flow, facts, program.entry, path, window, budget, mark);
    }
    return true;
}

// The loads that may be in flight at a point: each load instruction once,
// with the fewest in-order entries issued after it on any path (the more
// there are, the more an s_waitcnt certainly completes it; Scoreboard::wait).
struct MayPending {
    std::uint32_t inst = 0;
    std::uint8_t younger_vm = 0, younger_lds = 0;
};
using PendingState = std::vector<MayPending>;  // by inst

// Joins `from` into `into`; true when `into` changed.
bool join(PendingState& into, const PendingState& from) {
    bool changed = false;
    for (const MayPending& m : from) {
        auto it = std::lower_bound(into.begin(), into.end(), m.inst,
                                   [](const MayPending& a, std::uint32_t b) { return a.inst < b; });
        if (it == into.end() || it->inst != m.inst) {
            into.insert(it, m);
            changed = true;
            continue;
        }
        if (m.younger_vm < it->younger_vm || m.younger_lds < it->younger_lds) {
            it->younger_vm = std::min(it->younger_vm, m.younger_vm);
            it->younger_lds = std::min(it->younger_lds, m.younger_lds);
            changed = true;
        }
    }
    return changed;
}

std::uint8_t plus_one(std::uint8_t count) { return count == 0xff ? count : static_cast<std::uint8_t>(count + 1); }

PendingState after(const Program& program, const std::vector<InstFacts>& facts, const WatchPlan& plan, std::uint32_t i,
                   PendingState state) {
    const InstFacts& f = facts[i];
    if (f.waitcnt) {
        const Waitcnt& w = program.code[i].inst->waitcnt;
        state.erase(std::remove_if(state.begin(), state.end(),
                                   [&](const MayPending& m) {
                                       const InFlightMemoryOp kind =
                                           entry_kind(*plan.counter[m.inst], facts[m.inst].flat);
                                       return completes(kind, m.younger_vm, m.younger_lds, w.vmcnt, w.lgkmcnt);
                                   }),
                    state.end());
    }
    if (!plan.counter[i]) return state;
    // Only entries that leave their counter in order count as younger: a
    // FLAT entry may leave the vm count early, at lgkmcnt(0).
    const InFlightMemoryOp kind = entry_kind(*plan.counter[i], f.flat);
    const bool vm_in_order = kind.vm && !kind.lgkm;
    for (MayPending& m : state) {
        if (vm_in_order) m.younger_vm = plus_one(m.younger_vm);
        if (kind.lgkm_in_order) m.younger_lds = plus_one(m.younger_lds);
    }
    if (plan.load_result[i].count) join(state, PendingState{MayPending{i, 0, 0}});
    return state;
}

using SlotSet = std::array<std::uint64_t, slot_count / 64>;

void add_slots(SlotSet& set, const RegRange& r) {
    for (unsigned s = r.slot; s < unsigned(r.slot) + r.count && s < slot_count; ++s)
        set[s / 64] |= std::uint64_t{1} << (s % 64);
}

// Marks the instructions that touch a register a load may still be writing.
// False when the analysis does not settle (it always should: the states only
// grow and are finite).
bool plan_pending(const Program& program, const std::vector<InstFacts>& facts, const Flow& flow, WatchPlan& plan) {
    const std::size_t n = program.code.size();
    std::vector<std::optional<PendingState>> before(n);
    std::vector<std::uint32_t> work;
    if (program.entry >= n) return true;
    before[program.entry] = PendingState{};
    work.push_back(program.entry);
    std::size_t steps = 0;
    while (!work.empty()) {
        if (++steps > 1000 * n) return false;
        const std::uint32_t i = work.back();
        work.pop_back();
        const PendingState out = after(program, facts, plan, i, *before[i]);
        for (const std::uint32_t next : flow.successors[i]) {
            if (!before[next]) before[next] = out;
            else if (!join(*before[next], out)) continue;
            work.push_back(next);
        }
    }
    for (std::uint32_t i = 0; i < n; ++i) {
        if (!before[i] || before[i]->empty()) continue;
        SlotSet pending{};
        for (const MayPending& m : *before[i]) add_slots(pending, plan.load_result[m.inst]);
        const InstFacts& f = facts[i];
        for (unsigned w = 0; w < f.touched_words; ++w)
            if (pending[f.touched[w].word] & f.touched[w].bits) plan.watched[i] |= WatchPlan::pending;
    }
    return true;
}

}  // namespace

WatchPlan watch_plan(const Program& program, const std::vector<InstFacts>& facts) {
    const std::size_t n = program.code.size();
    WatchPlan plan;
    plan.watched.assign(n, 0);
    plan.counter.resize(n);
    plan.load_result.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const ExecInst& e = program.code[i];
        const InstFacts& f = facts[i];
        if (f.waitcnt || f.barrier || f.scratch || f.end_of_code) plan.watched[i] |= WatchPlan::always;
        if (!e.inst) continue;
        plan.counter[i] = counter_of(e.cls);
        if (may_load(e.cls)) plan.load_result[i] = range_of(e.dst);
    }
    const Flow flow = control_flow(program);
    if (!flow.known || !plan_hazards(program, facts, flow, plan) || !plan_pending(program, facts, flow, plan))
        for (std::uint8_t& w : plan.watched) w |= WatchPlan::unknown_flow;
    return plan;
}

}  // namespace dppgemm::emu::check
