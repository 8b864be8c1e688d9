// fp16 and 16-bit integer VALU (sem_half.cpp) against the host: the
// compiler's _Float16 (x86-64: float arithmetic rounded once to half, which
// is the correctly rounded result for +, -, *) as the oracle, exhaustively
// for the unary conversions, on special and random operands for the rest.
// fma's oracle is a double fma rounded to odd, then to half (exact: 53 bits
// round to odd keep the sticky information the final rounding needs).

#include <catch2/catch.hpp>

#include <algorithm>
#include <cfenv>
#include <cmath>
#include <cstring>
#include <functional>
#include <random>

#include "emu/exec/semantics.hpp"
#include "kernel_builder.hpp"

using namespace exec_test;

namespace {

using H = _Float16;

H half_of(u32 bits) {
    const std::uint16_t b = static_cast<std::uint16_t>(bits);
    H h;
    std::memcpy(&h, &b, 2);
    return h;
}
u32 bits_of(H h) {
    std::uint16_t b;
    std::memcpy(&b, &h, 2);
    return b;
}
float f(u32 bits) { return static_cast<float>(half_of(bits)); }
u32 round_half(float x) { return bits_of(static_cast<H>(x)); }
bool nan16(u32 h) { return (h & 0x7fffu) > 0x7c00u; }

// fma of floats rounded once to half: double fma rounded to odd, then to half.
u32 fma_to_half(float a, float b, float c) {
    const int saved = std::fegetround();
    std::fesetround(FE_TOWARDZERO);
    std::feclearexcept(FE_INEXACT);
    volatile double x = a, y = b, z = c;
    double r = std::fma(x, y, z);
    const bool inexact = std::fetestexcept(FE_INEXACT);
    std::fesetround(saved);
    if (inexact) {  // round to odd
        std::uint64_t bits;
        std::memcpy(&bits, &r, 8);
        bits |= 1;
        std::memcpy(&r, &bits, 8);
    }
    return bits_of(static_cast<H>(r));
}
u32 fma_oracle(u32 a, u32 b, u32 c) { return fma_to_half(f(a), f(b), f(c)); }

// IEEE-mode minNum/maxNum (as the f32 forms): a signaling NaN gives a quiet
// NaN, one quiet NaN gives the other operand, -0 < +0.
u32 min_max_oracle(bool max, u32 a, u32 b) {
    a &= 0xffff, b &= 0xffff;
    const auto signaling = [](u32 h) { return nan16(h) && !(h & 0x200u); };
    if (signaling(a) || signaling(b) || (nan16(a) && nan16(b))) return 0x7e00u;
    if (nan16(a)) return b;
    if (nan16(b)) return a;
    if (f(a) == f(b)) return ((a & 0x8000u) != 0) == max ? b : a;
    return (f(a) < f(b)) != max ? a : b;
}

// Loads p1/p2/p3[i] into v2/v3/v4 (i = global work-item), runs `op`, stores v5 to p0[i].
std::string lane_kernel(const std::string& op) {
    return "  s_lshl_b32 s0, s2, 8\n  v_add_u32 v1, s0, v1\n"
           "  global_load_dword v2, v1, s[6:7]\n  global_load_dword v3, v1, s[8:9]\n"
           "  global_load_dword v4, v1, s[10:11]\n  s_waitcnt vmcnt(0)\n" +
           op + "\n  global_store_dword v1, v5, s[4:5]\n";
}

// Runs `op` over the lanes of a, b, c (padded to whole waves); returns v5 per lane.
std::vector<u32> run_lanes(const std::string& op, std::vector<u32> a, std::vector<u32> b, std::vector<u32> c,
                           bool flush_16 = false, const std::string& mcpu = "gfx906") {
    const std::size_t n = (a.size() + 63) / 64 * 64;
    a.resize(n), b.resize(n), c.resize(n);
    KernelOptions options;
    options.mcpu = mcpu;
    CodeObject co = assemble_kernel(lane_kernel(op), options);
    if (flush_16) co.kernels.at(0).descriptor.float_mode.denorm_16_64 = FloatDenormMode::flush_src_dst;
    const Program program = build_program(co, co.kernels.at(0));
    TestRun run(n);
    run.grid = {static_cast<u32>(n / 64), 1, 1};
    run.fill(1, a);
    run.fill(2, b);
    run.fill(3, c);
    INFO(op);
    run.run_to_end(program);
    return run.read(0, n);
}

// Equal half by half, any NaN matching any NaN (payloads are not compared).
bool same(u32 got, u32 want) {
    for (unsigned shift : {0u, 16u}) {
        const u32 g = (got >> shift) & 0xffff, w = (want >> shift) & 0xffff;
        if (nan16(w) ? !nan16(g) : g != w) return false;
    }
    return true;
}

std::vector<u32> all_halves(u32 high = 0) {
    std::vector<u32> v(65536);
    for (u32 i = 0; i < 65536; ++i) v[i] = i | (high << 16);
    return v;
}

const std::vector<u32> special_halves = {0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x83ff, 0x0400, 0x8400,
                                         0x3c00, 0xbc00, 0x3c01, 0x3bff, 0x7bff, 0xfbff, 0x7c00, 0xfc00,
                                         0x7e00, 0x7d00, 0x3800, 0x4000, 0x5bff, 0x1400, 0x0200, 0x7a00};

// Operand pairs (a, b): all pairs of specials, random bit patterns, and
// random values of nearby magnitude (cancellation, ties). `high` fills the
// unused upper halves, which must not matter.
struct Pairs {
    std::vector<u32> a, b, c;
};
Pairs operand_triples(u32 seed, u32 high = 0xdead) {
    Pairs p;
    std::mt19937 rng(seed);
    auto push = [&](u32 x, u32 y, u32 z) {
        p.a.push_back(x | (high << 16));
        p.b.push_back(y | (high << 16));
        p.c.push_back(z | (high << 16));
    };
    for (u32 x : special_halves)
        for (u32 y : special_halves) push(x, y, special_halves[(x + y) % special_halves.size()]);
    for (int i = 0; i < 4096; ++i) push(rng() & 0xffff, rng() & 0xffff, rng() & 0xffff);
    for (int i = 0; i < 4096; ++i) {
        const u32 x = rng() & 0xffff;
        push(x, (x ^ (rng() & 0x80ff)) & 0xffff, (x + (rng() & 0x7ff)) & 0xffff);
    }
    return p;
}

// Any f32 NaN matching any f32 NaN: the host's fma gives a NaN payload of
// its own choosing (it changed with the test's optimisation level).
bool same_f32(u32 got, u32 want) { return got == want || (std::isnan(from_bits(want)) && std::isnan(from_bits(got))); }

using Oracle = std::function<u32(u32, u32, u32)>;
// The result is two halves, or with `f32_result` one f32.
void check_lanes(const std::string& op, const Pairs& in, const Oracle& oracle, bool flush_16 = false,
                 bool f32_result = false) {
    const auto got = run_lanes(op, in.a, in.b, in.c, flush_16);
    unsigned bad = 0;
    for (std::size_t l = 0; l < in.a.size(); ++l) {
        const u32 want = oracle(in.a[l], in.b[l], in.c[l]);
        if (!(f32_result ? same_f32(got[l], want) : same(got[l], want)) && bad++ < 5)
            FAIL_CHECK(op << " lane " << l << ": a " << std::hex << in.a[l] << " b " << in.b[l] << " c " << in.c[l]
                          << " got " << got[l] << " want " << want);
    }
    CHECK(bad == 0);
}

}  // namespace

TEST_CASE("the mode-free f16 <-> f32 conversions (typed buffer formats) are _Float16's", "[half]") {
    using dppgemm::emu::sem::float_to_half_bits;
    using dppgemm::emu::sem::half_to_float_bits;
    for (u32 h = 0; h < 0x10000u; ++h) {
        INFO("half " << h);
        const u32 expected = nan16(h) ? (h & 0x8000u) << 16 | 0x7fc00000u | (h & 0x3ffu) << 13 : bits(f(h));
        REQUIRE(half_to_float_bits(h) == expected);
    }
    // Every f32 exponent, and the significands near each half rounding boundary.
    for (u32 top = 0; top < 0x200u; ++top)
        for (u32 low : {0u, 1u, 0xfffu, 0x1000u, 0x1001u, 0x1fffu, 0x2000u, 0x3000u, 0x7fffffu, 0x400000u, 0x2001u}) {
            const u32 x = top << 23 | low;
            INFO("f32 " << x);
            const float v = from_bits(x);
            const u32 expected = std::isnan(v) ? ((x >> 16) & 0x8000u) | 0x7e00u | ((x >> 13) & 0x3ffu) : round_half(v);
            REQUIRE(float_to_half_bits(x) == expected);
        }
}

TEST_CASE("f16 conversions: all 65536 halves", "[alu][half]") {
    Pairs in;
    in.a = all_halves(0xabcd);  // high halves ignored
    in.b = in.c = in.a;
    check_lanes("  v_cvt_f32_f16 v5, v2", in, [](u32 a, u32, u32) {
        const float x = f(a);
        u32 r;
        std::memcpy(&r, &x, 4);
        return nan16(a) ? r | 0x00400000u : r;  // a NaN keeps its payload, quieted
    });
    // Back to f16: exact, high half zeroed.
    Pairs floats;
    for (u32 h = 0; h < 65536; ++h) floats.a.push_back(bits(f(h)));
    floats.b = floats.c = floats.a;
    check_lanes("  v_cvt_f16_f32 v5, v2", floats, [](u32 x, u32, u32) { return round_half(from_bits(x)); });
    check_lanes("  v_cvt_f16_u16 v5, v2", in, [](u32 a, u32, u32) { return round_half(float(a & 0xffff)); });
    check_lanes("  v_cvt_f16_i16 v5, v2", in, [](u32 a, u32, u32) { return round_half(float(std::int16_t(a))); });
    check_lanes("  v_cvt_u16_f16 v5, v2", in, [](u32 a, u32, u32) -> u32 {
        const float x = std::trunc(f(a));
        return nan16(a) || x <= 0 ? 0u : x >= 65535.0f ? 65535u : u32(x);
    });
    check_lanes("  v_cvt_i16_f16 v5, v2", in, [](u32 a, u32, u32) -> u32 {
        const float x = std::trunc(f(a));
        return nan16(a) ? 0u : std::uint16_t(std::int16_t(x <= -32768.0f ? -32768 : x >= 32767.0f ? 32767 : int(x)));
    });
    // Rounding exact unary ops against float then half.
    const std::pair<const char*, float (*)(float)> exact_unary[] = {{"v_floor_f16", std::floor},
                                                                    {"v_ceil_f16", std::ceil},
                                                                    {"v_trunc_f16", std::trunc},
                                                                    {"v_rndne_f16", std::nearbyint}};
    for (const auto& [name, fn] : exact_unary)
        check_lanes(std::string("  ") + name + " v5, v2", in,
                    [fn = fn](u32 a, u32, u32) { return round_half(fn(f(a))); });
}

TEST_CASE("v_cvt_f16_f32 rounds to nearest even at every half midpoint", "[alu][half]") {
    Pairs in;
    std::mt19937 rng(7);
    for (u32 h = 0; h < 0x7c00; ++h) {
        // The midpoint between h and h + 1, and one float ulp either side, both signs.
        const double mid = (double(f(h)) + double(f(h + 1))) / 2;
        const float m = float(mid);
        for (float x : {m, std::nextafter(m, 0.0f), std::nextafter(m, 1e9f), -m}) in.a.push_back(bits(x));
    }
    for (int i = 0; i < 65536; ++i) in.a.push_back(rng());  // any f32 bits: tiny, huge, NaN
    in.b = in.c = in.a;
    check_lanes("  v_cvt_f16_f32 v5, v2", in, [](u32 x, u32, u32) { return round_half(from_bits(x)); });
    check_lanes("  v_cvt_pkrtz_f16_f32 v5, v2, v3", in, [](u32 x, u32 y, u32) {
        auto rtz = [](u32 v) {
            const float value = from_bits(v);
            u32 h = round_half(value);
            if (!std::isnan(value) && std::fabs(f(h)) > std::fabs(value)) --h;  // rounded away from zero: step back
            return h;
        };
        return rtz(x) | (rtz(y) << 16);
    });
}

TEST_CASE("f16 arithmetic is correctly rounded (add, sub, mul, fma, min, max, ldexp)", "[alu][half]") {
    const Pairs in = operand_triples(1);
    check_lanes("  v_add_f16 v5, v2, v3", in, [](u32 a, u32 b, u32) { return round_half(f(a) + f(b)); });
    check_lanes("  v_sub_f16 v5, v2, v3", in, [](u32 a, u32 b, u32) { return round_half(f(a) - f(b)); });
    check_lanes("  v_subrev_f16 v5, v2, v3", in, [](u32 a, u32 b, u32) { return round_half(f(b) - f(a)); });
    check_lanes("  v_mul_f16 v5, v2, v3", in, [](u32 a, u32 b, u32) { return round_half(f(a) * f(b)); });
    check_lanes("  v_add_f16_e64 v5, -v2, |v3|", in,
                [](u32 a, u32 b, u32) { return round_half(-f(a) + std::fabs(f(b))); });
    check_lanes("  v_fma_legacy_f16 v5, v2, v3, v4", in, fma_oracle);
    check_lanes("  v_min_f16 v5, v2, v3", in, [](u32 a, u32 b, u32) { return min_max_oracle(false, a, b); });
    check_lanes("  v_max_f16 v5, v2, v3", in, [](u32 a, u32 b, u32) { return min_max_oracle(true, a, b); });
    Pairs exponents = in;
    for (u32& e : exponents.b) e = u32(std::int16_t(int(e % 61) - 30)) & 0xffff;
    check_lanes("  v_ldexp_f16 v5, v2, v3", exponents,
                [](u32 a, u32 b, u32) { return round_half(std::ldexp(f(a), std::int16_t(b))); });
}

TEST_CASE("v_fma_f16 and v_mad_u16 keep the other half, op_sel picks halves", "[alu][half]") {
    Pairs in = operand_triples(2, 0);
    for (std::size_t l = 0; l < in.a.size(); ++l) {  // distinct high halves: the op_sel sources
        in.a[l] |= u32(in.c[l]) << 16;
        in.b[l] |= u32(in.a[l] & 0xffff) << 16;
        in.c[l] |= u32(in.b[l] & 0xffff) << 16;
    }
    const auto hi = [](u32 x) { return x >> 16; };
    check_lanes("  v_mov_b32 v5, 0x12345678\n  v_fma_f16 v5, v2, v3, v4", in,
                [](u32 a, u32 b, u32 c) { return 0x12340000u | fma_oracle(a, b, c); });
    check_lanes("  v_mov_b32 v5, 0x12345678\n  v_fma_f16 v5, v2, v3, v4 op_sel:[1,1,1,1]", in,
                [&](u32 a, u32 b, u32 c) { return 0x5678u | (fma_oracle(hi(a), hi(b), hi(c)) << 16); });
    check_lanes("  v_mov_b32 v5, 0x12345678\n  v_fma_f16 v5, -v2, v3, -v4 op_sel:[0,1,0,0]", in,
                [&](u32 a, u32 b, u32 c) { return 0x12340000u | fma_oracle(a ^ 0x8000, hi(b), c ^ 0x8000); });
    check_lanes("  v_mov_b32 v5, 0x12345678\n  v_mad_u16 v5, v2, v3, v4 op_sel:[0,1,1,1]", in,
                [&](u32 a, u32 b, u32 c) { return 0x5678u | (((a * hi(b) + hi(c)) & 0xffff) << 16); });
    check_lanes("  v_mov_b32 v5, 0x12345678\n  v_mad_i16 v5, v2, v3, v4", in,
                [&](u32 a, u32 b, u32 c) { return 0x12340000u | ((a * b + c) & 0xffff); });
    check_lanes("  v_mov_b32 v5, 0x12345678\n  v_mad_legacy_u16 v5, v2, v3, v4", in,
                [&](u32 a, u32 b, u32 c) { return (a * b + c) & 0xffff; });
    check_lanes("  v_mad_u32_u16 v5, v2, v3, v4 op_sel:[1,0,0,0]", in,
                [&](u32 a, u32 b, u32 c) { return hi(a) * (b & 0xffff) + c; });
    check_lanes("  v_mad_i32_i16 v5, v2, v3, v4", in,
                [&](u32 a, u32 b, u32 c) { return u32(int(std::int16_t(a)) * std::int16_t(b)) + c; });
    // VOP2 forms zero the high half; SDWA selects and places words.
    check_lanes("  v_mov_b32 v5, 0x12345678\n  v_add_f16 v5, v2, v3", in,
                [](u32 a, u32 b, u32) { return round_half(f(a) + f(b)); });
    check_lanes(
        "  v_mov_b32 v5, 0x12345678\n  v_mul_f16_sdwa v5, v2, v3 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE "
        "src0_sel:WORD_1 src1_sel:WORD_0",
        in, [&](u32 a, u32 b, u32) { return 0x5678u | (round_half(f(hi(a)) * f(b)) << 16); });
    check_lanes("  v_pack_b32_f16 v5, v2, v3 op_sel:[1,0,0,0]", in,
                [&](u32 a, u32 b, u32) { return hi(a) | ((b & 0xffff) << 16); });
    // Inline constants are f16 encodings; literals are 16-bit patterns.
    check_lanes("  v_mul_f16 v5, 2.0, v2", in, [](u32 a, u32, u32) { return round_half(2.0f * f(a)); });
    check_lanes("  v_add_f16 v5, 0x3800, v2", in, [](u32 a, u32, u32) { return round_half(0.5f + f(a)); });
}

TEST_CASE("v_mac_f16/v_mad_f16/v_madak_f16 round the product and flush denormals", "[alu][half][denorm]") {
    const Pairs in = operand_triples(3, 0);
    const auto flush = [](u32 h) { return (h & 0x7c00u) == 0 ? h & 0x8000u : h; };
    const auto mad = [&](u32 a, u32 b, u32 c) {
        const u32 p = flush(round_half(f(flush(a)) * f(flush(b))));
        return flush(round_half(f(p) + f(flush(c))));
    };
    check_lanes("  v_mov_b32 v5, v4\n  v_mac_f16 v5, v2, v3", in,
                [&](u32 a, u32 b, u32 c) { return (c & 0xffff0000u) | mad(a, b, c); });
    check_lanes("  v_mad_legacy_f16 v5, v2, v3, v4", in, mad);
    check_lanes("  v_mov_b32 v5, 0x12345678\n  v_mad_f16 v5, v2, v3, v4 op_sel:[0,0,0,1]", in,
                [&](u32 a, u32 b, u32 c) { return 0x5678u | (mad(a, b, c) << 16); });
    check_lanes("  v_mov_b32 v5, 0\n  v_madak_f16 v5, v2, v3, 0x4100", in,
                [&](u32 a, u32 b, u32) { return mad(a, b, 0x4100); });
    check_lanes("  v_mov_b32 v5, 0\n  v_madmk_f16 v5, v2, 0x4100, v3", in,
                [&](u32 a, u32 b, u32) { return mad(a, 0x4100, b); });
    // The FP16 denorm mode flushes add inputs and results.
    check_lanes(
        "  v_add_f16 v5, v2, v3", in, [&](u32 a, u32 b, u32) { return flush(round_half(f(flush(a)) + f(flush(b)))); },
        true);
}

TEST_CASE("v_frexp_mant_f16 and v_frexp_exp_i16_f16 split every half", "[alu][half]") {
    Pairs in;
    in.a = all_halves();
    in.b = in.c = in.a;
    check_lanes("  v_frexp_mant_f16 v5, v2", in, [](u32 a, u32, u32) {
        int e;
        return nan16(a) || (a & 0x7fff) == 0x7c00 ? a : round_half(std::frexp(f(a), &e));
    });
    check_lanes("  v_frexp_exp_i16_f16 v5, v2", in, [](u32 a, u32, u32) {
        int e = 0;
        if (!nan16(a) && (a & 0x7fff) != 0x7c00) std::frexp(f(a), &e);
        return u32(e) & 0xffff;
    });
}

TEST_CASE("16-bit integer ops", "[alu][half]") {
    const Pairs in = operand_triples(4);
    using S = std::int16_t;
    const std::pair<const char*, Oracle> ops[] = {
        {"v_add_u16", [](u32 a, u32 b, u32) { return (a + b) & 0xffff; }},
        {"v_sub_u16", [](u32 a, u32 b, u32) { return (a - b) & 0xffff; }},
        {"v_subrev_u16", [](u32 a, u32 b, u32) { return (b - a) & 0xffff; }},
        {"v_mul_lo_u16", [](u32 a, u32 b, u32) { return (a * b) & 0xffff; }},
        {"v_lshlrev_b16", [](u32 a, u32 b, u32) { return (b << (a & 15)) & 0xffff; }},
        {"v_lshrrev_b16", [](u32 a, u32 b, u32) { return (b & 0xffff) >> (a & 15); }},
        {"v_ashrrev_i16", [](u32 a, u32 b, u32) { return u32(S(b) >> (a & 15)) & 0xffff; }},
        {"v_max_u16", [](u32 a, u32 b, u32) { return std::max(a & 0xffff, b & 0xffff); }},
        {"v_min_u16", [](u32 a, u32 b, u32) { return std::min(a & 0xffff, b & 0xffff); }},
        {"v_max_i16", [](u32 a, u32 b, u32) { return u32(std::max(S(a), S(b))) & 0xffff; }},
        {"v_min_i16", [](u32 a, u32 b, u32) { return u32(std::min(S(a), S(b))) & 0xffff; }},
    };
    for (const auto& [name, oracle] : ops) check_lanes(std::string("  ") + name + " v5, v2, v3", in, oracle);
}

TEST_CASE("f16 and 16-bit integer compares, v_cmp_class_f16", "[alu][half]") {
    const Pairs in = operand_triples(5);
    // Predicate order f, lt, eq, le, gt, lg, ge, o, u, nge, nlg, ngt, nle, neq, nlt, tru: bit r of the index is
    // the result for relation r (less, equal, greater, unordered).
    const char* names[] = {"f", "lt",  "eq",  "le",  "gt",  "lg",  "ge",  "o",
                           "u", "nge", "nlg", "ngt", "nle", "neq", "nlt", "tru"};
    const auto relation = [](float x, float y) {
        return std::isnan(x) || std::isnan(y) ? 3 : x < y ? 0 : x == y ? 1 : 2;
    };
    const std::string to_v5 = "\n  v_cndmask_b32 v5, 0, 1, vcc";
    for (unsigned p = 0; p < 16; ++p) {
        check_lanes(std::string("  v_cmp_") + names[p] + "_f16 vcc, v2, v3" + to_v5, in,
                    [&](u32 a, u32 b, u32) { return (p >> relation(f(a), f(b))) & 1; });
        if (p >= 8) continue;
        const char* int_names[] = {"f", "lt", "eq", "le", "gt", "ne", "ge", "t"};
        check_lanes(std::string("  v_cmp_") + int_names[p] + "_i16 vcc, v2, v3" + to_v5, in,
                    [&](u32 a, u32 b, u32) { return (p >> relation(std::int16_t(a), std::int16_t(b))) & 1; });
        check_lanes(std::string("  v_cmp_") + int_names[p] + "_u16 vcc, v2, v3" + to_v5, in,
                    [&](u32 a, u32 b, u32) { return (p >> relation(float(a & 0xffff), float(b & 0xffff))) & 1; });
    }
    check_lanes("  v_cmpx_lt_f16 vcc, v2, v3\n  v_mov_b32 v5, 0\n  s_mov_b64 exec, -1\n  v_cndmask_b32 v5, 0, 1, vcc",
                in, [&](u32 a, u32 b, u32) { return f(a) < f(b) ? 1u : 0u; });
    Pairs classes = in;
    for (std::size_t l = 0; l < classes.b.size(); ++l) classes.b[l] = 1u << (l % 10);
    check_lanes("  v_cmp_class_f16 vcc, v2, v3" + to_v5, classes, [](u32 a, u32 mask, u32) -> u32 {
        const float x = f(a);
        const bool neg = std::signbit(x);
        unsigned bit = std::isnan(x)             ? ((a & 0x200) ? 1 : 0)
                       : std::isinf(x)           ? (neg ? 2 : 9)
                       : x == 0                  ? (neg ? 5 : 6)
                       : std::fabs(x) < 0x1p-14f ? (neg ? 4 : 7)
                                                 : (neg ? 3 : 8);
        return (mask >> bit) & 1;
    });
}

TEST_CASE("packed f16 and 16-bit ops with op_sel, op_sel_hi, neg_lo, neg_hi", "[alu][half][packed]") {
    Pairs in = operand_triples(6, 0);
    std::mt19937 rng(9);
    for (std::size_t l = 0; l < in.a.size(); ++l) {
        in.a[l] |= (rng() & 0xffff) << 16;
        in.b[l] |= (rng() & 0xffff) << 16;
        in.c[l] |= (rng() & 0xffff) << 16;
    }
    // Half `sel` of x, sign flipped if `neg`.
    const auto part = [](u32 x, unsigned sel, bool neg) { return ((x >> (16 * sel)) & 0xffff) ^ (neg ? 0x8000u : 0u); };
    const auto add = [](u32 a, u32 b, u32) { return round_half(f(a) + f(b)); };
    const auto mul = [](u32 a, u32 b, u32) { return round_half(f(a) * f(b)); };
    struct Case {
        const char* op;
        std::function<u32(u32, u32, u32)> lane;
        unsigned op_sel, op_sel_hi, neg_lo, neg_hi;  // bits per source, as written in the modifiers below
        bool is_float;
    };
    const Case cases[] = {
        {"v_pk_add_f16 v5, v2, v3", add, 0, 3, 0, 0, true},
        {"v_pk_add_f16 v5, v2, v3 op_sel:[1,0] op_sel_hi:[0,1]", add, 1, 2, 0, 0, true},
        {"v_pk_mul_f16 v5, v2, v3 neg_lo:[1,0] neg_hi:[0,1]", mul, 0, 3, 1, 2, true},
        {"v_pk_fma_f16 v5, v2, v3, v4 op_sel:[0,1,1] op_sel_hi:[1,0,1] neg_lo:[0,0,1] neg_hi:[1,1,0]", fma_oracle, 6, 5,
         4, 3, true},
        {"v_pk_max_f16 v5, v2, v3", [](u32 a, u32 b, u32) { return min_max_oracle(true, a, b); }, 0, 3, 0, 0, true},
        {"v_pk_add_u16 v5, v2, v3 op_sel:[1,1] op_sel_hi:[0,0]", [](u32 a, u32 b, u32) { return a + b; }, 3, 0, 0, 0,
         false},
        {"v_pk_sub_i16 v5, v2, v3", [](u32 a, u32 b, u32) { return a - b; }, 0, 3, 0, 0, false},
        {"v_pk_mul_lo_u16 v5, v2, v3", [](u32 a, u32 b, u32) { return a * b; }, 0, 3, 0, 0, false},
        {"v_pk_lshlrev_b16 v5, v2, v3", [](u32 a, u32 b, u32) { return b << (a & 15); }, 0, 3, 0, 0, false},
        {"v_pk_ashrrev_i16 v5, v2, v3", [](u32 a, u32 b, u32) { return u32(std::int16_t(b) >> (a & 15)); }, 0, 3, 0, 0,
         false},
        {"v_pk_max_i16 v5, v2, v3", [](u32 a, u32 b, u32) { return u32(std::max(std::int16_t(a), std::int16_t(b))); },
         0, 3, 0, 0, false},
        {"v_pk_min_u16 v5, v2, v3", [](u32 a, u32 b, u32) { return std::min(a, b); }, 0, 3, 0, 0, false},
        {"v_pk_mad_u16 v5, v2, v3, v4 op_sel:[1,0,1]", [](u32 a, u32 b, u32 c) { return a * b + c; }, 5, 7, 0, 0,
         false},
        {"v_pk_mad_i16 v5, v2, v3, v4", [](u32 a, u32 b, u32 c) { return a * b + c; }, 0, 7, 0, 0, false},
        {"v_pk_min_f16 v5, v2, v3 op_sel_hi:[0,0]", [](u32 a, u32 b, u32) { return min_max_oracle(false, a, b); }, 0, 0,
         0, 0, true},
        {"v_pk_add_i16 v5, v2, v3", [](u32 a, u32 b, u32) { return a + b; }, 0, 3, 0, 0, false},
        {"v_pk_sub_u16 v5, v2, v3", [](u32 a, u32 b, u32) { return a - b; }, 0, 3, 0, 0, false},
        {"v_pk_lshrrev_b16 v5, v2, v3", [](u32 a, u32 b, u32) { return b >> (a & 15); }, 0, 3, 0, 0, false},
        {"v_pk_max_u16 v5, v2, v3", [](u32 a, u32 b, u32) { return std::max(a, b); }, 0, 3, 0, 0, false},
        {"v_pk_min_i16 v5, v2, v3", [](u32 a, u32 b, u32) { return u32(std::min(std::int16_t(a), std::int16_t(b))); },
         0, 3, 0, 0, false},
    };
    // An inline constant is its f16 encoding in the low half, 0 in the high half: LLVM splats
    // it with op_sel_hi 0 (hipcc: v * 2 -> op_sel_hi:[1,0,1]) and writes {2, 0} without.
    const auto high = [](u32 x) { return x >> 16; };
    check_lanes("  v_pk_fma_f16 v5, v2, 2.0, v3 op_sel_hi:[1,0,1]", in, [&](u32 a, u32 b, u32) {
        return fma_oracle(a & 0xffff, 0x4000, b & 0xffff) | fma_oracle(high(a), 0x4000, high(b)) << 16;
    });
    check_lanes("  v_pk_mul_f16 v5, v2, 2.0", in,
                [&](u32 a, u32, u32) { return round_half(f(a) * 2.0f) | round_half(f(high(a)) * 0.0f) << 16; });
    for (const Case& k : cases) {
        check_lanes(std::string("  ") + k.op, in, [&](u32 a, u32 b, u32 c) {
            u32 result = 0;
            for (unsigned half = 0; half < 2; ++half) {
                const unsigned sel = half ? k.op_sel_hi : k.op_sel, neg = k.is_float ? (half ? k.neg_hi : k.neg_lo) : 0;
                const u32 r = k.lane(part(a, sel & 1, neg & 1), part(b, (sel >> 1) & 1, neg & 2),
                                     part(c, (sel >> 2) & 1, neg & 4));
                result |= (r & 0xffff) << (16 * half);
            }
            return result;
        });
    }
}

TEST_CASE("f16 transcendentals and fract go through the host (close, not bit-exact)", "[alu][half]") {
    Pairs in;
    for (u32 h : {0x3c00u, 0x4000u, 0x4400u, 0x3800u, 0x3555u}) in.a.push_back(h);
    in.b = in.c = in.a;
    const auto near = [](const std::string& op, const Pairs& p, float (*fn)(float)) {
        const auto got = run_lanes(op, p.a, p.b, p.c);
        for (std::size_t l = 0; l < p.a.size(); ++l) {
            const float want = fn(f(p.a[l]));
            CHECK(std::fabs(f(got[l]) - want) <= 0x1p-10f * std::max(1.0f, std::fabs(want)));
        }
    };
    near("  v_rcp_f16 v5, v2", in, [](float x) { return 1.0f / x; });
    near("  v_sqrt_f16 v5, v2", in, [](float x) { return std::sqrt(x); });
    near("  v_rsq_f16 v5, v2", in, [](float x) { return 1.0f / std::sqrt(x); });
    near("  v_exp_f16 v5, v2", in, [](float x) { return std::exp2(x); });
    near("  v_fract_f16 v5, v2", in, [](float x) { return x - std::floor(x); });
    near("  v_log_f16 v5, v2", in, [](float x) { return std::log2(x); });
    near("  v_sin_f16 v5, v2", in, [](float x) { return std::sin(x * 6.2831853f); });
    near("  v_cos_f16 v5, v2", in, [](float x) { return std::cos(x * 6.2831853f); });
    const auto fract = run_lanes("  v_fract_f16 v5, v2", {0x8001u}, {0}, {0});
    CHECK(fract[0] == 0x3bffu);  // 1 - 2^-24 rounds to 1.0: the result stays below 1
}

TEST_CASE("hipcc fp16 kernels match host _Float16 arithmetic bit for bit", "[hip][half]") {
    const int n = 1000;  // not a multiple of the block
    std::mt19937 rng(11);
    std::vector<std::uint16_t> a(n), b(n);
    for (int i = 0; i < n; ++i) {
        // Mostly finite values of moderate size, some specials and random bit patterns.
        a[i] = i < 24 ? std::uint16_t(special_halves[i])
                      : std::uint16_t(i % 7 ? (rng() & 0x7fff) % 0x5c00 | (rng() & 0x8000) : rng());
        b[i] = std::uint16_t(i % 5 ? (rng() & 0x7fff) % 0x5c00 | (rng() & 0x8000) : rng());
    }
    DeviceMemory memory;
    const std::uint64_t da = memory.allocate(2 * n), db = memory.allocate(2 * n), dout = memory.allocate(16 * n);
    memory.write(da, a.data(), 2 * n);
    memory.write(db, b.data(), 2 * n);
    const auto program = [](const char* name) { return build_program(hip_kernels(), hip_kernels().kernel(name)); };
    const auto check = [](const char* what, int i, u32 got, u32 want) {
        INFO(what << " element " << i << std::hex << " got " << got << " want " << want);
        CHECK(same(got, want));
    };

    run_1d(memory, program("halfs"), n, 256, 2, da, dout, n);
    std::vector<std::uint16_t> out(8 * n);
    memory.read(dout, out.data(), 2 * n);
    for (int i = 0; i < n; ++i) check("halfs", i, out[i], fma_oracle(a[i], 0x4000, a[i]));

    run_1d(memory, program("half_math"), n, 256, 2, da, db, dout, n);
    memory.read(dout, out.data(), 16 * n);
    for (int i = 0; i < n; ++i) {
        const H x = half_of(a[i]), y = half_of(b[i]);
        // Each operation rounded to H on its own (hipcc's contraction is off in half_math).
        const H product = x * y, swapped_product = y * x;
        // (short)x: v_cvt_i16_f16 truncates and saturates, NaN -> 0.
        const float truncated = std::isnan(float(x)) ? 0.0f : std::trunc(float(x));
        const short as_short = short(std::clamp(truncated, -32768.0f, 32767.0f));
        const u32 want[8] = {
            bits_of(H(x + y)),       bits_of(H(product - x)),        fma_oracle(a[i], b[i], bits_of(H(0.75f))),
            bits_of(x > y ? x : y),  round_half(float(x) * 3.0f),    round_half(float(as_short)),
            bits_of(H(product + x)), bits_of(H(swapped_product + y))};
        for (int k = 0; k < 8; ++k) check("half_math", 8 * i + k, out[8 * i + k], want[k]);
    }

    // half_dot: n / 8 dot products of 8, each product fused into the f32 sum (v_fma_mix_f32).
    const int dots = n / 8;
    const std::uint64_t dresult = memory.allocate(4 * dots);
    run_1d(memory, program("half_dot"), dots, 256, 2, da, db, dresult, dots);
    std::vector<u32> result(dots);
    memory.read(dresult, result.data(), 4 * dots);
    for (int i = 0; i < dots; ++i) {
        float acc = 0.0f;
        for (int k = 0; k < 8; ++k) acc = std::fma(f(a[8 * i + k]), f(b[8 * i + k]), acc);
        INFO("half_dot " << i);
        CHECK((result[i] == bits(acc) || (std::isnan(acc) && std::isnan(from_bits(result[i])))));
    }
}

TEST_CASE("v_fma_mix_f32/mixlo_f16/mixhi_f16: f16 or f32 sources, one rounding", "[alu][half]") {
    Pairs in;
    std::mt19937 rng(13);
    std::uniform_real_distribution<float> dist(-8.0f, 8.0f);
    for (int i = 0; i < 4096; ++i) {
        in.a.push_back((rng() & 0xffff) | (rng() << 16));  // two halves, or an f32 (any bits)
        in.b.push_back((rng() & 0xffff) | (rng() << 16));
        in.c.push_back(i % 4 ? bits(dist(rng)) : rng());
    }
    // A half midpoint (1 + 2^-11) plus or minus a term 2^-100: the tiny term decides the rounding.
    for (float tiny : {0x1p-100f, -0x1p-100f, 0.0f}) {
        in.a.push_back(bits(1.0f + 0x1p-11f));
        in.b.push_back(bits(1.0f));
        in.c.push_back(bits(tiny));
    }
    const auto lo = [](u32 x) { return f(x & 0xffff); };
    const auto hi = [](u32 x) { return f(x >> 16); };
    check_lanes(
        "  v_fma_mix_f32 v5, v2, v3, v4 op_sel_hi:[1,1,0]", in,
        [&](u32 a, u32 b, u32 c) { return bits(std::fma(lo(a), lo(b), from_bits(c))); }, false, true);
    check_lanes(
        "  v_fma_mix_f32 v5, -v2, |v3|, v4 op_sel:[1,0,0] op_sel_hi:[1,1,0]", in,
        [&](u32 a, u32 b, u32 c) { return bits(std::fma(-hi(a), std::fabs(lo(b)), from_bits(c))); }, false, true);
    check_lanes("  v_mov_b32 v5, 0x12345678\n  v_fma_mixlo_f16 v5, v2, v3, v4 op_sel_hi:[1,1,0]", in,
                [&](u32 a, u32 b, u32 c) { return 0x12340000u | fma_to_half(lo(a), lo(b), from_bits(c)); });
    check_lanes("  v_mov_b32 v5, 0x12345678\n  v_fma_mixhi_f16 v5, v4, v3, v2 op_sel:[0,1,1] op_sel_hi:[0,1,1]", in,
                [&](u32 a, u32 b, u32 c) { return 0x5678u | fma_to_half(from_bits(c), hi(b), hi(a)) << 16; });
    check_lanes("  v_mov_b32 v5, 0\n  v_fma_mixlo_f16 v5, v2, v3, v4", in,
                [&](u32 a, u32 b, u32 c) { return fma_to_half(from_bits(a), from_bits(b), from_bits(c)); });
}
