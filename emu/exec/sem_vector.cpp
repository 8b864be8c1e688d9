// Vector ALU. Each op is a per-lane function of raw 32-bit lane values (or
// floats, wrapped by fbits*); one template per arity fetches the sources
// (VGPR, broadcast scalar, DPP-gathered, abs/neg/flush applied), runs the
// lane loop and commits under EXEC. Compiled with -ffp-contract=off.

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

#include "emu/exec/host_float_mode.hpp"
#include "emu/exec/semantics.hpp"
#include "emu/util.hpp"

namespace dppgemm::emu::sem {
namespace {

using fp::as_bits;
using fp::as_double;
using fp::as_float;
using fp::double_bits;

// ---- lane-loop templates ---------------------------------------------------

// The denormal flushes of inputs and result are fused into the lane loop
// (fetch skips them); one loop version per combination, picked per
// instruction, so each stays a straight vectorizable loop.
template <bool In, bool Out, class Lane>
void run_lanes(u32* __restrict out, Lane lane) {
    for (unsigned l = 0; l < 64; ++l) {
        const u32 r = lane(l, std::bool_constant<In>{});
        out[l] = Out ? fp::flush(r) : r;
    }
}
template <class Lane>
void lanes(const ExecInst& e, u32* out, Lane lane) {
    if (e.flush_in) {
        if (e.flush_out) run_lanes<true, true>(out, lane);
        else run_lanes<true, false>(out, lane);
    } else {
        if (e.flush_out) run_lanes<false, true>(out, lane);
        else run_lanes<false, false>(out, lane);
    }
}
template <class Flush>
inline u32 in(u32 x, Flush) {
    return Flush::value ? fp::flush(x) : x;
}
// The source flush the lane loop does (every source f32, ExecInst::flush_in);
// otherwise fetch flushes the f32 sources of a mixed op (ST_FLUSH) itself.
inline std::uint8_t fused_flush(const ExecInst& e) { return e.flush_in ? ST_FLUSH : 0; }

// ---- plain forms: sources and destination used as they are -------------------
//
// A VALU op whose sources are VGPRs, SGPRs or constants without DPP, SDWA,
// abs/neg or denormal flushes, and whose VGPR result has no output modifier,
// with every lane active: lane l of the result is F of lane l of the
// sources, so it is written straight to the destination, and a scalar
// source is one value, not a broadcast copy. Why: the 32x32 kernels' index
// arithmetic (v_add_u32, v_subrev_u32 with an SGPR, v_cndmask_b32 with a
// constant, v_cmp against an SGPR) went through fetch_copy's broadcast, a
// lane loop into a copy and commit_vdst: about 210-310 host instructions
// each (callgrind, 256^3 dpp0_32_denorm).

// Lane l of a VGPR source, or of a scalar one (the same value on every lane).
struct VgprLanes {
    const u32* lanes;
    u32 operator()(unsigned l) const { return lanes[l]; }
#if defined(__SSE2__)
    __m128i four(unsigned l) const { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(lanes + l)); }
#endif
#if defined(__x86_64__) && defined(__GNUC__)
    __attribute__((target("avx2"))) __m256i eight(unsigned l) const {
        return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(lanes + l));
    }
#endif
};
struct ScalarLanes {
    u32 value;
    u32 operator()(unsigned) const { return value; }
#if defined(__SSE2__)
    __m128i four(unsigned) const { return _mm_set1_epi32(int(value)); }
#endif
#if defined(__x86_64__) && defined(__GNUC__)
    __attribute__((target("avx2"))) __m256i eight(unsigned) const { return _mm256_set1_epi32(int(value)); }
#endif
};

// The tests below read ExecInst::plain, set at build time (program.cpp,
// plain_form): testing the operands' kinds, widths, transforms and the
// result's flags here was about 35 host instructions of a plain v_add_u32.
inline bool plain_source(const ExecInst& e, unsigned i) { return (e.plain >> i) & PLAIN_SRC0; }
constexpr std::uint8_t plain_sources_bits = PLAIN_SRC0 | PLAIN_SRC1 | PLAIN_NO_DPP;
inline bool plain_sources(const ExecInst& e) { return (e.plain & plain_sources_bits) == plain_sources_bits; }
// Sources 0 and 1 plain and the result a plain VGPR, every lane active.
inline bool plain_binary(const Wave& w, const ExecInst& e) {
    constexpr std::uint8_t bits = plain_sources_bits | PLAIN_RESULT;
    return (e.plain & bits) == bits && w.exec() == ~0ull;
}
inline bool plain_vgpr_result(const Wave& w, const ExecInst& e) {
    return (e.plain & PLAIN_RESULT) && w.exec() == ~0ull;
}

// A plain scalar source's value: SGPRs and constants without read32's
// switch, which GCC calls out of line here (about 10 host instructions a call).
inline u32 plain_scalar(const Wave& w, const Src& s) {
    if (s.kind == Src::Kind::sreg) return w.sreg[s.index];
    if (s.kind == Src::Kind::imm) return s.value;
    return read32(w, s);
}

// Calls body(a, b) with sources 0 and 1 as VgprLanes or ScalarLanes (plain_sources).
template <class Body>
__attribute__((always_inline)) inline void with_plain_sources(Wave& w, const ExecInst& e, Body body) {
    const Src &s0 = e.src[0], &s1 = e.src[1];
    switch (e.plain & (PLAIN_SRC0_VGPR | PLAIN_SRC1_VGPR)) {
    case PLAIN_SRC0_VGPR | PLAIN_SRC1_VGPR: return body(VgprLanes{w.v[s0.index]}, VgprLanes{w.v[s1.index]});
    case PLAIN_SRC0_VGPR: return body(VgprLanes{w.v[s0.index]}, ScalarLanes{plain_scalar(w, s1)});
    case PLAIN_SRC1_VGPR: return body(ScalarLanes{plain_scalar(w, s0)}, VgprLanes{w.v[s1.index]});
    default: return body(ScalarLanes{plain_scalar(w, s0)}, ScalarLanes{plain_scalar(w, s1)});
    }
}

// dst[l] = F(a(l), b(l)) on every lane; dst may be a source (lane l reads
// lane l only, before it is written).
template <u32 (*F)(u32, u32), class A, class B>
inline void plain_lanes(u32* dst, A a, B b) {
#if defined(__GNUC__)
#pragma GCC ivdep
#endif
    for (unsigned l = 0; l < 64; ++l) dst[l] = F(a(l), b(l));
}

// The baseline (SSE2) loops out of line as the AVX2 ones are: inlined, they
// made every plain form save and restore five registers (about 10 host
// instructions of a v_add_u32 that takes the AVX2 call).
template <u32 (*F)(u32, u32), class A, class B>
__attribute__((noinline)) void plain_lanes_baseline(u32* dst, A a, B b) {
    plain_lanes<F>(dst, a, b);
}

#if defined(__x86_64__) && defined(__GNUC__)
// The same loops with 8 lanes per instruction: about 60 host instructions
// for a v_add_u32 against about 125 with SSE2's 4.
// Not const: use_plain_avx2 lets the tests run the SSE2 loops on an AVX2 host.
bool plain_avx2 = host_cpu().avx2;
template <u32 (*F)(u32, u32), class A, class B>
__attribute__((target("avx2"), noinline)) void plain_lanes_avx2(u32* dst, A a, B b) {
    plain_lanes<F>(dst, a, b);
}
// dst[l] = lane l of b where `mask` has bit l, of a elsewhere (v_cndmask_b32).
template <class A, class B>
__attribute__((target("avx2"), noinline)) void select_lanes_avx2(u32* dst, A a, B b, u64 mask) {
    const __m256i bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    for (unsigned l = 0; l < 64; l += 8) {  // lanes l..l+7 of a and b are read before they are written
        const __m256i take_b =
            _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32(int(unsigned(mask >> l) & 0xffu)), bit), bit);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + l), _mm256_blendv_epi8(a.eight(l), b.eight(l), take_b));
    }
}
#endif

template <u32 (*F)(u32)>
__attribute__((noinline)) void vop1_general(Wave& w, const ExecInst& e) {
    alignas(64) Lanes t0, out;
    const u32* __restrict a = fetch(w, e, 0, t0, 0, fused_flush(e));
    lanes(e, out, [&](unsigned l, auto flush) { return F(in(a[l], flush)); });
    commit_vdst(w, e, out);
}

// dst[l] = F(a(l)) on every lane; dst may be the source.
template <u32 (*F)(u32), class A>
inline void plain_lanes(u32* dst, A a) {
#if defined(__GNUC__)
#pragma GCC ivdep
#endif
    for (unsigned l = 0; l < 64; ++l) dst[l] = F(a(l));
}

// The plain forms, and a DPP src0 whose pattern gives every lane a source
// and writes every lane (v_mov_b32_dpp row_ror:4 moving A in the dpp3
// kernels: about 330 host instructions through fetch_copy and commit_vdst).
template <u32 (*F)(u32)>
void vop1(Wave& w, const ExecInst& e) {
    if (!plain_source(e, 0) || !plain_vgpr_result(w, e)) return vop1_general<F>(w, e);
    u32* dst = w.v[e.dst.index];
    const Src& s = e.src[0];
    if (e.dpp) {
        // row_local: the row gather (use_general_paths clears it, so that tests compare both ways)
        const bool every_lane = (e.dpp->in_range & e.dpp->writable) == ~0ull;
        if (s.kind != Src::Kind::vgpr || !every_lane || !e.dpp->row_local) return vop1_general<F>(w, e);
        alignas(64) Lanes gathered;  // dst may be the source, which other lanes read
        dpp_gather(*e.dpp, ~0ull, w.v[s.index], gathered);
        plain_lanes<F>(dst, VgprLanes{gathered});
    } else if (s.kind == Src::Kind::vgpr) {
        plain_lanes<F>(dst, VgprLanes{w.v[s.index]});
    } else {
        plain_lanes<F>(dst, ScalarLanes{plain_scalar(w, s)});
    }
}

// Out of line, so that the plain forms in vop2 do without its stack frame
// of three 256-byte copies.
template <u32 (*F)(u32, u32)>
__attribute__((noinline)) void vop2_general(Wave& w, const ExecInst& e) {
    alignas(64) Lanes t0, t1, out;
    const u32* __restrict a = fetch(w, e, 0, t0, 0, fused_flush(e));
    const u32* __restrict b = fetch(w, e, 1, t1, 0, fused_flush(e));
    lanes(e, out, [&](unsigned l, auto flush) { return F(in(a[l], flush), in(b[l], flush)); });
    commit_vdst(w, e, out);
}

template <u32 (*F)(u32, u32)>
void vop2(Wave& w, const ExecInst& e) {
    if (!plain_binary(w, e)) return vop2_general<F>(w, e);
    u32* dst = w.v[e.dst.index];
    with_plain_sources(w, e, [dst](auto a, auto b) {
#if defined(__x86_64__) && defined(__GNUC__)
        if (plain_avx2) return plain_lanes_avx2<F>(dst, a, b);
#endif
        plain_lanes_baseline<F>(dst, a, b);
    });
}

// dst[l] = F(a(l), b(l), c(l)) on every lane; dst may be a source.
template <u32 (*F)(u32, u32, u32), class A, class B, class C>
inline void plain_lanes3(u32* dst, A a, B b, C c) {
#if defined(__GNUC__)
#pragma GCC ivdep
#endif
    for (unsigned l = 0; l < 64; ++l) dst[l] = F(a(l), b(l), c(l));
}
#if defined(__x86_64__) && defined(__GNUC__)
template <u32 (*F)(u32, u32, u32), class A, class B, class C>
__attribute__((target("avx2"), noinline)) void plain_lanes3_avx2(u32* dst, A a, B b, C c) {
    plain_lanes3<F>(dst, a, b, c);
}
#endif

// Out of line, as plain_lanes_baseline.
template <u32 (*F)(u32, u32, u32), class A, class B, class C>
__attribute__((noinline)) void plain_lanes3_baseline(u32* dst, A a, B b, C c) {
    plain_lanes3<F>(dst, a, b, c);
}

template <u32 (*F)(u32, u32, u32), int A, int B, int C>
__attribute__((noinline)) void vop3_general(Wave& w, const ExecInst& e) {
    alignas(64) Lanes t0, t1, t2, out;
    const u32* __restrict a = fetch(w, e, A, t0, 0, fused_flush(e));
    const u32* __restrict b = fetch(w, e, B, t1, 0, fused_flush(e));
    const u32* __restrict c = fetch(w, e, C, t2, 0, fused_flush(e));
    lanes(e, out, [&](unsigned l, auto flush) { return F(in(a[l], flush), in(b[l], flush), in(c[l], flush)); });
    commit_vdst(w, e, out);
}

// Sources A, B, C of the instruction feed F's three arguments (the *mk forms
// put their literal K in the middle). The plain form (src0 a VGPR, src1 and
// src2 VGPRs, SGPRs or constants): v_lshl_add_u32 v, v, 2, v of the 32x32
// kernels' address arithmetic took about 630 host instructions through the
// copies (callgrind, 256^3 dpp0_32).
template <u32 (*F)(u32, u32, u32), int A = 0, int B = 1, int C = 2>
void vop3(Wave& w, const ExecInst& e) {
    constexpr std::uint8_t bits = PLAIN_SRC0 | PLAIN_SRC1 | PLAIN_SRC2 | PLAIN_NO_DPP | PLAIN_RESULT | PLAIN_SRC0_VGPR;
    if ((e.plain & bits) != bits || w.exec() != ~0ull) return vop3_general<F, A, B, C>(w, e);
    u32* dst = w.v[e.dst.index];
    const auto run = [dst](auto a, auto b, auto c) {
        // The sources in F's order.
        const auto pick = [&](auto k) {
            if constexpr (decltype(k)::value == 0) return a;
            else if constexpr (decltype(k)::value == 1) return b;
            else return c;
        };
        const auto x = pick(std::integral_constant<int, A>{});
        const auto y = pick(std::integral_constant<int, B>{});
        const auto z = pick(std::integral_constant<int, C>{});
#if defined(__x86_64__) && defined(__GNUC__)
        if (plain_avx2) return plain_lanes3_avx2<F>(dst, x, y, z);
#endif
        plain_lanes3_baseline<F>(dst, x, y, z);
    };
    const VgprLanes a{w.v[e.src[0].index]};
    const Src &s1 = e.src[1], &s2 = e.src[2];
    switch (e.plain & (PLAIN_SRC1_VGPR | PLAIN_SRC2_VGPR)) {
    case PLAIN_SRC1_VGPR | PLAIN_SRC2_VGPR: return run(a, VgprLanes{w.v[s1.index]}, VgprLanes{w.v[s2.index]});
    case PLAIN_SRC1_VGPR: return run(a, VgprLanes{w.v[s1.index]}, ScalarLanes{plain_scalar(w, s2)});
    case PLAIN_SRC2_VGPR: return run(a, ScalarLanes{plain_scalar(w, s1)}, VgprLanes{w.v[s2.index]});
    default: return run(a, ScalarLanes{plain_scalar(w, s1)}, ScalarLanes{plain_scalar(w, s2)});
    }
}

// ---- the GEMM inner loop ----------------------------------------------------
//
// v_mac_f32 / v_fmac_f32 (and v_mad/v_fma) over 64 lanes are most of what an
// SGEMM kernel executes. Their lane loops are compiled twice, for the x86-64
// baseline and for CPUs with AVX2 and FMA (8 lanes per instruction); the
// first call picks one by asking the CPU. Same results either way:
// -ffp-contract=off keeps mul+add unfused, std::fma is fused in both.
//
// out may be one of the sources (in place: v_mac's accumulator): lane l of the
// result depends on lane l of the sources only, so the lanes carry no
// dependence and the loop vectorizes without alias checks.
template <bool In, bool Out, bool Fused>
inline void multiply_add_lanes(const u32* a, const u32* b, const u32* c, u32* out) {
    // Results go to `result` first: a NaN result takes its operand by
    // fp::multiply_add_nan, which needs the inputs (out may be one of them).
    alignas(64) u32 result[64];
    u32 nan_lanes = 0;
#if defined(__clang__)
#pragma clang loop vectorize(assume_safety)
#elif defined(__GNUC__)
#pragma GCC ivdep
#endif
    for (unsigned l = 0; l < 64; ++l) {
        const float x = as_float(In ? fp::flush(a[l]) : a[l]);
        const float y = as_float(In ? fp::flush(b[l]) : b[l]);
        const float z = as_float(In ? fp::flush(c[l]) : c[l]);
        const u32 r = Fused ? as_bits(std::fma(x, y, z)) : as_bits(fp::flush(x * y) + z);
        nan_lanes |= u32(i32(r & 0x7fffffffu) > 0x7f800000);
        result[l] = r;
    }
    if (nan_lanes)  // rare
        for (unsigned l = 0; l < 64; ++l)
            if (fp::is_nan(result[l])) result[l] = fp::multiply_add_nan<Fused>(a[l], b[l], c[l], result[l]);
    for (unsigned l = 0; l < 64; ++l) out[l] = Out ? fp::flush(result[l]) : result[l];
}

using MultiplyAddLanes = void (*)(const u32*, const u32*, const u32*, u32*, bool flush_out);

template <bool In, bool Fused>
void multiply_add_baseline(const u32* a, const u32* b, const u32* c, u32* out, bool flush_out) {
    if (flush_out) multiply_add_lanes<In, true, Fused>(a, b, c, out);
    else multiply_add_lanes<In, false, Fused>(a, b, c, out);
}

// The lane loops of one CPU: `flushing` flushes the inputs itself, `plain`
// does not; with denormals_are_zero, `plain` under denormals-are-zero is the
// same as `flushing`, and cheaper: the input flush costs more than the
// arithmetic.
struct MultiplyAddLoops {
    MultiplyAddLanes flushing, plain;
    bool denormals_are_zero = false;
    bool avx512 = false;  // runs use multiply_add_run_avx512
};

#if defined(__x86_64__) && defined(__GNUC__)
// x86's "denormals are zero" mode (MXCSR bit 6, on every CPU with AVX2) reads
// denormal inputs as zeros of the same sign, which is exactly the input
// flush; the product and result flushes stay explicit (the mode does not
// change rounding). A run of multiply-adds that flushes its inputs runs in
// it, and leaves it set for the run loop to restore (host_float_mode.hpp);
// the lane loops are separate calls so that no floating-point operation can
// move across the mode change.

template <bool In, bool Fused>
__attribute__((target("avx2,fma"), noinline)) void multiply_add_avx2(const u32* a, const u32* b, const u32* c, u32* out,
                                                                     bool flush_out) {
    if (flush_out) multiply_add_lanes<In, true, Fused>(a, b, c, out);
    else multiply_add_lanes<In, false, Fused>(a, b, c, out);
}

template <bool Fused>
MultiplyAddLoops pick_multiply_add() {
    if (host_cpu().avx2 && host_cpu().fma)
        return {multiply_add_avx2<true, Fused>, multiply_add_avx2<false, Fused>, true, host_cpu().avx512f};
    return {multiply_add_baseline<true, Fused>, multiply_add_baseline<false, Fused>, false};
}
#else
template <bool Fused>
MultiplyAddLoops pick_multiply_add() {
    return {multiply_add_baseline<true, Fused>, multiply_add_baseline<false, Fused>, false};
}
#endif

// Picked when the program starts, not at first use: a function's static
// made multiply_add_op test its guard and keep the guard's call registers
// (five saved and restored per run).
const MultiplyAddLoops picked_multiply_add_loops[2] = {pick_multiply_add<false>(), pick_multiply_add<true>()};

template <bool Fused>
const MultiplyAddLoops& multiply_add_loops() {
    return picked_multiply_add_loops[Fused];
}

// One instruction. The result goes straight to the destination when every
// lane is written and no output modifier follows (the GEMM case), else
// through commit_vdst.
template <int A, int B, int C>
void multiply_add_one(Wave& w, const ExecInst& e, MultiplyAddLanes loop) {
    alignas(64) Lanes t0, t1, t2, out;
    const u32* a = fetch(w, e, A, t0, 0, ST_FLUSH);
    const u32* b = fetch(w, e, B, t1, 0, ST_FLUSH);
    const u32* c = fetch(w, e, C, t2, 0, ST_FLUSH);
    const bool in_place = !e.output_modifiers && !e.sdwa_dst && write_lanes(w, e) == ~0ull;
    loop(a, b, c, in_place ? vreg(w, e.dst) : out, e.flush_out);
    if (!in_place) commit_vdst(w, e, out);
}

// Counts the instructions a run executed after its first (the run loop
// counted that one) and moves the wave past them.
// Every instruction of a run is a multiply-add (counted as one), VALU or VALU-DPP.
inline void finish_run(Wave& w, const ExecInst* run, unsigned length) {
    Counters& counters = w.group->counters;
    counters.valu_dpp += run[0].multiply_add_run_dpp - run[0].valu_dpp;
    counters[InstClass::valu] += length - 1;
    counters.valu_multiply_add += length - 1;
    w.executed += length - 1;
    w.pc = run[length - 1].next;
}

#if defined(__x86_64__) && defined(__GNUC__)
// ---- AVX2: one DPP row in two registers ---------------------------------------
//
// CPUs without AVX-512 (and valgrind) take the same row idea with 8 lanes per
// register: lane 8h+i of a row reads lane row_lanes[8h+i] of the row's 16,
// i.e. a permute of each half of the row and a blend choosing the half, then
// zero where the source is invalid (bound_ctrl). The arithmetic, the NaN rule
// and the flushes are those of multiply_add_lanes (the input flush is the
// host's denormals-are-zero mode); lanes outside `write` are left alone by a
// masked store. Equal to the general path bit for bit
// (tests/exec/test_fast_paths.cpp).
inline float* as_floats(u32* lanes) { return reinterpret_cast<float*>(lanes); }
inline const float* as_floats(const u32* lanes) { return reinterpret_cast<const float*>(lanes); }

__attribute__((target("avx2"), always_inline)) inline __m256i lane_mask8(u32 bits) {
    const __m256i bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    return _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32(int(bits)), bit), bit);
}

__attribute__((target("avx2"), always_inline)) inline __m256 flush8(__m256 x) {
    const __m256i bits = _mm256_castps_si256(x);
    const __m256i denormal_or_zero =
        _mm256_cmpeq_epi32(_mm256_and_si256(bits, _mm256_set1_epi32(0x7f800000)), _mm256_setzero_si256());
    return _mm256_castsi256_ps(
        _mm256_blendv_epi8(bits, _mm256_and_si256(bits, _mm256_set1_epi32(int(0x80000000u))), denormal_or_zero));
}

// x * y + z for 8 lanes. Without Fused the product is flushed before the
// add: explicitly, or (DazOn: the host's denormals-are-zero mode is set) by the
// add itself, which reads a denormal product as a zero of its sign, exactly
// fp::flush's result, for four instructions fewer per 8 lanes. The empty asm
// keeps the compiler from contracting the two into an FMA.
template <bool Fused, bool DazOn>
__attribute__((target("avx2,fma"), always_inline)) inline __m256 product_plus_8(__m256 x, __m256 y, __m256 z) {
    if (Fused) return _mm256_fmadd_ps(x, y, z);
    __m256 product = _mm256_mul_ps(x, y);
    asm("" : "+x"(product));
    return _mm256_add_ps(DazOn ? product : flush8(product), z);
}

// fp::flush of 8 results that are no NaN. Under denormals-are-zero, r + -0 is
// that flush in one instruction: the add reads a denormal r as a zero of
// its sign, and in round-to-nearest (the launch's environment) +0 + -0 is
// +0, -0 + -0 is -0, and any other r + -0 is r. The empty asm keeps the
// compiler, which knows nothing of the mode, from folding r + -0 into r.
template <bool DazOn>
__attribute__((target("avx2"), always_inline)) inline __m256 flush_no_nan8(__m256 r) {
    if (!DazOn) return flush8(r);
    __m256 minus_zero = _mm256_set1_ps(-0.0f);
    asm("" : "+x"(minus_zero));
    return _mm256_add_ps(r, minus_zero);
}

template <bool Fused, bool FlushOut, bool DazOn>
__attribute__((target("avx2,fma"))) inline __m256 multiply_add_8(__m256 x, __m256 y, __m256 z) {
    __m256 r = product_plus_8<Fused, DazOn>(x, y, z);
    if (const int nan = _mm256_movemask_ps(_mm256_cmp_ps(r, r, _CMP_UNORD_Q))) {  // rare: fp::multiply_add_nan's rule
        alignas(32) u32 xs[8], ys[8], zs[8], rs[8];
        _mm256_store_ps(reinterpret_cast<float*>(xs), x);
        _mm256_store_ps(reinterpret_cast<float*>(ys), y);
        _mm256_store_ps(reinterpret_cast<float*>(zs), z);
        _mm256_store_ps(reinterpret_cast<float*>(rs), r);
        for (unsigned l = 0; l < 8; ++l)
            if ((nan >> l) & 1) rs[l] = fp::multiply_add_nan<Fused>(xs[l], ys[l], zs[l], rs[l]);
        r = _mm256_load_ps(reinterpret_cast<const float*>(rs));
        return FlushOut ? flush8(r) : r;
    }
    return FlushOut ? flush_no_nan8<DazOn>(r) : r;
}

// Row `row` of src0 through the row-local DPP pattern whose halves' indices
// are `index` (`upper`: the index names the other half): lanes of `valid`
// read their source, the others 0. HalfLocal: every source in its lane's
// half row (no blend); Masked: some lane of `valid` is clear.
template <bool HalfLocal, bool Masked>
__attribute__((target("avx2"), always_inline)) inline void dpp_row_avx2(const u32* a, unsigned row,
                                                                        const __m256i index[2], const __m256i upper[2],
                                                                        u64 valid, __m256 x[2]) {
    const __m256i halves[2] = {_mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + 16 * row)),
                               _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + 16 * row + 8))};
    for (unsigned half = 0; half < 2; ++half) {
        __m256i lanes = HalfLocal
                            ? _mm256_permutevar8x32_epi32(halves[half], index[half])
                            : _mm256_blendv_epi8(_mm256_permutevar8x32_epi32(halves[0], index[half]),
                                                 _mm256_permutevar8x32_epi32(halves[1], index[half]), upper[half]);
        if (Masked) lanes = _mm256_and_si256(lanes, lane_mask8(u32(valid >> (16 * row + 8 * half)) & 0xffu));
        x[half] = _mm256_castsi256_ps(lanes);
    }
}

// Lanes where x or y is a NaN: one compare covers two registers of results.
__attribute__((target("avx"), always_inline)) inline __m256 unordered_pair(__m256 x, __m256 y) {
    return _mm256_cmp_ps(x, y, _CMP_UNORD_Q);
}

template <bool Masked>
__attribute__((target("avx2"), always_inline)) inline void store_8(u32* dst, __m256 r, u64 write) {
    const u32 lanes = Masked ? u32(write) & 0xffu : 0xffu;
    if (lanes == 0xffu) _mm256_storeu_ps(as_floats(dst), r);
    else if (lanes) _mm256_maskstore_ps(as_floats(dst), lane_mask8(lanes), r);
}

// multiply_add_8 out of line, for the rare row with a NaN: the rows' loops
// keep their registers.
template <bool Fused, bool FlushOut, bool DazOn>
__attribute__((target("avx2,fma"), noinline, cold)) __m256 multiply_add_8_rare(__m256 x, __m256 y, __m256 z) {
    return multiply_add_8<Fused, FlushOut, DazOn>(x, y, z);
}

// The 16 lanes of one row, two registers, from x * y + z: one test covers
// both registers' NaNs; the rare row with a NaN is redone 8 lanes at a time
// with fp::multiply_add_nan's rule (multiply_add_8).
template <bool Fused, bool FlushOut, bool DazOn>
__attribute__((target("avx2,fma"), always_inline)) inline void multiply_add_row_8x2(const __m256 x[2],
                                                                                    const __m256 y[2],
                                                                                    const __m256 z[2], __m256 r[2]) {
    r[0] = product_plus_8<Fused, DazOn>(x[0], y[0], z[0]);
    r[1] = product_plus_8<Fused, DazOn>(x[1], y[1], z[1]);
    if (__builtin_expect(_mm256_movemask_ps(unordered_pair(r[0], r[1])) != 0, 0)) {
        r[0] = multiply_add_8_rare<Fused, FlushOut, DazOn>(x[0], y[0], z[0]);
        r[1] = multiply_add_8_rare<Fused, FlushOut, DazOn>(x[1], y[1], z[1]);
    } else if (FlushOut) {
        r[0] = flush_no_nan8<DazOn>(r[0]);
        r[1] = flush_no_nan8<DazOn>(r[1]);
    }
}

// dst = a * b + c on the lanes of `write`, src0 through the row-local DPP
// pattern `row_lanes` (lanes of `valid` read their source, the others 0).
// Masked: some lane of `valid` or `write` is clear. Row by row: a row reads
// only its own row of a, b and c, so storing it before the next is read is
// safe when dst is a source. Keeping all eight results for one NaN test at
// the end made the compiler keep them on the stack and copy them out 16
// bytes at a time (about 105 host instructions per instruction against
// about 73 row by row; callgrind, 256^3 dpp2_denorm).
template <bool Fused, bool FlushOut, bool DazOn, bool HalfLocal, bool Masked>
__attribute__((target("avx2,fma"), always_inline)) inline void multiply_add_dpp_rows_avx2(const u32* a, const u32* b,
                                                                                          const u32* c, u32* dst,
                                                                                          const u32* row_lanes,
                                                                                          u64 valid, u64 write) {
    const __m256i index[2] = {_mm256_loadu_si256(reinterpret_cast<const __m256i*>(row_lanes)),
                              _mm256_loadu_si256(reinterpret_cast<const __m256i*>(row_lanes + 8))};
    const __m256i upper[2] = {_mm256_cmpgt_epi32(index[0], _mm256_set1_epi32(7)),
                              _mm256_cmpgt_epi32(index[1], _mm256_set1_epi32(7))};
    // Unrolled: 86 host instructions per instruction as a loop, 73 unrolled.
#pragma GCC unroll 4
    for (unsigned row = 0; row < 4; ++row) {
        const unsigned first = 16 * row;
        __m256 x[2], r[2];
        dpp_row_avx2<HalfLocal, Masked>(a, row, index, upper, valid, x);
        const __m256 y[2] = {_mm256_loadu_ps(as_floats(b + first)), _mm256_loadu_ps(as_floats(b + first + 8))};
        const __m256 z[2] = {_mm256_loadu_ps(as_floats(c + first)), _mm256_loadu_ps(as_floats(c + first + 8))};
        multiply_add_row_8x2<Fused, FlushOut, DazOn>(x, y, z, r);
        store_8<Masked>(dst + first, r[0], write >> first);
        store_8<Masked>(dst + first + 8, r[1], write >> (first + 8));
    }
}

// Lanes 8k..8k+7 of src0 through a pattern whose DppPattern::full_exec is
// `Form` (every lane valid and written): for `quad`, one in-128-bit permute
// (vpermilps reads the low two bits of each lane of `quad`, row_lanes'
// place in the quad); for `broadcast`, lane row_lanes[0] of the row
// (`lane`: a + row_lanes[0]) loaded into every lane.
template <DppPattern::FullExec Form>
__attribute__((target("avx2"), always_inline)) inline __m256 dpp_full_8(const u32* a, unsigned k, __m256i quad,
                                                                        const u32* lane) {
    static_assert(Form != DppPattern::FullExec::rows);
    if (Form == DppPattern::FullExec::quad) return _mm256_permutevar_ps(_mm256_loadu_ps(as_floats(a + 8 * k)), quad);
    return _mm256_broadcast_ss(as_floats(lane + 16 * (k / 2)));
}

// The rare DPP multiply-add below with a NaN result: its lanes again, 8 at
// a time, through multiply_add_8 and fp::multiply_add_nan's rule. src0 is
// permuted into a copy first: nothing was stored yet, but dst may be src0,
// and a row broadcast reads the row's other half.
template <bool Fused, bool FlushOut, bool DazOn, DppPattern::FullExec Form>
__attribute__((target("avx2,fma"), noinline, cold)) void multiply_add_dpp_full_nan_avx2(const u32* a, const u32* b,
                                                                                        const u32* c, u32* dst,
                                                                                        const DppPattern& dpp) {
    const __m256i quad = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(dpp.row_lanes));
    __m256 x[8];
    for (unsigned k = 0; k < 8; ++k) x[k] = dpp_full_8<Form>(a, k, quad, a + dpp.row_lanes[0]);
    for (unsigned k = 0; k < 8; ++k)  // lane l of dst depends on lane l of x, b and c alone
        _mm256_storeu_ps(as_floats(dst + 8 * k),
                         multiply_add_8<Fused, FlushOut, DazOn>(x[k], _mm256_loadu_ps(as_floats(b + 8 * k)),
                                                                _mm256_loadu_ps(as_floats(c + 8 * k))));
}

// A DPP multiply-add whose pattern, under a full EXEC, reads a valid source
// on every lane and writes every lane, in a quad permute or a row broadcast
// (DppPattern::full_exec: the GEMM kernels' quad_perm and row_newbcast with
// full masks): multiply_add_direct_avx2 with src0 permuted in registers.
// Eight results stay in registers for one NaN test, and the rare NaN case
// is redone before anything is stored (dst may be a source). The rows above,
// with a lane-crossing permute, a blend and a test per row, cost about
// twice a plain multiply-add.
template <bool Fused, bool FlushOut, bool DazOn, DppPattern::FullExec Form>
__attribute__((target("avx2,fma"), always_inline)) inline void multiply_add_dpp_full_avx2(const u32* a, const u32* b,
                                                                                          const u32* c, u32* dst,
                                                                                          const DppPattern& dpp) {
    const __m256i quad = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(dpp.row_lanes));
    const u32* lane = a + dpp.row_lanes[0];
    __m256 r[8];
    __m256 unordered = _mm256_setzero_ps();
    for (unsigned k = 0; k < 8; ++k) {
        r[k] = product_plus_8<Fused, DazOn>(dpp_full_8<Form>(a, k, quad, lane), _mm256_loadu_ps(as_floats(b + 8 * k)),
                                            _mm256_loadu_ps(as_floats(c + 8 * k)));
        if (k % 2) unordered = _mm256_or_ps(unordered, unordered_pair(r[k - 1], r[k]));
    }
    if (__builtin_expect(_mm256_movemask_ps(unordered) != 0, 0)) {
        multiply_add_dpp_full_nan_avx2<Fused, FlushOut, DazOn, Form>(a, b, c, dst, dpp);
        return;
    }
    for (unsigned k = 0; k < 8; ++k)
        _mm256_storeu_ps(as_floats(dst + 8 * k), FlushOut ? flush_no_nan8<DazOn>(r[k]) : r[k]);
}

// Inlined into the run loops, with the rows above (as a call from the loop
// without per-step tests it cost about 20 host instructions more per
// instruction).
template <bool Fused, bool FlushOut, bool DazOn>
__attribute__((target("avx2,fma"), always_inline)) inline void multiply_add_dpp_rows_avx2(const u32* a, const u32* b,
                                                                                          const u32* c, u32* dst,
                                                                                          const DppPattern& dpp,
                                                                                          u64 exec) {
    if (exec == ~0ull) {
        if (dpp.full_exec == DppPattern::FullExec::quad) {
            multiply_add_dpp_full_avx2<Fused, FlushOut, DazOn, DppPattern::FullExec::quad>(a, b, c, dst, dpp);
            return;
        }
        if (dpp.full_exec == DppPattern::FullExec::broadcast) {
            multiply_add_dpp_full_avx2<Fused, FlushOut, DazOn, DppPattern::FullExec::broadcast>(a, b, c, dst, dpp);
            return;
        }
    }
    const u64 valid = dpp.valid_sources(exec), write = dpp.write_mask(exec, valid);
    const bool masked = (valid & write) != ~0ull;
    if (dpp.half_local) {
        if (masked)
            multiply_add_dpp_rows_avx2<Fused, FlushOut, DazOn, true, true>(a, b, c, dst, dpp.row_lanes, valid, write);
        else multiply_add_dpp_rows_avx2<Fused, FlushOut, DazOn, true, false>(a, b, c, dst, dpp.row_lanes, valid, write);
    } else {
        if (masked)
            multiply_add_dpp_rows_avx2<Fused, FlushOut, DazOn, false, true>(a, b, c, dst, dpp.row_lanes, valid, write);
        else
            multiply_add_dpp_rows_avx2<Fused, FlushOut, DazOn, false, false>(a, b, c, dst, dpp.row_lanes, valid, write);
    }
}

// The rare plain multiply-add with a NaN result: its lanes again, 8 at a
// time, through multiply_add_8 and fp::multiply_add_nan's rule. Nothing was
// stored yet (dst may be a source); out of line, so that the common path
// below keeps its registers.
template <bool Fused, bool FlushOut, bool DazOn>
__attribute__((target("avx2,fma"), noinline, cold)) void multiply_add_direct_nan_avx2(const u32* a, const u32* b,
                                                                                      const u32* c, u32* dst) {
    for (unsigned k = 0; k < 8; ++k)  // lane l of dst depends on lane l of a, b and c alone
        _mm256_storeu_ps(as_floats(dst + 8 * k),
                         multiply_add_8<Fused, FlushOut, DazOn>(_mm256_loadu_ps(as_floats(a + 8 * k)),
                                                                _mm256_loadu_ps(as_floats(b + 8 * k)),
                                                                _mm256_loadu_ps(as_floats(c + 8 * k))));
}

// A plain VGPR multiply-add on all 64 lanes (dpp0's inner loop). The eight
// results stay in registers and one test covers their NaNs (one compare per
// two registers): the rare NaN case redoes the lanes through multiply_add_8
// before anything is stored (dst may be a source). multiply_add_lanes, as
// the compiler vectorises it, keeps the results in a stack copy and flushes
// them in a second pass: about 195 host instructions per instruction
// against about 70 here (callgrind, 256^3 dpp0). Row by row with a test per
// row, as the DPP rows above, costs more here (about 110: a test per row and
// the loop), where nothing needs the permute's registers. Inlined into the
// run loops: as a call it saved and restored six registers, realigned the
// stack and cleared the upper halves each time (about 20 host instructions).
template <bool Fused, bool FlushOut, bool DazOn>
__attribute__((target("avx2,fma"), always_inline)) inline void multiply_add_direct_avx2(const u32* a, const u32* b,
                                                                                        const u32* c, u32* dst) {
    __m256 r[8];
    __m256 unordered = _mm256_setzero_ps();
    for (unsigned k = 0; k < 8; ++k) {
        r[k] =
            product_plus_8<Fused, DazOn>(_mm256_loadu_ps(as_floats(a + 8 * k)), _mm256_loadu_ps(as_floats(b + 8 * k)),
                                         _mm256_loadu_ps(as_floats(c + 8 * k)));
        if (k % 2) unordered = _mm256_or_ps(unordered, unordered_pair(r[k - 1], r[k]));
    }
    if (__builtin_expect(_mm256_movemask_ps(unordered) != 0, 0)) {
        multiply_add_direct_nan_avx2<Fused, FlushOut, DazOn>(a, b, c, dst);
        return;
    }
    for (unsigned k = 0; k < 8; ++k)
        _mm256_storeu_ps(as_floats(dst + 8 * k), FlushOut ? flush_no_nan8<DazOn>(r[k]) : r[k]);
}

// Whether the observer wants before_instruction for none of a run's steps
// after its first (the run loop announced the first). The checkers' watch
// plans leave every multiply-add of the dppgemm kernels out, so checked
// launches keep the loop without per-step tests.
// Eight flags per test: byte by byte, the scan of a 64-step run cost about
// 1.3 M host instructions of a checked 256^3 dpp0 launch (callgrind).
inline bool steps_unwatched(const Workgroup& group, const ExecInst* run, unsigned length) {
    if (!group.observer) return true;
    if (!group.watched) return length <= 1;
    const std::uint8_t* watched = group.watched + run[0].index;
    unsigned i = 1;
    for (; i + 8 <= length; i += 8) {
        std::uint64_t eight;
        std::memcpy(&eight, watched + i, sizeof eight);
        if (eight) return false;
    }
    for (; i < length; ++i)
        if (watched[i]) return false;
    return true;
}

// A run of multiply-adds with the AVX2 rows above, reading the run's compact
// steps (Program::multiply_add_steps). DazOn: the host's denormals-are-zero mode
// is set (the run's inputs flush; this is the separate call). FlushOut is
// the same for the whole run. A run whose steps all read their VGPRs in
// place, on every lane, with no step but the first watched (dpp0's 64
// multiply-adds per k, dpp2's DPP ones, checked or not) takes a loop that
// tests nothing per step but its kind, and nothing at all when every step
// is plain.
template <bool Fused, bool FlushOut, bool DazOn, int A, int B, int C>
__attribute__((target("avx2,fma"), noinline)) void multiply_add_run_avx2(Wave& w, const ExecInst* run,
                                                                         unsigned length) {
    const u64 exec = w.exec();  // no multiply-add changes EXEC
    const bool all_lanes = exec == ~0ull;
    const Workgroup& group = *w.group;  // the run loop announced run[0] to the observer
    const MultiplyAddStep* steps = run[0].multiply_add_steps;
    if (all_lanes && run[0].multiply_add_run_in_place == length && steps_unwatched(group, run, length)) {
        if (run[0].multiply_add_run_dpp == 0) {
            for (unsigned i = 0; i < length; ++i) {
                const MultiplyAddStep& x = steps[i];
                multiply_add_direct_avx2<Fused, FlushOut, DazOn>(w.v[x.src[A]], w.v[x.src[B]], w.v[x.src[C]],
                                                                 w.v[x.dst]);
            }
            finish_run(w, run, length);
            return;
        }
        if constexpr (A == 0) {  // DPP permutes src0, which must be the first multiplicand
            for (unsigned i = 0; i < length; ++i) {
                const MultiplyAddStep& x = steps[i];
                const u32 *a = w.v[x.src[A]], *b = w.v[x.src[B]], *c = w.v[x.src[C]];
                if (x.kind == MultiplyAddStep::Kind::row_dpp)
                    multiply_add_dpp_rows_avx2<Fused, FlushOut, DazOn>(a, b, c, w.v[x.dst], *x.dpp, ~0ull);
                else multiply_add_direct_avx2<Fused, FlushOut, DazOn>(a, b, c, w.v[x.dst]);
            }
            finish_run(w, run, length);
            return;
        }
    }
    for (unsigned i = 0; i < length; ++i) {
        if (i && group.watches(run[0].index + i)) group.observer->before_instruction(w, run[i]);
        const MultiplyAddStep& x = steps[i];
        const u32 *a = w.v[x.src[A]], *b = w.v[x.src[B]], *c = w.v[x.src[C]];
        if (A == 0 && x.kind == MultiplyAddStep::Kind::row_dpp)
            multiply_add_dpp_rows_avx2<Fused, FlushOut, DazOn>(a, b, c, w.v[x.dst], *x.dpp, exec);
        else if (x.kind == MultiplyAddStep::Kind::direct && all_lanes)
            multiply_add_direct_avx2<Fused, FlushOut, DazOn>(a, b, c, w.v[x.dst]);
        else multiply_add_one<A, B, C>(w, run[i], multiply_add_avx2<false, Fused>);
    }
    finish_run(w, run, length);
}

// ---- AVX-512: one DPP row per register ---------------------------------------
//
// Why: in the dpp1/dpp2 SGEMM kernels every multiply-add has a quad_perm src0.
// Through the general path (fetch_copy: a lane-by-lane gather into a copy,
// then the lane loop reading the copy) such an instruction cost twice a plain
// one: fetch_copy alone was 43% of the instructions executed by a 256^3 dpp1
// run (callgrind). An AVX-512 register holds 16 lanes, i.e. one DPP row, so a
// row-local pattern (DppPattern::row_local: quad_perm, row shifts/rotates,
// mirrors, row_newbcast) is one permute of the row in registers; its zeroing
// mask gives invalid sources 0 (as bound_ctrl reads them; lanes that must not
// be written are left alone by a masked store, which also serves EXEC). The
// same loop without the permute runs the plain VGPR multiply-adds, 16 lanes
// per instruction instead of the AVX2 loop's 8. Results equal the general
// path's bit for bit (tests/exec/test_fast_paths.cpp); the input flush is the
// host's denormals-are-zero mode, as for multiply_add_run_avx2.
// Two instructions: the lanes with a zero exponent keep only their sign.
__attribute__((target("avx512f"))) inline __m512 flush16(__m512 x) {
    const __m512i bits = _mm512_castps_si512(x);
    const __mmask16 zero_exponent = _mm512_testn_epi32_mask(bits, _mm512_set1_epi32(0x7f800000));
    return _mm512_castsi512_ps(_mm512_mask_and_epi32(bits, zero_exponent, bits, _mm512_set1_epi32(int(0x80000000u))));
}

// One row of 16 lanes: x * y + z. Without Fused the product is flushed
// before the add: explicitly, or (DazOn: the host's denormals-are-zero mode is
// set) by the add itself, as product_plus_8 does. The empty asm keeps the
// compiler from contracting the two into an FMA.
template <bool Fused, bool DazOn = false>
__attribute__((target("avx512f"))) inline __m512 product_plus_row(__m512 x, __m512 y, __m512 z) {
    if (Fused) return _mm512_fmadd_ps(x, y, z);
    __m512 product = _mm512_mul_ps(x, y);
    asm("" : "+v"(product));
    return _mm512_add_ps(DazOn ? product : flush16(product), z);
}

// fp::flush of 16 results that are no NaN: under denormals-are-zero one add
// of -0, as flush_no_nan8 (the empty asm keeps it from being folded away).
template <bool DazOn>
__attribute__((target("avx512f"))) inline __m512 flush_no_nan16(__m512 r) {
    if (!DazOn) return flush16(r);
    __m512 minus_zero = _mm512_set1_ps(-0.0f);
    asm("" : "+v"(minus_zero));
    return _mm512_add_ps(r, minus_zero);
}

// One row with fp::multiply_add_nan's NaN rule and the result flush
// (explicit: right with or without denormals-are-zero).
template <bool Fused, bool FlushOut>
__attribute__((target("avx512f"))) inline __m512 multiply_add_row(__m512 x, __m512 y, __m512 z) {
    __m512 r = product_plus_row<Fused>(x, y, z);
    if (const __mmask16 nan = _mm512_cmp_ps_mask(r, r, _CMP_UNORD_Q)) {  // rare: fp::multiply_add_nan's rule
        alignas(64) u32 xs[16], ys[16], zs[16], rs[16];
        _mm512_store_ps(xs, x);
        _mm512_store_ps(ys, y);
        _mm512_store_ps(zs, z);
        _mm512_store_ps(rs, r);
        for (unsigned l = 0; l < 16; ++l)
            if ((nan >> l) & 1) rs[l] = fp::multiply_add_nan<Fused>(xs[l], ys[l], zs[l], rs[l]);
        r = _mm512_load_ps(rs);
    }
    return FlushOut ? flush16(r) : r;
}

__attribute__((target("avx512f"))) inline void store_row(u32* dst, __m512 r, __mmask16 lanes) {
    if (lanes == 0xffff) _mm512_storeu_ps(dst, r);
    else _mm512_mask_storeu_ps(dst, lanes, r);
}

__attribute__((target("avx512f"))) inline __m512 load_row(const u32* lanes) {
    return _mm512_castsi512_ps(_mm512_loadu_si512(lanes));
}

// dst = a * b + c on the lanes of `write`; with Dpp, lane 16r+i of a is lane
// 16r+row_lanes[i] of the register, or 0 where `valid` (the lanes with an
// existing, active source) is clear. One row at a time, each with its NaN
// rule: multiply_add_rows's way when a result is NaN.
template <bool Fused, bool FlushOut, bool Dpp>
__attribute__((target("avx512f"), noinline)) void multiply_add_rows_with_nans(const u32* a, const u32* b, const u32* c,
                                                                              u32* dst, const u32* row_lanes, u64 valid,
                                                                              u64 write) {
    const __m512i permute = Dpp ? _mm512_loadu_si512(row_lanes) : _mm512_setzero_si512();
    for (unsigned row = 0; row < 4; ++row) {
        __m512i x = _mm512_loadu_si512(a + 16 * row);
        if (Dpp) x = _mm512_maskz_permutexvar_epi32(__mmask16(valid >> (16 * row)), permute, x);
        const __m512 r =
            multiply_add_row<Fused, FlushOut>(_mm512_castsi512_ps(x), load_row(b + 16 * row), load_row(c + 16 * row));
        store_row(dst + 16 * row, r, __mmask16(write >> (16 * row)));
    }
}

// The same, the four rows' NaN tests made together before any row is
// stored (so the sources are still there to redo the instruction with its
// NaN rule): a test and branch on each row was about a quarter of the
// v_mac_f32 DPP row's instructions (dpp1's runs, half of its launch, perf
// at 1024^3). DazOn: the host's denormals-are-zero mode is set, and the product
// and result flushes are the adds' (product_plus_row, flush_no_nan16); the
// NaN redo flushes explicitly, which the mode does not change.
// Returns false, having stored nothing, when a result is NaN.
template <bool Fused, bool FlushOut, bool Dpp, bool DazOn>
__attribute__((target("avx512f"))) inline bool multiply_add_rows_no_nan(const u32* a, const u32* b, const u32* c,
                                                                        u32* dst, const u32* row_lanes, u64 valid,
                                                                        u64 write) {
    const __m512i permute = Dpp ? _mm512_loadu_si512(row_lanes) : _mm512_setzero_si512();
    __m512 r[4];
    for (unsigned row = 0; row < 4; ++row) {
        __m512i x = _mm512_loadu_si512(a + 16 * row);
        if (Dpp) x = _mm512_maskz_permutexvar_epi32(__mmask16(valid >> (16 * row)), permute, x);
        r[row] = product_plus_row<Fused, DazOn>(_mm512_castsi512_ps(x), load_row(b + 16 * row), load_row(c + 16 * row));
    }
    // One unordered compare covers two rows, one kortest the two masks (a
    // compare, a move to a general register and an OR per row before).
    const __mmask16 unordered01 = _mm512_cmp_ps_mask(r[0], r[1], _CMP_UNORD_Q);
    const __mmask16 unordered23 = _mm512_cmp_ps_mask(r[2], r[3], _CMP_UNORD_Q);
    if (__builtin_expect(!_kortestz_mask16_u8(unordered01, unordered23), 0)) return false;
    for (unsigned row = 0; row < 4; ++row)
        store_row(dst + 16 * row, FlushOut ? flush_no_nan16<DazOn>(r[row]) : r[row], __mmask16(write >> (16 * row)));
    return true;
}

template <bool Fused, bool FlushOut, bool Dpp, bool DazOn = false>
__attribute__((target("avx512f"))) inline void multiply_add_rows(const u32* a, const u32* b, const u32* c, u32* dst,
                                                                 const u32* row_lanes, u64 valid, u64 write) {
    if (!multiply_add_rows_no_nan<Fused, FlushOut, Dpp, DazOn>(a, b, c, dst, row_lanes, valid, write))
        multiply_add_rows_with_nans<Fused, FlushOut, Dpp>(a, b, c, dst, row_lanes, valid, write);
}

template <bool Fused, bool Dpp>
__attribute__((target("avx512f"))) inline void multiply_add_rows(const u32* a, const u32* b, const u32* c, u32* dst,
                                                                 const u32* row_lanes, u64 valid, u64 write,
                                                                 bool flush_out) {
    if (flush_out) multiply_add_rows<Fused, true, Dpp>(a, b, c, dst, row_lanes, valid, write);
    else multiply_add_rows<Fused, false, Dpp>(a, b, c, dst, row_lanes, valid, write);
}

// A run on every lane whose steps all read their VGPRs in place, none
// watched but the first (the SGEMM kernels' runs, checked or not): no
// observer test per step, and the DPP steps whose every lane has a source
// and is written (DppPattern::full_exec, quad_perm and row_newbcast) with
// constant masks. Through the general loop below, the per-step tests and
// the masks were about half of a fused DPP step's host instructions
// (dpp2_64_denorm, perf at 1024^3).
// Steps first..length-1 until one has a NaN result: returns its index, the
// step not done, or `length`. A function without calls: with the NaN redo
// called from inside the loop, the constants live in vector registers
// across that call gave every run a 64-byte realigned frame for their
// spill slots.
template <bool Fused, bool FlushOut, bool DazOn, int B, int C>
__attribute__((target("avx512f"), noinline)) unsigned multiply_add_full_exec_steps_no_nan(Wave& w,
                                                                                          const MultiplyAddStep* steps,
                                                                                          unsigned first,
                                                                                          unsigned length) {
    for (unsigned i = first; i < length; ++i) {
        const MultiplyAddStep& x = steps[i];
        const u32 *a = w.v[x.src[0]], *b = w.v[x.src[B]], *c = w.v[x.src[C]];
        u32* dst = w.v[x.dst];
        bool done;
        if (x.kind == MultiplyAddStep::Kind::direct) {
            done = multiply_add_rows_no_nan<Fused, FlushOut, false, DazOn>(a, b, c, dst, nullptr, ~0ull, ~0ull);
        } else if (x.dpp->full_exec != DppPattern::FullExec::rows) {  // x.kind is row_dpp (in place)
            done = multiply_add_rows_no_nan<Fused, FlushOut, true, DazOn>(a, b, c, dst, x.dpp->row_lanes, ~0ull, ~0ull);
        } else {
            const u64 valid = x.dpp->valid_sources(~0ull);
            done = multiply_add_rows_no_nan<Fused, FlushOut, true, DazOn>(a, b, c, dst, x.dpp->row_lanes, valid,
                                                                          x.dpp->write_mask(~0ull, valid));
        }
        if (__builtin_expect(!done, 0)) return i;
    }
    return length;
}

// The step with a NaN result, with the rule.
template <bool Fused, bool FlushOut, int B, int C>
__attribute__((target("avx512f"), noinline, cold)) void multiply_add_full_exec_step_with_nans(
    Wave& w, const MultiplyAddStep& x) {
    const u32 *a = w.v[x.src[0]], *b = w.v[x.src[B]], *c = w.v[x.src[C]];
    u32* dst = w.v[x.dst];
    if (x.kind == MultiplyAddStep::Kind::direct) {
        multiply_add_rows_with_nans<Fused, FlushOut, false>(a, b, c, dst, nullptr, ~0ull, ~0ull);
    } else {
        const u64 valid = x.dpp->valid_sources(~0ull);
        multiply_add_rows_with_nans<Fused, FlushOut, true>(a, b, c, dst, x.dpp->row_lanes, valid,
                                                           x.dpp->write_mask(~0ull, valid));
    }
}

template <bool Fused, bool FlushOut, bool DazOn, int B, int C>
__attribute__((target("avx512f"))) inline void multiply_add_full_exec_steps(Wave& w, const MultiplyAddStep* steps,
                                                                            unsigned length) {
    for (unsigned i = 0;
         (i = multiply_add_full_exec_steps_no_nan<Fused, FlushOut, DazOn, B, C>(w, steps, i, length)) < length; ++i)
        multiply_add_full_exec_step_with_nans<Fused, FlushOut, B, C>(w, steps[i]);
}

template <bool Fused, int A, int B, int C>
__attribute__((target("avx512f,avx2,fma"), noinline)) void multiply_add_steps_avx512(Wave& w, const ExecInst* run,
                                                                                     unsigned length);

// multiply_add_run_avx2 with the rows above for VGPR operands, DPP or not.
// DazOn: the host's denormals-are-zero mode is set (the run's inputs flush).
// The observed or partial-EXEC steps are a separate call: inlined, the
// general path's 64-byte aligned copies gave every run a realigned frame.
template <bool Fused, bool DazOn, int A, int B, int C>
__attribute__((target("avx512f,avx2,fma"), noinline)) void multiply_add_run_avx512(Wave& w, const ExecInst* run,
                                                                                   unsigned length) {
    static_assert(A == 0, "DPP permutes src0, which must be the first multiplicand");
    const Workgroup& group = *w.group;  // the run loop announced run[0] to the observer
    // In place: every step direct or row_dpp (Program::multiply_add_steps).
    if (w.exec() == ~0ull && run[0].multiply_add_run_in_place == length && steps_unwatched(group, run, length)) {
        const MultiplyAddStep* steps = run[0].multiply_add_steps;
        if (run[0].flush_out) multiply_add_full_exec_steps<Fused, true, DazOn, B, C>(w, steps, length);
        else multiply_add_full_exec_steps<Fused, false, DazOn, B, C>(w, steps, length);
    } else {
        multiply_add_steps_avx512<Fused, A, B, C>(w, run, length);
    }
    finish_run(w, run, length);
}

// Each step by itself: observed steps, partial EXEC, operands not in place.
template <bool Fused, int A, int B, int C>
__attribute__((target("avx512f,avx2,fma"), noinline)) void multiply_add_steps_avx512(Wave& w, const ExecInst* run,
                                                                                     unsigned length) {
    const u64 exec = w.exec();                // no multiply-add changes EXEC
    const bool flush_out = run[0].flush_out;  // the same for the whole run
    const Workgroup& group = *w.group;
    const MultiplyAddStep* steps = run[0].multiply_add_steps;
    for (unsigned i = 0; i < length; ++i) {
        if (i && group.watches(run[0].index + i)) group.observer->before_instruction(w, run[i]);
        const MultiplyAddStep& x = steps[i];
        const u32 *a = w.v[x.src[A]], *b = w.v[x.src[B]], *c = w.v[x.src[C]];
        u32* dst = w.v[x.dst];
        if (x.kind == MultiplyAddStep::Kind::direct) {
            multiply_add_rows<Fused, false>(a, b, c, dst, nullptr, 0, exec, flush_out);
        } else if (x.kind == MultiplyAddStep::Kind::row_dpp) {
            const u64 valid = x.dpp->valid_sources(exec);
            multiply_add_rows<Fused, true>(a, b, c, dst, x.dpp->row_lanes, valid, x.dpp->write_mask(exec, valid),
                                           flush_out);
        } else {
            multiply_add_one<A, B, C>(w, run[i], multiply_add_avx2<false, Fused>);
        }
    }
}
#endif

// v_mac_f32 and v_mad_f32 (Fused = false), v_fmac_f32 and v_fma_f32 (true).
// Sources A, B, C as in vop3 (the *mk forms put their literal K in the
// middle). The ExecInst::multiply_add_run instructions that follow in
// Program::code, all of this kind, execute in this call (an observer still
// sees each of them, in order): under denormals-are-zero when they flush
// their inputs, else (fp32 denormals kept, as in the `_denorm` kernels, the
// default ones) in the mode the general path runs in. One at a time, through
// fetch_copy's lane-by-lane DPP gather, a kept-denormal v_fmac_f32 DPP cost
// about 570 host instructions (callgrind, 16^3 dpp2_64_denorm through the
// BLAS, AVX2 paths).
// The run functions count the run (finish_run) themselves. The mode stays
// as the run set it (host_float_mode.hpp): the run loop restores the default.
template <bool Fused, int A = 0, int B = 1, int C = 2>
void multiply_add_op(Wave& w, const ExecInst& e) {
    const MultiplyAddLoops& loops = multiply_add_loops<Fused>();
#if defined(__x86_64__) && defined(__GNUC__)
    if (loops.denormals_are_zero) {  // the CPU has AVX2 and FMA (and the DAZ mode)
        const auto run = [&](auto daz_on) {
            constexpr bool DazOn = decltype(daz_on)::value;
            if (loops.avx512) multiply_add_run_avx512<Fused, DazOn, A, B, C>(w, &e, e.multiply_add_run);
            else if (e.flush_out) multiply_add_run_avx2<Fused, true, DazOn, A, B, C>(w, &e, e.multiply_add_run);
            else multiply_add_run_avx2<Fused, false, DazOn, A, B, C>(w, &e, e.multiply_add_run);
        };
        set_host_denormals_are_zero(w, e.flush_in);
        if (e.flush_in) run(std::true_type{});
        else run(std::false_type{});
        return;
    }
#endif
    set_host_denormals_are_zero(w, false);
    multiply_add_one<A, B, C>(w, e, e.flush_in ? loops.flushing : loops.plain);
}

template <float (*F)(float)>
u32 fbits1(u32 a) {
    return as_bits(F(as_float(a)));
}
template <float (*F)(float, float)>
u32 fbits2(u32 a, u32 b) {
    return as_bits(F(as_float(a), as_float(b)));
}
template <float (*F)(float, float, float)>
u32 fbits3(u32 a, u32 b, u32 c) {
    return as_bits(F(as_float(a), as_float(b), as_float(c)));
}

#if defined(__x86_64__) && defined(__GNUC__)
// ---- An LDS-fed block's multiply-adds after its reads (LdsBlockPlan) ------
//
// 16 lanes (AVX2: 8) of the four accumulators at a time, each in a host
// register across every run of the block: no load or store of an
// accumulator per step, where the run functions above load and store it at
// every step, and one call for the block instead of one per run. Each
// accumulator still sees its steps in program order, with the same row
// operations as multiply_add_rows_no_nan (multiply_add_8). Outer: the runs
// are 2 x 2 outer products (LdsBlockPlan::outer_product), whose four
// multiplicands are loaded once for the four steps. Under
// denormals-are-zero a step's result flush is left to the end: the next
// step reads the result only as an input of its add or FMA, which the mode
// flushes the same way (a zero of the denormal's sign), so only the value
// stored needs it. A NaN result makes every later one NaN, so one test of
// the final values finds it; the lanes are then redone step by step with
// multiply_add_row's NaN rule (multiply_add_8's), from the accumulators
// still in memory.
// sources: per run, Outer: a_0, a_1, b_0, b_1 (step 2i + k reads a_i and
// b_k); else each step's src0 and src1.
template <bool Outer>
constexpr unsigned sources_per_run = Outer ? 4 : 8;
template <bool Outer>
inline const u32* multiplicand(const u32* const* run, unsigned step, unsigned operand) {
    if (!Outer) return run[2 * step + operand];
    return operand == 0 ? run[step / 2] : run[2 + step % 2];
}

template <bool Fused, bool FlushOut, bool DazOn, bool Outer>
__attribute__((target("avx512f"), noinline)) void block_multiply_adds_avx512(u32* const* acc_vgprs,
                                                                             const u32* const* sources, unsigned runs) {
    const u32* const* const end = sources + sources_per_run<Outer> * runs;
    for (unsigned c = 0; c < 64; c += 16) {
        __m512 acc[4];
        for (unsigned j = 0; j < 4; ++j) acc[j] = load_row(acc_vgprs[j] + c);
        for (const u32* const* x = sources; x != end; x += sources_per_run<Outer>) {
            __m512 a[4], b[4];
            for (unsigned j = 0; j < 4; ++j) {
                a[j] = Outer && j % 2 ? a[j - 1] : load_row(multiplicand<Outer>(x, j, 0) + c);
                b[j] = Outer && j >= 2 ? b[j - 2] : load_row(multiplicand<Outer>(x, j, 1) + c);
            }
            for (unsigned j = 0; j < 4; ++j) {
                const __m512 p = product_plus_row<Fused, DazOn>(a[j], b[j], acc[j]);
                acc[j] = FlushOut && !DazOn ? flush_no_nan16<false>(p) : p;
            }
        }
        if (FlushOut && DazOn)  // the one result flush (above)
            for (unsigned j = 0; j < 4; ++j) acc[j] = flush_no_nan16<true>(acc[j]);
        const __mmask16 unordered =
            _mm512_cmp_ps_mask(acc[0], acc[1], _CMP_UNORD_Q) | _mm512_cmp_ps_mask(acc[2], acc[3], _CMP_UNORD_Q);
        if (__builtin_expect(unordered != 0, 0)) {
            for (unsigned j = 0; j < 4; ++j) acc[j] = load_row(acc_vgprs[j] + c);
            for (const u32* const* x = sources; x != end; x += sources_per_run<Outer>)
                for (unsigned j = 0; j < 4; ++j)
                    acc[j] = multiply_add_row<Fused, FlushOut>(load_row(multiplicand<Outer>(x, j, 0) + c),
                                                               load_row(multiplicand<Outer>(x, j, 1) + c), acc[j]);
        }
        for (unsigned j = 0; j < 4; ++j) _mm512_storeu_si512(acc_vgprs[j] + c, _mm512_castps_si512(acc[j]));
    }
}

__attribute__((target("avx"), always_inline)) inline __m256 load_8(const u32* lanes) {
    return _mm256_loadu_ps(as_floats(lanes));
}

template <bool Fused, bool FlushOut, bool DazOn, bool Outer>
__attribute__((target("avx2,fma"), noinline)) void block_multiply_adds_avx2(u32* const* acc_vgprs,
                                                                            const u32* const* sources, unsigned runs) {
    const u32* const* const end = sources + sources_per_run<Outer> * runs;
    for (unsigned c = 0; c < 64; c += 8) {
        __m256 acc[4];
        for (unsigned j = 0; j < 4; ++j) acc[j] = load_8(acc_vgprs[j] + c);
        for (const u32* const* x = sources; x != end; x += sources_per_run<Outer>) {
            __m256 a[4], b[4];
            for (unsigned j = 0; j < 4; ++j) {
                a[j] = Outer && j % 2 ? a[j - 1] : load_8(multiplicand<Outer>(x, j, 0) + c);
                b[j] = Outer && j >= 2 ? b[j - 2] : load_8(multiplicand<Outer>(x, j, 1) + c);
            }
            for (unsigned j = 0; j < 4; ++j) {
                const __m256 p = product_plus_8<Fused, DazOn>(a[j], b[j], acc[j]);
                acc[j] = FlushOut && !DazOn ? flush_no_nan8<false>(p) : p;
            }
        }
        if (FlushOut && DazOn)
            for (unsigned j = 0; j < 4; ++j) acc[j] = flush_no_nan8<true>(acc[j]);
        const __m256 unordered = _mm256_or_ps(unordered_pair(acc[0], acc[1]), unordered_pair(acc[2], acc[3]));
        if (__builtin_expect(_mm256_movemask_ps(unordered) != 0, 0)) {
            for (unsigned j = 0; j < 4; ++j) acc[j] = load_8(acc_vgprs[j] + c);
            for (const u32* const* x = sources; x != end; x += sources_per_run<Outer>)
                for (unsigned j = 0; j < 4; ++j)
                    acc[j] = multiply_add_8<Fused, FlushOut, DazOn>(load_8(multiplicand<Outer>(x, j, 0) + c),
                                                                    load_8(multiplicand<Outer>(x, j, 1) + c), acc[j]);
        }
        for (unsigned j = 0; j < 4; ++j) _mm256_storeu_ps(as_floats(acc_vgprs[j] + c), acc[j]);
    }
}

// The accumulators' VGPRs, once for all the lanes; the multiplicands as
// block_multiplicands gives them.
template <bool Fused, bool FlushOut, bool DazOn>
void block_multiply_adds(Wave& w, const LdsBlockPlan& plan, const u32* const* multiplicands, unsigned runs,
                         bool avx512) {
    u32* acc_vgprs[4];
    for (unsigned j = 0; j < 4; ++j) acc_vgprs[j] = w.v[plan.accumulators[j]];
    if (avx512 && plan.outer_product)
        block_multiply_adds_avx512<Fused, FlushOut, DazOn, true>(acc_vgprs, multiplicands, runs);
    else if (avx512) block_multiply_adds_avx512<Fused, FlushOut, DazOn, false>(acc_vgprs, multiplicands, runs);
    else if (plan.outer_product) block_multiply_adds_avx2<Fused, FlushOut, DazOn, true>(acc_vgprs, multiplicands, runs);
    else block_multiply_adds_avx2<Fused, FlushOut, DazOn, false>(acc_vgprs, multiplicands, runs);
}
#endif

// Mask destination of compares and carry-outs: vcc (e32) or an SGPR pair (e64).
const Src& mask_dst(const ExecInst& e) { return e.sdst.kind != Src::Kind::none ? e.sdst : e.dst; }
// Carry-in / condition mask: src2 in VOP3, vcc in e32.
u64 mask_src(const Wave& w, const ExecInst& e) {
    return e.src[2].kind == Src::Kind::none ? w.vcc() : read64(w, e.src[2]);
}

// An f64 denormal -> a zero of its sign.
inline u64 flush64(u64 bits) { return (bits & 0x7ff0000000000000ull) ? bits : bits & 0x8000000000000000ull; }

}  // namespace

void use_plain_avx2(bool avx2) {
#if defined(__x86_64__) && defined(__GNUC__)
    plain_avx2 = avx2 && host_cpu().avx2;
#else
    (void)avx2;
#endif
}

namespace {
BlockMultiplyAddIsa best_block_multiply_add_isa() {
    const MultiplyAddLoops& loops = multiply_add_loops<false>();
    if (!loops.denormals_are_zero) return BlockMultiplyAddIsa::none;  // no AVX2 and FMA
    return loops.avx512 ? BlockMultiplyAddIsa::avx512 : BlockMultiplyAddIsa::avx2;
}
BlockMultiplyAddIsa block_isa = best_block_multiply_add_isa();
}  // namespace

void use_block_multiply_add_isa(BlockMultiplyAddIsa isa) { block_isa = std::min(isa, best_block_multiply_add_isa()); }

bool block_multiply_adds_available() { return block_isa != BlockMultiplyAddIsa::none; }

void block_multiplicands(const Wave& w, const LdsBlockPlan& plan, const std::uint32_t (*rows)[64], unsigned runs,
                         const std::uint32_t** out) {
    const std::uint32_t* const bases[2] = {w.v[0], rows[0]};  // a VGPR, a row (LdsBlockPlan::from_rows)
    static_assert(LdsBlockPlan::from_rows == 0x8000, "the bases' index is the top bit");
    const auto at = [&](std::uint16_t source) { return bases[source >> 15] + 64 * (source & 0x7fffu); };
    const std::uint16_t* x = plan.sources.data();  // per run and step, src0 and src1
    for (unsigned r = 0; r < runs; ++r, x += 8) {
        if (plan.outer_product) {  // a_0, a_1, b_0, b_1
            *out++ = at(x[0]), *out++ = at(x[4]), *out++ = at(x[1]), *out++ = at(x[3]);
        } else {
            for (unsigned k = 0; k < 8; ++k) *out++ = at(x[k]);
        }
    }
}

void block_multiply_adds(Wave& w, const ExecInst& first_run, const LdsBlockPlan& plan,
                         const std::uint32_t* const* multiplicands, unsigned runs) {
#if defined(__x86_64__) && defined(__GNUC__)
    set_host_denormals_are_zero(w, first_run.flush_in);
    const bool avx512 = block_isa == BlockMultiplyAddIsa::avx512;
    const auto with = [&](auto fused, auto flush_out) {
        constexpr bool F = decltype(fused)::value, O = decltype(flush_out)::value;
        if (first_run.flush_in) block_multiply_adds<F, O, true>(w, plan, multiplicands, runs, avx512);
        else block_multiply_adds<F, O, false>(w, plan, multiplicands, runs, avx512);
    };
    const auto with_fused = [&](auto fused) {
        if (first_run.flush_out) with(fused, std::true_type{});
        else with(fused, std::false_type{});
    };
    if (plan.fused) with_fused(std::true_type{});
    else with_fused(std::false_type{});
#else
    (void)w, (void)first_run, (void)plan, (void)multiplicands, (void)runs;
#endif
}

void block_multiply_adds(Wave& w, const ExecInst& first_run, const LdsBlockPlan& plan, const std::uint32_t (*rows)[64],
                         unsigned runs) {
    const std::uint32_t* multiplicands[LdsBlockPlan::max_runs * 8];
    block_multiplicands(w, plan, rows, runs, multiplicands);
    block_multiply_adds(w, first_run, plan, multiplicands, runs);
}

// 64-bit lane values of source i (two dwords, or one zero-extended; f64
// sources flushed per ST_FLUSH64, 32-bit f32 ones per ST_FLUSH).
void fetch_wide(Wave& w, const ExecInst& e, unsigned i, u64* out) {
    alignas(64) Lanes lo_tmp, hi_tmp;
    if (e.src[i].dwords < 2) {
        const u32* lo = fetch(w, e, i, lo_tmp, 0);
        for (unsigned l = 0; l < 64; ++l) out[l] = lo[l];
        return;
    }
    // abs/neg of a 64-bit operand act on bit 63 only, not on the low dword's bit 31.
    const bool flush = e.transform[i] & ST_FLUSH64;
    if (!e.src[i].is_vector()) {  // scalar pair or constant: one 64-bit value
        const u64 sign = u64(1) << 63;
        const u64 v = (read64(w, e.src[i]) & ((e.transform[i] & ST_ABS) ? ~sign : ~u64(0))) ^
                      ((e.transform[i] & ST_NEG) ? sign : 0);
        for (unsigned l = 0; l < 64; ++l) out[l] = flush ? flush64(v) : v;
        return;
    }
    const u32* lo = fetch(w, e, i, lo_tmp, 0, ST_ABS | ST_NEG | ST_FLUSH64);
    const u32* hi = fetch(w, e, i, hi_tmp, 1, ST_FLUSH64);
    for (unsigned l = 0; l < 64; ++l) out[l] = lo[l] | (u64(hi[l]) << 32);
    if (flush)
        for (unsigned l = 0; l < 64; ++l) out[l] = flush64(out[l]);
}
// flush_out: an f64 result under the fp64 mode, a 32-bit (f32) one under the fp32 mode.
void commit_wide(Wave& w, const ExecInst& e, const u64* value) {
    alignas(64) Lanes lo, hi;
    const bool wide = e.dst.dwords > 1;
    for (unsigned l = 0; l < 64; ++l) {
        const u64 v = !e.flush_out ? value[l] : wide ? flush64(value[l]) : fp::flush(u32(value[l]));
        lo[l] = u32(v);
        hi[l] = u32(v >> 32);
    }
    const u64 mask = write_lanes(w, e);
    commit(vreg(w, e.dst, 0), lo, mask);
    if (e.dst.dwords > 1) commit(vreg(w, e.dst, 1), hi, mask);
}

namespace {

template <u64 (*F)(u64, u64, u64)>
void vop_wide(Wave& w, const ExecInst& e) {
    alignas(64) u64 a[64], b[64], c[64], out[64];
    fetch_wide(w, e, 0, a);
    if (e.src[1].kind != Src::Kind::none) fetch_wide(w, e, 1, b);
    if (e.src[2].kind != Src::Kind::none) fetch_wide(w, e, 2, c);
    for (unsigned l = 0; l < 64; ++l) out[l] = F(a[l], b[l], c[l]);
    commit_wide(w, e, out);
}

// The lanes whose word in `all_or_none` (each ~0 or 0) is set, as a mask.
u64 lane_bits(const u32* all_or_none) {
#if defined(__SSE2__)
    u64 bits = 0;
    for (unsigned l = 0; l < 64; l += 4)
        bits |= u64(unsigned(_mm_movemask_ps(_mm_loadu_ps(reinterpret_cast<const float*>(all_or_none + l))))) << l;
    return bits;
#else
    u64 bits = 0;
    for (unsigned l = 0; l < 64; ++l) bits |= u64(all_or_none[l] & 1) << l;
    return bits;
#endif
}

// The compare runs as a lane loop into words (~0 or 0), which the compiler
// vectorises (SSE2 compares), and lane_bits packs them: shifting each
// lane's bit into the mask in the loop kept it scalar (about 5 host
// instructions per lane; v_cmp_gt_i32 guards every edge of an SGEMM tile).
// The lanes where F(a(l), b(l)) holds: a = VgprLanes or ScalarLanes (a scalar
// source compared as one value, not a broadcast copy), or lanes' pointers.
template <bool (*F)(u32, u32), class A, class B>
inline u64 compare_lanes(A a, B b) {
    alignas(64) Lanes words;
    for (unsigned l = 0; l < 64; ++l) words[l] = F(a(l), b(l)) ? ~0u : 0u;
    return lane_bits(words);
}
#if defined(__x86_64__) && defined(__GNUC__)
template <bool (*F)(u32, u32), class A, class B>
__attribute__((target("avx2"), noinline)) u64 compare_lanes_avx2(A a, B b) {
    alignas(64) Lanes words;
    for (unsigned l = 0; l < 64; ++l) words[l] = F(a(l), b(l)) ? ~0u : 0u;
    u64 bits = 0;
    for (unsigned l = 0; l < 64; l += 8)
        bits |= u64(unsigned(_mm256_movemask_ps(_mm256_load_ps(reinterpret_cast<const float*>(words + l))))) << l;
    return bits;
}
#endif
// Out of line, as the AVX2 one (plain_lanes_baseline).
template <bool (*F)(u32, u32), class A, class B>
__attribute__((noinline)) u64 compare_lanes_baseline(A a, B b) {
    return compare_lanes<F>(a, b);
}
template <bool (*F)(u32, u32)>
__attribute__((noinline)) u64 compare_fetched(Wave& w, const ExecInst& e) {
    alignas(64) Lanes t0, t1;
    const u32* __restrict a = fetch(w, e, 0, t0);
    const u32* __restrict b = fetch(w, e, 1, t1);
    return compare_lanes<F>(VgprLanes{a}, VgprLanes{b});
}

template <bool (*F)(u32, u32), bool WriteExec>
void vopc(Wave& w, const ExecInst& e) {
    u64 result = 0;
    if (plain_sources(e)) {
        with_plain_sources(w, e, [&result](auto a, auto b) {
#if defined(__x86_64__) && defined(__GNUC__)
            if (plain_avx2) {
                result = compare_lanes_avx2<F>(a, b);
                return;
            }
#endif
            result = compare_lanes_baseline<F>(a, b);
        });
        result &= w.exec();  // inactive lanes write 0 (no DPP: write_lanes is EXEC)
    } else {
        result = compare_fetched<F>(w, e) & write_lanes(w, e);
    }
    write_sdst(w, mask_dst(e), result);
    if (WriteExec) w.set_exec(result);
}
template <bool (*F)(u64, u64), bool WriteExec>
void vopc_wide(Wave& w, const ExecInst& e) {
    alignas(64) u64 a[64], b[64];
    fetch_wide(w, e, 0, a);
    fetch_wide(w, e, 1, b);
    u64 result = 0;
    for (unsigned l = 0; l < 64; ++l) result |= u64(F(a[l], b[l])) << l;
    result &= write_lanes(w, e);
    write_sdst(w, mask_dst(e), result);
    if (WriteExec) w.set_exec(result);
}

// Carry ops: F(a, b, carry_in) returns the 32-bit result and the carry out in bit 32.
template <u64 (*F)(u32, u32, u32)>
void vop_carry(Wave& w, const ExecInst& e) {
    alignas(64) Lanes t0, t1, out;
    const u32* a = fetch(w, e, 0, t0);
    const u32* b = fetch(w, e, 1, t1);
    const u64 carry_in = mask_src(w, e);
    u64 carry_out = 0;
    for (unsigned l = 0; l < 64; ++l) {
        const u64 r = F(a[l], b[l], u32((carry_in >> l) & 1));
        out[l] = u32(r);
        carry_out |= (r >> 32) << l;
    }
    const u64 lanes = write_lanes(w, e);
    commit_vdst(w, e, out);
    write_sdst(w, e.sdst, carry_out & lanes);
}

// ---- per-lane operations ---------------------------------------------------

u32 mov(u32 a) { return a; }
u32 not_(u32 a) { return ~a; }
u32 bfrev(u32 a) {
    u32 r = 0;
    for (unsigned i = 0; i < 32; ++i) r |= ((a >> i) & 1) << (31 - i);
    return r;
}
u32 ffbh_u32(u32 a) { return a ? u32(__builtin_clz(a)) : ~0u; }
u32 ffbl_b32(u32 a) { return a ? u32(__builtin_ctz(a)) : ~0u; }
u32 ffbh_i32(u32 a) {
    if (a == 0 || a == ~0u) return ~0u;
    return u32(__builtin_clz(i32(a) < 0 ? ~a : a));
}
u32 cvt_f32_i32(u32 a) { return as_bits(float(i32(a))); }
u32 cvt_f32_u32(u32 a) { return as_bits(float(a)); }
u32 cvt_i32_f32(u32 a) { return u32(fp::to_i32(as_float(a))); }
u32 cvt_u32_f32(u32 a) { return fp::to_u32(as_float(a)); }
u32 cvt_rpi_i32_f32(u32 a) { return u32(fp::to_i32(std::floor(as_float(a) + 0.5f))); }
u32 cvt_flr_i32_f32(u32 a) { return u32(fp::to_i32(std::floor(as_float(a)))); }
template <unsigned Byte>
u32 cvt_f32_ubyte(u32 a) {
    return as_bits(float((a >> (8 * Byte)) & 0xff));
}

// Transcendentals use the host's correctly rounded (or libm) results; the
// hardware's are approximations (1 ulp), so kernels depending on their last
// bit are not bit-exact here.
float rcp(float a) { return 1.0f / a; }
float rsq(float a) { return 1.0f / std::sqrt(a); }
float sqrt_(float a) { return std::sqrt(a); }
float exp2_(float a) { return std::exp2(a); }
float log2_(float a) { return std::log2(a); }
// Input in revolutions: reduced exactly (x - floor(x)) before scaling by 2 pi,
// as the hardware's revolution input allows (scaling first loses ~1e-4 at 256).
float sin_rev(float a) { return float(std::sin(6.283185307179586 * (double(a) - std::floor(double(a))))); }
float cos_rev(float a) { return float(std::cos(6.283185307179586 * (double(a) - std::floor(double(a))))); }
// ISA: S0 + -floor(S0), so +-inf gives NaN.
float fract(float a) {
    if (std::isinf(a)) return fp::as_float(fp::quiet_nan);
    const float f = a - std::floor(a);  // NaN stays NaN
    return f >= 1.0f ? 0x1.fffffep-1f : f;
}
float trunc_(float a) { return std::trunc(a); }
float ceil_(float a) { return std::ceil(a); }
float floor_(float a) { return std::floor(a); }
float rndne(float a) { return std::nearbyint(a); }
float frexp_mant(float a) {
    if (std::isnan(a) || std::isinf(a)) return a;
    int e;
    return std::frexp(a, &e);
}
u32 frexp_exp(u32 a) {
    const float f = as_float(a);
    if (std::isnan(f) || std::isinf(f)) return 0;
    int e;
    std::frexp(f, &e);
    return u32(e);
}

float add(float a, float b) { return a + b; }
float sub(float a, float b) { return a - b; }
float subrev(float a, float b) { return b - a; }
float mul(float a, float b) { return a * b; }
float mul_legacy(float a, float b) { return (a == 0.0f || b == 0.0f) ? 0.0f : a * b; }
float min_f(float a, float b) { return fp::min_num(a, b); }
float max_f(float a, float b) { return fp::max_num(a, b); }
float ldexp_f(float a, float b) { return std::ldexp(a, int(as_bits(b))); }
float mad_legacy(float a, float b, float c) { return fp::flush(mul_legacy(a, b)) + c; }
float min3_f(float a, float b, float c) { return fp::min_num(fp::min_num(a, b), c); }
float max3_f(float a, float b, float c) { return fp::max_num(fp::max_num(a, b), c); }
float med3_f(float a, float b, float c) { return fp::med3(a, b, c); }

u32 add_u32(u32 a, u32 b) { return a + b; }
u32 sub_u32(u32 a, u32 b) { return a - b; }
u32 subrev_u32(u32 a, u32 b) { return b - a; }

// With clamp, the integer adds and subtracts saturate instead of wrapping:
// "Supports saturation (unsigned 32-bit integer domain)" (V_ADD_U32,
// V_SUB_U32, V_SUBREV_U32, V_ADD_CO_U32 ... V_SUBBREV_CO_U32 in the CDNA ISA
// guides' VOP2 chapter: the exact result limited to [0, 0xffffffff]);
// V_ADD_I32 / V_SUB_I32 (VOP3, gfx9) in the signed 32-bit domain, limited to
// [INT32_MIN, INT32_MAX]. The carry ops' carry-out is the unsaturated one
// (the pseudo-code sets VCC from tmp).
u32 saturate_u32(i64 exact) { return exact < 0 ? 0u : exact > i64(UINT32_MAX) ? UINT32_MAX : u32(exact); }
u32 saturate_i32(i64 exact) { return u32(i32(std::clamp<i64>(exact, INT32_MIN, INT32_MAX))); }
u32 add_u32_saturating(u32 a, u32 b) { return saturate_u32(i64(a) + b); }
u32 sub_u32_saturating(u32 a, u32 b) { return saturate_u32(i64(a) - b); }
u32 subrev_u32_saturating(u32 a, u32 b) { return saturate_u32(i64(b) - a); }
u32 add_i32_saturating(u32 a, u32 b) { return saturate_i32(i64(i32(a)) + i32(b)); }
u32 sub_i32_saturating(u32 a, u32 b) { return saturate_i32(i64(i32(a)) - i32(b)); }
u32 mul_i32_i24(u32 a, u32 b) { return u32(i32(a << 8) >> 8) * u32(i32(b << 8) >> 8); }
u32 mul_hi_i32_i24(u32 a, u32 b) { return u32(u64(i64(i32(a << 8) >> 8) * i64(i32(b << 8) >> 8)) >> 32); }
u32 mul_u32_u24(u32 a, u32 b) { return (a & 0xffffff) * (b & 0xffffff); }
u32 mul_hi_u32_u24(u32 a, u32 b) { return u32((u64(a & 0xffffff) * (b & 0xffffff)) >> 32); }
u32 min_i32(u32 a, u32 b) { return i32(a) < i32(b) ? a : b; }
u32 max_i32(u32 a, u32 b) { return i32(a) > i32(b) ? a : b; }
u32 min_u32(u32 a, u32 b) { return a < b ? a : b; }
u32 max_u32(u32 a, u32 b) { return a > b ? a : b; }
u32 lshrrev(u32 a, u32 b) { return b >> (a & 31); }
u32 ashrrev(u32 a, u32 b) { return u32(i32(b) >> (a & 31)); }
u32 lshlrev(u32 a, u32 b) { return b << (a & 31); }
u32 and_(u32 a, u32 b) { return a & b; }
u32 or_(u32 a, u32 b) { return a | b; }
u32 xor_(u32 a, u32 b) { return a ^ b; }
u32 xnor(u32 a, u32 b) { return ~(a ^ b); }
u32 mul_lo_u32(u32 a, u32 b) { return a * b; }
u32 mul_hi_u32(u32 a, u32 b) { return u32((u64(a) * b) >> 32); }
u32 mul_hi_i32(u32 a, u32 b) { return u32(u64(i64(i32(a)) * i32(b)) >> 32); }
u32 bcnt(u32 a, u32 b) { return u32(__builtin_popcount(a)) + b; }
u32 bfm(u32 a, u32 b) { return ((1u << (a & 31)) - 1) << (b & 31); }
u32 mad_u32_u24(u32 a, u32 b, u32 c) { return (a & 0xffffff) * (b & 0xffffff) + c; }
u32 mad_i32_i24(u32 a, u32 b, u32 c) { return mul_i32_i24(a, b) + c; }
u32 bfe_u32(u32 a, u32 b, u32 c) {
    const u32 offset = b & 31, width = c & 31;
    if (width == 0) return 0;
    return (a >> offset) & ((width + offset >= 32) ? ~0u : ((1u << width) - 1));
}
u32 bfe_i32(u32 a, u32 b, u32 c) {
    const u32 offset = b & 31, width = c & 31;
    if (width == 0) return 0;
    if (width + offset < 32) return u32(i32(a << (32 - width - offset)) >> (32 - width));
    return u32(i32(a) >> offset);
}
u32 bfi(u32 a, u32 b, u32 c) { return (a & b) | (~a & c); }
u32 alignbit(u32 a, u32 b, u32 c) { return u32(((u64(a) << 32) | b) >> (c & 31)); }
u32 alignbyte(u32 a, u32 b, u32 c) { return u32(((u64(a) << 32) | b) >> (8 * (c & 3))); }
u32 min3_i32(u32 a, u32 b, u32 c) { return min_i32(min_i32(a, b), c); }
u32 max3_i32(u32 a, u32 b, u32 c) { return max_i32(max_i32(a, b), c); }
u32 min3_u32(u32 a, u32 b, u32 c) { return min_u32(min_u32(a, b), c); }
u32 max3_u32(u32 a, u32 b, u32 c) { return max_u32(max_u32(a, b), c); }
u32 med3_i32(u32 a, u32 b, u32 c) { return max_i32(min_i32(a, b), min_i32(max_i32(a, b), c)); }
u32 med3_u32(u32 a, u32 b, u32 c) { return max_u32(min_u32(a, b), min_u32(max_u32(a, b), c)); }
u32 lshl_add(u32 a, u32 b, u32 c) { return (a << (b & 31)) + c; }
u32 add_lshl(u32 a, u32 b, u32 c) { return (a + b) << (c & 31); }
u32 add3(u32 a, u32 b, u32 c) { return a + b + c; }
u32 lshl_or(u32 a, u32 b, u32 c) { return (a << (b & 31)) | c; }
u32 and_or(u32 a, u32 b, u32 c) { return (a & b) | c; }
u32 or3(u32 a, u32 b, u32 c) { return a | b | c; }
u32 xad(u32 a, u32 b, u32 c) { return (a ^ b) + c; }
u32 sad_u32(u32 a, u32 b, u32 c) { return (a > b ? a - b : b - a) + c; }
u32 perm(u32 a, u32 b, u32 c) {
    const u64 bytes = (u64(a) << 32) | b;
    u32 r = 0;
    for (unsigned i = 0; i < 4; ++i) {
        const u32 sel = (c >> (8 * i)) & 0xff;
        u32 byte;
        if (sel < 8) byte = u32(bytes >> (8 * sel)) & 0xff;
        else if (sel < 12)
            byte = ((u32(bytes >> (8 * (2 * (sel - 8) + 1))) >> 7) & 1) ? 0xff : 0;  // sign of a 16-bit half
        else if (sel == 12) byte = 0;
        else byte = 0xff;
        r |= byte << (8 * i);
    }
    return r;
}

u64 add_co(u32 a, u32 b, u32) { return u64(a) + b; }
u64 sub_co(u32 a, u32 b, u32) { return (u64(a) - b) & 0x1ffffffffull; }  // borrow in bit 32
u64 subrev_co(u32 a, u32 b, u32) { return (u64(b) - a) & 0x1ffffffffull; }
u64 addc_co(u32 a, u32 b, u32 c) { return u64(a) + b + c; }
u64 subb_co(u32 a, u32 b, u32 c) { return (u64(a) - b - c) & 0x1ffffffffull; }
u64 subbrev_co(u32 a, u32 b, u32 c) { return (u64(b) - a - c) & 0x1ffffffffull; }
// The saturating forms (clamp): the carry/borrow bit as above, the result saturated.
u64 with_carry(u64 carry, i64 exact) { return carry << 32 | saturate_u32(exact); }
u64 add_co_saturating(u32 a, u32 b, u32 c) { return with_carry(add_co(a, b, c) >> 32, i64(a) + b); }
u64 sub_co_saturating(u32 a, u32 b, u32 c) { return with_carry(sub_co(a, b, c) >> 32, i64(a) - b); }
u64 subrev_co_saturating(u32 a, u32 b, u32 c) { return with_carry(subrev_co(a, b, c) >> 32, i64(b) - a); }
u64 addc_co_saturating(u32 a, u32 b, u32 c) { return with_carry(addc_co(a, b, c) >> 32, i64(a) + b + c); }
u64 subb_co_saturating(u32 a, u32 b, u32 c) { return with_carry(subb_co(a, b, c) >> 32, i64(a) - b - c); }
u64 subbrev_co_saturating(u32 a, u32 b, u32 c) { return with_carry(subbrev_co(a, b, c) >> 32, i64(b) - a - c); }

// Compares.
bool f_lt(u32 a, u32 b) { return as_float(a) < as_float(b); }
bool f_eq(u32 a, u32 b) { return as_float(a) == as_float(b); }
bool f_le(u32 a, u32 b) { return as_float(a) <= as_float(b); }
bool f_gt(u32 a, u32 b) { return as_float(a) > as_float(b); }
bool f_lg(u32 a, u32 b) { return as_float(a) < as_float(b) || as_float(a) > as_float(b); }
bool f_ge(u32 a, u32 b) { return as_float(a) >= as_float(b); }
bool f_o(u32 a, u32 b) { return !std::isnan(as_float(a)) && !std::isnan(as_float(b)); }
bool f_u(u32 a, u32 b) { return !f_o(a, b); }
bool f_nge(u32 a, u32 b) { return !f_ge(a, b); }
bool f_nlg(u32 a, u32 b) { return !f_lg(a, b); }
bool f_ngt(u32 a, u32 b) { return !f_gt(a, b); }
bool f_nle(u32 a, u32 b) { return !f_le(a, b); }
bool f_neq(u32 a, u32 b) { return !f_eq(a, b); }
bool f_nlt(u32 a, u32 b) { return !f_lt(a, b); }
bool class_f32(u32 a, u32 b) { return (fp::float_class(as_float(a)) & b) != 0; }
template <class T>
bool never(T, T) {
    return false;
}
template <class T>
bool always(T, T) {
    return true;
}
template <class T>
bool lt(T a, T b) {
    return a < b;
}
template <class T>
bool eq(T a, T b) {
    return a == b;
}
template <class T>
bool le(T a, T b) {
    return a <= b;
}
template <class T>
bool gt(T a, T b) {
    return a > b;
}
template <class T>
bool ne(T a, T b) {
    return a != b;
}
template <class T>
bool ge(T a, T b) {
    return a >= b;
}
// Signed compares on raw lane values.
template <class U, bool (*F)(std::make_signed_t<U>, std::make_signed_t<U>)>
bool signed_cmp(U a, U b) {
    return F(std::make_signed_t<U>(a), std::make_signed_t<U>(b));
}

// f64 via the wide path.
u64 add_f64(u64 a, u64 b, u64) { return double_bits(as_double(a) + as_double(b)); }
u64 mul_f64(u64 a, u64 b, u64) { return double_bits(as_double(a) * as_double(b)); }
u64 fma_f64(u64 a, u64 b, u64 c) { return double_bits(std::fma(as_double(a), as_double(b), as_double(c))); }
// IEEE minNum/maxNum as the f32 forms (fp::min_num): a signaling NaN gives
// a quiet NaN, one quiet NaN the other operand, -0 < +0.
bool is_signaling64(u64 a) { return std::isnan(as_double(a)) && !(a & 0x0008000000000000ull); }
template <bool Max>
u64 pick_f64(u64 a, u64 b, u64) {
    const double x = as_double(a), y = as_double(b);
    if (is_signaling64(a) || is_signaling64(b)) return 0x7ff8000000000000ull;
    if (std::isnan(x)) return std::isnan(y) ? 0x7ff8000000000000ull : b;
    if (std::isnan(y)) return a;
    if (x == y) return (std::signbit(x) != Max) ? a : b;
    return (x < y) != Max ? a : b;
}
u64 min_f64(u64 a, u64 b, u64 c) { return pick_f64<false>(a, b, c); }
u64 max_f64(u64 a, u64 b, u64 c) { return pick_f64<true>(a, b, c); }
u64 cvt_f64_f32(u64 a, u64, u64) { return double_bits(double(as_float(u32(a)))); }
u64 cvt_f32_f64(u64 a, u64, u64) { return as_bits(float(as_double(a))); }
u64 cvt_f64_i32(u64 a, u64, u64) { return double_bits(double(i32(a))); }
u64 cvt_f64_u32(u64 a, u64, u64) { return double_bits(double(u32(a))); }
u64 cvt_i32_f64(u64 a, u64, u64) {
    const double d = as_double(a);
    if (std::isnan(d)) return 0;
    return u32(d >= 2147483647.0 ? 2147483647 : d <= -2147483648.0 ? i32(-2147483647 - 1) : i32(d));
}
u64 cvt_u32_f64(u64 a, u64, u64) {
    const double d = as_double(a);
    if (std::isnan(d) || d <= 0) return 0;
    return d >= 4294967295.0 ? 4294967295u : u32(d);
}
u64 lshlrev_b64(u64 a, u64 b, u64) { return b << (a & 63); }
u64 lshrrev_b64(u64 a, u64 b, u64) { return b >> (a & 63); }
u64 ashrrev_i64(u64 a, u64 b, u64) { return u64(i64(b) >> (a & 63)); }
u64 lshl_add_u64(u64 a, u64 b, u64 c) { return (a << (b & 7)) + c; }
u64 mov_b64(u64 a, u64, u64) { return a; }

// v_mad_u64_u32 / v_mad_i64_i32: 64-bit result plus a carry-out mask.
template <bool Signed>
void mad_64_32(Wave& w, const ExecInst& e) {
    alignas(64) u64 a[64], b[64], c[64], out[64];
    fetch_wide(w, e, 0, a);
    fetch_wide(w, e, 1, b);
    fetch_wide(w, e, 2, c);
    u64 carry = 0;
    for (unsigned l = 0; l < 64; ++l) {
        if (Signed) {
            const __int128 r = __int128(i64(i32(u32(a[l])))) * i32(u32(b[l])) + __int128(i64(c[l]));
            out[l] = u64(r);
            carry |= u64(r != __int128(i64(u64(r)))) << l;
        } else {
            const unsigned __int128 r = (unsigned __int128)(u32(a[l])) * u32(b[l]) + c[l];
            out[l] = u64(r);
            carry |= u64(r >> 64) << l;
        }
    }
    const u64 lanes = write_lanes(w, e);
    commit_wide(w, e, out);
    write_sdst(w, e.sdst, carry & lanes);
}

// ---- lane-crossing and special forms ----------------------------------------

// Out of line: the plain form below does without its frame.
__attribute__((noinline)) void cndmask_general(Wave& w, const ExecInst& e) {
    alignas(64) Lanes t0, t1, out;
    const u32* a = fetch(w, e, 0, t0);
    const u32* b = fetch(w, e, 1, t1);
    const u64 mask = mask_src(w, e);
#if defined(__SSE2__)
    // 4 lanes a step: the mask's bits as lane masks, then and/andnot/or
    // (the lane loop with a bit test per lane stayed scalar).
    const __m128i bit = _mm_setr_epi32(1, 2, 4, 8);
    for (unsigned l = 0; l < 64; l += 4) {
        const __m128i take_b =
            _mm_cmpeq_epi32(_mm_and_si128(_mm_set1_epi32(int(unsigned(mask >> l) & 0xfu)), bit), bit);
        const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a + l));
        const __m128i y = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + l));
        _mm_store_si128(reinterpret_cast<__m128i*>(out + l),
                        _mm_or_si128(_mm_and_si128(take_b, y), _mm_andnot_si128(take_b, x)));
    }
#else
    for (unsigned l = 0; l < 64; ++l) out[l] = ((mask >> l) & 1) ? b[l] : a[l];
#endif
    commit_vdst(w, e, out);
}

// The plain form's baseline loop, out of line (plain_lanes_baseline).
template <class A, class B>
__attribute__((noinline)) void select_lanes_baseline(u32* dst, A a, B b, u64 mask) {
#if defined(__SSE2__)
    const __m128i bit = _mm_setr_epi32(1, 2, 4, 8);
    for (unsigned l = 0; l < 64; l += 4) {  // lanes l..l+3 of a and b are read before they are written
        const __m128i take_b =
            _mm_cmpeq_epi32(_mm_and_si128(_mm_set1_epi32(int(unsigned(mask >> l) & 0xfu)), bit), bit);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + l),
                         _mm_or_si128(_mm_and_si128(take_b, b.four(l)), _mm_andnot_si128(take_b, a.four(l))));
    }
#else
    for (unsigned l = 0; l < 64; ++l) dst[l] = ((mask >> l) & 1) ? b(l) : a(l);
#endif
}

void cndmask(Wave& w, const ExecInst& e) {
    if (!plain_binary(w, e)) return cndmask_general(w, e);
    u32* dst = w.v[e.dst.index];
    const u64 mask = mask_src(w, e);
    with_plain_sources(w, e, [dst, mask](auto a, auto b) {
#if defined(__x86_64__) && defined(__GNUC__)
        if (plain_avx2) return select_lanes_avx2(dst, a, b, mask);
#endif
        select_lanes_baseline(dst, a, b, mask);
    });
}

void readlane(Wave& w, const ExecInst& e) {
    const unsigned lane = read32(w, e.src[1]) & 63;
    alignas(64) Lanes t0;
    write32(w, e.dst, fetch(w, e, 0, t0)[lane]);
}
void readfirstlane(Wave& w, const ExecInst& e) {
    const u64 exec = w.exec();
    const unsigned lane = exec ? unsigned(__builtin_ctzll(exec)) : 0;
    alignas(64) Lanes t0;
    write32(w, e.dst, fetch(w, e, 0, t0)[lane]);
}
// Writes one lane whatever EXEC says.
void writelane(Wave& w, const ExecInst& e) {
    const unsigned lane = read32(w, e.src[1]) & 63;
    vreg(w, e.dst)[lane] = read32(w, e.src[0]);
}
template <bool Hi>
void mbcnt(Wave& w, const ExecInst& e) {
    alignas(64) Lanes t0, t1, out;
    const u32* a = fetch(w, e, 0, t0);
    const u32* b = fetch(w, e, 1, t1);
    for (unsigned l = 0; l < 64; ++l) {
        const unsigned below = Hi ? (l < 32 ? 0 : l - 32) : (l < 32 ? l : 32);
        const u32 mask = below >= 32 ? ~0u : ((1u << below) - 1);
        out[l] = u32(__builtin_popcount(a[l] & mask)) + b[l];
    }
    commit_vdst(w, e, out);
}
void swap(Wave& w, const ExecInst& e) {
    u32* a = vreg(w, e.dst);
    u32* b = vreg(w, e.src[0]);
    const u64 lanes = w.exec();
    for (unsigned l = 0; l < 64; ++l)
        if ((lanes >> l) & 1) std::swap(a[l], b[l]);
}

// ---- packed fp32 (VOP3P, gfx90a+) -----------------------------------------

// Dword `half` (0 lo, 1 hi) of source i: registers give their two dwords,
// a constant or single SGPR gives the same value for both.
const u32* packed_half(Wave& w, const ExecInst& e, unsigned i, unsigned half, Lanes tmp) {
    const Src& s = e.src[i];
    if (s.is_vector() || (s.kind == Src::Kind::sreg && s.dwords > 1)) return fetch(w, e, i, tmp, half);
    return fetch(w, e, i, tmp, 0);
}

float pk_fma(float a, float b, float c) { return std::fma(a, b, c); }

// Both halves are computed before either is written: the hardware reads every
// source first, so a destination that overlaps a source the other half
// selects (v_pk_fma_f32 v[0:1], v[0:1], ... op_sel_hi:[0,..]) still gives that
// half the old value.
template <float (*F)(float, float, float), unsigned Sources>
void pk_f32(Wave& w, const ExecInst& e) {
    const Inst& inst = *e.inst;
    const bool flush_in = e.flush_in, flush_out = e.flush_out;  // the wave's fp32 denorm mode
    alignas(64) Lanes out[2];
    for (unsigned half = 0; half < 2; ++half) {
        alignas(64) Lanes t[3];
        const u32* src[3] = {nullptr, nullptr, nullptr};
        u32 neg[3] = {0, 0, 0};
        for (unsigned i = 0; i < Sources; ++i) {
            const unsigned sel = half == 0 ? (inst.mods.op_sel >> i) & 1 : (inst.mods.op_sel_hi >> i) & 1;
            src[i] = packed_half(w, e, i, sel, t[i]);
            neg[i] = (((half == 0 ? inst.mods.neg : inst.mods.neg_hi) >> i) & 1) << 31;
        }
        if constexpr (F == pk_fma) {
            // The GEMM case (no negation): the multiply-add lane loops of
            // v_fmac_f32 (vectorized, AVX2+FMA where the CPU has it), which
            // flush inputs and result exactly as here; clamp takes the loop below.
            if (!(neg[0] | neg[1] | neg[2]) && !inst.clamp) {
                const MultiplyAddLoops& loops = multiply_add_loops<true>();
                (flush_in ? loops.flushing : loops.plain)(src[0], src[1], src[2], out[half], flush_out);
                continue;
            }
        }
        for (unsigned l = 0; l < 64; ++l) {
            float x[3] = {0, 0, 0};
            for (unsigned i = 0; i < Sources; ++i) {
                u32 bits = src[i][l] ^ neg[i];
                x[i] = as_float(flush_in ? fp::flush(bits) : bits);
            }
            u32 r = as_bits(F(x[0], x[1], x[2]));
            if (inst.clamp) {  // [0, 1], NaN -> 0 (DX10 clamp), per half as the f32 forms
                const float f = as_float(r);
                r = as_bits(std::isnan(f) ? 0.0f : f < 0.0f ? 0.0f : f > 1.0f ? 1.0f : f);
            }
            out[half][l] = flush_out ? fp::flush(r) : r;
        }
    }
    commit(vreg(w, e.dst, 0), out[0], w.exec());
    commit(vreg(w, e.dst, 1), out[1], w.exec());
}

// ---- packed multiply-add runs ------------------------------------------------
//
// Why: the packed SGEMM kernel is made of v_pk_fma_f32 on VGPR pairs, and
// through pk_f32 each one cost two lane loops that flush every input, two
// copies into temporaries and two masked commits: 2.3x dpp0's time for
// 1024^3 although it executes half the VALU instructions. A run of them
// (ExecInst::multiply_add_run; direct steps: VGPR sources, no neg_lo/neg_hi,
// no clamp) goes through the AVX-512 rows instead, both halves of a row
// computed before either is stored (the destination may be a source dword
// the other half reads), the input flush by the host's denormals-are-zero mode as for the
// other runs. Other steps of the run take pk_f32. Bit for bit equal to pk_f32
// (tests/exec/test_fast_paths.cpp).
#if defined(__x86_64__) && defined(__GNUC__)
template <bool FlushOut>
__attribute__((target("avx512f,avx2,fma"), noinline)) void packed_multiply_add_run_avx512(Wave& w, const ExecInst* run,
                                                                                          unsigned length) {
    const u64 exec = w.exec();          // no multiply-add changes EXEC
    const Workgroup& group = *w.group;  // the run loop announced run[0] to the observer
    const MultiplyAddStep* steps = run[0].multiply_add_steps;
    for (unsigned i = 0; i < length; ++i) {
        if (i && group.watches(run[0].index + i)) group.observer->before_instruction(w, run[i]);
        const MultiplyAddStep& x = steps[i];
        if (x.kind != MultiplyAddStep::Kind::direct) {
            pk_f32<pk_fma, 3>(w, run[i]);
            continue;
        }
        const u32 *a_lo = w.v[x.src[0]], *b_lo = w.v[x.src[1]], *c_lo = w.v[x.src[2]];
        const u32 *a_hi = w.v[x.src_hi[0]], *b_hi = w.v[x.src_hi[1]], *c_hi = w.v[x.src_hi[2]];
        u32 *dst_lo = w.v[x.dst], *dst_hi = w.v[x.dst + 1];
        for (unsigned row = 0; row < 4; ++row) {
            const unsigned l = 16 * row;
            const __m512 lo =
                multiply_add_row<true, FlushOut>(load_row(a_lo + l), load_row(b_lo + l), load_row(c_lo + l));
            const __m512 hi =
                multiply_add_row<true, FlushOut>(load_row(a_hi + l), load_row(b_hi + l), load_row(c_hi + l));
            store_row(dst_lo + l, lo, __mmask16(exec >> l));
            store_row(dst_hi + l, hi, __mmask16(exec >> l));
        }
    }
}
#endif

void pk_fma_op(Wave& w, const ExecInst& e) {
#if defined(__x86_64__) && defined(__GNUC__)
    const MultiplyAddLoops& loops = multiply_add_loops<true>();
    if (loops.avx512 && (!e.flush_in || loops.denormals_are_zero)) {
        const unsigned length = e.multiply_add_run;
        set_host_denormals_are_zero(w, e.flush_in);
        if (e.flush_out) packed_multiply_add_run_avx512<true>(w, &e, length);
        else packed_multiply_add_run_avx512<false>(w, &e, length);
        finish_run(w, &e, length);
        return;
    }
#endif
    set_host_denormals_are_zero(w, false);
    pk_f32<pk_fma, 3>(w, e);
}

float pk_mul(float a, float b, float) { return a * b; }
float pk_add(float a, float b, float) { return a + b; }

void pk_mov_b32(Wave& w, const ExecInst& e) {
    alignas(64) Lanes t0, t1;
    const u32* lo = packed_half(w, e, 0, e.inst->mods.op_sel & 1, t0);
    const u32* hi = packed_half(w, e, 1, (e.inst->mods.op_sel >> 1) & 1, t1);
    alignas(64) Lanes lo_copy;
    std::memcpy(lo_copy, lo, sizeof lo_copy);  // dst may overlap a source
    alignas(64) Lanes hi_copy;
    std::memcpy(hi_copy, hi, sizeof hi_copy);
    commit(vreg(w, e.dst, 0), lo_copy, w.exec());
    commit(vreg(w, e.dst, 1), hi_copy, w.exec());
}

}  // namespace

void register_vector(Table& t) {
    const InstClass V = InstClass::valu;
    const FloatPolicy F = FloatPolicy::mode;
    auto v = [&](Op op, ExecFn fn, FloatPolicy fp = FloatPolicy::none) { set(t, op, fn, V, fp); };
    // The multiply-add runs put the host in the float mode they need
    // themselves (host_float_mode.hpp).
    auto multiply_add = [&](Op op, ExecFn fn, FloatPolicy fp, Accumulator accumulator = Accumulator::as_decoded) {
        set(t, op, fn, V, fp, accumulator);
        t[static_cast<std::size_t>(op)].sets_host_float_mode = true;
    };

    // VOP1
    v(Op::v_nop, no_effect);
    v(Op::v_mov_b32, vop1<mov>);
    v(Op::v_accvgpr_read_b32, vop1<mov>);
    v(Op::v_accvgpr_write_b32, vop1<mov>);
    v(Op::v_accvgpr_mov_b32, vop1<mov>);
    v(Op::v_readfirstlane_b32, readfirstlane);
    v(Op::v_not_b32, vop1<not_>);
    v(Op::v_bfrev_b32, vop1<bfrev>);
    v(Op::v_ffbh_u32, vop1<ffbh_u32>);
    v(Op::v_ffbl_b32, vop1<ffbl_b32>);
    v(Op::v_ffbh_i32, vop1<ffbh_i32>);
    v(Op::v_cvt_f32_i32, vop1<cvt_f32_i32>, F);
    v(Op::v_cvt_f32_u32, vop1<cvt_f32_u32>, F);
    v(Op::v_cvt_i32_f32, vop1<cvt_i32_f32>, F);
    v(Op::v_cvt_u32_f32, vop1<cvt_u32_f32>, F);
    v(Op::v_cvt_rpi_i32_f32, vop1<cvt_rpi_i32_f32>, F);
    v(Op::v_cvt_flr_i32_f32, vop1<cvt_flr_i32_f32>, F);
    v(Op::v_cvt_f32_ubyte0, vop1<cvt_f32_ubyte<0>>);
    v(Op::v_cvt_f32_ubyte1, vop1<cvt_f32_ubyte<1>>);
    v(Op::v_cvt_f32_ubyte2, vop1<cvt_f32_ubyte<2>>);
    v(Op::v_cvt_f32_ubyte3, vop1<cvt_f32_ubyte<3>>);
    v(Op::v_rcp_f32, vop1<fbits1<rcp>>, F);
    v(Op::v_rcp_iflag_f32, vop1<fbits1<rcp>>, F);
    v(Op::v_rsq_f32, vop1<fbits1<rsq>>, F);
    v(Op::v_sqrt_f32, vop1<fbits1<sqrt_>>, F);
    v(Op::v_exp_f32, vop1<fbits1<exp2_>>, F);
    v(Op::v_log_f32, vop1<fbits1<log2_>>, F);
    // V_EXP/LOG_LEGACY_F32 (Vega ISA): "D.f = pow(2.0, S0.f)", "D.f = log2(S0.f)"; see README.
    v(Op::v_exp_legacy_f32, vop1<fbits1<exp2_>>, F);
    v(Op::v_log_legacy_f32, vop1<fbits1<log2_>>, F);
    v(Op::v_sin_f32, vop1<fbits1<sin_rev>>, F);
    v(Op::v_cos_f32, vop1<fbits1<cos_rev>>, F);
    v(Op::v_fract_f32, vop1<fbits1<fract>>, F);
    v(Op::v_trunc_f32, vop1<fbits1<trunc_>>, F);
    v(Op::v_ceil_f32, vop1<fbits1<ceil_>>, F);
    v(Op::v_floor_f32, vop1<fbits1<floor_>>, F);
    v(Op::v_rndne_f32, vop1<fbits1<rndne>>, F);
    v(Op::v_frexp_mant_f32, vop1<fbits1<frexp_mant>>, F);
    v(Op::v_frexp_exp_i32_f32, vop1<frexp_exp>, F);
    v(Op::v_swap_b32, swap);
    v(Op::v_mov_b64, vop_wide<mov_b64>);
    v(Op::v_cvt_f64_f32, vop_wide<cvt_f64_f32>, F);
    v(Op::v_cvt_f32_f64, vop_wide<cvt_f32_f64>, F);
    v(Op::v_cvt_f64_i32, vop_wide<cvt_f64_i32>, F);
    v(Op::v_cvt_f64_u32, vop_wide<cvt_f64_u32>, F);
    v(Op::v_cvt_i32_f64, vop_wide<cvt_i32_f64>, F);
    v(Op::v_cvt_u32_f64, vop_wide<cvt_u32_f64>, F);

    // VOP2
    v(Op::v_cndmask_b32, cndmask);
    v(Op::v_add_f32, vop2<fbits2<add>>, F);
    v(Op::v_sub_f32, vop2<fbits2<sub>>, F);
    v(Op::v_subrev_f32, vop2<fbits2<subrev>>, F);
    v(Op::v_mul_f32, vop2<fbits2<mul>>, F);
    v(Op::v_mul_legacy_f32, vop2<fbits2<mul_legacy>>, F);
    v(Op::v_min_f32, vop2<fbits2<min_f>>, F);
    v(Op::v_max_f32, vop2<fbits2<max_f>>, F);
    v(Op::v_mul_i32_i24, vop2<mul_i32_i24>);
    v(Op::v_mul_hi_i32_i24, vop2<mul_hi_i32_i24>);
    v(Op::v_mul_u32_u24, vop2<mul_u32_u24>);
    v(Op::v_mul_hi_u32_u24, vop2<mul_hi_u32_u24>);
    v(Op::v_min_i32, vop2<min_i32>);
    v(Op::v_max_i32, vop2<max_i32>);
    v(Op::v_min_u32, vop2<min_u32>);
    v(Op::v_max_u32, vop2<max_u32>);
    v(Op::v_lshrrev_b32, vop2<lshrrev>);
    v(Op::v_ashrrev_i32, vop2<ashrrev>);
    v(Op::v_lshlrev_b32, vop2<lshlrev>);
    v(Op::v_and_b32, vop2<and_>);
    v(Op::v_or_b32, vop2<or_>);
    v(Op::v_xor_b32, vop2<xor_>);
    v(Op::v_xnor_b32, vop2<xnor>);
    v(Op::v_add_u32, vop2<add_u32>);
    v(Op::v_sub_u32, vop2<sub_u32>);
    v(Op::v_subrev_u32, vop2<subrev_u32>);
    v(Op::v_ldexp_f32, vop2<fbits2<ldexp_f>>, F);
    multiply_add(Op::v_mac_f32, multiply_add_op<false>, FloatPolicy::no_denormals, Accumulator::destination);
    multiply_add(Op::v_fmac_f32, multiply_add_op<true>, F, Accumulator::destination);
    multiply_add(Op::v_madmk_f32, multiply_add_op<false, 0, 2, 1>, FloatPolicy::no_denormals);
    multiply_add(Op::v_madak_f32, multiply_add_op<false>, FloatPolicy::no_denormals);
    multiply_add(Op::v_fmamk_f32, multiply_add_op<true, 0, 2, 1>, F);
    multiply_add(Op::v_fmaak_f32, multiply_add_op<true>, F);
    v(Op::v_add_co_u32, vop_carry<add_co>);
    v(Op::v_sub_co_u32, vop_carry<sub_co>);
    v(Op::v_subrev_co_u32, vop_carry<subrev_co>);
    v(Op::v_addc_co_u32, vop_carry<addc_co>);
    v(Op::v_subb_co_u32, vop_carry<subb_co>);
    v(Op::v_subbrev_co_u32, vop_carry<subbrev_co>);
    v(Op::v_add_i32, vop2<add_u32>);  // gfx9 VOP3 forms without carry
    v(Op::v_sub_i32, vop2<sub_u32>);
    set_saturating(t, Op::v_add_u32, vop2<add_u32_saturating>);
    set_saturating(t, Op::v_sub_u32, vop2<sub_u32_saturating>);
    set_saturating(t, Op::v_subrev_u32, vop2<subrev_u32_saturating>);
    set_saturating(t, Op::v_add_co_u32, vop_carry<add_co_saturating>);
    set_saturating(t, Op::v_sub_co_u32, vop_carry<sub_co_saturating>);
    set_saturating(t, Op::v_subrev_co_u32, vop_carry<subrev_co_saturating>);
    set_saturating(t, Op::v_addc_co_u32, vop_carry<addc_co_saturating>);
    set_saturating(t, Op::v_subb_co_u32, vop_carry<subb_co_saturating>);
    set_saturating(t, Op::v_subbrev_co_u32, vop_carry<subbrev_co_saturating>);
    set_saturating(t, Op::v_add_i32, vop2<add_i32_saturating>);
    set_saturating(t, Op::v_sub_i32, vop2<sub_i32_saturating>);

    // VOP3
    multiply_add(Op::v_mad_f32, multiply_add_op<false>, FloatPolicy::no_denormals);
    v(Op::v_mad_legacy_f32, vop3<fbits3<mad_legacy>>, FloatPolicy::no_denormals);
    multiply_add(Op::v_fma_f32, multiply_add_op<true>, F);
    v(Op::v_mad_i32_i24, vop3<mad_i32_i24>);
    v(Op::v_mad_u32_u24, vop3<mad_u32_u24>);
    v(Op::v_bfe_u32, vop3<bfe_u32>);
    v(Op::v_bfe_i32, vop3<bfe_i32>);
    v(Op::v_bfi_b32, vop3<bfi>);
    v(Op::v_alignbit_b32, vop3<alignbit>);
    v(Op::v_alignbyte_b32, vop3<alignbyte>);
    v(Op::v_min3_f32, vop3<fbits3<min3_f>>, F);
    v(Op::v_max3_f32, vop3<fbits3<max3_f>>, F);
    v(Op::v_med3_f32, vop3<fbits3<med3_f>>, F);
    v(Op::v_min3_i32, vop3<min3_i32>);
    v(Op::v_max3_i32, vop3<max3_i32>);
    v(Op::v_med3_i32, vop3<med3_i32>);
    v(Op::v_min3_u32, vop3<min3_u32>);
    v(Op::v_max3_u32, vop3<max3_u32>);
    v(Op::v_med3_u32, vop3<med3_u32>);
    v(Op::v_sad_u32, vop3<sad_u32>);
    v(Op::v_lshl_add_u32, vop3<lshl_add>);
    v(Op::v_add_lshl_u32, vop3<add_lshl>);
    v(Op::v_add3_u32, vop3<add3>);
    v(Op::v_lshl_or_b32, vop3<lshl_or>);
    v(Op::v_and_or_b32, vop3<and_or>);
    v(Op::v_or3_b32, vop3<or3>);
    v(Op::v_xad_u32, vop3<xad>);
    v(Op::v_perm_b32, vop3<perm>);
    v(Op::v_mul_lo_u32, vop2<mul_lo_u32>);
    v(Op::v_mul_hi_u32, vop2<mul_hi_u32>);
    v(Op::v_mul_hi_i32, vop2<mul_hi_i32>);
    v(Op::v_bcnt_u32_b32, vop2<bcnt>);
    v(Op::v_bfm_b32, vop2<bfm>);
    v(Op::v_mbcnt_lo_u32_b32, mbcnt<false>);
    v(Op::v_mbcnt_hi_u32_b32, mbcnt<true>);
    v(Op::v_readlane_b32, readlane);
    v(Op::v_writelane_b32, writelane);
    v(Op::v_lshlrev_b64, vop_wide<lshlrev_b64>);
    v(Op::v_lshrrev_b64, vop_wide<lshrrev_b64>);
    v(Op::v_ashrrev_i64, vop_wide<ashrrev_i64>);
    v(Op::v_lshl_add_u64, vop_wide<lshl_add_u64>);
    v(Op::v_mad_u64_u32, mad_64_32<false>);
    v(Op::v_mad_i64_i32, mad_64_32<true>);
    v(Op::v_add_f64, vop_wide<add_f64>, F);
    v(Op::v_mul_f64, vop_wide<mul_f64>, F);
    v(Op::v_fma_f64, vop_wide<fma_f64>, F);
    v(Op::v_min_f64, vop_wide<min_f64>, F);
    v(Op::v_max_f64, vop_wide<max_f64>, F);

    // VOP3P
    multiply_add(Op::v_pk_fma_f32, pk_fma_op, F);
    v(Op::v_pk_mul_f32, pk_f32<pk_mul, 2>, F);
    v(Op::v_pk_add_f32, pk_f32<pk_add, 2>, F);
    v(Op::v_pk_mov_b32, pk_mov_b32);

    // VOPC
#define DPPGEMM_CMP(suffix, f32fn)                      \
    v(Op::v_cmp_##suffix##_f32, vopc<f32fn, false>, F); \
    v(Op::v_cmpx_##suffix##_f32, vopc<f32fn, true>, F);
    DPPGEMM_CMP(f, never<u32>)
    DPPGEMM_CMP(lt, f_lt)
    DPPGEMM_CMP(eq, f_eq)
    DPPGEMM_CMP(le, f_le)
    DPPGEMM_CMP(gt, f_gt)
    DPPGEMM_CMP(lg, f_lg)
    DPPGEMM_CMP(ge, f_ge)
    DPPGEMM_CMP(o, f_o)
    DPPGEMM_CMP(u, f_u)
    DPPGEMM_CMP(nge, f_nge)
    DPPGEMM_CMP(nlg, f_nlg)
    DPPGEMM_CMP(ngt, f_ngt)
    DPPGEMM_CMP(nle, f_nle)
    DPPGEMM_CMP(neq, f_neq)
    DPPGEMM_CMP(nlt, f_nlt)
    DPPGEMM_CMP(tru, always<u32>)
#undef DPPGEMM_CMP
    v(Op::v_cmp_class_f32, vopc<class_f32, false>);
    v(Op::v_cmpx_class_f32, vopc<class_f32, true>);
#define DPPGEMM_CMP(suffix, fn)                                              \
    v(Op::v_cmp_##suffix##_i32, vopc<signed_cmp<u32, fn<i32>>, false>);      \
    v(Op::v_cmpx_##suffix##_i32, vopc<signed_cmp<u32, fn<i32>>, true>);      \
    v(Op::v_cmp_##suffix##_u32, vopc<fn<u32>, false>);                       \
    v(Op::v_cmpx_##suffix##_u32, vopc<fn<u32>, true>);                       \
    v(Op::v_cmp_##suffix##_i64, vopc_wide<signed_cmp<u64, fn<i64>>, false>); \
    v(Op::v_cmpx_##suffix##_i64, vopc_wide<signed_cmp<u64, fn<i64>>, true>); \
    v(Op::v_cmp_##suffix##_u64, vopc_wide<fn<u64>, false>);                  \
    v(Op::v_cmpx_##suffix##_u64, vopc_wide<fn<u64>, true>);
    DPPGEMM_CMP(f, never)
    DPPGEMM_CMP(lt, lt)
    DPPGEMM_CMP(eq, eq)
    DPPGEMM_CMP(le, le)
    DPPGEMM_CMP(gt, gt)
    DPPGEMM_CMP(ne, ne)
    DPPGEMM_CMP(ge, ge)
    DPPGEMM_CMP(t, always)
#undef DPPGEMM_CMP
}

}  // namespace dppgemm::emu::sem
