// VALU/SALU semantics, each instruction family against an independent host
// computation (this file is compiled with -ffp-contract=off: a * b + c on the
// host is two roundings).

#include <catch2/catch.hpp>

#include <cfenv>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#include "kernel_builder.hpp"

using namespace exec_test;

namespace {

std::vector<std::uint32_t> random_floats(std::mt19937& rng, float lo = -4.0f, float hi = 4.0f) {
    std::uniform_real_distribution<float> dist(lo, hi);
    std::vector<std::uint32_t> v(64);
    for (auto& x : v) x = bits(dist(rng));
    return v;
}

float mul_then_add(float a, float b, float c) {
    const float product = a * b;  // rounded
    return product + c;           // rounded again
}

}  // namespace

TEST_CASE("v_mac_f32 rounds twice, v_fmac_f32 and v_fma_f32 once", "[alu][float]") {
    std::mt19937 rng(42);
    std::vector<std::uint32_t> a = random_floats(rng), b = random_floats(rng), c = random_floats(rng);
    // Lane 0: a chosen case where the two differ: (1 + 2^-12)^2 - (1 + 2^-11) is 2^-24 fused, 0 unfused.
    a[0] = bits(1.0f + 0x1p-12f);
    b[0] = bits(1.0f + 0x1p-12f);
    c[0] = bits(-(1.0f + 0x1p-11f));
    const auto mac = run_three("  v_mov_b32 v5, v4\n  v_mac_f32 v5, v2, v3", a, b, c);
    const auto fmac = run_three("  v_mov_b32 v5, v4\n  v_fmac_f32 v5, v2, v3", a, b, c);
    const auto fma = run_three("  v_fma_f32 v5, v2, v3, v4", a, b, c);
    const auto mad = run_three("  v_mad_f32 v5, v2, v3, v4", a, b, c);
    unsigned differ = 0;
    for (unsigned l = 0; l < 64; ++l) {
        const float x = from_bits(a[l]), y = from_bits(b[l]), z = from_bits(c[l]);
        CHECK(mac[l] == bits(mul_then_add(x, y, z)));
        CHECK(mad[l] == mac[l]);
        CHECK(fmac[l] == bits(std::fma(x, y, z)));
        CHECK(fma[l] == fmac[l]);
        differ += mac[l] != fmac[l];
    }
    CHECK(mac[0] == bits(0.0f));
    CHECK(fmac[0] == bits(0x1p-24f));
    CHECK(differ > 1);  // the random lanes differ too, sometimes
}

TEST_CASE("fp32 denormals follow the kernel's denorm mode, v_mac_f32 always flushes", "[alu][float][denorm]") {
    const float tiny = 0x1p-140f;  // denormal
    std::vector<std::uint32_t> a(64, bits(tiny)), b(64, bits(1.0f)), c(64, bits(0.0f));
    a[1] = bits(-tiny);
    KernelOptions keep, flush;
    keep.denorm_mode_32 = 3;
    flush.denorm_mode_32 = 0;
    const auto mul_keep = run_three("  v_mul_f32 v5, v2, v3", a, b, c, keep);
    const auto mul_flush = run_three("  v_mul_f32 v5, v2, v3", a, b, c, flush);
    CHECK(mul_keep[0] == bits(tiny));
    CHECK(mul_flush[0] == bits(0.0f));
    CHECK(mul_flush[1] == bits(-0.0f));  // flushed to a zero of the same sign
    // A normal product that underflows: 2^-100 * 2^-30.
    std::vector<std::uint32_t> x(64, bits(0x1p-100f)), y(64, bits(0x1p-30f));
    CHECK(run_three("  v_mul_f32 v5, v2, v3", x, y, c, keep)[0] == bits(0x1p-130f));
    CHECK(run_three("  v_mul_f32 v5, v2, v3", x, y, c, flush)[0] == bits(0.0f));
    CHECK(run_three("  v_fma_f32 v5, v2, v3, v4", x, y, c, keep)[0] == bits(0x1p-130f));
    // v_mac_f32: no denormals even in flush_none mode.
    CHECK(run_three("  v_mov_b32 v5, v4\n  v_mac_f32 v5, v2, v3", x, y, c, keep)[0] == bits(0.0f));
    CHECK(run_three("  v_mov_b32 v5, v4\n  v_mac_f32 v5, v2, v3", a, b, c, keep)[0] == bits(0.0f));
}

// The emulated arithmetic must not depend on the host thread's floating-point
// environment: a program built with -ffast-math starts with flush-to-zero and
// denormals-are-zero set (crtfastmath.o), and any program may change the
// rounding mode before it calls into the emulator (through hipemu or the BLAS).
TEST_CASE("fp32 results do not depend on the host's rounding mode or flush-to-zero", "[alu][float][denorm]") {
    std::vector<std::uint32_t> x(64, bits(0x1p-100f)), y(64, bits(0x1p-30f)), c(64, bits(0.0f));
    std::vector<std::uint32_t> one(64, bits(1.0f)), third(64, bits(1.0f / 3.0f)), tiny(64, bits(0x1p-30f));
    KernelOptions keep;
    keep.denorm_mode_32 = 3;
    auto run_all = [&] {
        return std::vector<std::vector<std::uint32_t>>{
            run_three("  v_mul_f32 v5, v2, v3", x, y, c, keep),        // a denormal product
            run_three("  v_fma_f32 v5, v2, v3, v4", x, one, y, keep),  // a denormal input
            run_three("  v_add_f32 v5, v2, v3", one, tiny, c, keep),   // rounds to nearest even
            run_three("  v_fma_f32 v5, v2, v3, v4", third, third, c, keep)};
    };
    const auto plain = run_all();
    CHECK(plain[0][0] == bits(0x1p-130f));
    CHECK(plain[2][0] == bits(1.0f));
    const int saved_rounding = std::fegetround();
    std::fesetround(FE_UPWARD);
#if defined(__x86_64__) || defined(__i386__)
    const unsigned saved_csr = _mm_getcsr();
    _mm_setcsr(saved_csr | 0x8040u);  // flush-to-zero and denormals-are-zero
#endif
    const auto changed = run_all();
#if defined(__x86_64__) || defined(__i386__)
    _mm_setcsr(saved_csr);
#endif
    std::fesetround(saved_rounding);
    for (std::size_t i = 0; i < plain.size(); ++i) CHECK(changed[i] == plain[i]);
}

TEST_CASE("multiply-adds flush denormal inputs before the product, not only the result", "[alu][float][denorm]") {
    KernelOptions keep, flush;
    keep.denorm_mode_32 = 3;
    flush.denorm_mode_32 = 0;
    // A denormal times 2^30 is a normal number unless the denormal is flushed first.
    std::vector<std::uint32_t> x(64, bits(0x1p-140f)), y(64, bits(0x1p30f)), zero(64, bits(0.0f));
    x[1] = bits(-0x1p-140f);
    const auto mac = run_three("  v_mov_b32 v5, v4\n  v_mac_f32 v5, v2, v3", x, y, zero, keep);
    CHECK(mac[0] == bits(0.0f));
    CHECK(mac[1] == bits(0.0f));  // -0 * 2^30 + +0
    CHECK(run_three("  v_mov_b32 v5, v4\n  v_fmac_f32 v5, v2, v3", x, y, zero, flush)[0] == bits(0.0f));
    CHECK(run_three("  v_mov_b32 v5, v4\n  v_fmac_f32 v5, v2, v3", x, y, zero, keep)[0] == bits(0x1p-110f));
    // The smallest normal product plus a denormal accumulator.
    std::vector<std::uint32_t> p(64, bits(0x1p-63f)), c(64, bits(0x1p-127f));
    CHECK(run_three("  v_mov_b32 v5, v4\n  v_mac_f32 v5, v2, v3", p, p, c, keep)[0] == bits(0x1p-126f));
    CHECK(run_three("  v_fma_f32 v5, v2, v3, v4", p, p, c, keep)[0] == bits(0x1.8p-126f));
    CHECK(run_three("  v_fma_f32 v5, v2, v3, v4", p, p, c, flush)[0] == bits(0x1p-126f));
}

// A flushing multiply-add run leaves the host's denormals-are-zero mode set
// for the instructions that cannot tell (host_float_mode.hpp): every float
// instruction after it must still see denormal inputs when the kernel keeps
// them, right after the run, after integer and scalar instructions that
// run under the mode, and in a multiply-add that keeps denormals.
TEST_CASE("a flushing multiply-add leaves no denormal flush behind it", "[alu][float][denorm]") {
    KernelOptions keep;
    keep.denorm_mode_32 = 3;
    const float tiny = 0x1p-140f;  // denormal
    std::vector<std::uint32_t> a(64, bits(tiny)), one(64, bits(1.0f)), zero(64, bits(0.0f));
    a[1] = bits(-tiny);
    const std::string flushing_run = "  v_mov_b32 v6, v4\n  v_mac_f32 v6, v2, v3\n  v_mac_f32 v6, v3, v3\n";
    const auto right_after = run_three(flushing_run + "  v_mul_f32 v5, v2, v3", a, one, zero, keep);
    const auto after_integers = run_three(flushing_run +
                                              "  v_add_u32 v7, v2, v3\n  s_add_u32 s24, s24, 1\n  s_nop 0\n"
                                              "  v_add_f32 v5, v2, v4",
                                          a, one, zero, keep);
    const auto fused_after =
        run_three(flushing_run + "  v_mov_b32 v5, v4\n  v_fmac_f32 v5, v2, v3", a, one, zero, keep);
    for (const auto* result : {&right_after, &after_integers, &fused_after}) {
        CHECK((*result)[0] == bits(tiny));
        CHECK((*result)[1] == bits(-tiny));
    }
}

TEST_CASE("consecutive multiply-adds: partial EXEC, DPP and a branch into the run", "[alu][float]") {
    // The executor runs consecutive multiply-adds in one call; every way into
    // and through such a run must give each instruction's own result and count.
    const CodeObject co = assemble_kernel(std::string(load_three) + R"(
  v_mov_b32 v5, v4
  s_mov_b64 exec, 0xffff
  v_mac_f32 v5, v2, v3
  v_mac_f32_dpp v5, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
  v_mac_f32 v5, v2, v3
  s_mov_b64 exec, -1
  v_mac_f32 v5, v2, v3
  s_branch .Lmiddle
  v_mac_f32 v5, v2, v3
.Lmiddle:
  v_mac_f32 v5, v2, v3
  v_mac_f32 v5, v2, v3
  global_store_dword v1, v5, s[4:5]
)");
    const Program program = build_program(co, co.kernels.at(0));
    std::mt19937 rng(21);
    const std::vector<std::uint32_t> a = random_floats(rng), b = random_floats(rng), c = random_floats(rng);
    TestRun run(64);
    run.fill(1, a);
    run.fill(2, b);
    run.fill(3, c);
    const DispatchResult r = run.run(program);
    REQUIRE(r.ok());
    const std::vector<std::uint32_t> out = run.read(0, 64);
    auto mac = [&](float acc, unsigned lane_a, unsigned lane) {
        return mul_then_add(from_bits(a[lane_a]), from_bits(b[lane]), acc);
    };
    for (unsigned l = 0; l < 64; ++l) {
        float acc = from_bits(c[l]);
        if (l < 16) acc = mac(mac(mac(acc, l, l), l ^ 1, l), l, l);
        for (int i = 0; i < 3; ++i) acc = mac(acc, l, l);
        INFO("lane " << l);
        CHECK(out[l] == bits(acc));
    }
    CHECK(r.counters.valu_multiply_add == 6);
    CHECK(r.counters.valu_dpp == 1);
}

TEST_CASE("a wave that faults keeps the multiply-adds and DPP instructions it ran in its counts", "[alu][float]") {
    // The run loop sums these two counts while the wave runs and adds them
    // to the workgroup's when it stops: a fault stops it too.
    const CodeObject co = assemble_kernel(std::string(load_three) + R"(
  v_mac_f32 v5, v2, v3
  v_mac_f32_dpp v5, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
  v_mov_b32_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
  s_nop 0
  v_mac_f32 v5, v2, v3
  s_set_gpr_idx_off
)");
    const Program program = build_program(co, co.kernels.at(0));
    TestRun run(64);
    run.fill(1, std::vector<std::uint32_t>(64, bits(1.0f)));
    run.fill(2, std::vector<std::uint32_t>(64, bits(2.0f)));
    run.fill(3, std::vector<std::uint32_t>(64, 0));
    const DispatchResult r = run.run(program);
    REQUIRE(r.fault.has_value());
    CHECK(r.fault->instruction == "s_set_gpr_idx_off");
    CHECK(r.counters.valu_multiply_add == 3);
    CHECK(r.counters.valu_dpp == 2);
}

namespace {
// Watches every instruction and does nothing: its runs take run_wave's
// observed loop.
struct WatchAll : DispatchObserver {
    std::unique_ptr<WorkgroupObserver> start(std::uint64_t) override { return std::make_unique<WorkgroupObserver>(); }
    void finish(std::uint64_t, std::unique_ptr<WorkgroupObserver>) override {}
};
}  // namespace

TEST_CASE("a faulting wave counts the same with and without an observer", "[alu][float]") {
    // The run loop keeps some counts in registers and adds them when the
    // wave stops; an observer takes another loop: both count alike.
    const CodeObject co = assemble_kernel(std::string(load_three) + R"(
  s_add_u32 s40, s40, 1
  v_mac_f32 v5, v2, v3
  v_mac_f32_dpp v5, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
  s_nop 0
  s_set_gpr_idx_off
)");
    const Program program = build_program(co, co.kernels.at(0));
    DispatchResult results[2];
    for (int observed = 0; observed < 2; ++observed) {
        TestRun run(64);
        WatchAll watch;
        if (observed) run.observer = &watch;
        results[observed] = run.run(program);
        REQUIRE(results[observed].fault.has_value());
        CHECK(results[observed].fault->instruction == "s_set_gpr_idx_off");
        CHECK(results[observed].counters.valu_multiply_add == 2);
        CHECK(results[observed].counters.valu_dpp == 1);
        CHECK(results[observed].counters[InstClass::nop] == 1);
    }
    CHECK(results[0].counters == results[1].counters);
    CHECK(results[0].counters[InstClass::salu] == 1);  // s_add_u32
}

TEST_CASE("v_madak_f32 and v_madmk_f32 run and count as multiply-adds", "[alu][float]") {
    // The *ak/*mk forms are v_mad_f32 with a literal K (Vega ISA, VOP2: "D = S0 * S1 + K",
    // "D = S0 * K + S1"): fp32 multiply-adds like v_mac_f32, counted as such.
    const CodeObject co = assemble_kernel(std::string(load_three) + R"(
  v_madak_f32 v5, v2, v3, 0x3f000000
  v_madak_f32 v6, v5, v3, 0x3f000000
  v_madmk_f32 v7, v6, 0x40000000, v2
  global_store_dword v1, v7, s[4:5]
)");
    const Program program = build_program(co, co.kernels.at(0));
    std::mt19937 rng(22);
    const std::vector<std::uint32_t> a = random_floats(rng), b = random_floats(rng);
    TestRun run(64);
    run.fill(1, a);
    run.fill(2, b);
    run.fill(3, std::vector<std::uint32_t>(64, 0));
    const DispatchResult r = run.run(program);
    REQUIRE(r.ok());
    const std::vector<std::uint32_t> out = run.read(0, 64);
    for (unsigned l = 0; l < 64; ++l) {
        const float x = from_bits(a[l]), y = from_bits(b[l]);
        const float v5 = mul_then_add(x, y, 0.5f), v6 = mul_then_add(v5, y, 0.5f);
        INFO("lane " << l);
        CHECK(out[l] == bits(mul_then_add(v6, 2.0f, x)));
    }
    CHECK(r.counters.valu_multiply_add == 3);
}

TEST_CASE("NaN and infinity", "[alu][float]") {
    const float inf = std::numeric_limits<float>::infinity();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    std::vector<std::uint32_t> a(64, bits(1.0f)), b(64, bits(2.0f)), c(64, 0);
    a[0] = bits(nan);
    b[1] = bits(nan);
    a[2] = bits(nan), b[2] = bits(nan);
    a[3] = bits(inf), b[3] = bits(0.0f);
    a[4] = bits(-inf), b[4] = bits(5.0f);
    const auto max = run_three("  v_max_f32 v5, v2, v3", a, b, c);
    const auto min = run_three("  v_min_f32 v5, v2, v3", a, b, c);
    const auto mul = run_three("  v_mul_f32 v5, v2, v3", a, b, c);
    const auto legacy = run_three("  v_mul_legacy_f32 v5, v2, v3", a, b, c);
    CHECK(max[0] == bits(2.0f));  // one NaN: the other operand
    CHECK(max[1] == bits(1.0f));
    CHECK(std::isnan(from_bits(max[2])));
    CHECK(min[0] == bits(2.0f));
    CHECK(min[4] == bits(-inf));
    CHECK(max[4] == bits(5.0f));
    CHECK(std::isnan(from_bits(mul[0])));
    CHECK(std::isnan(from_bits(mul[3])));  // inf * 0
    CHECK(mul[4] == bits(-inf));
    CHECK(legacy[3] == bits(0.0f));  // legacy: 0 * anything = 0
    const auto cmp = run_three("  v_cmp_u_f32 vcc, v2, v3\n  v_cndmask_b32 v5, 0, 1, vcc", a, b, c);
    CHECK(cmp[0] == 1);
    CHECK(cmp[2] == 1);
    CHECK(cmp[3] == 0);
    CHECK(cmp[5] == 0);
    const auto lt = run_three("  v_cmp_lt_f32 vcc, v2, v3\n  v_cndmask_b32 v5, 0, 1, vcc", a, b, c);
    CHECK(lt[0] == 0);  // ordered compare with NaN: false
    CHECK(lt[5] == 1);
    const auto nge = run_three("  v_cmp_nge_f32 vcc, v2, v3\n  v_cndmask_b32 v5, 0, 1, vcc", a, b, c);
    CHECK(nge[0] == 1);  // unordered: true
}

TEST_CASE("integer VALU ops against host arithmetic", "[alu][int]") {
    std::mt19937 rng(3);
    std::vector<std::uint32_t> a(64), b(64), c(64);
    for (unsigned l = 0; l < 64; ++l) a[l] = rng(), b[l] = rng(), c[l] = rng() % 40;
    a[0] = 0xffffffffu, b[0] = 1;  // carry
    struct Case {
        const char* op;
        std::uint32_t (*host)(std::uint32_t, std::uint32_t, std::uint32_t);
    };
    const Case cases[] = {
        {"  v_add_u32 v5, v2, v3", [](std::uint32_t x, std::uint32_t y, std::uint32_t) { return x + y; }},
        {"  v_sub_u32 v5, v2, v3", [](std::uint32_t x, std::uint32_t y, std::uint32_t) { return x - y; }},
        {"  v_subrev_u32 v5, v2, v3", [](std::uint32_t x, std::uint32_t y, std::uint32_t) { return y - x; }},
        {"  v_mul_lo_u32 v5, v2, v3", [](std::uint32_t x, std::uint32_t y, std::uint32_t) { return x * y; }},
        {"  v_mul_hi_u32 v5, v2, v3",
         [](std::uint32_t x, std::uint32_t y, std::uint32_t) { return std::uint32_t((std::uint64_t(x) * y) >> 32); }},
        {"  v_mul_hi_i32 v5, v2, v3",
         [](std::uint32_t x, std::uint32_t y, std::uint32_t) {
             return std::uint32_t(std::uint64_t(std::int64_t(std::int32_t(x)) * std::int32_t(y)) >> 32);
         }},
        {"  v_mul_u32_u24 v5, v2, v3",
         [](std::uint32_t x, std::uint32_t y, std::uint32_t) { return (x & 0xffffff) * (y & 0xffffff); }},
        {"  v_lshlrev_b32 v5, v4, v2", [](std::uint32_t x, std::uint32_t, std::uint32_t s) { return x << (s & 31); }},
        {"  v_lshrrev_b32 v5, v4, v2", [](std::uint32_t x, std::uint32_t, std::uint32_t s) { return x >> (s & 31); }},
        {"  v_ashrrev_i32 v5, v4, v2",
         [](std::uint32_t x, std::uint32_t, std::uint32_t s) { return std::uint32_t(std::int32_t(x) >> (s & 31)); }},
        {"  v_and_b32 v5, v2, v3", [](std::uint32_t x, std::uint32_t y, std::uint32_t) { return x & y; }},
        {"  v_or_b32 v5, v2, v3", [](std::uint32_t x, std::uint32_t y, std::uint32_t) { return x | y; }},
        {"  v_xor_b32 v5, v2, v3", [](std::uint32_t x, std::uint32_t y, std::uint32_t) { return x ^ y; }},
        {"  v_lshl_add_u32 v5, v2, v4, v3",
         [](std::uint32_t x, std::uint32_t y, std::uint32_t s) { return (x << (s & 31)) + y; }},
        {"  v_add3_u32 v5, v2, v3, v4", [](std::uint32_t x, std::uint32_t y, std::uint32_t z) { return x + y + z; }},
        {"  v_bfe_u32 v5, v2, v4, 5",
         [](std::uint32_t x, std::uint32_t, std::uint32_t s) { return (x >> (s & 31)) & 31u; }},
        {"  v_min_i32 v5, v2, v3",
         [](std::uint32_t x, std::uint32_t y, std::uint32_t) { return std::int32_t(x) < std::int32_t(y) ? x : y; }},
        {"  v_max_u32 v5, v2, v3", [](std::uint32_t x, std::uint32_t y, std::uint32_t) { return x > y ? x : y; }},
        {"  v_cvt_f32_u32 v5, v2", [](std::uint32_t x, std::uint32_t, std::uint32_t) { return bits(float(x)); }},
        {"  v_cvt_f32_i32 v5, v2",
         [](std::uint32_t x, std::uint32_t, std::uint32_t) { return bits(float(std::int32_t(x))); }},
        {"  v_not_b32 v5, v2", [](std::uint32_t x, std::uint32_t, std::uint32_t) { return ~x; }},
        {"  v_bcnt_u32_b32 v5, v2, v4",
         [](std::uint32_t x, std::uint32_t, std::uint32_t z) { return std::uint32_t(__builtin_popcount(x)) + z; }},
    };
    for (const Case& k : cases) {
        INFO(k.op);
        const auto out = run_three(k.op, a, b, c);
        for (unsigned l = 0; l < 64; ++l) CHECK(out[l] == k.host(a[l], b[l], c[l]));
    }
}

TEST_CASE("64-bit add with carry, 64-bit shift, v_mad_u64_u32", "[alu][int]") {
    std::mt19937 rng(8);
    std::vector<std::uint32_t> a(64), b(64), c(64);
    for (unsigned l = 0; l < 64; ++l) a[l] = rng(), b[l] = rng(), c[l] = rng() % 64;
    a[0] = 0xffffffffu;
    b[0] = 0xffffffffu;
    // (a:b) + (b:a) as 64-bit numbers via v_add_co_u32 / v_addc_co_u32; high half stored.
    const auto hi = run_three("  v_add_co_u32 v6, vcc, v2, v3\n  v_addc_co_u32 v5, vcc, v3, v2, vcc", a, b, c);
    const auto shifted = run_three(
        "  v_mov_b32 v7, v3\n  v_mov_b32 v6, v2\n  v_lshlrev_b64 v[6:7], v4, v[6:7]\n  v_mov_b32 v5, v7", a, b, c);
    const auto mad = run_three(
        "  v_mov_b32 v7, 0\n  v_mov_b32 v6, v4\n  v_mad_u64_u32 v[6:7], s[20:21], v2, v3, v[6:7]\n  v_mov_b32 v5, v7",
        a, b, c);
    for (unsigned l = 0; l < 64; ++l) {
        const std::uint64_t x = a[l] | (std::uint64_t(b[l]) << 32), y = b[l] | (std::uint64_t(a[l]) << 32);
        CHECK(hi[l] == std::uint32_t((x + y) >> 32));
        CHECK(shifted[l] == std::uint32_t((x << (c[l] & 63)) >> 32));
        CHECK(mad[l] == std::uint32_t((std::uint64_t(a[l]) * b[l] + c[l]) >> 32));
    }
}

TEST_CASE("scalar ALU: carries, compares, branches, mul_hi", "[alu][salu]") {
    // s16 = u0 + u1 with carry into s17 via s_addc; s18 = mul_hi(u0, u1); s19 = u0 < u1 (signed) via scc branch.
    const CodeObject co = assemble_kernel(R"(
  s_add_u32 s16, s12, s13
  s_addc_u32 s17, 0, 0
  s_mul_hi_u32 s18, s12, s13
  s_mov_b32 s19, 7
  s_cmp_lt_i32 s12, s13
  s_cbranch_scc0 .Lskip
  s_mov_b32 s19, 9
.Lskip:
  s_lshl_b64 s[20:21], s[12:13], 4
  s_bfe_u32 s22, s12, (8 << 16) | 4
  s_sub_u32 s23, s12, s13
  s_subb_u32 s24, 0, 0
  v_mov_b32 v5, s16
  v_mov_b32 v6, s17
  v_mov_b32 v7, s18
  v_mov_b32 v8, s19
  v_mov_b32 v9, s20
  v_mov_b32 v10, s21
  v_mov_b32 v11, s22
  v_mov_b32 v12, s24
  v_mov_b32 v13, 0
  global_store_dwordx4 v13, v[5:8], s[4:5]
  global_store_dwordx4 v13, v[9:12], s[4:5] offset:16
)");
    const Program program = build_program(co, co.kernels.at(0));
    TestRun run(64);
    run.value = {0xfffffff0u, 0x20u, 0, 0};  // u0 < u1 unsigned? no; signed: -16 < 32 yes
    REQUIRE(run.run(program).ok());
    const auto out = run.read(0, 8);
    const std::uint64_t pair = 0xfffffff0ull | (0x20ull << 32);
    CHECK(out[0] == 0x10u);  // low 32 bits of the sum
    CHECK(out[1] == 1u);     // carry
    CHECK(out[2] == std::uint32_t((0xfffffff0ull * 0x20ull) >> 32));
    CHECK(out[3] == 9u);  // branch not taken: signed compare true
    CHECK(out[4] == std::uint32_t(pair << 4));
    CHECK(out[5] == std::uint32_t((pair << 4) >> 32));
    CHECK(out[6] == ((0xfffffff0u >> 4) & 0xffu));
    CHECK(out[7] == 0u);  // 0xfffffff0 - 0x20: no borrow
}

TEST_CASE("EXEC masking, v_cmpx and s_and_saveexec with s_cbranch_execz", "[alu][exec]") {
    // Lanes with an odd id write 1, the others keep 5; lanes >= 48 are then
    // disabled by saveexec and a skipped block would have written 7.
    const CodeObject co = assemble_kernel(R"(
  v_mov_b32 v5, 5
  v_and_b32 v2, 1, v0
  v_cmp_eq_u32 vcc, 1, v2
  s_and_saveexec_b64 s[20:21], vcc
  v_mov_b32 v5, 1
  s_or_b64 exec, exec, s[20:21]
  v_cmpx_gt_u32 vcc, 48, v0
  v_add_u32 v5, 10, v5
  s_mov_b64 exec, 0
  s_cbranch_execz .Lout
  v_mov_b32 v5, 7
.Lout:
  s_mov_b64 exec, -1
  global_store_dword v1, v5, s[4:5]
)");
    const Program program = build_program(co, co.kernels.at(0));
    TestRun run(64);
    REQUIRE(run.run(program).ok());
    const auto out = run.read(0, 64);
    for (unsigned l = 0; l < 64; ++l) {
        const std::uint32_t base = (l & 1) ? 1u : 5u;
        CHECK(out[l] == (l < 48 ? base + 10 : base));
    }
}

TEST_CASE("v_readlane, v_writelane, v_readfirstlane, v_mbcnt", "[alu][lanes]") {
    const CodeObject co = assemble_kernel(R"(
  v_mul_u32_u24 v2, 3, v0
  v_readlane_b32 s20, v2, 17
  v_mov_b32 v5, s20
  s_movk_i32 s24, 100
  v_writelane_b32 v5, s24, 3
  v_mov_b32 v6, -1
  v_mbcnt_lo_u32_b32 v6, -1, 0
  v_mbcnt_hi_u32_b32 v6, -1, v6
  v_add_u32 v5, v5, v6
  v_cmp_lt_u32 vcc, 40, v0
  s_and_saveexec_b64 s[22:23], vcc
  v_readfirstlane_b32 s21, v2
  s_mov_b64 exec, -1
  v_add_u32 v5, s21, v5
  global_store_dword v1, v5, s[4:5]
)");
    const Program program = build_program(co, co.kernels.at(0));
    TestRun run(64);
    REQUIRE(run.run(program).ok());
    const auto out = run.read(0, 64);
    // v_readlane of lane 17 (51), lane 3 overwritten with 100, + lane id (mbcnt) + v2 of the first active lane (41).
    for (unsigned l = 0; l < 64; ++l) CHECK(out[l] == (l == 3 ? 100u : 51u) + l + 3u * 41u);
}

TEST_CASE("SDWA source selects, sign extension and destination placement", "[alu][sdwa]") {
    std::vector<std::uint32_t> a(64), b(64), c(64, 0);
    for (unsigned l = 0; l < 64; ++l) a[l] = 0x80f1a2b3u + l, b[l] = 0x11223344u * (l + 1);
    // v5 = old value 0xdeadbeef, then byte/word forms write parts of it.
    const char* prefix = "  v_mov_b32 v5, 0xdeadbeef\n";
    const auto add_bytes = run_three(
        std::string(prefix) +
            "  v_add_u32_sdwa v5, v2, v3 dst_sel:BYTE_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_0 src1_sel:BYTE_3",
        a, b, c);
    const auto sext_word = run_three(
        std::string(prefix) + "  v_mov_b32_sdwa v5, sext(v2) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1", a, b,
        c);
    const auto pad =
        run_three(std::string(prefix) +
                      "  v_and_b32_sdwa v5, v2, v3 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD",
                  a, b, c);
    const auto sext_dst = run_three(
        std::string(prefix) + "  v_mov_b32_sdwa v5, v2 dst_sel:BYTE_0 dst_unused:UNUSED_SEXT src0_sel:BYTE_3", a, b, c);
    for (unsigned l = 0; l < 64; ++l) {
        const std::uint32_t sum = ((a[l] & 0xff) + (b[l] >> 24)) & 0xff;
        CHECK(add_bytes[l] == ((0xdeadbeefu & ~0xff00u) | (sum << 8)));
        CHECK(sext_word[l] == std::uint32_t(std::int32_t(std::int16_t(a[l] >> 16))));
        CHECK(pad[l] == (((a[l] & b[l]) & 0xffffu) << 16));
        CHECK(sext_dst[l] == std::uint32_t(std::int32_t(std::int8_t(a[l] >> 24))));
    }
}

TEST_CASE("v_pk_fma_f32 (gfx90a): two fused multiply-adds per lane, op_sel", "[alu][float][packed]") {
    KernelOptions options;
    options.mcpu = "gfx90a";
    const CodeObject co = assemble_kernel(R"(
  v_lshlrev_b32 v20, 3, v0
  global_load_dwordx2 v[2:3], v20, s[6:7]
  global_load_dwordx2 v[4:5], v20, s[8:9]
  global_load_dwordx2 v[6:7], v20, s[10:11]
  s_waitcnt vmcnt(0)
  v_pk_mov_b32 v[8:9], v[6:7], v[6:7] op_sel:[0,1]
  v_pk_fma_f32 v[6:7], v[2:3], v[4:5], v[6:7]
  v_pk_fma_f32 v[8:9], v[2:3], v[4:5], v[8:9] op_sel:[1,0,0] op_sel_hi:[0,1,1]
  global_store_dwordx2 v20, v[6:7], s[4:5]
  v_add_u32 v20, 0x200, v20
  global_store_dwordx2 v20, v[8:9], s[4:5]
)",
                                          options);
    const Program program = build_program(co, co.kernels.at(0));
    std::mt19937 rng(77);
    std::uniform_real_distribution<float> dist(-3, 3);
    std::vector<float> a(128), b(128), c(128);
    for (int i = 0; i < 128; ++i) a[i] = dist(rng), b[i] = dist(rng), c[i] = dist(rng);
    TestRun run(256);
    run.fill_floats(1, a);
    run.fill_floats(2, b);
    run.fill_floats(3, c);
    const DispatchResult r = run.run(program);
    INFO((r.fault ? r.fault->message : ""));
    REQUIRE(r.ok());
    const auto out = run.read_floats(0, 256);
    for (int l = 0; l < 64; ++l) {
        CHECK(bits(out[2 * l]) == bits(std::fma(a[2 * l], b[2 * l], c[2 * l])));
        CHECK(bits(out[2 * l + 1]) == bits(std::fma(a[2 * l + 1], b[2 * l + 1], c[2 * l + 1])));
        // lo: a.hi * b.lo + c.lo; hi: a.lo * b.hi + c.hi (c copied as-is by v_pk_mov_b32 op_sel:[0,1])
        CHECK(bits(out[128 + 2 * l]) == bits(std::fma(a[2 * l + 1], b[2 * l], c[2 * l])));
        CHECK(bits(out[128 + 2 * l + 1]) == bits(std::fma(a[2 * l], b[2 * l + 1], c[2 * l + 1])));
    }
}

TEST_CASE("inline float constants of 64-bit integer operands are doubles", "[alu]") {
    // LLVM (AMDGPUUsage, "inline constants": the 64-bit operand forms) and hipcc -O0 code: s_mov_b64 s[6:7], 0.5 is f64
    // 0.5.
    const CodeObject co = assemble_kernel(R"(
  s_mov_b64 s[20:21], 0.5
  s_mov_b64 s[22:23], -4.0
  v_lshrrev_b64 v[4:5], 0, 1.0
  v_mov_b32 v2, s20
  v_mov_b32 v3, s21
  v_mov_b32 v6, s22
  v_mov_b32 v7, s23
  v_lshlrev_b32 v14, 5, v0
  global_store_dwordx4 v14, v[2:5], s[4:5]
  global_store_dwordx2 v14, v[6:7], s[4:5] offset:16
)");
    TestRun run(64 * 8);
    REQUIRE(run.run(build_program(co, co.kernels.at(0))).ok());
    const auto out = run.read(0, 6);
    CHECK(out == std::vector<u32>{0, 0x3fe00000, 0, 0x3ff00000, 0, 0xc0100000});
}

TEST_CASE("an unimplemented matrix op (fp8 MFMA) stops the run with an error naming the instruction", "[alu]") {
    KernelOptions options;
    options.mcpu = "gfx942";
    const CodeObject co = assemble_kernel("  v_mfma_f32_16x16x32_fp8_fp8 v[4:7], v[0:1], v[2:3], v[4:7]\n", options);
    TestRun run(64);
    const DispatchResult r = run.run(build_program(co, co.kernels.at(0)));
    REQUIRE(r.fault);
    INFO(r.fault->message);
    CHECK(r.fault->message.find("v_mfma_f32_16x16x32_fp8_fp8 v[4:7], v[0:1], v[2:3], v[4:7]") != std::string::npos);
    CHECK(r.fault->message.find("not implemented") != std::string::npos);
}
