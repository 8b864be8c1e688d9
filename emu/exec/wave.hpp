#pragma once
// The state of one wave (64 lanes) and of the workgroup it runs in.
//
// VGPRs are stored register-major, lane-contiguous: v[r][lane], so an
// instruction loops over 64 consecutive uint32 of each operand. Scalar
// registers live in one array indexed by their operand code (s0..s101,
// flat_scratch 102-103, xnack_mask 104-105, vcc 106-107, ttmp 108-123,
// m0 124, exec 126-127): a resolved scalar operand is just an index.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "emu/exec/address_space.hpp"
#include "emu/exec/counters.hpp"
#include "emu/exec/fault_kind.hpp"
#include "emu/exec/gws.hpp"
#include "emu/exec/lds.hpp"
#include "emu/exec/observer.hpp"
#include "emu/exec/program.hpp"

namespace dppgemm::emu {

inline constexpr unsigned sreg_flat_scratch = 102, sreg_vcc = 106, sreg_m0 = 124, sreg_exec = 126;
inline constexpr unsigned max_vgprs = 256;  // v0..v255: what an instruction can name
// The vector register file per lane: gfx90a+ have one of 512 entries, the
// ArchVGPRs first and the AGPRs from the kernel's accum_offset on (AMDGPUUsage,
// "AMDGPU_COMPUTE_PGM_RSRC3_GFX90A"); gfx908's separate AGPR file is kept
// as the upper half.
inline constexpr unsigned vector_file_size = 2 * max_vgprs;

// Thrown by semantics; the run loop adds the PC, instruction, workgroup and wave.
class ExecError : public std::runtime_error {
public:
    ExecError(FaultKind kind, const std::string& what, bool has_address = false, std::uint64_t address = 0)
        : std::runtime_error(what), kind(kind), has_address(has_address), address(address) {}
    FaultKind kind;
    bool has_address;
    std::uint64_t address;
};

// The counter an entry occupies; lgkmcnt's entries split by kind (LDS retires
// in order, SMEM in any order: counter_queue.cpp retire_lgkm).
enum class WaitCounter : std::uint8_t { vm, lgkm_lds, lgkm_smem };

// A counter entry: a memory instruction in flight. Loads carry the data
// that lands in registers when an s_waitcnt retires the entry; stores carry
// none but occupy the counter as on hardware.
struct InFlightMemoryOp {
    enum class Dest : std::uint8_t { none, vgpr, agpr, sgpr };
    WaitCounter counter = WaitCounter::vm;
    Dest dest = Dest::none;
    std::uint8_t dwords = 0;
    // The operation wrote global memory (a store or an atomic): when it
    // retires, its writes must be visible to every other workgroup.
    bool writes_memory = false;
    // The result is in its registers already: an LDS read or a buffer load
    // that landed at issue under an observer (ExecInst::lds_lands_at_issue,
    // vmem_lands_at_issue; WorkgroupObserver::reads_only_operands); the
    // retiring wait applies nothing but still tells the observer.
    bool landed = false;
    std::uint16_t reg = 0;
    std::uint32_t keep_mask = 0;   // bits of the old register value kept (d16 loads)
    std::uint64_t lanes = 0;       // lanes written (vector destinations)
    std::uint32_t inst_index = 0;  // issuing instruction
    std::uint32_t slot = 0;        // data block in the wave's pool
};
// InFlightQueue::push_without_data writes an entry as four 8-byte words:
// the counter in the first word's low byte, the issuing instruction and the
// slot in the last word, every other field zero (its default).
static_assert(sizeof(InFlightMemoryOp) == 32 && offsetof(InFlightMemoryOp, counter) == 0 &&
                  offsetof(InFlightMemoryOp, inst_index) == 24 && offsetof(InFlightMemoryOp, slot) == 28,
              "InFlightQueue::push_without_data's layout");
static_assert(std::is_trivially_copyable_v<InFlightMemoryOp>, "InFlightQueue::push_without_data copies bytes");

// The entries in flight, one FIFO per WaitCounter: vmcnt and LDS retire in
// issue order, and the landing rule (counter_queue.cpp) retires SMEM entries
// oldest first too, so no entry ever leaves from the middle of its FIFO.
// Each is a fixed ring (the counters' limits bound them): issuing and
// retiring are an index step, with no search and no erase from a list.
class InFlightQueue {
public:
    static constexpr unsigned block_dwords = 16 * 64;  // 4 dwords x 64 lanes, or 16 SGPRs
    // Counter limits of gfx9 (issue stalls, i.e. the oldest retires, beyond them).
    static constexpr unsigned max_vm = 63, max_lgkm = 15;

    void clear() {
        for (Fifo& f : fifos_) f.head = f.count = 0, f.to_land = 0;
    }
    std::uint32_t* data(const InFlightMemoryOp& p) { return pool_[p.slot].get(); }
    // Entries on one counter kind.
    unsigned count(WaitCounter c) const { return fifos_[index(c)].count; }

    // A new entry with a data block (zeroed only if asked). The caller
    // (sem::issue) makes room first: at most max_vm entries on vmcnt and
    // max_lgkm on lgkmcnt.
    InFlightMemoryOp& push(const InFlightMemoryOp& p) {
        std::uint32_t slot;
        const unsigned k = index(p.counter);
        InFlightMemoryOp& e = append(k, slot);
        e = p;
        e.slot = slot;
        if (p.dest != InFlightMemoryOp::Dest::none || p.writes_memory) mark_to_land(k, e);
        return e;
    }
    // push() of a default entry (nothing to land) on counter kind C, issued
    // by instruction `inst_index`: written in place, without a copy from
    // the caller's (an LDS write's entry, a read's that landed at issue).
    // The caller may fill in the rest of the entry before an observer sees it.
    // Such an entry never reaches data() (land() applies nothing for
    // Dest::none; the callers that fill in a destination mark it landed), so
    // its slot gets no data block: the allocation's test stays off this path.
    // nothing_to_land() counts on that: the caller may mark the entry
    // landed but must not give it a destination to land nor a memory write.
    // The entry is written as four 8-byte stores, not field by field (eight
    // stores) nor as `e = InFlightMemoryOp{}` (a `rep stos`, whose start-up
    // was a seventh of a 32x32 ds_read, perf 1024^3 dpp0_32). Both took a
    // ds_read_b64 from 182 to 170 host instructions, a ds_write_b32 from 301
    // to 291 (callgrind, 256^3 dpp0_32).
    template <WaitCounter C>
    InFlightMemoryOp& push_without_data(std::uint32_t inst_index) {
        constexpr unsigned k = index(C);
        Fifo& f = fifos_[k];
        const unsigned position = (f.head + f.count) % capacity(k);
        ++f.count;
        InFlightMemoryOp& e = f.entries[position];
        char* bytes = reinterpret_cast<char*>(&e);
        const std::uint64_t first = std::uint64_t(C), zero = 0,
                            last = std::uint64_t(inst_index) | std::uint64_t(first_slot(k) + position) << 32;
        std::memcpy(bytes, &first, 8);
        std::memcpy(bytes + 8, &zero, 8);
        std::memcpy(bytes + 16, &zero, 8);
        std::memcpy(bytes + 24, &last, 8);
        return e;
    }
    // push_without_data's entry with its data block: for a caller that fills
    // in a destination which the retiring wait lands from data().
    template <WaitCounter C>
    InFlightMemoryOp& push_in_place(std::uint32_t inst_index) {
        InFlightMemoryOp& e = push_without_data<C>(inst_index);
        if (!pool_[e.slot]) allocate(e.slot);
        mark_to_land(index(C), e);
        return e;
    }
    // The oldest entry on counter kind c (count(c) > 0), and its removal
    // (after its data was applied).
    InFlightMemoryOp& oldest(WaitCounter c) {
        Fifo& f = fifos_[index(c)];
        return f.entries[f.head];
    }
    // An emptied ring starts again at position 0: the next entries reuse the
    // data blocks (4 KiB each) the last ones used, still in the host's
    // cache, instead of walking all of the ring's blocks (the SGEMM kernels
    // wait for every load each k step, so most loads find the ring empty).
    void pop(WaitCounter c) {
        const unsigned k = index(c);
        Fifo& f = fifos_[k];
        f.to_land &= ~(std::uint64_t{1} << f.head);
        --f.count;
        f.head = f.count == 0 ? 0 : (f.head + 1) % capacity(k);
    }
    // No entry on counter kind c was pushed by push() with a destination or
    // a memory write, nor by push_in_place: without an observer, every one
    // has nothing to land (push_without_data's), and retiring them is
    // drop()'s index step.
    bool nothing_to_land(WaitCounter c) const { return fifos_[index(c)].to_land == 0; }
    // pop() of the n oldest entries on counter kind c (n <= count(c)), at
    // once: for entries with nothing to land (nothing_to_land(c)).
    void drop(WaitCounter c, unsigned n) {
        const unsigned k = index(c);
        Fifo& f = fifos_[k];
        f.count -= n;
        f.head = f.count == 0 ? 0 : (f.head + n) % capacity(k);
    }
    // The hardware counters' values: entries on vmcnt, and on lgkmcnt (LDS and SMEM alike).
    unsigned vmcnt() const { return fifos_[0].count; }
    unsigned lgkmcnt() const { return fifos_[1].count + fifos_[2].count; }

private:
    // vmcnt's ring holds max_vm + 1 (a power of two), the LDS and SMEM rings max_lgkm + 1 each.
    static constexpr unsigned vm_capacity = max_vm + 1, lgkm_capacity = max_lgkm + 1;
    struct Fifo {
        InFlightMemoryOp entries[vm_capacity];
        unsigned head = 0, count = 0;
        // Bit p: the entry at ring position p may have something to land (nothing_to_land).
        std::uint64_t to_land = 0;
    };
    static constexpr unsigned index(WaitCounter c) { return static_cast<unsigned>(c); }
    static constexpr unsigned capacity(unsigned k) { return k == 0 ? vm_capacity : lgkm_capacity; }
    static constexpr unsigned first_slot(unsigned k) { return k == 0 ? 0 : vm_capacity + (k - 1) * lgkm_capacity; }
    // The entry after the newest of ring k, counted in, with its data block
    // (`slot`) allocated: the push's to fill.
    InFlightMemoryOp& append(unsigned k, std::uint32_t& slot) {
        Fifo& f = fifos_[k];
        const unsigned position = (f.head + f.count) % capacity(k);
        ++f.count;
        slot = first_slot(k) + position;
        if (!pool_[slot]) allocate(slot);
        return f.entries[position];
    }
    void mark_to_land(unsigned k, const InFlightMemoryOp& e) {
        Fifo& f = fifos_[k];
        f.to_land |= std::uint64_t{1} << (&e - f.entries);
    }
    // Out of line: once per slot and wave, and push's common path keeps its registers.
    __attribute__((noinline)) void allocate(std::uint32_t slot) { pool_[slot].reset(new std::uint32_t[block_dwords]); }
    Fifo fifos_[3];
    // Data blocks by slot (a FIFO position), allocated on first use.
    std::unique_ptr<std::uint32_t[]> pool_[vm_capacity + 2 * lgkm_capacity];
};

// code_switched: s_setreg changed the fp32 denorm mode and pointed Wave::code
// at that mode's code; the run loop picks it up and carries on (running).
// The MODE register a wave starts with: FP_ROUND [3:0] (fp32, fp16/64),
// FP_DENORM [7:4] (fp32, fp16/64), DX10_CLAMP [8], IEEE [9], FP16_OVFL [23].
inline constexpr unsigned mode_fp32_denorm_shift = 4;
inline std::uint32_t mode_register(const FloatMode& m) {
    return std::uint32_t(m.round_32) | std::uint32_t(m.round_16_64) << 2 | std::uint32_t(m.denorm_32) << 4 |
           std::uint32_t(m.denorm_16_64) << 6 | std::uint32_t(m.dx10_clamp) << 8 | std::uint32_t(m.ieee_mode) << 9 |
           std::uint32_t(m.fp16_overflow) << 23;
}

// at_gws: queued on a GWS resource (gws.hpp) until the scheduler wakes it.
enum class WaveState : std::uint8_t { running, at_barrier, ended, code_switched, at_gws };

struct Workgroup;
class WeakMemory;

struct alignas(64) Wave {
    std::uint32_t v[vector_file_size][64];
    std::uint32_t sreg[256];
    // AGPR 0 in `v` (set per dispatch): v + accum_offset on gfx90a+, where
    // v[accum_offset + i] and a[i] are one register; v + 256 on gfx908.
    std::uint32_t (*a)[64] = v + max_vgprs;
    bool scc = false;
    WaveState state = WaveState::running;
    std::uint32_t pc = 0;            // index into Program::code
    const ExecInst* code = nullptr;  // Program::code, or its copy for the current fp32 denorm mode
    std::uint32_t mode = 0;          // the MODE hardware register (s_getreg/s_setreg)
    std::uint32_t id = 0;            // wave number in the workgroup
    std::uint64_t executed = 0;      // instructions issued (watchdog), see stretch_first
    // While the run loop runs the wave without a budget (dispatch.cpp, run_wave),
    // `executed` leaves out the loop's current straight-line stretch, from
    // instruction stretch_first on; otherwise stretch_first is no_stretch.
    // Instruction i of the stretch is the wave's executed_through(i)-th.
    static constexpr std::uint32_t no_stretch = 0xffffffffu;
    std::uint32_t stretch_first = no_stretch;
    std::uint64_t executed_through(std::uint32_t index) const {
        return stretch_first == no_stretch ? executed : executed + (index + 1 - stretch_first);
    }
    // The host thread is in "denormals are zero", left set by a multiply-add
    // run (host_float_mode.hpp); the run loop restores the default.
    bool host_denormals_are_zero = false;
    Workgroup* group = nullptr;
    InFlightQueue pending;
    // While at_gws: what it waits for, on which resource, the barrier flag it
    // saw, and the ds_gws_* instruction (index) that queued it.
    GwsWait gws_wait = GwsWait::none;
    std::uint8_t gws_resource = 0;
    bool gws_flag = false;
    std::uint32_t gws_inst = 0;
    // By ExecInst::lds_verifier_slot() - 1: the lane pattern (its
    // LdsConflictMemo::pattern_id) in which the last ds_read/ds_write
    // through that slot's address VGPR found the VGPR, in this wave of this
    // workgroup; 0: none, or not all lanes. The accesses it verifies
    // (ExecInst::lds_loop_slot()) read it. Last in the wave: its stores at
    // every such access fall at the 4 KiB offsets of the rows of v15 and
    // v31, not of the low VGPRs the next handlers read (as the fields above
    // do: "Nothing stored per instruction", dispatch.cpp).
    static constexpr unsigned lds_verifier_slots = 8;
    std::array<std::uint64_t, lds_verifier_slots> lds_verified{};
    // What sem_lds.cpp found when it last checked every read of an LDS-fed
    // block with a plan (block_with_reads_checked_first) in this wave of
    // this workgroup (init_wave clears it). While no conflict memo of the
    // workgroup has changed since (Workgroup::lds_memo_changes) and the
    // slots above hold what they held then, every read passes again where
    // its address VGPR's lane 0 keeps the bounds and the alignment kept
    // here per address VGPR, and leaves the slots as they were after it.
    struct CheckedBlock {
        static constexpr unsigned max_addresses = 4;
        struct Address {
            std::uint16_t vgpr = 0;
            std::uint8_t low_bits = 0;  // of lane 0, mod 4
            std::uint64_t end = 0;      // lane 0 + end <= the LDS size
        };
        const LdsBlockPlan* plan = nullptr;  // null: none
        std::uint64_t memo_changes = 0;
        std::array<std::uint64_t, lds_verifier_slots> found_before{}, found_after{};
        std::array<Address, max_addresses> addresses{};
        unsigned address_count = 0;
        std::uint64_t conflict_cycles = 0, bytes = 0;
        std::array<LdsConflictMemo*, LdsBlockPlan::max_reads_checked_first> memos{};
        // With the block rows at `rows` (the host thread's; null: none
        // yet): each read's gather and operands, and the runs'
        // multiplicands (sem::block_multiplicands).
        struct Gather {
            void (*gather)(const std::uint8_t*, const std::uint32_t*, std::uint32_t*, const LdsConflictMemo&) = nullptr;
            const std::uint8_t* lds = nullptr;  // the LDS plus the read's offset
            const std::uint32_t* addresses = nullptr;
            std::uint32_t* out = nullptr;
        };
        const std::uint32_t (*rows)[64] = nullptr;
        std::array<Gather, LdsBlockPlan::max_reads_checked_first> gathers{};
        std::array<const std::uint32_t*, LdsBlockPlan::max_runs * 8> multiplicands{};
    } checked_block;

    std::uint64_t read64(unsigned code) const {
        std::uint64_t value;
        std::memcpy(&value, &sreg[code], 8);
        return value;
    }
    void write64(unsigned code, std::uint64_t value) { std::memcpy(&sreg[code], &value, 8); }
    std::uint64_t exec() const { return read64(sreg_exec); }
    void set_exec(std::uint64_t value) { write64(sreg_exec, value); }
    std::uint64_t vcc() const { return read64(sreg_vcc); }
};

// Everything a dispatch shares between its workgroups (read-only while running).
struct DispatchEnv {
    const Program* program = nullptr;
    DeviceMemory* memory = nullptr;
    std::uint64_t code_base = 0;             // device address of the kernel's byte 0 (s_getpc)
    std::uint64_t watchdog = 0;              // instructions per wave, 0: none
    std::uint32_t private_segment_size = 0;  // scratch bytes per work-item; 0: the kernel has none
    // The GWS resources of a cooperative launch (gws.hpp); null otherwise.
    // Cooperative workgroups all run on the launching thread: no locking.
    GlobalWaveSync* gws = nullptr;
    // The scratch backing's base, GCN3's SH_HIDDEN_PRIVATE_BASE_VIMID: its
    // FLAT_SCRATCH holds offsets from it, not an address (AMDGPUUsage, "Flat Scratch").
    std::uint64_t hidden_private_base = 0;
};

struct Workgroup {
    const DispatchEnv* env = nullptr;
    Lds lds;
    Translator translator;
    Counters counters;
    WorkgroupObserver* observer = nullptr;
    bool observe_global_memory = false;         // observer && observer->observes_global_memory()
    bool observer_reads_only_operands = false;  // observer && observer->reads_only_operands()
    bool observes_every_landing = false;        // observer && observer->observes_every_landing()
    const std::uint8_t* watched = nullptr;      // observer->watched_instructions()
    // What the memory paths hand the observer: one per workgroup, refilled
    // for each access (1 KiB, not worth an allocation per instruction).
    MemoryAccess observed_access;
    std::array<std::uint32_t, 3> id{};
    std::uint64_t linear_id = 0;
    // The random schedule (dispatch.hpp): the relaxed memory the waves see,
    // and which of the workgroups in flight this is (its compute unit is
    // resident_slot % compute units). Null in the parallel schedule.
    WeakMemory* weak = nullptr;
    unsigned resident_slot = 0;
    std::uint32_t barriers = 0;
    // Per ds instruction (by index), created on first use; kept across the
    // workgroups a worker runs.
    std::vector<std::unique_ptr<LdsConflictMemo>> lds_memo;
    // How many times a memo of lds_memo took a new pattern or found its
    // pattern the same as another's (LdsConflictMemo::same_as): what
    // Wave::CheckedBlock keeps holds while this has not moved.
    std::uint64_t lds_memo_changes = 0;

    // The program's target's LDS lane groupings (lds_bank_model), looked up
    // once per dispatch rather than per ds instruction.
    const LdsBankModel* lds_banks = nullptr;

    // What the unobserved run loop ran (dispatch.cpp, run_wave), not yet in
    // `counters`: per straight-line stretch of instructions, one count at
    // its first instruction's index and one at its last's, so that
    // instruction i ran (the stretches that begin at or before i) minus
    // (those that end before i) times; count_stretches adds them to the
    // counters. stretch_low and stretch_high bound the indices with counts
    // (low > high: none).
    std::vector<std::uint64_t> stretch_starts, stretch_ends;
    std::uint32_t stretch_low = UINT32_MAX, stretch_high = 0;

    explicit Workgroup(const DispatchEnv& e)
        : env(&e),
          translator(*e.memory),
          lds_memo(e.program->code.size()),
          lds_banks(&lds_bank_model(e.program->target)),
          stretch_starts(e.program->code.size()),
          stretch_ends(e.program->code.size()) {}
    // Makes a workgroup kept from an earlier dispatch one of `e`'s: counters,
    // observer and address translation start afresh. The LDS conflict memos
    // stay: a memo holds the whole access shape it counted (lds.hpp), so one
    // left by another instruction or program is at worst a miss.
    void rebind(const DispatchEnv& e) {
        env = &e;
        translator = Translator(*e.memory);
        counters = Counters{};
        observer = nullptr;
        observe_global_memory = false;
        observer_reads_only_operands = false;
        observes_every_landing = false;
        watched = nullptr;
        barriers = 0;
        weak = nullptr;
        resident_slot = 0;
        if (lds_memo.size() < e.program->code.size()) lds_memo.resize(e.program->code.size());
        lds_banks = &lds_bank_model(e.program->target);
        // Counts an earlier dispatch left (one that ended by an exception
        // before they were added) are not this one's.
        for (std::uint32_t i = stretch_low; i <= stretch_high; ++i) stretch_starts[i] = stretch_ends[i] = 0;
        stretch_low = UINT32_MAX;
        stretch_high = 0;
        if (stretch_starts.size() < e.program->code.size()) {
            stretch_starts.resize(e.program->code.size());
            stretch_ends.resize(e.program->code.size());
        }
    }
    // Adds the stretches' counts to `counters`, by each instruction's class
    // and multiply-add and DPP facts (the program these indices are of),
    // and clears them.
    void count_stretches(const Program& p) {
        std::uint64_t covering = 0;  // the stretches that instruction i lies in
        for (std::uint32_t i = stretch_low; i <= stretch_high; ++i) {
            covering += stretch_starts[i];
            if (covering) {
                const ExecInst& e = p.code[i];
                counters[e.cls] += covering;
                counters.valu_multiply_add += covering * e.multiply_add;
                counters.valu_dpp += covering * e.valu_dpp;
            }
            covering -= stretch_ends[i];
            stretch_starts[i] = stretch_ends[i] = 0;
        }
        stretch_low = UINT32_MAX;
        stretch_high = 0;
    }
    // One stretch the run loop ran: instructions first..last, in order.
    // The bounds move only when an index gets its first count, so that a
    // loop's stretches do not wait on each other's stores to them.
    void count_stretch(std::uint32_t first, std::uint32_t last) {
        if (stretch_starts[first]++ == 0) stretch_low = std::min(stretch_low, first);
        if (stretch_ends[last]++ == 0) stretch_high = std::max(stretch_high, last);
    }
    // Whether the observer wants before_instruction for instruction `index`.
    bool watches(std::uint32_t index) const { return observer && (!watched || watched[index]); }
    LdsConflictMemo& memo(std::uint32_t index) {
        if (!lds_memo[index]) lds_memo[index] = std::make_unique<LdsConflictMemo>();
        return *lds_memo[index];
    }
};

}  // namespace dppgemm::emu
