#pragma once
// DPP lane mapping (gfx9). DPP permutes src0, the first source operand:
// lane i reads src0 from lane source[i]. A lane whose source is out of range
// (shifted past the row or wave edge, or a row_bcast of no row) or whose
// source lane is inactive in EXEC has an invalid source: with bound_ctrl it
// reads 0, without it the lane is not written. row_mask bit r enables writes
// to row r (lanes 16r..16r+15), bank_mask bit b to lanes 4b..4b+3 of every
// row. The controls, as LLVM prints them:
//   quad_perm:[p0,p1,p2,p3]  lane 4q+i reads lane 4q+p_i
//   row_shl:n  / row_shr:n   lane i of a row reads lane i+n / i-n of the row
//   row_ror:n                lane i of a row reads lane (i-n) mod 16
//   wave_shl:1 / wave_shr:1  lane i reads lane i+1 / i-1 of the wave
//   wave_rol:1 / wave_ror:1  lane i reads lane (i+1) / (i-1) mod 64
//   row_mirror               lane i of a row reads lane 15-i
//   row_half_mirror          lane i of a half row reads lane 7-i
//   row_bcast:15             rows 1..3 read lane 15 of the previous row
//   row_bcast:31             rows 2 and 3 read lane 31
//   row_newbcast:n (gfx90a+) every lane of a row reads lane n of the row

#include <algorithm>
#include <cstdint>
#include <iterator>

#include "emu/decode/inst.hpp"

namespace dppgemm::emu {

struct DppPattern {
    std::int8_t source[64];      // source lane, -1 when out of range
    std::uint8_t index[64];      // source lane, or the lane itself when out of range
    std::uint32_t keep[64];      // ~0 when the source exists, 0 otherwise
    std::uint64_t in_range = 0;  // lanes whose source exists
    std::uint64_t writable = 0;  // lanes row_mask and bank_mask enable
    bool bound_ctrl = false;     // invalid sources read 0 instead of disabling the lane
    bool quad_perm = false;      // quad_perm: quad_lanes[i] is the source of lane 4q+i in quad q
    std::uint8_t quad_lanes[4] = {0, 1, 2, 3};
    // Every existing source lies in the lane's own row of 16, at the same
    // position in every row: lane 16r+i reads lane 16r+row_lanes[i] (quad_perm,
    // row_shl/shr/ror, row_mirror, row_half_mirror, row_newbcast; not
    // row_bcast or wave_*). Then a row is one 16-lane SIMD permute
    // (sem_vector.cpp's multiply-add rows); row_lanes[i] is i where lane i has no source.
    bool row_local = false;
    std::uint32_t row_lanes[16] = {};
    // row_local, and every source also in its lane's half row (lanes 0-7 or
    // 8-15: quad_perm, row_half_mirror): with 8 lanes per register (AVX2)
    // a half row is one permute of its own register. Follows from row_lanes.
    bool half_local = false;
    // How the multiply-add rows take src0 when EXEC is full and every lane
    // has a source and is written (in_range and writable are every lane):
    // `quad` when every source is in its lane's own quad at the same place in
    // every quad (quad_perm; row_lanes[i] & 3 is the source's place), one
    // in-128-bit permute per 8 lanes with AVX2; `broadcast` when every lane
    // of a row reads lane row_lanes[0] of the row (row_newbcast), one
    // broadcast load per row; `rows` otherwise (the masked rows, or not
    // row-local). Follows from row_lanes, in_range and writable, and is used
    // only where row_local is (use_general_paths clears that).
    enum class FullExec : std::uint8_t { rows, quad, broadcast };
    FullExec full_exec = FullExec::rows;

    bool same_as(const DppPattern& o) const {
        return std::equal(std::begin(source), std::end(source), std::begin(o.source)) &&
               std::equal(std::begin(index), std::end(index), std::begin(o.index)) &&
               std::equal(std::begin(keep), std::end(keep), std::begin(o.keep)) && in_range == o.in_range &&
               writable == o.writable && bound_ctrl == o.bound_ctrl && quad_perm == o.quad_perm &&
               std::equal(std::begin(quad_lanes), std::end(quad_lanes), std::begin(o.quad_lanes)) &&
               row_local == o.row_local &&
               std::equal(std::begin(row_lanes), std::end(row_lanes), std::begin(o.row_lanes));
    }

    // Lanes whose source lane exists and is active.
    std::uint64_t valid_sources(std::uint64_t exec) const {
        if (exec == ~0ull) return in_range;
        std::uint64_t valid = 0;
        for (unsigned lane = 0; lane < 64; ++lane)
            if (source[lane] >= 0 && ((exec >> source[lane]) & 1)) valid |= 1ull << lane;
        return valid;
    }
    // The lanes an instruction writes under `exec`.
    std::uint64_t write_mask(std::uint64_t exec, std::uint64_t valid) const {
        return exec & writable & (bound_ctrl ? ~0ull : valid);
    }
};

// Throws std::invalid_argument for a control the target does not have
// (row_newbcast before gfx90a, invalid encodings).
DppPattern make_dpp_pattern(const Dpp& dpp, Target target);

// out[i] = src[source[i]] for valid lanes, 0 for the others, lane by lane.
inline void dpp_gather_lanes(const DppPattern& p, std::uint64_t valid, const std::uint32_t* src, std::uint32_t* out) {
    if (p.quad_perm && valid == ~0ull) {  // the GEMM kernels' case: same pattern in every quad
        const unsigned s0 = p.quad_lanes[0], s1 = p.quad_lanes[1], s2 = p.quad_lanes[2], s3 = p.quad_lanes[3];
        for (unsigned quad = 0; quad < 64; quad += 4) {
            const std::uint32_t* in = src + quad;
            out[quad] = in[s0];
            out[quad + 1] = in[s1];
            out[quad + 2] = in[s2];
            out[quad + 3] = in[s3];
        }
        return;
    }
    if (valid == p.in_range) {  // every existing source lane active: a branch-free gather
        for (unsigned lane = 0; lane < 64; ++lane) out[lane] = src[p.index[lane]] & p.keep[lane];
        return;
    }
    for (unsigned lane = 0; lane < 64; ++lane) {
        const int from = p.source[lane] < 0 ? 0 : p.source[lane];
        out[lane] = ((valid >> lane) & 1) ? src[from] : 0u;
    }
}

// The same with one 16-lane permute per row (AVX-512) or two 8-lane ones
// (AVX2), for row-local patterns; false (nothing done) when the CPU has
// neither. Why: the lane by lane gather was about 270 host instructions per
// DPP operand (fetch_copy, callgrind, 256^3 dpp1 SGEMM before the
// multiply-add rows), and is about 550 for v_mov_b32_dpp row_ror:4 (dpp3).
// use_general_paths clears row_local, so that tests compare the two.
bool dpp_gather_rows(const DppPattern& p, std::uint64_t valid, const std::uint32_t* src, std::uint32_t* out);

inline void dpp_gather(const DppPattern& p, std::uint64_t valid, const std::uint32_t* src, std::uint32_t* out) {
    if (p.row_local && dpp_gather_rows(p, valid, src, out)) return;
    dpp_gather_lanes(p, valid, src, out);
}

}  // namespace dppgemm::emu
