#pragma once
// The narrow interface checkers observe the executor through. Off by
// default: the run loop tests one pointer per instruction and the memory
// paths one more per memory instruction; nothing else changes. An observer
// says what it needs (which instructions, global memory or not), so that
// what it does not need keeps the executor's fast paths.
//
// A DispatchObserver hands out one WorkgroupObserver per workgroup; a
// workgroup runs on one host thread, so a WorkgroupObserver needs no locking.
// Workgroups finish in any order: finish() receives the workgroup's linear
// index so that findings can be merged in workgroup order.

#include <cstdint>
#include <memory>

namespace dppgemm::emu {

struct Wave;
struct ExecInst;
struct InFlightMemoryOp;

// One memory instruction's lane accesses (LDS byte offsets, or device
// addresses), address_of(element, lane). Addresses of lanes outside `lanes`
// are unspecified.
struct MemoryAccess {
    enum class Space : std::uint8_t { lds, global } space = Space::global;
    bool write = false;
    bool read = false;  // atomics read and write
    // Lanes that access memory; of a global access, only lanes that reach
    // memory other workgroups share (not the private segment, not LDS
    // through the flat aperture: those lanes are seen as LDS accesses).
    // A scalar load is a global access of lane 0.
    std::uint64_t lanes = 0;
    std::uint32_t bytes_per_lane = 0;  // per address
    unsigned addresses_per_lane = 1;   // 2 for ds_read2/write2
    // Where the lanes' addresses are: ds_* instructions lend the executor's
    // own LDS offsets (lds_offsets[element][lane]); other accesses fill
    // `address`. Why: copying 64 or 128 offsets into `address` at every ds
    // access cost more than the race check that reads a few of them.
    const std::uint32_t (*lds_offsets)[64] = nullptr;
    // Added to each of lds_offsets (mod 2^32): the repeated access lends
    // the address VGPR itself with the instruction's offset here.
    std::uint32_t lds_offset_added = 0;
    std::uint64_t address[2][64] = {};
    std::uint64_t address_of(unsigned element, unsigned lane) const {
        return lds_offsets ? std::uint32_t(lds_offsets[element][lane] + lds_offset_added) : address[element][lane];
    }
    // A new access's description; its addresses, and for ds accesses
    // lds_offsets and pattern_id, are the caller's to fill.
    void begin(Space where, bool writes, std::uint64_t active, std::uint32_t bytes, unsigned per_lane = 1) {
        space = where;
        write = writes;
        read = !writes;
        lanes = active;
        bytes_per_lane = bytes;
        addresses_per_lane = per_lane;
        lds_offsets = nullptr;
        lds_offset_added = 0;
        pattern_id = 0;
    }
    // Nonzero: accesses with the same id have the same lanes, addresses per
    // lane, bytes per lane, byte of the first lane's address within its
    // dword, and addresses relative to the first lane's (the executor's bank
    // model tells repeats apart already, emu/exec/lds.hpp). 0: not known.
    std::uint64_t pattern_id = 0;
};

class WorkgroupObserver {
public:
    virtual ~WorkgroupObserver() = default;
    // Before each watched instruction (watched_instructions()) executes, in
    // program order (the wave's state is the input state). A run of
    // consecutive multiply-adds executes in one call with the CPU's
    // denormals-are-zero mode on: this hook is then called from inside that
    // run, and must not do floating-point work. While a wave runs, its pc
    // and executed count and the workgroup's instruction counts
    // (Counters::instructions, valu_multiply_add, valu_dpp) wait for the end
    // of its straight-line stretch (dispatch.cpp, run_wave): read the
    // ExecInst instead. A throw (ExecError) stops the wave with this
    // instruction not run; a throw from a hook the instruction calls
    // (memory_access, issued, landed) stops it with the instruction counted.
    virtual void before_instruction(const Wave&, const ExecInst&) {}
    // The instructions before_instruction is called for: one byte per entry
    // of Program::code, nonzero = called; nullptr (the default) = every
    // instruction. Asked once per workgroup, read before each instruction
    // (the bytes belong to the observer and must live until finish()). Why:
    // a call per instruction made an observer that does nothing cost 1.3x
    // the unobserved run; the checkers work out per program which
    // instructions can matter to a finding (emu/check/watch_plan.hpp).
    virtual const std::uint8_t* watched_instructions() const { return nullptr; }
    virtual void memory_access(const Wave&, const ExecInst&, const MemoryAccess&) {}
    // Whether memory_access wants global (non-LDS) accesses too. Asked once
    // per workgroup: listing 64 lane addresses costs as much as the access
    // itself, so an observer of LDS alone keeps the fast global paths.
    virtual bool observes_global_memory() const { return true; }
    // Whether the observer reads no register value but through the
    // instructions' operands and the accesses it is told of (the checkers
    // read none). Then an LDS read or a buffer load that nothing touches
    // before the wait that retires it (ExecInst::lds_lands_at_issue,
    // vmem_lands_at_issue) writes its registers at issue, as unobserved,
    // while issued() and landed() see its entry as they would otherwise
    // (InFlightMemoryOp::landed set). Asked once per workgroup. Why: the
    // landing copies at the wait were a tenth of a checked dpp0 launch's
    // extra host instructions.
    virtual bool reads_only_operands() const { return false; }
    // A load's (or store's) counter entry was issued / retired (landed).
    virtual void issued(const Wave&, const ExecInst&, const InFlightMemoryOp&) {}
    virtual void landed(const Wave&, const InFlightMemoryOp&) {}
    // Whether landed() is wanted for every entry. False: only for entries
    // that write memory (stores, atomics) or land data at their wait; the
    // others (LDS writes, loads that landed at issue) then retire as
    // unobserved, several in one step (sem::wait). Asked once per
    // workgroup. Why: the checkers' landed() ignores loads, and the call
    // per retired entry, one by one, was about 4% of a checked dpp0_32
    // launch (perf, 1024^3).
    virtual bool observes_every_landing() const { return true; }
    // All waves of the workgroup passed an s_barrier (count = barriers so far).
    virtual void barrier_released(std::uint32_t count) { (void)count; }
    virtual void wave_ended(const Wave&) {}
    // GWS resources (cooperative launches, gws.hpp): a wave releases to
    // `resource` (arrives at its barrier, signals its semaphore) or
    // acquires from it (leaves the barrier, passes ds_gws_sema_p). Every
    // release a barrier waited for precedes each of its departures; a
    // semaphore's releases precede the acquires they let pass.
    virtual void gws_release(const Wave&, unsigned resource) { (void)resource; }
    virtual void gws_acquire(const Wave&, unsigned resource) { (void)resource; }
};

class DispatchObserver {
public:
    virtual ~DispatchObserver() = default;
    // Called from worker threads, possibly concurrently: must be thread-safe.
    virtual std::unique_ptr<WorkgroupObserver> start(std::uint64_t workgroup_linear_id) = 0;
    virtual void finish(std::uint64_t workgroup_linear_id, std::unique_ptr<WorkgroupObserver> observer) = 0;
};

}  // namespace dppgemm::emu
