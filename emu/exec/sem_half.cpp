// 16-bit VALU: fp16 arithmetic, conversions and compares, 16-bit integer
// ops, the packed (VOP3P) forms of both and the mixed f16/f32 v_fma_mix*.
//
// Rounding is exact: every fp16 result is computed as an exact value
// (sign, integer magnitude, power of two) and rounded once by to_half, so
// add/sub/mul/fma are correctly rounded whatever the operands. Only the
// transcendentals (rcp, sqrt, rsq, log, exp, sin, cos) go through the host's
// float libm and are not bit-exact with the hardware's approximations.
//
// Rules modelled (gfx9; see the README for the list):
// - Denormals: the FP16/FP64 denorm mode (the wave's MODE register) flushes
//   f16 inputs and results; v_mad_f16/v_mac_f16/v_madak/v_madmk (like their f32 forms,
//   only selected by LLVM when f16 denormals are off) always flush and round
//   the product before the add. v_cvt_f16_f32 reads its f32 input under the
//   FP32 mode.
// - Destination: 16-bit results zero the high half, except the gfx9 forms
//   that preserve it (v_mad_f16/v_fma_f16/v_mad_u16/v_mad_i16, whose op_sel
//   dst bit picks the half written, and v_mac_f16/v_madak_f16/v_madmk_f16),
//   as LLVM's GCNSubtarget::zeroesHigh16BitsOfDest describes the hardware.
// - Sources: the low half, or the high half where op_sel says so (SDWA
//   selects first); abs/neg act on the f16 sign bit. Inline float constants
//   are their f16 encodings (1.0 = 0x3c00) in the low half, high half 0;
//   VOP3P picks halves per op_sel/op_sel_hi and negates per neg_lo/neg_hi.
// - NaN: a NaN operand comes back quieted (the first one); invalid
//   operations (inf - inf, 0 * inf) give 0x7e00. min/max are those of the
//   f32 forms (fp::min_num/max_num: IEEE mode, -0 < +0).
// - clamp/omod on f16 results; FP16_OVFL clamps overflows to +-65504.

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "emu/exec/semantics.hpp"
#include "emu/util.hpp"

namespace dppgemm::emu::sem {
namespace {

using u128 = unsigned __int128;

// ---- exact values and the one rounding ---------------------------------------

// What a lane operation needs to know about the kernel's float mode.
struct HalfMode {
    bool flush_in = false;        // f16 input denormals -> signed zero
    bool flush_out = false;       // f16 result denormals -> signed zero
    bool flush_in_32 = false;     // f32 inputs (v_cvt_f16_f32, v_cvt_pkrtz_f16_f32, v_fma_mix*)
    bool flush_out_32 = false;    // f32 results (v_fma_mix_f32)
    bool clamp_overflow = false;  // FP16_OVFL: finite overflow -> +-max normal
};

enum class Rounding : std::uint8_t { nearest_even, toward_zero };

// (-1)^negative * magnitude * 2^exponent, held exactly.
struct Exact {
    bool negative = false;
    u128 magnitude = 0;
    int exponent = 0;
};

constexpr u32 half_sign = 0x8000u, half_inf = 0x7c00u, half_quiet_nan = 0x7e00u, half_max = 0x7bffu;

bool is_nan16(u32 h) { return (h & 0x7fffu) > half_inf; }
bool is_inf16(u32 h) { return (h & 0x7fffu) == half_inf; }
bool is_denormal16(u32 h) { return (h & 0x7c00u) == 0 && (h & 0x3ffu) != 0; }
u32 quiet16(u32 h) { return h | 0x200u; }

int highest_bit(u128 x) {
    const u64 hi = u64(x >> 64);
    return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll(u64(x));
}

// Rounds an exact finite value to f16 bits: one rounding, overflow to inf
// (or max normal when rounding toward zero or clamping), denormals kept or
// flushed after rounding.
u32 to_half(const Exact& x, const HalfMode& mode, Rounding rounding = Rounding::nearest_even) {
    const u32 sign = x.negative ? half_sign : 0u;
    if (x.magnitude == 0) return sign;
    const int top = highest_bit(x.magnitude);
    // The result's unit in the last place: 2^-24 for denormals, else 2^(e-10).
    const int ulp = std::max(top + x.exponent, -14) - 10;
    const int shift = ulp - x.exponent;
    u128 significand;
    if (shift <= 0) {
        significand = x.magnitude << -shift;  // exact: fewer than 11 bits
    } else if (shift > top + 1) {
        significand = 0;  // below half an ulp: rounds to zero either way
    } else {
        significand = x.magnitude >> shift;
        const u128 rest = x.magnitude & ((u128(1) << shift) - 1), half = u128(1) << (shift - 1);
        if (rounding == Rounding::nearest_even && (rest > half || (rest == half && (significand & 1)))) ++significand;
    }
    int exponent = ulp;
    if (significand == 2048) significand = 1024, ++exponent;  // rounded up to the next binade
    if (exponent > 5) return sign | ((rounding == Rounding::toward_zero || mode.clamp_overflow) ? half_max : half_inf);
    if (significand < 1024) return mode.flush_out ? sign : sign | u32(significand);
    return sign | (u32(exponent + 25) << 10) | (u32(significand) - 1024);
}

// A finite f16 as an exact value.
Exact unpack16(u32 h) {
    const u32 biased = (h >> 10) & 0x1f, fraction = h & 0x3ff;
    Exact x;
    x.negative = (h & half_sign) != 0;
    x.magnitude = biased ? fraction | 0x400u : fraction;
    x.exponent = biased ? int(biased) - 25 : -24;
    return x;
}
// A finite f32 as an exact value.
Exact unpack32(u32 f) {
    const u32 biased = (f >> 23) & 0xff, fraction = f & 0x7fffff;
    Exact x;
    x.negative = (f >> 31) != 0;
    x.magnitude = biased ? fraction | 0x800000u : fraction;
    x.exponent = biased ? int(biased) - 150 : -149;
    return x;
}

// x + y exactly, except that bits of the smaller term more than 64 bits
// below the larger term's last bit (only f32 operands of v_fma_mix get so
// far apart) are rounded to odd: a result of at most 24 bits then rounds as
// from the exact sum, and the shifts stay within 128 bits. An exact zero is
// +0 unless both addends are -0 (round to nearest).
Exact sum(Exact x, Exact y) {
    if (!x.magnitude || !y.magnitude) {
        if (x.magnitude || y.magnitude) return x.magnitude ? x : y;
        return Exact{x.negative && y.negative, 0, 0};
    }
    constexpr int window = 64;
    Exact& low = x.exponent < y.exponent ? x : y;
    const int excess = (x.exponent < y.exponent ? y : x).exponent - low.exponent - window;
    if (excess > 0) {
        const bool lost = excess > 127 || (low.magnitude & ((u128(1) << excess) - 1)) != 0;
        low.magnitude = (excess > 127 ? 0 : low.magnitude >> excess) | (lost ? 1u : 0u);
        low.exponent += excess;
    }
    const int exponent = std::min(x.exponent, y.exponent);
    x.magnitude <<= x.exponent - exponent;
    y.magnitude <<= y.exponent - exponent;
    Exact r;
    r.exponent = exponent;
    if (x.negative == y.negative) {
        r.negative = x.negative;
        r.magnitude = x.magnitude + y.magnitude;
    } else if (x.magnitude != y.magnitude) {
        const bool x_larger = x.magnitude > y.magnitude;
        r.negative = x_larger ? x.negative : y.negative;
        r.magnitude = x_larger ? x.magnitude - y.magnitude : y.magnitude - x.magnitude;
    }
    return r;
}
Exact product(const Exact& x, const Exact& y) {
    return Exact{x.negative != y.negative, x.magnitude * y.magnitude, x.exponent + y.exponent};
}

// f16 <-> f32 bit patterns: widening is exact and keeps a NaN as it is (quiet
// or signaling); narrowing rounds once under the op's mode.
u32 widen_half(u32 h) {
    h &= 0xffff;
    const u32 sign = (h & half_sign) << 16;
    if ((h & 0x7c00u) == 0x7c00u) return sign | 0x7f800000u | ((h & 0x3ffu) << 13);
    const Exact x = unpack16(h);
    if (x.magnitude == 0) return sign;
    // Normalise: 24-bit significand, biased f32 exponent.
    const int top = highest_bit(x.magnitude);
    const u32 significand = u32(x.magnitude) << (23 - top);
    return sign | (u32(x.exponent + top + 127) << 23) | (significand & 0x7fffffu);
}
float as_float16(u32 h) { return fp::as_float(widen_half(h)); }
u32 round_to_half(u32 f, const HalfMode& mode, Rounding rounding = Rounding::nearest_even) {
    if ((f & 0x7fffffffu) > 0x7f800000u) return ((f >> 16) & half_sign) | half_quiet_nan | ((f >> 13) & 0x3ffu);
    if ((f & 0x7fffffffu) == 0x7f800000u) return ((f >> 16) & half_sign) | half_inf;
    return to_half(unpack32(mode.flush_in_32 ? fp::flush(f) : f), mode, rounding);
}
bool finite32(u32 f) { return (f & 0x7f800000u) != 0x7f800000u; }

// ---- lane operations: f16 -----------------------------------------------------
//
// Every lane operation has the shape u32 (mode, a, b, c); f16 operands and
// results are in the low 16 bits, inputs already selected, negated and flushed.

using LaneFn = u32 (*)(const HalfMode&, u32, u32, u32);

// The first NaN operand, quieted; 0 when there is none.
u32 nan_operand(u32 a, u32 b, u32 c = 0) {
    for (u32 x : {a, b, c})
        if (is_nan16(x)) return quiet16(x);
    return 0;
}

u32 add_f16(const HalfMode& m, u32 a, u32 b, u32) {
    if (const u32 n = nan_operand(a, b)) return n;
    if (is_inf16(a) || is_inf16(b)) {
        if (is_inf16(a) && is_inf16(b) && ((a ^ b) & half_sign)) return half_quiet_nan;
        return is_inf16(a) ? a : b;
    }
    return to_half(sum(unpack16(a), unpack16(b)), m);
}
u32 sub_f16(const HalfMode& m, u32 a, u32 b, u32) {
    return is_nan16(b) ? nan_operand(a, b) : add_f16(m, a, b ^ half_sign, 0);
}
u32 subrev_f16(const HalfMode& m, u32 a, u32 b, u32) { return sub_f16(m, b, a, 0); }
u32 mul_f16(const HalfMode& m, u32 a, u32 b, u32) {
    if (const u32 n = nan_operand(a, b)) return n;
    const u32 sign = (a ^ b) & half_sign;
    if (is_inf16(a) || is_inf16(b)) return (a & 0x7fffu) && (b & 0x7fffu) ? sign | half_inf : half_quiet_nan;
    return to_half(product(unpack16(a), unpack16(b)), m);
}
u32 fma_f16(const HalfMode& m, u32 a, u32 b, u32 c) {
    if (const u32 n = nan_operand(a, b, c)) return n;
    if (is_inf16(a) || is_inf16(b)) {
        if (!(a & 0x7fffu) || !(b & 0x7fffu)) return half_quiet_nan;  // 0 * inf
        const u32 p = ((a ^ b) & half_sign) | half_inf;
        return is_inf16(c) && c != p ? half_quiet_nan : p;
    }
    if (is_inf16(c)) return c;
    return to_half(sum(product(unpack16(a), unpack16(b)), unpack16(c)), m);
}
// v_mad_f16 family: flushes inputs, the rounded product and the result whatever the mode.
u32 mad_f16(const HalfMode& m, u32 a, u32 b, u32 c) {
    HalfMode flushing = m;
    flushing.flush_out = true;
    const u32 p = mul_f16(flushing, flush16(a), flush16(b), 0);
    return add_f16(flushing, p, flush16(c), 0);
}
// V_DIV_FIXUP_F16 (Vega ISA): S0 the quotient, S1 the denominator, S2 the
// numerator: "if (S2 == NAN) D = Quiet(S2); else if (S1 == NAN) D = Quiet(S1);
// else if (S1 == S2 == 0) D = NAN; else if (abs(S1) == abs(S2) == +-INF) D = NAN;
// else if (S1 == 0 || abs(S2) == +-INF) D = sign_out ? -INF : +INF; else if
// (abs(S1) == +-INF || S2 == 0) D = sign_out ? -0 : 0; else D = sign_out ?
// -abs(S0) : abs(S0)", sign_out = sign(S1) ^ sign(S2). The quotient passed
// through is a result like any other: flushed when the mode flushes results.
u32 div_fixup_f16(const HalfMode& m, u32 q, u32 d, u32 n) {
    const u32 sign = (d ^ n) & half_sign;
    const bool d_zero = !(d & 0x7fffu), n_zero = !(n & 0x7fffu);
    if (is_nan16(n)) return quiet16(n);
    if (is_nan16(d)) return quiet16(d);
    if ((d_zero && n_zero) || (is_inf16(d) && is_inf16(n))) return half_quiet_nan;
    if (d_zero || is_inf16(n)) return sign | half_inf;
    if (is_inf16(d) || n_zero) return sign;
    const u32 r = sign | (q & 0x7fffu);
    return m.flush_out ? flush16(r) : r;
}
// min/max pick one operand (IEEE minNum/maxNum, -0 < +0, as the f32 forms).
// The picked operand is a result like any other: flushed when the mode flushes results (as the f32 forms).
template <float (*Pick)(float, float)>
u32 pick_f16(const HalfMode& m, u32 a, u32 b, u32) {
    const u32 r = fp::as_bits(Pick(as_float16(a), as_float16(b)));
    if (fp::is_nan(r)) return half_quiet_nan;
    const u32 picked = r == widen_half(a) ? a : b;
    return m.flush_out ? flush16(picked) : picked;
}
u32 ldexp_f16(const HalfMode& m, u32 a, u32 b, u32) {
    if (is_nan16(a)) return quiet16(a);
    if (is_inf16(a)) return a;
    Exact x = unpack16(a);
    x.exponent += std::clamp(int(i16(b)), -64, 64);  // beyond +-64 every f16 saturates anyway
    return to_half(x, m);
}
u32 cvt_f16_f32(const HalfMode& m, u32 a, u32, u32) { return round_to_half(a, m); }
u32 cvt_f32_f16(const HalfMode&, u32 a, u32, u32) { return is_nan16(a) ? widen_half(quiet16(a)) : widen_half(a); }
u32 cvt_f16_u16(const HalfMode& m, u32 a, u32, u32) { return to_half(Exact{false, a, 0}, m); }
u32 cvt_f16_i16(const HalfMode& m, u32 a, u32, u32) {
    const int v = i16(a);
    return to_half(Exact{v < 0, u128(v < 0 ? -v : v), 0}, m);
}
// f16 -> 16-bit integer: truncate, saturate, NaN -> 0.
template <class T>
u32 cvt_int_f16(const HalfMode&, u32 a, u32, u32) {
    if (is_nan16(a)) return 0;
    const float f = std::trunc(as_float16(a));
    const float lo = float(std::numeric_limits<T>::min()), hi = float(std::numeric_limits<T>::max());
    return u32(u16(T(f < lo ? lo : f > hi ? hi : f)));
}
u32 pack_b32_f16(const HalfMode&, u32 a, u32 b, u32) { return (a & 0xffff) | (b << 16); }
u32 cvt_pkrtz_f16_f32(const HalfMode& m, u32 a, u32 b, u32) {
    return round_to_half(a, m, Rounding::toward_zero) | (round_to_half(b, m, Rounding::toward_zero) << 16);
}

// Unary ops through float: exact for floor/ceil/trunc/rndne/frexp (the f16
// value and the result are floats exactly); the transcendentals are host
// libm results rounded once more, not bit-exact with the hardware.
template <float (*F)(float)>
u32 via_float(const HalfMode& m, u32 a, u32, u32) {
    if (is_nan16(a)) return quiet16(a);
    const u32 r = fp::as_bits(F(as_float16(a)));
    return fp::is_nan(r) ? half_quiet_nan : round_to_half(r, m);
}
float reciprocal(float x) { return 1.0f / x; }
float reciprocal_sqrt(float x) { return 1.0f / std::sqrt(x); }
float square_root(float x) { return std::sqrt(x); }
float log2_of(float x) { return std::log2(x); }
float exp2_of(float x) { return std::exp2(x); }
float sin_turns(float x) { return std::sin(x * 6.28318530717958647692f); }  // the argument is in turns
float cos_turns(float x) { return std::cos(x * 6.28318530717958647692f); }
float floor_of(float x) { return std::floor(x); }
float ceil_of(float x) { return std::ceil(x); }
float trunc_of(float x) { return std::trunc(x); }
float nearest_even(float x) { return std::nearbyint(x); }
float frexp_mantissa(float x) {
    if (std::isinf(x)) return x;
    int e;
    return std::frexp(x, &e);
}
// x - floor(x), below 1 even where the difference rounds up to 1.
u32 fract_f16(const HalfMode& m, u32 a, u32, u32) {
    if (is_nan16(a) || is_inf16(a)) return half_quiet_nan;
    const float x = as_float16(a);
    const u32 r = round_to_half(fp::as_bits(x - std::floor(x)), m);
    return r >= 0x3c00u ? 0x3bffu : r;
}
u32 frexp_exp_f16(const HalfMode&, u32 a, u32, u32) {
    if (is_nan16(a) || is_inf16(a)) return 0;
    int e;
    std::frexp(as_float16(a), &e);
    return u32(u16(i16(e)));
}

// ---- lane operations: 16-bit integers ---------------------------------------------

u32 add_u16(const HalfMode&, u32 a, u32 b, u32) { return a + b; }
u32 sub_u16(const HalfMode&, u32 a, u32 b, u32) { return a - b; }
u32 subrev_u16(const HalfMode&, u32 a, u32 b, u32) { return b - a; }
// With clamp (Semantic::saturating): "Supports saturation (unsigned 16-bit
// integer domain)" (V_ADD_U16, V_SUB_U16, V_SUBREV_U16 and the packed
// V_PK_ADD_U16 / V_PK_SUB_U16): the exact result limited to [0, 0xffff]; the
// signed packed forms V_PK_ADD_I16 / V_PK_SUB_I16 to [-32768, 32767].
u32 saturate_u16(i32 exact) { return u32(std::clamp(exact, 0, 0xffff)); }
u32 saturate_i16(i32 exact) { return u32(std::clamp(exact, -32768, 32767)) & 0xffff; }
u32 add_u16_saturating(const HalfMode&, u32 a, u32 b, u32) { return saturate_u16(i32(a) + i32(b)); }
u32 sub_u16_saturating(const HalfMode&, u32 a, u32 b, u32) { return saturate_u16(i32(a) - i32(b)); }
u32 subrev_u16_saturating(const HalfMode&, u32 a, u32 b, u32) { return saturate_u16(i32(b) - i32(a)); }
u32 add_i16_saturating(const HalfMode&, u32 a, u32 b, u32) { return saturate_i16(i32(i16(a)) + i32(i16(b))); }
u32 sub_i16_saturating(const HalfMode&, u32 a, u32 b, u32) { return saturate_i16(i32(i16(a)) - i32(i16(b))); }
u32 mul_lo_u16(const HalfMode&, u32 a, u32 b, u32) { return a * b; }
u32 lshlrev_b16(const HalfMode&, u32 a, u32 b, u32) { return b << (a & 15); }
u32 lshrrev_b16(const HalfMode&, u32 a, u32 b, u32) { return (b & 0xffff) >> (a & 15); }
u32 ashrrev_i16(const HalfMode&, u32 a, u32 b, u32) { return u32(i16(b) >> (a & 15)); }
template <class T>
u32 min16(const HalfMode&, u32 a, u32 b, u32) {
    return u32(std::min(T(a), T(b)));
}
template <class T>
u32 max16(const HalfMode&, u32 a, u32 b, u32) {
    return u32(std::max(T(a), T(b)));
}
// v_min3/max3/med3_{i16,u16} (Vega ISA VOP3: the min/max/median of the three).
template <class T>
u32 min3_16(const HalfMode&, u32 a, u32 b, u32 c) {
    return u32(std::min({T(a), T(b), T(c)}));
}
template <class T>
u32 max3_16(const HalfMode&, u32 a, u32 b, u32 c) {
    return u32(std::max({T(a), T(b), T(c)}));
}
template <class T>
u32 med3_16(const HalfMode&, u32 a, u32 b, u32 c) {
    return u32(std::max(std::min(T(a), T(b)), std::min(std::max(T(a), T(b)), T(c))));
}
// v_min3/max3/med3_f16: pairwise IEEE min/max as the f16 min/max; med3 with a
// NaN operand is min3 (Vega ISA V_MED3_F16: "if (isNan(S0) || isNan(S1) ||
// isNan(S2)) D = min3(S0, S1, S2)").
u32 min3_f16(const HalfMode& m, u32 a, u32 b, u32 c) {
    return pick_f16<fp::min_num>(m, pick_f16<fp::min_num>(m, a, b, 0), c, 0);
}
u32 max3_f16(const HalfMode& m, u32 a, u32 b, u32 c) {
    return pick_f16<fp::max_num>(m, pick_f16<fp::max_num>(m, a, b, 0), c, 0);
}
u32 med3_f16(const HalfMode& m, u32 a, u32 b, u32 c) {
    if (is_nan16(a) || is_nan16(b) || is_nan16(c)) return min3_f16(m, a, b, c);
    const u32 low = pick_f16<fp::min_num>(m, a, b, 0), high = pick_f16<fp::max_num>(m, a, b, 0);
    return pick_f16<fp::max_num>(m, low, pick_f16<fp::min_num>(m, high, c, 0), 0);
}
u32 mad_u16(const HalfMode&, u32 a, u32 b, u32 c) { return a * b + c; }
// 16 x 16 -> 32-bit products plus a 32-bit addend.
u32 mad_u32_u16(const HalfMode&, u32 a, u32 b, u32 c) { return (a & 0xffff) * (b & 0xffff) + c; }
u32 mad_i32_i16(const HalfMode&, u32 a, u32 b, u32 c) { return u32(i32(i16(a)) * i16(b)) + c; }

// The *mk forms carry their literal K in src2 but multiply by it.
template <LaneFn F>
u32 multiply_by_src2(const HalfMode& m, u32 a, u32 b, u32 c) {
    return F(m, a, c, b);
}

// ---- compares -------------------------------------------------------------------
//
// A compare's predicate is a 4-bit truth table over the relation of its
// operands (bit 0 less, 1 equal, 2 greater, 3 unordered); the opcodes'
// order (f, lt, eq, le, gt, lg/ne, ge, o/t, u, nge, nlg, ngt, nle, neq, nlt,
// tru) is exactly that table's value.
enum Relation : unsigned { less, equal, greater, unordered };
Relation relation_f16(u32 a, u32 b) {
    if (is_nan16(a) || is_nan16(b)) return unordered;
    const float x = as_float16(a), y = as_float16(b);
    return x < y ? less : x == y ? equal : greater;
}
template <class T>
Relation relation_int(u32 a, u32 b) {
    return T(a) < T(b) ? less : T(a) == T(b) ? equal : greater;
}
template <Relation (*R)(u32, u32), unsigned Predicate>
u32 compare(const HalfMode&, u32 a, u32 b, u32) {
    return (Predicate >> R(a, b)) & 1;
}

// v_cmp_class_f16: the operand's class bit (as v_cmp_class_f32) tested in the mask.
u32 class_f16(const HalfMode&, u32 a, u32 mask, u32) {
    const bool negative = a & half_sign;
    unsigned bit;
    if (is_nan16(a)) bit = (a & 0x200u) ? 1 : 0;
    else if (is_inf16(a)) bit = negative ? 2 : 9;
    else if (!(a & 0x7fffu)) bit = negative ? 5 : 6;
    else if (is_denormal16(a)) bit = negative ? 4 : 7;
    else bit = negative ? 3 : 8;
    return (mask >> bit) & 1;
}

// ---- operand access -------------------------------------------------------------

// What a source is.
enum class In : std::uint8_t {
    none,
    b32,     // 32-bit integer, as fetched
    f32,     // 32-bit float: fp32 abs/neg, flushed per the FP32 mode
    i16,     // 16-bit integer: low half (or the op_sel half)
    f16,     // f16: as i16, then f16 abs/neg and the FP16 input flush
    f16_raw  // f16 never flushed (v_cmp_class)
};
// Where the result goes.
enum class Out : std::uint8_t {
    zero_high,   // 16 bits, high half zeroed
    keep_other,  // 16 bits into the op_sel dst half, the other half kept
    b32,         // the whole dword
    mask,        // a compare's lane mask (VOPC)
    mask_exec,   // ... also written to EXEC (v_cmpx)
};
struct Shape {
    In src[3];
    Out out;
    bool float_result;  // f16 clamp/omod apply (f32 ones for an f32 result)
};

// From the wave's MODE register (s_setreg may change the fp32 denorm field
// mid-kernel): FP_DENORM fp32 [5:4], fp16/64 [7:6], FP16_OVFL [23].
HalfMode mode_of(const Wave& w) {
    const auto denorm = [&](unsigned shift) { return static_cast<FloatDenormMode>((w.mode >> shift) & 3); };
    const auto flushes_in = [](FloatDenormMode d) {
        return d == FloatDenormMode::flush_src_dst || d == FloatDenormMode::flush_src;
    };
    const FloatDenormMode half = denorm(mode_fp32_denorm_shift + 2);
    HalfMode m;
    m.flush_in = flushes_in(half);
    m.flush_out = half == FloatDenormMode::flush_src_dst || half == FloatDenormMode::flush_dst;
    const FloatDenormMode single = denorm(mode_fp32_denorm_shift);
    m.flush_in_32 = flushes_in(single);
    m.flush_out_32 = single == FloatDenormMode::flush_src_dst || single == FloatDenormMode::flush_dst;
    m.clamp_overflow = (w.mode >> 23) & 1;
    return m;
}

const Operand& operand(const Inst& inst, unsigned i) { return i == 0 ? inst.src0 : i == 1 ? inst.src1 : inst.src2; }

bool is_16_bit(In kind) { return kind == In::i16 || kind == In::f16 || kind == In::f16_raw; }

// The 32-bit lanes of source i: VGPR, broadcast scalar, DPP, SDWA applied;
// fp32 abs/neg only for f32 sources. Inline float constants of 16-bit
// sources are f16 encodings.
const u32* fetch_source(Wave& w, const ExecInst& e, unsigned i, In kind, const HalfMode& m, Lanes tmp) {
    if (kind == In::none) {
        for (unsigned l = 0; l < 64; ++l) tmp[l] = 0;
        return tmp;
    }
    const Operand& op = operand(*e.inst, i);
    if (is_16_bit(kind) && op.kind == OperandKind::inline_float) {
        const u32 value = round_to_half(op.value, HalfMode{});
        for (unsigned l = 0; l < 64; ++l) tmp[l] = value;
        return tmp;
    }
    const u32* lanes = fetch(w, e, i, tmp, 0, kind == In::f32 ? ST_FLUSH : ST_ABS | ST_NEG | ST_FLUSH);
    if (kind == In::f32 && m.flush_in_32) {
        for (unsigned l = 0; l < 64; ++l) tmp[l] = fp::flush(lanes[l]);
        return tmp;
    }
    return lanes;
}

// One 16-bit operand from its dword: the half, then f16 sign modifiers and flush.
struct HalfSelect {
    unsigned shift = 0;
    u32 and_mask = 0xffff, xor_mask = 0;
    bool flush = false;
    u32 operator()(u32 dword) const {
        const u32 h = (((dword >> shift) & 0xffff) & and_mask) ^ xor_mask;
        return flush ? flush16(h) : h;
    }
};
HalfSelect half_select(In kind, bool high, bool abs, bool neg, const HalfMode& m) {
    HalfSelect s;
    s.shift = high ? 16 : 0;
    if (kind == In::f16 || kind == In::f16_raw) {
        s.and_mask = abs ? 0x7fffu : 0xffffu;
        s.xor_mask = neg ? half_sign : 0u;
        s.flush = kind == In::f16 && m.flush_in;
    }
    return s;
}

// clamp ([0, 1], NaN -> 0) and omod (x2, x4, /2) of an f16 result.
u32 half_output_modifiers(const Inst& inst, const HalfMode& m, u32 h) {
    if (inst.omod && !is_nan16(h) && !is_inf16(h)) {
        Exact x = unpack16(h);
        x.exponent += inst.omod == 1 ? 1 : inst.omod == 2 ? 2 : -1;
        h = to_half(x, m);
    }
    if (inst.clamp) {
        if (is_nan16(h) || (h & half_sign && (h & 0x7fffu))) h = 0;
        else if (as_float16(h) > 1.0f) h = 0x3c00u;
    }
    return h;
}

void write_mask(Wave& w, const ExecInst& e, const u32* bits, bool to_exec) {
    u64 result = 0;
    for (unsigned l = 0; l < 64; ++l) result |= u64(bits[l] & 1) << l;
    result &= write_lanes(w, e);  // inactive lanes write 0
    write_sdst(w, e.sdst.kind != Src::Kind::none ? e.sdst : e.dst, result);
    if (to_exec) w.set_exec(result);
}

// VOP1/VOP2/VOP3/VOPC forms: one lane operation over the selected sources.
template <const Shape& S, LaneFn F>
void op16(Wave& w, const ExecInst& e) {
    const Inst& inst = *e.inst;
    const HalfMode m = mode_of(w);
    alignas(64) Lanes t0, t1, t2, out;
    u32* tmp[3] = {t0, t1, t2};
    const u32* src[3];
    HalfSelect select[3];
    for (unsigned i = 0; i < 3; ++i) {
        src[i] = fetch_source(w, e, i, S.src[i], m, tmp[i]);
        select[i] =
            half_select(S.src[i], (inst.mods.op_sel >> i) & 1, (inst.mods.abs >> i) & 1, (inst.mods.neg >> i) & 1, m);
    }
    const auto value = [&](unsigned i, unsigned l) { return is_16_bit(S.src[i]) ? select[i](src[i][l]) : src[i][l]; };
    for (unsigned l = 0; l < 64; ++l) out[l] = F(m, value(0, l), value(1, l), value(2, l));

    if (S.out == Out::mask || S.out == Out::mask_exec) return write_mask(w, e, out, S.out == Out::mask_exec);
    if (S.out == Out::b32) return commit_vdst(w, e, out);  // an f32 result takes the f32 output modifiers
    const u32* old = vreg(w, e.dst);
    const bool high = (inst.mods.op_sel >> 3) & 1;
    for (unsigned l = 0; l < 64; ++l) {
        u32 h = out[l] & 0xffff;
        if (S.float_result) h = half_output_modifiers(inst, m, h);
        if (S.out == Out::keep_other) out[l] = high ? (old[l] & 0xffffu) | (h << 16) : (old[l] & 0xffff0000u) | h;
        else out[l] = h;
    }
    if (e.sdwa_dst) sdwa_place(old, out, inst);
    commit(vreg(w, e.dst), out, write_lanes(w, e));
}

// VOP3P: each half of the result from the halves op_sel (low) and
// op_sel_hi (high) pick, negated per neg_lo/neg_hi for f16 operations.
// Saturating: F is the op's saturating form (Semantic::saturating), run when clamp is set.
template <unsigned Sources, bool Float, LaneFn F, bool Saturating = false>
void packed16(Wave& w, const ExecInst& e) {
    const Inst& inst = *e.inst;
    if (inst.clamp && !Float && !Saturating) not_implemented(w, e);  // integer saturation not modelled for this op
    const HalfMode m = mode_of(w);
    const In kind = Float ? In::f16 : In::i16;
    alignas(64) Lanes t0, t1, t2, out;
    u32* tmp[3] = {t0, t1, t2};
    const u32* src[3];
    HalfSelect select[2][3];
    for (unsigned i = 0; i < 3; ++i) {
        src[i] = fetch_source(w, e, i, i < Sources ? kind : In::none, m, tmp[i]);
        select[0][i] = half_select(kind, (inst.mods.op_sel >> i) & 1, false, (inst.mods.neg >> i) & 1, m);
        select[1][i] = half_select(kind, (inst.mods.op_sel_hi >> i) & 1, false, (inst.mods.neg_hi >> i) & 1, m);
    }
    for (unsigned l = 0; l < 64; ++l) {
        u32 result = 0;
        for (unsigned half = 0; half < 2; ++half) {
            const HalfSelect* s = select[half];
            u32 h = F(m, s[0](src[0][l]), s[1](src[1][l]), s[2](src[2][l])) & 0xffff;
            if (Float && inst.clamp) h = half_output_modifiers(inst, m, h);
            result |= h << (16 * half);
        }
        out[l] = result;
    }
    commit(vreg(w, e.dst), out, write_lanes(w, e));
}

// Where a mix op's result goes: an f32, or an f16 into the low (mixlo) or
// high (mixhi) half with the other half kept.
enum class MixResult : std::uint8_t { f32, f16_low, f16_high };

// The three sources of v_fma_mix and v_mad_mix: each f32, or f16 (op_sel_hi
// bit set) from the op_sel half, widened; as f32 bits with abs (neg_hi) and
// neg (neg_lo) applied. flush_half / flush_f32: denormal inputs flushed first.
class MixOperands {
public:
    MixOperands(Wave& w, const ExecInst& e, const HalfMode& m, bool flush_half, bool flush_f32)
        : inst_(*e.inst), flush_half_(flush_half), flush_f32_(flush_f32) {
        for (unsigned i = 0; i < 3; ++i) {
            const bool half = (inst_.mods.op_sel_hi >> i) & 1;
            src_[i] = fetch_source(w, e, i, half ? In::i16 : In::b32, m, tmp_[i]);
        }
    }
    // Source i of lane l.
    u32 operator()(unsigned i, unsigned l) const {
        u32 bits;
        if ((inst_.mods.op_sel_hi >> i) & 1) {
            const u32 h = (src_[i][l] >> (16 * ((inst_.mods.op_sel >> i) & 1))) & 0xffff;
            bits = widen_half(flush_half_ ? flush16(h) : h);
        } else {
            bits = flush_f32_ ? fp::flush(src_[i][l]) : src_[i][l];
        }
        if ((inst_.mods.abs >> i) & 1) bits &= 0x7fffffffu;
        if ((inst_.mods.neg >> i) & 1) bits ^= 0x80000000u;
        return bits;
    }

private:
    const Inst& inst_;
    bool flush_half_, flush_f32_;
    alignas(64) Lanes tmp_[3];
    const u32* src_[3];
};

// An f16 mix result into its half of the destination's old value.
template <MixResult R>
u32 with_mix_half(u32 old, u32 h) {
    return R == MixResult::f16_low ? (old & 0xffff0000u) | h : (old & 0xffffu) | (h << 16);
}

// v_fma_mix_f32/mixlo_f16/mixhi_f16: fma of sources that are each f32, or
// f16 (op_sel_hi bit set) from the op_sel half; neg_lo negates, neg_hi
// (decoded as abs) takes the absolute value. One rounding: to f32, or to f16
// into the low (mixlo) or high (mixhi) half with the other half kept.
template <MixResult R>
void fma_mix(Wave& w, const ExecInst& e) {
    const Inst& inst = *e.inst;
    const HalfMode m = mode_of(w);
    alignas(64) Lanes out;
    const MixOperands operand_value(w, e, m, m.flush_in, m.flush_in_32);
    const u32* old = vreg(w, e.dst);
    for (unsigned l = 0; l < 64; ++l) {
        const u32 a = operand_value(0, l), b = operand_value(1, l), c = operand_value(2, l);
        const float fused =
            std::fma(fp::as_float(a), fp::as_float(b), fp::as_float(c));  // exact operands: one rounding
        if (R == MixResult::f32) {
            u32 r = m.flush_out_32 ? fp::flush(fp::as_bits(fused)) : fp::as_bits(fused);
            if (inst.clamp) r = fp::as_bits(std::isnan(fused) ? 0.0f : std::clamp(fp::as_float(r), 0.0f, 1.0f));
            out[l] = r;
            continue;
        }
        u32 h;
        if (finite32(a) && finite32(b) && finite32(c))
            h = to_half(sum(product(unpack32(a), unpack32(b)), unpack32(c)), m);
        else if (!std::isnan(fused)) h = round_to_half(fp::as_bits(fused), m);  // an infinity
        else
            h = fp::is_nan(a) || fp::is_nan(b) || fp::is_nan(c) ? round_to_half(fp::is_nan(a)   ? a
                                                                                : fp::is_nan(b) ? b
                                                                                                : c,
                                                                                m)
                                                                : half_quiet_nan;  // inf * 0, inf - inf
        if (inst.clamp) h = half_output_modifiers(inst, m, h);
        out[l] = with_mix_half<R>(old[l], h);
    }
    commit(vreg(w, e.dst), out, write_lanes(w, e));
}

// V_PK_FMAC_F16 (VOP2, gfx908+): "D.f16[0] = S0.f16[0] * S1.f16[0] + D.f16[0];
// D.f16[1] = S0.f16[1] * S1.f16[1] + D.f16[1]", each half fused (as v_pk_fma_f16).
void pk_fmac_f16(Wave& w, const ExecInst& e) {
    const HalfMode m = mode_of(w);
    alignas(64) Lanes t0, t1, t2, out;
    const u32* a = fetch_source(w, e, 0, In::i16, m, t0);
    const u32* b = fetch_source(w, e, 1, In::i16, m, t1);
    const u32* c = fetch_source(w, e, 2, In::i16, m, t2);  // the destination (Semantic::src2_is_dst)
    for (unsigned half = 0; half < 2; ++half) {
        const HalfSelect s = half_select(In::f16, half == 1, false, false, m);
        for (unsigned l = 0; l < 64; ++l) {
            const u32 h = fma_f16(m, s(a[l]), s(b[l]), s(c[l])) & 0xffff;
            out[l] = half ? (out[l] | h << 16) : h;
        }
    }
    commit(vreg(w, e.dst), out, write_lanes(w, e));
}

// v_mad_mix_f32/mixlo_f16/mixhi_f16 (gfx900): the sources as v_fma_mix
// takes them, then LLVM's fmad (which it selects these for, with denormals
// flushed): the product rounded to f32, the sum rounded to f32, denormal
// inputs, product and sum flushed as v_mad_f32 does; mixlo/mixhi round that
// f32 to f16 into one half, keeping the other.
template <MixResult R>
void mad_mix(Wave& w, const ExecInst& e) {
    const Inst& inst = *e.inst;
    const HalfMode m = mode_of(w);
    alignas(64) Lanes out;
    const MixOperands operands(w, e, m, false, false);
    const auto operand_value = [&](unsigned i, unsigned l) { return fp::as_float(fp::flush(operands(i, l))); };
    const u32* old = vreg(w, e.dst);
    for (unsigned l = 0; l < 64; ++l) {
        const float product = fp::as_float(fp::flush(fp::as_bits(operand_value(0, l) * operand_value(1, l))));
        const float sum = product + operand_value(2, l);
        u32 r = fp::flush(fp::as_bits(sum));
        if (R == MixResult::f32) {
            if (inst.clamp) r = fp::as_bits(std::isnan(sum) ? 0.0f : std::clamp(fp::as_float(r), 0.0f, 1.0f));
            out[l] = r;
            continue;
        }
        HalfMode flushing = m;
        flushing.flush_out = true;
        u32 h = round_to_half(r, flushing);
        if (inst.clamp) h = half_output_modifiers(inst, m, h);
        out[l] = with_mix_half<R>(old[l], h);
    }
    commit(vreg(w, e.dst), out, write_lanes(w, e));
}

// ---- shapes -----------------------------------------------------------------------

constexpr Shape f16_unary{{In::f16, In::none, In::none}, Out::zero_high, true};
constexpr Shape f16_binary{{In::f16, In::f16, In::none}, Out::zero_high, true};
constexpr Shape f16_ldexp{{In::f16, In::i16, In::none}, Out::zero_high, true};
constexpr Shape f16_ternary_keep{{In::f16, In::f16, In::f16}, Out::keep_other, true};
constexpr Shape f16_ternary_zero{{In::f16, In::f16, In::f16}, Out::zero_high, true};
constexpr Shape f16_to_i16{{In::f16, In::none, In::none}, Out::zero_high, false};
constexpr Shape f16_to_f32{{In::f16, In::none, In::none}, Out::b32, true};
constexpr Shape f32_to_f16{{In::f32, In::none, In::none}, Out::zero_high, true};
constexpr Shape f32_pair_to_b32{{In::f32, In::f32, In::none}, Out::b32, false};
constexpr Shape f16_pair_to_b32{{In::f16, In::f16, In::none}, Out::b32, false};
constexpr Shape i16_to_f16{{In::i16, In::none, In::none}, Out::zero_high, true};
constexpr Shape i16_binary{{In::i16, In::i16, In::none}, Out::zero_high, false};
constexpr Shape i16_ternary_keep{{In::i16, In::i16, In::i16}, Out::keep_other, false};
constexpr Shape i16_ternary_zero{{In::i16, In::i16, In::i16}, Out::zero_high, false};
constexpr Shape i16_mad_32{{In::i16, In::i16, In::b32}, Out::b32, false};
constexpr Shape f16_compare{{In::f16, In::f16, In::none}, Out::mask, false};
constexpr Shape f16_compare_exec{{In::f16, In::f16, In::none}, Out::mask_exec, false};
constexpr Shape f16_class{{In::f16_raw, In::b32, In::none}, Out::mask, false};
constexpr Shape f16_class_exec{{In::f16_raw, In::b32, In::none}, Out::mask_exec, false};
constexpr Shape i16_compare{{In::i16, In::i16, In::none}, Out::mask, false};
constexpr Shape i16_compare_exec{{In::i16, In::i16, In::none}, Out::mask_exec, false};

// Compare opcodes in predicate order (see Relation); Op::invalid where a
// type has no such predicate.
struct CompareOps {
    Op cmp, cmpx;
};
constexpr CompareOps f16_compares[16] = {
    {Op::v_cmp_f_f16, Op::v_cmpx_f_f16},     {Op::v_cmp_lt_f16, Op::v_cmpx_lt_f16},
    {Op::v_cmp_eq_f16, Op::v_cmpx_eq_f16},   {Op::v_cmp_le_f16, Op::v_cmpx_le_f16},
    {Op::v_cmp_gt_f16, Op::v_cmpx_gt_f16},   {Op::v_cmp_lg_f16, Op::v_cmpx_lg_f16},
    {Op::v_cmp_ge_f16, Op::v_cmpx_ge_f16},   {Op::v_cmp_o_f16, Op::v_cmpx_o_f16},
    {Op::v_cmp_u_f16, Op::v_cmpx_u_f16},     {Op::v_cmp_nge_f16, Op::v_cmpx_nge_f16},
    {Op::v_cmp_nlg_f16, Op::v_cmpx_nlg_f16}, {Op::v_cmp_ngt_f16, Op::v_cmpx_ngt_f16},
    {Op::v_cmp_nle_f16, Op::v_cmpx_nle_f16}, {Op::v_cmp_neq_f16, Op::v_cmpx_neq_f16},
    {Op::v_cmp_nlt_f16, Op::v_cmpx_nlt_f16}, {Op::v_cmp_tru_f16, Op::v_cmpx_tru_f16},
};
constexpr CompareOps i16_compares[8] = {
    {Op::v_cmp_f_i16, Op::v_cmpx_f_i16},   {Op::v_cmp_lt_i16, Op::v_cmpx_lt_i16}, {Op::v_cmp_eq_i16, Op::v_cmpx_eq_i16},
    {Op::v_cmp_le_i16, Op::v_cmpx_le_i16}, {Op::v_cmp_gt_i16, Op::v_cmpx_gt_i16}, {Op::v_cmp_ne_i16, Op::v_cmpx_ne_i16},
    {Op::v_cmp_ge_i16, Op::v_cmpx_ge_i16}, {Op::v_cmp_t_i16, Op::v_cmpx_t_i16},
};
constexpr CompareOps u16_compares[8] = {
    {Op::v_cmp_f_u16, Op::v_cmpx_f_u16},   {Op::v_cmp_lt_u16, Op::v_cmpx_lt_u16}, {Op::v_cmp_eq_u16, Op::v_cmpx_eq_u16},
    {Op::v_cmp_le_u16, Op::v_cmpx_le_u16}, {Op::v_cmp_gt_u16, Op::v_cmpx_gt_u16}, {Op::v_cmp_ne_u16, Op::v_cmpx_ne_u16},
    {Op::v_cmp_ge_u16, Op::v_cmpx_ge_u16}, {Op::v_cmp_t_u16, Op::v_cmpx_t_u16},
};
// Integer compares have the first 8 (ne = lt|gt, t = lt|eq|gt: never unordered).
template <const Shape& Cmp, const Shape& CmpX, Relation (*R)(u32, u32), std::size_t... P>
void register_compares(Table& t, const CompareOps* ops, FloatPolicy fp, std::index_sequence<P...>) {
    const ExecFn cmp[] = {op16<Cmp, compare<R, P>>...};
    const ExecFn cmpx[] = {op16<CmpX, compare<R, P>>...};
    for (std::size_t p = 0; p < sizeof...(P); ++p) {
        set(t, ops[p].cmp, cmp[p], InstClass::valu, fp);
        set(t, ops[p].cmpx, cmpx[p], InstClass::valu, fp);
    }
}

}  // namespace

std::uint32_t half_to_float_bits(std::uint32_t half) { return cvt_f32_f16(HalfMode{}, half, 0, 0); }
std::uint32_t float_to_half_bits(std::uint32_t f32) { return round_to_half(f32, HalfMode{}); }

void register_half(Table& t) {
    const FloatPolicy H = FloatPolicy::half, N = FloatPolicy::none;
    auto v = [&](Op op, ExecFn fn, FloatPolicy fp) { set(t, op, fn, InstClass::valu, fp); };

    // Conversions (these replace the f32-mode-only versions in sem_vector.cpp).
    v(Op::v_cvt_f16_f32, op16<f32_to_f16, cvt_f16_f32>, H);
    v(Op::v_cvt_f32_f16, op16<f16_to_f32, cvt_f32_f16>, H);
    v(Op::v_cvt_f16_u16, op16<i16_to_f16, cvt_f16_u16>, H);
    v(Op::v_cvt_f16_i16, op16<i16_to_f16, cvt_f16_i16>, H);
    v(Op::v_cvt_u16_f16, op16<f16_to_i16, cvt_int_f16<u16>>, N);
    v(Op::v_cvt_i16_f16, op16<f16_to_i16, cvt_int_f16<i16>>, N);
    v(Op::v_cvt_pkrtz_f16_f32, op16<f32_pair_to_b32, cvt_pkrtz_f16_f32>, N);
    v(Op::v_pack_b32_f16, op16<f16_pair_to_b32, pack_b32_f16>, N);

    // f16 arithmetic.
    v(Op::v_add_f16, op16<f16_binary, add_f16>, H);
    v(Op::v_sub_f16, op16<f16_binary, sub_f16>, H);
    v(Op::v_subrev_f16, op16<f16_binary, subrev_f16>, H);
    v(Op::v_mul_f16, op16<f16_binary, mul_f16>, H);
    v(Op::v_min_f16, op16<f16_binary, pick_f16<fp::min_num>>, H);
    v(Op::v_max_f16, op16<f16_binary, pick_f16<fp::max_num>>, H);
    v(Op::v_ldexp_f16, op16<f16_ldexp, ldexp_f16>, H);
    v(Op::v_fma_f16, op16<f16_ternary_keep, fma_f16>, H);
    v(Op::v_fma_legacy_f16, op16<f16_ternary_zero, fma_f16>, H);
    v(Op::v_mad_f16, op16<f16_ternary_keep, mad_f16>, H);
    v(Op::v_mad_legacy_f16, op16<f16_ternary_zero, mad_f16>, H);
    set(t, Op::v_mac_f16, op16<f16_ternary_keep, mad_f16>, InstClass::valu, H, Accumulator::destination);
    v(Op::v_madak_f16, op16<f16_ternary_keep, mad_f16>, H);
    v(Op::v_madmk_f16, op16<f16_ternary_keep, multiply_by_src2<mad_f16>>, H);
    v(Op::v_rcp_f16, op16<f16_unary, via_float<reciprocal>>, H);
    v(Op::v_rsq_f16, op16<f16_unary, via_float<reciprocal_sqrt>>, H);
    v(Op::v_sqrt_f16, op16<f16_unary, via_float<square_root>>, H);
    v(Op::v_log_f16, op16<f16_unary, via_float<log2_of>>, H);
    v(Op::v_exp_f16, op16<f16_unary, via_float<exp2_of>>, H);
    v(Op::v_sin_f16, op16<f16_unary, via_float<sin_turns>>, H);
    v(Op::v_cos_f16, op16<f16_unary, via_float<cos_turns>>, H);
    v(Op::v_floor_f16, op16<f16_unary, via_float<floor_of>>, H);
    v(Op::v_ceil_f16, op16<f16_unary, via_float<ceil_of>>, H);
    v(Op::v_trunc_f16, op16<f16_unary, via_float<trunc_of>>, H);
    v(Op::v_rndne_f16, op16<f16_unary, via_float<nearest_even>>, H);
    v(Op::v_fract_f16, op16<f16_unary, fract_f16>, H);
    v(Op::v_frexp_mant_f16, op16<f16_unary, via_float<frexp_mantissa>>, H);
    v(Op::v_frexp_exp_i16_f16, op16<f16_to_i16, frexp_exp_f16>, N);

    // 16-bit integers.
    v(Op::v_add_u16, op16<i16_binary, add_u16>, N);
    v(Op::v_sub_u16, op16<i16_binary, sub_u16>, N);
    v(Op::v_subrev_u16, op16<i16_binary, subrev_u16>, N);
    set_saturating(t, Op::v_add_u16, op16<i16_binary, add_u16_saturating>);
    set_saturating(t, Op::v_sub_u16, op16<i16_binary, sub_u16_saturating>);
    set_saturating(t, Op::v_subrev_u16, op16<i16_binary, subrev_u16_saturating>);
    v(Op::v_mul_lo_u16, op16<i16_binary, mul_lo_u16>, N);
    v(Op::v_lshlrev_b16, op16<i16_binary, lshlrev_b16>, N);
    v(Op::v_lshrrev_b16, op16<i16_binary, lshrrev_b16>, N);
    v(Op::v_ashrrev_i16, op16<i16_binary, ashrrev_i16>, N);
    v(Op::v_min_u16, op16<i16_binary, min16<u16>>, N);
    v(Op::v_max_u16, op16<i16_binary, max16<u16>>, N);
    v(Op::v_min_i16, op16<i16_binary, min16<i16>>, N);
    v(Op::v_max_i16, op16<i16_binary, max16<i16>>, N);
    v(Op::v_mad_u16, op16<i16_ternary_keep, mad_u16>, N);
    // min3/max3/med3: VOP3 only, op_sel picks the destination half (the other kept, as v_mad_u16).
    v(Op::v_min3_f16, op16<f16_ternary_keep, min3_f16>, H);
    v(Op::v_max3_f16, op16<f16_ternary_keep, max3_f16>, H);
    v(Op::v_med3_f16, op16<f16_ternary_keep, med3_f16>, H);
    v(Op::v_min3_i16, op16<i16_ternary_keep, min3_16<i16>>, N);
    v(Op::v_max3_i16, op16<i16_ternary_keep, max3_16<i16>>, N);
    v(Op::v_med3_i16, op16<i16_ternary_keep, med3_16<i16>>, N);
    v(Op::v_min3_u16, op16<i16_ternary_keep, min3_16<u16>>, N);
    v(Op::v_max3_u16, op16<i16_ternary_keep, max3_16<u16>>, N);
    v(Op::v_med3_u16, op16<i16_ternary_keep, med3_16<u16>>, N);
    v(Op::v_mad_i16, op16<i16_ternary_keep, mad_u16>, N);  // the low 16 bits do not depend on signedness
    v(Op::v_mad_legacy_u16, op16<i16_ternary_zero, mad_u16>, N);
    v(Op::v_mad_legacy_i16, op16<i16_ternary_zero, mad_u16>, N);
    v(Op::v_mad_u32_u16, op16<i16_mad_32, mad_u32_u16>, N);
    v(Op::v_mad_i32_i16, op16<i16_mad_32, mad_i32_i16>, N);

    // Packed (VOP3P).
    v(Op::v_pk_add_f16, packed16<2, true, add_f16>, H);
    v(Op::v_pk_mul_f16, packed16<2, true, mul_f16>, H);
    v(Op::v_pk_fma_f16, packed16<3, true, fma_f16>, H);
    v(Op::v_pk_min_f16, packed16<2, true, pick_f16<fp::min_num>>, H);
    v(Op::v_pk_max_f16, packed16<2, true, pick_f16<fp::max_num>>, H);
    v(Op::v_pk_add_u16, packed16<2, false, add_u16>, N);
    v(Op::v_pk_add_i16, packed16<2, false, add_u16>, N);
    v(Op::v_pk_sub_u16, packed16<2, false, sub_u16>, N);
    v(Op::v_pk_sub_i16, packed16<2, false, sub_u16>, N);
    set_saturating(t, Op::v_pk_add_u16, packed16<2, false, add_u16_saturating, true>);
    set_saturating(t, Op::v_pk_add_i16, packed16<2, false, add_i16_saturating, true>);
    set_saturating(t, Op::v_pk_sub_u16, packed16<2, false, sub_u16_saturating, true>);
    set_saturating(t, Op::v_pk_sub_i16, packed16<2, false, sub_i16_saturating, true>);
    v(Op::v_pk_mul_lo_u16, packed16<2, false, mul_lo_u16>, N);
    v(Op::v_pk_lshlrev_b16, packed16<2, false, lshlrev_b16>, N);
    v(Op::v_pk_lshrrev_b16, packed16<2, false, lshrrev_b16>, N);
    v(Op::v_pk_ashrrev_i16, packed16<2, false, ashrrev_i16>, N);
    v(Op::v_pk_min_u16, packed16<2, false, min16<u16>>, N);
    v(Op::v_pk_max_u16, packed16<2, false, max16<u16>>, N);
    v(Op::v_pk_min_i16, packed16<2, false, min16<i16>>, N);
    v(Op::v_pk_max_i16, packed16<2, false, max16<i16>>, N);
    v(Op::v_pk_mad_u16, packed16<3, false, mad_u16>, N);
    v(Op::v_pk_mad_i16, packed16<3, false, mad_u16>, N);

    v(Op::v_fma_mix_f32, fma_mix<MixResult::f32>, H);
    v(Op::v_mad_mix_f32, mad_mix<MixResult::f32>, H);
    v(Op::v_mad_mixlo_f16, mad_mix<MixResult::f16_low>, H);
    v(Op::v_mad_mixhi_f16, mad_mix<MixResult::f16_high>, H);
    set(t, Op::v_pk_fmac_f16, pk_fmac_f16, InstClass::valu, H, Accumulator::destination);
    v(Op::v_div_fixup_f16, op16<f16_ternary_zero, div_fixup_f16>, H);
    v(Op::v_div_fixup_legacy_f16, op16<f16_ternary_zero, div_fixup_f16>, H);
    v(Op::v_fma_mixlo_f16, fma_mix<MixResult::f16_low>, H);
    v(Op::v_fma_mixhi_f16, fma_mix<MixResult::f16_high>, H);

    // Compares.
    register_compares<f16_compare, f16_compare_exec, relation_f16>(t, f16_compares, H, std::make_index_sequence<16>{});
    register_compares<i16_compare, i16_compare_exec, relation_int<i16>>(t, i16_compares, N,
                                                                        std::make_index_sequence<8>{});
    register_compares<i16_compare, i16_compare_exec, relation_int<u16>>(t, u16_compares, N,
                                                                        std::make_index_sequence<8>{});
    v(Op::v_cmp_class_f16, op16<f16_class, class_f16>, N);
    v(Op::v_cmpx_class_f16, op16<f16_class_exec, class_f16>, N);
}

}  // namespace dppgemm::emu::sem
