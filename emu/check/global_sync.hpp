#pragma once
// Data passed between workgroups through global memory, checked against the
// AMDGPU memory model (LLVM AMDGPUUsage, "Memory Model GFX6-GFX9", "Memory
// Model GFX90A", "Memory Model GFX942"). A wave may read, with a load that
// does not bypass its CU's L1 (memory_model.hpp), what a wave of another
// workgroup stored during the dispatch only when a release/acquire pair
// orders the two:
//
//   writer: the store; s_waitcnt vmcnt that retires it; a later store or
//           atomic (the release: "flag" below) -- in any wave of its own
//           workgroup's lineage of releases, transitively;
//   reader: a load that bypasses the L1 (glc; sc1 on gfx942) or an atomic
//           that reads the flag; then buffer_wbinvl1_vol / buffer_inv (the
//           acquire); then the load of the data.
//
// As a happens-before relation: each wave knows, per writer wave, up to
// which of its stores it has acquired (`Knowledge`). A store or atomic
// publishes its wave's completed stores and everything that wave had
// acquired; an atomic read-modify-write adds to what its location already
// published (a release sequence); a bypassing load or atomic marks what it
// read as pending, and the next L1 invalidation makes it acquired. A plain
// load of another workgroup's store not covered is a global-race finding.
// Bypassing loads and atomics are never findings themselves: they are how
// flags are read, and reading a flag early is the protocol, not a bug.
//
// Which kernels are watched: only those that could synchronise between
// workgroups at all (an atomic, a bypassing load or an L1 invalidation):
// watching costs a shadow lookup per lane of every global access, and a
// kernel with none of these (every SGEMM kernel of this project) is left
// with the executor's fast paths. Data races in such kernels go unreported.
//
// Thread-safe: the workgroups of a dispatch run on several host threads. A
// finding needs the racing store to have run before the load on the host,
// which the flag protocol under test guarantees; a race whose store runs
// later is a race all the same, but is found only in the runs that order
// them so (the random schedule, dispatch.hpp, orders them many ways).

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "emu/exec/program.hpp"

namespace dppgemm::emu::check {

// Writer wave (workgroup linear id << 8 | wave) -> the highest of its store
// sequence numbers known to be visible. Sorted by writer.
using Knowledge = std::vector<std::pair<std::uint64_t, std::uint64_t>>;

// One wave's view: its stores and what it has acquired.
struct WaveSync {
    std::uint64_t key = 0;               // workgroup linear id << 8 | wave
    std::uint64_t stores_issued = 0;     // vector stores and atomics, numbered from 1
    std::uint64_t stores_completed = 0;  // of those, retired by s_waitcnt (in order)
    // pending: read by bypassing loads, not yet acquired; acquired: for
    // vector loads (after an L1 invalidation); acquired_scalar: for scalar
    // loads (after s_dcache_inv).
    Knowledge acquired, acquired_scalar, pending;
    std::shared_ptr<const Knowledge> published;  // what a store now releases; null: to be rebuilt

    void reset(std::uint64_t wave_key);
    const std::shared_ptr<const Knowledge>& release();
    static std::uint64_t known(const Knowledge& k, std::uint64_t writer);
};

class GlobalSync {
public:
    explicit GlobalSync(const Program& program);
    // Whether the kernel is watched (see above).
    bool active() const { return active_; }
    // Forgets every store (a new dispatch).
    void clear();

    struct Store {
        std::uint64_t writer = 0;  // WaveSync::key
        std::array<std::uint32_t, 3> workgroup{};
        std::uint32_t inst = 0;  // instruction index
        std::uint64_t sequence = 0;
        std::uint8_t bytes = 0;  // bit per byte of the word it wrote
        std::shared_ptr<const Knowledge> published;
    };

    // A store (or the write half of an atomic) of `bytes` at `address`.
    void store(WaveSync& wave, const std::array<std::uint32_t, 3>& workgroup, std::uint32_t inst, std::uint64_t address,
               unsigned bytes, bool read_modify_write);
    // A bypassing load or an atomic reads `bytes` at `address`: what the
    // stores there published becomes pending for `wave`.
    void read_synchronizing(WaveSync& wave, std::uint64_t address, unsigned bytes);
    // A plain load: the first store of another workgroup it reads that
    // `acquired` (the wave's, for vector or scalar loads) does not cover.
    std::optional<Store> unordered_store(const WaveSync& wave, const Knowledge& acquired, std::uint64_t address,
                                         unsigned bytes);

    // GWS resources (cooperative launches): what waves released to each
    // (arriving at its barrier, signalling its semaphore), joined, for the
    // waves that acquire from it (leaving the barrier, passing sema_p).
    void gws_release(unsigned resource, const Knowledge& k);
    Knowledge gws_released(unsigned resource);

private:
    struct Shard {
        std::mutex mutex;
        std::unordered_map<std::uint64_t, Store> words;  // by address / 4
    };
    static constexpr unsigned shard_count = 64;
    Shard& shard_of(std::uint64_t word) { return shards_[(word ^ (word >> 9)) % shard_count]; }

    bool active_ = false;
    std::array<Shard, shard_count> shards_;
    std::mutex gws_mutex_;
    std::array<Knowledge, 64> gws_;
};

// ds_gws_* that order waves of different workgroups (all but ds_gws_init).
bool synchronizes_on_gws(Op op);

// Joins b into a (per writer, the larger sequence number).
void join(Knowledge& a, const Knowledge& b);

}  // namespace dppgemm::emu::check
