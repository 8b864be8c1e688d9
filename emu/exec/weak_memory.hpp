#pragma once
// The relaxations of the AMDGPU memory model that the random schedule
// (Schedule::Kind::random, dispatch.hpp) lets a kernel see, so that a
// program which skips a release or an acquire gives wrong results in a few
// runs instead of one in thousands. What the hardware allows, and what this
// class does in its place (LLVM AMDGPUUsage, "Memory Model GFX6-GFX9",
// "Memory Model GFX90A", "Memory Model GFX942"):
//
// - A vector store need not be visible to other workgroups before the
//   s_waitcnt vmcnt that retires it: "s_waitcnt vmcnt(0)" is how a release
//   orders earlier stores before the releasing one. Here each store
//   instruction's lane writes wait in a per-wave queue and reach memory at a
//   random later step, in any order, except that the writes of one wave to
//   overlapping bytes reach memory in program order, and all of them by the
//   time an s_waitcnt retires the store (or the dispatch ends: a wave may end
//   with stores in flight). The wave's own later loads see its queued writes.
// - The vector L1 cache of a CU is not coherent with other CUs: a load that
//   does not bypass it (no glc on gfx9/gfx90a, neither sc0 nor sc1 on gfx942)
//   may return the value the CU read before, until buffer_wbinvl1(_vol) or
//   buffer_inv invalidates the cache: that is the acquire. Here each CU keeps
//   the bytes it read, and a later non-bypassing load of the same bytes
//   returns them; a cached byte is dropped at random (1 load in 16) so that a
//   spin loop on a stale flag still ends, and when this CU's own store or
//   atomic reaches it. Bypassing loads and atomics read memory.
// - The scalar cache is not coherent either, and the memory model does not
//   maintain it at all (memory_model.hpp): scalar loads go through a
//   per-CU cache of the same kind that only s_dcache_inv empties.
//
// Single-threaded: the random schedule runs every workgroup on one host
// thread.

#include <cstdint>
#include <deque>
#include <map>
#include <random>
#include <unordered_map>
#include <vector>

namespace dppgemm::emu {

struct Wave;

class WeakMemory {
public:
    WeakMemory(std::uint64_t seed, unsigned compute_units);

    enum class Cache : std::uint8_t { vector_l1, scalar };
    // `bytes` of one lane's load (or a scalar load) at device `address`
    // (host bytes at `host`), as wave w's CU sees them through `cache`.
    void load(const Wave& w, std::uint64_t address, const std::uint8_t* host, unsigned bytes, bool bypass_cache,
              void* out, Cache cache = Cache::vector_l1);
    // One lane's store: queued until drained.
    void store(const Wave& w, std::uint64_t address, std::uint8_t* host, unsigned bytes, const void* data);
    // Closes the store instruction whose lanes were just stored (or an
    // atomic, which writes memory at once): the vm entry that s_waitcnt
    // retires in order.
    void store_issued(const Wave& w);
    // The oldest store instruction of w still counted by vmcnt retired:
    // its writes reach memory now.
    void store_retired(const Wave& w);
    // Before an atomic of wave w at `address`: w's earlier overlapping
    // writes reach memory first; the CU's cached bytes there are dropped.
    void before_atomic(const Wave& w, std::uint64_t address, unsigned bytes);
    // buffer_wbinvl1, buffer_wbinvl1_vol, buffer_inv: the CU's L1 forgets
    // everything; s_dcache_inv: its scalar cache.
    void invalidate(const Wave& w, Cache cache);
    // The wave ended; its queued writes still reach memory later, as the
    // stores of an ended wave still complete on the GPU.
    void wave_ended(const Wave& w);
    // Between two scheduling steps: the queued writes that are due reach
    // memory (each store is due a random number of steps after its issue,
    // mostly a few dozen, one in four up to a few thousand).
    void drain_some();
    // The dispatch is over: every queued write reaches memory.
    void drain_all();

    std::mt19937_64& rng() { return rng_; }

private:
    struct LaneWrite {
        std::uint64_t address;
        std::uint8_t* host;
        std::uint8_t bytes;
        std::uint8_t data[16];
    };
    struct StoreInstruction {
        std::uint64_t sequence = 0;  // counts the wave's store instructions from 1
        std::uint64_t due = 0;       // the scheduling step at which it reaches memory at the latest
        std::uint64_t lowest = ~0ull, highest = 0;
        std::vector<LaneWrite> lanes;
    };
    struct WaveQueue {
        std::uint64_t issued = 0, retired = 0;
        unsigned cu = 0;
        bool ended = false;
        StoreInstruction open;
        std::deque<StoreInstruction> queued;  // issue order
    };
    struct CachedLine {
        std::uint64_t valid = 0;  // bit per byte
        std::uint8_t bytes[64];
    };
    using L1 = std::unordered_map<std::uint64_t, CachedLine>;  // by address / 64

    WaveQueue& queue_of(const Wave& w);
    unsigned cu_of(const Wave& w) const;
    static std::uint64_t key_of(const Wave& w);
    // Writes queued[index] of q to memory, after its older overlapping ones.
    void drain(WaveQueue& q, std::size_t index);
    void forget(unsigned cu, std::uint64_t address, unsigned bytes);
    void fill(CachedLine& line, std::uint64_t line_address, const Wave& w);

    std::mt19937_64 rng_;
    std::uint64_t step_ = 0;       // drain_some() calls
    std::vector<L1> l1_, scalar_;  // per CU
    // By workgroup linear id and wave number (a std::map: the order in which
    // drain_some() finds them, and so a seed's schedule, must not depend on
    // host addresses). Ended waves stay until their writes are drained.
    std::map<std::uint64_t, WaveQueue> waves_;
};

}  // namespace dppgemm::emu
