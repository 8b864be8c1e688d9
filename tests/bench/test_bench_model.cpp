// The performance model behind every "modeled" figure: the bounds of
// docs/performance-model.md, checked on hand-made counters.
#include <catch2/catch.hpp>

#include "model.hpp"

using namespace dppgemm;
using namespace dppgemm::bench;

namespace {

// 4 waves per workgroup, like the dppgemm kernels.
Counters launch(std::uint64_t workgroups) {
    Counters c;
    c.workgroups = workgroups;
    c.waves = 4 * workgroups;
    return c;
}

}  // namespace

TEST_CASE("the VALU bound: one wave64 VALU instruction per clock per CU on the busiest CU") {
    const GpuSpec mi50 = *gpu_spec("gfx906");
    Counters c = launch(60 * 4);  // 4 workgroups on each of 60 CUs
    c.valu = 1'200'000;
    const Modeled m = model_launch(mi50, c, 2.0e9);
    CHECK(m.bound == "valu");
    CHECK(m.busiest_cu_workgroups == 4);
    CHECK(m.valu_cycles == Approx(1'200'000.0 / 60));
    CHECK(m.cycles == m.valu_cycles);
    CHECK(m.milliseconds == Approx(20'000.0 / 1725e3));
    CHECK(m.gflops == Approx(2.0e9 / (m.milliseconds * 1e6)));

    c.workgroups = c.waves / 4 + 1;  // one more workgroup: one CU runs 5
    c.waves += 4;
    CHECK(model_launch(mi50, c, 2.0e9).busiest_cu_workgroups == 5);
}

TEST_CASE("the LDS bound: 128 bytes per clock plus bank-conflict cycles") {
    const GpuSpec mi50 = *gpu_spec("gfx906");
    Counters c = launch(60);
    c.lds_read_bytes = 128ull * 60 * 1000;
    c.lds_bank_conflict_cycles = 60 * 500;
    const Modeled m = model_launch(mi50, c, 1.0);
    CHECK(m.bound == "lds");
    CHECK(m.lds_cycles == Approx(1500));
}

TEST_CASE("the issue bound: a wave issues at most one instruction every 4 clocks") {
    const GpuSpec vega = *gpu_spec("gfx900");  // 64 CUs, 2 resident workgroups
    Counters c = launch(64);                   // one workgroup per CU: nothing overlaps
    c.valu = 64 * 4 * 900;                     // 900 VALU + 100 SALU per wave
    c.salu = 64 * 4 * 100;
    const Modeled one = model_launch(vega, c, 1.0);
    CHECK(one.bound == "issue");
    CHECK(one.issue_cycles == Approx(4 * 1000));
    CHECK(one.valu_cycles == Approx(4 * 900));

    c = launch(128);  // two per CU, resident together: their issue overlaps, VALU does not
    c.valu = 128 * 4 * 900;
    c.salu = 128 * 4 * 100;
    const Modeled two = model_launch(vega, c, 1.0);
    CHECK(two.bound == "valu");
    CHECK(two.issue_cycles == Approx(4 * 1000));
    CHECK(two.valu_cycles == Approx(2 * 4 * 900));
}

TEST_CASE("the MFMA bound: a pass keeps its SIMD 4 clocks, beside the VALU") {
    const GpuSpec mi250x = *gpu_spec("gfx90a");  // 110 CUs
    Counters c = launch(110 * 2);                // 2 workgroups on each CU
    c.mfma_passes = 110 * 2 * 4 * 16 * 100;      // 100 16-pass MFMAs per wave
    c.valu = 110 * 2 * 4 * 50;                   // fewer VALU: they overlap, the MFMAs bound
    const Modeled m = model_launch(mi250x, c, 1.0);
    CHECK(m.bound == "mfma");
    CHECK(m.mfma_cycles == Approx(2 * 4 * 16 * 100));
    CHECK(m.cycles == m.mfma_cycles);
    CHECK(m.valu_cycles == Approx(2 * 4 * 50));
}

TEST_CASE("the memory bound: every global byte once at the GPU's bandwidth") {
    const GpuSpec mi100 = *gpu_spec("gfx908");
    Counters c = launch(1);
    c.global_read_bytes = 1'229'000'000;  // one millisecond at 1229 GB/s
    const Modeled m = model_launch(mi100, c, 1.0);
    CHECK(m.bound == "memory");
    CHECK(m.milliseconds == Approx(1.0));
}

TEST_CASE("no workgroups, no modeled time") {
    const Modeled m = model_launch(*gpu_spec("gfx942"), Counters{}, 1.0);
    CHECK(m.cycles == 0);
    CHECK(m.gflops == 0);
}

TEST_CASE("a packed FMA is one VALU instruction and two FMAs: same flops, half the VALU clocks") {
    // The same 128x128x8 step of 8x8 micro tiles per workitem: 512 v_fmac_f32 or
    // 256 v_pk_fma_f32 per wave. The flops come from the problem (2 M N K), never
    // from instruction counts, so the packed launch models twice the GFLOPS.
    const GpuSpec mi250x = *gpu_spec("gfx90a");
    const double flops = 2.0 * 128 * 128 * 8 * 110;
    Counters scalar = launch(110);  // one workgroup per CU
    scalar.valu = scalar.waves * 512;
    scalar.valu_multiply_add = scalar.valu;
    Counters packed = scalar;
    packed.valu = packed.waves * 256;
    packed.valu_multiply_add = packed.valu;
    const Modeled s = model_launch(mi250x, scalar, flops), p = model_launch(mi250x, packed, flops);
    CHECK(s.valu_cycles == Approx(4 * 512));
    CHECK(p.valu_cycles == Approx(4 * 256));
    CHECK(p.gflops == Approx(2 * s.gflops));
}
