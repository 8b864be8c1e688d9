#pragma once
// fp32 semantics shared by the VALU functions. Everything works on raw bit
// patterns (std::uint32_t) so that lanes stay in plain integer arrays; the
// files that include this are compiled with -ffp-contract=off so that
// a * b + c stays two roundings unless std::fma is asked for.
//
// Rules implemented (gfx9 ISA):
// - Denormals: the FP32 denorm mode (descriptor, changed by s_setreg of MODE) decides whether
//   inputs (flush_src) and results (flush_dst) of fp32 ops are flushed to a
//   signed zero: their f32 operands, as the op table's type columns declare them (an
//   integer source or result is never flushed). v_mad_f32/v_mac_f32 never support fp32 denormals (LLVM only
//   selects them when fp32 denormals are flushed): they flush inputs, the
//   rounded product and the result whatever the mode.
// - NaN: arithmetic on a NaN returns a quiet NaN (the host's propagation of
//   the first NaN operand, quieted). min/max (IEEE mode, the compute default)
//   return a quiet NaN for a signaling NaN input, else the other operand when
//   exactly one input is NaN (IEEE 754-2008 minNum/maxNum), a quiet NaN when
//   both are.
// - Compares follow IEEE (unordered compares are true for NaN, ordered false).

#include <cmath>
#include <cstdint>
#include <cstring>

namespace dppgemm::emu::fp {

// The same bits as another type of the same size (std::bit_cast of C++20).
template <class To, class From>
inline To bit_cast(const From& from) {
    static_assert(sizeof(To) == sizeof(From));
    To to;
    std::memcpy(&to, &from, sizeof to);
    return to;
}
inline float as_float(std::uint32_t bits) { return bit_cast<float>(bits); }
inline std::uint32_t as_bits(float f) { return bit_cast<std::uint32_t>(f); }
inline double as_double(std::uint64_t bits) { return bit_cast<double>(bits); }
inline std::uint64_t double_bits(double d) { return bit_cast<std::uint64_t>(d); }
// Denormal -> zero of the same sign; everything else unchanged.
inline std::uint32_t flush(std::uint32_t bits) { return (bits & 0x7f800000u) ? bits : (bits & 0x80000000u); }
inline float flush(float f) { return as_float(flush(as_bits(f))); }
inline bool is_nan(std::uint32_t bits) { return (bits & 0x7fffffffu) > 0x7f800000u; }
inline constexpr std::uint32_t quiet_nan = 0x7fc00000u;

// v_mac_f32 / v_mad_f32: multiply, round, flush, add, round, flush.
inline float mad(float a, float b, float c) {
    const float product = flush(flush(a) * flush(b));
    return flush(product + flush(c));
}

// The NaN x86 arithmetic returns when no operand is NaN (infinity times zero, ...).
inline constexpr std::uint32_t x86_default_nan = 0xffc00000u;

// The NaN a multiply-add returns when its result is NaN: the first NaN
// operand in source order (a, then b, then c), quieted; for the unfused form
// an invalid product (infinity times zero, zero meaning a flushed input) is
// the default NaN whatever c is; otherwise (infinity minus infinity) the
// default NaN, `result`. Spelled out rather than left to the host's vector instruction,
// whose operand order (which NaN x86 returns) the compiler chooses.
template <bool Fused>
inline std::uint32_t multiply_add_nan(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t result) {
    constexpr std::uint32_t quiet_bit = 0x00400000u;
    if (is_nan(a)) return a | quiet_bit;
    if (is_nan(b)) return b | quiet_bit;
    if (!Fused) {
        const auto is_inf = [](std::uint32_t x) { return (x & 0x7fffffffu) == 0x7f800000u; };
        const auto is_zero = [](std::uint32_t x) { return (x & 0x7f800000u) == 0; };
        if ((is_inf(a) && is_zero(b)) || (is_zero(a) && is_inf(b))) return x86_default_nan;
    }
    if (is_nan(c)) return c | quiet_bit;
    return result;
}

inline bool is_signaling(float f) { return std::isnan(f) && !(as_bits(f) & 0x00400000u); }

inline float min_num(float a, float b) {
    if (is_signaling(a) || is_signaling(b)) return as_float(quiet_nan);
    if (std::isnan(a)) return std::isnan(b) ? as_float(quiet_nan) : b;
    if (std::isnan(b)) return a;
    // -0 < +0 as the hardware orders them.
    if (a == b) return std::signbit(a) ? a : b;
    return a < b ? a : b;
}
inline float max_num(float a, float b) {
    if (is_signaling(a) || is_signaling(b)) return as_float(quiet_nan);
    if (std::isnan(a)) return std::isnan(b) ? as_float(quiet_nan) : b;
    if (std::isnan(b)) return a;
    if (a == b) return std::signbit(a) ? b : a;
    return a > b ? a : b;
}
inline float med3(float a, float b, float c) {
    if (std::isnan(a) || std::isnan(b) || std::isnan(c)) return min_num(min_num(a, b), c);
    return max_num(min_num(a, b), min_num(max_num(a, b), c));
}

// float -> int conversions saturate, NaN -> 0 (v_cvt_i32_f32, v_cvt_u32_f32).
inline std::int32_t to_i32(float f) {
    if (std::isnan(f)) return 0;
    if (f >= 2147483647.0f) return 2147483647;
    if (f <= -2147483648.0f) return -2147483647 - 1;
    return static_cast<std::int32_t>(f);
}
inline std::uint32_t to_u32(float f) {
    if (std::isnan(f) || f <= 0.0f) return 0;
    if (f >= 4294967295.0f) return 4294967295u;
    return static_cast<std::uint32_t>(f);
}

// v_cmp_class_f32 mask bits.
inline std::uint32_t float_class(float f) {
    const std::uint32_t bits = as_bits(f);
    const bool neg = bits >> 31;
    if (std::isnan(f)) return (bits & 0x00400000u) ? 2u : 1u;  // quiet : signaling
    if (std::isinf(f)) return neg ? 4u : 512u;
    if (f == 0.0f) return neg ? 32u : 64u;
    if ((bits & 0x7f800000u) == 0) return neg ? 16u : 128u;
    return neg ? 8u : 256u;
}

}  // namespace dppgemm::emu::fp
