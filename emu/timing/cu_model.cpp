#include "emu/timing/cu_model.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "emu/exec/wave.hpp"

namespace dppgemm::emu::timing {

const char* stall_name(Stall s) {
    static constexpr const char* names[] = {
#define DPPGEMM_STALL(name, meaning) #name,
        DPPGEMM_STALL_COMPONENTS(DPPGEMM_STALL)
#undef DPPGEMM_STALL
    };
    return names[static_cast<std::size_t>(s)];
}

const char* stall_meaning(Stall s) {
    static constexpr const char* meanings[] = {
#define DPPGEMM_STALL(name, meaning) meaning,
        DPPGEMM_STALL_COMPONENTS(DPPGEMM_STALL)
#undef DPPGEMM_STALL
    };
    return meanings[static_cast<std::size_t>(s)];
}

namespace {

using Cycle = std::uint64_t;
constexpr Cycle never = std::numeric_limits<Cycle>::max();
constexpr unsigned simds = 4;
// Waves go to SIMDs in this order, so that consecutive waves (and one-wave
// workgroups) land on different LDS pair ports {0,1} and {2,3}: assumed,
// the dispatcher's placement is not published.
constexpr unsigned simd_order[simds] = {0, 2, 1, 3};

struct LgkmEntry {
    Cycle retire;
};

struct SimWave {
    const WaveTrace* trace = nullptr;
    std::size_t next = 0;
    unsigned simd = 0;
    unsigned group = 0;
    std::uint64_t age = 0;
    Cycle hold_until = 0;  // earliest cycle of its next issue
    Cycle barrier_until = 0;
    bool ended = false, at_barrier = false;
    std::vector<Cycle> ready;  // per register, when its value is there
    std::vector<Cycle> vm;     // retire times, in issue order (vmcnt retires in order)
    std::vector<Cycle> lgkm;   // retire times (LDS in order, scalar memory in any order)
    Cycle last_vm_retire = 0, last_lds_retire = 0;
    // A blocked s_waitcnt: record `wait_record` waits until `wait_until`
    // (see try_issue).
    std::size_t wait_record = ~std::size_t{0};
    Cycle wait_until = 0;
    Stall wait_reason = Stall::lgkm_wait;
};

struct SimGroup {
    bool active = false;
    unsigned live = 0, arrived = 0;
    std::vector<SimWave> waves;
};

enum class Outcome : std::uint8_t { issued, issued_free, blocked };

class Cu {
public:
    Cu(const std::vector<StaticInst>& facts, const Parameters& p, const LaunchShape& shape)
        : p_(p), shape_(shape), facts_(facts) {
        const double per_cu_clock = p.compute_units * p.clock_mhz * 1e6;
        vmem_bytes_per_clock_ = std::min(p.vmem_bytes_per_clock, p.l2_gb_per_s * 1e9 / per_cu_clock);
    }

    CuModelResult run(const std::vector<std::uint64_t>& ids, const std::vector<std::size_t>& trace_of_id,
                      unsigned resident, const std::vector<WorkgroupTrace>& traces) {
        CuModelResult r;
        groups_.assign(resident, SimGroup{});
        std::size_t queued = 0;
        std::uint64_t age = 0;
        Cycle c = 0;
        bool changed = true;
        std::array<std::uint64_t, stall_count> windows{};
        for (;;) {
            // Start workgroups in free slots.
            for (unsigned g = 0; g < resident && queued < ids.size(); ++g) {
                if (groups_[g].active) continue;
                const WorkgroupTrace& t = traces[trace_of_id[queued++]];
                SimGroup& group = groups_[g];
                group.active = true;
                group.arrived = 0;
                group.live = static_cast<unsigned>(t.waves.size());
                group.waves.resize(t.waves.size());
                for (unsigned i = 0; i < t.waves.size(); ++i) {
                    SimWave& w = group.waves[i];
                    w.trace = &t.waves[i];
                    w.next = 0;
                    w.simd = simd_order[(g * shape_.waves_per_workgroup + i) % simds];
                    w.group = g;
                    w.age = age++;
                    w.hold_until = c;
                    w.barrier_until = 0;
                    w.ended = w.trace->records.empty();
                    w.at_barrier = false;
                    w.ready.assign(reg_count, 0);
                    w.vm.clear();
                    w.lgkm.clear();
                    w.last_vm_retire = w.last_lds_retire = 0;
                    w.wait_record = ~std::size_t{0};
                    if (w.ended) --group.live;
                }
                if (group.live == 0) group.active = false;
                changed = true;
            }
            if (changed) {
                rebuild();
                changed = false;
            }
            const unsigned s = static_cast<unsigned>(c % simds);
            if (s == 0 && queued == ids.size() &&
                std::none_of(groups_.begin(), groups_.end(), [](const SimGroup& g) { return g.active; }))
                break;
            turn(c, s, windows, changed);
            ++c;
        }
        r.cu_cycles = double(c);
        for (std::size_t i = 0; i < stall_count; ++i) r.components[i] = double(windows[i]);
        r.lds_port_busy_clocks = double(port_busy_[0] + port_busy_[1]);
        r.lds_port_utilisation = c ? r.lds_port_busy_clocks / (2.0 * double(c)) : 0;
        r.issued = issued_;
        return r;
    }

private:
    const Parameters& p_;
    const LaunchShape& shape_;
    const std::vector<StaticInst>& facts_;
    double vmem_bytes_per_clock_ = 64;
    std::vector<SimGroup> groups_;
    std::array<std::vector<SimWave*>, simds> by_simd_;
    std::array<Cycle, simds> valu_free_{};
    std::array<Cycle, simds> matrix_free_{};  // when the SIMD's matrix core ends its MFMA passes
    std::array<Cycle, 2> port_free_{};
    std::array<std::uint64_t, 2> port_busy_{};
    Cycle vmem_free_ = 0;
    std::array<std::uint64_t, inst_class_count> issued_{};

    void rebuild() {
        for (auto& list : by_simd_) list.clear();
        for (SimGroup& g : groups_)
            if (g.active)
                for (SimWave& w : g.waves)
                    if (!w.ended) by_simd_[w.simd].push_back(&w);
        for (auto& list : by_simd_)
            std::sort(list.begin(), list.end(), [](const SimWave* a, const SimWave* b) { return a->age < b->age; });
    }

    static void prune(std::vector<Cycle>& entries, Cycle c) {
        entries.erase(std::remove_if(entries.begin(), entries.end(), [c](Cycle t) { return t <= c; }), entries.end());
    }
    // When at most `keep` of the entries are outstanding. A blocked wait
    // asks again every turn, so the selection works on a copy on the stack
    // (the issue limits keep at most max_vm entries) instead of a vector.
    static Cycle counter_ready(const std::vector<Cycle>& entries, unsigned keep) {
        if (entries.size() <= keep) return 0;
        std::array<Cycle, std::max(InFlightQueue::max_vm, InFlightQueue::max_lgkm)> copy;
        if (entries.size() > copy.size()) {
            std::vector<Cycle> sorted = entries;
            std::sort(sorted.begin(), sorted.end());
            return sorted[sorted.size() - keep - 1];
        }
        const auto end = std::copy(entries.begin(), entries.end(), copy.begin());
        const auto nth = copy.begin() + (entries.size() - keep - 1);
        std::nth_element(copy.begin(), nth, end);
        return *nth;
    }

    void turn(Cycle c, unsigned s, std::array<std::uint64_t, stall_count>& windows, bool& changed) {
        unsigned units_used = 0;
        bool issued_any = false, valu_issued = false;
        const bool valu_was_busy = valu_free_[s] > c;
        const bool matrix_was_busy = matrix_free_[s] > c;
        Stall first_reason = Stall::idle;
        bool have_reason = false;
        for (SimWave* w : by_simd_[s]) {
            if (w->ended) continue;
            for (;;) {
                Stall reason = Stall::dependency;
                Unit unit = Unit::internal;
                const Outcome o = try_issue(*w, c, units_used, reason, unit, changed);
                if (o == Outcome::blocked) {
                    if (!have_reason) first_reason = reason, have_reason = true;
                    break;
                }
                issued_any = true;
                valu_issued |= unit == Unit::valu;
                if (o == Outcome::issued || w->ended) break;
            }
        }
        Stall window;
        if (valu_was_busy || valu_issued) window = Stall::valu;
        else if (matrix_was_busy) window = Stall::matrix;
        else if (issued_any) window = Stall::other_issue;
        else if (have_reason) window = first_reason;
        else window = Stall::idle;
        ++windows[static_cast<std::size_t>(window)];
    }

    bool registers_ready(const SimWave& w, const StaticInst& f, Cycle c) const {
        for (const RegSpan& span : f.reads) {
            if (span.count == 0) break;
            for (unsigned r = span.first; r < unsigned(span.first) + span.count && r < reg_count; ++r)
                if (w.ready[r] > c) return false;
        }
        return true;
    }
    static void mark_writes(SimWave& w, const StaticInst& f, Cycle when) {
        for (const RegSpan& span : f.writes) {
            if (span.count == 0) break;
            for (unsigned r = span.first; r < unsigned(span.first) + span.count && r < reg_count; ++r)
                w.ready[r] = when;
        }
    }

    void end_wave(SimWave& w, Cycle c, bool& changed) {
        w.ended = true;
        SimGroup& g = groups_[w.group];
        --g.live;
        if (g.live == 0) g.active = false;
        else if (g.arrived && g.arrived == g.live) release_barrier(g, c);
        changed = true;
    }
    void release_barrier(SimGroup& g, Cycle c) {
        const Cycle at = c + static_cast<Cycle>(p_.barrier_latency);
        for (SimWave& x : g.waves)
            if (x.at_barrier && x.barrier_until == never) x.barrier_until = at;
        g.arrived = 0;
    }

    Outcome try_issue(SimWave& w, Cycle c, unsigned& units_used, Stall& reason, Unit& unit, bool& changed) {
        if (w.at_barrier) {
            if (w.barrier_until > c) {
                reason = Stall::barrier_wait;
                return Outcome::blocked;
            }
            w.at_barrier = false;
        }
        if (w.hold_until > c) {
            reason = Stall::dependency;
            return Outcome::blocked;
        }
        const TraceRecord& rec = w.trace->records[w.next];
        const StaticInst& f = facts_[rec.inst];
        unit = f.unit;
        const unsigned unit_bit = 1u << static_cast<unsigned>(f.unit);
        if (f.unit != Unit::internal && (units_used & unit_bit)) {
            reason = Stall::dependency;
            return Outcome::blocked;
        }
        if (!registers_ready(w, f, c)) {
            reason = Stall::dependency;
            return Outcome::blocked;
        }
        const bool free_turn = f.unit == Unit::internal && p_.internal_takes_turn == 0;
        switch (f.unit) {
        case Unit::internal:
            if (f.cls == InstClass::waitcnt) {
                // A blocked wait asks again every turn. Until it issues the
                // wave adds no entries, so each counter stays ready at the
                // same cycle (its entries only age), and so does the reason:
                // both are kept from the first ask.
                if (w.wait_record == w.next && w.wait_until > c) {
                    reason = w.wait_reason;
                    return Outcome::blocked;
                }
                prune(w.vm, c);
                prune(w.lgkm, c);
                const Cycle vm = counter_ready(w.vm, f.wait_vm), lgkm = counter_ready(w.lgkm, f.wait_lgkm);
                if (vm > c || lgkm > c) {
                    reason = vm >= lgkm ? Stall::vm_wait : Stall::lgkm_wait;
                    w.wait_record = w.next;
                    w.wait_until = std::max(vm, lgkm);
                    w.wait_reason = reason;
                    return Outcome::blocked;
                }
            }
            break;
        case Unit::valu: {
            if (valu_free_[w.simd] > c || (f.mfma_cycles && matrix_free_[w.simd] > c)) {
                reason = Stall::dependency;
                return Outcome::blocked;
            }
            if (f.mfma_cycles) {
                // The passes hold the matrix core; the VALU is held as long
                // unless the op co-executes (MfmaShape::coexecutes_with_valu).
                const Cycle done = c + f.mfma_cycles;
                matrix_free_[w.simd] = done;
                valu_free_[w.simd] =
                    f.mfma_coexecutes ? c + std::max<Cycle>(static_cast<Cycle>(p_.mfma_valu_coexec_delay), 1) : done;
                mark_writes(w, f, done);
                break;
            }
            const Cycle busy = static_cast<Cycle>(f.valu64 ? p_.valu64_cycles : p_.valu_cycles);
            valu_free_[w.simd] = c + busy;
            mark_writes(w, f, c + busy);
            break;
        }
        case Unit::scalar:
            if (f.scalar_memory) {
                prune(w.lgkm, c);
                if (w.lgkm.size() >= InFlightQueue::max_lgkm) {
                    reason = Stall::lgkm_wait;
                    return Outcome::blocked;
                }
                const Cycle done = c + static_cast<Cycle>(p_.smem_latency);
                w.lgkm.push_back(done);
                if (f.returns) mark_writes(w, f, done);
            } else {
                mark_writes(w, f, c + 1);
            }
            break;
        case Unit::vmem: {
            prune(w.vm, c);
            if (w.vm.size() >= InFlightQueue::max_vm) {
                reason = Stall::vm_wait;
                return Outcome::blocked;
            }
            const Cycle start = std::max(c, vmem_free_);
            vmem_free_ = start + static_cast<Cycle>(std::ceil(double(rec.bytes) / vmem_bytes_per_clock_));
            const Cycle done = std::max(vmem_free_ + static_cast<Cycle>(p_.vmem_latency), w.last_vm_retire);
            w.last_vm_retire = done;
            w.vm.push_back(done);
            if (f.returns) mark_writes(w, f, done);
            break;
        }
        case Unit::lds: {
            prune(w.lgkm, c);
            if (w.lgkm.size() >= InFlightQueue::max_lgkm) {
                reason = Stall::lgkm_wait;
                return Outcome::blocked;
            }
            const unsigned port = w.simd / 2;
            if (p_.lds_issue_waits_for_port != 0 && port_free_[port] > c) {
                reason = Stall::dependency;
                return Outcome::blocked;
            }
            const double moved =
                double(rec.lanes) * p_.lds_address_bytes_per_lane * f.addresses_per_lane + double(rec.bytes);
            const Cycle occupancy =
                std::max<Cycle>(1, static_cast<Cycle>(std::ceil(moved / p_.lds_port_bytes_per_clock +
                                                                p_.lds_conflict_cost * double(rec.conflict_cycles))));
            const Cycle start = std::max(c, port_free_[port]);
            port_free_[port] = start + occupancy;
            port_busy_[port] += occupancy;
            const Cycle done = std::max(port_free_[port] + static_cast<Cycle>(p_.lds_latency), w.last_lds_retire);
            w.last_lds_retire = done;
            w.lgkm.push_back(done);
            if (f.returns) mark_writes(w, f, done);
            break;
        }
        case Unit::branch:
        case Unit::count: break;
        }
        if (f.unit != Unit::internal) units_used |= unit_bit;
        ++issued_[static_cast<std::size_t>(f.cls)];
        ++w.next;
        const Cycle turn_end = free_turn ? c : c + simds;
        w.hold_until = std::max(w.hold_until, turn_end);
        if (f.nop_wait_states)
            w.hold_until = std::max(w.hold_until,
                                    c + (p_.internal_takes_turn != 0 ? simds * f.nop_wait_states : f.nop_wait_states));
        if (f.unit == Unit::branch && w.next < w.trace->records.size() && w.trace->records[w.next].inst != rec.inst + 1)
            w.hold_until = std::max(w.hold_until, c + static_cast<Cycle>(p_.taken_branch_cycles));
        if (f.barrier) {
            SimGroup& g = groups_[w.group];
            w.at_barrier = true;
            w.barrier_until = never;
            if (++g.arrived == g.live) release_barrier(g, c);
        }
        if (f.ends || w.next >= w.trace->records.size()) end_wave(w, c, changed);
        return free_turn ? Outcome::issued_free : Outcome::issued;
    }
};

struct Occupancy {
    unsigned workgroups = 0;
    std::string limit;
};

Occupancy occupancy(const LaunchShape& shape, const Parameters& p) {
    // Waves are dealt to the SIMDs in turn (simd_order), so R workgroups put
    // ceil(R x waves / 4) waves on the fullest SIMD: at most `per_simd` waves
    // there allow floor(4 x per_simd / waves) workgroups.
    const double waves = shape.waves_per_workgroup;
    Occupancy o{static_cast<unsigned>(p.workgroups_per_cu), "workgroups"};
    auto limit = [&o, waves](double per_simd, const char* why) {
        const double n = std::floor(simds * std::floor(per_simd) / waves);
        const unsigned v = n < 0 ? 0 : static_cast<unsigned>(n);
        if (v < o.workgroups) o = {v, why};
    };
    limit(p.wave_slots_per_simd, "wave slots");
    if (shape.vgprs) limit(p.vgprs_per_simd_lane / shape.vgprs, "vgprs");
    if (shape.sgprs) limit(p.sgprs_per_simd / shape.sgprs, "sgprs");
    if (shape.lds_bytes && std::floor(p.lds_bytes / shape.lds_bytes) < o.workgroups)
        o = {static_cast<unsigned>(std::floor(p.lds_bytes / shape.lds_bytes)), "lds"};
    return o;
}

}  // namespace

LaunchShape launch_shape(const Program& program, const std::array<std::uint32_t, 3>& grid,
                         const std::array<std::uint32_t, 3>& block, std::uint32_t dynamic_lds) {
    LaunchShape shape;
    shape.grid = grid;
    const std::uint64_t items = std::uint64_t(block[0]) * block[1] * block[2];
    shape.waves_per_workgroup = static_cast<unsigned>((items + 63) / 64);
    shape.lds_bytes = program.descriptor.group_segment_fixed_size + dynamic_lds;
    shape.vgprs = program.descriptor.allocated_vgprs;
    shape.sgprs = program.descriptor.allocated_sgprs;
    return shape;
}

CuModelResult model_cu(const Program& program, const LaunchShape& shape, const std::vector<WorkgroupTrace>& traces,
                       const Parameters& p) {
    return model_cu(static_instructions(program), shape, traces, p);
}

CuModelResult model_cu(const std::vector<StaticInst>& facts, const LaunchShape& shape,
                       const std::vector<WorkgroupTrace>& traces, const Parameters& p) {
    if (traces.empty()) throw std::invalid_argument("the model needs at least one workgroup trace");
    const Occupancy occ = occupancy(shape, p);
    if (occ.workgroups == 0)
        throw std::invalid_argument("a workgroup of " + std::to_string(shape.waves_per_workgroup) +
                                    " waves does not fit on a compute unit (limited by " + occ.limit + ")");
    const std::uint64_t total = std::uint64_t(shape.grid[0]) * shape.grid[1] * shape.grid[2];
    const std::uint64_t cus = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(p.compute_units));
    auto trace_index = [&](std::uint64_t id) { return std::min(trace_for(shape.grid, id), traces.size() - 1); };

    // Whole-grid global bytes, each through L2 once (no L1 hits, no cache
    // misses modeled: DRAM traffic of a tiled kernel is far below this).
    std::vector<double> vmem_bytes(traces.size(), 0);
    for (std::size_t t = 0; t < traces.size(); ++t)
        for (const WaveTrace& w : traces[t].waves)
            for (const TraceRecord& r : w.records)
                if (facts[r.inst].unit == Unit::vmem) vmem_bytes[t] += r.bytes;
    double grid_bytes = 0;
    std::vector<std::uint64_t> ids;
    std::vector<std::size_t> trace_of_id;
    for (std::uint64_t id = 0; id < total; ++id) {
        grid_bytes += vmem_bytes[trace_index(id)];
        if (id % cus == 0) {
            ids.push_back(id);
            trace_of_id.push_back(trace_index(id));
        }
    }

    Cu cu(facts, p, shape);
    CuModelResult r = cu.run(ids, trace_of_id, occ.workgroups, traces);
    r.resident_workgroups = occ.workgroups;
    r.occupancy_limit = occ.limit;
    r.workgroups_on_cu = ids.size();
    r.l2_cycles = grid_bytes / (p.l2_gb_per_s * 1e9) * p.clock_mhz * 1e6;
    r.cycles = r.cu_cycles;
    if (r.l2_cycles > r.cu_cycles) {
        r.components[static_cast<std::size_t>(Stall::l2)] = r.l2_cycles - r.cu_cycles;
        r.cycles = r.l2_cycles;
    }
    r.milliseconds = r.cycles / (p.clock_mhz * 1e3);
    return r;
}

std::string to_json(const CuModelResult& r) {
    std::ostringstream s;
    s.precision(10);
    s << "{\"cycles\": " << r.cycles << ", \"milliseconds\": " << r.milliseconds << ", \"components\": {";
    for (std::size_t i = 0; i < stall_count; ++i)
        s << (i ? ", " : "") << '"' << stall_name(static_cast<Stall>(i)) << "\": " << r.components[i];
    s << "}, \"lds_port_utilisation\": " << r.lds_port_utilisation << ", \"cu_cycles\": " << r.cu_cycles
      << ", \"l2_cycles\": " << r.l2_cycles << ", \"resident_workgroups\": " << r.resident_workgroups
      << ", \"occupancy_limit\": \"" << r.occupancy_limit << "\", \"workgroups_on_cu\": " << r.workgroups_on_cu
      << ", \"issued\": {";
    for (std::size_t i = 0; i < inst_class_count; ++i)
        s << (i ? ", " : "") << '"' << inst_class_name(static_cast<InstClass>(i)) << "\": " << r.issued[i];
    s << "}}";
    return s.str();
}

std::string to_text(const CuModelResult& r) {
    std::ostringstream s;
    s.setf(std::ios::fixed);
    s.precision(4);
    s << "modeled time: " << r.milliseconds << " ms, " << std::llround(r.cycles)
      << " cycles (busiest CU: " << r.workgroups_on_cu << " workgroups, " << r.resident_workgroups
      << " at once, limited by " << r.occupancy_limit << ")\n";
    s.precision(1);
    s << "modeled breakdown (% of time):";
    for (std::size_t i = 0; i < stall_count; ++i)
        s << " " << stall_name(static_cast<Stall>(i)) << " "
          << (r.cycles > 0 ? 100.0 * r.components[i] / r.cycles : 0.0);
    s << "; LDS port utilisation " << 100.0 * r.lds_port_utilisation << "%\n";
    return s.str();
}

}  // namespace dppgemm::emu::timing
