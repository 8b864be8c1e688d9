#include "emu/check/scoreboard.hpp"

#include <algorithm>

namespace dppgemm::emu::check {

namespace {
constexpr unsigned vm_limit = 63, lgkm_limit = 15;
}

void Scoreboard::reset() {
    entries_.clear();
    pending_.fill(0);
    bits_.fill(0);
}

void Scoreboard::mark(const InFlightMemoryOp& e, int delta) {
    for (unsigned s = e.dest.slot; s < unsigned(e.dest.slot) + e.dest.count && s < slot_count; ++s) {
        pending_[s] = static_cast<std::uint16_t>(pending_[s] + delta);
        const std::uint64_t bit = std::uint64_t{1} << (s % 64);
        bits_[s / 64] = pending_[s] ? bits_[s / 64] | bit : bits_[s / 64] & ~bit;
    }
}

void Scoreboard::drop_done() {
    for (const InFlightMemoryOp& e : entries_)
        if (e.done()) mark(e, -1);
    entries_.erase(std::remove_if(entries_.begin(), entries_.end(), [](const InFlightMemoryOp& e) { return e.done(); }),
                   entries_.end());
}

void Scoreboard::wait(unsigned vm, unsigned lgkm) {
    unsigned vm_younger = 0, lds_younger = 0;
    for (auto it = entries_.rbegin(); it != entries_.rend(); ++it) {
        if (it->vm && ++vm_younger > vm) it->vm_done = true;
        if (!it->lgkm) continue;
        if (it->lgkm_in_order) {
            if (++lds_younger > lgkm) it->lgkm_done = true;
        } else if (lgkm == 0) {
            it->lgkm_done = true;
        }
    }
    drop_done();
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

const InFlightMemoryOp* Scoreboard::unordered_with(const InFlightMemoryOp& incoming) const {
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
    unsigned vm_count = 0, lgkm_count = 0;
    for (const InFlightMemoryOp& e : entries_) {
        vm_count += e.vm;
        lgkm_count += e.lgkm;
    }
    if (entry.vm && vm_count >= vm_limit) wait(vm_limit - 1, lgkm_limit);
    if (entry.lgkm && lgkm_count >= lgkm_limit) wait(vm_limit, lgkm_limit - 1);
    entries_.push_back(entry);
    mark(entry, +1);
}

const InFlightMemoryOp* Scoreboard::unfinished_lds_write() const {
    for (const InFlightMemoryOp& e : entries_)
        if (e.lds_write) return &e;
    return nullptr;
}

}  // namespace dppgemm::emu::check
