#include "emu/timing/trace.hpp"

#include "emu/exec/mfma.hpp"

#include <algorithm>

#include "emu/exec/wave.hpp"

namespace dppgemm::emu::timing {

const char* unit_name(Unit unit) {
    static constexpr const char* names[] = {"valu", "scalar", "vmem", "lds", "branch", "internal"};
    static_assert(sizeof(names) / sizeof(names[0]) == unit_count);
    return names[static_cast<std::size_t>(unit)];
}

namespace {

RegSpan span_of(const Src& s) {
    RegSpan r;
    switch (s.kind) {
    case Src::Kind::vgpr: r.first = s.index; break;
    case Src::Kind::agpr: r.first = static_cast<std::uint16_t>(reg_agpr + s.index); break;
    case Src::Kind::sreg: r.first = static_cast<std::uint16_t>(reg_sreg + s.index); break;
    default: return r;
    }
    r.count = s.dwords ? s.dwords : 1;
    return r;
}

template <std::size_t N>
void add(std::array<RegSpan, N>& list, const RegSpan& r) {
    if (r.count == 0) return;
    for (RegSpan& slot : list) {
        if (slot.count == 0) {
            slot = r;
            return;
        }
        if (slot.first == r.first && slot.count == r.count) return;
    }
}

Unit unit_of(InstClass cls) {
    switch (cls) {
    case InstClass::valu: return Unit::valu;
    // Issued like a VALU op; its passes then hold the matrix core (cu_model.cpp).
    case InstClass::mfma: return Unit::valu;
    case InstClass::salu:
    case InstClass::smem: return Unit::scalar;
    case InstClass::vmem_load:
    case InstClass::vmem_store:
    case InstClass::vmem_atomic: return Unit::vmem;
    case InstClass::lds_read:
    case InstClass::lds_write: return Unit::lds;
    case InstClass::branch: return Unit::branch;
    default: return Unit::internal;
    }
}

}  // namespace

std::vector<StaticInst> static_instructions(const Program& program) {
    std::vector<StaticInst> out(program.code.size());
    for (std::size_t i = 0; i < program.code.size(); ++i) {
        const ExecInst& e = program.code[i];
        StaticInst& s = out[i];
        s.cls = e.cls;
        s.unit = unit_of(e.cls);
        if (!e.inst) {
            s.ends = true;
            continue;
        }
        const Inst& inst = *e.inst;
        const OpInfo& info = inst.info();
        s.barrier = info.has(OF_BARRIER);
        s.ends = info.has(OF_ENDPGM);
        if (info.has(OF_NOP)) s.nop_wait_states = static_cast<std::uint8_t>((inst.simm16 & 0xf) + 1);
        if (info.has(OF_WAITCNT)) {
            s.wait_vm = inst.waitcnt.vmcnt;
            s.wait_lgkm = inst.waitcnt.lgkmcnt;
        }
        if (e.cls == InstClass::mfma) {
            const MfmaShape& shape = mfma_shape(inst.op);
            s.mfma_cycles = static_cast<std::uint8_t>(4 * shape.passes(program.target));
            s.mfma_coexecutes = shape.coexecutes_with_valu(program.target);
        } else if (s.unit == Unit::valu) {
            for (OperandType t : info.types) s.valu64 |= t == OperandType::f64;
        }
        s.scalar_memory = e.cls == InstClass::smem;
        s.returns = e.cls == InstClass::vmem_load || e.cls == InstClass::lds_read ||
                    (e.cls == InstClass::smem && !info.has(OF_STORE));
        s.addresses_per_lane = info.has(OF_PAIR) ? 2 : 1;
        for (const Src& src : e.src) add(s.reads, span_of(src));
        add(s.reads, span_of(e.soffset));
        const bool vdata_read = info.family == Family::MUBUF || info.family == Family::MIMG;
        const bool stores_dst = (vdata_read && (info.has(OF_STORE) || info.has(OF_ATOMIC))) ||
                                (info.family == Family::SMEM && info.has(OF_STORE));
        if (stores_dst || info.has(OF_READS_DST)) add(s.reads, span_of(e.dst));
        if (s.unit == Unit::valu || s.unit == Unit::scalar || s.returns) {
            if (!stores_dst) add(s.writes, span_of(e.dst));
            add(s.writes, span_of(e.sdst));
            if (info.has(OF_WRITES_EXEC)) add(s.writes, RegSpan{static_cast<std::uint16_t>(reg_sreg + 126), 2});
        }
    }
    return out;
}

std::vector<std::uint64_t> representative_workgroups(const std::array<std::uint32_t, 3>& grid) {
    const std::uint64_t last = std::uint64_t(grid[0]) * grid[1] * grid[2] - 1;
    if (last == 0) return {0};
    return {0, last};
}

std::size_t trace_for(const std::array<std::uint32_t, 3>& grid, std::uint64_t linear_id) {
    const std::array<std::uint64_t, 3> id = {linear_id % grid[0], (linear_id / grid[0]) % grid[1],
                                             linear_id / (std::uint64_t(grid[0]) * grid[1])};
    for (int d = 0; d < 3; ++d)
        if (grid[d] > 1 && id[d] == grid[d] - 1) return 1;
    return 0;
}

namespace {

// Records one workgroup. The executor runs its waves one after another on
// one thread (an observer turns off the side-by-side mode), so the
// instruction announced last is the one that ran last: what the
// workgroup's counters gained since then (LDS and memory bytes, conflict
// cycles) belongs to it.
class WorkgroupRecorder : public WorkgroupObserver {
public:
    WorkgroupTrace trace;

    void before_instruction(const Wave& w, const ExecInst& e) override {
        const Counters& counters = w.group->counters;
        // Nothing runs between settling the last instruction and the
        // snapshot for this one: one sum of the bytes serves both.
        const std::uint64_t bytes = bytes_of(counters);
        settle(counters, bytes);
        if (trace.waves.size() <= w.id) trace.waves.resize(w.id + 1);
        std::vector<TraceRecord>& records = trace.waves[w.id].records;
        TraceRecord r;
        r.inst = e.index;
        // Full EXEC, the common case, without a popcount: the build's
        // baseline x86-64 has no popcnt instruction, and libgcc's
        // __popcountdi2 made up most of this function's cost.
        const std::uint64_t exec = w.exec();
        r.lanes = static_cast<std::uint8_t>(exec == ~0ull ? 64 : __builtin_popcountll(exec));
        records.push_back(r);
        ++trace.counters[e.cls];
        trace.counters.valu_multiply_add += e.multiply_add;
        last_wave_ = w.id;
        pending_ = true;
        conflicts_ = counters.lds_bank_conflict_cycles;
        bytes_ = bytes;
    }
    bool observes_global_memory() const override { return false; }
    void wave_ended(const Wave& w) override { settle(w.group->counters, bytes_of(w.group->counters)); }

private:
    bool pending_ = false;
    unsigned last_wave_ = 0;
    std::uint64_t conflicts_ = 0, bytes_ = 0;

    static std::uint64_t bytes_of(const Counters& c) {
        return c.lds_read_bytes + c.lds_write_bytes + c.global_read_bytes + c.global_write_bytes + c.scalar_read_bytes;
    }
    // The last instruction's record gets what the counters gained since it
    // was announced; `bytes` is bytes_of(c).
    void settle(const Counters& c, std::uint64_t bytes) {
        if (!pending_) return;
        pending_ = false;
        TraceRecord& r = trace.waves[last_wave_].records.back();
        r.conflict_cycles =
            static_cast<std::uint16_t>(std::min<std::uint64_t>(c.lds_bank_conflict_cycles - conflicts_, 0xffff));
        r.bytes = static_cast<std::uint32_t>(bytes - bytes_);
        trace.counters.lds_bank_conflict_cycles += r.conflict_cycles;
    }
};

}  // namespace

std::unique_ptr<WorkgroupObserver> TraceRecorder::start(std::uint64_t workgroup_linear_id) {
    if (!std::binary_search(wanted_.begin(), wanted_.end(), workgroup_linear_id)) return nullptr;
    auto recorder = std::make_unique<WorkgroupRecorder>();
    recorder->trace.linear_id = workgroup_linear_id;
    return recorder;
}

void TraceRecorder::finish(std::uint64_t workgroup_linear_id, std::unique_ptr<WorkgroupObserver> observer) {
    auto* recorder = dynamic_cast<WorkgroupRecorder*>(observer.get());
    if (!recorder) return;
    WorkgroupTrace trace = std::move(recorder->trace);
    trace.counters.workgroups = 1;
    trace.counters.waves = trace.waves.size();
    std::lock_guard<std::mutex> lock(mutex_);
    done_[workgroup_linear_id] = std::move(trace);
}

std::vector<WorkgroupTrace> TraceRecorder::traces() const {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<WorkgroupTrace> out;
    for (const auto& [id, trace] : done_) out.push_back(trace);
    return out;
}

}  // namespace dppgemm::emu::timing
