// f64 VALU ops beyond arithmetic: rounding (v_floor/ceil/trunc/rndne/fract_f64),
// v_fmac_f64 (gfx90a+) and v_trig_preop_f64. Pseudocode quoted from the Vega
// ISA guide ("VOP1", "VOP3" opcode tables) and the CDNA2/CDNA3 guides.

#include <cmath>
#include <limits>

#include "emu/exec/semantics.hpp"
#include "emu/util.hpp"

namespace dppgemm::emu::sem {
namespace {

using fp::as_double;
using fp::double_bits;

// ---- f64 ----------------------------------------------------------------------

// NaN inputs come back quieted (the f32 forms' rule). The denorm modes act
// through fetch_wide/commit_wide (ST_FLUSH64, flush_out: FloatPolicy::mode).
template <double (*F)(double)>
void round_f64(Wave& w, const ExecInst& e) {
    alignas(64) u64 a[64], out[64];
    fetch_wide(w, e, 0, a);
    for (unsigned l = 0; l < 64; ++l) {
        const double x = as_double(a[l]);
        out[l] = std::isnan(x) ? (a[l] | (u64(1) << 51)) : double_bits(F(x));
    }
    commit_wide(w, e, out);
}
double floor_(double x) { return std::floor(x); }
double ceil_(double x) { return std::ceil(x); }
double trunc_(double x) { return std::trunc(x); }
double nearest_even(double x) { return std::nearbyint(x); }  // the host's default round mode: to nearest even
// V_FRACT_F64: "D.d = S0.d + -floor(S0.d)", at most the largest double below
// 1; +-inf gives NaN (as V_FRACT_F32).
double fract(double x) {
    if (std::isinf(x)) return std::numeric_limits<double>::quiet_NaN();
    const double f = x - std::floor(x);
    return f >= 1.0 ? 0x1.fffffffffffffp-1 : f;
}

// V_FMAC_F64 (CDNA2): "D.d = S0.d * S1.d + D.d", one rounding.
void fmac_f64(Wave& w, const ExecInst& e) {
    alignas(64) u64 a[64], b[64], c[64], out[64];
    fetch_wide(w, e, 0, a);
    fetch_wide(w, e, 1, b);
    fetch_wide(w, e, 2, c);  // the destination (Semantic::src2_is_dst)
    for (unsigned l = 0; l < 64; ++l) out[l] = double_bits(std::fma(as_double(a[l]), as_double(b[l]), as_double(c[l])));
    commit_wide(w, e, out);
}

// V_TRIG_PREOP_F64 (CDNA3 ISA pseudocode): a 53-bit segment of 2/pi for the
// range reduction of S0: shift = S1[4:0] * 53, plus exponent(S0) - 1077 when
// exponent(S0) > 1077; the segment is fraction bits shift+1 .. shift+53 of
// 2/pi (of its first 1201), returned as ldexp(segment, -53 - shift), with
// 128 added to the scale when exponent(S0) >= 1968. Bits past 1201 read 0.
//
// The first 1216 fraction bits of 2/pi, most significant first (computed with
// Machin's formula; they begin as the fdlibm/ocml tables: a2f983 6e4e44 ...).
constexpr u64 two_over_pi_bits[19] = {
    0xa2f9836e4e441529ull, 0xfc2757d1f534ddc0ull, 0xdb6295993c439041ull, 0xfe5163abdebbc561ull, 0xb7246e3a424dd2e0ull,
    0x06492eea09d1921cull, 0xfe1deb1cb129a73eull, 0xe88235f52ebb4484ull, 0xe99c7026b45f7e41ull, 0x3991d639835339f4ull,
    0x9c845f8bbdf9283bull, 0x1ff897ffde05980full, 0xef2f118b5a0a6d1full, 0x6d367ecf27cb09b7ull, 0x4f463f669e5fea2dull,
    0x7527bac7ebe5f17bull, 0x3d0739f78a5292eaull, 0x6bfb5fb11f8d5d08ull, 0x56033046fc7b6babull,
};
constexpr unsigned two_over_pi_table_bits = 1201;

u64 trig_preop(u64 x, u64 segment_select, u64) {
    const int exponent = int((x >> 52) & 0x7ff);
    unsigned shift = unsigned(segment_select & 31) * 53;
    if (exponent > 1077) shift += unsigned(exponent - 1077);
    u64 segment = 0;
    for (unsigned p = shift + 1; p <= shift + 53; ++p) {  // fraction bit p of 2/pi (1 = the first after the point)
        const u64 bit = p <= two_over_pi_table_bits ? (two_over_pi_bits[(p - 1) / 64] >> (63 - (p - 1) % 64)) & 1 : 0;
        segment = segment << 1 | bit;
    }
    int scale = -53 - int(shift);
    if (exponent >= 1968) scale += 128;
    return double_bits(std::ldexp(double(segment), scale));
}
void trig_preop_f64(Wave& w, const ExecInst& e) {
    alignas(64) u64 a[64], out[64];
    alignas(64) Lanes tmp;
    fetch_wide(w, e, 0, a);
    const u32* select = fetch(w, e, 1, tmp);
    for (unsigned l = 0; l < 64; ++l) out[l] = trig_preop(a[l], select[l], 0);
    commit_wide(w, e, out);
}

}  // namespace

void register_f64(Table& t) {
    // The denorm modes act through fetch_wide/commit_wide (FloatPolicy::mode).
    const FloatPolicy F = FloatPolicy::mode;
    auto f = [&](Op op, ExecFn fn) { set(t, op, fn, InstClass::valu, F); };
    f(Op::v_floor_f64, round_f64<floor_>);
    f(Op::v_ceil_f64, round_f64<ceil_>);
    f(Op::v_trunc_f64, round_f64<trunc_>);
    f(Op::v_rndne_f64, round_f64<nearest_even>);
    f(Op::v_fract_f64, round_f64<fract>);
    set(t, Op::v_fmac_f64, fmac_f64, InstClass::valu, F, Accumulator::destination);
    f(Op::v_trig_preop_f64, trig_preop_f64);
}

}  // namespace dppgemm::emu::sem
