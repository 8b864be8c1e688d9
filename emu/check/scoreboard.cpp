#include "emu/check/scoreboard.hpp"

#include <algorithm>

namespace dppgemm::emu::check {

namespace {
constexpr unsigned vm_limit = 63, lgkm_limit = 15;
static_assert(slot_count / 64 <= 64, "a word mask of the slot bitmap fits a 64-bit word");

}  // namespace

void Scoreboard::reset() {
    entries_.clear();
    vm_count_ = lgkm_count_ = lds_count_ = 0;
    bits_.fill(0);
}

void Scoreboard::wait(unsigned vm, unsigned lgkm) {
    // Nothing completes when no counter holds more than the wait leaves:
    // an entry needs that many younger ones of its counter (or lgkmcnt(0)).
    if (vm_count_ <= vm && lgkm_count_ <= lgkm) return;
    unsigned vm_so_far = 0, lds_so_far = 0;  // up to and including entries_[i]
    const unsigned vm_total = vm_count_, lds_total = lds_count_;
    std::size_t kept = 0;
    std::uint64_t completed_words = 0;
    for (std::size_t i = 0; i < entries_.size(); ++i) {
        const InFlightMemoryOp& e = entries_[i];
        vm_so_far += e.vm;
        lds_so_far += e.lgkm_in_order;
        if (completes(e, vm_total - vm_so_far, lds_total - lds_so_far, vm, lgkm)) {
            vm_count_ -= e.vm;
            lgkm_count_ -= e.lgkm;
            lds_count_ -= e.lgkm_in_order;
            for_slot_words(e.dest, [&](unsigned word, std::uint64_t) { completed_words |= std::uint64_t{1} << word; });
        } else {
            if (kept != i) entries_[kept] = e;
            ++kept;
        }
    }
    if (kept == entries_.size()) return;
    entries_.resize(kept);
    // The words the completed entries' results lie in, rebuilt from the
    // entries still in flight.
    for (unsigned word = 0; word < bits_.size(); ++word)
        if ((completed_words >> word) & 1) bits_[word] = 0;
    for (const InFlightMemoryOp& e : entries_)
        for_slot_words(e.dest, [&](unsigned word, std::uint64_t bits) {
            if ((completed_words >> word) & 1) bits_[word] |= bits;
        });
}

const InFlightMemoryOp* Scoreboard::pending_in(const RegRange& range) const {
    if (!any_pending(range)) return nullptr;
    for (const InFlightMemoryOp& e : entries_)
        if (e.dest.count && !e.reported && e.dest.overlaps(range)) return &e;
    return nullptr;
}

void Scoreboard::mark_reported(const InFlightMemoryOp& entry) {
    for (InFlightMemoryOp& e : entries_)
        if (&e == &entry) e.reported = true;
}

const InFlightMemoryOp* Scoreboard::first_unordered_with(const InFlightMemoryOp& incoming) const {
    if (!pending_in(incoming.dest)) return nullptr;
    for (const InFlightMemoryOp& e : entries_) {
        if (!e.dest.count || e.reported || !e.dest.overlaps(incoming.dest)) continue;
        const bool both_vm_only = e.vm && !e.lgkm && incoming.vm && !incoming.lgkm;
        const bool both_lds = e.lgkm_in_order && incoming.lgkm_in_order;
        if (!both_vm_only && !both_lds) return &e;
    }
    return nullptr;
}

void Scoreboard::issue(const InFlightMemoryOp& entry) {
    if (entry.vm && vm_count_ >= vm_limit) wait(vm_limit - 1, lgkm_limit);
    if (entry.lgkm && lgkm_count_ >= lgkm_limit) wait(vm_limit, lgkm_limit - 1);
    entries_.push_back(entry);
    vm_count_ += entry.vm;
    lgkm_count_ += entry.lgkm;
    lds_count_ += entry.lgkm_in_order;
    for_slot_words(entry.dest, [&](unsigned word, std::uint64_t bits) { bits_[word] |= bits; });
}

const InFlightMemoryOp* Scoreboard::unfinished_lds_write() const {
    for (const InFlightMemoryOp& e : entries_)
        if (e.lds_write) return &e;
    return nullptr;
}

}  // namespace dppgemm::emu::check
