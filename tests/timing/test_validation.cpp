// The model on synthetic traces against published figures (the facts F* and
// anchors A* of docs/performance-model.md, "Sources"), within the tolerances
// the validation plan gives, and the breakdown's bookkeeping.
#include <catch2/catch.hpp>
#include <cmath>
#include <numeric>

#include "synthetic.hpp"

using namespace timing_test;

namespace {

double total(const CuModelResult& r) { return std::accumulate(r.components.begin(), r.components.end(), 0.0); }
double share(const CuModelResult& r, Stall s) { return r.component(s) / r.cycles; }

// Tensile's gfx803 loops (A2) as gfx9 traces: 256 threads and 128 VGPRs, so
// 2 waves per SIMD; each iteration 512 multiply-adds with `reads`
// ds_read2_b64 spread among them, the wait, and the loop's scalar tail.
WorkgroupTrace tensile_loop(unsigned reads, unsigned iterations) {
    Waves w;
    for (unsigned it = 0; it < iterations; ++it) {
        for (unsigned block = 0; block < 8; ++block) {
            if (block < reads) w.add(ds_read2_b64);
            w.add(v_mac, 64);
        }
        for (unsigned extra = 8; extra < reads; ++extra) w.add(ds_read2_b64);
        w.add(waitcnt_lgkm0).add(salu, 2).add(branch_back);
    }
    return workgroup(w, 4);
}

// Multiply-add clocks over the CU's cycles: the loop efficiency.
double efficiency(const CuModelResult& r, const WorkgroupTrace& t, unsigned groups_per_cu, double valu_cycles) {
    double macs = 0;
    for (const TraceRecord& rec : t.waves[0].records) macs += rec.inst == v_mac;
    return macs * double(t.waves.size()) * groups_per_cu * valu_cycles / 4.0 / r.cycles;
}

}  // namespace

TEST_CASE("a pure VALU stream keeps its SIMD >= 99.5% busy at 1 and 2 waves per SIMD (F2: 99.98%)") {
    const Parameters p = parameters(Target::gfx90a);
    for (unsigned per_simd : {1u, 2u}) {
        const CuModelResult r = model(p, workgroup(Waves().add(v_mov, 1000), 4), per_simd);
        INFO("waves per SIMD " << per_simd);
        CHECK(share(r, Stall::valu) >= 0.995);
        CHECK(r.cycles >= 4000.0 * per_simd);
    }
}

TEST_CASE("1000 s_nop take 0.10-0.25 of the time of 1000 v_mov at full occupancy (F3: 14.2 / 99.3 ms)") {
    const Parameters p = parameters(Target::gfx90a);  // MI250: 8 wave slots per SIMD
    const unsigned groups = static_cast<unsigned>(p.wave_slots_per_simd);
    const double nops = model(p, workgroup(Waves().add(s_nop0, 1000), 4), groups).cycles;
    const double movs = model(p, workgroup(Waves().add(v_mov, 1000), 4), groups).cycles;
    CHECK(nops / movs >= 0.10);
    CHECK(nops / movs <= 0.25);
}

TEST_CASE("LDS write port: a 64-lane ds_write_b32 holds its pair port 8 clocks, b128 20 (F8)") {
    const Parameters p = parameters(Target::gfx906);
    for (auto [kind, clocks] : {std::pair{ds_write_b32, 8.0}, std::pair{ds_write_b128, 20.0}}) {
        const CuModelResult one = model(p, workgroup(Waves().add(kind), 1), 1);
        CHECK(one.lds_port_busy_clocks == clocks);
        const CuModelResult burst = model(p, workgroup(Waves().add(kind, 16), 1), 1);
        CHECK(burst.lds_port_busy_clocks == 16 * clocks);
    }
}

TEST_CASE("MI300X LDS bursts: 64 ds_reads per wave within 15%, conflict cost per cycle within 20% (F9)") {
    // The harness: one-wave workgroups with 32 KB of LDS, so two per CU, each
    // timing 64 independent ds_reads and the wait for them.
    const Parameters p = parameters(Target::gfx942);
    struct Case {
        Kind kind;
        double free, conflicted;        // clocks, measured
        std::uint16_t conflict_cycles;  // of one fully conflicted instruction (rocprof's and the executor's)
        double slope;                   // measured clocks per conflict cycle
    };
    const Case cases[] = {{ds_read_b32, 500.8, 6810, 62, 1.59},
                          {ds_read_b64, 852.3, 7158, 60, 1.64},
                          {ds_read_b128, 1384.5, 7615, 56, 1.74}};
    for (const Case& c : cases) {
        INFO("kind " << c.kind);
        const double free = model(p, workgroup(Waves().add(c.kind, 64).add(waitcnt_lgkm0), 1), 2, 32768).cycles;
        const double conflicted =
            model(p, workgroup(Waves().add(c.kind, 64, c.conflict_cycles).add(waitcnt_lgkm0), 1), 2, 32768).cycles;
        CHECK(std::abs(free / c.free - 1) <= 0.15);
        CHECK(std::abs(conflicted / c.conflicted - 1) <= 0.15);
        const double slope = (conflicted - free) / (64.0 * c.conflict_cycles);
        CHECK(std::abs(slope / c.slope - 1) <= 0.20);
    }
}

TEST_CASE("Tensile's loops: 98.7% with no reads, 97.5-97.9% with up to 7, never rising with reads (A2, +-1 point)") {
    const Parameters p = parameters(Target::gfx900);
    const unsigned iterations = 32;
    const WorkgroupTrace none = tensile_loop(0, iterations);
    const double base = efficiency(model(p, none, 2), none, 2, p.valu_cycles);
    CHECK(std::abs(base - 0.987) <= 0.01);
    double previous = base;
    for (unsigned reads = 1; reads <= 7; ++reads) {
        const WorkgroupTrace t = tensile_loop(reads, iterations);
        const CuModelResult r = model(p, t, 2);
        const double e = efficiency(r, t, 2, p.valu_cycles);
        INFO(reads << " reads: " << e << "\n" << to_text(r));
        CHECK(e >= 0.975 - 0.01);
        CHECK(e <= 0.979 + 0.01);
        CHECK(e <= previous + 1e-12);
        previous = e;
    }
}

TEST_CASE("a GCNGEMM-like trace runs at 97.6% +- 3 of peak (A1)") {
    // 64x64 tile, 8x8 per thread, one-wave workgroups, 2 waves per SIMD; per
    // step of 8 k: the LDS stores of the 4 global dwordx4 loads issued a step
    // before, a barrier, the next step's loads, then per k 4 ds_read_b128
    // (double-buffered one k ahead) and 64 multiply-adds.
    const Parameters p = parameters(Target::gfx900);
    Waves w;
    const unsigned steps = 64;
    w.add(buffer_load_x4, 4);
    for (unsigned step = 0; step < steps; ++step) {
        w.add(waitcnt_vm0).add(ds_write_b128, 4).add(waitcnt_lgkm0).add(barrier);
        if (step + 1 < steps) w.add(buffer_load_x4, 4);  // the next step's, a step ahead
        w.add(ds_read_b128, 4);
        for (unsigned k = 0; k < 8; ++k) {
            w.add(waitcnt_lgkm0);
            if (k < 7) w.add(ds_read_b128, 4);
            w.add(v_mac, 64);
        }
        w.add(salu, 2).add(branch_back);
    }
    // A 4096^2 C on the R9 Nano's 64 CUs: 64 workgroups per CU, 8 at once.
    const WorkgroupTrace t = workgroup(w, 1);
    const CuModelResult r = model(p, t, 64, 0, 128);  // 128 VGPRs: 2 waves per SIMD
    CHECK(r.resident_workgroups == 8);
    const double e = efficiency(r, t, 64, p.valu_cycles);
    INFO("efficiency " << e << "\n" << to_text(r));
    CHECK(std::abs(e - 0.976) <= 0.03);
}

TEST_CASE("the breakdown's components sum to the modeled cycles") {
    const Parameters p = parameters(Target::gfx942);
    const CuModelResult r = model(p, tensile_loop(5, 4), 3);
    CHECK(std::abs(total(r) - r.cycles) <= 1e-9 * r.cycles);
    CHECK(r.component(Stall::valu) > 0);
}
