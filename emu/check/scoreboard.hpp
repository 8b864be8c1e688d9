#pragma once
// One wave's memory counters as the hardware guarantees them (not as the
// executor happens to retire them): which loads may still be in flight after
// each s_waitcnt.
//
//   vmcnt:   buffer/global/flat/scratch loads and stores, returned in order;
//            s_waitcnt vmcnt(n) completes all but the newest n.
//   lgkmcnt: LDS in order among LDS, SMEM in any order, the LDS half of FLAT
//            in any order. After lgkmcnt(n) an LDS entry is certainly done
//            when it and the LDS entries younger than it are more than n (the
//            count cannot drop to n with it outstanding); SMEM and FLAT
//            entries only at lgkmcnt(0).
//   expcnt:  exports and GDS, which compute kernels here never issue.
// Issuing beyond a counter's limit (vm 63, lgkm 15) stalls until one entry
// completes: the same as a wait for limit - 1.

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "emu/check/inst_facts.hpp"
#include "emu/exec/wave.hpp"

namespace dppgemm::emu::check {

// A register range's bits in the slot bitset, as two consecutive words
// (`high` 0 when the range ends in word `word`), or `general`: longer than
// 64 slots or past the last slot, for_slot_words' loop. Why: a load's
// result is set at its issue, tested and cleared at its completion; the
// range's word and shift computed each time were about 35 host
// instructions, three times per load (callgrind, dpp0 256^3).
struct SlotFootprint {
    std::uint64_t low = 0, high = 0;
    std::uint16_t word = 0;
    bool general = false;
};

inline SlotFootprint footprint_of(const RegRange& range) {
    SlotFootprint f;
    if (range.count >= 64 || range.slot + range.count > slot_count) {
        f.general = true;
        return f;
    }
    const unsigned shift = range.slot % 64;
    const std::uint64_t run = (std::uint64_t{1} << range.count) - 1;
    f.word = static_cast<std::uint16_t>(range.slot / 64);
    f.low = run << shift;
    f.high = (run >> 1) >> (63 - shift);  // two steps: a shift by 64 is undefined
    return f;
}

// The checker's record of an emu::InFlightMemoryOp (the executor's, which holds
// the data): the counters it occupies and whether they certainly completed it.
struct InFlightMemoryOp {
    std::uint32_t inst = 0;         // issuing instruction (index)
    bool vm = false, lgkm = false;  // counters it occupies
    bool lgkm_in_order = false;     // LDS (SMEM and FLAT are not)
    bool lds_write = false;
    bool reported = false;    // a finding names it already: not reported again
    RegRange dest;            // count 0: no register result (store)
    std::uint32_t order = 0;  // issue order within the wave (Scoreboard's, wrapping)
    std::uint64_t lanes = 0;  // lanes the load writes (vector results)
    SlotFootprint footprint;  // of dest (Scoreboard::issue sets it)
};

// The counters an entry of `counter` occupies. FLAT occupies both (it may be
// LDS) and leaves both when either covers it, so it is in order on neither.
inline InFlightMemoryOp entry_kind(WaitCounter counter, bool flat) {
    InFlightMemoryOp e;
    e.vm = counter == WaitCounter::vm;
    e.lgkm = !e.vm || flat;
    e.lgkm_in_order = counter == WaitCounter::lgkm_lds && !flat;
    return e;
}

// Whether entry `e` is certainly complete after s_waitcnt vmcnt(vm)
// lgkmcnt(lgkm), with `younger_vm` vm entries and `younger_lds` LDS entries
// issued after it still in flight: vmcnt(n) leaves at most the newest n
// outstanding, LDS likewise among LDS entries, the rest of lgkmcnt only at 0.
inline bool completes(const InFlightMemoryOp& e, unsigned younger_vm, unsigned younger_lds, unsigned vm,
                      unsigned lgkm) {
    if (!e.vm && !e.lgkm) return true;
    const bool vm_done = e.vm && younger_vm >= vm;
    const bool lgkm_done = e.lgkm && (e.lgkm_in_order ? younger_lds >= lgkm : lgkm == 0);
    return vm_done || lgkm_done;
}

// The same rule for the entries of one in-order counter (vm, LDS) together:
// of `count` entries, a wait that leaves `left` completes the oldest
// count - left (those with at least `left` younger ones).
inline unsigned completed_in_order(unsigned count, unsigned left) { return count > left ? count - left : 0; }

// Calls f(word, bits) for the slot words `range` covers (clipped to
// slot_count). A load's result is at most 16 registers, two words at most:
// those without a loop (this runs at every load and completing wait).
template <typename F>
inline void for_slot_words(const RegRange& range, F f) {
    const unsigned first = range.slot, shift = first % 64;
    if (range.count < 64 && first + range.count <= slot_count) {
        const std::uint64_t run = (std::uint64_t{1} << range.count) - 1;
        f(first / 64, run << shift);
        if (shift + range.count > 64) f(first / 64 + 1, run >> (64 - shift));
        return;
    }
    const unsigned end = std::min(first + range.count, slot_count);
    for (unsigned s = first; s < end;) {
        const unsigned take = std::min(64 - s % 64, end - s);
        f(s / 64, (take == 64 ? ~0ull : ((std::uint64_t{1} << take) - 1)) << (s % 64));
        s += take;
    }
}

class Scoreboard {
public:
    void reset();
    bool empty() const { return vm_.empty() && lds_.empty() && unordered_.empty(); }
    // s_waitcnt vmcnt(vm) lgkmcnt(lgkm).
    void wait(unsigned vm, unsigned lgkm);
    // Whether a load into a register the instruction touches may be in flight.
    bool touches_pending(const InstFacts& f) const {
        std::uint64_t hit = 0;
        for (unsigned i = 0; i < f.touched_words; ++i) hit |= bits_[f.touched[i].word] & f.touched[i].bits;
        return hit != 0;
    }
    bool any_pending(const RegRange& range) const { return any_pending(range, footprint_of(range)); }
    // The same with the range's footprint (footprint_of(range)) given.
    bool any_pending(const RegRange& range, const SlotFootprint& f) const {
        if (!f.general) return ((bits_[f.word] & f.low) | (bits_[f.word + 1] & f.high)) != 0;
        std::uint64_t hit = 0;
        for_slot_words(range, [&](unsigned word, std::uint64_t bits) { hit |= bits_[word] & bits; });
        return hit != 0;
    }
    // The oldest in-flight entry not yet reported whose result register overlaps `range`, or nullptr.
    const InFlightMemoryOp* pending_in(const RegRange& range) const;
    // An in-flight entry that may land after (or race) `incoming`, a new
    // load into registers some entry may still write (any_pending), or nullptr.
    const InFlightMemoryOp* unordered_with(const InFlightMemoryOp& incoming) const;
    // Inline: every memory instruction issues one. `dest_pending`:
    // any_pending(entry.dest), which the caller asked already.
    void issue(const InFlightMemoryOp& entry, bool dest_pending) {
        InFlightMemoryOp e = entry;
        e.footprint = footprint_of(entry.dest);
        issue_entry(e, entry.lanes, entry.lds_write, dest_pending);
    }
    // The same with entry.footprint set (footprint_of(entry.dest)) and the
    // issue's own lanes and lds_write, entry's ignored: written into the
    // queue once. Why: the checker's planned entry copied into a local, then
    // into the queue, was a fifth of issued()'s host instructions (callgrind,
    // dpp0_32_denorm 256^3).
    // What it needs of `entry` is read from `entry`, not from the queue's
    // copy: read back right after the copy's 16-byte stores, the counter
    // flags and the footprint waited for them (a fifth of issued()'s samples
    // on two loads, perf, checked dpp0_32 at 1024^3).
    void issue_entry(const InFlightMemoryOp& entry, std::uint64_t lanes, bool lds_write, bool dest_pending) {
        const bool vm = entry.vm, lgkm = entry.lgkm;
        const SlotFootprint footprint = entry.footprint;
        if ((vm && vm_.size >= vm_limit) || (lgkm && lgkm_count_ >= lgkm_limit)) make_room(entry);
        InFlightMemoryOp& e = vm ? vm_.push() : entry.lgkm_in_order ? lds_.push() : unordered_.push();
        e = entry;
        e.lanes = lanes;
        e.lds_write = lds_write;
        e.order = next_order_++;
        lgkm_count_ += lgkm;
        flat_count_ += vm && lgkm;
        if (!footprint.general) {
            bits_[footprint.word] |= footprint.low;
            bits_[footprint.word + 1] |= footprint.high;
        } else {
            for_slot_words(entry.dest, [&](unsigned word, std::uint64_t bits) { bits_[word] |= bits; });
        }
        // (Perhaps no longer, if make_room completed the entry: overlap_ only
        // makes completions rebuild their words.)
        overlap_ |= dest_pending;
    }
    // Reports about `entry` stop here (one finding per missing wait, not one per later read).
    void mark_reported(const InFlightMemoryOp& entry);
    // The oldest LDS write not yet certainly done, or nullptr.
    const InFlightMemoryOp* unfinished_lds_write() const;

private:
    static constexpr unsigned vm_limit = 63, lgkm_limit = 15;
    // Issuing past a counter's limit waits for one of its entries first.
    void make_room(const InFlightMemoryOp& incoming);
    // Entries of one ordering, oldest first. Capacity: the counter's limit
    // (issue() waits before exceeding it), rounded up to a power of two.
    template <unsigned capacity>
    struct Queue {
        static_assert((capacity & (capacity - 1)) == 0, "a power of two: positions wrap by mask");
        std::array<InFlightMemoryOp, capacity> slots;
        unsigned head = 0, size = 0;
        bool empty() const { return size == 0; }
        InFlightMemoryOp& operator[](unsigned i) { return slots[(head + i) & (capacity - 1)]; }
        const InFlightMemoryOp& operator[](unsigned i) const { return slots[(head + i) & (capacity - 1)]; }
        InFlightMemoryOp& push() { return (*this)[size++]; }
        void clear() { head = size = 0; }
    };
    // Applies f to the entries of all three queues (each queue oldest first).
    template <typename F>
    void for_each(F f) const;
    // The oldest entry (by issue order, across the queues) that `keep` accepts, or nullptr.
    template <typename Keep>
    const InFlightMemoryOp* oldest(Keep keep) const;
    // What a wait completed: lgkmcnt and FLAT entries, result words.
    struct Completed {
        unsigned lgkm = 0, flat = 0;
        std::uint64_t words = 0;
    };
    template <bool words>
    void complete(const InFlightMemoryOp& e, Completed& done);
    // Completes the oldest n entries of q.
    template <unsigned capacity>
    void complete_oldest(Queue<capacity>& q, unsigned n, Completed& done);
    // Completes the entries of q that `is_done(entry, position)` accepts; the rest keep their order.
    template <unsigned capacity, typename Done>
    void complete_where(Queue<capacity>& q, Done is_done, Completed& done);

    // vmcnt entries (FLAT too: it leaves when either counter covers it) in
    // issue order; LDS entries in issue order; SMEM, in any order. A wait
    // looks only at the entries it completes (the oldest of an ordered
    // queue first: the older an entry, the more younger ones it has).
    Queue<64> vm_;
    Queue<16> lds_, unordered_;
    unsigned lgkm_count_ = 0;  // entries occupying lgkmcnt (LDS, SMEM, FLAT)
    unsigned flat_count_ = 0;  // FLAT entries among vm_
    std::uint32_t next_order_ = 0;
    // Slots some entry's result covers. An entry's completion clears its
    // own bits; when two entries' results overlapped (`overlap_`), the
    // words the completed ones touched are then rebuilt from the entries
    // still in flight. One word more than the slots need: a footprint's
    // `high` word, always 0 past the last slot.
    std::array<std::uint64_t, slot_count / 64 + 1> bits_{};
    bool overlap_ = false;
};

}  // namespace dppgemm::emu::check
