#include "emu/exec/lds.hpp"

#include <algorithm>

namespace dppgemm::emu {

std::uint64_t lds_bank_conflict_cycles(const LdsLaneDwords& access, std::uint64_t active_lanes) {
    const unsigned per_lane = access.per_lane == 3 ? 4 : access.per_lane;  // b96 passes like b128
    const unsigned lanes_per_pass = 32 / per_lane;
    std::uint64_t conflicts = 0;
    for (unsigned first = 0; first < 64; first += lanes_per_pass) {
        std::uint32_t seen[32];
        unsigned seen_count = 0;
        unsigned per_bank[32] = {};
        unsigned worst = 0;
        for (unsigned lane = first; lane < first + lanes_per_pass; ++lane) {
            if (!((active_lanes >> lane) & 1)) continue;
            for (unsigned d = 0; d < access.per_lane; ++d) {
                const std::uint32_t dword = access.dwords[lane][d];
                if (std::find(seen, seen + seen_count, dword) != seen + seen_count) continue;  // broadcast
                seen[seen_count++] = dword;
                worst = std::max(worst, ++per_bank[dword % 32]);
            }
        }
        if (worst > 1) conflicts += worst - 1;
    }
    return conflicts;
}

}  // namespace dppgemm::emu
