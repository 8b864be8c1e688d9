// Every implemented ALU opcode against an independent host reference.
//
// One table row per opcode: the assembly that exercises it (operand
// placeholders, see `expand`) and a reference written from the ISA
// definition in plain C++ (not from emu/exec). The rows of one family are
// assembled into one kernel, each op storing its results to its own slice of
// the output buffer, and run twice: with a full EXEC and with EXEC =
// 0x5555... (inactive lanes must keep their old destination values). A
// coverage test requires a row for every ALU opcode the executor implements,
// so a newly implemented opcode without a test fails here.
//
// This file is compiled with -ffp-contract=off: a * b + c on the host is two
// roundings, as v_mad_f32 is.

#include <catch2/catch.hpp>

#include <algorithm>
#include <bitset>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include "emu/decode/op_table.hpp"
#include "emu/exec/program.hpp"
#include "kernel_builder.hpp"

using namespace exec_test;

namespace {

constexpr u64 full_exec = ~u64{0};
constexpr u64 partial_exec = 0x5555555555555555ull;

// ---------------------------------------------------------------------------
// Inputs: each lane (VALU) or each workgroup (SALU) gets three 32-bit and
// three 64-bit values, an old destination value and a carry/condition bit.

struct LaneInput {
    u32 a = 0, b = 0, c = 0;
    u64 a2 = 0, b2 = 0, c2 = 0;
    u32 old_lo = 0, old_hi = 0;
    bool carry = false;  // VCC (VALU) or SCC (SALU) before the op
};

// Values where the ISA's rules differ from the common case.
const std::vector<u32>& specials32() {
    static const std::vector<u32> values = {
        0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff,  // zeros, denormals
        0x00800000, 0x80800000, 0x7f7fffff, 0xff7fffff,                          // FLT_MIN, FLT_MAX
        0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x7fa00000, 0xff800001,  // inf, qNaN, sNaN
        0x3f800000, 0xbf800000, 0x3f000000, 0x3fc00000, 0xbfc00000, 0x40200000,  // 1, -1, 0.5, 1.5, -1.5, 2.5
        0xbf000000, 0x4b000000, 0x4f000000, 0x4f800000, 0xcf000000, 0xcf000001,  // -0.5, 2^23, 2^31, 2^32, -2^31
        0x43800000, 0xc3800001, 0x3e800000,                                      // 256, -256.00002, 0.25
        0x7fffffff, 0xffffffff, 0xfffffffe, 0x00000002, 0x00000003, 0x0000001f,  // INT_MAX, -1, -2, small
        0x00000020, 0x00000021, 0x0000003f, 0x00000040, 0x00000080, 0x000000ff,  // shifts
        0x00008234, 0xffff8234, 0x00100004, 0x00050003, 0x00200000, 0x0c080400,  // simm16, bfe, perm selectors
        0x12345678, 0xf0f0f0f0, 0xff00ff00, 0x00ff00ff, 0x0d0a0908, 0x00000018, 0x00000007,
        0x00000064, 0x000003e8, 0x00012345, 0x00400000, 0x00654321,  // integers that look like fp32 denormals
        0x00007c00, 0x0000fc00, 0x00007e00, 0x00007d00, 0x00003c00, 0x0000bc00,  // fp16 in the low half:
        0x00008001, 0x000003ff, 0x00007bff, 0x00000400, 0x00003c01, 0x0000c000,  // inf, NaNs, 1, denormals...
    };
    return values;
}
const std::vector<u64>& specials64() {
    // Four values a row, the comment naming them.
    // clang-format off
    static const std::vector<u64> values = {
        0x0000000000000000, 0x8000000000000000, 0x0000000000000001, 0x800fffffffffffff,  // zeros, denormals
        0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000, 0x7ff4000000000000,  // inf, qNaN, sNaN
        0x3ff0000000000000, 0xbff0000000000000, 0x7fefffffffffffff, 0x0010000000000000,  // 1, -1, DBL_MAX, DBL_MIN
        0x41e0000000000000, 0xc1e0000000200000, 0x41efffffffe00000, 0x41f0000000000000,  // 2^31, -2^31-1, 2^32-1, 2^32
        0x3fe0000000000000, 0xbff8000000000000, 0x36a0000000000000, 0x47efffffe0000000,  // 0.5, -1.5, ~FLT_MIN/2, FLT_MAX
        0x7fffffffffffffff, 0xffffffffffffffff, 0x00000000ffffffff, 0xffffffff00000000,  // integer extremes
        0x0000000000000003, 0x000000000000003f, 0x0000000000000040, 0x0123456789abcdef,  // shifts, a pattern
    };
    // clang-format on
    return values;
}

// Specials first (in rotations, so each op sees many pairs), then random
// bit patterns and random moderate floats.
std::vector<LaneInput> make_inputs(std::size_t count, unsigned seed) {
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<float> moderate(-300.0f, 300.0f);
    auto random32 = [&](std::size_t i) {
        if (i % 3 == 0) return bits(moderate(random));
        if (i % 3 == 1) return static_cast<u32>(random() & 0x3f);  // small: shifts, widths
        return static_cast<u32>(random());
    };
    auto random64 = [&](std::size_t i) {
        if (i % 2 == 0) {
            const double d = moderate(random) * 1.0000001;
            u64 u;
            std::memcpy(&u, &d, 8);
            return u;
        }
        return static_cast<u64>(random());
    };
    const auto& s32 = specials32();
    const auto& s64 = specials64();
    std::vector<LaneInput> inputs(count);
    for (std::size_t i = 0; i < count; ++i) {
        LaneInput& in = inputs[i];
        const bool special = (i / 64) % 2 == 0;  // half the waves specials, half random
        auto pick32 = [&](std::size_t stride, std::size_t shift) {
            return special ? s32[(i * stride + shift) % s32.size()] : random32(i + stride);
        };
        auto pick64 = [&](std::size_t stride, std::size_t shift) {
            return special ? s64[(i * stride + shift) % s64.size()] : random64(i + stride);
        };
        in.a = pick32(1, i / 64 * 17);
        in.b = pick32(7, 3 + i / 64);
        in.c = pick32(13, 5);
        in.a2 = pick64(1, i / 64 * 5);
        in.b2 = pick64(5, 3);
        in.c2 = pick64(11, 7);
        in.old_lo = static_cast<u32>(random());
        in.old_hi = static_cast<u32>(random());
        in.carry = (random() & 1) != 0;
    }
    return inputs;
}

// ---------------------------------------------------------------------------
// Host helpers, written from the ISA's definitions.

float f(u32 u) { return from_bits(u); }
double d(u64 u) { return from_bits64(u); }
u32 lo(u64 x) { return static_cast<u32>(x); }
u32 hi(u64 x) { return static_cast<u32>(x >> 32); }
bool is_nan32(u32 u) { return (u & 0x7fffffff) > 0x7f800000; }
bool is_nan64(u64 u) { return (u & 0x7fffffffffffffffull) > 0x7ff0000000000000ull; }
bool is_snan32(u32 u) { return is_nan32(u) && !(u & 0x00400000); }
bool is_snan64(u64 u) { return is_nan64(u) && !(u & 0x0008000000000000ull); }
bool is_denorm32(u32 u) { return (u & 0x7f800000) == 0 && (u & 0x007fffff) != 0; }
// v_mad/v_mac_f32 have no denormal support: inputs and results flush to a signed zero.
u32 flush32(u32 u) { return is_denorm32(u) ? (u & 0x80000000) : u; }
i32 sext(u32 x, unsigned width) {
    const unsigned shift = 32 - width;
    return static_cast<i32>(x << shift) >> shift;
}
u32 mask_bits(unsigned width) { return width >= 32 ? ~0u : (1u << width) - 1; }
u64 mask_bits64(unsigned width) { return width >= 64 ? ~u64{0} : (u64{1} << width) - 1; }

// IEEE-mode min/max (the kernel's default mode): a signaling NaN input gives
// a NaN, a quiet NaN input gives the other operand; -0 < +0.
template <class T, class Bits>
T ieee_min_max(T a, T b, bool want_max, Bits snan) {
    if (snan(a) || snan(b)) return std::numeric_limits<T>::quiet_NaN();
    if (std::isnan(a)) return b;
    if (std::isnan(b)) return a;
    if (a == b) return (std::signbit(a) != want_max) ? a : b;  // -0 vs +0
    return (a < b) != want_max ? a : b;
}
float fmin_ieee(float a, float b) {
    return ieee_min_max(a, b, false, [](float x) { return is_snan32(bits(x)); });
}
float fmax_ieee(float a, float b) {
    return ieee_min_max(a, b, true, [](float x) { return is_snan32(bits(x)); });
}
double dmin_ieee(double a, double b) {
    return ieee_min_max(a, b, false, [](double x) { return is_snan64(bits64(x)); });
}
double dmax_ieee(double a, double b) {
    return ieee_min_max(a, b, true, [](double x) { return is_snan64(bits64(x)); });
}

// Float -> integer conversions: truncate, saturate, NaN -> 0.
template <class Int>
Int to_int_saturated(double x) {
    if (std::isnan(x)) return 0;
    if (x <= static_cast<double>(std::numeric_limits<Int>::min())) return std::numeric_limits<Int>::min();
    if (x >= static_cast<double>(std::numeric_limits<Int>::max())) return std::numeric_limits<Int>::max();
    return static_cast<Int>(x);
}

// fp32 -> fp16 bits with the given rounding (nearest-even or toward zero);
// NaN -> a quiet NaN (payload compared as is-NaN only).
u32 to_half(u32 x, bool toward_zero) {
    const u32 sign = (x >> 16) & 0x8000;
    const u32 exp = (x >> 23) & 0xff, mant = x & 0x7fffff;
    if (exp == 0xff) return sign | (mant ? 0x7e00 : 0x7c00);
    const int e = static_cast<int>(exp) - 127 + 15;
    // Work on the 24-bit significand scaled so that the half's lsb is bit 0.
    u64 sig = exp ? (mant | 0x800000) : mant;
    const int shift = e <= 0 ? 13 + (1 - e) : 13;  // keep 10 fraction bits, fewer for a half denormal
    u32 half;
    if (exp == 0 || shift >= 40) {
        half = 0;  // below half the smallest half denormal
    } else {
        u64 kept = sig >> shift;
        const u64 rest = sig & ((u64{1} << shift) - 1), halfway = u64{1} << (shift - 1);
        if (!toward_zero && (rest > halfway || (rest == halfway && (kept & 1)))) ++kept;
        // kept includes the implicit bit for normals: place the exponent.
        half = e <= 0 ? static_cast<u32>(kept) : static_cast<u32>((static_cast<u64>(e - 1) << 10) + kept);
    }
    if (half >= 0x7c00) half = toward_zero ? 0x7bff : 0x7c00;  // overflow
    return sign | half;
}
u32 from_half(u32 h) {
    const u32 sign = (h & 0x8000) << 16, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
    if (exp == 0x1f) return sign | 0x7f800000 | (mant << 13) | (mant ? 0x400000 : 0);
    if (exp == 0) return bits((sign ? -1.0f : 1.0f) * std::ldexp(static_cast<float>(mant), -24));
    return sign | ((exp - 15 + 127) << 23) | (mant << 13);
}

// IEEE comparisons of the VOPC float families (on double: exact for f16/f32/f64 values): the `n` forms are true on NaN.
struct FloatCompare {
    const char* suffix;
    bool (*test)(double, double);
};
const FloatCompare float_compares[] = {
    {"f", [](double, double) { return false; }},
    {"lt", [](double a, double b) { return a < b; }},
    {"eq", [](double a, double b) { return a == b; }},
    {"le", [](double a, double b) { return a <= b; }},
    {"gt", [](double a, double b) { return a > b; }},
    {"lg", [](double a, double b) { return a < b || a > b; }},
    {"ge", [](double a, double b) { return a >= b; }},
    {"o", [](double a, double b) { return !std::isnan(a) && !std::isnan(b); }},
    {"u", [](double a, double b) { return std::isnan(a) || std::isnan(b); }},
    {"nge", [](double a, double b) { return !(a >= b); }},
    {"nlg", [](double a, double b) { return !(a < b || a > b); }},
    {"ngt", [](double a, double b) { return !(a > b); }},
    {"nle", [](double a, double b) { return !(a <= b); }},
    {"neq", [](double a, double b) { return !(a == b); }},
    {"nlt", [](double a, double b) { return !(a < b); }},
    {"tru", [](double, double) { return true; }},
};
struct IntCompare {
    const char* suffix;
    int want;  // bit 0: less, bit 1: equal, bit 2: greater
};
const IntCompare int_compares[] = {{"f", 0},  {"lt", 1}, {"eq", 2}, {"le", 3},
                                   {"gt", 4}, {"ne", 5}, {"ge", 6}, {"t", 7}};
template <class T>
bool int_compare(int want, T a, T b) {
    const int outcome = a < b ? 1 : a == b ? 2 : 4;
    return (want & outcome) != 0;
}

// v_cmp_class_*: bit of S1 per class of S0, for a format of `exp_bits` and `mant_bits`.
unsigned float_class(u64 x, int exp_bits, int mant_bits) {
    const bool neg = (x >> (exp_bits + mant_bits)) & 1;
    const u64 exp = (x >> mant_bits) & ((u64{1} << exp_bits) - 1), mant = x & ((u64{1} << mant_bits) - 1);
    const u64 exp_max = (u64{1} << exp_bits) - 1;
    if (exp == exp_max && mant) return (mant >> (mant_bits - 1)) ? 1 : 0;  // quiet : signaling
    if (exp == exp_max) return neg ? 2 : 9;
    if (exp == 0 && mant == 0) return neg ? 5 : 6;
    if (exp == 0) return neg ? 4 : 7;
    return neg ? 3 : 8;
}
double half_value(u32 h) { return f(from_half(h & 0xffff)); }
bool is_nan16(u32 h) { return (h & 0x7fff) > 0x7c00; }
// A double rounded to fp16 (nearest-even or toward zero): scale to the
// half's ulp at that magnitude, round to an integer, scale back (exact).
u32 round_to_half(double x, bool toward_zero = false) {
    if (std::isnan(x)) return 0x7e00;
    if (x == 0 || std::isinf(x)) return to_half(bits(float(x)), false);
    int e;
    std::frexp(x, &e);  // |x| in [2^(e-1), 2^e)
    const double ulp = std::ldexp(1.0, std::max(e - 1 - 10, -24));
    const double rounded = (toward_zero ? std::trunc(x / ulp) : std::nearbyint(x / ulp)) * ulp;
    if (std::fabs(rounded) >= 65536) return (x < 0 ? 0x8000 : 0) | (toward_zero ? 0x7bff : 0x7c00);
    return to_half(bits(float(rounded)), false);  // representable: exact
}
bool is_denorm16(u32 h) { return (h & 0x7c00) == 0 && (h & 0x3ff) != 0; }
u32 flush16(u32 h) { return is_denorm16(h) ? (h & 0x8000) : h; }
// A value known to be an fp16 (or exact product/sum of them) with fp16 denormals flushed.
double flushed(double x) { return std::fabs(x) < 0x1p-14 ? std::copysign(0.0, x) : x; }
// a * b + c for fp16 a, b (exact product) and fp32 c, rounded to double
// with round-to-odd, so that one more rounding (to fp32 or fp16) is correct.
double fused_to_odd(double a, double b, double c) {
    const double p = a * b, s = p + c;
    if (!std::isfinite(s)) return s;
    const double bb = s - p, err = (p - (s - bb)) + (c - bb);  // TwoSum: p + c == s + err exactly
    if (err == 0) return s;
    const double truncated = ((err > 0) == (s > 0)) ? s : std::nextafter(s, 0.0);
    return (bits64(truncated) & 1) ? truncated : std::nextafter(truncated, std::copysign(INFINITY, truncated));
}
// IEEE-mode min/max on fp16 values (sNaN: quiet bit 0x200 clear).
u32 half_min_max(u32 a, u32 b, bool want_max) {
    const auto snan = [](u32 h) { return is_nan16(h) && !(h & 0x200); };
    if (snan(a) || snan(b)) return 0x7e00;
    if (is_nan16(a)) return b;
    if (is_nan16(b)) return a;
    const double x = half_value(a), y = half_value(b);
    if (x == y) return (((a >> 15) & 1) != want_max) ? a : b;
    return (x < y) != want_max ? a : b;
}

// v_perm_b32: each result byte picks a byte of {S0, S1} (S1 the low half),
// a sign replicate, or a constant.
u32 perm(u32 s0, u32 s1, u32 selectors) {
    const u64 both = (u64{s0} << 32) | s1;
    u32 out = 0;
    for (int i = 0; i < 4; ++i) {
        const u32 sel = (selectors >> (8 * i)) & 0xff;
        u32 byte;
        if (sel < 8) byte = (both >> (8 * sel)) & 0xff;
        else if (sel < 12) byte = ((both >> (16 * (sel - 8) + 15)) & 1) ? 0xff : 0x00;
        else if (sel == 12) byte = 0;
        else byte = 0xff;
        out |= byte << (8 * i);
    }
    return out;
}

int leading_zeros(u64 x, int width) {
    for (int i = width - 1; i >= 0; --i)
        if ((x >> i) & 1) return width - 1 - i;
    return -1;
}
int trailing(u64 x, int width, bool one) {
    for (int i = 0; i < width; ++i)
        if (((x >> i) & 1) == one) return i;
    return -1;
}
int leading_sign_bits(u64 x, int width) {
    const bool sign = (x >> (width - 1)) & 1;
    for (int i = width - 2; i >= 0; --i)
        if (((x >> i) & 1) != sign) return width - 1 - i;
    return -1;
}

// ---------------------------------------------------------------------------
// What an op does to one lane. Unset fields keep the value the harness put
// there before the op: the old destination, the all-ones sdst, the EXEC bit.

struct Effect {
    std::optional<u32> lo, hi;
    std::optional<bool> sdst;           // VALU: the s[30:31] lane bit (VOPC result, carry out); SALU: SCC
    std::optional<bool> exec;           // VALU: the EXEC bit after the op; SALU: unused
    std::optional<u32> extra0, extra1;  // SALU: EXEC after saveexec ops
};

struct Wave {
    const LaneInput* lane;  // 64 lanes (VALU) or one (SALU)
    u64 exec;
    bool active(int l) const { return (exec >> l) & 1; }
};

using Reference = std::function<Effect(const Wave&, int lane)>;

enum class Compare {
    bits,   // every bit
    f32,    // lo is fp32: a NaN expectation accepts any quiet NaN (the ISA leaves payloads open)
    f64,    // {hi,lo} is fp64: likewise
    f16x2,  // lo holds two fp16 values: likewise per half
    f32x2,  // lo and hi are fp32 (packed ops): likewise per half
    f16,    // the low half is fp16 (NaN: any quiet NaN); its upper half as for low16
    abs16,  // fp16 v_sin/v_cos: within `tolerance` absolutely, inputs within +-256 revolutions
    ulp16,  // fp16 transcendental: within `tolerance` half ULPs (host libm)
    ulp64,  // f64 rcp/rsq/sqrt: within `tolerance` ULPs of the correctly rounded value (host libm)
    low16,  // only the low 16 bits of lo: a 16-bit result (its upper half, which op_sel/SDWA decide, is
            // test_half.cpp's)
    ulp,    // transcendental fp32: within `tolerance` ULPs (host libm, not bit-exact; the ISA's accuracy)
    abs,    // v_sin/v_cos: within `tolerance` absolutely, inputs within the ISA's +-256 revolutions
};

// What each input slot and the result of a VALU case hold, from the ISA's
// definition of the op (S0.f32, S1.i32, D0.f16 ...): the denorm modes flush
// float operands only. raw: integer or bits, never flushed.
enum class K : std::uint8_t { raw, f32, f64, f16, f16_high, pk_f16, pk_f32 };
struct Kinds {
    K a = K::raw, b = K::raw, c = K::raw;     // 32-bit slots ($A $B $C)
    K a2 = K::raw, b2 = K::raw, c2 = K::raw;  // 64-bit slots ($A2 $B2 $C2)
    K out = K::raw;                           // the result in lo (hi for 64-bit kinds)
};
// out, then the 32-bit sources.
Kinds narrow(K out, K a, K b = K::raw, K c = K::raw) {
    Kinds k;
    k.out = out, k.a = a, k.b = b, k.c = c;
    return k;
}
// out, then the 64-bit sources (and $B, a 32-bit one).
Kinds wide(K out, K a2, K b2 = K::raw, K c2 = K::raw, K b = K::raw) {
    Kinds k;
    k.out = out, k.a2 = a2, k.b2 = b2, k.c2 = c2, k.b = b;
    return k;
}

struct OpCase {
    std::string mnemonic;
    std::string text;  // assembly, placeholders expanded by `expand`
    Reference reference;
    Compare compare = Compare::bits;
    double tolerance = 0;
    Kinds kinds;  // set by declare_float_operands
};

// Reference builders for the common shapes: an active lane gets the
// result; an inactive lane keeps everything.
template <class Fn>
Reference lanewise(Fn fn) {
    return [fn](const Wave& w, int l) { return w.active(l) ? fn(w.lane[l]) : Effect{}; };
}
template <class Fn>
Reference u32_result(Fn fn) {
    return lanewise([fn](const LaneInput& in) { return Effect{fn(in), {}, {}, {}, {}, {}}; });
}
template <class Fn>
Reference u64_result(Fn fn) {
    return lanewise([fn](const LaneInput& in) {
        const u64 r = fn(in);
        return Effect{lo(r), hi(r), {}, {}, {}, {}};
    });
}
template <class Fn>
Reference f32_result(Fn fn) {
    return u32_result([fn](const LaneInput& in) { return bits(fn(in)); });
}
template <class Fn>
Reference f64_result(Fn fn) {
    return u64_result([fn](const LaneInput& in) { return bits64(fn(in)); });
}

// VALU placeholders: A B C 32-bit sources (v2 v3 v4), A2 B2 C2 64-bit
// (v[8:9] v[10:11] v[12:13]), D / D2 the destination (v20 / v[20:21]),
// DH its high half, S the lane-mask destination s[30:31].
// SALU: A B C = s16 s17 s18, A2 B2 C2 = s[22:23] s[24:25] s[26:27],
// D / D2 = s32 / s[32:33], DH = s33, X0 X1 = s35 s38 (extra results).
struct Placeholders {
    const char* a;
    const char* b;
    const char* c;
    const char* a2;
    const char* b2;
    const char* c2;
    const char* d;
    const char* d2;
    const char* dh;
};
const Placeholders valu_names{"v2", "v3", "v4", "v[8:9]", "v[10:11]", "v[12:13]", "v20", "v[20:21]", "v21"};
const Placeholders salu_names{"s16", "s17", "s18", "s[22:23]", "s[24:25]", "s[26:27]", "s32", "s[32:33]", "s33"};

std::string expand(const std::string& text, const Placeholders& p) {
    const std::pair<const char*, const char*> names[] = {
        {"$A2", p.a2}, {"$B2", p.b2}, {"$C2", p.c2}, {"$D2", p.d2},      {"$DH", p.dh},  {"$A", p.a},
        {"$B", p.b},   {"$C", p.c},   {"$D", p.d},   {"$S", "s[30:31]"}, {"$X0", "s35"}, {"$X1", "s38"}};
    std::string out = text;
    for (const auto& [from, to] : names)
        for (std::size_t at = out.find(from); at != std::string::npos; at = out.find(from, at))
            out.replace(at, std::strlen(from), to);
    return out;
}

// ---------------------------------------------------------------------------
// The VALU table.

void declare_float_operands(std::vector<OpCase>& cases);

std::vector<OpCase> valu_cases() {
    std::vector<OpCase> cases;
    auto add = [&](std::string mnemonic, std::string text, Reference ref, Compare compare = Compare::bits,
                   double tolerance = 0) {
        cases.push_back({std::move(mnemonic), std::move(text), std::move(ref), compare, tolerance, {}});
    };
    auto vop1_f32 = [&](const char* name, float (*fn)(float)) {
        add(name, std::string(name) + " $D, $A", f32_result([fn](const LaneInput& in) { return fn(f(in.a)); }),
            Compare::f32);
    };
    auto vop2_f32 = [&](const char* name, float (*fn)(float, float)) {
        add(name, std::string(name) + " $D, $A, $B",
            f32_result([fn](const LaneInput& in) { return fn(f(in.a), f(in.b)); }), Compare::f32);
    };
    auto vop3_f32 = [&](const char* name, float (*fn)(float, float, float)) {
        add(name, std::string(name) + " $D, $A, $B, $C",
            f32_result([fn](const LaneInput& in) { return fn(f(in.a), f(in.b), f(in.c)); }), Compare::f32);
    };
    auto vop_u32 = [&](const char* name, const char* operands, u32 (*fn)(u32, u32, u32)) {
        add(name, std::string(name) + " $D, " + operands,
            u32_result([fn](const LaneInput& in) { return fn(in.a, in.b, in.c); }));
    };

    // VOP1
    add("v_nop", "v_nop", lanewise([](const LaneInput&) { return Effect{}; }));
    vop_u32("v_mov_b32", "$A", [](u32 a, u32, u32) { return a; });
    vop_u32("v_not_b32", "$A", [](u32 a, u32, u32) { return ~a; });
    vop_u32("v_bfrev_b32", "$A", [](u32 a, u32, u32) {
        u32 r = 0;
        for (int i = 0; i < 32; ++i) r |= ((a >> i) & 1) << (31 - i);
        return r;
    });
    vop_u32("v_ffbh_u32", "$A", [](u32 a, u32, u32) { return static_cast<u32>(leading_zeros(a, 32)); });
    vop_u32("v_ffbl_b32", "$A", [](u32 a, u32, u32) { return static_cast<u32>(trailing(a, 32, true)); });
    vop_u32("v_ffbh_i32", "$A", [](u32 a, u32, u32) { return static_cast<u32>(leading_sign_bits(a, 32)); });
    vop1_f32("v_cvt_f32_i32", [](float x) { return static_cast<float>(static_cast<i32>(bits(x))); });
    vop1_f32("v_cvt_f32_u32", [](float x) { return static_cast<float>(bits(x)); });
    vop_u32("v_cvt_i32_f32", "$A", [](u32 a, u32, u32) { return static_cast<u32>(to_int_saturated<i32>(f(a))); });
    vop_u32("v_cvt_u32_f32", "$A", [](u32 a, u32, u32) { return to_int_saturated<u32>(f(a)); });
    vop_u32("v_cvt_rpi_i32_f32", "$A",
            [](u32 a, u32, u32) { return static_cast<u32>(to_int_saturated<i32>(std::floor(double(f(a)) + 0.5))); });
    vop_u32("v_cvt_flr_i32_f32", "$A",
            [](u32 a, u32, u32) { return static_cast<u32>(to_int_saturated<i32>(std::floor(f(a)))); });
    vop1_f32("v_cvt_f32_ubyte0", [](float x) { return static_cast<float>(bits(x) & 0xff); });
    vop1_f32("v_cvt_f32_ubyte1", [](float x) { return static_cast<float>((bits(x) >> 8) & 0xff); });
    vop1_f32("v_cvt_f32_ubyte2", [](float x) { return static_cast<float>((bits(x) >> 16) & 0xff); });
    vop1_f32("v_cvt_f32_ubyte3", [](float x) { return static_cast<float>(bits(x) >> 24); });
    add("v_cvt_f16_f32", "v_cvt_f16_f32 $D, $A", u32_result([](const LaneInput& in) { return to_half(in.a, false); }),
        Compare::f16x2);
    add("v_cvt_f32_f16", "v_cvt_f32_f16 $D, $A",
        u32_result([](const LaneInput& in) { return from_half(in.a & 0xffff); }), Compare::f32);
    // Transcendentals: ISA accuracy 1 ULP (rcp, rsq, sqrt, exp, log).
    auto transcendental = [&](const char* name, double (*fn)(double)) {
        add(name, std::string(name) + " $D, $A",
            f32_result([fn](const LaneInput& in) { return static_cast<float>(fn(f(in.a))); }), Compare::ulp, 1);
    };
    transcendental("v_rcp_f32", [](double x) { return 1.0 / x; });
    transcendental("v_rcp_iflag_f32", [](double x) { return 1.0 / x; });
    transcendental("v_rsq_f32", [](double x) { return 1.0 / std::sqrt(x); });
    transcendental("v_sqrt_f32", [](double x) { return std::sqrt(x); });
    transcendental("v_exp_f32", [](double x) { return std::exp2(x); });
    transcendental("v_log_f32", [](double x) { return std::log2(x); });
    // Vega ISA: V_EXP_LEGACY_F32 "D.f = pow(2.0, S0.f)", V_LOG_LEGACY_F32 "D.f = log2(S0.f)".
    transcendental("v_exp_legacy_f32", [](double x) { return std::exp2(x); });
    transcendental("v_log_legacy_f32", [](double x) { return std::log2(x); });
    // sin/cos take revolutions; the ISA defines them for |x| <= 256 only.
    auto trig = [&](const char* name, double (*fn)(double)) {
        add(name, std::string(name) + " $D, $A",
            f32_result([fn](const LaneInput& in) { return static_cast<float>(fn(2 * M_PI * f(in.a))); }), Compare::abs,
            1e-6);
    };
    trig("v_sin_f32", [](double x) { return std::sin(x); });
    trig("v_cos_f32", [](double x) { return std::cos(x); });
    vop1_f32("v_fract_f32", [](float x) {
        if (std::isinf(x)) return std::numeric_limits<float>::quiet_NaN();
        return std::min(x - std::floor(x), 0x1.fffffep-1f);
    });
    vop1_f32("v_trunc_f32", [](float x) { return std::trunc(x); });
    vop1_f32("v_ceil_f32", [](float x) { return std::ceil(x); });
    vop1_f32("v_floor_f32", [](float x) { return std::floor(x); });
    vop1_f32("v_rndne_f32", [](float x) { return std::nearbyint(x); });
    vop1_f32("v_frexp_mant_f32", [](float x) {
        if (std::isinf(x) || std::isnan(x)) return x;
        int e;
        return std::frexp(x, &e);
    });
    vop_u32("v_frexp_exp_i32_f32", "$A", [](u32 a, u32, u32) {
        if (std::isinf(f(a)) || std::isnan(f(a))) return 0u;
        int e = 0;
        std::frexp(f(a), &e);
        return static_cast<u32>(e);
    });
    // v_swap: D gets B's copy, the copy gets D's old value (read back into DH).
    add("v_swap_b32", "v_mov_b32 v25, $B\n  v_swap_b32 $D, v25\n  v_mov_b32 $DH, v25",
        lanewise([](const LaneInput& in) { return Effect{in.b, in.old_lo, {}, {}, {}, {}}; }));
    add("v_readfirstlane_b32", "v_readfirstlane_b32 s39, $A\n  v_mov_b32 $D, s39", [](const Wave& w, int l) {
        int first = 0;
        while (first < 63 && !w.active(first)) ++first;
        return w.active(l) ? Effect{w.lane[first].a, {}, {}, {}, {}, {}} : Effect{};
    });
    add("v_cvt_f64_f32", "v_cvt_f64_f32 $D2, $A", f64_result([](const LaneInput& in) { return double(f(in.a)); }),
        Compare::f64);
    add("v_cvt_f32_f64", "v_cvt_f32_f64 $D, $A2", f32_result([](const LaneInput& in) { return float(d(in.a2)); }),
        Compare::f32);
    add("v_cvt_f64_i32", "v_cvt_f64_i32 $D2, $A", f64_result([](const LaneInput& in) { return double(i32(in.a)); }));
    add("v_cvt_f64_u32", "v_cvt_f64_u32 $D2, $A", f64_result([](const LaneInput& in) { return double(in.a); }));
    add("v_cvt_i32_f64", "v_cvt_i32_f64 $D, $A2",
        u32_result([](const LaneInput& in) { return static_cast<u32>(to_int_saturated<i32>(d(in.a2))); }));
    add("v_cvt_u32_f64", "v_cvt_u32_f64 $D, $A2",
        u32_result([](const LaneInput& in) { return to_int_saturated<u32>(d(in.a2)); }));

    // VOP2
    add("v_cndmask_b32", "v_cndmask_b32 $D, $A, $B, vcc",
        u32_result([](const LaneInput& in) { return in.carry ? in.b : in.a; }));
    vop2_f32("v_add_f32", [](float a, float b) { return a + b; });
    vop2_f32("v_sub_f32", [](float a, float b) { return a - b; });
    vop2_f32("v_subrev_f32", [](float a, float b) { return b - a; });
    vop2_f32("v_mul_f32", [](float a, float b) { return a * b; });
    // Legacy multiply: 0 times anything (inf, NaN) is +0.
    vop2_f32("v_mul_legacy_f32", [](float a, float b) { return (a == 0 || b == 0) ? 0.0f : a * b; });
    vop2_f32("v_min_f32", fmin_ieee);
    vop2_f32("v_max_f32", fmax_ieee);
    vop_u32("v_mul_i32_i24", "$A, $B",
            [](u32 a, u32 b, u32) { return static_cast<u32>(i64{sext(a, 24)} * sext(b, 24)); });
    vop_u32("v_mul_hi_i32_i24", "$A, $B",
            [](u32 a, u32 b, u32) { return static_cast<u32>((i64{sext(a, 24)} * sext(b, 24)) >> 32); });
    vop_u32("v_mul_u32_u24", "$A, $B", [](u32 a, u32 b, u32) { return (a & 0xffffff) * (b & 0xffffff); });
    vop_u32("v_mul_hi_u32_u24", "$A, $B", [](u32 a, u32 b, u32) { return hi(u64{a & 0xffffff} * (b & 0xffffff)); });
    vop_u32("v_min_i32", "$A, $B", [](u32 a, u32 b, u32) { return u32(std::min(i32(a), i32(b))); });
    vop_u32("v_max_i32", "$A, $B", [](u32 a, u32 b, u32) { return u32(std::max(i32(a), i32(b))); });
    vop_u32("v_min_u32", "$A, $B", [](u32 a, u32 b, u32) { return std::min(a, b); });
    vop_u32("v_max_u32", "$A, $B", [](u32 a, u32 b, u32) { return std::max(a, b); });
    vop_u32("v_lshrrev_b32", "$A, $B", [](u32 a, u32 b, u32) { return b >> (a & 31); });
    vop_u32("v_ashrrev_i32", "$A, $B", [](u32 a, u32 b, u32) { return u32(i32(b) >> (a & 31)); });
    vop_u32("v_lshlrev_b32", "$A, $B", [](u32 a, u32 b, u32) { return b << (a & 31); });
    vop_u32("v_and_b32", "$A, $B", [](u32 a, u32 b, u32) { return a & b; });
    vop_u32("v_or_b32", "$A, $B", [](u32 a, u32 b, u32) { return a | b; });
    vop_u32("v_xor_b32", "$A, $B", [](u32 a, u32 b, u32) { return a ^ b; });
    vop_u32("v_xnor_b32", "$A, $B", [](u32 a, u32 b, u32) { return ~(a ^ b); });
    vop_u32("v_add_u32", "$A, $B", [](u32 a, u32 b, u32) { return a + b; });
    vop_u32("v_sub_u32", "$A, $B", [](u32 a, u32 b, u32) { return a - b; });
    vop_u32("v_subrev_u32", "$A, $B", [](u32 a, u32 b, u32) { return b - a; });
    vop_u32("v_add_i32", "$A, $B", [](u32 a, u32 b, u32) { return a + b; });
    vop_u32("v_sub_i32", "$A, $B", [](u32 a, u32 b, u32) { return a - b; });
    vop2_f32("v_ldexp_f32", [](float a, float b) { return std::ldexp(a, i32(bits(b))); });
    // Multiply-adds: v_mad/v_mac flush denormals, v_fma/v_fmac keep them.
    auto mad = [](float a, float b, float c) {
        const float product = f(flush32(bits(f(flush32(bits(a))) * f(flush32(bits(b))))));
        return f(flush32(bits(product + f(flush32(bits(c))))));
    };
    auto fma = [](float a, float b, float c) { return std::fma(a, b, c); };
    const float k = 0x1.921fb6p+1f;  // the literal of madmk/madak/fmamk/fmaak
    const std::string k_text = "0x40490fdb";
    auto multiply_add = [&](const char* name, const std::string& text, float (*fn)(float, float, float),
                            int order /* 0: a*b+c, 1: a*k+b, 2: a*b+k */) {
        add(name, text, f32_result([fn, order, k](const LaneInput& in) {
                return order == 0   ? fn(f(in.a), f(in.b), f(in.c))
                       : order == 1 ? fn(f(in.a), k, f(in.b))
                                    : fn(f(in.a), f(in.b), k);
            }),
            Compare::f32);
    };
    multiply_add("v_mac_f32", "v_mov_b32 $D, $C\n  v_mac_f32 $D, $A, $B", mad, 0);
    multiply_add("v_fmac_f32", "v_mov_b32 $D, $C\n  v_fmac_f32 $D, $A, $B", fma, 0);
    multiply_add("v_madmk_f32", "v_madmk_f32 $D, $A, " + k_text + ", $B", mad, 1);
    multiply_add("v_madak_f32", "v_madak_f32 $D, $A, $B, " + k_text, mad, 2);
    multiply_add("v_fmamk_f32", "v_fmamk_f32 $D, $A, " + k_text + ", $B", fma, 1);
    multiply_add("v_fmaak_f32", "v_fmaak_f32 $D, $A, $B, " + k_text, fma, 2);
    multiply_add("v_mad_f32", "v_mad_f32 $D, $A, $B, $C", mad, 0);
    multiply_add("v_fma_f32", "v_fma_f32 $D, $A, $B, $C", fma, 0);
    multiply_add(
        "v_mad_legacy_f32", "v_mad_legacy_f32 $D, $A, $B, $C",
        [](float a, float b, float c) {
            const float fa = f(flush32(bits(a))), fb = f(flush32(bits(b)));
            const float product = (fa == 0 || fb == 0) ? 0.0f : fa * fb;
            return f(flush32(bits(product + f(flush32(bits(c))))));
        },
        0);
    // Carry ops: the carry out goes to s[30:31]; the carry in is VCC.
    auto carry_op = [&](const char* name, bool carry_in, u64 (*fn)(u32, u32, u32)) {
        const std::string text = std::string(name) + "_e64 $D, $S, $A, $B" + (carry_in ? ", vcc" : "");
        add(name, text, [fn, carry_in](const Wave& w, int l) {
            if (!w.active(l)) return Effect{{}, {}, false, {}, {}, {}};
            const LaneInput& in = w.lane[l];
            const u64 r = fn(in.a, in.b, carry_in && in.carry);
            return Effect{lo(r), {}, hi(r) != 0, {}, {}, {}};
        });
    };
    carry_op("v_add_co_u32", false, [](u32 a, u32 b, u32) { return u64{a} + b; });
    carry_op("v_sub_co_u32", false, [](u32 a, u32 b, u32) { return u64((u64{a} - b) & 0x1ffffffffu); });
    carry_op("v_subrev_co_u32", false, [](u32 a, u32 b, u32) { return u64((u64{b} - a) & 0x1ffffffffu); });
    carry_op("v_addc_co_u32", true, [](u32 a, u32 b, u32 c) { return u64{a} + b + c; });
    carry_op("v_subb_co_u32", true, [](u32 a, u32 b, u32 c) { return u64((u64{a} - b - c) & 0x1ffffffffu); });
    carry_op("v_subbrev_co_u32", true, [](u32 a, u32 b, u32 c) { return u64((u64{b} - a - c) & 0x1ffffffffu); });

    // VOP3
    vop_u32("v_mad_i32_i24", "$A, $B, $C",
            [](u32 a, u32 b, u32 c) { return static_cast<u32>(i64{sext(a, 24)} * sext(b, 24)) + c; });
    vop_u32("v_mad_u32_u24", "$A, $B, $C", [](u32 a, u32 b, u32 c) { return (a & 0xffffff) * (b & 0xffffff) + c; });
    vop_u32("v_bfe_u32", "$A, $B, $C", [](u32 a, u32 b, u32 c) { return (a >> (b & 31)) & mask_bits(c & 31); });
    // Signed extract: an arithmetic shift, then sign extension from the field's top bit.
    vop_u32("v_bfe_i32", "$A, $B, $C", [](u32 a, u32 b, u32 c) {
        const unsigned width = c & 31;
        return width == 0 ? 0u : static_cast<u32>(sext(u32(i32(a) >> (b & 31)), width));
    });
    vop_u32("v_bfi_b32", "$A, $B, $C", [](u32 a, u32 b, u32 c) { return (a & b) | (~a & c); });
    vop_u32("v_alignbit_b32", "$A, $B, $C", [](u32 a, u32 b, u32 c) { return lo(((u64{a} << 32) | b) >> (c & 31)); });
    vop_u32("v_alignbyte_b32", "$A, $B, $C",
            [](u32 a, u32 b, u32 c) { return lo(((u64{a} << 32) | b) >> (8 * (c & 3))); });
    vop3_f32("v_min3_f32", [](float a, float b, float c) { return fmin_ieee(fmin_ieee(a, b), c); });
    vop3_f32("v_max3_f32", [](float a, float b, float c) { return fmax_ieee(fmax_ieee(a, b), c); });
    // med3 with a NaN operand is min3 (Vega ISA); otherwise the middle value.
    vop3_f32("v_med3_f32", [](float a, float b, float c) {
        if (std::isnan(a) || std::isnan(b) || std::isnan(c)) return fmin_ieee(fmin_ieee(a, b), c);
        return fmax_ieee(fmin_ieee(a, b), fmin_ieee(fmax_ieee(a, b), c));
    });
    vop_u32("v_min3_i32", "$A, $B, $C", [](u32 a, u32 b, u32 c) { return u32(std::min({i32(a), i32(b), i32(c)})); });
    vop_u32("v_max3_i32", "$A, $B, $C", [](u32 a, u32 b, u32 c) { return u32(std::max({i32(a), i32(b), i32(c)})); });
    vop_u32("v_med3_i32", "$A, $B, $C", [](u32 a, u32 b, u32 c) {
        i32 v[3] = {i32(a), i32(b), i32(c)};
        std::sort(v, v + 3);
        return u32(v[1]);
    });
    vop_u32("v_min3_u32", "$A, $B, $C", [](u32 a, u32 b, u32 c) { return std::min({a, b, c}); });
    vop_u32("v_max3_u32", "$A, $B, $C", [](u32 a, u32 b, u32 c) { return std::max({a, b, c}); });
    vop_u32("v_med3_u32", "$A, $B, $C", [](u32 a, u32 b, u32 c) {
        u32 v[3] = {a, b, c};
        std::sort(v, v + 3);
        return v[1];
    });
    vop_u32("v_sad_u32", "$A, $B, $C", [](u32 a, u32 b, u32 c) { return (a > b ? a - b : b - a) + c; });
    vop_u32("v_lshl_add_u32", "$A, $B, $C", [](u32 a, u32 b, u32 c) { return (a << (b & 31)) + c; });
    vop_u32("v_add_lshl_u32", "$A, $B, $C", [](u32 a, u32 b, u32 c) { return (a + b) << (c & 31); });
    vop_u32("v_add3_u32", "$A, $B, $C", [](u32 a, u32 b, u32 c) { return a + b + c; });
    vop_u32("v_lshl_or_b32", "$A, $B, $C", [](u32 a, u32 b, u32 c) { return (a << (b & 31)) | c; });
    vop_u32("v_and_or_b32", "$A, $B, $C", [](u32 a, u32 b, u32 c) { return (a & b) | c; });
    vop_u32("v_or3_b32", "$A, $B, $C", [](u32 a, u32 b, u32 c) { return a | b | c; });
    vop_u32("v_xad_u32", "$A, $B, $C", [](u32 a, u32 b, u32 c) { return (a ^ b) + c; });
    vop_u32("v_perm_b32", "$A, $B, $C", [](u32 a, u32 b, u32 c) { return perm(a, b, c); });
    vop_u32("v_mul_lo_u32", "$A, $B", [](u32 a, u32 b, u32) { return a * b; });
    vop_u32("v_mul_hi_u32", "$A, $B", [](u32 a, u32 b, u32) { return hi(u64{a} * b); });
    vop_u32("v_mul_hi_i32", "$A, $B", [](u32 a, u32 b, u32) { return hi(static_cast<u64>(i64{i32(a)} * i32(b))); });
    vop_u32("v_bcnt_u32_b32", "$A, $B", [](u32 a, u32 b, u32) { return u32(std::bitset<32>(a).count()) + b; });
    vop_u32("v_bfm_b32", "$A, $B", [](u32 a, u32 b, u32) { return mask_bits(a & 31) << (b & 31); });
    add("v_cvt_pkrtz_f16_f32", "v_cvt_pkrtz_f16_f32 $D, $A, $B",
        u32_result([](const LaneInput& in) { return to_half(in.a, true) | to_half(in.b, true) << 16; }),
        Compare::f16x2);
    // mbcnt: bits of the mask below this lane (lanes 0..31 for lo, 32..63 for hi) plus S1.
    auto mbcnt = [&](const char* name, int first_lane) {
        add(name, std::string(name) + " $D, $A, $B", [first_lane](const Wave& w, int l) {
            if (!w.active(l)) return Effect{};
            const int below = std::clamp(l - first_lane, 0, 32);
            const u32 mask = below >= 32 ? ~0u : (1u << below) - 1;
            return Effect{u32(std::bitset<32>(w.lane[l].a & mask).count()) + w.lane[l].b, {}, {}, {}, {}, {}};
        });
    };
    mbcnt("v_mbcnt_lo_u32_b32", 0);
    mbcnt("v_mbcnt_hi_u32_b32", 32);
    // readlane/writelane ignore EXEC.
    add("v_readlane_b32", "v_readlane_b32 s39, $A, 5\n  v_mov_b32 $D, s39",
        [](const Wave& w, int l) { return w.active(l) ? Effect{w.lane[5].a, {}, {}, {}, {}, {}} : Effect{}; });
    add("v_writelane_b32", "s_mov_b32 s39, 0x12345678\n  v_writelane_b32 $D, s39, 6",
        [](const Wave&, int l) { return l == 6 ? Effect{0x12345678u, {}, {}, {}, {}, {}} : Effect{}; });
    add("v_lshlrev_b64", "v_lshlrev_b64 $D2, $A, $B2",
        u64_result([](const LaneInput& in) { return in.b2 << (in.a & 63); }));
    add("v_lshrrev_b64", "v_lshrrev_b64 $D2, $A, $B2",
        u64_result([](const LaneInput& in) { return in.b2 >> (in.a & 63); }));
    add("v_ashrrev_i64", "v_ashrrev_i64 $D2, $A, $B2",
        u64_result([](const LaneInput& in) { return static_cast<u64>(static_cast<i64>(in.b2) >> (in.a & 63)); }));
    // 64-bit multiply-add: the carry out is an unsigned (signed) overflow of the 64-bit sum.
    add("v_mad_u64_u32", "v_mad_u64_u32 $D2, $S, $A, $B, $C2", [](const Wave& w, int l) {
        if (!w.active(l)) return Effect{{}, {}, false, {}, {}, {}};
        const LaneInput& in = w.lane[l];
        const unsigned __int128 r = static_cast<unsigned __int128>(u64{in.a} * in.b) + in.c2;
        return Effect{lo(u64(r)), hi(u64(r)), (r >> 64) != 0, {}, {}, {}};
    });
    add("v_mad_i64_i32", "v_mad_i64_i32 $D2, $S, $A, $B, $C2", [](const Wave& w, int l) {
        if (!w.active(l)) return Effect{{}, {}, false, {}, {}, {}};
        const LaneInput& in = w.lane[l];
        const __int128 r = static_cast<__int128>(i64{i32(in.a)} * i32(in.b)) + static_cast<i64>(in.c2);
        const bool overflow = r != static_cast<i64>(r);
        return Effect{lo(u64(r)), hi(u64(r)), overflow, {}, {}, {}};
    });
    auto vop_f64 = [&](const char* name, const char* operands, double (*fn)(double, double, double)) {
        add(name, std::string(name) + " $D2, " + operands,
            f64_result([fn](const LaneInput& in) { return fn(d(in.a2), d(in.b2), d(in.c2)); }), Compare::f64);
    };
    vop_f64("v_add_f64", "$A2, $B2", [](double a, double b, double) { return a + b; });
    vop_f64("v_mul_f64", "$A2, $B2", [](double a, double b, double) { return a * b; });
    vop_f64("v_fma_f64", "$A2, $B2, $C2", [](double a, double b, double c) { return std::fma(a, b, c); });
    vop_f64("v_min_f64", "$A2, $B2", [](double a, double b, double) { return dmin_ieee(a, b); });
    vop_f64("v_max_f64", "$A2, $B2", [](double a, double b, double) { return dmax_ieee(a, b); });

    // VOPC: the result to s[30:31] (inactive lanes 0); v_cmpx also writes EXEC.
    auto compare_op = [&](const std::string& name, const char* operands, std::function<bool(const LaneInput&)> test,
                          bool write_exec) {
        add(name, name + "_e64 $S, " + operands, [test, write_exec](const Wave& w, int l) {
            const bool result = w.active(l) && test(w.lane[l]);
            Effect e{{}, {}, result, {}, {}, {}};
            if (write_exec) e.exec = result;
            return e;
        });
    };
    for (const bool x : {false, true}) {
        const std::string prefix = x ? "v_cmpx_" : "v_cmp_";
        for (const FloatCompare& c : float_compares) {
            compare_op(
                prefix + c.suffix + "_f16", "$A, $B",
                [test = c.test](const LaneInput& in) { return test(half_value(in.a), half_value(in.b)); }, x);
            compare_op(
                prefix + c.suffix + "_f32", "$A, $B",
                [test = c.test](const LaneInput& in) { return test(f(in.a), f(in.b)); }, x);
            compare_op(
                prefix + c.suffix + "_f64", "$A2, $B2",
                [test = c.test](const LaneInput& in) { return test(d(in.a2), d(in.b2)); }, x);
        }
        compare_op(
            prefix + "class_f16", "$A, $B",
            [](const LaneInput& in) { return ((in.b >> float_class(in.a & 0xffff, 5, 10)) & 1) != 0; }, x);
        compare_op(
            prefix + "class_f32", "$A, $B",
            [](const LaneInput& in) { return ((in.b >> float_class(in.a, 8, 23)) & 1) != 0; }, x);
        compare_op(
            prefix + "class_f64", "$A2, $B",
            [](const LaneInput& in) { return ((in.b >> float_class(in.a2, 11, 52)) & 1) != 0; }, x);
        for (const IntCompare& c : int_compares) {
            const std::string stem = prefix + c.suffix;
            const int want = c.want;
            compare_op(
                stem + "_i16", "$A, $B",
                [want](const LaneInput& in) { return int_compare(want, sext(in.a, 16), sext(in.b, 16)); }, x);
            compare_op(
                stem + "_u16", "$A, $B",
                [want](const LaneInput& in) { return int_compare(want, in.a & 0xffff, in.b & 0xffff); }, x);
            compare_op(
                stem + "_i32", "$A, $B",
                [want](const LaneInput& in) { return int_compare(want, i32(in.a), i32(in.b)); }, x);
            compare_op(
                stem + "_u32", "$A, $B", [want](const LaneInput& in) { return int_compare(want, in.a, in.b); }, x);
            compare_op(
                stem + "_i64", "$A2, $B2",
                [want](const LaneInput& in) { return int_compare(want, i64(in.a2), i64(in.b2)); }, x);
            compare_op(
                stem + "_u64", "$A2, $B2", [want](const LaneInput& in) { return int_compare(want, in.a2, in.b2); }, x);
        }
    }

    // 16-bit integer ops: on the low halves (VOP2/VOP3, only the low 16 bits
    // compared) and packed (VOP3P, default op_sel, each half on its own, no clamp).
    struct Int16Op {
        const char* scalar;  // nullptr: no such op
        const char* packed;
        const char* operands;
        u32 (*fn)(u32, u32, u32);  // on zero-extended halves; the low 16 bits of the result count
    };
    const Int16Op int16_ops[] = {
        {"v_add_u16", "v_pk_add_u16", "$A, $B", [](u32 a, u32 b, u32) { return a + b; }},
        {nullptr, "v_pk_add_i16", "$A, $B", [](u32 a, u32 b, u32) { return a + b; }},
        {"v_sub_u16", "v_pk_sub_u16", "$A, $B", [](u32 a, u32 b, u32) { return a - b; }},
        {nullptr, "v_pk_sub_i16", "$A, $B", [](u32 a, u32 b, u32) { return a - b; }},
        {"v_subrev_u16", nullptr, "$A, $B", [](u32 a, u32 b, u32) { return b - a; }},
        {"v_mul_lo_u16", "v_pk_mul_lo_u16", "$A, $B", [](u32 a, u32 b, u32) { return a * b; }},
        {"v_lshlrev_b16", "v_pk_lshlrev_b16", "$A, $B", [](u32 a, u32 b, u32) { return b << (a & 15); }},
        {"v_lshrrev_b16", "v_pk_lshrrev_b16", "$A, $B", [](u32 a, u32 b, u32) { return b >> (a & 15); }},
        {"v_ashrrev_i16", "v_pk_ashrrev_i16", "$A, $B", [](u32 a, u32 b, u32) { return u32(sext(b, 16) >> (a & 15)); }},
        {"v_max_i16", "v_pk_max_i16", "$A, $B",
         [](u32 a, u32 b, u32) { return u32(std::max(sext(a, 16), sext(b, 16))); }},
        {"v_min_i16", "v_pk_min_i16", "$A, $B",
         [](u32 a, u32 b, u32) { return u32(std::min(sext(a, 16), sext(b, 16))); }},
        {"v_max_u16", "v_pk_max_u16", "$A, $B", [](u32 a, u32 b, u32) { return std::max(a, b); }},
        {"v_min_u16", "v_pk_min_u16", "$A, $B", [](u32 a, u32 b, u32) { return std::min(a, b); }},
        // Signed and unsigned (and the legacy forms) agree in the low 16 bits.
        {"v_mad_u16", "v_pk_mad_u16", "$A, $B, $C", [](u32 a, u32 b, u32 c) { return a * b + c; }},
        {"v_mad_i16", "v_pk_mad_i16", "$A, $B, $C", [](u32 a, u32 b, u32 c) { return a * b + c; }},
        {"v_mad_legacy_u16", nullptr, "$A, $B, $C", [](u32 a, u32 b, u32 c) { return a * b + c; }},
        {"v_mad_legacy_i16", nullptr, "$A, $B, $C", [](u32 a, u32 b, u32 c) { return a * b + c; }},
    };
    for (const Int16Op& op : int16_ops) {
        auto half = [fn = op.fn](const LaneInput& in, int h) {
            return fn((in.a >> 16 * h) & 0xffff, (in.b >> 16 * h) & 0xffff, (in.c >> 16 * h) & 0xffff) & 0xffff;
        };
        if (op.scalar)
            add(op.scalar, std::string(op.scalar) + " $D, " + op.operands,
                u32_result([half](const LaneInput& in) { return half(in, 0); }), Compare::low16);
        if (op.packed)
            add(op.packed, std::string(op.packed) + " $D, " + op.operands,
                u32_result([half](const LaneInput& in) { return half(in, 0) | half(in, 1) << 16; }));
    }
    vop_u32("v_mad_u32_u16", "$A, $B, $C", [](u32 a, u32 b, u32 c) { return (a & 0xffff) * (b & 0xffff) + c; });
    vop_u32("v_mad_i32_i16", "$A, $B, $C", [](u32 a, u32 b, u32 c) { return u32(sext(a, 16) * sext(b, 16)) + c; });
    // fp16 arithmetic: exact in double, then one rounding to fp16.
    auto half1 = [&](const char* name, double (*fn)(double), Compare compare = Compare::f16, double tolerance = 0) {
        add(name, std::string(name) + " $D, $A",
            u32_result([fn](const LaneInput& in) { return round_to_half(fn(half_value(in.a))); }), compare, tolerance);
    };
    auto half3 = [&](const char* name, const std::string& text, double (*fn)(double, double, double)) {
        add(name, text, u32_result([fn](const LaneInput& in) {
                return round_to_half(fn(half_value(in.a), half_value(in.b), half_value(in.c)));
            }),
            Compare::f16);
    };
    auto fma16 = [](double a, double b, double c) { return std::fma(a, b, c); };
    // mad: the product is rounded to fp16 before the add. Like v_mad_f32, the
    // fp16 mad family has no denormal support (LLVM selects it only with fp16
    // denormals flushed): inputs, product and result flush to a signed zero.
    auto mad16 = [](double a, double b, double c) {
        return half_value(flush16(round_to_half(flushed(a) * flushed(b)))) + flushed(c);
    };
    half3("v_add_f16", "v_add_f16 $D, $A, $B", [](double a, double b, double) { return a + b; });
    half3("v_sub_f16", "v_sub_f16 $D, $A, $B", [](double a, double b, double) { return a - b; });
    half3("v_subrev_f16", "v_subrev_f16 $D, $A, $B", [](double a, double b, double) { return b - a; });
    half3("v_mul_f16", "v_mul_f16 $D, $A, $B", [](double a, double b, double) { return a * b; });
    half3("v_fma_f16", "v_fma_f16 $D, $A, $B, $C", fma16);
    half3("v_fma_legacy_f16", "v_fma_legacy_f16 $D, $A, $B, $C", fma16);
    auto mad16_flushed = [&](const char* name, const std::string& text, double (*fn)(double, double, double)) {
        add(name, text, u32_result([fn](const LaneInput& in) {
                return flush16(round_to_half(fn(half_value(in.a), half_value(in.b), half_value(in.c))));
            }),
            Compare::f16);
    };
    mad16_flushed("v_mad_f16", "v_mad_f16 $D, $A, $B, $C", mad16);
    mad16_flushed("v_mad_legacy_f16", "v_mad_legacy_f16 $D, $A, $B, $C", mad16);
    mad16_flushed("v_mac_f16", "v_mov_b32 $D, $C\n  v_mac_f16 $D, $A, $B", mad16);
    // 0x4248 = 3.140625, the fp16 literal K of madak/madmk.
    mad16_flushed("v_madak_f16", "v_madak_f16 $D, $A, $B, 0x4248", [](double a, double b, double) {
        return half_value(flush16(round_to_half(flushed(a) * flushed(b)))) + 3.140625;
    });
    mad16_flushed("v_madmk_f16", "v_madmk_f16 $D, $A, 0x4248, $B", [](double a, double b, double) {
        return half_value(flush16(round_to_half(flushed(a) * 3.140625))) + flushed(b);
    });
    for (const bool want_max : {false, true})
        add(want_max ? "v_max_f16" : "v_min_f16", std::string(want_max ? "v_max_f16" : "v_min_f16") + " $D, $A, $B",
            u32_result(
                [want_max](const LaneInput& in) { return half_min_max(in.a & 0xffff, in.b & 0xffff, want_max); }),
            Compare::f16);
    half1("v_ceil_f16", [](double x) { return std::ceil(x); });
    half1("v_floor_f16", [](double x) { return std::floor(x); });
    half1("v_trunc_f16", [](double x) { return std::trunc(x); });
    half1("v_rndne_f16", [](double x) { return std::nearbyint(x); });
    half1("v_fract_f16", [](double x) {
        if (std::isinf(x)) return std::numeric_limits<double>::quiet_NaN();
        return std::min(x - std::floor(x), 0x1.ffcp-1);  // largest fp16 below 1
    });
    half1("v_frexp_mant_f16", [](double x) {
        int e;
        return std::isinf(x) || std::isnan(x) ? x : std::frexp(x, &e);
    });
    add("v_frexp_exp_i16_f16", "v_frexp_exp_i16_f16 $D, $A", u32_result([](const LaneInput& in) {
            int e = 0;
            const double x = half_value(in.a);
            if (!std::isinf(x) && !std::isnan(x)) std::frexp(x, &e);
            return u32(e) & 0xffff;
        }),
        Compare::low16);
    add("v_cvt_f16_i16", "v_cvt_f16_i16 $D, $A",
        u32_result([](const LaneInput& in) { return round_to_half(sext(in.a, 16)); }), Compare::f16);
    add("v_cvt_f16_u16", "v_cvt_f16_u16 $D, $A",
        u32_result([](const LaneInput& in) { return round_to_half(in.a & 0xffff); }), Compare::f16);
    add("v_cvt_i16_f16", "v_cvt_i16_f16 $D, $A",
        u32_result([](const LaneInput& in) { return u32(to_int_saturated<std::int16_t>(half_value(in.a))) & 0xffff; }),
        Compare::low16);
    add("v_cvt_u16_f16", "v_cvt_u16_f16 $D, $A",
        u32_result([](const LaneInput& in) { return u32(to_int_saturated<std::uint16_t>(half_value(in.a))); }),
        Compare::low16);
    add("v_ldexp_f16", "v_ldexp_f16 $D, $A, $B",
        u32_result([](const LaneInput& in) { return round_to_half(std::ldexp(half_value(in.a), sext(in.b, 16))); }),
        Compare::f16);
    add("v_pack_b32_f16", "v_pack_b32_f16 $D, $A, $B",
        u32_result([](const LaneInput& in) { return (in.a & 0xffff) | in.b << 16; }), Compare::f16x2);
    // fp16 transcendentals (host libm, not bit-exact): within 1 half ULP.
    half1(
        "v_rcp_f16", [](double x) { return 1 / x; }, Compare::ulp16, 1);
    half1(
        "v_rsq_f16", [](double x) { return 1 / std::sqrt(x); }, Compare::ulp16, 1);
    half1(
        "v_sqrt_f16", [](double x) { return std::sqrt(x); }, Compare::ulp16, 1);
    half1(
        "v_exp_f16", [](double x) { return std::exp2(x); }, Compare::ulp16, 1);
    half1(
        "v_log_f16", [](double x) { return std::log2(x); }, Compare::ulp16, 1);
    // sin/cos in revolutions: absolute error (results near 0 have no meaningful ULP bound).
    half1(
        "v_sin_f16", [](double x) { return std::sin(2 * M_PI * (x - std::floor(x))); }, Compare::abs16, 1e-3);
    half1(
        "v_cos_f16", [](double x) { return std::cos(2 * M_PI * (x - std::floor(x))); }, Compare::abs16, 1e-3);
    // Packed fp16 (VOP3P, default op_sel): each half on its own.
    auto packed_half = [&](const char* name, const char* operands, u32 (*fn)(u32, u32, u32)) {
        add(name, std::string(name) + " $D, " + operands, u32_result([fn](const LaneInput& in) {
                auto half = [&](int h) {
                    return fn((in.a >> 16 * h) & 0xffff, (in.b >> 16 * h) & 0xffff, (in.c >> 16 * h) & 0xffff);
                };
                return half(0) | half(1) << 16;
            }),
            Compare::f16x2);
    };
    packed_half("v_pk_add_f16", "$A, $B",
                [](u32 a, u32 b, u32) { return round_to_half(half_value(a) + half_value(b)); });
    packed_half("v_pk_mul_f16", "$A, $B",
                [](u32 a, u32 b, u32) { return round_to_half(half_value(a) * half_value(b)); });
    packed_half("v_pk_fma_f16", "$A, $B, $C", [](u32 a, u32 b, u32 c) {
        return round_to_half(std::fma(half_value(a), half_value(b), half_value(c)));
    });
    packed_half("v_pk_max_f16", "$A, $B", [](u32 a, u32 b, u32) { return half_min_max(a, b, true); });
    packed_half("v_pk_min_f16", "$A, $B", [](u32 a, u32 b, u32) { return half_min_max(a, b, false); });

    // v_fma_mix*: op_sel_hi:[1,1,0] takes A and B as fp16 (low halves), C as
    // fp32; one rounding of the exact a*b+c (to fp32, or to fp16 in the low
    // (mixlo) or high (mixhi) half, the other half kept).
    auto mix = [&](const char* name, std::optional<int> half_index) {
        add(name, std::string(name) + " $D, $A, $B, $C op_sel_hi:[1,1,0]",
            u32_result([half_index](const LaneInput& in) {
                const double exact = fused_to_odd(half_value(in.a), half_value(in.b), f(in.c));
                if (!half_index) return bits(float(exact));
                const u32 h = round_to_half(exact);
                return *half_index == 0 ? (in.old_lo & 0xffff0000) | h : (in.old_lo & 0xffff) | h << 16;
            }),
            half_index ? Compare::f16x2 : Compare::f32);
    };
    mix("v_fma_mix_f32", std::nullopt);
    mix("v_fma_mixlo_f16", 0);
    mix("v_fma_mixhi_f16", 1);
    // f64 transcendentals: the emulator uses host libm; the hardware's
    // approximations (refined by Newton steps in compiled code) are not modelled.
    for (const auto& [name, fn] :
         {std::pair<const char*, double (*)(double)>{"v_rcp_f64", [](double x) { return 1 / x; }},
          {"v_rsq_f64", [](double x) { return 1 / std::sqrt(x); }},
          {"v_sqrt_f64", [](double x) { return std::sqrt(x); }}})
        add(name, std::string(name) + " $D2, $A2", f64_result([fn = fn](const LaneInput& in) { return fn(d(in.a2)); }),
            Compare::ulp64, 1);
    // f64 helpers.
    add("v_ldexp_f64", "v_ldexp_f64 $D2, $A2, $B",
        f64_result([](const LaneInput& in) { return std::ldexp(d(in.a2), i32(in.b)); }), Compare::f64);
    add("v_frexp_mant_f64", "v_frexp_mant_f64 $D2, $A2", f64_result([](const LaneInput& in) {
            int e;
            return std::isinf(d(in.a2)) || std::isnan(d(in.a2)) ? d(in.a2) : std::frexp(d(in.a2), &e);
        }),
        Compare::f64);
    add("v_frexp_exp_i32_f64", "v_frexp_exp_i32_f64 $D, $A2", u32_result([](const LaneInput& in) {
            int e = 0;
            if (!std::isinf(d(in.a2)) && !std::isnan(d(in.a2))) std::frexp(d(in.a2), &e);
            return u32(e);
        }));

    // gfx90a/gfx940 only (the harness assembles each op for the first target that has it).
    add("v_mov_b64", "v_mov_b64 $D2, $A2", u64_result([](const LaneInput& in) { return in.a2; }));
    add("v_lshl_add_u64", "v_lshl_add_u64 $D2, $A2, 2, $B2",
        u64_result([](const LaneInput& in) { return (in.a2 << 2) + in.b2; }));
    // VOP3P packed fp32: each half on its own.
    auto packed = [&](const char* name, const char* operands, float (*fn)(float, float, float)) {
        add(name, std::string(name) + " $D2, " + operands, u64_result([fn](const LaneInput& in) {
                const u32 l = bits(fn(f(lo(in.a2)), f(lo(in.b2)), f(lo(in.c2))));
                const u32 h = bits(fn(f(hi(in.a2)), f(hi(in.b2)), f(hi(in.c2))));
                return (u64{h} << 32) | l;
            }),
            Compare::f32x2);
    };
    packed("v_pk_fma_f32", "$A2, $B2, $C2", [](float a, float b, float c) { return std::fma(a, b, c); });
    packed("v_pk_mul_f32", "$A2, $B2", [](float a, float b, float) { return a * b; });
    packed("v_pk_add_f32", "$A2, $B2", [](float a, float b, float) { return a + b; });
    // op_sel picks the source halves: lo from A2's high half, hi from B2's low half.
    add("v_pk_mov_b32", "v_pk_mov_b32 $D2, $A2, $B2 op_sel:[1,0]",
        u64_result([](const LaneInput& in) { return (u64{lo(in.b2)} << 32) | hi(in.a2); }));
    // AGPRs: written and read back (the accumulation registers exist on gfx908+).
    add("v_accvgpr_write_b32", "v_accvgpr_write_b32 a0, $A\n  v_accvgpr_read_b32 $D, a0",
        u32_result([](const LaneInput& in) { return in.a; }));
    add("v_accvgpr_read_b32", "v_accvgpr_write_b32 a1, $B\n  v_accvgpr_read_b32 $D, a1",
        u32_result([](const LaneInput& in) { return in.b; }));
    add("v_accvgpr_mov_b32", "v_accvgpr_write_b32 a2, $C\n  v_accvgpr_mov_b32 a3, a2\n  v_accvgpr_read_b32 $D, a3",
        u32_result([](const LaneInput& in) { return in.c; }));

    // f64 rounding (Vega ISA VOP1: V_FLOOR_F64 "D.d = trunc(S0.d); if (S0.d < 0.0 && S0.d != D.d) D.d += -1.0",
    // V_CEIL_F64 likewise upward, V_RNDNE_F64 to nearest even, V_FRACT_F64 "S0.d + -floor(S0.d)").
    auto vop1_f64 = [&](const char* name, double (*fn)(double)) {
        add(name, std::string(name) + " $D2, $A2", f64_result([fn](const LaneInput& in) { return fn(d(in.a2)); }),
            Compare::f64);
    };
    vop1_f64("v_floor_f64", [](double x) { return std::floor(x); });
    vop1_f64("v_ceil_f64", [](double x) { return std::ceil(x); });
    vop1_f64("v_trunc_f64", [](double x) { return std::trunc(x); });
    vop1_f64("v_rndne_f64", [](double x) { return std::nearbyint(x); });
    vop1_f64("v_fract_f64", [](double x) {
        if (std::isinf(x)) return std::numeric_limits<double>::quiet_NaN();
        return std::min(x - std::floor(x), 0x1.fffffffffffffp-1);
    });
    // V_FMAC_F64 (CDNA2): D.d = S0.d * S1.d + D.d, fused.
    add("v_fmac_f64", "v_mov_b32 $D, v12\n  v_mov_b32 $DH, v13\n  v_fmac_f64 $D2, $A2, $B2",
        f64_result([](const LaneInput& in) { return std::fma(d(in.a2), d(in.b2), d(in.c2)); }), Compare::f64);

    // Dot products (Vega ISA VOP3P V_DOT*: "D = S0[0] * S1[0] + ... + S2"; the
    // MI100 ISA's VOP2 V_DOT*C accumulate into D). Integer sums wrap.
    auto int_dot = [](u32 a, u32 b, u32 c, unsigned bits, bool is_signed) {
        i64 sum = is_signed ? i64(i32(c)) : i64(c);
        for (unsigned k = 0; k < 32 / bits; ++k) {
            const u32 x = (a >> (bits * k)) & mask_bits(bits), y = (b >> (bits * k)) & mask_bits(bits);
            sum += is_signed ? i64(sext(x, bits)) * sext(y, bits) : i64(x) * i64(y);
        }
        return u32(sum);
    };
    struct IntDot {
        const char* name;
        const char* accumulating;  // the VOP2 *c form (gfx908+), or nullptr
        unsigned bits;
        bool is_signed;
    };
    const IntDot int_dots[] = {
        {"v_dot2_i32_i16", "v_dot2c_i32_i16", 16, true}, {"v_dot2_u32_u16", nullptr, 16, false},
        {"v_dot4_i32_i8", "v_dot4c_i32_i8", 8, true},    {"v_dot4_u32_u8", nullptr, 8, false},
        {"v_dot8_i32_i4", "v_dot8c_i32_i4", 4, true},    {"v_dot8_u32_u4", nullptr, 4, false},
    };
    for (const IntDot& op : int_dots) {
        const auto ref =
            u32_result([op, int_dot](const LaneInput& in) { return int_dot(in.a, in.b, in.c, op.bits, op.is_signed); });
        add(op.name, std::string(op.name) + " $D, $A, $B, $C", ref);
        if (op.accumulating)
            add(op.accumulating, std::string("v_mov_b32 $D, $C\n  ") + op.accumulating + " $D, $A, $B", ref);
    }
    // f16 dot: products exact, the sum rounded once to f32 (113-bit intermediate: exact for these inputs).
    auto half_dot = [](const LaneInput& in) {
        const double p0 = half_value(in.a & 0xffff) * half_value(in.b & 0xffff);
        const double p1 = half_value(in.a >> 16) * half_value(in.b >> 16);
        return float((__float128(p0) + __float128(p1)) + __float128(f(in.c)));
    };
    add("v_dot2_f32_f16", "v_dot2_f32_f16 $D, $A, $B, $C", f32_result(half_dot), Compare::f32);
    add("v_dot2c_f32_f16", "v_mov_b32 $D, $C\n  v_dot2c_f32_f16 $D, $A, $B", f32_result(half_dot), Compare::f32);

    // 16-bit min3/max3/med3 (Vega ISA VOP3; med3 with a NaN is min3), the low half.
    add("v_min3_f16", "v_min3_f16 $D, $A, $B, $C", u32_result([](const LaneInput& in) {
            return half_min_max(half_min_max(in.a & 0xffff, in.b & 0xffff, false), in.c & 0xffff, false);
        }),
        Compare::f16);
    add("v_max3_f16", "v_max3_f16 $D, $A, $B, $C", u32_result([](const LaneInput& in) {
            return half_min_max(half_min_max(in.a & 0xffff, in.b & 0xffff, true), in.c & 0xffff, true);
        }),
        Compare::f16);
    add("v_med3_f16", "v_med3_f16 $D, $A, $B, $C", u32_result([](const LaneInput& in) {
            const u32 a = in.a & 0xffff, b = in.b & 0xffff, c = in.c & 0xffff;
            if (is_nan16(a) || is_nan16(b) || is_nan16(c)) return half_min_max(half_min_max(a, b, false), c, false);
            return half_min_max(half_min_max(a, b, false), half_min_max(half_min_max(a, b, true), c, false), true);
        }),
        Compare::f16);
    auto three16 = [&](const char* name, bool is_signed, int which /* 0 min, 1 med, 2 max */) {
        add(name, std::string(name) + " $D, $A, $B, $C", u32_result([is_signed, which](const LaneInput& in) {
                i32 v[3];
                const u32 raw[3] = {in.a & 0xffff, in.b & 0xffff, in.c & 0xffff};
                for (int i = 0; i < 3; ++i) v[i] = is_signed ? sext(raw[i], 16) : i32(raw[i]);
                std::sort(v, v + 3);
                return u32(v[which]) & 0xffff;
            }),
            Compare::low16);
    };
    three16("v_min3_i16", true, 0);
    three16("v_med3_i16", true, 1);
    three16("v_max3_i16", true, 2);
    three16("v_min3_u16", false, 0);
    three16("v_med3_u16", false, 1);
    three16("v_max3_u16", false, 2);

    // Packing conversions (Vega ISA VOP3): V_CVT_PKNORM_I16_F32 "D = {flt32_to_snorm16(S1.f),
    // flt32_to_snorm16(S0.f)}" (clamp to [-1, 1], times 32767, nearest even; NaN 0), U16: [0, 1] x 65535.
    auto snorm = [](double x) {
        return std::isnan(x) ? 0u : u32(i32(std::nearbyint(std::clamp(x, -1.0, 1.0) * 32767))) & 0xffff;
    };
    auto unorm = [](double x) { return std::isnan(x) ? 0u : u32(std::nearbyint(std::clamp(x, 0.0, 1.0) * 65535)); };
    add("v_cvt_pknorm_i16_f32", "v_cvt_pknorm_i16_f32 $D, $A, $B",
        u32_result([snorm](const LaneInput& in) { return snorm(f(in.a)) | snorm(f(in.b)) << 16; }));
    add("v_cvt_pknorm_u16_f32", "v_cvt_pknorm_u16_f32 $D, $A, $B",
        u32_result([unorm](const LaneInput& in) { return unorm(f(in.a)) | unorm(f(in.b)) << 16; }));
    add("v_cvt_pknorm_i16_f16", "v_cvt_pknorm_i16_f16 $D, $A, $B",
        u32_result([snorm](const LaneInput& in) { return snorm(half_value(in.a)) | snorm(half_value(in.b)) << 16; }));
    add("v_cvt_pknorm_u16_f16", "v_cvt_pknorm_u16_f16 $D, $A, $B",
        u32_result([unorm](const LaneInput& in) { return unorm(half_value(in.a)) | unorm(half_value(in.b)) << 16; }));
    // V_CVT_PK_U16_U32 / V_CVT_PK_I16_I32: each source saturated to 16 bits.
    add("v_cvt_pk_u16_u32", "v_cvt_pk_u16_u32 $D, $A, $B",
        u32_result([](const LaneInput& in) { return std::min(in.a, 0xffffu) | std::min(in.b, 0xffffu) << 16; }));
    add("v_cvt_pk_i16_i32", "v_cvt_pk_i16_i32 $D, $A, $B", u32_result([](const LaneInput& in) {
            auto sat = [](u32 x) { return u32(std::clamp(i32(x), -32768, 32767)) & 0xffff; };
            return sat(in.a) | sat(in.b) << 16;
        }));
    // V_CVT_PK_U8_F32: byte S1[1:0] of S2 replaced by flt32_to_uint8(S0) ([0, 255], nearest even, NaN 0);
    // V_CVT_PKACCUM_U8_F32: the same into D.
    auto pk_u8 = [](u32 a, u32 b, u32 c) {
        const double x = f(a);
        const u32 byte = std::isnan(x) ? 0u : u32(std::nearbyint(std::clamp(x, 0.0, 255.0)));
        const unsigned shift = 8 * (b & 3);
        return (byte << shift) | (c & ~(0xffu << shift));
    };
    add("v_cvt_pk_u8_f32", "v_cvt_pk_u8_f32 $D, $A, $B, $C",
        u32_result([pk_u8](const LaneInput& in) { return pk_u8(in.a, in.b, in.c); }));
    add("v_cvt_pkaccum_u8_f32", "v_mov_b32 $D, $C\n  v_cvt_pkaccum_u8_f32 $D, $A, $B",
        u32_result([pk_u8](const LaneInput& in) { return pk_u8(in.a, in.b, in.c); }));
    // Byte/nibble integer ops (Vega ISA VOP3/VOP1 pseudocode).
    vop_u32("v_sad_u8", "$A, $B, $C", [](u32 a, u32 b, u32 c) {
        for (int k = 0; k < 4; ++k) c += u32(std::abs(int((a >> (8 * k)) & 0xff) - int((b >> (8 * k)) & 0xff)));
        return c;
    });
    vop_u32("v_sad_hi_u8", "$A, $B, $C", [](u32 a, u32 b, u32 c) {
        u32 sad = 0;
        for (int k = 0; k < 4; ++k) sad += u32(std::abs(int((a >> (8 * k)) & 0xff) - int((b >> (8 * k)) & 0xff)));
        return (sad << 16) + c;
    });
    vop_u32("v_sad_u16", "$A, $B, $C", [](u32 a, u32 b, u32 c) {
        return c + u32(std::abs(int(a >> 16) - int(b >> 16))) + u32(std::abs(int(a & 0xffff) - int(b & 0xffff)));
    });
    vop_u32("v_lerp_u8", "$A, $B, $C", [](u32 a, u32 b, u32 c) {
        u32 r = 0;
        for (int k = 0; k < 4; ++k)
            r |= ((((a >> (8 * k)) & 0xff) + ((b >> (8 * k)) & 0xff) + ((c >> (8 * k)) & 1)) >> 1) << (8 * k);
        return r;
    });
    vop1_f32("v_cvt_off_f32_i4", [](float x) { return float(sext(bits(x) & 0xf, 4)) / 16; });
    vop_u32("v_sat_pk_u8_i16", "$A", [](u32 a, u32, u32) {
        auto sat = [](u32 h) { return u32(std::clamp(sext(h & 0xffff, 16), 0, 255)); };
        return sat(a) | sat(a >> 16) << 8;
    });
    add("v_clrexcp", "v_clrexcp", lanewise([](const LaneInput&) { return Effect{}; }));
    // V_MSAD_U8: V_SAD_U8 skipping the bytes where S1's byte is 0.
    vop_u32("v_msad_u8", "$A, $B, $C", [](u32 a, u32 b, u32 c) {
        for (int k = 0; k < 4; ++k)
            if ((b >> (8 * k)) & 0xff) c += u32(std::abs(int((a >> (8 * k)) & 0xff) - int((b >> (8 * k)) & 0xff)));
        return c;
    });
    // V_QSAD_PK_U16_U8 / V_MQSAD_PK_U16_U8 / V_MQSAD_U32_U8: four (masked) byte SADs of S1 against the
    // byte windows of S0 at 0, 8, 16, 24 bits, onto 16-bit (truncated) or 32-bit slices of S2.
    auto byte_sad = [](u32 a, u32 b, u32 c, bool masked) {
        for (int k = 0; k < 4; ++k) {
            const u32 x = (a >> (8 * k)) & 0xff, y = (b >> (8 * k)) & 0xff;
            if (!masked || y) c += x > y ? x - y : y - x;
        }
        return c;
    };
    for (const bool masked : {false, true})
        add(masked ? "v_mqsad_pk_u16_u8" : "v_qsad_pk_u16_u8",
            std::string(masked ? "v_mqsad_pk_u16_u8" : "v_qsad_pk_u16_u8") + " $D2, $A2, $B, $C2",
            u64_result([masked, byte_sad](const LaneInput& in) {
                u64 r = 0;
                for (int k = 0; k < 4; ++k)
                    r |= u64(byte_sad(u32(in.a2 >> (8 * k)), in.b, u32(in.c2 >> (16 * k)) & 0xffff, masked) & 0xffff)
                         << (16 * k);
                return r;
            }));
    // 128-bit S2 = {c, a, b, lo(c2)} built in v[28:31]; the result's dwords 0-1, then 2-3.
    for (const int half : {0, 1}) {
        const std::string text =
            "v_mov_b32 v28, $C\n  v_mov_b32 v29, $A\n  v_mov_b32 v30, $B\n  v_mov_b32 v31, v12\n"
            "  v_mqsad_u32_u8 v[40:43], $A2, $B, v[28:31]\n  v_mov_b32 $D, v" +
            std::to_string(40 + 2 * half) + "\n  v_mov_b32 $DH, v" + std::to_string(41 + 2 * half);
        add("v_mqsad_u32_u8", text, u64_result([half, byte_sad](const LaneInput& in) {
                const u32 s2[4] = {in.c, in.a, in.b, lo(in.c2)};
                u32 r[4];
                for (int k = 0; k < 4; ++k) r[k] = byte_sad(u32(in.a2 >> (8 * k)), in.b, s2[k], true);
                return u64(r[2 * half]) | u64(r[2 * half + 1]) << 32;
            }));
    }
    // V_CUBE*_F32 (Vega ISA): face id, s and t coordinates, twice the major axis of (x, y, z) = (A, B, C);
    // z major when |z| >= |x|, |y|, else y when |y| >= |x|, else x.
    static int (*const major_axis)(float, float, float) = [](float x, float y, float z) {
        if (std::fabs(z) >= std::fabs(x) && std::fabs(z) >= std::fabs(y)) return 2;
        return std::fabs(y) >= std::fabs(x) ? 1 : 0;
    };
    vop3_f32("v_cubeid_f32", [](float x, float y, float z) {
        const int m = major_axis(x, y, z);
        return float(2 * m + ((m == 2 ? z : m == 1 ? y : x) < 0 ? 1 : 0));
    });
    vop3_f32("v_cubesc_f32", [](float x, float y, float z) {
        const int m = major_axis(x, y, z);
        return m == 2 ? (z < 0 ? -x : x) : m == 1 ? x : (x < 0 ? z : -z);
    });
    vop3_f32("v_cubetc_f32", [](float x, float y, float z) {
        const int m = major_axis(x, y, z);
        return m == 1 ? (y < 0 ? -z : z) : -y;
    });
    vop3_f32("v_cubema_f32", [](float x, float y, float z) {
        const int m = major_axis(x, y, z);
        return 2.0f * (m == 2 ? z : m == 1 ? y : x);
    });
    // V_ADD_I16/V_SUB_I16 without clamp: the 16-bit wrapped sum.
    add("v_add_i16", "v_add_i16 $D, $A, $B", u32_result([](const LaneInput& in) { return (in.a + in.b) & 0xffff; }),
        Compare::low16);
    add("v_sub_i16", "v_sub_i16 $D, $A, $B", u32_result([](const LaneInput& in) { return (in.a - in.b) & 0xffff; }),
        Compare::low16);
    // V_CVT_NORM_I16/U16_F16: flt16_to_snorm16 / unorm16 (clamp, scale, nearest even; NaN 0).
    add("v_cvt_norm_i16_f16", "v_cvt_norm_i16_f16 $D, $A", u32_result([](const LaneInput& in) {
            const double x = half_value(in.a);
            return std::isnan(x) ? 0u : u32(i32(std::nearbyint(std::clamp(x, -1.0, 1.0) * 32767))) & 0xffff;
        }),
        Compare::low16);
    add("v_cvt_norm_u16_f16", "v_cvt_norm_u16_f16 $D, $A", u32_result([](const LaneInput& in) {
            const double x = half_value(in.a);
            return std::isnan(x) ? 0u : u32(std::nearbyint(std::clamp(x, 0.0, 1.0) * 65535));
        }),
        Compare::low16);
    // V_TRIG_PREOP_F64 (CDNA3 ISA pseudocode): fraction bits shift+1..shift+53 of 2/pi (of its first 1201),
    // shift = S1[4:0] * 53 (+ exponent(S0) - 1077 above 1077), scaled by 2^(-53 - shift) (+128 from exponent 1968).
    // 2/pi in 24-bit chunks, as fdlibm's __kernel_rem_pio2 tabulates it.
    static const u32 two_over_pi_24[] = {
        0xa2f983, 0x6e4e44, 0x1529fc, 0x2757d1, 0xf534dd, 0xc0db62, 0x95993c, 0x439041, 0xfe5163, 0xabdebb, 0xc561b7,
        0x246e3a, 0x424dd2, 0xe00649, 0x2eea09, 0xd1921c, 0xfe1deb, 0x1cb129, 0xa73ee8, 0x8235f5, 0x2ebb44, 0x84e99c,
        0x7026b4, 0x5f7e41, 0x3991d6, 0x398353, 0x39f49c, 0x845f8b, 0xbdf928, 0x3b1ff8, 0x97ffde, 0x05980f, 0xef2f11,
        0x8b5a0a, 0x6d1f6d, 0x367ecf, 0x27cb09, 0xb74f46, 0x3f669e, 0x5fea2d, 0x7527ba, 0xc7ebe5, 0xf17b3d, 0x0739f7,
        0x8a5292, 0xea6bfb, 0x5fb11f, 0x8d5d08, 0x560330, 0x46fc7b, 0x6babf0};
    add("v_trig_preop_f64", "v_trig_preop_f64 $D2, $A2, $B", u64_result([](const LaneInput& in) {
            const int exponent = int((in.a2 >> 52) & 0x7ff);
            unsigned shift = (in.b & 31) * 53;
            if (exponent > 1077) shift += unsigned(exponent - 1077);
            u64 segment = 0;
            for (unsigned bit = shift; bit < shift + 53; ++bit)  // bit 0: the first after the point
                segment = segment << 1 | (bit < 1201 ? (two_over_pi_24[bit / 24] >> (23 - bit % 24)) & 1 : 0);
            return bits64(std::ldexp(double(segment), -53 - int(shift) + (exponent >= 1968 ? 128 : 0)));
        }));

    // V_DIV_FIXUP_F16 (Vega ISA pseudocode; S0 quotient, S1 denominator, S2 numerator).
    auto div_fixup16 = [](const LaneInput& in) -> u32 {
        const u32 q = in.a & 0xffff, den = in.b & 0xffff, num = in.c & 0xffff;
        const u32 sign = (den ^ num) & 0x8000;
        const bool den_inf = (den & 0x7fff) == 0x7c00, num_inf = (num & 0x7fff) == 0x7c00;
        const bool den_zero = (den & 0x7fff) == 0, num_zero = (num & 0x7fff) == 0;
        if (is_nan16(num)) return num | 0x200;
        if (is_nan16(den)) return den | 0x200;
        if ((den_zero && num_zero) || (den_inf && num_inf)) return 0x7e00;
        if (den_zero || num_inf) return sign | 0x7c00;
        if (den_inf || num_zero) return sign;
        return sign | (q & 0x7fff);
    };
    add("v_div_fixup_f16", "v_div_fixup_f16 $D, $A, $B, $C", u32_result(div_fixup16), Compare::f16);
    add("v_div_fixup_legacy_f16", "v_div_fixup_legacy_f16 $D, $A, $B, $C", u32_result(div_fixup16), Compare::f16);
    // V_PK_FMAC_F16 (MI100 ISA): each half fused into D's half.
    add("v_pk_fmac_f16", "v_mov_b32 $D, $C\n  v_pk_fmac_f16 $D, $A, $B", u32_result([](const LaneInput& in) {
            auto half = [&](int h) {
                return round_to_half(
                    std::fma(half_value(in.a >> 16 * h), half_value(in.b >> 16 * h), half_value(in.c >> 16 * h)));
            };
            return half(0) | half(1) << 16;
        }),
        Compare::f16x2);
    // v_mad_mix* (gfx900): A, B fp16 (op_sel_hi), C fp32; the product and the sum each rounded to
    // fp32 with denormals flushed (LLVM's fmad), then to fp16 for mixlo/mixhi.
    auto mad_mix = [&](const char* name, std::optional<int> half_index) {
        add(name, std::string(name) + " $D, $A, $B, $C op_sel_hi:[1,1,0]",
            u32_result([half_index](const LaneInput& in) {
                const float product = f(flush32(bits(float(half_value(in.a)) * float(half_value(in.b)))));
                const u32 sum = flush32(bits(product + f(flush32(in.c))));
                if (!half_index) return sum;
                const u32 h = flush16(to_half(sum, false));
                return *half_index == 0 ? (in.old_lo & 0xffff0000) | h : (in.old_lo & 0xffff) | h << 16;
            }),
            half_index ? Compare::f16x2 : Compare::f32);
    };
    mad_mix("v_mad_mix_f32", std::nullopt);
    mad_mix("v_mad_mixlo_f16", 0);
    mad_mix("v_mad_mixhi_f16", 1);
    declare_float_operands(cases);
    return cases;
}

// ---------------------------------------------------------------------------
// The SALU table. Every op sees SCC = LaneInput::carry and D = old value
// before it; Effect::sdst is SCC after it.

std::vector<OpCase> salu_cases() {
    std::vector<OpCase> cases;
    auto add = [&](std::string mnemonic, std::string text, std::function<Effect(const LaneInput&)> fn) {
        cases.push_back({std::move(mnemonic),
                         std::move(text),
                         [fn](const Wave& w, int) { return fn(w.lane[0]); },
                         Compare::bits,
                         0,
                         {}});
    };
    // SCC rules shared by many ops.
    auto result32 = [](u32 r, std::optional<bool> scc) { return Effect{r, {}, scc, {}, {}, {}}; };
    auto result64 = [](u64 r, std::optional<bool> scc) { return Effect{lo(r), hi(r), scc, {}, {}, {}}; };
    enum class Scc { keep, nonzero };
    auto op32 = [&](const char* name, const char* operands, Scc scc, u32 (*fn)(u32, u32, bool)) {
        add(name, std::string(name) + " $D, " + operands, [=](const LaneInput& in) {
            const u32 r = fn(in.a, in.b, in.carry);
            return result32(r, scc == Scc::nonzero ? std::optional<bool>(r != 0) : std::nullopt);
        });
    };
    auto op64 = [&](const char* name, const char* operands, Scc scc, u64 (*fn)(u64, u64, u32, bool)) {
        add(name, std::string(name) + " $D2, " + operands, [=](const LaneInput& in) {
            const u64 r = fn(in.a2, in.b2, in.b, in.carry);
            return result64(r, scc == Scc::nonzero ? std::optional<bool>(r != 0) : std::nullopt);
        });
    };
    // Ops whose SCC is their own rule: fn returns {D, SCC}.
    auto op32_scc = [&](const char* name, std::pair<u32, bool> (*fn)(u32, u32, bool)) {
        add(name, std::string(name) + " $D, $A, $B", [=](const LaneInput& in) {
            const auto [r, scc] = fn(in.a, in.b, in.carry);
            return result32(r, scc);
        });
    };

    // SOP2
    op32_scc("s_add_u32", [](u32 a, u32 b, bool) { return std::pair{a + b, u64{a} + b > 0xffffffffu}; });
    op32_scc("s_sub_u32", [](u32 a, u32 b, bool) { return std::pair{a - b, b > a}; });
    op32_scc("s_add_i32", [](u32 a, u32 b, bool) {
        const i64 r = i64{i32(a)} + i32(b);
        return std::pair{u32(r), r != i32(r)};
    });
    op32_scc("s_sub_i32", [](u32 a, u32 b, bool) {
        const i64 r = i64{i32(a)} - i32(b);
        return std::pair{u32(r), r != i32(r)};
    });
    op32_scc("s_addc_u32", [](u32 a, u32 b, bool c) {
        const u64 r = u64{a} + b + c;
        return std::pair{lo(r), hi(r) != 0};
    });
    op32_scc("s_subb_u32", [](u32 a, u32 b, bool c) { return std::pair{a - b - c, u64{b} + c > a}; });
    op32_scc("s_min_i32", [](u32 a, u32 b, bool) { return std::pair{i32(a) < i32(b) ? a : b, i32(a) < i32(b)}; });
    op32_scc("s_max_i32", [](u32 a, u32 b, bool) { return std::pair{i32(a) > i32(b) ? a : b, i32(a) > i32(b)}; });
    op32_scc("s_min_u32", [](u32 a, u32 b, bool) { return std::pair{a < b ? a : b, a < b}; });
    op32_scc("s_max_u32", [](u32 a, u32 b, bool) { return std::pair{a > b ? a : b, a > b}; });
    op32("s_cselect_b32", "$A, $B", Scc::keep, [](u32 a, u32 b, bool c) { return c ? a : b; });
    op64("s_cselect_b64", "$A2, $B2", Scc::keep, [](u64 a, u64 b, u32, bool c) { return c ? a : b; });
    struct Bitwise {
        const char* stem;
        u64 (*fn)(u64, u64);
    };
    const Bitwise bitwise[] = {
        {"and", [](u64 a, u64 b) { return a & b; }},    {"or", [](u64 a, u64 b) { return a | b; }},
        {"xor", [](u64 a, u64 b) { return a ^ b; }},    {"andn2", [](u64 a, u64 b) { return a & ~b; }},
        {"orn2", [](u64 a, u64 b) { return a | ~b; }},  {"nand", [](u64 a, u64 b) { return ~(a & b); }},
        {"nor", [](u64 a, u64 b) { return ~(a | b); }}, {"xnor", [](u64 a, u64 b) { return ~(a ^ b); }},
    };
    for (const Bitwise& op : bitwise) {
        const std::string stem = std::string("s_") + op.stem;
        add(stem + "_b32", stem + "_b32 $D, $A, $B", [fn = op.fn](const LaneInput& in) {
            const u32 r = lo(fn(in.a, in.b));
            return Effect{r, {}, r != 0, {}, {}, {}};
        });
        add(stem + "_b64", stem + "_b64 $D2, $A2, $B2", [fn = op.fn](const LaneInput& in) {
            const u64 r = fn(in.a2, in.b2);
            return Effect{lo(r), hi(r), r != 0, {}, {}, {}};
        });
    }
    op32("s_lshl_b32", "$A, $B", Scc::nonzero, [](u32 a, u32 b, bool) { return a << (b & 31); });
    op32("s_lshr_b32", "$A, $B", Scc::nonzero, [](u32 a, u32 b, bool) { return a >> (b & 31); });
    op32("s_ashr_i32", "$A, $B", Scc::nonzero, [](u32 a, u32 b, bool) { return u32(i32(a) >> (b & 31)); });
    op64("s_lshl_b64", "$A2, $B", Scc::nonzero, [](u64 a, u64, u32 b, bool) { return a << (b & 63); });
    op64("s_lshr_b64", "$A2, $B", Scc::nonzero, [](u64 a, u64, u32 b, bool) { return a >> (b & 63); });
    op64("s_ashr_i64", "$A2, $B", Scc::nonzero, [](u64 a, u64, u32 b, bool) { return u64(i64(a) >> (b & 63)); });
    op32("s_bfm_b32", "$A, $B", Scc::keep, [](u32 a, u32 b, bool) { return mask_bits(a & 31) << (b & 31); });
    add("s_bfm_b64", "s_bfm_b64 $D2, $A, $B",
        [=](const LaneInput& in) { return result64(mask_bits64(in.a & 63) << (in.b & 63), std::nullopt); });
    op32("s_mul_i32", "$A, $B", Scc::keep, [](u32 a, u32 b, bool) { return a * b; });
    op32("s_mul_hi_u32", "$A, $B", Scc::keep, [](u32 a, u32 b, bool) { return hi(u64{a} * b); });
    op32("s_mul_hi_i32", "$A, $B", Scc::keep, [](u32 a, u32 b, bool) { return hi(u64(i64{i32(a)} * i32(b))); });
    // Bit field extract: S1 = {width[22:16], offset[4:0] (5:0 for b64)}.
    op32("s_bfe_u32", "$A, $B", Scc::nonzero,
         [](u32 a, u32 b, bool) { return (a >> (b & 31)) & mask_bits((b >> 16) & 0x7f); });
    op32("s_bfe_i32", "$A, $B", Scc::nonzero, [](u32 a, u32 b, bool) {
        const unsigned width = (b >> 16) & 0x7f;
        const u32 field = u32(i32(a) >> (b & 31));
        return width == 0 ? 0u : width >= 32 ? field : u32(sext(field, width));
    });
    op64("s_bfe_u64", "$A2, $B", Scc::nonzero,
         [](u64 a, u64, u32 b, bool) { return (a >> (b & 63)) & mask_bits64((b >> 16) & 0x7f); });
    op64("s_bfe_i64", "$A2, $B", Scc::nonzero, [](u64 a, u64, u32 b, bool) {
        const unsigned width = (b >> 16) & 0x7f;
        const u64 field = u64(i64(a) >> (b & 63));
        if (width == 0 || width >= 64) return width == 0 ? u64{0} : field;
        return u64(i64(field << (64 - width)) >> (64 - width));
    });
    op32("s_absdiff_i32", "$A, $B", Scc::nonzero, [](u32 a, u32 b, bool) {
        const u32 diff = a - b;
        return i32(diff) < 0 ? 0u - diff : diff;
    });
    for (const unsigned shift : {1u, 2u, 3u, 4u}) {
        const std::string name = "s_lshl" + std::to_string(shift) + "_add_u32";
        add(name, name + " $D, $A, $B", [=](const LaneInput& in) {
            const u64 r = (u64{in.a} << shift) + in.b;
            return result32(lo(r), hi(r) != 0);
        });
    }
    op32("s_pack_ll_b32_b16", "$A, $B", Scc::keep, [](u32 a, u32 b, bool) { return (a & 0xffff) | b << 16; });
    op32("s_pack_lh_b32_b16", "$A, $B", Scc::keep, [](u32 a, u32 b, bool) { return (a & 0xffff) | (b & 0xffff0000); });
    op32("s_pack_hh_b32_b16", "$A, $B", Scc::keep, [](u32 a, u32 b, bool) { return a >> 16 | (b & 0xffff0000); });

    // SOP1 (D keeps its old value where an op reads it: cmov, bitset).
    op32("s_mov_b32", "$A", Scc::keep, [](u32 a, u32, bool) { return a; });
    op64("s_mov_b64", "$A2", Scc::keep, [](u64 a, u64, u32, bool) { return a; });
    add("s_cmov_b32", "s_cmov_b32 $D, $A",
        [=](const LaneInput& in) { return in.carry ? result32(in.a, std::nullopt) : Effect{}; });
    add("s_cmov_b64", "s_cmov_b64 $D2, $A2",
        [=](const LaneInput& in) { return in.carry ? result64(in.a2, std::nullopt) : Effect{}; });
    op32("s_not_b32", "$A", Scc::nonzero, [](u32 a, u32, bool) { return ~a; });
    op64("s_not_b64", "$A2", Scc::nonzero, [](u64 a, u64, u32, bool) { return ~a; });
    // Helpers on 64 bits; the b32 forms use the low word.
    auto wqm = [](u64 a) {
        u64 r = 0;
        for (int q = 0; q < 64; q += 4)
            if ((a >> q) & 0xf) r |= u64{0xf} << q;
        return r;
    };
    auto quadmask = [](u64 a) {
        u64 r = 0;
        for (int q = 0; q < 16; ++q)
            if ((a >> (4 * q)) & 0xf) r |= u64{1} << q;
        return r;
    };
    auto brev = [](u64 a, int width) {
        u64 r = 0;
        for (int i = 0; i < width; ++i) r |= ((a >> i) & 1) << (width - 1 - i);
        return r;
    };
    struct Unary {
        const char* name32;
        const char* name64;
        Scc scc;
        std::function<u64(u64, int width)> fn;
    };
    const Unary unary[] = {
        {"s_wqm_b32", "s_wqm_b64", Scc::nonzero, [=](u64 a, int w) { return wqm(a) & mask_bits64(w); }},
        {"s_brev_b32", "s_brev_b64", Scc::keep, brev},
        {"s_bcnt0_i32_b32", "s_bcnt0_i32_b64", Scc::nonzero,
         [](u64 a, int w) { return u64(w - std::bitset<64>(a & mask_bits64(w)).count()); }},
        {"s_bcnt1_i32_b32", "s_bcnt1_i32_b64", Scc::nonzero,
         [](u64 a, int w) { return u64(std::bitset<64>(a & mask_bits64(w)).count()); }},
        {"s_ff0_i32_b32", "s_ff0_i32_b64", Scc::keep, [](u64 a, int w) { return u64(u32(trailing(a, w, false))); }},
        {"s_ff1_i32_b32", "s_ff1_i32_b64", Scc::keep, [](u64 a, int w) { return u64(u32(trailing(a, w, true))); }},
        {"s_flbit_i32_b32", "s_flbit_i32_b64", Scc::keep,
         [](u64 a, int w) { return u64(u32(leading_zeros(a & mask_bits64(w), w))); }},
        {"s_flbit_i32", "s_flbit_i32_i64", Scc::keep,
         [](u64 a, int w) { return u64(u32(leading_sign_bits(a & mask_bits64(w), w))); }},
        {"s_quadmask_b32", "s_quadmask_b64", Scc::nonzero,
         [=](u64 a, int w) { return quadmask(a & mask_bits64(w)) & mask_bits64(w / 4); }},
    };
    for (const Unary& op : unary) {
        for (const int width : {32, 64}) {
            const std::string name = width == 32 ? op.name32 : op.name64;
            // Counting ops have a 32-bit destination even for a 64-bit source.
            const bool wide_dst = name.find("_i32_") == std::string::npos && name != "s_flbit_i32";
            add(name, name + (wide_dst && width == 64 ? " $D2, " : " $D, ") + (width == 64 ? "$A2" : "$A"),
                [fn = op.fn, scc = op.scc, width, wide_dst](const LaneInput& in) {
                    const u64 r = fn(width == 64 ? in.a2 : in.a, width);
                    Effect e{lo(r), {}, {}, {}, {}, {}};
                    if (wide_dst && width == 64) e.hi = hi(r);
                    if (scc == Scc::nonzero) e.sdst = r != 0;
                    return e;
                });
        }
    }
    op32("s_sext_i32_i8", "$A", Scc::keep, [](u32 a, u32, bool) { return u32(sext(a, 8)); });
    op32("s_sext_i32_i16", "$A", Scc::keep, [](u32 a, u32, bool) { return u32(sext(a, 16)); });
    for (const bool value : {false, true}) {
        const std::string stem = value ? "s_bitset1" : "s_bitset0";
        add(stem + "_b32", stem + "_b32 $D, $A", [value](const LaneInput& in) {
            const u32 bit = 1u << (in.a & 31);
            return Effect{value ? in.old_lo | bit : in.old_lo & ~bit, {}, {}, {}, {}, {}};
        });
        add(stem + "_b64", stem + "_b64 $D2, $A", [value](const LaneInput& in) {
            const u64 old = (u64{in.old_hi} << 32) | in.old_lo, bit = u64{1} << (in.a & 63);
            const u64 r = value ? old | bit : old & ~bit;
            return Effect{lo(r), hi(r), {}, {}, {}, {}};
        });
    }
    op32("s_abs_i32", "$A", Scc::nonzero, [](u32 a, u32, bool) { return i32(a) < 0 ? 0u - a : a; });
    add("s_bitreplicate_b64_b32", "s_bitreplicate_b64_b32 $D2, $A", [=](const LaneInput& in) {
        u64 r = 0;
        for (int i = 0; i < 32; ++i) r |= u64{(in.a >> i) & 1} * 3 << (2 * i);
        return result64(r, std::nullopt);
    });
    // movrels reads SGPR[S0 + M0]; movreld writes SGPR[D + M0].
    add("s_movrels_b32", "s_mov_b32 m0, 1\n  s_movrels_b32 $D, $A",
        [=](const LaneInput& in) { return result32(in.b, std::nullopt); });
    add("s_movrels_b64", "s_mov_b32 m0, 2\n  s_movrels_b64 $D2, $A2",
        [=](const LaneInput& in) { return result64(in.b2, std::nullopt); });
    add("s_movreld_b32", "s_mov_b32 m0, 1\n  s_movreld_b32 s31, $A",
        [=](const LaneInput& in) { return result32(in.a, std::nullopt); });
    add("s_movreld_b64", "s_mov_b32 m0, 2\n  s_movreld_b64 s[30:31], $A2",
        [=](const LaneInput& in) { return result64(in.a2, std::nullopt); });
    // saveexec: D = old EXEC, EXEC = f(S0, EXEC), SCC = EXEC != 0; the wrexec
    // forms write the new EXEC to D. EXEC before = B2; after: X0 (lo), X1 (hi).
    struct ExecOp {
        const char* name;
        u64 (*fn)(u64 s, u64 exec);
        bool writes_new;
    };
    const ExecOp exec_ops[] = {
        {"s_and_saveexec_b64", [](u64 s, u64 e) { return s & e; }, false},
        {"s_or_saveexec_b64", [](u64 s, u64 e) { return s | e; }, false},
        {"s_xor_saveexec_b64", [](u64 s, u64 e) { return s ^ e; }, false},
        {"s_andn2_saveexec_b64", [](u64 s, u64 e) { return s & ~e; }, false},
        {"s_orn2_saveexec_b64", [](u64 s, u64 e) { return s | ~e; }, false},
        {"s_nand_saveexec_b64", [](u64 s, u64 e) { return ~(s & e); }, false},
        {"s_nor_saveexec_b64", [](u64 s, u64 e) { return ~(s | e); }, false},
        {"s_xnor_saveexec_b64", [](u64 s, u64 e) { return ~(s ^ e); }, false},
        {"s_andn1_saveexec_b64", [](u64 s, u64 e) { return ~s & e; }, false},
        {"s_orn1_saveexec_b64", [](u64 s, u64 e) { return ~s | e; }, false},
        {"s_andn1_wrexec_b64", [](u64 s, u64 e) { return ~s & e; }, true},
        {"s_andn2_wrexec_b64", [](u64 s, u64 e) { return s & ~e; }, true},
    };
    for (const ExecOp& op : exec_ops)
        add(op.name,
            std::string("s_mov_b64 exec, $B2\n  ") + op.name +
                " $D2, $A2\n  s_mov_b32 $X0, exec_lo\n  s_mov_b32 $X1, exec_hi",
            [fn = op.fn, writes_new = op.writes_new](const LaneInput& in) {
                const u64 exec = fn(in.a2, in.b2), d = writes_new ? exec : in.b2;
                return Effect{lo(d), hi(d), exec != 0, {}, lo(exec), hi(exec)};
            });
    // getpc: two in a row are 4 bytes apart.
    add("s_getpc_b64", "s_getpc_b64 s[30:31]\n  s_getpc_b64 $D2\n  s_sub_u32 s32, s32, s30\n  s_subb_u32 s33, s33, s31",
        [=](const LaneInput&) { return result64(4, false); });

    // SOPC
    struct ScalarCompare {
        const char* name;
        bool (*test)(const LaneInput&);
    };
    const ScalarCompare compares[] = {
        {"s_cmp_eq_i32", [](const LaneInput& in) { return in.a == in.b; }},
        {"s_cmp_lg_i32", [](const LaneInput& in) { return in.a != in.b; }},
        {"s_cmp_gt_i32", [](const LaneInput& in) { return i32(in.a) > i32(in.b); }},
        {"s_cmp_ge_i32", [](const LaneInput& in) { return i32(in.a) >= i32(in.b); }},
        {"s_cmp_lt_i32", [](const LaneInput& in) { return i32(in.a) < i32(in.b); }},
        {"s_cmp_le_i32", [](const LaneInput& in) { return i32(in.a) <= i32(in.b); }},
        {"s_cmp_eq_u32", [](const LaneInput& in) { return in.a == in.b; }},
        {"s_cmp_lg_u32", [](const LaneInput& in) { return in.a != in.b; }},
        {"s_cmp_gt_u32", [](const LaneInput& in) { return in.a > in.b; }},
        {"s_cmp_ge_u32", [](const LaneInput& in) { return in.a >= in.b; }},
        {"s_cmp_lt_u32", [](const LaneInput& in) { return in.a < in.b; }},
        {"s_cmp_le_u32", [](const LaneInput& in) { return in.a <= in.b; }},
        {"s_bitcmp0_b32", [](const LaneInput& in) { return ((in.a >> (in.b & 31)) & 1) == 0; }},
        {"s_bitcmp1_b32", [](const LaneInput& in) { return ((in.a >> (in.b & 31)) & 1) != 0; }},
    };
    for (const ScalarCompare& c : compares)
        add(c.name, std::string(c.name) + " $A, $B",
            [test = c.test](const LaneInput& in) { return Effect{{}, {}, test(in), {}, {}, {}}; });
    const ScalarCompare compares64[] = {
        {"s_cmp_eq_u64", [](const LaneInput& in) { return in.a2 == in.b2; }},
        {"s_cmp_lg_u64", [](const LaneInput& in) { return in.a2 != in.b2; }},
        {"s_bitcmp0_b64", [](const LaneInput& in) { return ((in.a2 >> (in.b & 63)) & 1) == 0; }},
        {"s_bitcmp1_b64", [](const LaneInput& in) { return ((in.a2 >> (in.b & 63)) & 1) != 0; }},
    };
    for (const ScalarCompare& c : compares64)
        add(c.name,
            std::string(c.name) + (std::string(c.name).find("bitcmp") != std::string::npos ? " $A2, $B" : " $A2, $B2"),
            [test = c.test](const LaneInput& in) { return Effect{{}, {}, test(in), {}, {}, {}}; });

    // SOPK: the 16-bit immediate 0x8234 (sign-extended for i32, zero-extended for u32).
    const u32 k_signed = 0xffff8234u, k_unsigned = 0x8234u;
    add("s_movk_i32", "s_movk_i32 $D, 0x8234", [=](const LaneInput&) { return result32(k_signed, std::nullopt); });
    add("s_cmovk_i32", "s_cmovk_i32 $D, 0x8234",
        [=](const LaneInput& in) { return in.carry ? result32(k_signed, std::nullopt) : Effect{}; });
    const std::pair<const char*, int> k_compares[] = {{"eq", 2}, {"lg", 5}, {"gt", 4}, {"ge", 6}, {"lt", 1}, {"le", 3}};
    for (const auto& [suffix, want] : k_compares) {
        for (const bool is_signed : {true, false}) {
            const std::string name = std::string("s_cmpk_") + suffix + (is_signed ? "_i32" : "_u32");
            add(name, name + " $A, 0x8234", [want = want, is_signed, k_signed, k_unsigned](const LaneInput& in) {
                const bool r =
                    is_signed ? int_compare(want, i32(in.a), i32(k_signed)) : int_compare(want, in.a, k_unsigned);
                return Effect{{}, {}, r, {}, {}, {}};
            });
        }
    }
    add("s_addk_i32", "s_mov_b32 $D, $A\n  s_addk_i32 $D, 0x8234", [=](const LaneInput& in) {
        const i64 r = i64{i32(in.a)} + i32(k_signed);
        return result32(u32(r), r != i32(r));
    });
    add("s_mulk_i32", "s_mov_b32 $D, $A\n  s_mulk_i32 $D, 0x8234",
        [=](const LaneInput& in) { return result32(in.a * k_signed, std::nullopt); });
    // MODE of the test kernels: round to nearest, denormals kept (0xf0), DX10 clamp, IEEE.
    add("s_getreg_b32", "s_getreg_b32 $D, hwreg(HW_REG_MODE)",
        [=](const LaneInput&) { return result32(0x3f0, std::nullopt); });
    // setreg of a register without an effect on execution (trap status).
    add("s_setreg_b32", "s_setreg_b32 hwreg(HW_REG_TRAPSTS), $A", [](const LaneInput&) { return Effect{}; });
    add("s_setreg_imm32_b32", "s_setreg_imm32_b32 hwreg(HW_REG_TRAPSTS), 0x1234",
        [](const LaneInput&) { return Effect{}; });
    add("s_setreg_imm32_b32", "s_setreg_imm32_b32 hwreg(HW_REG_TRAPSTS), 0x1234",
        [](const LaneInput&) { return Effect{}; });
    return cases;
}

// ---------------------------------------------------------------------------
// Float operands of the VALU cases and the denorm modes.

// Every VALU case with a float operand, by its ISA definition. A case missing
// here runs with integer operands: in the flushing modes its reference then
// disagrees with an op that flushes, so an undeclared float op fails.
std::map<std::string, Kinds> float_operand_table() {
    std::map<std::string, Kinds> m;
    const K R = K::raw, F = K::f32, D = K::f64, H = K::f16;
    for (const char* name : {"v_rcp_f32", "v_rcp_iflag_f32", "v_rsq_f32", "v_sqrt_f32", "v_exp_f32", "v_log_f32",
                             "v_exp_legacy_f32", "v_log_legacy_f32", "v_sin_f32", "v_cos_f32", "v_fract_f32",
                             "v_trunc_f32", "v_ceil_f32", "v_floor_f32", "v_rndne_f32", "v_frexp_mant_f32"})
        m[name] = narrow(F, F);
    for (const char* name : {"v_add_f32", "v_sub_f32", "v_subrev_f32", "v_mul_f32", "v_mul_legacy_f32", "v_min_f32",
                             "v_max_f32", "v_madmk_f32", "v_madak_f32", "v_fmamk_f32", "v_fmaak_f32"})
        m[name] = narrow(F, F, F);
    // v_mac/v_fmac: the accumulator is $C, moved into the destination first.
    for (const char* name : {"v_mad_f32", "v_fma_f32", "v_mad_legacy_f32", "v_min3_f32", "v_max3_f32", "v_med3_f32",
                             "v_mac_f32", "v_fmac_f32"})
        m[name] = narrow(F, F, F, F);
    for (const char* name : {"v_cvt_f32_i32", "v_cvt_f32_u32", "v_cvt_f32_ubyte0", "v_cvt_f32_ubyte1",
                             "v_cvt_f32_ubyte2", "v_cvt_f32_ubyte3"})
        m[name] = narrow(F, R);  // D.f32 = (float)S0.u32: an integer source
    for (const char* name :
         {"v_cvt_i32_f32", "v_cvt_u32_f32", "v_cvt_rpi_i32_f32", "v_cvt_flr_i32_f32", "v_frexp_exp_i32_f32"})
        m[name] = narrow(R, F);          // an integer result
    m["v_ldexp_f32"] = narrow(F, F, R);  // S1.i32
    m["v_cvt_f16_f32"] = narrow(H, F);
    m["v_cvt_f32_f16"] = narrow(F, H);
    m["v_cvt_pkrtz_f16_f32"] = narrow(K::pk_f16, F, F);
    m["v_cvt_f64_f32"] = narrow(D, F);
    m["v_cvt_f64_i32"] = m["v_cvt_f64_u32"] = narrow(D, R);
    m["v_cvt_f32_f64"] = wide(F, D);
    m["v_cvt_i32_f64"] = m["v_cvt_u32_f64"] = m["v_frexp_exp_i32_f64"] = wide(R, D);
    for (const char* name : {"v_rcp_f64", "v_rsq_f64", "v_sqrt_f64", "v_frexp_mant_f64"}) m[name] = wide(D, D);
    for (const char* name : {"v_add_f64", "v_mul_f64", "v_min_f64", "v_max_f64"}) m[name] = wide(D, D, D);
    m["v_fma_f64"] = wide(D, D, D, D);
    m["v_ldexp_f64"] = wide(D, D, R, R, R);
    for (const char* name : {"v_pk_add_f32", "v_pk_mul_f32"}) m[name] = wide(K::pk_f32, K::pk_f32, K::pk_f32);
    m["v_pk_fma_f32"] = wide(K::pk_f32, K::pk_f32, K::pk_f32, K::pk_f32);
    for (const char* prefix : {"v_cmp_", "v_cmpx_"})
        for (const FloatCompare& c : float_compares) {
            m[std::string(prefix) + c.suffix + "_f16"] = narrow(R, H, H);
            m[std::string(prefix) + c.suffix + "_f32"] = narrow(R, F, F);
            m[std::string(prefix) + c.suffix + "_f64"] = wide(R, D, D);
        }
    // fp16: the low halves.
    for (const char* name :
         {"v_ceil_f16", "v_floor_f16", "v_trunc_f16", "v_rndne_f16", "v_fract_f16", "v_frexp_mant_f16", "v_rcp_f16",
          "v_rsq_f16", "v_sqrt_f16", "v_exp_f16", "v_log_f16", "v_sin_f16", "v_cos_f16"})
        m[name] = narrow(H, H);
    for (const char* name : {"v_add_f16", "v_sub_f16", "v_subrev_f16", "v_mul_f16", "v_max_f16", "v_min_f16",
                             "v_madak_f16", "v_madmk_f16"})
        m[name] = narrow(H, H, H);
    for (const char* name : {"v_fma_f16", "v_fma_legacy_f16", "v_mad_f16", "v_mad_legacy_f16", "v_mac_f16"})
        m[name] = narrow(H, H, H, H);
    m["v_ldexp_f16"] = narrow(H, H, R);  // S1.i16
    m["v_frexp_exp_i16_f16"] = m["v_cvt_i16_f16"] = m["v_cvt_u16_f16"] = narrow(R, H);
    m["v_cvt_f16_i16"] = m["v_cvt_f16_u16"] = narrow(H, R);
    m["v_pack_b32_f16"] = narrow(R, H, H);  // D[15:0] = S0.f16, D[31:16] = S1.f16
    for (const char* name : {"v_pk_add_f16", "v_pk_mul_f16", "v_pk_max_f16", "v_pk_min_f16"})
        m[name] = narrow(K::pk_f16, K::pk_f16, K::pk_f16);
    m["v_pk_fma_f16"] = narrow(K::pk_f16, K::pk_f16, K::pk_f16, K::pk_f16);
    // op_sel_hi:[1,1,0]: A and B f16, C f32.
    m["v_fma_mix_f32"] = narrow(F, H, H, F);
    m["v_fma_mixlo_f16"] = narrow(H, H, H, F);
    m["v_fma_mixhi_f16"] = narrow(K::f16_high, H, H, F);
    // v_mad_mix* (gfx900) are not listed: they ignore the modes (as v_mad_f32, LLVM's fmad: f32 always
    // flushed, f16 sources widened exactly), which their reference models in every mode.
    for (const char* name : {"v_floor_f64", "v_ceil_f64", "v_trunc_f64", "v_rndne_f64", "v_fract_f64"})
        m[name] = wide(D, D);
    m["v_fmac_f64"] = wide(D, D, D, D);
    m["v_trig_preop_f64"] = wide(D, D, R);
    for (const char* name : {"v_min3_f16", "v_max3_f16", "v_med3_f16", "v_div_fixup_f16", "v_div_fixup_legacy_f16"})
        m[name] = narrow(H, H, H, H);
    m["v_cvt_pknorm_i16_f16"] = m["v_cvt_pknorm_u16_f16"] = narrow(R, H, H);
    m["v_cvt_pknorm_i16_f32"] = m["v_cvt_pknorm_u16_f32"] = narrow(R, F, F);
    m["v_cvt_norm_i16_f16"] = m["v_cvt_norm_u16_f16"] = narrow(R, H);
    m["v_cvt_off_f32_i4"] = narrow(F, R);
    m["v_cvt_pk_u8_f32"] = narrow(R, F, R, R);
    m["v_cvt_pkaccum_u8_f32"] = narrow(R, F, R);
    for (const char* name : {"v_cubeid_f32", "v_cubema_f32", "v_cubesc_f32", "v_cubetc_f32"})
        m[name] = narrow(F, F, F, F);
    m["v_pk_fmac_f16"] = narrow(K::pk_f16, K::pk_f16, K::pk_f16, K::pk_f16);
    m["v_dot2_f32_f16"] = m["v_dot2c_f32_f16"] = narrow(F, K::pk_f16, K::pk_f16, F);
    return m;
}

void declare_float_operands(std::vector<OpCase>& cases) {
    const std::map<std::string, Kinds> table = float_operand_table();
    for (OpCase& c : cases) {
        const auto it = table.find(c.mnemonic);
        if (it != table.end()) c.kinds = it->second;
    }
}

// A denorm mode (MODE.FP_DENORM, both fields alike): 0 flush inputs and
// results, 1 results, 2 inputs, 3 neither.
struct DenormMode {
    unsigned value = 3;
    bool inputs() const { return value == 0 || value == 2; }
    bool results() const { return value == 0 || value == 1; }
};

u64 flush64(u64 x) { return (x & 0x7ff0000000000000ull) ? x : (x & 0x8000000000000000ull); }
u32 flush_kind(u32 x, K k) {
    switch (k) {
    case K::f32: return flush32(x);
    case K::f16: return (x & 0xffff0000u) | flush16(x & 0xffff);
    case K::f16_high: return (flush16(x >> 16) << 16) | (x & 0xffff);
    case K::pk_f16: return (flush16(x >> 16) << 16) | flush16(x & 0xffff);
    default: return x;
    }
}
u64 flush_kind64(u64 x, K k) {
    if (k == K::f64) return flush64(x);
    if (k == K::pk_f32) return (u64{flush32(hi(x))} << 32) | flush32(lo(x));
    return x;
}

// The wave's inputs with their float operands flushed, as a flushing mode reads them.
std::vector<LaneInput> flushed_inputs(const LaneInput* lanes, const Kinds& k) {
    std::vector<LaneInput> out(lanes, lanes + 64);
    for (LaneInput& in : out) {
        in.a = flush_kind(in.a, k.a), in.b = flush_kind(in.b, k.b), in.c = flush_kind(in.c, k.c);
        in.a2 = flush_kind64(in.a2, k.a2), in.b2 = flush_kind64(in.b2, k.b2), in.c2 = flush_kind64(in.c2, k.c2);
    }
    return out;
}
// A reference result with its float result flushed.
Effect flushed_result(Effect e, K out) {
    if (out == K::f64 || out == K::pk_f32) {
        if (e.lo && e.hi) {
            const u64 r = flush_kind64((u64{*e.hi} << 32) | *e.lo, out);
            e.lo = lo(r), e.hi = hi(r);
        }
    } else if (e.lo) {
        e.lo = flush_kind(*e.lo, out);
    }
    return e;
}

// ---------------------------------------------------------------------------
// Running a table.

bool is_alu_family(Family family) {
    switch (family) {
    case Family::SOP1:
    case Family::SOP2:
    case Family::SOPC:
    case Family::SOPK:
    case Family::VOP1:
    case Family::VOP2:
    case Family::VOPC:
    case Family::VOP3:
    case Family::VOP3P: return true;
    default: return false;
    }
}

// ALU Ops by mnemonic (a mnemonic can name more than one row).
const std::multimap<std::string, Op>& alu_ops() {
    static const std::multimap<std::string, Op> ops = [] {
        std::multimap<std::string, Op> m;
        for (std::size_t i = 1; i < op_count; ++i) {
            const Op op = static_cast<Op>(i);
            if (is_alu_family(op_info(op).family)) m.emplace(std::string(mnemonic(op)), op);
        }
        return m;
    }();
    return ops;
}

// The first test target that has the op: gfx906 for most, then the newer ones, gfx900 for its own.
constexpr Target test_targets[] = {Target::gfx906, Target::gfx908, Target::gfx90a, Target::gfx940, Target::gfx900};
Target target_of(const std::string& name) {
    const auto [first, last] = alu_ops().equal_range(name);
    for (const Target t : test_targets)
        for (auto it = first; it != last; ++it)
            if (op_info(it->second).on(t)) return t;
    throw std::runtime_error("no test target has " + name);
}

// VALU: 4 waves; lane records of 16 dwords in p0, per op 16 bytes per lane in p1.
constexpr unsigned valu_lanes = 256;
// SALU: 256 single-wave workgroups, one record each; per op 32 bytes per workgroup.
constexpr unsigned salu_groups = 256;
constexpr unsigned record_dwords = 16;

std::string slot_address(unsigned slot_bytes, std::size_t index, const char* base_lo, const char* base_hi) {
    std::ostringstream s;
    s << "  s_add_u32 s36, " << base_lo << ", " << slot_bytes * index << "\n  s_addc_u32 s37, " << base_hi << ", 0\n";
    return s.str();
}

// `before_each`: instructions run before each op's operand set-up.
std::string valu_kernel(const std::vector<const OpCase*>& cases, const std::string& before_each = "") {
    std::ostringstream s;
    s << "  v_lshlrev_b32 v26, 6, v0\n"                             // record address
      << "  global_load_dwordx4 v[2:5], v26, s[4:5]\n"              // a b c old_lo
      << "  global_load_dwordx4 v[14:17], v26, s[4:5] offset:16\n"  // old_hi carry
      << "  global_load_dwordx4 v[8:11], v26, s[4:5] offset:32\n"   // a2 b2
      << "  global_load_dwordx2 v[12:13], v26, s[4:5] offset:48\n"  // c2
      << "  v_lshlrev_b32 v24, 4, v0\n"
      << "  s_waitcnt vmcnt(0)\n"
      << "  v_cmp_ne_u32_e64 s[28:29], 0, v15\n";  // the carry-in lane mask
    for (std::size_t i = 0; i < cases.size(); ++i) {
        s << before_each
          << "  v_mov_b32 v20, v5\n  v_mov_b32 v21, v14\n  s_mov_b64 s[30:31], -1\n  s_mov_b64 vcc, s[28:29]\n"
          << "  s_mov_b64 exec, s[12:13]\n"
          << "  " << expand(cases[i]->text, valu_names) << "\n"
          << "  s_mov_b64 s[32:33], exec\n  s_mov_b64 exec, -1\n"
          << "  v_cndmask_b32_e64 v22, 0, 1, s[30:31]\n  v_cndmask_b32_e64 v23, 0, 1, s[32:33]\n"
          << slot_address(16 * valu_lanes, i, "s6", "s7") << "  global_store_dwordx4 v24, v[20:23], s[36:37]\n";
    }
    return s.str();
}

std::string salu_kernel(const std::vector<const OpCase*>& cases) {
    std::ostringstream s;
    s << "  s_lshl_b32 s36, s2, 6\n  s_add_u32 s36, s4, s36\n  s_addc_u32 s37, s5, 0\n"
      << "  s_load_dwordx16 s[16:31], s[36:37], 0x0\n"
      << "  s_lshl_b32 s36, s2, 5\n  s_add_u32 s10, s6, s36\n  s_addc_u32 s11, s7, 0\n"
      << "  v_mov_b32 v24, 0\n  s_waitcnt lgkmcnt(0)\n";
    for (std::size_t i = 0; i < cases.size(); ++i) {
        s << "  s_mov_b64 s[32:33], s[20:21]\n  s_mov_b32 s35, 0\n  s_mov_b32 s38, 0\n  s_cmp_lg_u32 s19, 0\n"
          << "  s_mov_b64 exec, s[12:13]\n"
          << "  " << expand(cases[i]->text, salu_names) << "\n"
          << "  s_mov_b64 exec, -1\n  s_cselect_b32 s34, 1, 0\n"
          << slot_address(32 * salu_groups, i, "s10", "s11")
          << "  v_mov_b32 v20, s32\n  v_mov_b32 v21, s33\n  v_mov_b32 v22, s34\n  v_mov_b32 v23, s35\n  v_mov_b32 v25, "
             "s38\n"
          << "  global_store_dwordx4 v24, v[20:23], s[36:37]\n  global_store_dword v24, v25, s[36:37] offset:16\n";
    }
    return s.str();
}

std::vector<u32> records(const std::vector<LaneInput>& inputs) {
    std::vector<u32> out(inputs.size() * record_dwords, 0);
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const LaneInput& in = inputs[i];
        const u32 record[] = {in.a,      in.b,      in.c,      in.carry,  in.old_lo, in.old_hi,
                              lo(in.a2), hi(in.a2), lo(in.b2), hi(in.b2), lo(in.c2), hi(in.c2)};
        std::copy(std::begin(record), std::end(record), out.begin() + i * record_dwords);
    }
    return out;
}
// The VALU record layout differs (loads into v[2:5], v[14:17], v[8:13]).
std::vector<u32> valu_records(const std::vector<LaneInput>& inputs) {
    std::vector<u32> out(inputs.size() * record_dwords, 0);
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const LaneInput& in = inputs[i];
        const u32 record[] = {in.a, in.b,      in.c,      in.old_lo, in.old_hi, in.carry,  0,
                              0,    lo(in.a2), hi(in.a2), lo(in.b2), hi(in.b2), lo(in.c2), hi(in.c2)};
        std::copy(std::begin(record), std::end(record), out.begin() + i * record_dwords);
    }
    return out;
}

std::string hex(u32 x) {
    std::ostringstream s;
    s << "0x" << std::hex << x;
    return s.str();
}

bool nan_matches(u64 expected, u64 actual, int width) {
    const bool e = width == 16   ? ((expected & 0x7fff) > 0x7c00)
                   : width == 32 ? is_nan32(lo(expected))
                                 : is_nan64(expected);
    if (!e) return false;
    // Results of arithmetic are quiet NaNs.
    if (width == 16) return (actual & 0x7fff) > 0x7c00 && (actual & 0x200);
    if (width == 32) return is_nan32(lo(actual)) && (actual & 0x400000);
    return is_nan64(actual) && (actual & 0x0008000000000000ull);
}

// Distance in representable fp32 values.
i64 ulp_distance(u32 a, u32 b) {
    auto ordered = [](u32 x) { return (x >> 31) ? -i64(x & 0x7fffffff) : i64(x); };
    return std::llabs(ordered(a) - ordered(b));
}

bool value_matches(const OpCase& c, const LaneInput& in, u32 e_lo, u32 e_hi, u32 a_lo, u32 a_hi) {
    const u64 expected = (u64{e_hi} << 32) | e_lo, actual = (u64{a_hi} << 32) | a_lo;
    if (expected == actual) return true;
    switch (c.compare) {
    case Compare::bits: return false;
    case Compare::f16:
        return e_hi == a_hi && ((e_lo & 0xffff) == (a_lo & 0xffff) || nan_matches(e_lo & 0xffff, a_lo & 0xffff, 16));
    case Compare::abs16:
        if (e_hi != a_hi) return false;
        if (std::fabs(half_value(in.a)) > 256 || nan_matches(e_lo & 0xffff, a_lo & 0xffff, 16)) return true;
        return std::fabs(half_value(e_lo) - half_value(a_lo)) <= c.tolerance;
    case Compare::ulp16: {
        if (e_hi != a_hi) return false;
        if (is_nan16(e_lo) || is_nan16(a_lo)) return nan_matches(e_lo & 0xffff, a_lo & 0xffff, 16);
        auto ordered = [](u32 h) { return (h & 0x8000) ? -i64(h & 0x7fff) : i64(h & 0x7fff); };
        return std::llabs(ordered(e_lo & 0xffff) - ordered(a_lo & 0xffff)) <= c.tolerance;
    }
    case Compare::ulp64: {
        if (is_nan64(expected) || is_nan64(actual)) return nan_matches(expected, actual, 64);
        auto ordered = [](u64 x) { return (x >> 63) ? -i64(x & 0x7fffffffffffffffull) : i64(x); };
        return (ordered(expected) - ordered(actual) <= i64(c.tolerance)) &&
               (ordered(actual) - ordered(expected) <= i64(c.tolerance));
    }
    case Compare::low16: return e_hi == a_hi && (e_lo & 0xffff) == (a_lo & 0xffff);
    case Compare::f32: return e_hi == a_hi && nan_matches(e_lo, a_lo, 32);
    case Compare::f32x2:
        return (e_lo == a_lo || nan_matches(e_lo, a_lo, 32)) && (e_hi == a_hi || nan_matches(e_hi, a_hi, 32));
    case Compare::f64: return nan_matches(expected, actual, 64);
    case Compare::f16x2:
        return e_hi == a_hi && ((e_lo & 0xffff) == (a_lo & 0xffff) || nan_matches(e_lo & 0xffff, a_lo & 0xffff, 16)) &&
               ((e_lo >> 16) == (a_lo >> 16) || nan_matches(e_lo >> 16, a_lo >> 16, 16));
    case Compare::ulp:
        if (e_hi != a_hi || nan_matches(e_lo, a_lo, 32)) return e_hi == a_hi;
        return !is_nan32(e_lo) && !is_nan32(a_lo) && ulp_distance(e_lo, a_lo) <= c.tolerance;
    case Compare::abs:
        if (e_hi != a_hi) return false;
        if (std::fabs(f(in.a)) > 256 || nan_matches(e_lo, a_lo, 32)) return true;  // outside the ISA's range
        return std::fabs(double(f(e_lo)) - f(a_lo)) <= c.tolerance;
    }
    return false;
}

struct Mismatch {
    std::size_t count = 0;
    std::string first;
};

// Assembles `body` for `target`, runs it on `records` (p0) with EXEC mask
// u0:u1 = `exec`, and returns the first `out_dwords` of p1.
std::vector<u32> run_kernel(const std::string& body, Target target, u64 exec, const std::vector<u32>& records,
                            std::size_t out_dwords, unsigned groups, unsigned block, DenormMode mode = {}) {
    KernelOptions options;
    options.mcpu = target_name(target);
    options.denorm_mode_32 = options.denorm_mode_16_64 = mode.value;
    options.agprs = 8;  // the v_accvgpr rows use a0..a3
    const CodeObject co = assemble_kernel(body, options);
    const Program program = build_program(co, co.kernels.at(0));
    TestRun run(std::max(records.size(), out_dwords));
    run.grid = {groups, 1, 1};
    run.block = {block, 1, 1};
    run.value = {lo(exec), hi(exec), 0, 0};
    run.threads = 2;
    run.fill(0, records);
    const DispatchResult r = run.run(program);
    INFO((r.fault ? r.fault->message : std::string()));
    REQUIRE(r.ok());
    return run.read(1, out_dwords);
}

// Runs `cases` (all of one target) as one kernel with the given EXEC and
// checks every lane of every op.
void run_valu_after(const std::string& before_each, const std::vector<const OpCase*>& cases, Target target, u64 exec,
                    DenormMode mode) {
    const std::vector<LaneInput> inputs = make_inputs(valu_lanes, 1234);
    const std::vector<u32> out = run_kernel(valu_kernel(cases, before_each), target, exec, valu_records(inputs),
                                            cases.size() * valu_lanes * 4, 1, valu_lanes, mode);
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const OpCase& c = *cases[i];
        Mismatch mismatch;
        std::vector<LaneInput> wave_inputs;  // the current wave's, flushed as the mode reads them
        for (unsigned lane = 0; lane < valu_lanes; ++lane) {
            if (lane % 64 == 0)
                wave_inputs = mode.inputs() ? flushed_inputs(&inputs[lane], c.kinds)
                                            : std::vector<LaneInput>(&inputs[lane], &inputs[lane] + 64);
            const Wave wave{wave_inputs.data(), exec};
            const int l = lane % 64;
            const LaneInput& in = inputs[lane];
            const Effect e = mode.results() ? flushed_result(c.reference(wave, l), c.kinds.out) : c.reference(wave, l);
            const u32* got = &out[(i * valu_lanes + lane) * 4];
            const u32 want_lo = e.lo.value_or(in.old_lo), want_hi = e.hi.value_or(in.old_hi);
            const bool want_sdst = e.sdst.value_or(true), want_exec = e.exec.value_or(wave.active(l));
            if (value_matches(c, in, want_lo, want_hi, got[0], got[1]) && got[2] == want_sdst && got[3] == want_exec)
                continue;
            if (mismatch.count++ == 0)
                mismatch.first = "lane " + std::to_string(lane) + " a=" + hex(in.a) + " b=" + hex(in.b) +
                                 " c=" + hex(in.c) + " a2=" + hex(hi(in.a2)) + ":" + hex(lo(in.a2)) +
                                 " b2=" + hex(hi(in.b2)) + ":" + hex(lo(in.b2)) + " c2=" + hex(hi(in.c2)) + ":" +
                                 hex(lo(in.c2)) + " carry=" + std::to_string(in.carry) + ": want " + hex(want_hi) +
                                 ":" + hex(want_lo) + " mask " + std::to_string(want_sdst) + " exec " +
                                 std::to_string(want_exec) + ", got " + hex(got[1]) + ":" + hex(got[0]) + " mask " +
                                 std::to_string(got[2]) + " exec " + std::to_string(got[3]);
        }
        INFO(c.mnemonic << " (" << target_name(target) << ", exec " << hex(hi(exec)) << hex(lo(exec))
                        << ", denorm mode " << mode.value << "): " << mismatch.count << " lanes differ, first "
                        << mismatch.first);
        CHECK(mismatch.count == 0);
    }
}

void run_valu(const std::vector<const OpCase*>& cases, Target target, u64 exec, DenormMode mode) {
    run_valu_after("", cases, target, exec, mode);
}

// The same, each op after a v_mac_f32, which flushes its inputs in every
// denorm mode: it may leave the host's denormals-are-zero mode set for the
// instructions that cannot tell (emu/exec/host_float_mode.hpp), and no op
// may read a denormal as zero for it. (gfx940+ have no v_mac_f32.)
void run_valu_after_flushing_multiply_add(const std::vector<const OpCase*>& cases, Target target, u64 exec,
                                          DenormMode mode) {
    REQUIRE(op_info(Op::v_mac_f32).on(target));
    run_valu_after("  v_mac_f32 v20, v2, v3\n", cases, target, exec, mode);
}

void run_salu(const std::vector<const OpCase*>& cases, Target target, u64 exec, DenormMode) {
    const std::vector<LaneInput> inputs = make_inputs(salu_groups, 4321);
    const std::vector<u32> out =
        run_kernel(salu_kernel(cases), target, exec, records(inputs), cases.size() * salu_groups * 8, salu_groups, 64);
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const OpCase& c = *cases[i];
        Mismatch mismatch;
        for (unsigned group = 0; group < salu_groups; ++group) {
            const LaneInput& in = inputs[group];
            const Effect e = c.reference(Wave{&in, full_exec}, 0);  // SALU ignores EXEC
            const u32* got = &out[(i * salu_groups + group) * 8];
            const u32 want[5] = {e.lo.value_or(in.old_lo), e.hi.value_or(in.old_hi), e.sdst.value_or(in.carry),
                                 e.extra0.value_or(0), e.extra1.value_or(0)};
            if (std::equal(want, want + 5, got)) continue;
            if (mismatch.count++ == 0)
                mismatch.first = "a=" + hex(in.a) + " b=" + hex(in.b) + " a2=" + hex(hi(in.a2)) + ":" + hex(lo(in.a2)) +
                                 " b2=" + hex(hi(in.b2)) + ":" + hex(lo(in.b2)) + " scc=" + std::to_string(in.carry) +
                                 " old=" + hex(in.old_hi) + ":" + hex(in.old_lo) + ": want " + hex(want[1]) + ":" +
                                 hex(want[0]) + " scc " + std::to_string(want[2]) + " x " + hex(want[3]) + "," +
                                 hex(want[4]) + ", got " + hex(got[1]) + ":" + hex(got[0]) + " scc " +
                                 std::to_string(got[2]) + " x " + hex(got[3]) + "," + hex(got[4]);
        }
        INFO(c.mnemonic << " (exec " << hex(hi(exec)) << hex(lo(exec)) << "): " << mismatch.count
                        << " workgroups differ, first " << mismatch.first);
        CHECK(mismatch.count == 0);
    }
}

using Runner = void (*)(const std::vector<const OpCase*>&, Target, u64, DenormMode);

// One kernel per target.
void run_table(const std::vector<OpCase>& table, Runner runner, u64 exec, DenormMode mode = {}) {
    std::map<Target, std::vector<const OpCase*>> by_target;
    for (const OpCase& c : table) by_target[target_of(c.mnemonic)].push_back(&c);
    for (const auto& [target, cases] : by_target) runner(cases, target, exec, mode);
}

}  // namespace

TEST_CASE("every VALU opcode matches its host reference", "[alu][opcodes]") {
    const std::vector<OpCase> table = valu_cases();
    SECTION("full EXEC") { run_table(table, run_valu, full_exec); }
    SECTION("partial EXEC: inactive lanes keep their destinations") { run_table(table, run_valu, partial_exec); }
}

// The fp32 and fp16/fp64 denorm modes (both fields set alike): float
// operands flushed as the mode says, integer operands (v_cvt_f32_u32's
// source, v_ldexp's exponent, v_cvt_i32_f32's result) never.
TEST_CASE("every VALU opcode matches its host reference in every denorm mode", "[alu][opcodes][denorm]") {
    const std::vector<OpCase> table = valu_cases();
    const unsigned mode = GENERATE(0u, 1u, 2u);  // 3: the test case above
    run_table(table, run_valu, full_exec, DenormMode{mode});
}

TEST_CASE("every VALU opcode matches its host reference after a flushing multiply-add", "[alu][opcodes][denorm]") {
    std::vector<OpCase> table = valu_cases();
    table.erase(std::remove_if(table.begin(), table.end(),
                               [](const OpCase& c) { return !op_info(Op::v_mac_f32).on(target_of(c.mnemonic)); }),
                table.end());
    run_table(table, run_valu_after_flushing_multiply_add, full_exec, DenormMode{3});
}

TEST_CASE("every SALU opcode matches its host reference", "[alu][opcodes]") {
    const std::vector<OpCase> table = salu_cases();
    SECTION("full EXEC") { run_table(table, run_salu, full_exec); }
    SECTION("partial EXEC does not change SALU results") { run_table(table, run_salu, partial_exec); }
}

// A newly implemented ALU opcode without a row here fails this test.
TEST_CASE("every implemented ALU opcode has a reference test", "[alu][opcodes][coverage]") {
    std::set<std::string> tested;
    for (const OpCase& c : valu_cases()) tested.insert(c.mnemonic);
    for (const OpCase& c : salu_cases()) tested.insert(c.mnemonic);
    // Control flow in SOP1/SOPK encodings: tested by test_flow.cpp.
    const std::set<std::string> control_flow = {"s_call_b64", "s_setpc_b64", "s_swappc_b64"};
    // Matrix ops (OF_MFMA): against the matrix product in test_mfma.cpp, which
    // fails on an implemented MFMA without a row there.
    // Implemented but without a row yet: the division helpers (their ISA
    // definitions are long; tested by hand in test_divide.cpp). Listed so that
    // the count shows them; shrink it.
    const std::set<std::string> awaiting_rows = {
        "v_div_fixup_f32", "v_div_fixup_f64", "v_div_fmas_f32", "v_div_fmas_f64", "v_div_scale_f32", "v_div_scale_f64",
    };
    std::map<Family, std::pair<int, int>> counts;  // tested, implemented
    std::vector<std::string> missing;
    for (const auto& [name, op] : alu_ops()) {
        if (!has_semantics(op) || control_flow.count(name) || op_info(op).has(OF_MFMA)) continue;
        auto& [covered, implemented] = counts[op_info(op).family];
        ++implemented;
        if (tested.count(name)) ++covered;
        else if (!awaiting_rows.count(name)) missing.push_back(name);
    }
    std::ostringstream line;
    line << "ALU opcodes with a reference test (tested/implemented):";
    for (const auto& [family, n] : counts) line << " " << family_name(family) << " " << n.first << "/" << n.second;
    line << "; awaiting a row: " << awaiting_rows.size();
    WARN(line.str());
    std::ostringstream names;
    for (const std::string& name : missing) names << name << " ";
    INFO("implemented but untested: " << names.str());
    CHECK(missing.empty());
    // Every row names a real ALU opcode.
    for (const std::string& name : tested) {
        INFO(name);
        CHECK(alu_ops().count(name) > 0);
    }
}
