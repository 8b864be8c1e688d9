#include "emu/check/lds_shadow.hpp"

#include <cstring>

namespace dppgemm::emu::check {

void LdsShadow::reset(std::uint32_t bytes) {
    const std::size_t dwords = (bytes + 3) / 4;
    cells_.assign(dwords, Cell{});
    epoch_ = 0;
}

// Dword d, read now, was written by another wave this epoch: records the
// first such conflict of the access.
bool LdsShadow::record_read_conflict(std::uint32_t d, LdsConflict& c) {
    const std::uint32_t w = cells_[d].write_tag;
    if (!c.recorded) {
        c.recorded = true;
        c.address = d * 4;
        c.other_inst = cells_[d].write_inst;
        c.other_wave = (w & wave_mask) - 1;
        c.other_wrote = true;
    }
    return true;
}

bool LdsShadow::conflicts_write(std::uint32_t d, std::uint32_t me, LdsConflict& c) {
    const std::uint32_t w = cells_[d].write_tag, r = cells_[d].read_tag;
    const std::uint32_t me_wave = me & wave_mask;
    const bool write_conflict = this_epoch(w) && (w & wave_mask) != me_wave;
    const bool read_conflict = this_epoch(r) && (r & wave_mask) != me_wave;
    if ((write_conflict || read_conflict) && !c.recorded) {
        c.recorded = true;
        c.address = d * 4;
        c.other_wrote = write_conflict;
        c.other_inst = write_conflict ? cells_[d].write_inst : cells_[d].read_inst;
        const std::uint32_t other = (write_conflict ? w : r) & wave_mask;
        c.other_wave = other == multiple ? ~0u : other - 1;
    }
    return write_conflict || read_conflict;
}

bool LdsShadow::element(std::uint64_t address, std::uint32_t dwords, bool write, std::uint32_t me, std::uint32_t inst,
                        LdsConflict& c) {
    const std::uint32_t limit = static_cast<std::uint32_t>(cells_.size());
    const std::uint32_t first = static_cast<std::uint32_t>(address / 4);
    const std::uint32_t end = first + dwords < limit ? first + dwords : limit;
    bool conflict = false;
    if (write) {
        const std::uint32_t me_wave = me & wave_mask;
        for (std::uint32_t d = first; d < end; ++d) {
            Cell& cell = cells_[d];
            // Inline test of the common no-conflict case; conflicts_write records the first conflict.
            if ((this_epoch(cell.write_tag) && (cell.write_tag & wave_mask) != me_wave) ||
                (this_epoch(cell.read_tag) && (cell.read_tag & wave_mask) != me_wave))
                conflict |= conflicts_write(d, me, c);
            cell.write_tag = me;
            cell.write_inst = inst;
        }
        return conflict;
    }
    for (std::uint32_t d = first; d < end; ++d) {
        const std::uint32_t w = cells_[d].write_tag;
        if (this_epoch(w) && (w & wave_mask) != (me & wave_mask)) conflict |= record_read_conflict(d, c);
        std::uint32_t& r = cells_[d].read_tag;
        if (r == me) continue;  // this wave read it before in this epoch
        if (!this_epoch(r)) {
            r = me;
            cells_[d].read_inst = inst;
        } else {
            r = (r & ~wave_mask) | multiple;  // keeps the first reader's instruction
        }
    }
    return conflict;
}

// Whether lanes 0..lanes-1, all active, with one address each, touch
// increasing, disjoint dword ranges (the SGEMM kernels' tile writes and row
// reads): each lane's first dword after the previous lane's last.
bool LdsShadow::disjoint_in_order(const MemoryAccess& a, unsigned lanes, std::uint32_t dwords) {
    if (a.addresses_per_lane != 1 || (lanes == 64 ? a.lanes != ~0ull : (a.lanes & 0xffff) != 0xffff)) return false;
    for (unsigned l = 1; l < lanes; ++l)
        if (a.address[l][0] / 4 < a.address[l - 1][0] / 4 + dwords) return false;
    return true;
}

LdsConflict LdsShadow::access(const MemoryAccess& a, std::uint32_t wave, std::uint32_t inst) {
    LdsConflict c;
    const std::uint32_t me = tag(wave);
    const std::uint32_t dwords = a.bytes_per_lane <= 4 ? 1 : a.bytes_per_lane / 4;
    if (++generation_ == 0) {  // wrapped: forget every old entry
        memo_.fill(Memo{});
        generation_ = 1;
    }
    // A whole wave whose lanes 16..63 repeat lanes 0..15 (row broadcasts of
    // the micro kernels) has the outcome of its first 16 lanes.
    const bool rows_repeat = a.lanes == ~0ull &&
                             std::memcmp(&a.address[16], &a.address[0], sizeof a.address[0] * 48) == 0;
    const unsigned lanes = rows_repeat ? 16 : 64;
    if (disjoint_in_order(a, lanes, dwords)) {
        // No dword is touched twice: the memo and the same-address tests below
        // would never hit, and the lanes' order is the general loop's.
        for (unsigned l = 0; l < lanes; ++l)
            if (((a.lanes >> l) & 1) && element(a.address[l][0], dwords, a.write, me, inst, c)) c.lanes |= 1ull << l;
        if (rows_repeat) c.lanes = (c.lanes & 0xffff) * 0x0001000100010001ull;
        return c;
    }
    for (unsigned l = 0; l < lanes; ++l) {
        if (!((a.lanes >> l) & 1)) continue;
        // The same address as the lane before or 16 before: the same outcome.
        if (a.addresses_per_lane == 1) {
            const unsigned same = l > 0 && a.address[l][0] == a.address[l - 1][0] && ((a.lanes >> (l - 1)) & 1) ? l - 1
                                  : l >= 16 && a.address[l][0] == a.address[l - 16][0] && ((a.lanes >> (l - 16)) & 1) ? l - 16
                                                                                                                   : 64;
            if (same < 64) {
                c.lanes |= ((c.lanes >> same) & 1) << l;
                continue;
            }
        }
        bool lane_conflict = false;
        for (unsigned el = 0; el < a.addresses_per_lane; ++el) {
            const std::uint64_t address = a.address[l][el];
            Memo& memo = memo_[static_cast<unsigned>((address >> 2) ^ (address >> 8)) & 63];
            if (memo.generation != generation_ || memo.address != address)
                memo = Memo{address, generation_, element(address, dwords, a.write, me, inst, c)};
            lane_conflict |= memo.conflict;
        }
        if (lane_conflict) c.lanes |= 1ull << l;
    }
    if (rows_repeat) c.lanes = (c.lanes & 0xffff) * 0x0001000100010001ull;
    return c;
}

}  // namespace dppgemm::emu::check
