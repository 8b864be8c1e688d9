// The counter queue through which memory results reach registers.
//
// Landing rule: a load's data is read from memory when the instruction
// issues and written to its registers only when an s_waitcnt retires it (or
// when the counter overflows and the oldest entry must complete). vmcnt
// retires in issue order. lgkmcnt mixes LDS (in order) and SMEM (out of
// order): to leave a kernel that waits too little with stale data, as the
// hardware may, LDS entries retire first, oldest first, then SMEM entries;
// only lgkmcnt(0) guarantees SMEM results.

#include <cstring>

#include "emu/exec/semantics.hpp"
#include "emu/exec/weak_memory.hpp"

namespace dppgemm::emu::sem {

namespace {

// An LDS write's entry, or a read that landed when it issued (sem_lds.cpp):
// nothing to apply, nothing to publish, and with no observer that wants
// every landing nothing to tell.
inline bool nothing_to_land(const Wave& w, const InFlightMemoryOp& p) {
    return p.dest == InFlightMemoryOp::Dest::none && !p.writes_memory && !w.group->observes_every_landing;
}

}  // namespace

void land(Wave& w, const InFlightMemoryOp& p) {
    if (nothing_to_land(w, p)) return;
    const std::uint32_t* data = w.pending.data(p);
    switch (p.landed ? InFlightMemoryOp::Dest::none : p.dest) {
    case InFlightMemoryOp::Dest::none: break;
    case InFlightMemoryOp::Dest::sgpr:
        for (unsigned d = 0; d < p.dwords; ++d) w.sreg[p.reg + d] = data[d];
        break;
    case InFlightMemoryOp::Dest::vgpr:
    case InFlightMemoryOp::Dest::agpr:
        if (p.keep_mask == 0 && p.lanes == ~0ull) {
            // Every lane of whole registers: the planes are as contiguous as
            // the registers, one copy (libc's, in wide vectors where the CPU
            // has them) instead of one per register.
            std::uint32_t* first = p.dest == InFlightMemoryOp::Dest::vgpr ? w.v[p.reg] : w.a[p.reg];
            // One dword (buffer_load_dword under an observer) with a constant size: inlined moves.
            if (p.dwords == 1) std::memcpy(first, data, 256);
            else std::memcpy(first, data, std::size_t(256) * p.dwords);
            break;
        }
        for (unsigned d = 0; d < p.dwords; ++d) {
            std::uint32_t* reg = p.dest == InFlightMemoryOp::Dest::vgpr ? w.v[p.reg + d] : w.a[p.reg + d];
            const std::uint32_t* value = data + 64 * d;
            const std::uint32_t keep = p.keep_mask;
            if (keep == 0) {
                commit(reg, value, p.lanes);
            } else {
                for (unsigned l = 0; l < 64; ++l)
                    if ((p.lanes >> l) & 1) reg[l] = (reg[l] & keep) | (value[l] & ~keep);
            }
        }
        break;
    }
    // A store (or atomic) that s_waitcnt retires is complete: every later
    // access of any wave sees it. The memory model's release sequences rest
    // on that (LLVM AMDGPUUsage, "Memory Model GFX6-GFX9", "GFX90A",
    // "GFX942": s_waitcnt vmcnt(0) before the releasing store or atomic).
    // The store wrote memory at issue, but on the host it may still sit in
    // this core's store buffer, where a later load of this thread can pass
    // it (x86-TSO reorders stores with later loads): a full fence drains it.
    // Kernels retire few stores, so the fence costs nothing measurable.
    if (p.writes_memory) {
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        if (w.group->weak && p.counter == WaitCounter::vm) w.group->weak->store_retired(w);
    }
    if (WorkgroupObserver* o = w.group->observer) o->landed(w, p);
}

namespace {

// Retires the oldest entry on counter kind C. The test before land's call
// is land's own: many entries have nothing to land (LDS writes, reads that
// land at issue), and the call and the queue's index arithmetic for a
// counter kind known only at run time cost more than the rest (callgrind,
// 256^3 dpp0_32_denorm, when every wait took this path: 132 host
// instructions per s_waitcnt).
template <WaitCounter C>
void retire_oldest(Wave& w) {
    const InFlightMemoryOp& p = w.pending.oldest(C);
    if (!nothing_to_land(w, p)) land(w, p);
    w.pending.pop(C);
}

void retire_vm(Wave& w, unsigned keep) {
    while (w.pending.vmcnt() > keep) retire_oldest<WaitCounter::vm>(w);
}

// LDS entries first, then SMEM ones (the landing rule).
void retire_lgkm(Wave& w, unsigned keep) {
    while (w.pending.lgkmcnt() > keep) {
        if (w.pending.count(WaitCounter::lgkm_lds)) retire_oldest<WaitCounter::lgkm_lds>(w);
        else retire_oldest<WaitCounter::lgkm_smem>(w);
    }
}

// The reference: every entry retired one by one through land(). wait()
// takes it unless every entry it retires has nothing to land. Out of line:
// wait's common path keeps its registers.
__attribute__((noinline)) void wait_one_by_one(Wave& w, unsigned vm, unsigned lgkm) {
    retire_vm(w, vm);
    retire_lgkm(w, lgkm);
}

}  // namespace

// Unobserved (or under an observer that does not want every landing, as
// the checkers: WorkgroupObserver::observes_every_landing), the entries the
// SGEMM kernels retire all have nothing to land (their LDS reads and global
// loads land at issue): a counter compare and
// InFlightQueue::drop per counter instead of a land() test and a pop() per
// entry: 65 -> 27 host instructions per s_waitcnt, 86.5 M -> 83.5 M for the
// 256^3 dpp0_32 launch (callgrind).
void wait(Wave& w, unsigned vm, unsigned lgkm) {
    InFlightQueue& q = w.pending;
    const unsigned vm_count = q.vmcnt(), lds = q.count(WaitCounter::lgkm_lds), smem = q.count(WaitCounter::lgkm_smem);
    const bool retire_vm_entries = vm_count > vm, retire_lgkm_entries = lds + smem > lgkm;
    if (!(retire_vm_entries | retire_lgkm_entries)) return;
    // LDS entries retire before SMEM ones: n <= lds retires LDS entries only.
    if (__builtin_expect(
            w.group->observes_every_landing || (retire_vm_entries && !q.nothing_to_land(WaitCounter::vm)) ||
                (retire_lgkm_entries && (lds + smem - lgkm > lds || !q.nothing_to_land(WaitCounter::lgkm_lds))),
            0))
        return wait_one_by_one(w, vm, lgkm);
    if (retire_vm_entries) q.drop(WaitCounter::vm, vm_count - vm);
    if (retire_lgkm_entries) q.drop(WaitCounter::lgkm_lds, lds + smem - lgkm);
}

namespace {

// At the counter's limit the hardware stalls the issue until one entry
// completes. Out of line: the kernels wait before their counters fill, and
// issue's common path then keeps its registers.
__attribute__((noinline)) void make_room(Wave& w, WaitCounter c) {
    if (c == WaitCounter::vm) retire_vm(w, InFlightQueue::max_vm - 1);
    else retire_lgkm(w, InFlightQueue::max_lgkm - 1);
}

}  // namespace

InFlightMemoryOp& issue(Wave& w, const ExecInst& e, const InFlightMemoryOp& entry) {
    const bool full = entry.counter == WaitCounter::vm ? w.pending.vmcnt() >= InFlightQueue::max_vm
                                                       : w.pending.lgkmcnt() >= InFlightQueue::max_lgkm;
    if (__builtin_expect(full, 0)) make_room(w, entry.counter);
    InFlightMemoryOp& p = w.pending.push(entry);
    p.inst_index = e.index;
    if (WorkgroupObserver* o = w.group->observer) o->issued(w, e, p);
    return p;
}

}  // namespace dppgemm::emu::sem
