// IEEE division: v_div_scale, v_div_fmas, v_div_fixup (f32 and f64) one
// case per lane against values worked out by hand from the ISA pseudo-code,
// then hipcc's whole division and sqrt expansions against the host's
// correctly rounded a / b and sqrt on random and special inputs (zeros,
// denormals, infinities, NaN, quotients that overflow or are denormal).

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "kernel_builder.hpp"

using namespace exec_test;

namespace {

template <class T>
using Bits = std::conditional_t<sizeof(T) == 4, u32, u64>;
template <class T>
Bits<T> to_bits(T x) {
    Bits<T> b;
    std::memcpy(&b, &x, sizeof b);
    return b;
}
template <class T>
T to_value(Bits<T> b) {
    T x;
    std::memcpy(&x, &b, sizeof x);
    return x;
}
template <class T>
T p2(int e) {
    return std::ldexp(T(1), e);
}

// One lane: sources a, b, c (S0, S1, S2), the lane's VCC bit before the
// instruction, the expected result and VCC bit afterwards (div_scale).
template <class T>
struct Case {
    Bits<T> a, b, c;
    bool vcc_in;
    Bits<T> expected;
    bool vcc_out;
};
template <class T>
Case<T> values(T a, T b, T c, bool vcc_in, T expected, bool vcc_out = false) {
    return {to_bits(a), to_bits(b), to_bits(c), vcc_in, to_bits(expected), vcc_out};
}

// Runs `op` (result in v5 or v[8:9], div_scale's mask in s[20:21]) on one case per lane.
template <class T>
void check(const std::string& op, const std::vector<Case<T>>& cases) {
    constexpr bool f64 = sizeof(T) == 8;
    // Inputs loaded, VCC from u0/u1, the op, then its result and its mask stored.
    const std::string run_op = R"(
  s_waitcnt vmcnt(0)
  s_mov_b64 s[20:21], 0
  s_mov_b32 vcc_lo, s12
  s_mov_b32 vcc_hi, s13
  )" + op + R"(
  v_cndmask_b32_e64 v11, 0, 1, s[20:21]
  global_store_dword v1, v11, s[4:5] offset:512
)";
    const std::string body = f64 ? R"(
  v_lshlrev_b32 v10, 3, v0
  global_load_dwordx2 v[2:3], v10, s[6:7]
  global_load_dwordx2 v[4:5], v10, s[8:9]
  global_load_dwordx2 v[6:7], v10, s[10:11]
)" + run_op + "  global_store_dwordx2 v10, v[8:9], s[4:5]\n"
                                 : R"(
  global_load_dword v2, v1, s[6:7]
  global_load_dword v3, v1, s[8:9]
  global_load_dword v4, v1, s[10:11]
)" + run_op + "  global_store_dword v1, v5, s[4:5]\n";
    const CodeObject co = assemble_kernel(body);
    const Program program = build_program(co, co.kernels.at(0));
    REQUIRE(cases.size() <= 64);
    constexpr unsigned words = sizeof(T) / 4;
    std::vector<u32> a(64 * words), b(64 * words), c(64 * words);
    u64 vcc = 0;
    for (std::size_t l = 0; l < cases.size(); ++l) {
        std::memcpy(&a[l * words], &cases[l].a, sizeof(T));
        std::memcpy(&b[l * words], &cases[l].b, sizeof(T));
        std::memcpy(&c[l * words], &cases[l].c, sizeof(T));
        vcc |= u64(cases[l].vcc_in) << l;
    }
    TestRun run(256);
    run.fill(1, a);
    run.fill(2, b);
    run.fill(3, c);
    run.value[0] = u32(vcc);
    run.value[1] = u32(vcc >> 32);
    const DispatchResult r = run.run(program);
    INFO((r.fault ? r.fault->message : std::string()));
    REQUIRE(r.ok());
    const std::vector<u32> out = run.read(0, 192);
    const bool writes_mask = op.find("div_scale") != std::string::npos;
    for (std::size_t l = 0; l < cases.size(); ++l) {
        Bits<T> got;
        std::memcpy(&got, &out[l * words], sizeof(T));
        INFO(op << " lane " << l << ": " << to_value<T>(cases[l].a) << ", " << to_value<T>(cases[l].b) << ", "
                << to_value<T>(cases[l].c) << " -> " << to_value<T>(got) << std::hex << " (0x" << got
                << "), expected 0x" << cases[l].expected);
        CHECK(got == cases[l].expected);
        if (writes_mask) CHECK(bool(out[128 + l]) == cases[l].vcc_out);
    }
}

// The pseudo-code's cases in the format's terms: the scale 2^k, the
// exponent gap of a quotient near overflow, a numerator exponent that is tiny.
template <class T>
struct Format;
template <>
struct Format<float> {
    static constexpr int k = 64, huge = 100, emin = -126, mantissa = 23;
    static constexpr u32 default_nan = 0xffc00000u;
};
template <>
struct Format<double> {
    static constexpr int k = 128, huge = 800, emin = -1022, mantissa = 52;
    static constexpr u64 default_nan = 0xfff8000000000000ull;
};

template <class T>
std::vector<Case<T>> div_scale_cases() {
    constexpr int k = Format<T>::k, emin = Format<T>::emin;
    const T nan = to_value<T>(Bits<T>(Format<T>::default_nan));
    const T denormal = p2<T>(emin - 3);
    const T big = p2<T>(-emin + 1);  // 1 / big is denormal
    return {
        // zero numerator or denominator: NaN, no post-scaling
        values<T>(1, 0, 1, false, nan),
        values<T>(2, 2, 0, true, nan),
        // quotient near overflow: only the denominator scales up; VCC set either way
        values<T>(1, 1, p2<T>(Format<T>::huge), false, p2<T>(k), true),
        values<T>(p2<T>(Format<T>::huge), 1, p2<T>(Format<T>::huge), false, p2<T>(Format<T>::huge), true),
        // denormal denominator: both scale up, the quotient is unchanged
        values<T>(denormal, denormal, p2<T>(emin / 3), false, denormal * p2<T>(k)),
        values<T>(p2<T>(emin / 3), denormal, p2<T>(emin / 3), false, p2<T>(emin / 3 + k)),
        // (a denormal denominator under a numerator too large for the gap is a huge quotient)
        values<T>(1, denormal, 1, false, 1, true),
        // denormal quotient: the numerator scales up, VCC asks for scaling down
        values<T>(p2<T>(-40), p2<T>(-emin - 30), p2<T>(-40), false, p2<T>(-40 + k), true),
        values<T>(p2<T>(-emin - 30), p2<T>(-emin - 30), p2<T>(-40), false, p2<T>(-emin - 30), true),
        // denormal reciprocal: both scale down
        values<T>(big, big, p2<T>(10), false, big * p2<T>(-k)),
        values<T>(p2<T>(10), big, p2<T>(10), false, p2<T>(10 - k)),
        // denormal reciprocal and quotient: the denominator scales down, VCC set
        values<T>(big, big, p2<T>(-10), false, big * p2<T>(-k), true),
        values<T>(p2<T>(-10), big, p2<T>(-10), false, p2<T>(-10), true),
        // tiny numerator: both scale up
        values<T>(p2<T>(emin + 10), p2<T>(-20), p2<T>(emin + 10), false, p2<T>(emin + 10 + k)),
        values<T>(p2<T>(-20), p2<T>(-20), p2<T>(emin + 10), false, p2<T>(-20 + k)),
        // nothing to do
        values<T>(3, 3, 1, true, 3),
        values<T>(1, 3, 1, false, 1),
        values<T>(-5, 7, -5, false, -5),
    };
}

template <class T>
std::vector<Case<T>> div_fmas_cases() {
    constexpr int k = Format<T>::k, emin = Format<T>::emin, m = Format<T>::mantissa;
    // c + a*b lies just above the midpoint between two denormals once scaled
    // by 2^-k; fma rounding first would land on the midpoint and round to even.
    const int e = emin - m - 1 + k + 6;   // c's exponent: the scaled c has 6 significant bits
    const T c = p2<T>(e) + p2<T>(e - 6);  // scaled: 2^(emin-m+5) + half an ulp of the denormals
    const T a = p2<T>((e - m - 8) / 2), b = p2<T>(e - m - 8 - (e - m - 8) / 2);
    const T up = p2<T>(emin - m + 5) + p2<T>(emin - m);
    return {
        values<T>(2, 3, 1, false, 7),
        values<T>(2, 3, 4, true, 10 * p2<T>(k)),                  // |c| >= 2: the quotient was scaled down
        values<T>(T(0.5), T(0.5), T(0.25), true, p2<T>(-1 - k)),  // |c| < 2: scaled up
        values<T>(a, b, c, true, up),
        values<T>(a, b, c, false, c),
        values<T>(1, std::numeric_limits<T>::infinity(), 1, true, std::numeric_limits<T>::infinity()),
    };
}

template <class T>
std::vector<Case<T>> div_fixup_cases() {
    const T inf = std::numeric_limits<T>::infinity();
    const T nan = to_value<T>(Bits<T>(Format<T>::default_nan));
    const Bits<T> quiet = Bits<T>(1) << (Format<T>::mantissa - 1);
    const Bits<T> signaling = to_bits(inf) | 1, negative_nan = to_bits(-inf) | 5;
    std::vector<Case<T>> cases = {
        values<T>(5, 0, 0, false, nan),
        values<T>(5, inf, -inf, false, nan),
        values<T>(5, 0, 3, false, inf),
        values<T>(5, -T(0), 3, false, -inf),
        values<T>(5, 2, inf, false, inf),
        values<T>(5, -2, inf, false, -inf),
        values<T>(5, inf, 3, false, 0),
        values<T>(5, -inf, 3, false, -T(0)),
        values<T>(5, 2, 0, false, 0),
        values<T>(5, 2, -T(0), false, -T(0)),
        // underflow: exponent(n) - exponent(d) below the format's limit
        values<T>(5, p2<T>(100), p2<T>(Format<T>::emin + 20), false, 0),
        values<T>(5, -p2<T>(100), p2<T>(Format<T>::emin + 20), false, -T(0)),
        // the quotient with the sign of n / d
        values<T>(T(-1.5), -2, 3, false, T(-1.5)),
        values<T>(T(-1.5), 2, 3, false, T(1.5)),
        // a NaN quotient that reaches the end: overflow
        values<T>(nan, 2, 3, false, inf),
    };
    // NaN operands: the numerator's first, quieted, then the denominator's.
    cases.push_back({to_bits(T(1)), to_bits(T(1)), signaling, false, signaling | quiet, false});
    cases.push_back({to_bits(T(1)), negative_nan, to_bits(T(3)), false, negative_nan | quiet, false});
    cases.push_back({to_bits(T(1)), negative_nan, signaling, false, signaling | quiet, false});
    return cases;
}

}  // namespace

TEST_CASE("v_div_scale: scale factors and the post-scaling bit", "[alu][float][divide]") {
    check<float>("v_div_scale_f32 v5, s[20:21], v2, v3, v4", div_scale_cases<float>());
    check<double>("v_div_scale_f64 v[8:9], s[20:21], v[2:3], v[4:5], v[6:7]", div_scale_cases<double>());
}

TEST_CASE("v_div_fmas: fused multiply-add, post-scaling in the same rounding", "[alu][float][divide]") {
    check<float>("v_div_fmas_f32 v5, v2, v3, v4", div_fmas_cases<float>());
    check<double>("v_div_fmas_f64 v[8:9], v[2:3], v[4:5], v[6:7]", div_fmas_cases<double>());
}

TEST_CASE("v_div_fixup: zeros, infinities, NaN, underflow", "[alu][float][divide]") {
    check<float>("v_div_fixup_f32 v5, v2, v3, v4", div_fixup_cases<float>());
    check<double>("v_div_fixup_f64 v[8:9], v[2:3], v[4:5], v[6:7]", div_fixup_cases<double>());
}

namespace {

// Operand pairs: random bit patterns over the whole exponent range, random
// ordinary values, and every pairing of special values.
template <class T>
void division_inputs(std::vector<T>& a, std::vector<T>& b) {
    const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
    const T min_normal = std::numeric_limits<T>::min(), denorm = std::numeric_limits<T>::denorm_min();
    const T max = std::numeric_limits<T>::max();
    const std::vector<T> special = {0,
                                    -T(0),
                                    1,
                                    -1,
                                    3,
                                    T(0.1),
                                    inf,
                                    -inf,
                                    nan,
                                    denorm,
                                    -denorm,
                                    min_normal,
                                    max,
                                    -max,
                                    min_normal * T(0.75),
                                    p2<T>(Format<T>::emin - 20),
                                    p2<T>(-Format<T>::emin),
                                    p2<T>(-Format<T>::emin + 1) * T(1.5)};
    for (T x : special)
        for (T y : special) a.push_back(x), b.push_back(y);
    std::mt19937_64 rng(7);
    for (int i = 0; i < 4000; ++i) {
        a.push_back(to_value<T>(Bits<T>(rng())));
        b.push_back(to_value<T>(Bits<T>(rng())));
    }
    // Quotients in and near the denormal range, and near overflow.
    std::uniform_real_distribution<T> mantissa(1, 2);
    std::uniform_int_distribution<int> small(Format<T>::emin - Format<T>::mantissa - 3, Format<T>::emin + 3);
    for (int i = 0; i < 2000; ++i) {
        const int e = small(rng);
        const T d = mantissa(rng) * p2<T>(i % 2 ? 60 : -Format<T>::emin - 2);
        a.push_back(mantissa(rng) * p2<T>(e) * d);
        b.push_back(d);
        a.push_back(mantissa(rng) * p2<T>(-Format<T>::emin - 1));
        b.push_back(mantissa(rng) * p2<T>(-2));
    }
}

// Bitwise equal; any NaN matches any NaN (payloads are not compared).
template <class T>
bool same(T x, T y) {
    return std::isnan(x) ? std::isnan(y) : to_bits(x) == to_bits(y);
}

template <class T>
void run_division(const char* kernel, std::vector<T>& quotient, std::vector<T>& root, const std::vector<T>& a,
                  const std::vector<T>& b) {
    const Program p = build_program(hip_kernels(), hip_kernels().kernel(kernel));
    const int n = int(a.size());
    DeviceMemory memory;
    const u64 da = memory.allocate(sizeof(T) * n), db = memory.allocate(sizeof(T) * n);
    const u64 dq = memory.allocate(sizeof(T) * n), dr = memory.allocate(sizeof(T) * n);
    memory.write(da, a.data(), sizeof(T) * n);
    memory.write(db, b.data(), sizeof(T) * n);
    run_1d(memory, p, u32(n), 256, 2, da, db, dq, dr, n);
    quotient.resize(n);
    root.resize(n);
    memory.read(dq, quotient.data(), sizeof(T) * n);
    memory.read(dr, root.data(), sizeof(T) * n);
}

}  // namespace

// hipcc's f32 and f64 expansions of a / b and sqrt against the host's
// correctly rounded results (the f64 sqrt refines v_rsq_f64 with fma steps).
TEMPLATE_TEST_CASE("hipcc division and sqrt are correctly rounded, denormal results included", "[hip][divide]", float,
                   double) {
    std::vector<TestType> a, b, quotient, root;
    division_inputs(a, b);
    run_division(sizeof(TestType) == 4 ? "divide" : "divide_f64", quotient, root, a, b);
    for (std::size_t i = 0; i < a.size(); ++i) {
        INFO(std::hexfloat << a[i] << " / " << b[i] << " = " << quotient[i] << ", host " << a[i] / b[i]);
        CHECK(same(quotient[i], a[i] / b[i]));
        INFO("sqrt: " << root[i] << ", host " << std::sqrt(a[i]));
        CHECK(same(root[i], std::sqrt(a[i])));
    }
}

// MODE: read back with s_getreg; a product whose result is denormal is
// flushed under the descriptor's flush mode, kept after s_setreg turns fp32
// denormals on, flushed again after it turns them off (a fmac run, which the
// executor batches, on both sides).
TEST_CASE("s_setreg of MODE switches the fp32 denorm mode and s_getreg reads it back", "[alu][float][denorm][mode]") {
    // Both forms: the value from an SGPR, or a literal (s_setreg_imm32_b32, as hipcc emits it).
    const bool literal = GENERATE(false, true);
    const auto set_denorm = [&](int value) {
        const std::string v = std::to_string(value);
        return literal ? "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), " + v
                       : "s_mov_b32 s21, " + v + "\n  s_setreg_b32 hwreg(HW_REG_MODE, 4, 2), s21";
    };
    KernelOptions options;
    options.denorm_mode_32 = 0;  // flush inputs and results
    const CodeObject co = assemble_kernel(R"(
  global_load_dword v2, v1, s[6:7]
  global_load_dword v3, v1, s[8:9]
  s_waitcnt vmcnt(0)
  s_getreg_b32 s20, hwreg(HW_REG_MODE)
  v_mul_f32 v5, v2, v3
  v_mov_b32 v6, 0
  v_fmac_f32 v6, v2, v3
  )" + set_denorm(3) + R"(
  s_getreg_b32 s22, hwreg(HW_REG_MODE)
  v_mul_f32 v7, v2, v3
  v_mov_b32 v8, 0
  v_fmac_f32 v8, v2, v3
  v_fmac_f32 v8, v2, v3
  )" + set_denorm(0) + R"(
  v_mul_f32 v9, v2, v3
  v_mov_b32 v10, s20
  v_mov_b32 v11, s22
  global_store_dword v1, v5, s[4:5]
  global_store_dword v1, v6, s[4:5] offset:256
  global_store_dword v1, v7, s[4:5] offset:512
  global_store_dword v1, v8, s[4:5] offset:768
  global_store_dword v1, v9, s[4:5] offset:1024
  global_store_dword v1, v10, s[4:5] offset:1280
  global_store_dword v1, v11, s[4:5] offset:1536
)",
                                          options);
    const Program program = build_program(co, co.kernels.at(0));
    TestRun run(512);
    const float x = p2<float>(-70), y = p2<float>(-70) * 1.5f;  // x * y = 1.5 * 2^-140: denormal
    run.fill_floats(1, std::vector<float>(64, x));
    run.fill_floats(2, std::vector<float>(64, y));
    const DispatchResult r = run.run(program);
    INFO((r.fault ? r.fault->message : std::string()));
    REQUIRE(r.ok());
    const std::vector<u32> out = run.read(0, 448);
    const u32 product = to_bits(x * y);
    REQUIRE(product != 0);
    CHECK(out[0] == 0);                                 // flushed
    CHECK(out[64] == 0);                                // flushed (multiply-add run)
    CHECK(out[128] == product);                         // kept
    CHECK(out[192] == to_bits(2 * (x * y)));            // kept, two fmacs in one run
    CHECK(out[256] == 0);                               // flushed again
    CHECK(((out[320] >> 4) & 3) == 0);                  // MODE.FP_DENORM fp32 from the descriptor
    CHECK(((out[384] >> 4) & 3) == 3);                  // after s_setreg
    CHECK((out[384] & ~0x30u) == (out[320] & ~0x30u));  // nothing else changed
}

TEST_CASE("s_setreg of MODE round bits stops the run naming the instruction", "[alu][float][mode]") {
    const CodeObject co = assemble_kernel(R"(
  s_mov_b32 s21, 1
  s_setreg_b32 hwreg(HW_REG_MODE, 0, 2), s21
)");
    const Program program = build_program(co, co.kernels.at(0));
    TestRun run(64);
    const DispatchResult r = run.run(program);
    REQUIRE(r.fault);
    CHECK(r.fault->message.find("s_setreg_b32") != std::string::npos);
    CHECK(r.fault->message.find("round mode") != std::string::npos);
}
