#include "emu/check/lds_shadow.hpp"

#include <algorithm>
#include <cstring>

namespace dppgemm::emu::check {
namespace {

constexpr std::uint64_t bit_of(std::uint64_t dword) { return std::uint64_t{1} << (dword % 64); }

// inst_of[d] = inst for the dwords d of word w set in `bits`.
void store(std::vector<std::uint32_t>& inst_of, std::uint32_t w, std::uint64_t bits, std::uint32_t inst) {
    std::uint32_t* words_dwords = inst_of.data() + std::size_t(w) * 64;
    if (bits == ~0ull) {  // all 64 exist: bits are only set below the LDS size
        std::fill_n(words_dwords, 64, inst);
        return;
    }
    for (; bits; bits &= bits - 1) words_dwords[__builtin_ctzll(bits)] = inst;
}

}  // namespace

void LdsShadow::reset(std::uint32_t bytes) {
    dwords_ = (bytes + 3) / 4;
    const std::size_t words = (dwords_ + 63) / 64;
    for (Words* w : {&written_any_, &read_any_, &read_twice_, &access_}) w->assign(words, 0);
    for (Words& w : written_) w.assign(words, 0);
    for (Words& w : read_) w.assign(words, 0);
    // Valid only where a bitmap says so: no need to clear.
    write_inst_.resize(words * 64);
    read_inst_.resize(words * 64);
    epoch_low_ = low_ = ~0u;
    epoch_high_ = high_ = 0;
}

void LdsShadow::new_epoch() {
    for (std::uint32_t w = epoch_low_; w <= epoch_high_ && w < written_any_.size(); ++w) {
        written_any_[w] = read_any_[w] = read_twice_[w] = 0;
        for (Words& bits : written_) bits[w] = 0;
        for (Words& bits : read_) bits[w] = 0;
    }
    epoch_low_ = ~0u;
    epoch_high_ = 0;
}

void LdsShadow::ensure_wave(std::uint32_t wave) {
    while (written_.size() <= wave) {
        written_.emplace_back(written_any_.size(), 0);
        read_.emplace_back(written_any_.size(), 0);
    }
}

void LdsShadow::add(std::uint64_t first, std::uint64_t count) {
    if (first >= dwords_) return;
    const std::uint32_t end = static_cast<std::uint32_t>(std::min<std::uint64_t>(first + count, dwords_));
    low_ = std::min(low_, static_cast<std::uint32_t>(first / 64));
    high_ = std::max(high_, (end - 1) / 64);
    for (std::uint32_t d = static_cast<std::uint32_t>(first); d < end;) {
        const std::uint32_t take = std::min(64 - d % 64, end - d);
        access_[d / 64] |= (take == 64 ? ~0ull : ((std::uint64_t{1} << take) - 1)) << (d % 64);
        d += take;
    }
}

// Lanes in order, merging each lane's dwords into the run of dwords before
// when they continue it (consecutive elements: tile rows) or lie inside it
// (lanes sharing an address: broadcast reads), so that a typical access
// adds one or a few ranges. Ranges are clipped to the LDS in add() (the
// executor faults on accesses past it before the observer sees them;
// flat-to-LDS lanes far past it become offsets past the end).
void LdsShadow::collect(const MemoryAccess& a, unsigned lanes, std::uint32_t dwords) {
    std::uint64_t run_first = 0, run_end = 0;  // empty
    for (unsigned l = 0; l < lanes; ++l) {
        if (!((a.lanes >> l) & 1)) continue;
        for (unsigned el = 0; el < a.addresses_per_lane; ++el) {
            const std::uint64_t first = a.address[l][el] / 4, end = first + dwords;
            if (first == run_end) {
                run_end = end;
            } else if (first < run_first || end > run_end) {
                if (run_end > run_first) add(run_first, run_end - run_first);
                run_first = first;
                run_end = end;
            }
        }
    }
    if (run_end > run_first) add(run_first, run_end - run_first);
}

std::uint64_t LdsShadow::conflicts(std::uint32_t w, std::uint32_t wave, bool write) const {
    const std::uint64_t others_wrote = written_any_[w] & ~written_[wave][w];
    if (!write) return others_wrote;
    return others_wrote | (read_any_[w] & ~read_[wave][w]) | read_twice_[w];
}

// The conflict lane by lane, against the state before the access.
LdsConflict LdsShadow::describe(const MemoryAccess& a, unsigned lanes, std::uint32_t dwords, std::uint32_t wave) const {
    LdsConflict c;
    bool described = false;
    for (unsigned l = 0; l < lanes; ++l) {
        if (!((a.lanes >> l) & 1)) continue;
        for (unsigned el = 0; el < a.addresses_per_lane; ++el) {
            const std::uint64_t first = a.address[l][el] / 4;
            for (std::uint64_t d = first; d < first + dwords && d < dwords_; ++d) {
                const std::uint32_t w = static_cast<std::uint32_t>(d / 64);
                if (!(conflicts(w, wave, a.write) & bit_of(d))) continue;
                c.lanes |= std::uint64_t{1} << l;
                if (described) continue;
                described = true;
                c.address = static_cast<std::uint32_t>(d * 4);
                c.other_wrote = (written_any_[w] & ~written_[wave][w] & bit_of(d)) != 0;
                if (c.other_wrote) {
                    c.other_inst = write_inst_[d];
                    for (std::uint32_t v = 0; v < written_.size(); ++v)
                        if (written_[v][w] & bit_of(d)) c.other_wave = v;
                } else {
                    c.other_inst = read_inst_[d];
                    c.other_wave = ~0u;
                    if (!(read_twice_[w] & bit_of(d)))
                        for (std::uint32_t v = 0; v < read_.size(); ++v)
                            if (read_[v][w] & bit_of(d)) c.other_wave = v;
                }
            }
        }
    }
    return c;
}

void LdsShadow::record(std::uint32_t wave, std::uint32_t inst, bool write, bool had_conflict) {
    for (std::uint32_t w = low_; w <= high_; ++w) {
        const std::uint64_t bits = access_[w];
        if (!bits) continue;
        if (write) {
            // This wave is now the dwords' last writer. Other waves can only
            // have been before if the access conflicted.
            if (had_conflict)
                for (std::uint32_t v = 0; v < written_.size(); ++v)
                    if (v != wave) written_[v][w] &= ~bits;
            written_[wave][w] |= bits;
            written_any_[w] |= bits;
            store(write_inst_, w, bits, inst);
        } else {
            store(read_inst_, w, bits & ~read_any_[w], inst);  // the epoch's first read
            read_twice_[w] |= bits & read_any_[w] & ~read_[wave][w];
            read_[wave][w] |= bits;
            read_any_[w] |= bits;
        }
    }
    epoch_low_ = std::min(epoch_low_, low_);
    epoch_high_ = std::max(epoch_high_, high_);
}

LdsConflict LdsShadow::access(const MemoryAccess& a, std::uint32_t wave, std::uint32_t inst) {
    ensure_wave(wave);
    const std::uint32_t dwords = a.bytes_per_lane <= 4 ? 1 : a.bytes_per_lane / 4;
    // A whole wave whose lanes 16..63 repeat lanes 0..15 (row broadcasts of
    // the micro kernels) has the outcome of its first 16 lanes.
    const bool rows_repeat =
        a.lanes == ~0ull && std::memcmp(&a.address[16], &a.address[0], sizeof a.address[0] * 48) == 0;
    const unsigned lanes = rows_repeat ? 16 : 64;
    collect(a, lanes, dwords);
    LdsConflict c;
    if (low_ > high_) return c;  // no lane, or all past the LDS
    std::uint64_t conflicting = 0;
    for (std::uint32_t w = low_; w <= high_; ++w) conflicting |= access_[w] & conflicts(w, wave, a.write);
    if (conflicting) {
        c = describe(a, lanes, dwords, wave);
        if (rows_repeat) c.lanes = (c.lanes & 0xffff) * 0x0001000100010001ull;
    }
    record(wave, inst, a.write, conflicting != 0);
    std::fill(access_.begin() + low_, access_.begin() + high_ + 1, 0);
    low_ = ~0u;
    high_ = 0;
    return c;
}

}  // namespace dppgemm::emu::check
