#include "emu/check/scoreboard.hpp"

#include <algorithm>

namespace dppgemm::emu::check {

namespace {
constexpr unsigned vm_limit = 63, lgkm_limit = 15;
static_assert(slot_count / 64 <= 64, "a word mask of the slot bitmap fits a 64-bit word");

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
    completed_words_ = 0;
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

void Scoreboard::complete(const InFlightMemoryOp& e) {
    lgkm_count_ -= e.lgkm;
    flat_count_ -= e.vm && e.lgkm;
    if (overlap_)
        for_slot_words(e.dest, [&](unsigned word, std::uint64_t) { completed_words_ |= std::uint64_t{1} << word; });
    else for_slot_words(e.dest, [&](unsigned word, std::uint64_t bits) { bits_[word] &= ~bits; });
}

template <unsigned capacity, typename Done>
void Scoreboard::complete_where(Queue<capacity>& q, Done done) {
    const unsigned size = q.size;
    unsigned kept = 0;
    for (unsigned i = 0; i < size; ++i) {
        const InFlightMemoryOp e = q[i];
        if (done(e, i)) complete(e);
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
    while (!vm_.empty() && completes(vm_[0], vm_.size - 1, 0, vm, lgkm)) {
        complete(vm_[0]);
        vm_.pop_front();
    }
    if (flat_count_ && vm_.size) {
        const unsigned remaining = vm_.size;
        complete_where(
            vm_, [&](const InFlightMemoryOp& e, unsigned i) { return completes(e, remaining - 1 - i, 0, vm, lgkm); });
    }
    while (!lds_.empty() && completes(lds_[0], 0, lds_.size - 1, vm, lgkm)) {
        complete(lds_[0]);
        lds_.pop_front();
    }
    if (unordered_.size)
        complete_where(unordered_, [&](const InFlightMemoryOp& e, unsigned) { return completes(e, 0, 0, vm, lgkm); });
    if (!overlap_) return;
    // The words the completed entries' results lie in, rebuilt from the
    // entries still in flight.
    const std::uint64_t rebuild = completed_words_;
    completed_words_ = 0;
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

const InFlightMemoryOp* Scoreboard::first_unordered_with(const InFlightMemoryOp& incoming) const {
    return oldest([&](const InFlightMemoryOp& e) {
        if (!e.dest.count || e.reported || !e.dest.overlaps(incoming.dest)) return false;
        const bool both_vm_only = e.vm && !e.lgkm && incoming.vm && !incoming.lgkm;
        const bool both_lds = e.lgkm_in_order && incoming.lgkm_in_order;
        return !both_vm_only && !both_lds;
    });
}

void Scoreboard::issue(const InFlightMemoryOp& entry) {
    if (entry.vm && vm_.size >= vm_limit) wait(vm_limit - 1, lgkm_limit);
    if (entry.lgkm && lgkm_count_ >= lgkm_limit) wait(vm_limit, lgkm_limit - 1);
    InFlightMemoryOp e = entry;
    e.order = next_order_++;
    if (e.vm) vm_.push(e);
    else if (e.lgkm_in_order) lds_.push(e);
    else unordered_.push(e);
    lgkm_count_ += e.lgkm;
    flat_count_ += e.vm && e.lgkm;
    std::uint64_t shared = 0;
    for_slot_words(e.dest, [&](unsigned word, std::uint64_t bits) {
        shared |= bits_[word] & bits;
        bits_[word] |= bits;
    });
    overlap_ |= shared != 0;
}

const InFlightMemoryOp* Scoreboard::unfinished_lds_write() const {
    return oldest([](const InFlightMemoryOp& e) { return e.lds_write; });
}

}  // namespace dppgemm::emu::check
