#include "emu/exec/dpp.hpp"

#include <stdexcept>
#include <string>

#include "emu/util.hpp"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

namespace dppgemm::emu {
namespace {

// Source lane of `lane` for the control, -1 when out of range.
int source_lane(const Dpp& dpp, int lane) {
    const int row_base = lane & ~15, in_row = lane & 15;
    const int n = dpp.arg;
    switch (dpp.kind) {
    case DppKind::quad_perm: return (lane & ~3) + ((dpp.arg >> (2 * (lane & 3))) & 3);
    case DppKind::row_shl: return in_row + n < 16 ? lane + n : -1;
    case DppKind::row_shr: return in_row - n >= 0 ? lane - n : -1;
    case DppKind::row_ror: return row_base + ((in_row - n) & 15);
    case DppKind::wave_shl: return lane + 1 < 64 ? lane + 1 : -1;
    case DppKind::wave_shr: return lane - 1 >= 0 ? lane - 1 : -1;
    case DppKind::wave_rol: return (lane + 1) & 63;
    case DppKind::wave_ror: return (lane - 1) & 63;
    case DppKind::row_mirror: return row_base + (15 - in_row);
    case DppKind::row_half_mirror: return (lane & ~7) + (7 - (lane & 7));
    case DppKind::row_bcast15: return row_base >= 16 ? row_base - 1 : -1;
    case DppKind::row_bcast31: return row_base >= 32 ? 31 : -1;
    case DppKind::row_newbcast: return row_base + (n & 15);
    case DppKind::invalid: break;
    }
    return -1;
}

}  // namespace

DppPattern make_dpp_pattern(const Dpp& dpp, Target target) {
    if (dpp.kind == DppKind::invalid) throw std::invalid_argument("invalid dpp_ctrl 0x" + std::to_string(dpp.ctrl));
    if (dpp.kind == DppKind::row_newbcast && !has(target, Feature::row_newbcast))
        throw std::invalid_argument(std::string("row_newbcast is not available on ") + target_name(target));
    const bool shift_by_n =
        dpp.kind == DppKind::row_shl || dpp.kind == DppKind::row_shr || dpp.kind == DppKind::row_ror;
    if (shift_by_n && (dpp.arg < 1 || dpp.arg > 15))
        throw std::invalid_argument("row shift amount " + std::to_string(dpp.arg) + " outside 1..15");
    DppPattern p;
    p.bound_ctrl = dpp.bound_ctrl;
    p.quad_perm = dpp.kind == DppKind::quad_perm;
    for (int i = 0; i < 4; ++i) p.quad_lanes[i] = static_cast<std::uint8_t>((dpp.arg >> (2 * i)) & 3);
    p.row_local = true;
    for (int i = 0; i < 16; ++i) p.row_lanes[i] = static_cast<std::uint32_t>(i);
    for (int lane = 0; lane < 64; ++lane) {
        const int from = source_lane(dpp, lane);
        if (from >= 0) {
            // Row 0 sets the in-row source; other rows must agree with it.
            const bool same_row = (from >> 4) == (lane >> 4);
            const auto in_row = static_cast<std::uint32_t>(from & 15);
            if (lane < 16) p.row_lanes[lane] = in_row;
            if (!same_row || p.row_lanes[lane & 15] != in_row) p.row_local = false;
        }
        p.source[lane] = static_cast<std::int8_t>(from);
        p.index[lane] = static_cast<std::uint8_t>(from >= 0 ? from : lane);
        p.keep[lane] = from >= 0 ? ~0u : 0u;
        if (from >= 0) p.in_range |= 1ull << lane;
        const bool row_on = (dpp.row_mask >> (lane >> 4)) & 1;
        const bool bank_on = (dpp.bank_mask >> ((lane >> 2) & 3)) & 1;
        if (row_on && bank_on) p.writable |= 1ull << lane;
    }
    p.half_local = p.row_local;
    for (int i = 0; i < 16; ++i)
        if ((p.row_lanes[i] ^ static_cast<std::uint32_t>(i)) & 8) p.half_local = false;
    bool quad_local = p.row_local, broadcast = p.row_local;
    for (unsigned i = 0; i < 16; ++i) {
        if ((p.row_lanes[i] ^ i) & ~3u || p.row_lanes[i] != (p.row_lanes[i & 3] & 3) + (i & ~3u)) quad_local = false;
        if (p.row_lanes[i] != p.row_lanes[0]) broadcast = false;
    }
    if (p.in_range == ~0ull && p.writable == ~0ull)
        p.full_exec = quad_local  ? DppPattern::FullExec::quad
                      : broadcast ? DppPattern::FullExec::broadcast
                                  : DppPattern::FullExec::rows;
    return p;
}

#if defined(__x86_64__) && defined(__GNUC__)
namespace {
__attribute__((target("avx512f"))) void gather_rows_avx512(const DppPattern& p, std::uint64_t valid,
                                                           const std::uint32_t* src, std::uint32_t* out) {
    const __m512i permute = _mm512_loadu_si512(p.row_lanes);
    for (unsigned row = 0; row < 4; ++row) {
        const __m512i lanes = _mm512_loadu_si512(src + 16 * row);
        _mm512_storeu_si512(out + 16 * row,
                            _mm512_maskz_permutexvar_epi32(__mmask16(valid >> (16 * row)), permute, lanes));
    }
}

// The same with 8 lanes per register: lane 8h+i of a row takes lane
// row_lanes[8h+i] of the row's 16 by a permute of each half (the permute
// reads the index's low 3 bits) and a blend choosing the half, then a mask
// zeroes the invalid sources. Why: v_mov_b32_dpp row_ror:4 moves A in the
// dpp3 kernels, and lane by lane its gather cost about 550 host instructions.
__attribute__((target("avx2"))) void gather_rows_avx2(const DppPattern& p, std::uint64_t valid,
                                                      const std::uint32_t* src, std::uint32_t* out) {
    const __m256i bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    const __m256i index[2] = {_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p.row_lanes)),
                              _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p.row_lanes + 8))};
    const __m256i upper[2] = {_mm256_cmpgt_epi32(index[0], _mm256_set1_epi32(7)),
                              _mm256_cmpgt_epi32(index[1], _mm256_set1_epi32(7))};
    for (unsigned row = 0; row < 4; ++row) {
        const __m256i low = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + 16 * row));
        const __m256i high = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + 16 * row + 8));
        for (unsigned half = 0; half < 2; ++half) {
            const __m256i lanes = _mm256_blendv_epi8(_mm256_permutevar8x32_epi32(low, index[half]),
                                                     _mm256_permutevar8x32_epi32(high, index[half]), upper[half]);
            const __m256i keep = _mm256_cmpeq_epi32(
                _mm256_and_si256(_mm256_set1_epi32(int((valid >> (16 * row + 8 * half)) & 0xff)), bit), bit);
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 16 * row + 8 * half), _mm256_and_si256(lanes, keep));
        }
    }
}

enum class RowGather : std::uint8_t { none, avx2, avx512 };

RowGather cpu_row_gather() {
    if (host_cpu().avx512f) return RowGather::avx512;
    if (host_cpu().avx2) return RowGather::avx2;
    return RowGather::none;
}
}  // namespace

bool dpp_gather_rows(const DppPattern& p, std::uint64_t valid, const std::uint32_t* src, std::uint32_t* out) {
    static const RowGather gather = cpu_row_gather();
    switch (gather) {
    case RowGather::avx512: gather_rows_avx512(p, valid, src, out); return true;
    case RowGather::avx2: gather_rows_avx2(p, valid, src, out); return true;
    case RowGather::none: break;
    }
    return false;
}
#else
bool dpp_gather_rows(const DppPattern&, std::uint64_t, const std::uint32_t*, std::uint32_t*) { return false; }
#endif

}  // namespace dppgemm::emu
