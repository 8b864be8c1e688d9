#include "emu/check/lds_shadow.hpp"

#include <cstring>

namespace dppgemm::emu::check {

void LdsShadow::reset(std::uint32_t bytes) {
    const std::size_t dwords = (bytes + 3) / 4;
    for (auto* v : {&write_tag_, &read_tag_, &write_inst_, &read_inst_}) v->assign(dwords, 0);
    epoch_ = 0;
}

// Dword d, read now, was written by another wave this epoch: records the
// first such conflict of the access.
bool LdsShadow::record_read_conflict(std::uint32_t d, LdsConflict& c) {
    const std::uint32_t w = write_tag_[d];
    if (!c.recorded) {
        c.recorded = true;
        c.address = d * 4;
        c.other_inst = write_inst_[d];
        c.other_wave = (w & wave_mask) - 1;
        c.other_wrote = true;
    }
    return true;
}

bool LdsShadow::conflicts_write(std::uint32_t d, std::uint32_t me, LdsConflict& c) {
    const std::uint32_t w = write_tag_[d], r = read_tag_[d];
    const std::uint32_t me_wave = me & wave_mask;
    const bool write_conflict = this_epoch(w) && (w & wave_mask) != me_wave;
    const bool read_conflict = this_epoch(r) && (r & wave_mask) != me_wave;
    if ((write_conflict || read_conflict) && !c.recorded) {
        c.recorded = true;
        c.address = d * 4;
        c.other_wrote = write_conflict;
        c.other_inst = write_conflict ? write_inst_[d] : read_inst_[d];
        const std::uint32_t other = (write_conflict ? w : r) & wave_mask;
        c.other_wave = other == multiple ? ~0u : other - 1;
    }
    return write_conflict || read_conflict;
}

bool LdsShadow::element(std::uint64_t address, std::uint32_t dwords, bool write, std::uint32_t me, std::uint32_t inst,
                        LdsConflict& c) {
    const std::uint32_t limit = static_cast<std::uint32_t>(write_tag_.size());
    const std::uint32_t first = static_cast<std::uint32_t>(address / 4);
    const std::uint32_t end = first + dwords < limit ? first + dwords : limit;
    bool conflict = false;
    if (write) {
        for (std::uint32_t d = first; d < end; ++d) {
            conflict |= conflicts_write(d, me, c);
            write_tag_[d] = me;
            write_inst_[d] = inst;
        }
        return conflict;
    }
    for (std::uint32_t d = first; d < end; ++d) {
        const std::uint32_t w = write_tag_[d];
        if (this_epoch(w) && (w & wave_mask) != (me & wave_mask)) conflict |= record_read_conflict(d, c);
        std::uint32_t& r = read_tag_[d];
        if (r == me) continue;  // this wave read it before in this epoch
        if (!this_epoch(r)) {
            r = me;
            read_inst_[d] = inst;
        } else {
            r = (r & ~wave_mask) | multiple;  // keeps the first reader's instruction
        }
    }
    return conflict;
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
