#include "emu/exec/lds.hpp"

#include <algorithm>
#include <atomic>

#include "emu/util.hpp"

namespace dppgemm::emu {
namespace {

// The general model: distinct dword addresses per bank, pass by pass.
std::uint64_t general_conflicts(const LdsLaneDwords& access, std::uint64_t active_lanes,
                                const LdsLaneGrouping& passes) {
    const unsigned lanes_per_pass = passes.lanes_per_pass;
    std::uint64_t conflicts = 0;
    for (unsigned first = 0; first < 64; first += lanes_per_pass) {
        std::uint32_t in_bank[32][32];
        unsigned count[32] = {};
        unsigned worst = 0;
        for (unsigned slot = first; slot < first + lanes_per_pass; ++slot) {
            const unsigned lane = passes.lane_order[slot];
            if (!((active_lanes >> lane) & 1)) continue;
            for (unsigned d = 0; d < access.per_lane; ++d) {
                const std::uint32_t dword = access.dwords[lane][d];
                const unsigned bank = dword % 32;
                std::uint32_t* seen = in_bank[bank];
                if (std::find(seen, seen + count[bank], dword) != seen + count[bank]) continue;  // broadcast
                seen[count[bank]++] = dword;
                worst = std::max(worst, count[bank]);
            }
        }
        if (worst > 1) conflicts += worst - 1;
    }
    return conflicts;
}

// The same model when every lane reads `width` consecutive dwords starting at
// a multiple of `width` (b32, aligned b64/b128): a lane then covers exactly
// the bank group (first dword / width) % (32 / width), so it is enough to
// count distinct lane addresses per group.
bool aligned_conflicts(const LdsLaneDwords& access, std::uint64_t active_lanes, unsigned width,
                       const LdsLaneGrouping& passes, std::uint64_t& out) {
    // width is 1, 2 or 4: shifts and masks, no divisions (this runs per ds instruction).
    const unsigned shift = width == 4 ? 2 : width == 2 ? 1 : 0;
    for (unsigned lane = 0; lane < 64; ++lane) {
        if (!((active_lanes >> lane) & 1)) continue;
        const std::uint32_t* d = access.dwords[lane];
        if (d[0] & (width - 1)) return false;
        for (unsigned i = 1; i < width; ++i)
            if (d[i] != d[0] + i) return false;
    }
    const unsigned lanes_per_pass = passes.lanes_per_pass, group_mask = (32u >> shift) - 1;
    if (lanes_per_pass != 32u >> shift) return false;
    std::uint64_t conflicts = 0;
    for (unsigned first = 0; first < 64; first += lanes_per_pass) {
        // Distinct lane addresses of the pass (same address: broadcast) ...
        std::uint32_t units[32];
        unsigned n = 0;
        for (unsigned slot = first; slot < first + lanes_per_pass; ++slot) {
            const unsigned lane = passes.lane_order[slot];
            if (!((active_lanes >> lane) & 1)) continue;
            const std::uint32_t unit = access.dwords[lane][0] >> shift;
            unsigned i = 0;
            while (i < n && units[i] != unit) ++i;
            if (i == n) units[n++] = unit;
        }
        // ... counted per bank group.
        std::uint8_t count[32];
        for (unsigned g = 0; g < 32; ++g) count[g] = 0;
        unsigned worst = 0;
        for (unsigned i = 0; i < n; ++i) worst = std::max<unsigned>(worst, ++count[units[i] & group_mask]);
        if (worst > 1) conflicts += worst - 1;
    }
    out = conflicts;
    return true;
}

}  // namespace

std::uint64_t lds_bank_conflict_cycles(const LdsLaneDwords& access, std::uint64_t active_lanes,
                                       const LdsLaneGrouping& passes) {
    const unsigned per_lane = access.per_lane == 3 ? 4 : access.per_lane;  // b96 passes like b128
    std::uint64_t conflicts = 0;
    if (access.per_lane != 3 && aligned_conflicts(access, active_lanes, per_lane, passes, conflicts)) return conflicts;
    return general_conflicts(access, active_lanes, passes);
}

std::uint64_t lds_bank_conflict_cycles(const LdsLaneDwords& access, std::uint64_t active_lanes) {
    return lds_bank_conflict_cycles(access, active_lanes, consecutive_lds_bank_model().passes(false, access.per_lane));
}

LdsLaneDwords LdsLaneAddresses::dwords() const {
    LdsLaneDwords out;
    out.per_lane = elements * dwords_per_element;
    for (unsigned l = 0; l < 64; ++l)
        for (unsigned el = 0; el < elements; ++el)
            for (unsigned d = 0; d < dwords_per_element; ++d)
                out.dwords[l][el * dwords_per_element + d] = byte[el][l] / 4 + d;
    return out;
}

namespace {

// relative[el][l] = byte[el][l] - origin for active lanes, 0 for the others;
// true when that equals `previous` (one pass, no early exit: branch-free
// loops over 64 lanes, vectorized when every lane is active, are cheaper
// than the mispredictions).
template <bool AllLanes>
bool relative_pattern(const LdsLaneAddresses& access, std::uint64_t active_lanes, std::uint32_t origin,
                      const std::uint32_t (*previous)[64], std::uint32_t (*relative)[64]) {
    std::uint32_t differences = 0;
    for (unsigned el = 0; el < access.elements; ++el)
        for (unsigned l = 0; l < 64; ++l) {
            const std::uint32_t active = AllLanes ? ~0u : 0u - std::uint32_t((active_lanes >> l) & 1);
            relative[el][l] = (access.byte[el][l] - origin) & active;
            differences |= relative[el][l] ^ previous[el][l];
        }
    return differences == 0;
}

// The all-lanes case, the common one, in 8-lane steps where the CPU has AVX2.
DPPGEMM_AVX2_CLONES bool relative_pattern_all_lanes(const LdsLaneAddresses& access, std::uint32_t origin,
                                                    const std::uint32_t (*previous)[64],
                                                    std::uint32_t (*relative)[64]) {
    return relative_pattern<true>(access, ~0ull, origin, previous, relative);
}

LdsConflictMemo::Quads quad_shape(const LdsConflictMemo& memo) {
    if (memo.active_lanes != ~0ull || memo.elements != 1) return LdsConflictMemo::Quads::any;
    const std::uint32_t element = 4 * memo.dwords_per_element;
    bool consecutive = true, same = true;
    for (unsigned l = 0; l < 64; ++l) {
        const std::uint32_t from_quad = memo.relative[0][l] - memo.relative[0][l & ~3u];
        consecutive = consecutive && from_quad == (l & 3) * element;
        same = same && from_quad == 0;
    }
    return consecutive ? LdsConflictMemo::Quads::consecutive
           : same      ? LdsConflictMemo::Quads::same
                       : LdsConflictMemo::Quads::any;
}

LdsConflictMemo::Rows row_shape(const LdsConflictMemo& memo) {
    if (memo.active_lanes != ~0ull || memo.elements != 1) return LdsConflictMemo::Rows::any;
    bool broadcast = true, repeat = true;
    for (unsigned l = 0; l < 64; ++l) {
        broadcast = broadcast && memo.relative[0][l] == memo.relative[0][l & ~15u];
        repeat = repeat && memo.relative[0][l] == memo.relative[0][l & 15u];
    }
    return broadcast ? LdsConflictMemo::Rows::broadcast
           : repeat  ? LdsConflictMemo::Rows::repeat
                     : LdsConflictMemo::Rows::any;
}

LdsConflictMemo::WriteScatter write_scatter(const LdsConflictMemo& memo) {
    if (memo.active_lanes != ~0ull || memo.elements != 1 || memo.dwords_per_element != 1)
        return LdsConflictMemo::WriteScatter::lanes;
    if (memo.quads == LdsConflictMemo::Quads::consecutive) return LdsConflictMemo::WriteScatter::consecutive_quads;
    for (unsigned l = 8; l < 64; ++l)
        if (memo.relative[0][l] != memo.relative[0][l - 8] + 4) return LdsConflictMemo::WriteScatter::lanes;
    // The runs' 32-byte spans (relative addresses: no wrap, lds_bank_conflict_cycles' bounds) pairwise apart.
    for (unsigned j = 0; j < 8; ++j)
        for (unsigned k = j + 1; k < 8; ++k) {
            const std::uint32_t a = memo.relative[0][j], b = memo.relative[0][k];
            if ((a > b ? a - b : b - a) < 32) return LdsConflictMemo::WriteScatter::lanes;
        }
    return LdsConflictMemo::WriteScatter::runs_of_eight;
}

// Process-wide unique, without a shared counter per call: each thread takes
// ids in blocks.
std::uint64_t new_pattern_id() {
    constexpr std::uint64_t block = 1 << 16;
    static std::atomic<std::uint64_t> next_block{1};
    thread_local std::uint64_t next = 0, end = 0;
    if (next == end) {
        next = next_block.fetch_add(1) * block;
        end = next + block;
    }
    return next++;
}

}  // namespace

LdsGatherIsa host_lds_gather_isa() {
    return host_cpu().avx512f ? LdsGatherIsa::avx512 : host_cpu().avx2 ? LdsGatherIsa::avx2 : LdsGatherIsa::baseline;
}
LdsGatherIsa& lds_gather_isa() {
    static LdsGatherIsa isa = host_lds_gather_isa();
    return isa;
}

bool lds_patterns_equal(const std::uint32_t* a, const std::uint32_t* b) { return std::equal(a, a + 64, b); }

// Rows that repeat row 0 (relative[0][l] = relative[0][l % 16]): the
// lanes do iff every row equals row 0 and row 0 is row_key; rows that each
// read one address (relative[0][l] = relative[0][l - l % 16]): iff each row
// is its first lane and those are row_key[0..3]. Branch-free loops, as in
// relative_pattern.
DPPGEMM_AVX2_CLONES bool lds_pattern_repeats_all_lanes(const std::uint32_t* base, const LdsConflictMemo& memo) {
    const std::uint32_t origin = base[0];
    std::uint32_t differences = 0;
    if (memo.rows == LdsConflictMemo::Rows::repeat) {
        for (unsigned i = 0; i < 16; ++i)
            differences |= ((base[i] - origin) ^ memo.row_key[i]) | (base[16 + i] ^ base[i]) |
                           (base[32 + i] ^ base[i]) | (base[48 + i] ^ base[i]);
    } else if (memo.rows == LdsConflictMemo::Rows::broadcast) {
        const std::uint32_t first1 = base[16], first2 = base[32], first3 = base[48];
        for (unsigned i = 0; i < 16; ++i)
            differences |=
                (base[i] ^ origin) | (base[16 + i] ^ first1) | (base[32 + i] ^ first2) | (base[48 + i] ^ first3);
        differences |= ((first1 - origin) ^ memo.row_key[1]) | ((first2 - origin) ^ memo.row_key[2]) |
                       ((first3 - origin) ^ memo.row_key[3]);
    } else {
        for (unsigned l = 0; l < 64; ++l) differences |= (base[l] - origin) ^ memo.relative[0][l];
    }
    return differences == 0;
}

std::uint64_t lds_bank_conflict_cycles(const LdsLaneAddresses& access, std::uint64_t active_lanes,
                                       const LdsLaneGrouping& passes, LdsConflictMemo& memo) {
    if (!active_lanes) return 0;
    const std::uint32_t origin = access.byte[0][__builtin_ctzll(active_lanes)];
    const bool same_shape = memo.valid && memo.passes == &passes && memo.active_lanes == active_lanes &&
                            memo.elements == access.elements && memo.dwords_per_element == access.dwords_per_element &&
                            memo.origin_byte_in_dword == origin % 4;
    std::uint32_t relative[2][64];
    const bool same_pattern = active_lanes == ~0ull
                                  ? relative_pattern_all_lanes(access, origin, memo.relative, relative)
                                  : relative_pattern<false>(access, active_lanes, origin, memo.relative, relative);
    if (same_pattern && same_shape) return memo.cycles;
    memo.valid = true;
    memo.pattern_id = new_pattern_id();
    memo.same_as = 0;
    memo.passes = &passes;
    memo.active_lanes = active_lanes;
    memo.elements = access.elements;
    memo.dwords_per_element = access.dwords_per_element;
    memo.origin_byte_in_dword = origin % 4;
    memo.whole_access_dwords = active_lanes == ~0ull && access.elements == 1 ? access.dwords_per_element : 0;
    std::copy(&relative[0][0], &relative[0][0] + 64 * access.elements, &memo.relative[0][0]);
    const std::uint64_t highest = *std::max_element(&relative[0][0], &relative[0][0] + 64 * access.elements);
    memo.highest_end = std::uint32_t(std::min<std::uint64_t>(highest + 4 * memo.whole_access_dwords, ~0u));
    memo.quads = quad_shape(memo);
    memo.rows = row_shape(memo);
    for (unsigned i = 0; i < 16; ++i)
        memo.row_key[i] = memo.rows == LdsConflictMemo::Rows::repeat               ? memo.relative[0][i]
                          : memo.rows == LdsConflictMemo::Rows::broadcast && i < 4 ? memo.relative[0][16 * i]
                                                                                   : 0;
    const bool broadcast = memo.rows == LdsConflictMemo::Rows::broadcast;
    const bool repeated_quads =
        memo.rows == LdsConflictMemo::Rows::repeat && memo.quads == LdsConflictMemo::Quads::consecutive;
    memo.vector_gather = (broadcast || repeated_quads) && memo.whole_access_dwords != 3
                             ? std::uint8_t(1 + 3 * (repeated_quads ? 1 : 0) + memo.whole_access_dwords / 2)
                             : 0;
    memo.write_scatter = write_scatter(memo);
    memo.cycles = lds_bank_conflict_cycles(access.dwords(), active_lanes, passes);
    return memo.cycles;
}

}  // namespace dppgemm::emu
