// Packed-data and media VALU ops: the dot products (v_dot* VOP3P from
// gfx906, v_dot*c VOP2 from gfx908) over packed halves, 16-bit, 8-bit and
// 4-bit integers; the packing conversions (v_cvt_pknorm_*,
// v_cvt_pk_{u16_u32,i16_i32}, v_cvt_pk_u8_f32, v_cvt_pkaccum_u8_f32); and the
// media ops on bytes, nibbles and 16-bit values (v_sad_*, v_msad_u8,
// v_qsad/mqsad*, v_lerp_u8, v_cube*, v_add/sub_i16, v_cvt_norm_*).
// Pseudocode quoted from the Vega ISA guide ("VOP1", "VOP3", "VOP3P" opcode
// tables) and the MI100 (CDNA1) guide for the dot*c forms.

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "emu/exec/semantics.hpp"
#include "emu/util.hpp"

namespace dppgemm::emu::sem {
namespace {

constexpr std::uint8_t raw_bits = ST_ABS | ST_NEG | ST_FLUSH;

// ---- dot products ---------------------------------------------------------------
//
// V_DOT2_F32_F16: D.f = S0.f16[0] * S1.f16[0] + S0.f16[1] * S1.f16[1] + S2.f
// V_DOT2_{I32_I16,U32_U16}, V_DOT4_{I32_I8,U32_U8}, V_DOT8_{I32_I4,U32_U4}:
//   D = sum over the elements of S0[k] * S1[k], plus S2 (signed or unsigned)
// The *c forms (VOP2, gfx908+) accumulate into D: "D = dot(S0, S1) + D".
// Integer sums wrap modulo 2^32 unless clamp saturates them. The f16 products
// are exact; their sum with S2 is formed in 113-bit precision (exact unless
// S2 lies more than ~60 binades away) and rounded once to f32. VOP3P op_sel /
// op_sel_hi pick the half of each source that gives element 0 / element 1 of
// dot2 (neg_lo/neg_hi negate them for f16); the 8- and 4-bit forms take no
// selection.

enum class Dot : std::uint8_t { f32_f16, i32_i16, u32_u16, i32_i8, u32_u8, i32_i4, u32_u4 };

constexpr unsigned element_bits(Dot d) {
    return d == Dot::i32_i8 || d == Dot::u32_u8 ? 8 : d == Dot::i32_i4 || d == Dot::u32_u4 ? 4 : 16;
}
constexpr bool is_signed(Dot d) { return d == Dot::i32_i16 || d == Dot::i32_i8 || d == Dot::i32_i4; }

double half_value(u32 h) {
    const int exponent = int((h >> 10) & 0x1f), mantissa = int(h & 0x3ff);
    const double sign = (h & 0x8000) ? -1.0 : 1.0;
    if (exponent == 0x1f) return mantissa ? std::numeric_limits<double>::quiet_NaN() : sign * INFINITY;
    if (exponent == 0) return sign * std::ldexp(double(mantissa), -24);
    return sign * std::ldexp(double(mantissa | 0x400), exponent - 25);
}

template <Dot D>
void dot(Wave& w, const ExecInst& e) {
    const Inst& inst = *e.inst;
    const bool vop3p = inst.info().family == Family::VOP3P;
    if (vop3p && element_bits(D) != 16 && (inst.mods.op_sel != 0 || (inst.mods.op_sel_hi & 3) != 3))
        fail(FaultKind::not_implemented, "op_sel on a v_dot4/v_dot8 source is not implemented");
    alignas(64) Lanes t0, t1, t2, out;
    const u32* s0 = fetch(w, e, 0, t0, 0, raw_bits);
    const u32* s1 = fetch(w, e, 1, t1, 0, raw_bits);
    const u32* s2 = fetch(w, e, 2, t2, 0, D == Dot::f32_f16 ? std::uint8_t(ST_FLUSH) : raw_bits);
    // f32_f16: the f16 elements flush under the fp16/fp64 mode, S2 under the fp32 mode, as the wave's MODE
    // says (a VOP3P op has no source transforms); the result per flush_out.
    const bool flush_halves = flushes_inputs(denorm_16_64(w)), flush_s2 = flushes_inputs(denorm_32(w));
    // dot2 element k of source i: the half op_sel (k = 0) / op_sel_hi (k = 1) picks.
    auto half_shift = [&](unsigned i, unsigned k) -> unsigned {
        if (!vop3p) return 16 * k;
        return 16 * (((k == 0 ? inst.mods.op_sel : inst.mods.op_sel_hi) >> i) & 1);
    };
    auto negated = [&](unsigned i, unsigned k) -> bool {
        return vop3p && (((k == 0 ? inst.mods.neg : inst.mods.neg_hi) >> i) & 1);
    };
    for (unsigned l = 0; l < 64; ++l) {
        if constexpr (D == Dot::f32_f16) {
            const float c = fp::as_float(flush_s2 ? fp::flush(s2[l]) : s2[l]);
            __float128 sum = c;
            bool nan = std::isnan(c);
            for (unsigned k = 0; k < 2; ++k) {
                u32 a = ((s0[l] >> half_shift(0, k)) & 0xffff) ^ (negated(0, k) ? 0x8000 : 0);
                u32 b = ((s1[l] >> half_shift(1, k)) & 0xffff) ^ (negated(1, k) ? 0x8000 : 0);
                if (flush_halves) a = flush16(a), b = flush16(b);
                const double p = half_value(a) * half_value(b);
                nan = nan || std::isnan(p);
                sum += p;
            }
            const u32 r = nan ? fp::quiet_nan : fp::as_bits(float(sum));
            out[l] = e.flush_out ? fp::flush(r) : r;
        } else {
            constexpr unsigned bits = element_bits(D), count = 32 / bits;
            i64 sum = is_signed(D) ? i64(i32(s2[l])) : i64(s2[l]);
            for (unsigned k = 0; k < count; ++k) {
                const unsigned sa = bits == 16 ? half_shift(0, k) : bits * k,
                               sb = bits == 16 ? half_shift(1, k) : bits * k;
                const u32 mask = (1u << bits) - 1;
                u32 a = (s0[l] >> sa) & mask, b = (s1[l] >> sb) & mask;
                if (is_signed(D)) {
                    const i64 x = i64(i32(a << (32 - bits)) >> (32 - bits)),
                              y = i64(i32(b << (32 - bits)) >> (32 - bits));
                    sum += x * y;
                } else {
                    sum += i64(a) * i64(b);
                }
            }
            if (inst.clamp) {
                if (is_signed(D)) sum = std::min<i64>(std::max<i64>(sum, INT32_MIN), INT32_MAX);
                else sum = std::min<i64>(std::max<i64>(sum, 0), UINT32_MAX);
            }
            out[l] = u32(sum);
        }
    }
    if (D == Dot::f32_f16) return commit_vdst(w, e, out);  // clamp: the f32 output modifier
    commit(vreg(w, e.dst), out, write_lanes(w, e));
}

// ---- packing conversions ---------------------------------------------------------

// flt32_to_snorm16 / unorm16 / uint8: clamp to the range, scale, round to
// nearest even; NaN gives 0.
i32 to_snorm16(double x) {
    return std::isnan(x) ? 0 : i32(std::nearbyint(std::fmin(std::fmax(x, -1.0), 1.0) * 32767.0));
}
u32 to_unorm16(double x) {
    return std::isnan(x) ? 0 : u32(std::nearbyint(std::fmin(std::fmax(x, 0.0), 1.0) * 65535.0));
}
u32 to_uint8(double x) { return std::isnan(x) ? 0 : u32(std::nearbyint(std::fmin(std::fmax(x, 0.0), 255.0))); }

// V_CVT_PKNORM_{I16,U16}_F32: "D = {flt32_to_xnorm16(S1.f), flt32_to_xnorm16(S0.f)}".
// The _F16 forms (VOP3 with op_sel) read an f16 from the half op_sel picks,
// flushed under the fp16/fp64 mode (the _F32 forms' flush: ST_FLUSH).
template <bool Signed, bool HalfSources>
void cvt_pknorm(Wave& w, const ExecInst& e) {
    alignas(64) Lanes t0, t1, out;
    const u32* s0 = fetch(w, e, 0, t0, 0, HalfSources ? raw_bits : 0);
    const u32* s1 = fetch(w, e, 1, t1, 0, HalfSources ? raw_bits : 0);
    const Inst& inst = *e.inst;
    const bool flush_halves = HalfSources && flushes_inputs(denorm_16_64(w));
    auto value = [&](const u32* s, unsigned i, unsigned l) -> double {
        if (!HalfSources) return fp::as_float(s[l]);
        u32 h = (s[l] >> (16 * ((inst.mods.op_sel >> i) & 1))) & 0xffff;
        if ((inst.mods.abs >> i) & 1) h &= 0x7fff;
        if ((inst.mods.neg >> i) & 1) h ^= 0x8000;
        return half_value(flush_halves ? flush16(h) : h);
    };
    for (unsigned l = 0; l < 64; ++l) {
        const double a = value(s0, 0, l), b = value(s1, 1, l);
        const u32 lo = Signed ? u32(to_snorm16(a)) & 0xffff : to_unorm16(a);
        const u32 hi = Signed ? u32(to_snorm16(b)) & 0xffff : to_unorm16(b);
        out[l] = lo | hi << 16;
    }
    commit(vreg(w, e.dst), out, write_lanes(w, e));
}

// V_CVT_PK_U16_U32: "D = {uint32_to_uint16(S1.u), uint32_to_uint16(S0.u)}" (saturating);
// V_CVT_PK_I16_I32 likewise with signed saturation.
template <bool Signed>
void cvt_pk_16_32(Wave& w, const ExecInst& e) {
    alignas(64) Lanes t0, t1, out;
    const u32* s0 = fetch(w, e, 0, t0);
    const u32* s1 = fetch(w, e, 1, t1);
    auto saturate = [](u32 x) -> u32 {
        if (Signed) return u32(std::min<i32>(std::max<i32>(i32(x), -32768), 32767)) & 0xffff;
        return std::min<u32>(x, 0xffff);
    };
    for (unsigned l = 0; l < 64; ++l) out[l] = saturate(s0[l]) | saturate(s1[l]) << 16;
    commit(vreg(w, e.dst), out, write_lanes(w, e));
}

// V_CVT_PK_U8_F32: "D.u = (flt32_to_uint8(S0.f) << (8 * S1.u[1:0])) | (S2.u &
// ~(0xff << (8 * S1.u[1:0])))"; V_CVT_PKACCUM_U8_F32 is the same with D in
// place of S2 (Semantic::src2_is_dst).
void cvt_pk_u8_f32(Wave& w, const ExecInst& e) {
    alignas(64) Lanes t0, t1, t2, out;
    const u32* s0 = fetch(w, e, 0, t0);
    const u32* s1 = fetch(w, e, 1, t1);
    const u32* s2 = fetch(w, e, 2, t2);
    for (unsigned l = 0; l < 64; ++l) {
        const unsigned shift = 8 * (s1[l] & 3);
        out[l] = (to_uint8(fp::as_float(s0[l])) << shift) | (s2[l] & ~(0xffu << shift));
    }
    commit(vreg(w, e.dst), out, write_lanes(w, e));
}

// ---- byte and nibble integer ops (Vega ISA VOP1/VOP3) -----------------------------

template <u32 (*F)(u32, u32, u32)>
void lanes3(Wave& w, const ExecInst& e) {
    alignas(64) Lanes t[3], out;
    const u32* src[3];
    for (unsigned i = 0; i < 3; ++i) {
        if (e.src[i].kind == Src::Kind::none) {
            std::memset(t[i], 0, sizeof(Lanes));
            src[i] = t[i];
        } else {
            src[i] = fetch(w, e, i, t[i]);
        }
    }
    for (unsigned l = 0; l < 64; ++l) out[l] = F(src[0][l], src[1][l], src[2][l]);
    // An f32 result (v_cube*, v_cvt_off_f32_i4) under a result-flushing fp32 mode: flush_out.
    if (e.flush_out && !e.output_modifiers) apply_output_modifiers(e, out);
    commit_vdst(w, e, out);
}
u32 byte_of(u32 x, unsigned k) { return (x >> (8 * k)) & 0xff; }
// V_SAD_U8: "D.u = abs(S0.i[31:24] - S1.i[31:24]) + ... + abs(S0.i[7:0] - S1.i[7:0]) + S2.u".
u32 sad_u8(u32 a, u32 b, u32 c) {
    u32 sum = c;
    for (unsigned k = 0; k < 4; ++k) sum += u32(std::abs(int(byte_of(a, k)) - int(byte_of(b, k))));
    return sum;
}
// V_SAD_HI_U8: "D.u = (SAD_U8(S0, S1, 0) << 16) + S2.u".
u32 sad_hi_u8(u32 a, u32 b, u32 c) { return (sad_u8(a, b, 0) << 16) + c; }
// V_SAD_U16: both 16-bit halves.
u32 sad_u16(u32 a, u32 b, u32 c) {
    return c + u32(std::abs(int(a >> 16) - int(b >> 16))) + u32(std::abs(int(a & 0xffff) - int(b & 0xffff)));
}
// V_LERP_U8: per byte "((S0.u[b] + S1.u[b] + S2.u[lowest bit of b]) >> 1)".
u32 lerp_u8(u32 a, u32 b, u32 c) {
    u32 out = 0;
    for (unsigned k = 0; k < 4; ++k) out |= ((byte_of(a, k) + byte_of(b, k) + ((c >> (8 * k)) & 1)) >> 1) << (8 * k);
    return out;
}
// V_CVT_OFF_F32_I4: S0[3:0] as a signed 4-bit integer, over 16 (the ISA's table: 1000 -> -0.5, 0111 -> 0.4375).
u32 cvt_off_f32_i4(u32 a, u32, u32) { return fp::as_bits(float(i32(a << 28) >> 28) * 0.0625f); }
// V_SAT_PK_U8_I16: "D.u = {16'b0, sat8(S0.i[31:16]), sat8(S0.i[15:0])}", sat8 clamping a signed 16-bit value to [0,
// 255].
u32 sat_pk_u8_i16(u32 a, u32, u32) {
    auto sat8 = [](u32 h) { return u32(std::min(std::max(int(std::int16_t(h)), 0), 255)); };
    return sat8(a & 0xffff) | sat8(a >> 16) << 8;
}

// V_MSAD_U8 (RDNA3 ISA pseudocode, the same opcode as gfx9's): as V_SAD_U8, but
// a byte pair adds nothing where S1's byte is 0.
u32 msad_u8(u32 a, u32 b, u32 c) {
    u32 sum = c;
    for (unsigned k = 0; k < 4; ++k)
        if (byte_of(b, k)) sum += u32(std::abs(int(byte_of(a, k)) - int(byte_of(b, k))));
    return sum;
}

// V_QSAD_PK_U16_U8 / V_MQSAD_PK_U16_U8 / V_MQSAD_U32_U8 (RDNA3 ISA pseudocode,
// the same opcodes as gfx9's): four (masked) byte SADs of S1 against the
// windows S0[31:0], S0[39:8], S0[47:16], S0[55:24], each accumulated onto a
// 16-bit (truncated) or 32-bit slice of S2; D is 64 or 128 bits.
template <bool Masked, unsigned SliceBits>
void quad_sad(Wave& w, const ExecInst& e) {
    constexpr unsigned out_dwords = SliceBits / 8;  // 16-bit slices: 2 dwords, 32-bit: 4
    alignas(64) u64 s0[64];
    alignas(64) Lanes t1, t2[4], out[4];
    fetch_wide(w, e, 0, s0);
    const u32* s1 = fetch(w, e, 1, t1);
    const u32* s2[4];
    for (unsigned d = 0; d < out_dwords; ++d) s2[d] = fetch(w, e, 2, t2[d], d);
    for (unsigned l = 0; l < 64; ++l) {
        u32 result[4] = {};
        for (unsigned k = 0; k < 4; ++k) {
            const u32 window = u32(s0[l] >> (8 * k));
            const u32 accumulator = SliceBits == 16 ? (s2[k / 2][l] >> (16 * (k % 2))) & 0xffff : s2[k][l];
            const u32 sad = Masked ? msad_u8(window, s1[l], accumulator) : sad_u8(window, s1[l], accumulator);
            if (SliceBits == 16) result[k / 2] |= (sad & 0xffff) << (16 * (k % 2));
            else result[k] = sad;
        }
        for (unsigned d = 0; d < out_dwords; ++d) out[d][l] = result[d];
    }
    const u64 mask = write_lanes(w, e);
    for (unsigned d = 0; d < out_dwords; ++d) commit(vreg(w, e.dst, d), out[d], mask);
}

// V_CUBEID/CUBESC/CUBETC/CUBEMA_F32 (Vega ISA pseudocode): the cube map face
// of the direction (S0, S1, S2) = (x, y, z), the face coordinates and twice
// the major axis. z is major when |z| >= |x| and |z| >= |y|, else y when
// |y| >= |x|, else x (a NaN compares false: x).
enum class Cube : std::uint8_t { id, sc, tc, ma };
template <Cube C>
u32 cube(u32 xb, u32 yb, u32 zb) {
    const float x = fp::as_float(xb), y = fp::as_float(yb), z = fp::as_float(zb);
    const bool z_major = std::fabs(z) >= std::fabs(x) && std::fabs(z) >= std::fabs(y);
    const bool y_major = !z_major && std::fabs(y) >= std::fabs(x);
    float r;
    switch (C) {
    case Cube::id: r = z_major ? (z < 0 ? 5.0f : 4.0f) : y_major ? (y < 0 ? 3.0f : 2.0f) : (x < 0 ? 1.0f : 0.0f); break;
    case Cube::sc: r = z_major ? (z < 0 ? -x : x) : y_major ? x : (x < 0 ? z : -z); break;
    case Cube::tc: r = z_major ? -y : y_major ? (y < 0 ? -z : z) : -y; break;
    case Cube::ma: r = 2.0f * (z_major ? z : y_major ? y : x); break;
    }
    return fp::as_bits(r);
}

// V_ADD_I16 / V_SUB_I16 (gfx9 VOP3): "D.i16 = S0.i16 +- S1.i16", wrapping, or
// with clamp (Saturating, Semantic::saturating) saturating in the signed
// 16-bit domain, [-32768, 32767], as the other integer adds do in theirs;
// op_sel picks the source halves and the destination half (the other half
// kept, as v_mad_u16).
template <bool Subtract, bool Saturating = false>
void add_sub_i16(Wave& w, const ExecInst& e) {
    const Inst& inst = *e.inst;
    alignas(64) Lanes t0, t1, out;
    const u32* a = fetch(w, e, 0, t0, 0, raw_bits);
    const u32* b = fetch(w, e, 1, t1, 0, raw_bits);
    const unsigned sa = 16 * (inst.mods.op_sel & 1), sb = 16 * ((inst.mods.op_sel >> 1) & 1);
    const bool high = (inst.mods.op_sel >> 3) & 1;
    const u32* old = vreg(w, e.dst);
    for (unsigned l = 0; l < 64; ++l) {
        const i32 x = std::int16_t(a[l] >> sa), y = std::int16_t(b[l] >> sb);
        const i32 exact = Subtract ? x - y : x + y;
        const i32 r = Saturating ? std::clamp(exact, -32768, 32767) : exact;
        const u32 h = u32(r) & 0xffff;
        out[l] = high ? (old[l] & 0xffffu) | h << 16 : (old[l] & 0xffff0000u) | h;
    }
    commit(vreg(w, e.dst), out, write_lanes(w, e));
}

// V_CVT_NORM_I16_F16 / V_CVT_NORM_U16_F16: "D.i16 = flt16_to_snorm16(S0.f16)"
// (unorm16 for U16), the f16 from the op_sel half with abs/neg, flushed under
// the fp16/fp64 mode; high half 0.
template <bool Signed>
void cvt_norm_16_f16(Wave& w, const ExecInst& e) {
    const Inst& inst = *e.inst;
    alignas(64) Lanes t0, out;
    const u32* a = fetch(w, e, 0, t0, 0, raw_bits);
    const bool flush_half = flushes_inputs(denorm_16_64(w));
    for (unsigned l = 0; l < 64; ++l) {
        u32 h = (a[l] >> (16 * (inst.mods.op_sel & 1))) & 0xffff;
        if (inst.mods.abs & 1) h &= 0x7fff;
        if (inst.mods.neg & 1) h ^= 0x8000;
        if (flush_half) h = flush16(h);
        out[l] = Signed ? u32(to_snorm16(half_value(h))) & 0xffff : to_unorm16(half_value(h));
    }
    if (e.sdwa_dst) sdwa_place(vreg(w, e.dst), out, inst);
    commit(vreg(w, e.dst), out, write_lanes(w, e));
}

}  // namespace

void register_media(Table& t) {
    const InstClass V = InstClass::valu;
    auto v = [&](Op op, ExecFn fn) { set(t, op, fn, V); };
    auto accumulating = [&](Op op, ExecFn fn, FloatPolicy fp = FloatPolicy::none) {
        set(t, op, fn, V, fp, Accumulator::destination);
    };
    // The float ops flush their operands as the denorm modes say (the op table's type columns declare which):
    // FloatPolicy::mode through the source transforms and flush_out, FloatPolicy::half where the op reads
    // the fp16 mode itself.
    const FloatPolicy F = FloatPolicy::mode, H = FloatPolicy::half;
    auto f = [&](Op op, ExecFn fn, FloatPolicy fp) { set(t, op, fn, V, fp); };

    f(Op::v_dot2_f32_f16, dot<Dot::f32_f16>, F);
    v(Op::v_dot2_i32_i16, dot<Dot::i32_i16>);
    v(Op::v_dot2_u32_u16, dot<Dot::u32_u16>);
    v(Op::v_dot4_i32_i8, dot<Dot::i32_i8>);
    v(Op::v_dot4_u32_u8, dot<Dot::u32_u8>);
    v(Op::v_dot8_i32_i4, dot<Dot::i32_i4>);
    v(Op::v_dot8_u32_u4, dot<Dot::u32_u4>);
    accumulating(Op::v_dot2c_f32_f16, dot<Dot::f32_f16>, F);
    accumulating(Op::v_dot2c_i32_i16, dot<Dot::i32_i16>);
    accumulating(Op::v_dot4c_i32_i8, dot<Dot::i32_i8>);
    accumulating(Op::v_dot8c_i32_i4, dot<Dot::i32_i4>);

    f(Op::v_cvt_pknorm_i16_f32, cvt_pknorm<true, false>, F);
    f(Op::v_cvt_pknorm_u16_f32, cvt_pknorm<false, false>, F);
    f(Op::v_cvt_pknorm_i16_f16, cvt_pknorm<true, true>, H);
    f(Op::v_cvt_pknorm_u16_f16, cvt_pknorm<false, true>, H);
    v(Op::v_cvt_pk_u16_u32, cvt_pk_16_32<false>);
    v(Op::v_cvt_pk_i16_i32, cvt_pk_16_32<true>);
    f(Op::v_cvt_pk_u8_f32, cvt_pk_u8_f32, F);
    accumulating(Op::v_cvt_pkaccum_u8_f32, cvt_pk_u8_f32, F);

    v(Op::v_sad_u8, lanes3<sad_u8>);
    v(Op::v_sad_hi_u8, lanes3<sad_hi_u8>);
    v(Op::v_sad_u16, lanes3<sad_u16>);
    v(Op::v_lerp_u8, lanes3<lerp_u8>);
    f(Op::v_cvt_off_f32_i4, lanes3<cvt_off_f32_i4>, F);
    v(Op::v_sat_pk_u8_i16, lanes3<sat_pk_u8_i16>);
    v(Op::v_clrexcp, no_effect);  // clears exception bits no instruction here sets
    v(Op::v_msad_u8, lanes3<msad_u8>);
    set(t, Op::v_cubeid_f32, lanes3<cube<Cube::id>>, V, FloatPolicy::mode);
    set(t, Op::v_cubesc_f32, lanes3<cube<Cube::sc>>, V, FloatPolicy::mode);
    set(t, Op::v_cubetc_f32, lanes3<cube<Cube::tc>>, V, FloatPolicy::mode);
    set(t, Op::v_cubema_f32, lanes3<cube<Cube::ma>>, V, FloatPolicy::mode);
    v(Op::v_qsad_pk_u16_u8, quad_sad<false, 16>);
    v(Op::v_mqsad_pk_u16_u8, quad_sad<true, 16>);
    v(Op::v_mqsad_u32_u8, quad_sad<true, 32>);
    v(Op::v_add_i16, add_sub_i16<false>);
    v(Op::v_sub_i16, add_sub_i16<true>);
    set_saturating(t, Op::v_add_i16, add_sub_i16<false, true>);
    set_saturating(t, Op::v_sub_i16, add_sub_i16<true, true>);
    f(Op::v_cvt_norm_i16_f16, cvt_norm_16_f16<true>, H);
    f(Op::v_cvt_norm_u16_f16, cvt_norm_16_f16<false>, H);
}

}  // namespace dppgemm::emu::sem
