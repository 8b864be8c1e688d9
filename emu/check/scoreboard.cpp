#include "emu/check/scoreboard.hpp"

#include <algorithm>

namespace dppgemm::emu::check {

namespace {
static_assert(slot_count / 64 + 1 <= 64, "a word mask of the slot bitmap fits a 64-bit word");

// Whether a was issued before b (orders of entries in flight are at most
// vm_limit + lgkm_limit apart, so the difference survives wrapping).
bool older(const InFlightMemoryOp& a, const InFlightMemoryOp& b) {
    return static_cast<std::int32_t>(a.order - b.order) < 0;
}

}  // namespace

void Scoreboard::reset() {
    vm_.clear();
    lds_.clear();
    unordered_.clear();
    lgkm_count_ = flat_count_ = 0;
    next_order_ = 0;
    bits_.fill(0);
    overlap_ = false;
}

template <typename F>
void Scoreboard::for_each(F f) const {
    for (unsigned i = 0; i < vm_.size; ++i) f(vm_[i]);
    for (unsigned i = 0; i < lds_.size; ++i) f(lds_[i]);
    for (unsigned i = 0; i < unordered_.size; ++i) f(unordered_[i]);
}

template <typename Keep>
const InFlightMemoryOp* Scoreboard::oldest(Keep keep) const {
    const InFlightMemoryOp* found = nullptr;
    for_each([&](const InFlightMemoryOp& e) {
        if (keep(e) && (!found || older(e, *found))) found = &e;
    });
    return found;
}

// Clears the entry's result bits and counts it out of lgkmcnt; with
// `words`, notes the bitset words its result lies in (wait() rebuilds them
// from the entries still in flight when results overlap).
template <bool words>
[[gnu::always_inline]] inline void Scoreboard::complete(const InFlightMemoryOp& e, Completed& done) {
    done.lgkm += e.lgkm;
    done.flat += e.vm && e.lgkm;
    const SlotFootprint& f = e.footprint;
    if (!f.general) {
        bits_[f.word] &= ~f.low;
        bits_[f.word + 1] &= ~f.high;
        if (words) done.words |= std::uint64_t{f.low != 0} << f.word | std::uint64_t{f.high != 0} << (f.word + 1);
        return;
    }
    for_slot_words(e.dest, [&](unsigned word, std::uint64_t bits) {
        done.words |= std::uint64_t{1} << word;
        bits_[word] &= ~bits;
    });
}

// Why the two loops: the words are needed only when results overlapped,
// and noting them was a fifth of a completion (callgrind, dpp0_32_denorm).
template <unsigned capacity>
void Scoreboard::complete_oldest(Queue<capacity>& q, unsigned n, Completed& done) {
    if (overlap_)
        for (unsigned i = 0; i < n; ++i) complete<true>(q[i], done);
    else
        for (unsigned i = 0; i < n; ++i) complete<false>(q[i], done);
    q.head = (q.head + n) & (capacity - 1);
    q.size -= n;
}

template <unsigned capacity, typename Done>
void Scoreboard::complete_where(Queue<capacity>& q, Done is_done, Completed& done) {
    const unsigned size = q.size;
    unsigned kept = 0;
    for (unsigned i = 0; i < size; ++i) {
        const InFlightMemoryOp e = q[i];
        if (is_done(e, i)) complete<true>(e, done);
        else q[kept++] = e;
    }
    q.size = kept;
}

void Scoreboard::wait(unsigned vm, unsigned lgkm) {
    // Nothing completes when no counter holds more than the wait leaves:
    // an entry needs that many younger ones of its counter (or lgkmcnt(0)).
    if (vm_.size <= vm && lgkm_count_ <= lgkm) return;
    // In an ordered queue an entry has more younger ones than any younger
    // entry: the completed ones are a prefix, up to FLAT entries further
    // back that lgkmcnt completes.
    Completed done;
    complete_oldest(vm_, completed_in_order(vm_.size, vm), done);
    if (flat_count_ && vm_.size) {
        const unsigned remaining = vm_.size;
        complete_where(
            vm_, [&](const InFlightMemoryOp& e, unsigned i) { return completes(e, remaining - 1 - i, 0, vm, lgkm); },
            done);
    }
    complete_oldest(lds_, completed_in_order(lds_.size, lgkm), done);
    if (unordered_.size)
        complete_where(
            unordered_, [&](const InFlightMemoryOp& e, unsigned) { return completes(e, 0, 0, vm, lgkm); }, done);
    lgkm_count_ -= done.lgkm;
    flat_count_ -= done.flat;
    if (!overlap_) return;
    // The words the completed entries' results lie in, rebuilt from the
    // entries still in flight.
    const std::uint64_t rebuild = done.words;
    for (unsigned word = 0; word < bits_.size(); ++word)
        if ((rebuild >> word) & 1) bits_[word] = 0;
    for_each([&](const InFlightMemoryOp& e) {
        for_slot_words(e.dest, [&](unsigned word, std::uint64_t bits) {
            if ((rebuild >> word) & 1) bits_[word] |= bits;
        });
    });
    if (empty()) overlap_ = false;
}

const InFlightMemoryOp* Scoreboard::pending_in(const RegRange& range) const {
    if (!any_pending(range)) return nullptr;
    return oldest([&](const InFlightMemoryOp& e) { return e.dest.count && !e.reported && e.dest.overlaps(range); });
}

void Scoreboard::mark_reported(const InFlightMemoryOp& entry) {
    // `entry` is one of the queues' own slots (pending_in, unordered_with).
    const_cast<InFlightMemoryOp&>(entry).reported = true;
}

const InFlightMemoryOp* Scoreboard::unordered_with(const InFlightMemoryOp& incoming) const {
    return oldest([&](const InFlightMemoryOp& e) {
        if (!e.dest.count || e.reported || !e.dest.overlaps(incoming.dest)) return false;
        const bool both_vm_only = e.vm && !e.lgkm && incoming.vm && !incoming.lgkm;
        const bool both_lds = e.lgkm_in_order && incoming.lgkm_in_order;
        return !both_vm_only && !both_lds;
    });
}

void Scoreboard::make_room(const InFlightMemoryOp& incoming) {
    if (incoming.vm && vm_.size >= vm_limit) wait(vm_limit - 1, lgkm_limit);
    if (incoming.lgkm && lgkm_count_ >= lgkm_limit) wait(vm_limit, lgkm_limit - 1);
}

const InFlightMemoryOp* Scoreboard::unfinished_lds_write() const {
    return oldest([](const InFlightMemoryOp& e) { return e.lds_write; });
}

}  // namespace dppgemm::emu::check
