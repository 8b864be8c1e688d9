#include "synthetic.hpp"

namespace timing_test {

namespace {

RegSpan v(unsigned first, unsigned count = 1) {
    return RegSpan{static_cast<std::uint16_t>(first), static_cast<std::uint8_t>(count)};
}

StaticInst make(InstClass cls, Unit unit) {
    StaticInst s;
    s.cls = cls;
    s.unit = unit;
    return s;
}

}  // namespace

const std::vector<StaticInst>& facts() {
    static const std::vector<StaticInst> list = [] {
        std::vector<StaticInst> f(kind_count);
        f[v_mac] = make(InstClass::valu, Unit::valu);
        f[v_mac].reads = {v(96), v(97), v(0)};
        f[v_mac].writes = {v(0)};
        f[v_mov] = make(InstClass::valu, Unit::valu);
        f[v_mov].writes = {v(1)};
        f[s_nop0] = make(InstClass::nop, Unit::internal);
        f[s_nop0].nop_wait_states = 1;
        const std::pair<Kind, unsigned> reads[] = {{ds_read_b32, 1}, {ds_read_b64, 2}, {ds_read_b128, 4}};
        for (const auto& [kind, dwords] : reads) {
            f[kind] = make(InstClass::lds_read, Unit::lds);
            f[kind].returns = true;
            f[kind].reads = {v(3)};
            f[kind].writes = {v(64, dwords)};
        }
        f[ds_read2_b64] = f[ds_read_b128];
        f[ds_read2_b64].addresses_per_lane = 2;
        f[ds_write_b32] = make(InstClass::lds_write, Unit::lds);
        f[ds_write_b32].reads = {v(3), v(2)};
        f[ds_write_b128] = make(InstClass::lds_write, Unit::lds);
        f[ds_write_b128].reads = {v(3), v(4, 4)};
        f[waitcnt_lgkm0] = make(InstClass::waitcnt, Unit::internal);
        f[waitcnt_lgkm0].wait_vm = 63;
        f[waitcnt_lgkm0].wait_lgkm = 0;
        f[waitcnt_vm0] = make(InstClass::waitcnt, Unit::internal);
        f[waitcnt_vm0].wait_vm = 0;
        f[waitcnt_vm0].wait_lgkm = 15;
        f[barrier] = make(InstClass::barrier, Unit::internal);
        f[barrier].barrier = true;
        f[salu] = make(InstClass::salu, Unit::scalar);
        f[branch_back] = make(InstClass::branch, Unit::branch);
        f[buffer_load_x4] = make(InstClass::vmem_load, Unit::vmem);
        f[buffer_load_x4].returns = true;
        f[buffer_load_x4].writes = {v(8, 4)};
        f[endpgm] = make(InstClass::other, Unit::internal);
        f[endpgm].ends = true;
        return f;
    }();
    return list;
}

Waves& Waves::add(Kind kind, unsigned count, std::uint16_t conflict_cycles) {
    static constexpr std::uint32_t bytes_per_lane[kind_count] = {0, 0, 0, 4, 8, 16, 16, 4, 16, 0, 0, 0, 0, 0, 16, 0};
    for (unsigned i = 0; i < count; ++i) {
        TraceRecord r;
        r.inst = kind;
        r.lanes = 64;
        r.conflict_cycles = conflict_cycles;
        r.bytes = 64 * bytes_per_lane[kind];
        records.push_back(r);
    }
    return *this;
}

WorkgroupTrace workgroup(const Waves& body, unsigned waves) {
    Waves whole = body;
    whole.add(endpgm);
    WorkgroupTrace t;
    t.waves.assign(waves, WaveTrace{whole.records});
    for (const TraceRecord& r : whole.records) t.counters[facts()[r.inst].cls] += waves;
    t.counters.waves = waves;
    t.counters.workgroups = 1;
    return t;
}

CuModelResult model(const Parameters& p, const WorkgroupTrace& trace, unsigned groups_per_cu, std::uint32_t lds_bytes,
                    unsigned vgprs) {
    LaunchShape shape;
    shape.grid = {static_cast<std::uint32_t>(p.compute_units) * groups_per_cu, 1, 1};
    shape.waves_per_workgroup = static_cast<unsigned>(trace.waves.size());
    shape.lds_bytes = lds_bytes;
    shape.vgprs = vgprs;
    return model_cu(facts(), shape, {trace}, p);
}

}  // namespace timing_test
