// IEEE division and square root as compilers expand them: v_div_scale,
// v_div_fmas, v_div_fixup (f32 and f64), and the f64 operations those
// sequences (and the f64 sqrt sequence) use: v_rcp/v_rsq/v_sqrt_f64,
// v_ldexp_f64, v_frexp_*_f64, v_cmp(x)_*_f64 and v_cmp(x)_class_f64.
//
// The expansion (LLVM's, for a / b):
//   d' = div_scale(b, b, a)            scaled denominator
//   n' = div_scale(a, b, a) -> VCC     scaled numerator; VCC: the quotient needs post-scaling
//   r  = rcp(d'), two Newton-Raphson steps with fma, q' ~ n'/d', residual e = n' - d'*q'
//   q  = div_fmas(e, r, q')            fma, then undo the scaling when VCC says so
//   a / b = div_fixup(q, b, a)         zeros, infinities, NaN, underflow
//
// Semantics (ISA pseudo-code of the gfx9/CDNA manuals, with the two places
// where the pseudo-code cannot be what the hardware does made consistent;
// see the functions):
// - v_div_scale scales by 2^64 (f32) / 2^128 (f64) so that no term of the
//   Newton-Raphson steps is denormal, and sets VCC when the quotient itself
//   was scaled (denominator up for a huge quotient, numerator up for a
//   denormal one).
// - v_div_fmas, VCC set: one rounding of 2^+-64 * (a * b + c) (2^+-128 for
//   f64), the sign chosen by the magnitude of c (the scaled quotient: huge
//   means it was scaled down). One rounding matters for denormal results:
//   rounding the fma first and scaling after would round twice.
// - v_div_fixup: the special cases in the manual's order; an underflowing
//   quotient gives a signed zero (what round-to-nearest gives), a NaN
//   quotient reaching the end an infinity.
// Denormals: div_scale/div_fixup follow the fp32 denorm mode like other fp32
// ops; div_fmas never flushes its inputs (the manual: "input denormals are
// not flushed but output flushing is allowed"). f64 operands follow the
// fp16/fp64 denorm mode (MODE[7:6]) the same way.

#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "emu/exec/semantics.hpp"
#include "emu/util.hpp"

namespace dppgemm::emu::sem {
namespace {

// ---- formats ----------------------------------------------------------------

template <class T>
struct Ieee;
template <>
struct Ieee<float> {
    using Bits = u32;
    using Wide = double;  // holds a product of two floats exactly
    static constexpr int mantissa_bits = 23, exponent_max = 255, bias = 127;
    static constexpr int scale = 64;            // div_scale / div_fmas factor 2^scale
    static constexpr int huge_gap = 96;         // exponent(n) - exponent(d) of a quotient near overflow
    static constexpr int tiny_numerator = 23;   // numerator exponent field at or below which both are scaled up
    static constexpr int underflow_gap = -150;  // exponent difference of a quotient that rounds to zero
    static constexpr Bits default_nan = 0xffc00000u;
};
template <>
struct Ieee<double> {
    using Bits = u64;
    using Wide = __float128;  // 113-bit significand: a product of two doubles exactly
    static constexpr int mantissa_bits = 52, exponent_max = 2047, bias = 1023;
    static constexpr int scale = 128, huge_gap = 768, tiny_numerator = 53, underflow_gap = -1075;
    static constexpr Bits default_nan = 0xfff8000000000000ull;
};

template <class T>
using BitsOf = typename Ieee<T>::Bits;
template <class T>
constexpr BitsOf<T> sign_bit = BitsOf<T>(1) << (8 * sizeof(T) - 1);
template <class T>
constexpr BitsOf<T> quiet_bit = BitsOf<T>(1) << (Ieee<T>::mantissa_bits - 1);

template <class T>
T value(BitsOf<T> bits) {
    return fp::bit_cast<T>(bits);
}
template <class T>
BitsOf<T> bits(T x) {
    return fp::bit_cast<BitsOf<T>>(x);
}
// The biased exponent field (0: zero or denormal, exponent_max: infinity or NaN).
template <class T>
int exponent(BitsOf<T> b) {
    return int((b >> Ieee<T>::mantissa_bits) & Ieee<T>::exponent_max);
}
template <class T>
bool is_zero(BitsOf<T> b) {
    return (b & ~sign_bit<T>) == 0;
}
template <class T>
bool is_denormal(BitsOf<T> b) {
    return exponent<T>(b) == 0 && !is_zero<T>(b);
}
template <class T>
bool is_nan(BitsOf<T> b) {
    return std::isnan(value<T>(b));
}
template <class T>
bool is_inf(BitsOf<T> b) {
    return std::isinf(value<T>(b));
}
template <class T>
BitsOf<T> scaled(BitsOf<T> b, int power) {
    return bits(std::ldexp(value<T>(b), power));
}
// |x| below the smallest normal, computed without rounding to T first.
template <class T>
bool below_normal(typename Ieee<T>::Wide x) {
    const typename Ieee<T>::Wide min_normal = std::ldexp(1.0, 1 - Ieee<T>::bias);
    return x < min_normal && -x < min_normal;
}

// ---- the three division steps -------------------------------------------------

struct Scaled {
    u64 value;
    bool post_scale;  // the VCC bit
};

// v_div_scale: s0 is the operand to scale (s1 or s2), s1 the denominator,
// s2 the numerator. The manual's chain, except for a huge denominator with
// a denormal quotient, where the manual scales the denominator up (to
// infinity: |d| > 2^126 already); here it is scaled down, like a huge
// denominator alone, which scales the quotient up as the VCC bit promises.
template <class T>
Scaled div_scale(BitsOf<T> s0, BitsOf<T> s1, BitsOf<T> s2) {
    using W = typename Ieee<T>::Wide;
    constexpr int up = Ieee<T>::scale;
    if (is_zero<T>(s1) || is_zero<T>(s2)) return {Ieee<T>::default_nan, false};
    const int e1 = exponent<T>(s1), e2 = exponent<T>(s2);
    if (e2 - e1 >= Ieee<T>::huge_gap) return {s0 == s1 ? scaled<T>(s0, up) : s0, true};
    if (e1 == 0) return {scaled<T>(s0, up), false};  // denormal denominator: both up, quotient unchanged
    const W d = W(value<T>(s1)), n = W(value<T>(s2));
    const bool reciprocal_denormal = below_normal<T>(W(1) / d);
    const bool quotient_denormal = below_normal<T>(n / d);
    if (reciprocal_denormal && quotient_denormal) return {s0 == s1 ? scaled<T>(s0, -up) : s0, true};
    if (reciprocal_denormal) return {scaled<T>(s0, -up), false};
    if (quotient_denormal) return {s0 == s2 ? scaled<T>(s0, up) : s0, true};
    if (e2 <= Ieee<T>::tiny_numerator) return {scaled<T>(s0, up), false};
    return {s0, false};
}

// x rounded to odd (truncated, last bit set when inexact): rounding that to
// a format at least two bits narrower equals rounding x there directly.
template <class W>
W multiply_add_round_to_odd(W a, W b, W c) {
    const W product = a * b;  // exact: the operands have at most half of W's bits
    const W sum = product + c;
    const W b_part = sum - product;  // Knuth's two-sum: sum + error == product + c exactly
    const W error = (product - (sum - b_part)) + (c - b_part);
    if (error == 0) return sum;
    using WBits = std::conditional_t<sizeof(W) == 8, u64, unsigned __int128>;
    const WBits b_sum = fp::bit_cast<WBits>(sum);
    if (b_sum & 1) return sum;
    const bool away_from_zero = (error > 0) == (sum > 0);
    return fp::bit_cast<W>(away_from_zero ? WBits(b_sum + 1) : WBits(b_sum - 1));
}

// v_div_fmas: fma(a, b, c); with the VCC bit set, scaled by 2^+-scale in the
// same rounding (c is the scaled quotient: |c| >= 2 means it was scaled down).
template <class T>
BitsOf<T> div_fmas(BitsOf<T> a, BitsOf<T> b, BitsOf<T> c, bool post_scale) {
    using W = typename Ieee<T>::Wide;
    const T plain = std::fma(value<T>(a), value<T>(b), value<T>(c));
    if (!post_scale || !std::isfinite(plain)) return bits(plain);
    const int power = exponent<T>(c) > Ieee<T>::bias ? Ieee<T>::scale : -Ieee<T>::scale;
    const W odd = multiply_add_round_to_odd<W>(W(value<T>(a)), W(value<T>(b)), W(value<T>(c)));
    return bits(T(odd * W(std::ldexp(1.0, power))));  // the scaling is exact in W: one rounding, here
}

// v_div_fixup: q the quotient, d the denominator, n the numerator.
template <class T>
BitsOf<T> div_fixup(BitsOf<T> q, BitsOf<T> d, BitsOf<T> n) {
    const BitsOf<T> sign = (d ^ n) & sign_bit<T>;
    const BitsOf<T> infinity = bits(std::numeric_limits<T>::infinity());
    if (is_nan<T>(n)) return n | quiet_bit<T>;
    if (is_nan<T>(d)) return d | quiet_bit<T>;
    if ((is_zero<T>(d) && is_zero<T>(n)) || (is_inf<T>(d) && is_inf<T>(n))) return Ieee<T>::default_nan;
    if (is_zero<T>(d) || is_inf<T>(n)) return sign | infinity;
    if (is_inf<T>(d) || is_zero<T>(n)) return sign;
    if (exponent<T>(n) - exponent<T>(d) < Ieee<T>::underflow_gap) return sign;
    if (is_nan<T>(q)) return sign | infinity;
    return sign | (q & ~sign_bit<T>);
}

// ---- lanes ----------------------------------------------------------------------

// Source i of every lane as raw T bits, abs/neg applied to T's sign bit
// (f32 and f64 sources also get the denorm-mode flush unless `keep_denormals`).
template <class T>
void source(Wave& w, const ExecInst& e, unsigned i, BitsOf<T>* out, bool keep_denormals = false) {
    alignas(64) Lanes lo_tmp, hi_tmp;
    if constexpr (sizeof(T) == 4) {
        const u32* lanes = fetch(w, e, i, lo_tmp, 0, keep_denormals ? ST_FLUSH : 0);
        std::memcpy(out, lanes, sizeof(Lanes));
    } else {
        const Src& s = e.src[i];
        const std::uint8_t raw = ST_ABS | ST_NEG | ST_FLUSH | ST_FLUSH64;
        if (s.is_vector()) {
            const u32* lo = fetch(w, e, i, lo_tmp, 0, raw);
            const u32* hi = fetch(w, e, i, hi_tmp, 1, raw);
            for (unsigned l = 0; l < 64; ++l) out[l] = lo[l] | (u64(hi[l]) << 32);
        } else {
            const u64 v = read64(w, s);
            for (unsigned l = 0; l < 64; ++l) out[l] = v;
        }
        const u64 clear = (e.transform[i] & ST_ABS) ? ~sign_bit<double> : ~u64(0);
        const u64 flip = (e.transform[i] & ST_NEG) ? sign_bit<double> : 0;
        const bool flush = (e.transform[i] & ST_FLUSH64) && !keep_denormals;
        for (unsigned l = 0; l < 64; ++l)
            out[l] = ((flush && is_denormal<double>(out[l]) ? out[l] & sign_bit<double> : out[l]) & clear) ^ flip;
    }
}

template <class T>
void result(Wave& w, const ExecInst& e, BitsOf<T>* value) {
    if constexpr (sizeof(T) == 4) {
        commit_vdst(w, e, value);
    } else {
        alignas(64) Lanes lo, hi;
        if (e.flush_out)  // an f64 result under the fp64 denorm mode
            for (unsigned l = 0; l < 64; ++l)
                if (is_denormal<double>(value[l])) value[l] &= sign_bit<double>;
        for (unsigned l = 0; l < 64; ++l) lo[l] = u32(value[l]), hi[l] = u32(value[l] >> 32);
        const u64 mask = write_lanes(w, e);
        commit(vreg(w, e.dst, 0), lo, mask);
        commit(vreg(w, e.dst, 1), hi, mask);
    }
}

template <class T>
void v_div_scale(Wave& w, const ExecInst& e) {
    alignas(64) BitsOf<T> s0[64], s1[64], s2[64], out[64];
    source<T>(w, e, 0, s0);
    source<T>(w, e, 1, s1);
    source<T>(w, e, 2, s2);
    u64 vcc = 0;
    for (unsigned l = 0; l < 64; ++l) {
        const Scaled r = div_scale<T>(s0[l], s1[l], s2[l]);
        out[l] = BitsOf<T>(r.value);
        vcc |= u64(r.post_scale) << l;
    }
    const u64 lanes = write_lanes(w, e);
    result<T>(w, e, out);
    write_sdst(w, e.sdst, vcc & lanes);
}

template <class T>
void v_div_fmas(Wave& w, const ExecInst& e) {
    alignas(64) BitsOf<T> a[64], b[64], c[64], out[64];
    source<T>(w, e, 0, a, true);
    source<T>(w, e, 1, b, true);
    source<T>(w, e, 2, c, true);
    const u64 vcc = w.vcc();
    for (unsigned l = 0; l < 64; ++l) out[l] = div_fmas<T>(a[l], b[l], c[l], (vcc >> l) & 1);
    result<T>(w, e, out);
}

// A per-lane function of three T sources (unused ones read as they are).
template <class T, BitsOf<T> (*F)(BitsOf<T>, BitsOf<T>, BitsOf<T>), unsigned Sources>
void lanes_of(Wave& w, const ExecInst& e) {
    alignas(64) BitsOf<T> s[3][64] = {}, out[64];
    for (unsigned i = 0; i < Sources; ++i) source<T>(w, e, i, s[i]);
    for (unsigned l = 0; l < 64; ++l) out[l] = F(s[0][l], s[1][l], s[2][l]);
    result<T>(w, e, out);
}

// ---- f64 operations of the division and sqrt sequences ------------------------

// Host results (correctly rounded, or one libm rounding away for rsq): the
// hardware's rcp/rsq are approximations, which the sequences refine.
u64 rcp_f64(u64 a, u64, u64) { return bits(1.0 / value<double>(a)); }
u64 rsq_f64(u64 a, u64, u64) { return bits(1.0 / std::sqrt(value<double>(a))); }
u64 sqrt_f64(u64 a, u64, u64) { return bits(std::sqrt(value<double>(a))); }
u64 ldexp_f64(u64 a, u64 b, u64) { return bits(std::ldexp(value<double>(a), i32(u32(b)))); }
u64 frexp_mant_f64(u64 a, u64, u64) {
    const double x = value<double>(a);
    if (!std::isfinite(x)) return a;
    int e;
    return bits(std::frexp(x, &e));
}
u64 div_fixup_f64(u64 q, u64 d, u64 n) { return div_fixup<double>(q, d, n); }
u32 div_fixup_f32(u32 q, u32 d, u32 n) { return div_fixup<float>(q, d, n); }

// v_frexp_exp_i32_f64: a 32-bit result from an f64 source.
void frexp_exp_f64(Wave& w, const ExecInst& e) {
    alignas(64) u64 a[64];
    alignas(64) Lanes out;
    source<double>(w, e, 0, a);
    for (unsigned l = 0; l < 64; ++l) {
        const double x = value<double>(a[l]);
        int exp = 0;
        if (std::isfinite(x)) std::frexp(x, &exp);
        out[l] = u32(exp);
    }
    commit_vdst(w, e, out);
}

// v_cmp_class_f64 mask bits, as fp::float_class.
u32 double_class(double x) {
    const bool negative = std::signbit(x);
    if (std::isnan(x)) return (bits(x) & quiet_bit<double>) ? 2u : 1u;
    if (std::isinf(x)) return negative ? 4u : 512u;
    if (x == 0.0) return negative ? 32u : 64u;
    if (is_denormal<double>(bits(x))) return negative ? 16u : 128u;
    return negative ? 8u : 256u;
}

// f64 compares: the IEEE relation of a and b, negated for the "n" forms.
enum Relation : unsigned { LT = 1, EQ = 2, GT = 4, UNORDERED = 8 };
template <unsigned TrueFor>
bool compare(u64 a, u64 b) {
    const double x = value<double>(a), y = value<double>(b);
    const unsigned relation = (std::isnan(x) || std::isnan(y)) ? UNORDERED : x < y ? LT : x > y ? GT : EQ;
    return (relation & TrueFor) != 0;
}
bool class_f64(u64 a, u64 mask) { return (double_class(value<double>(a)) & u32(mask)) != 0; }

template <bool (*F)(u64, u64), bool WriteExec>
void compare_f64(Wave& w, const ExecInst& e) {
    alignas(64) u64 a[64], b[64];
    source<double>(w, e, 0, a);
    if (F == class_f64) {  // the class mask is a 32-bit integer operand
        alignas(64) Lanes tmp;
        const u32* mask = fetch(w, e, 1, tmp);
        for (unsigned l = 0; l < 64; ++l) b[l] = mask[l];
    } else {
        source<double>(w, e, 1, b);
    }
    u64 result = 0;
    for (unsigned l = 0; l < 64; ++l) result |= u64(F(a[l], b[l])) << l;
    result &= write_lanes(w, e);  // inactive lanes write 0
    write_sdst(w, e.sdst.kind != Src::Kind::none ? e.sdst : e.dst, result);
    if (WriteExec) w.set_exec(result);
}

}  // namespace

void register_divide(Table& t) {
    const InstClass V = InstClass::valu;
    const FloatPolicy F = FloatPolicy::mode;
    auto v = [&](Op op, ExecFn fn, FloatPolicy fp = FloatPolicy::none) { set(t, op, fn, V, fp); };

    v(Op::v_div_scale_f32, v_div_scale<float>, F);
    v(Op::v_div_scale_f64, v_div_scale<double>, F);
    v(Op::v_div_fmas_f32, v_div_fmas<float>, F);
    v(Op::v_div_fmas_f64, v_div_fmas<double>, F);
    v(Op::v_div_fixup_f32, lanes_of<float, div_fixup_f32, 3>, F);
    v(Op::v_div_fixup_f64, lanes_of<double, div_fixup_f64, 3>, F);
    v(Op::v_rcp_f64, lanes_of<double, rcp_f64, 1>, F);
    v(Op::v_rsq_f64, lanes_of<double, rsq_f64, 1>, F);
    v(Op::v_sqrt_f64, lanes_of<double, sqrt_f64, 1>, F);
    v(Op::v_frexp_mant_f64, lanes_of<double, frexp_mant_f64, 1>, F);
    v(Op::v_frexp_exp_i32_f64, frexp_exp_f64, F);

    // v_ldexp_f64: the exponent is a 32-bit integer source.
    v(
        Op::v_ldexp_f64,
        [](Wave& w, const ExecInst& e) {
            alignas(64) u64 a[64], out[64];
            alignas(64) Lanes tmp;
            source<double>(w, e, 0, a);
            const u32* power = fetch(w, e, 1, tmp);
            for (unsigned l = 0; l < 64; ++l) out[l] = ldexp_f64(a[l], power[l], 0);
            result<double>(w, e, out);
        },
        F);

#define DPPGEMM_CMP_F64(suffix, relations)                                  \
    v(Op::v_cmp_##suffix##_f64, compare_f64<compare<relations>, false>, F); \
    v(Op::v_cmpx_##suffix##_f64, compare_f64<compare<relations>, true>, F);
    DPPGEMM_CMP_F64(f, 0)
    DPPGEMM_CMP_F64(lt, LT)
    DPPGEMM_CMP_F64(eq, EQ)
    DPPGEMM_CMP_F64(le, LT | EQ)
    DPPGEMM_CMP_F64(gt, GT)
    DPPGEMM_CMP_F64(lg, LT | GT)
    DPPGEMM_CMP_F64(ge, GT | EQ)
    DPPGEMM_CMP_F64(o, LT | EQ | GT)
    DPPGEMM_CMP_F64(u, UNORDERED)
    DPPGEMM_CMP_F64(nge, LT | UNORDERED)
    DPPGEMM_CMP_F64(nlg, EQ | UNORDERED)
    DPPGEMM_CMP_F64(ngt, LT | EQ | UNORDERED)
    DPPGEMM_CMP_F64(nle, GT | UNORDERED)
    DPPGEMM_CMP_F64(neq, LT | GT | UNORDERED)
    DPPGEMM_CMP_F64(nlt, GT | EQ | UNORDERED)
    DPPGEMM_CMP_F64(tru, LT | EQ | GT | UNORDERED)
#undef DPPGEMM_CMP_F64
    v(Op::v_cmp_class_f64, compare_f64<class_f64, false>);
    v(Op::v_cmpx_class_f64, compare_f64<class_f64, true>);
}

}  // namespace dppgemm::emu::sem
