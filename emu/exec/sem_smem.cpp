// Scalar memory beyond loads: s_buffer_store, the scalar atomics (s_atomic_*
// on an address, s_buffer_atomic_* on a V#), the gfx9 scalar scratch loads and
// stores (s_scratch_*), and the cache maintenance and probe instructions (no caches are modelled: they only occupy
// lgkmcnt like the hardware's write-backs, or do nothing).
//
// Vega ISA "Scalar Memory Operations": the address is SGPR[sbase] (or the
// V#'s base) + the instruction offset + SGPR[soffset], dword aligned (low two
// bits ignored). s_buffer_* dwords at or past num_records are dropped (stores)
// as s_buffer_load reads them as 0. Atomics return the pre-op value in the
// data SGPRs when glc is set (cmpswap: only the first half, the data; the
// compare value is the second half, as in the vector atomics); they complete
// at lgkmcnt.

#include <cstring>
#include "emu/exec/semantics.hpp"
#include "emu/exec/single_copy.hpp"
#include "emu/exec/weak_memory.hpp"
#include "emu/util.hpp"

namespace dppgemm::emu::sem {

namespace {

u64 offset_of(const Wave& w, const ExecInst& e) {
    u64 offset = u64(i64(e.inst->offset));
    if (e.soffset.kind != Src::Kind::none) offset += read32(w, e.soffset);
    return offset;
}

BufferResource resource_of(const Wave& w, const ExecInst& e) {
    u32 words[4];
    for (unsigned i = 0; i < 4; ++i) words[i] = w.sreg[e.src[0].index + i];
    return BufferResource::from_sgprs(words);
}

void s_buffer_store(Wave& w, const ExecInst& e) {
    const BufferResource r = resource_of(w, e);
    const u64 offset = u32(offset_of(w, e)) & ~3u;
    for (unsigned d = 0; d < e.dst.dwords; ++d) {
        const u64 at = offset + 4 * d;
        if (at + 4 > r.num_records) continue;
        std::uint8_t* host = w.group->translator.translate(r.base + at, 4);
        if (!host) fault_at(FaultKind::global_out_of_bounds, "s_buffer_store outside any allocation", r.base + at);
        store_single_copy(host, &w.sreg[e.dst.index + d], 4);
    }
    InFlightMemoryOp entry;
    entry.counter = WaitCounter::lgkm_smem;
    entry.writes_memory = true;
    issue(w, e, entry);
}

// Atomics of `Dwords` (1 or 2) on a global address (Buffer = false) or a V#.
template <bool Buffer, unsigned Dwords>
void s_atomic(Wave& w, const ExecInst& e) {
    const AtomicKind op = e.inst->info().atomic;
    const bool cmpswap = op == AtomicKind::cmpswap;
    u64 address;
    if (Buffer) {
        const BufferResource r = resource_of(w, e);
        const u64 offset = u32(offset_of(w, e)) & ~3u;
        if (offset + 4 * Dwords > r.num_records) {  // out of range: no effect, returns 0
            address = 0;
        } else {
            address = r.base + offset;
        }
    } else {
        address = (read64(w, e.src[0]) + offset_of(w, e)) & ~u64(3);
    }
    u64 old = 0;
    if (address) {
        if (address & (4 * Dwords - 1)) fault_at(FaultKind::misaligned, "misaligned scalar atomic", address);
        std::uint8_t* host = w.group->translator.translate(address, 4 * Dwords);
        if (!host) fault_at(FaultKind::global_out_of_bounds, "scalar atomic outside any allocation", address);
        auto pair = [&](unsigned first) {
            return Dwords == 1 ? u64(w.sreg[e.dst.index + first]) : w.read64(e.dst.index + first);
        };
        const u64 data = pair(0), compare = cmpswap ? pair(Dwords) : 0;
        old = Dwords == 1 ? atomic_apply32(host, op, u32(data), u32(compare)) : atomic_apply64(host, op, data, compare);
    }
    InFlightMemoryOp entry;
    entry.counter = WaitCounter::lgkm_smem;
    entry.writes_memory = true;
    if (e.inst->glc) {
        entry.dest = InFlightMemoryOp::Dest::sgpr;
        entry.dwords = Dwords;
        entry.reg = e.dst.index;
    }
    InFlightMemoryOp& p = issue(w, e, entry);
    if (e.inst->glc) {
        u32* data = w.pending.data(p);
        data[0] = u32(old);
        if (Dwords == 2) data[1] = u32(old >> 32);
    }
}

// s_scratch_load/store_dword{,x2,x4} (gfx9 SMEM opcodes 5-7 and 21-23, Vega
// ISA "SMEM Opcodes"): scalar loads and stores at the wave's scratch, sbase
// holding its 64-bit base (LLVM declares them as using FLAT_SCRATCH; kernels
// pass flat_scratch). Unlike other SMEM accesses the SGPR offset counts bytes
// of one lane's private segment and is scaled by the wave size:
//   address = SGPR[sbase] + (OFFSET & ~3) + (SGPR[soffset] & ~3) * 64
// (the operation CLRX's GCN 1.4 SMEM reference gives for S_SCRATCH_*; AMD's
// guides describe these opcodes only by name). With the swizzled private
// layout (byte o of lane l at slot + (o/4)*256 + 4*l + o%4, README.md) an SGPR
// offset o therefore reaches lane 0's dword at private offset o, and the
// immediate offset walks the lanes of one row.
u64 scratch_address(const Wave& w, const ExecInst& e) {
    u64 address = read64(w, e.src[0]) + (u64(i64(e.inst->offset)) & ~u64(3));
    if (e.soffset.kind != Src::Kind::none) address += u64(read32(w, e.soffset) & ~3u) * 64;
    return address;
}

void s_scratch_load(Wave& w, const ExecInst& e) {
    const unsigned dwords = e.dst.dwords;
    const u64 address = scratch_address(w, e);
    const std::uint8_t* host = w.group->translator.translate(address, 4ull * dwords);
    if (!host) fault_at(FaultKind::global_out_of_bounds, "s_scratch_load outside any allocation", address);
    load_single_copy(issue_sgpr_result(w, e, dwords), host, 4u * dwords);
    w.group->counters.scalar_read_bytes += 4ull * dwords;
}

void s_scratch_store(Wave& w, const ExecInst& e) {
    const u64 address = scratch_address(w, e);
    std::uint8_t* host = w.group->translator.translate(address, 4ull * e.dst.dwords);
    if (!host) fault_at(FaultKind::global_out_of_bounds, "s_scratch_store outside any allocation", address);
    store_single_copy(host, &w.sreg[e.dst.index], 4u * e.dst.dwords);
    InFlightMemoryOp entry;
    entry.counter = WaitCounter::lgkm_smem;
    entry.writes_memory = true;
    issue(w, e, entry);
}

// Write-backs complete at lgkmcnt; probes have nothing to do.
void counted(Wave& w, const ExecInst& e) {
    InFlightMemoryOp entry;
    entry.counter = WaitCounter::lgkm_smem;
    issue(w, e, entry);
}

// s_dcache_inv: the scalar cache exists only in the random schedule's weak memory.
void invalidate_scalar_cache(Wave& w, const ExecInst& e) {
    if (w.group->weak) w.group->weak->invalidate(w, WeakMemory::Cache::scalar);
    counted(w, e);
}

}  // namespace

void register_smem(Table& t) {
    const InstClass M = InstClass::smem;
    for (Op op : {Op::s_buffer_store_dword, Op::s_buffer_store_dwordx2, Op::s_buffer_store_dwordx4})
        set(t, op, s_buffer_store, M);
    for (std::size_t i = 1; i < op_count; ++i) {
        const Op op = static_cast<Op>(i);
        const OpInfo& info = op_info(op);
        if (info.family != Family::SMEM || info.atomic == AtomicKind::none) continue;
        // s_buffer_atomic_*: sbase is a 4-dword buffer resource, not a 2-dword address.
        const bool buffer = info.dwords[F_SRC0] == 4, wide = info.access_bytes == 8;
        const ExecFn fn =
            buffer ? (wide ? s_atomic<true, 2> : s_atomic<true, 1>) : (wide ? s_atomic<false, 2> : s_atomic<false, 1>);
        set(t, op, fn, M);
    }
    for (Op op : {Op::s_scratch_load_dword, Op::s_scratch_load_dwordx2, Op::s_scratch_load_dwordx4})
        set(t, op, s_scratch_load, M);
    for (Op op : {Op::s_scratch_store_dword, Op::s_scratch_store_dwordx2, Op::s_scratch_store_dwordx4})
        set(t, op, s_scratch_store, M);
    for (Op op : {Op::s_dcache_wb, Op::s_dcache_wb_vol}) set(t, op, counted, M);
    for (Op op : {Op::s_dcache_inv, Op::s_dcache_inv_vol}) set(t, op, invalidate_scalar_cache, M);
    for (Op op : {Op::s_atc_probe, Op::s_atc_probe_buffer}) set(t, op, no_effect, M);
}

}  // namespace dppgemm::emu::sem
