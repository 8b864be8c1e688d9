#include "emu/exec/dispatch.hpp"

#include <algorithm>
#include <atomic>
#include <cfenv>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <sstream>
#include <thread>
#include <utility>

#include "emu/exec/apertures.hpp"
#include "emu/exec/host_float_mode.hpp"
#include "emu/exec/wave.hpp"
#include "emu/exec/wave_team.hpp"
#include "emu/exec/weak_memory.hpp"
#include "emu/util.hpp"

namespace dppgemm::emu {
namespace {

template <class T>
void put(std::vector<std::uint8_t>& bytes, std::size_t offset, T value) {
    std::memcpy(bytes.data() + offset, &value, sizeof value);
}

// Zeroes `bytes` at `p` through libc's memset. Why not std::memset directly:
// GCC expands a memset whose size it knows (the SGPRs' 1 KiB, a VGPR's
// 256 bytes) as `rep stosq`, whose start-up cost made these stores 70% of a
// workgroup's start (perf, empty kernel 64 x 256 through hipemu); the call
// through a pointer the compiler cannot see through stays a call.
void* (*volatile const libc_memset)(void*, int, std::size_t) = std::memset;
void zero_bytes(void* p, std::size_t bytes) { libc_memset(p, 0, bytes); }

// Little-endian store of the low `size` bytes of value.
void put_sized(std::vector<std::uint8_t>& bytes, std::uint64_t offset, std::uint64_t size, std::uint64_t value) {
    for (std::uint64_t i = 0; i < size && i < 8; ++i) bytes[offset + i] = static_cast<std::uint8_t>(value >> (8 * i));
}

// Device-side objects a dispatch needs: kernarg segment, HSA dispatch
// packet, an (empty) AMD queue, the code. Released when the dispatch ends.
struct DispatchObjects {
    DeviceMemory& memory;
    std::vector<std::uint64_t> owned;
    std::uint64_t kernarg = 0, packet = 0, queue = 0, code_base = 0;

    explicit DispatchObjects(DeviceMemory& m) : memory(m) {}
    ~DispatchObjects() {
        for (std::uint64_t a : owned) memory.release(a);
    }
    std::uint64_t make(std::uint64_t size, const std::string& name) {
        const std::uint64_t a = memory.allocate(size, name);
        owned.push_back(a);
        return a;
    }
};

void fill_hidden_arguments(std::vector<std::uint8_t>& kernarg, const Program& program, const LaunchConfig& c,
                           std::uint64_t queue, std::uint64_t multigrid_info) {
    const std::array<std::uint32_t, 3>& g = c.grid;
    const std::array<std::uint32_t, 3>& b = c.block;
    const std::uint32_t dims = (g[2] * b[2] > 1) ? 3 : (g[1] * b[1] > 1) ? 2 : 1;
    for (const KernelArgument& arg : program.metadata.args) {
        std::uint64_t value = 0;
        switch (arg.value_kind) {
        case ValueKind::hidden_block_count_x: value = g[0]; break;
        case ValueKind::hidden_block_count_y: value = g[1]; break;
        case ValueKind::hidden_block_count_z: value = g[2]; break;
        case ValueKind::hidden_group_size_x: value = b[0]; break;
        case ValueKind::hidden_group_size_y: value = b[1]; break;
        case ValueKind::hidden_group_size_z: value = b[2]; break;
        case ValueKind::hidden_grid_dims: value = dims; break;
        case ValueKind::hidden_dynamic_lds_size: value = c.dynamic_lds; break;
        case ValueKind::hidden_private_base: value = private_aperture_base >> 32; break;
        case ValueKind::hidden_shared_base: value = shared_aperture_base >> 32; break;
        case ValueKind::hidden_queue_ptr: value = queue; break;
        case ValueKind::hidden_hostcall_buffer: value = c.hostcall_buffer; break;
        case ValueKind::hidden_multigrid_sync_arg: value = multigrid_info; break;
        // Remainders are 0 (the grid is a whole number of workgroups), global
        // offsets 0; printf buffer/heap/default queue/completion: none.
        default:
            if (!is_hidden(arg.value_kind)) continue;
            value = 0;
            break;
        }
        put_sized(kernarg, arg.offset, arg.size, value);
    }
}

// A cooperative dispatch's hidden_multigrid_sync_arg: the ROCm runtime's
// one-grid "mg_info" (ROCm device-libs ockl cg.cl, struct mg_info: the
// mg_sync pointer, grid_id, num_grids, prev_sum, all_sum, then sgs and
// num_wg in later releases), which cooperative groups read (a nonzero
// pointer: grid_group::is_valid(); all_sum: multi_grid_group::size()).
std::uint64_t multigrid_info(DispatchObjects& objects, const LaunchConfig& c) {
    std::vector<std::uint8_t> info(64, 0);
    const std::uint64_t address = objects.make(info.size(), "multigrid_sync");
    std::uint64_t items = 1, groups = 1;
    for (int i = 0; i < 3; ++i) items *= std::uint64_t(c.grid[i]) * c.block[i], groups *= c.grid[i];
    put<std::uint64_t>(info, 0, address + 48);                         // mgs: the zeroed mg_sync after the info
    put<std::uint32_t>(info, 8, 0);                                    // grid_id
    put<std::uint32_t>(info, 12, 1);                                   // num_grids
    put<std::uint64_t>(info, 16, 0);                                   // prev_sum
    put<std::uint64_t>(info, 24, items);                               // all_sum
    put<std::uint32_t>(info, 40, static_cast<std::uint32_t>(groups));  // num_wg
    objects.memory.write(address, info.data(), info.size());
    return address;
}

// The private segment (scratch): bytes per work-item, the descriptor's
// fixed size, with a dynamic stack at least the launch's stack size (as the
// HIP runtime does), rounded up to dwords as the CP does.
std::uint32_t private_segment_size(const KernelDescriptor& kd, const LaunchConfig& c) {
    std::uint64_t bytes = kd.private_segment_fixed_size;
    if (kd.uses_dynamic_stack) bytes = std::max<std::uint64_t>(bytes, c.stack_size);
    bytes = (bytes + 3) / 4 * 4;
    if (bytes > (1u << 20))
        throw LaunchError("private segment of " + std::to_string(bytes) + " bytes per work-item (at most 1 MiB)");
    return static_cast<std::uint32_t>(bytes);
}

// hsa_kernel_dispatch_packet_t (64 bytes).
std::vector<std::uint8_t> dispatch_packet(const Program& program, const LaunchConfig& c, std::uint32_t lds,
                                          std::uint64_t kernarg) {
    std::vector<std::uint8_t> p(64, 0);
    const std::uint16_t dims = (c.grid[2] * c.block[2] > 1) ? 3 : (c.grid[1] * c.block[1] > 1) ? 2 : 1;
    put<std::uint16_t>(p, 0, 2);  // HSA_PACKET_TYPE_KERNEL_DISPATCH
    put<std::uint16_t>(p, 2, dims);
    for (int i = 0; i < 3; ++i) {
        put<std::uint16_t>(p, 4 + 2 * i, static_cast<std::uint16_t>(c.block[i]));
        put<std::uint32_t>(p, 12 + 4 * i, c.grid[i] * c.block[i]);
    }
    put<std::uint32_t>(p, 24, private_segment_size(program.descriptor, c));
    put<std::uint32_t>(p, 28, lds);
    put<std::uint64_t>(p, 40, kernarg);
    return p;
}

// The work-item id VGPRs and EXEC a wave starts with: the same in every
// workgroup of a dispatch, so computed once per launch.
struct WorkitemIds {
    std::uint32_t v[3][64] = {};
    unsigned vgprs = 0;  // 1 when packed (x | y << 10 | z << 20), else 3
    std::uint64_t exec = 0;
};

// x fastest; wave w holds flat ids 64w..64w+63.
std::vector<WorkitemIds> workitem_ids(const std::array<std::uint32_t, 3>& b, std::uint32_t items, unsigned waves,
                                      bool packed) {
    std::vector<WorkitemIds> table(waves);
    for (unsigned wave = 0; wave < waves; ++wave) {
        WorkitemIds& ids = table[wave];
        ids.vgprs = packed ? 1 : 3;
        for (unsigned l = 0; l < 64; ++l) {
            const std::uint32_t flat = 64 * wave + l;
            if (flat >= items) break;
            ids.exec |= 1ull << l;
            const std::uint32_t x = flat % b[0], y = (flat / b[0]) % b[1], z = flat / (b[0] * b[1]);
            if (packed) {
                ids.v[0][l] = x | (y << 10) | (z << 20);
            } else {
                ids.v[0][l] = x;
                ids.v[1][l] = y;
                ids.v[2][l] = z;
            }
        }
    }
    return table;
}

struct Shared {
    const Program& program;
    const LaunchConfig& config;
    DispatchEnv env;
    std::uint32_t lds_size = 0;
    std::uint64_t kernarg = 0, packet = 0, queue = 0;
    std::uint64_t workgroup_count = 0;
    unsigned waves_per_group = 0;
    // Threads per worker that run one workgroup's waves side by side
    // (WaveTeam); 1: the waves take turns on the worker's thread.
    unsigned team_threads = 1;
    std::uint32_t items_per_group = 0;
    std::vector<WorkitemIds> workitem_ids;  // by wave
    // Scratch (see allocate_scratch): one backing allocation, a slot of
    // scratch_wave_bytes per wave, waves_per_group slots per worker.
    std::uint64_t scratch = 0;
    std::uint32_t scratch_wave_bytes = 0;
    std::uint32_t scratch_records = 0;

    std::atomic<std::uint64_t> next{0};
    std::atomic<std::uint64_t> finished{0};
    std::atomic<std::uint64_t> first_fault{~std::uint64_t{0}};
    std::mutex mutex;
    std::map<std::uint64_t, Fault> faults;
    Counters counters;

    Shared(const Program& p, const LaunchConfig& c) : program(p), config(c) {}
};

// A fault a wave ran into, kept until the phase is over (team mode: the
// phase's lowest faulting wave is the one reported).
struct WaveFault {
    std::uint32_t index;  // the instruction
    ExecError error;
};

// What a worker needs that outlives a dispatch: the waves' register files
// (about 135 KiB each: the 512-entry vector file), the workgroup and its per-wave views with their LDS
// conflict memos. Kept in a process-wide pool (worker_parts), so that a
// launch neither allocates nor zeroes them (init_wave zeroes what a program
// can reach: the SGPRs and the registers below vgprs_used and agprs_used)
// and the memos stay warm from launch to launch.
struct WorkerParts {
    // The program of the dispatch that used them last: their memos are that
    // program's, and the pool gives them back to it first.
    const Program* program = nullptr;
    // The thread that used them last. Their used registers, LDS and memos
    // (some 100 KiB for a 32x32 SGEMM workgroup) sit in that thread's core's
    // caches, so the pool gives them back to the same thread first: in a
    // loop of 64^3 SGEMM calls on two threads, a worker otherwise took the
    // other thread's parts at a fifth of its launches.
    std::thread::id thread;
    std::unique_ptr<Workgroup> group;
    std::vector<std::unique_ptr<Wave>> waves;
    std::vector<std::unique_ptr<Workgroup>> views;
};

// The memos are per instruction index, so parts that ran another program
// miss on each ds instruction the first time (about 6,700 host instructions
// each, lds.hpp): a program that alternates between kernels (LAPACK's
// SGEMM calls take turns between the NN, NT, TN and TT kernels) would miss
// at every launch. The pool keeps parts for several programs, up to
// max_idle_worker_parts, the least recently used taken for a program that
// has none. (A program at the address of a destroyed one finds that one's
// memos: misses again, never wrong counts.)
struct WorkerPartsPool {
    std::mutex mutex;
    std::vector<std::unique_ptr<WorkerParts>> idle;  // least recently released first
};
constexpr std::size_t max_idle_worker_parts = 8;
WorkerPartsPool& worker_parts() {
    static WorkerPartsPool* const pool = new WorkerPartsPool;  // never destroyed: workers may outlive main
    return *pool;
}

// Parts for a worker of this dispatch: `waves` waves, `views` views, every
// workgroup bound to `env`.
std::unique_ptr<WorkerParts> acquire_worker_parts(const DispatchEnv& env, unsigned waves, unsigned views) {
    std::unique_ptr<WorkerParts> parts;
    {
        WorkerPartsPool& pool = worker_parts();
        std::lock_guard<std::mutex> lock(pool.mutex);
        const std::thread::id self = std::this_thread::get_id();
        auto found = std::find_if(pool.idle.rbegin(), pool.idle.rend(), [&](const auto& idle) {
            return idle->program == env.program && idle->thread == self;
        });
        if (found == pool.idle.rend())
            found = std::find_if(pool.idle.rbegin(), pool.idle.rend(),
                                 [&](const auto& idle) { return idle->program == env.program; });
        if (found != pool.idle.rend()) {
            parts = std::move(*found);
            pool.idle.erase(std::next(found).base());
        } else if (pool.idle.size() >= max_idle_worker_parts) {
            parts = std::move(pool.idle.front());
            pool.idle.erase(pool.idle.begin());
        }
    }
    if (!parts) parts = std::make_unique<WorkerParts>();
    parts->program = env.program;
    parts->thread = std::this_thread::get_id();
    if (parts->group) parts->group->rebind(env);
    else parts->group = std::make_unique<Workgroup>(env);
    while (parts->waves.size() < waves) parts->waves.push_back(std::make_unique<Wave>());
    for (unsigned i = 0; i < views && i < parts->views.size(); ++i) parts->views[i]->rebind(env);
    while (parts->views.size() < views) parts->views.push_back(std::make_unique<Workgroup>(env));
    return parts;
}

void release_worker_parts(std::unique_ptr<WorkerParts> parts) {
    WorkerPartsPool& pool = worker_parts();
    std::lock_guard<std::mutex> lock(pool.mutex);
    pool.idle.push_back(std::move(parts));
}

class Worker {
public:
    // `index`: which of the dispatch's workers this is (its scratch slots).
    Worker(Shared& shared, unsigned index)
        : s_(shared),
          parts_(acquire_worker_parts(shared.env, shared.waves_per_group,
                                      shared.team_threads > 1 ? shared.waves_per_group : 0)),
          group_(*parts_->group),
          index_(index) {
        for (unsigned i = 0; i < shared.waves_per_group; ++i) waves_.push_back(parts_->waves[i].get());
        faults_.resize(shared.waves_per_group);
        escaped_.resize(shared.waves_per_group);
        if (shared.team_threads > 1)
            for (unsigned i = 0; i < shared.waves_per_group; ++i) views_.push_back(parts_->views[i].get());
    }
    ~Worker() { release_worker_parts(std::move(parts_)); }
    Worker(const Worker&) = delete;
    Worker& operator=(const Worker&) = delete;

    void run() {
        while (true) {
            const std::uint64_t ticket = s_.next.fetch_add(1);
            if (ticket >= s_.workgroup_count) break;
            const std::vector<std::uint64_t>& only = s_.config.only_workgroups;
            const std::uint64_t id = only.empty() ? ticket : only[ticket];
            if (id > s_.first_fault.load()) break;
            run_group(id);
            s_.finished.fetch_add(1, std::memory_order_relaxed);
        }
        add_counters();
    }

    void add_counters() {
        group_.count_stretches(s_.program);
        std::lock_guard<std::mutex> lock(s_.mutex);
        s_.counters += group_.counters;
    }

    // The random schedule: this worker is resident slot `index` and its
    // workgroups see `weak` memory.
    void use_weak_memory(WeakMemory& weak) {
        group_.weak = &weak;
        group_.resident_slot = index_;
    }

    // The random and the cooperative schedules' unit of work: starts
    // workgroup `linear`.
    void begin(std::uint64_t linear) { begin_group(linear); }

    enum class Progress : std::uint8_t {
        ran,      // something happened
        blocked,  // every wave not ended waits, and some wait on a GWS resource
        ended,    // the workgroup ended or faulted
    };

    // Runs one randomly chosen wave of the current workgroup for at most
    // `budget` instructions (or releases a barrier every wave has reached).
    Progress step(std::mt19937_64& rng, std::uint64_t budget) {
        const bool woken = wake_gws_waiters();
        std::vector<Wave*> running;
        for (auto& w : waves_)
            if (w->state == WaveState::running) running.push_back(w);
        if (running.empty()) {
            if (waiting_on_gws()) return woken ? Progress::ran : Progress::blocked;
            if (all_waves_ended() || !release_barrier()) {
                end_group();
                return Progress::ended;
            }
            return Progress::ran;
        }
        Wave& w = *running[rng() % running.size()];
        if (!run_wave(w, budget)) {
            record_fault(w, *faults_[w.id]);
            faults_[w.id].reset();
            end_group();
            return Progress::ended;
        }
        return Progress::ran;
    }

    // The cooperative schedule's turn: the waves run, in order, until each
    // waits or has ended; barriers every wave reached are released.
    Progress advance() {
        bool progressed = false;
        for (;;) {
            progressed |= wake_gws_waiters();
            for (auto& w : waves_) {
                if (w->state != WaveState::running) continue;
                progressed = true;
                if (!run_wave(*w)) {
                    record_fault(*w, *faults_[w->id]);
                    faults_[w->id].reset();
                    end_group();
                    return Progress::ended;
                }
            }
            if (waiting_on_gws()) return progressed ? Progress::ran : Progress::blocked;
            if (all_waves_ended() || !release_barrier()) {
                end_group();
                return Progress::ended;
            }
            progressed = true;
        }
    }

    // Wakes the waves whose GWS wait is over; true if any woke.
    bool wake_gws_waiters() {
        bool woken = false;
        for (auto& w : waves_)
            if (w->state == WaveState::at_gws) woken |= gws_try_wake(*w);
        return woken;
    }

    bool waiting_on_gws() const {
        for (auto& w : waves_)
            if (w->state == WaveState::at_gws) return true;
        return false;
    }

    // The workgroup can go on: a wave runs or can be woken, or a barrier
    // can be released (without changing anything).
    bool can_progress() const {
        bool gws = false;
        for (auto& w : waves_) {
            if (w->state == WaveState::running) return true;
            if (w->state != WaveState::at_gws) continue;
            gws = true;
            const GwsResource& r = s_.env.gws->resources[w->gws_resource];
            if (w->gws_wait == GwsWait::barrier ? r.flag != w->gws_flag : r.counter > 0) return true;
        }
        return !gws;
    }

    // No workgroup of the cooperative grid can go on: the fault names this
    // workgroup's first wave that waits on a GWS resource.
    void report_deadlock(std::uint64_t waiting_waves) {
        for (auto& w : waves_) {
            if (w->state != WaveState::at_gws) continue;
            const GwsResource& r = s_.env.gws->resources[w->gws_resource];
            const std::string what =
                std::string("deadlock: every wave of the cooperative grid waits (") + std::to_string(waiting_waves) +
                " on GWS resources); this one waits on resource " + std::to_string(w->gws_resource) +
                (w->gws_wait == GwsWait::barrier ? " for its barrier (counter " + std::to_string(r.counter) + ")"
                                                 : " for its semaphore (counter " + std::to_string(r.counter) + ")");
            record_fault(*w, WaveFault{w->gws_inst, ExecError(FaultKind::deadlock, what)});
            end_group();
            return;
        }
    }

    unsigned waves_on_gws() const {
        unsigned n = 0;
        for (auto& w : waves_) n += w->state == WaveState::at_gws;
        return n;
    }

private:
    Shared& s_;
    std::unique_ptr<WorkerParts> parts_;
    Workgroup& group_;
    unsigned index_;
    std::vector<Wave*> waves_;                      // parts_'s first waves_per_group
    std::vector<std::optional<WaveFault>> faults_;  // by wave, of the current phase
    // Team mode (s_.team_threads > 1): one view of group_ per wave (its own
    // counters, address translation cache and LDS conflict memos; group_'s
    // LDS), so that what a wave updates while it runs is its own, and the
    // helper threads, taken from the pool when a workgroup first runs long
    // enough to want them (run_phase_in_team).
    PooledWaveTeam team_;
    std::vector<Workgroup*> views_;
    std::vector<unsigned> phase_waves_;            // the waves that run in this phase, in order
    std::size_t team_rest_ = 0;                    // phase_waves_[team_rest_...] run on the team
    std::vector<std::exception_ptr> escaped_;      // by wave: what a team thread caught
    std::unique_ptr<WorkgroupObserver> observer_;  // of the current workgroup

    // The private segment buffer V# as the ROCm runtime builds it: the whole
    // scratch backing, stride 0, swizzled with ADD_TID, index stride 64
    // (word3 INDEX_STRIDE 3), 32-bit UINT data format; the wave offset SGPR
    // selects the wave's slot.
    void put_private_segment_buffer(Wave& w, unsigned s) const {
        w.sreg[s + 0] = static_cast<std::uint32_t>(s_.scratch);
        w.sreg[s + 1] = static_cast<std::uint32_t>(s_.scratch >> 32) | (1u << 31);  // SWIZZLE_ENABLE
        w.sreg[s + 2] = s_.scratch_records;
        w.sreg[s + 3] = (4u << 0) | (5u << 3) | (6u << 6) | (7u << 9)  // DST_SEL x, y, z, w
                        | (4u << 12) | (4u << 15)                      // NUM_FORMAT UINT, DATA_FORMAT 32
                        | (3u << 21) | (1u << 23);                     // INDEX_STRIDE 64, ADD_TID_ENABLE
    }

    void init_wave(Wave& w, unsigned index) {
        const Program& p = s_.program;
        const KernelDescriptor& kd = p.descriptor;
        w.group = &group_;
        w.id = index;
        w.state = WaveState::running;
        w.pc = p.entry;
        w.code = p.code.data();
        w.mode = mode_register(kd.float_mode);
        w.scc = false;
        w.executed = 0;
        w.stretch_first = Wave::no_stretch;
        // Another workgroup's patterns verify nothing here. Only the slots the
        // program uses: the array sits at the end of the wave, a line an
        // empty launch does not otherwise touch (2 us of a 64x256 one).
        std::fill_n(w.lds_verified.begin(), p.lds_verifier_slots, 0);
        w.checked_block.plan = nullptr;
        w.pending.clear();
        w.gws_wait = GwsWait::none;
        zero_bytes(w.sreg, sizeof w.sreg);
        zero_bytes(w.v, sizeof w.v[0] * std::min(p.vgprs_used, max_vgprs));
        w.a = w.v + agpr_base(p);
        zero_bytes(w.a, sizeof(std::uint32_t) * 64 * std::min(p.agprs_used, max_vgprs));

        // User SGPRs, in the descriptor's order. Without a private segment
        // the scratch values are 0 (a null V#).
        unsigned s = 0;
        const UserSgprs& u = kd.user_sgprs;
        auto put64 = [&](std::uint64_t value) {
            w.write64(s, value);
            s += 2;
        };
        const std::uint64_t wave_offset = std::uint64_t(index_ * waves_.size() + index) * s_.scratch_wave_bytes;
        if (u.private_segment_buffer) {
            if (s_.scratch) put_private_segment_buffer(w, s);
            s += 4;
        }
        if (u.dispatch_ptr) put64(s_.packet);
        if (u.queue_ptr) put64(s_.queue);
        if (u.kernarg_segment_ptr) put64(s_.kernarg);
        if (u.dispatch_id) put64(0);
        if (u.flat_scratch_init) {
            if (has(p.target, Feature::gfx9_insts)) {
                put64(s_.scratch);  // gfx9: the backing's base; the prologue adds the wave offset
            } else {
                // GCN3: the offset of the backing from the hidden private base
                // (0: it is the base) and the work-item's scratch bytes; the
                // prologue writes FLAT_SCRATCH_HI = (offset + wave offset) >> 8
                // and FLAT_SCRATCH_LO = the size.
                w.sreg[s++] = 0;
                w.sreg[s++] = s_.env.private_segment_size;
            }
        }
        if (u.private_segment_size) w.sreg[s++] = s_.env.private_segment_size;
        s = std::max(s, kd.user_sgpr_count);
        const SystemSgprs& sys = kd.system_sgprs;
        const bool architected = has_architected_flat_scratch(p.target);
        if (sys.workgroup_id_x) w.sreg[s++] = group_.id[0];
        if (sys.workgroup_id_y) w.sreg[s++] = group_.id[1];
        if (sys.workgroup_id_z) w.sreg[s++] = group_.id[2];
        if (sys.workgroup_info) w.sreg[s++] = 0;
        // Architected flat scratch (gfx940): ENABLE_PRIVATE_SEGMENT loads no
        // SGPR; the hardware sets FLAT_SCRATCH to the wave's scratch instead.
        if (sys.private_segment_wave_offset && !architected) w.sreg[s++] = static_cast<std::uint32_t>(wave_offset);
        if (architected && s_.scratch) w.write64(sreg_flat_scratch, s_.scratch + wave_offset);

        // Work-item ids (WorkitemIds): VGPRs 0..2 were zeroed above, so the
        // table's rows hold every lane, inactive ones 0.
        const WorkitemIds& ids = s_.workitem_ids[index];
        for (unsigned r = 0; r < ids.vgprs; ++r) std::memcpy(w.v[r], ids.v[r], sizeof ids.v[r]);
        w.set_exec(ids.exec);
    }

    void record_fault(const Wave& w, const WaveFault& fault) {
        const std::uint32_t index = fault.index;
        const ExecError& error = fault.error;
        const Program& p = s_.program;
        Fault f;
        f.what = error.what();
        f.kind = error.kind;
        f.kernel = p.kernel_name;
        // The address llvm-objdump prints for the instruction (its code object address).
        f.pc = static_cast<std::uint32_t>(p.code_address +
                                          (index < p.insts.size()
                                               ? p.insts[index].pc
                                               : (p.insts.empty() ? 0 : p.insts.back().pc + p.insts.back().size)));
        f.instruction = p.disassemble(index);
        f.workgroup = group_.id;
        f.wave = w.id;
        f.has_address = error.has_address;
        f.address = error.address;
        std::ostringstream m;
        m << "kernel '" << f.kernel << "': workgroup (" << f.workgroup[0] << "," << f.workgroup[1] << ","
          << f.workgroup[2] << ") wave " << f.wave << " pc " << hex(f.pc) << ": " << f.instruction << ": " << f.what;
        if (f.has_address) m << " at " << hex(f.address);
        f.message = m.str();
        std::lock_guard<std::mutex> lock(s_.mutex);
        s_.faults.emplace(group_.linear_id, std::move(f));
        std::uint64_t current = s_.first_fault.load();
        while (group_.linear_id < current && !s_.first_fault.compare_exchange_weak(current, group_.linear_id)) {
        }
    }

    // Runs the wave until it reaches a barrier or its end. Returns false on
    // a fault, which it leaves in faults_[w.id]. Counts into w.group: group_,
    // or in team mode the wave's view.
    // With a budget (the random schedule), the wave also stops after that
    // many instructions, still running.
    bool run_wave(Wave& w, std::uint64_t budget = 0) {
        std::uint64_t* classes = w.group->counters.instructions.data();
        WorkgroupObserver* observer = w.group->observer;
        std::uint32_t current = w.pc;
        const bool budgeted = budget != 0;
        // The budgeted loop (the random schedule, which stops a wave after
        // any instruction) counts each instruction as it runs: its
        // multiply-adds and DPP instructions are summed here and added to
        // the counters when the loop ends (the semantics that count runs add
        // to them).
        std::uint64_t multiply_adds = 0, valu_dpp = 0;
        const auto add_counts = [&] {
            w.group->counters.valu_multiply_add += multiply_adds;
            w.group->counters.valu_dpp += valu_dpp;
        };
        // The host's default float mode before an instruction that could see
        // the denormals-are-zero mode a multiply-add run left set.
        const auto restore_host_mode_for = [&](const ExecInst& e) {
            if (__builtin_expect(w.host_denormals_are_zero, 0) && !e.host_mode_free)
                set_host_denormals_are_zero(w, false);
        };
        // Counts and runs one instruction (the budgeted loop).
        const auto execute = [&](const ExecInst& e) {
            restore_host_mode_for(e);
            ++classes[static_cast<std::size_t>(e.cls)];
            multiply_adds += e.multiply_add;
            valu_dpp += e.valu_dpp;
            ++w.executed;
            w.pc = e.next;
            e.fn(w, e);
        };
        // An observer, as everything outside the wave's instructions, runs in
        // the host's default float environment.
        const auto observe = [&](const ExecInst& e) {
            set_host_denormals_are_zero(w, false);
            observer->before_instruction(w, e);
        };
        // Runs the wave from w.pc until its turn ends, counting by
        // straight-line stretch (a branch taken, a multiply-add run, the
        // turn's end; Workgroup::count_stretch): w.executed waits for the
        // stretch's end as well (Wave::executed_through), and w.pc, which a
        // handler writes only to move the wave elsewhere, holds pc_unmoved
        // meanwhile, so nothing is stored at each instruction. Those stores
        // went to the wave's fields at the same 4 KiB offsets as v4's row,
        // which the next handler often reads, and made its loads wait; each
        // count in memory also waited for the one before. dpp0_32 at 1024^3
        // on one thread: 0.78x stop 45's time without them, 0.95-0.98x when
        // the counts alone waited for the stretches (9 alternating rounds,
        // Zen 5). Observed (WorkgroupObserver::before_instruction: an
        // observer reads neither the instruction counts, nor w.executed, nor
        // w.pc), the same with before_instruction for each watched
        // instruction (0.91x and 0.95x the time of stop 46's idle-observer
        // and checked runs, dpp0_32 at 512^3, 9 rounds); if it
        // throws (a checker stopping at its first finding), the instruction
        // it announced has not run and does not count, while one whose
        // handler throws (a fault, or a checker's hook inside it) does.
        const auto run_stretches = [&](const ExecInst* code, auto observed) {
            constexpr bool Observed = decltype(observed)::value;
            constexpr std::uint32_t pc_unmoved = Program::no_target;  // no handler moves a wave there
            const ExecInst* e = code + w.pc;
            std::uint32_t first = w.pc;
            const auto end_stretch = [&](std::uint32_t last) {
                w.executed += last - first + 1;
                w.group->count_stretch(first, last);
            };
            bool announced_only = false;  // the exception came from before_instruction
            w.stretch_first = first;
            w.pc = pc_unmoved;
            try {
                while (w.state == WaveState::running) {
                    if (Observed && group_.watches(e->index)) {
                        try {
                            observe(*e);
                        } catch (...) {
                            announced_only = true;
                            throw;
                        }
                    }
                    restore_host_mode_for(*e);
                    e->fn(w, *e);
                    if (__builtin_expect(w.pc == pc_unmoved, 1)) {
                        ++e;
                        continue;
                    }
                    end_stretch(e->index);
                    first = w.pc;
                    w.stretch_first = first;
                    w.pc = pc_unmoved;
                    e = code + first;
                }
            } catch (...) {
                current = e->index;
                if (!announced_only) end_stretch(current);  // the faulting instruction counts
                else if (current > first) end_stretch(current - 1);
                w.stretch_first = Wave::no_stretch;
                if (announced_only) w.pc = current;
                else if (w.pc == pc_unmoved) w.pc = e->next;
                throw;
            }
            // Instructions first..e - 1 have run, unless a handler ended the
            // stretch with the last one (e is then first).
            const auto next = static_cast<std::uint32_t>(e - code);
            if (next > first) end_stretch(next - 1);
            w.stretch_first = Wave::no_stretch;
            w.pc = next;
        };
        try {
            // An s_setreg that changes the fp32 denorm mode switches w.code and
            // leaves the loop (WaveState::code_switched): no per-instruction test.
            for (;;) {
                const ExecInst* code = w.code;
                if (budgeted) {
                    while (w.state == WaveState::running && budget) {
                        --budget;
                        current = w.pc;
                        if (group_.watches(current)) observe(code[current]);
                        execute(code[current]);
                    }
                } else if (observer) {
                    run_stretches(code, std::true_type{});
                } else {
                    run_stretches(code, std::false_type{});
                }
                if (w.state != WaveState::code_switched) break;
                w.state = WaveState::running;
            }
        } catch (const ExecError& error) {
            set_host_denormals_are_zero(w, false);
            add_counts();
            faults_[w.id] = WaveFault{current, error};
            return false;
        } catch (...) {
            set_host_denormals_are_zero(w, false);
            add_counts();
            throw;
        }
        set_host_denormals_are_zero(w, false);
        add_counts();
        if (w.state == WaveState::ended) {
            if (observer) observer->wave_ended(w);
            if (w.group->weak) w.group->weak->wave_ended(w);
        }
        return true;
    }

    // The current workgroup has run long enough on this thread alone that
    // the rest of it goes to the team (run_phase_in_team).
    bool wants_team() const {
        std::uint64_t executed = 0;
        for (const Wave* w : waves_) executed += w->executed;
        return executed >= s_.config.team_join_instructions;
    }

    // One phase of team mode: every running wave to its next barrier or end,
    // on the team's threads. Between two barriers the waves of a race-free
    // program are independent (the sequential schedule assumes the same:
    // its order is one of many the hardware may pick), so the outcome is the
    // sequential one, including after a fault: the lowest faulting wave is
    // the one the sequential schedule stops at, as waves before it ran the
    // same code on the same state; it is reported, and only the counts of the
    // waves up to it are kept (the later ones would not have run). What the
    // later waves wrote to memory stays, as when workgroups after a faulting
    // one have run. Returns false on a fault.
    //
    // The helpers join only once the workgroup has run
    // LaunchConfig::team_join_instructions on this thread: until then the
    // phase's waves run here in order, as on one thread (stopping at a
    // fault), and from then on the rest of the phase and every later phase
    // go to the team. Waking a sleeping helper and handing waves between
    // cores cost more than a short workgroup's whole run (LAPACK's SGEMM
    // calls: a 32x32 tile, K <= 8, under a thousand wave instructions), so
    // those never wake one.
    bool run_phase_in_team() {
        phase_waves_.clear();
        for (auto& w : waves_)
            if (w->state == WaveState::running) phase_waves_.push_back(w->id);
        std::size_t alone = 0;  // the phase's first waves, run on this thread in order
        bool stopped = false;   // one of them faulted: the rest do not run
        while (alone < phase_waves_.size() && (phase_waves_.size() - alone == 1 || !wants_team())) {
            if (!run_wave(*waves_[phase_waves_[alone++]])) {
                stopped = true;
                break;
            }
        }
        if (!stopped && alone < phase_waves_.size()) {
            if (!team_) team_ = acquire_wave_team(s_.team_threads - 1);
            team_rest_ = alone;
            team_->run(
                static_cast<unsigned>(phase_waves_.size() - alone),
                [](void* context, unsigned i) {
                    Worker& self = *static_cast<Worker*>(context);
                    const unsigned id = self.phase_waves_[self.team_rest_ + i];
                    // Anything but an ExecError (a host allocation failing) leaves
                    // launch() as it would on one thread, from the lowest such wave.
                    try {
                        self.run_wave(*self.waves_[id]);
                    } catch (...) {
                        self.escaped_[id] = std::current_exception();
                    }
                },
                this);
            for (unsigned id : phase_waves_)
                if (escaped_[id]) std::rethrow_exception(std::exchange(escaped_[id], nullptr));
        }
        bool faulted = false;
        for (unsigned id : phase_waves_) {
            views_[id]->count_stretches(s_.program);
            Counters& counts = views_[id]->counters;
            if (!faulted) group_.counters += counts;
            counts = Counters{};
            if (faults_[id] && !faulted) {
                record_fault(*waves_[id], *faults_[id]);
                faulted = true;
            }
            faults_[id].reset();
        }
        return !faulted;
    }

    // Scratch starts zeroed for every workgroup, as LDS does: what a kernel
    // reads before writing then does not depend on which worker ran it, nor
    // on the thread count.
    void clear_scratch() {
        if (!s_.scratch) return;
        const std::uint64_t bytes = std::uint64_t(s_.scratch_wave_bytes) * waves_.size();
        std::memset(s_.env.memory->translate(s_.scratch + index_ * bytes, bytes), 0, bytes);
    }

    void begin_group(std::uint64_t linear) {
        const std::array<std::uint32_t, 3>& g = s_.config.grid;
        group_.linear_id = linear;
        group_.id = {static_cast<std::uint32_t>(linear % g[0]), static_cast<std::uint32_t>((linear / g[0]) % g[1]),
                     static_cast<std::uint32_t>(linear / (std::uint64_t(g[0]) * g[1]))};
        group_.lds.reset(s_.lds_size);
        clear_scratch();
        group_.barriers = 0;
        observer_.reset();
        if (s_.config.observer) observer_ = s_.config.observer->start(linear);
        group_.observer = observer_.get();
        group_.observe_global_memory = observer_ && observer_->observes_global_memory();
        group_.observer_reads_only_operands = observer_ && observer_->reads_only_operands();
        group_.observes_every_landing = observer_ && observer_->observes_every_landing();
        group_.watched = observer_ ? observer_->watched_instructions() : nullptr;
        for (unsigned i = 0; i < waves_.size(); ++i) init_wave(*waves_[i], i);
        group_.counters.workgroups += 1;
        group_.counters.waves += waves_.size();

        if (s_.team_threads > 1) {
            for (unsigned i = 0; i < waves_.size(); ++i) {
                Workgroup& view = *views_[i];
                view.lds.share(group_.lds);
                view.id = group_.id;
                view.linear_id = group_.linear_id;
                waves_[i]->group = &view;
            }
        }
    }

    bool all_waves_ended() const {
        for (auto& w : waves_)
            if (w->state != WaveState::ended) return false;
        return true;
    }

    // Every wave is at the barrier or done: releases the barrier. Returns
    // false when no wave was waiting at it.
    bool release_barrier() {
        if (waiting_on_gws()) return false;
        bool released = false;
        for (auto& w : waves_)
            if (w->state == WaveState::at_barrier) w->state = WaveState::running, released = true;
        if (!released) return false;
        ++group_.barriers;
        if (group_.observer) group_.observer->barrier_released(group_.barriers);
        return true;
    }

    void end_group() {
        group_.observer = nullptr;
        if (s_.config.observer) s_.config.observer->finish(group_.linear_id, std::move(observer_));
    }

    void run_group(std::uint64_t linear) {
        begin_group(linear);
        bool faulted = false;
        while (!faulted) {
            if (s_.team_threads > 1) {
                faulted = !run_phase_in_team();
            } else {
                for (auto& w : waves_) {
                    if (w->state == WaveState::running && !run_wave(*w)) {
                        record_fault(*w, *faults_[w->id]);
                        faults_[w->id].reset();
                        faulted = true;
                        break;
                    }
                }
            }
            if (faulted || all_waves_ended()) break;
            release_barrier();
        }
        end_group();
    }
};

// As the hardware has it, one scratch backing for the dispatch in which each
// wave in flight owns a slot (its wave offset), sized in the 1 KiB granules
// of COMPUTE_TMPRING_SIZE.WAVESIZE. Here a worker runs one workgroup at a
// time, so each worker owns waves_per_group slots, reused workgroup after
// workgroup. Allocated before the workers start (the allocation table is
// read-only while they run).
void allocate_scratch(Shared& shared, DispatchObjects& objects, unsigned workers) {
    const std::uint32_t per_item = shared.env.private_segment_size;
    if (per_item == 0) return;
    shared.scratch_wave_bytes = (per_item * 64 + 1023) / 1024 * 1024;
    const std::uint64_t bytes = std::uint64_t(shared.scratch_wave_bytes) * shared.waves_per_group * workers;
    if (bytes > 0xffffffffu) throw LaunchError("scratch of " + std::to_string(bytes) + " bytes (at most 4 GiB)");
    shared.scratch = objects.make(bytes, "scratch");
    shared.env.hidden_private_base = shared.scratch;
    shared.scratch_records = static_cast<std::uint32_t>(bytes);
}

// Workgroups a cooperative launch may have: each resident one holds its
// waves' register files (about 135 KiB per wave, wave.hpp's vector file).
constexpr std::uint64_t max_cooperative_workgroups = 4096;

// WaveTeam::run's limit on tasks.
constexpr unsigned max_pooled_workers = 255;

// Worker(shared, i).run() for every i < workers, on a pooled team of
// workers - 1 threads and the calling thread; what a worker throws (a host
// allocation failing) leaves here, the lowest worker's first.
void run_workers_on_team(Shared& shared, unsigned workers) {
    struct Context {
        Shared& shared;
        std::vector<std::exception_ptr> escaped;
    } context{shared, std::vector<std::exception_ptr>(workers)};
    PooledWaveTeam team = acquire_wave_team(workers - 1);
    team->run(
        workers,
        [](void* opaque, unsigned index) {
            Context& c = *static_cast<Context*>(opaque);
            try {
                Worker(c.shared, index).run();
            } catch (...) {
                c.escaped[index] = std::current_exception();
                c.shared.next.store(c.shared.workgroup_count);  // the other workers stop after their workgroup
            }
        },
        &context);
    for (std::exception_ptr& e : context.escaped)
        if (e) std::rethrow_exception(e);
}

}  // namespace

// The random schedule (dispatch.hpp): `resident` workers take turns on this
// thread, each holding one workgroup in flight; workgroups start in order
// as slots free up. Stops at the first fault.
void run_random_schedule(Shared& shared, unsigned resident) {
    const Schedule& schedule = shared.config.schedule;
    WeakMemory weak(schedule.seed, std::max(resident / 2, 1u));
    std::mt19937_64& rng = weak.rng();
    std::vector<std::unique_ptr<Worker>> workers;
    std::vector<unsigned> in_flight;
    // Each workgroup runs at its own speed, picked at random over a 32:1
    // range when it starts and again now and then: a slow one stalls for
    // long stretches between two of its instructions, as a wave starved by
    // its neighbours does.
    std::vector<std::uint64_t> speed(resident);
    auto start = [&](unsigned slot) {
        const std::uint64_t ticket = shared.next++;
        const std::vector<std::uint64_t>& only = shared.config.only_workgroups;
        workers[slot]->begin(only.empty() ? ticket : only[ticket]);
        speed[slot] = std::uint64_t{1} << (rng() % 6);
    };
    for (unsigned i = 0; i < resident; ++i) {
        workers.push_back(std::make_unique<Worker>(shared, i));
        workers.back()->use_weak_memory(weak);
        start(i);
        in_flight.push_back(i);
    }
    auto last_report = std::chrono::steady_clock::now();
    while (!in_flight.empty()) {
        std::uint64_t total = 0;
        for (unsigned slot : in_flight) total += speed[slot];
        std::uint64_t ticket = rng() % total;
        std::size_t pick = 0;
        while (ticket >= speed[in_flight[pick]]) ticket -= speed[in_flight[pick++]];
        Worker& worker = *workers[in_flight[pick]];
        // Mostly short slices, so that workgroups interleave finely; now and
        // then a long one, so that one runs ahead of the others.
        const std::uint64_t budget = rng() % 8 == 0 ? 1 + rng() % 2000 : 1 + rng() % 24;
        if (rng() % 16 == 0) speed[in_flight[pick]] = std::uint64_t{1} << (rng() % 6);
        const Worker::Progress progress = worker.step(rng, budget);
        if (progress == Worker::Progress::blocked) {
            // Waiting on a GWS resource: a deadlock when no workgroup in
            // flight can go on (only cooperative launches have GWS).
            bool any = false;
            std::uint64_t waiting = 0;
            for (unsigned slot : in_flight) {
                any = any || workers[slot]->can_progress();
                waiting += workers[slot]->waves_on_gws();
            }
            if (!any) {
                worker.report_deadlock(waiting);
                break;
            }
        } else if (progress == Worker::Progress::ended) {
            shared.finished.fetch_add(1, std::memory_order_relaxed);
            if (shared.first_fault.load() != ~std::uint64_t{0}) break;
            if (shared.next < shared.workgroup_count) {
                start(in_flight[pick]);
            } else {
                in_flight.erase(in_flight.begin() + static_cast<std::ptrdiff_t>(pick));
            }
        }
        weak.drain_some();
        if (shared.config.progress && std::chrono::steady_clock::now() - last_report > std::chrono::milliseconds(100)) {
            shared.config.progress(shared.finished.load(), shared.workgroup_count);
            last_report = std::chrono::steady_clock::now();
        }
    }
    weak.drain_all();
    for (auto& worker : workers) worker->add_counters();
    if (shared.config.progress) shared.config.progress(shared.finished.load(), shared.workgroup_count);
}

// The cooperative schedule (dispatch.hpp): every workgroup resident at once
// on this thread, taking turns in order. Stops at the first fault.
void run_cooperative(Shared& shared) {
    std::vector<std::unique_ptr<Worker>> workers;
    std::vector<unsigned> in_flight;
    for (unsigned i = 0; i < shared.workgroup_count; ++i) {
        workers.push_back(std::make_unique<Worker>(shared, i));
        const std::vector<std::uint64_t>& only = shared.config.only_workgroups;
        workers.back()->begin(only.empty() ? i : only[i]);
        in_flight.push_back(i);
    }
    shared.next = shared.workgroup_count;
    auto last_report = std::chrono::steady_clock::now();
    while (!in_flight.empty() && shared.first_fault.load() == ~std::uint64_t{0}) {
        bool progressed = false;
        std::vector<unsigned> still;
        for (unsigned slot : in_flight) {
            const Worker::Progress p = workers[slot]->advance();
            if (p == Worker::Progress::ended) shared.finished.fetch_add(1, std::memory_order_relaxed);
            else still.push_back(slot);
            progressed |= p != Worker::Progress::blocked;
            if (shared.first_fault.load() != ~std::uint64_t{0}) break;
        }
        in_flight.swap(still);
        if (!progressed && !in_flight.empty()) {
            std::uint64_t waiting = 0;
            for (unsigned slot : in_flight) waiting += workers[slot]->waves_on_gws();
            workers[in_flight.front()]->report_deadlock(waiting);
        }
        if (shared.config.progress && std::chrono::steady_clock::now() - last_report > std::chrono::milliseconds(100)) {
            shared.config.progress(shared.finished.load(), shared.workgroup_count);
            last_report = std::chrono::steady_clock::now();
        }
    }
    for (auto& worker : workers) worker->add_counters();
    if (shared.config.progress) shared.config.progress(shared.finished.load(), shared.workgroup_count);
}

// The host's cores, asked once: glibc answers hardware_concurrency by
// reading /sys/devices/system/cpu/online (three system calls), which a
// program making millions of small launches would pay at each.
unsigned host_cores() {
    static const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    return cores;
}

// The emulated arithmetic is written for the host's default floating-point
// environment: IEEE round-to-nearest-even with denormals kept (the ISA's own
// modes are applied in software, float_ops.hpp). The launching thread may
// have changed it (a program built with -ffast-math starts with
// flush-to-zero and denormals-are-zero set; fesetround), so a launch runs in
// the default one and gives the caller's back. Every thread that executes
// waves is started by a launch and so inherits it (POSIX: a new thread starts
// with its creator's floating-point environment).
class HostFloatEnvironment {
public:
    HostFloatEnvironment() {
        std::fegetenv(&saved_);
        std::fesetenv(FE_DFL_ENV);
    }
    ~HostFloatEnvironment() { std::fesetenv(&saved_); }
    HostFloatEnvironment(const HostFloatEnvironment&) = delete;
    HostFloatEnvironment& operator=(const HostFloatEnvironment&) = delete;

private:
    std::fenv_t saved_;
};

DispatchResult launch(DeviceMemory& memory, const Program& program, const LaunchConfig& config) {
    const HostFloatEnvironment default_float_environment;
    const KernelDescriptor& kd = program.descriptor;
    for (int i = 0; i < 3; ++i)
        if (config.grid[i] == 0 || config.block[i] == 0)
            throw LaunchError("grid and block dimensions must be at least 1");
    const std::uint64_t items = std::uint64_t(config.block[0]) * config.block[1] * config.block[2];
    if (items > 1024) throw LaunchError("workgroup of " + std::to_string(items) + " work-items (at most 1024)");
    if (program.metadata.max_flat_workgroup_size && items > program.metadata.max_flat_workgroup_size)
        throw LaunchError("workgroup of " + std::to_string(items) +
                          " work-items exceeds the kernel's max_flat_workgroup_size " +
                          std::to_string(program.metadata.max_flat_workgroup_size));
    const std::uint64_t lds = std::uint64_t(kd.group_segment_fixed_size) + config.dynamic_lds;
    if (lds > lds_bytes(program.target))
        throw LaunchError("LDS of " + std::to_string(lds) + " bytes (at most " +
                          std::to_string(lds_bytes(program.target)) + ")");

    Shared shared(program, config);
    DispatchObjects objects(memory);
    const std::uint64_t kernarg_size =
        std::max<std::uint64_t>({program.metadata.kernarg_segment_size, kd.kernarg_size, config.kernarg.size(), 8});
    std::vector<std::uint8_t> kernarg(kernarg_size, 0);
    std::copy(config.kernarg.begin(), config.kernarg.end(), kernarg.begin());
    shared.queue = objects.make(256, "amd_queue");
    // amd_queue_t's group_segment_aperture_base_hi (0x40) and
    // private_segment_aperture_base_hi (0x44): where code for targets without
    // aperture registers (gfx803) reads the flat apertures (AMDGPUUsage,
    // "Flat Scratch"; LLVM's SITargetLowering::getSegmentAperture).
    const std::uint32_t aperture_highs[2] = {std::uint32_t(shared_aperture_base >> 32),
                                             std::uint32_t(private_aperture_base >> 32)};
    memory.write(shared.queue + 0x40, aperture_highs, sizeof aperture_highs);
    fill_hidden_arguments(kernarg, program, config, shared.queue,
                          config.cooperative ? multigrid_info(objects, config) : 0);
    // Compilers load kernel arguments in wide scalar loads that may run past
    // the last argument (s_load_dwordx4 at the final 4-byte argument); the
    // runtime's kernarg buffers are padded, so is this one.
    shared.kernarg = objects.make((kernarg_size + 64 + 63) / 64 * 64, "kernarg");
    memory.write(shared.kernarg, kernarg.data(), kernarg_size);
    shared.packet = objects.make(64, "dispatch_packet");
    const std::vector<std::uint8_t> packet =
        dispatch_packet(program, config, static_cast<std::uint32_t>(lds), shared.kernarg);
    memory.write(shared.packet, packet.data(), packet.size());
    if (config.image_address) {
        shared.env.code_base = config.image_address + program.code_address;
    } else if (!program.image.empty()) {
        const std::uint64_t image = objects.make(program.image.size(), "code_object");
        memory.write(image, program.image.data(), program.image.size());
        shared.env.code_base = image + program.code_address;
    } else {
        // Only the code: s_getpc still yields addresses that map back to it.
        shared.env.code_base = objects.make(program.insts.empty() ? 4 : program.insts.back().pc + 16, "code");
    }
    shared.env.program = &program;
    shared.env.memory = &memory;
    shared.env.watchdog = config.watchdog;
    shared.env.private_segment_size = private_segment_size(kd, config);
    shared.lds_size = static_cast<std::uint32_t>(lds);
    shared.items_per_group = static_cast<std::uint32_t>(items);
    shared.waves_per_group = static_cast<unsigned>((items + 63) / 64);
    shared.workgroup_count = std::uint64_t(config.grid[0]) * config.grid[1] * config.grid[2];
    for (std::size_t i = 0; i < config.only_workgroups.size(); ++i)
        if (config.only_workgroups[i] >= shared.workgroup_count ||
            (i && config.only_workgroups[i] <= config.only_workgroups[i - 1]))
            throw LaunchError("only_workgroups: workgroup " + std::to_string(config.only_workgroups[i]) +
                              " is not in the grid of " + std::to_string(shared.workgroup_count) +
                              " workgroups, or the list is not ascending");
    if (!config.only_workgroups.empty()) shared.workgroup_count = config.only_workgroups.size();
    shared.workitem_ids =
        workitem_ids(config.block, shared.items_per_group, shared.waves_per_group, kd.workitem_ids_packed);

    unsigned threads = config.threads ? config.threads : host_cores();
    const unsigned all_threads = threads;
    threads = static_cast<unsigned>(std::min<std::uint64_t>(threads, shared.workgroup_count));
    // Threads the workgroups leave idle run waves side by side instead
    // (dispatch.hpp). Not with an observer: the checkers see one wave's
    // instructions after another and keep state per workgroup (their
    // findings name the first wave in program order). Not when
    // wave_order_matters (program.cpp): an atomic's result depends on the
    // order of the waves.
    if (!config.observer && !program.wave_order_matters)
        shared.team_threads = std::min(all_threads / std::max(threads, 1u), shared.waves_per_group);
    const bool random = config.schedule.kind == Schedule::Kind::random;
    // A cooperative grid is resident as a whole (LaunchConfig::cooperative).
    const auto resident = static_cast<unsigned>(
        config.cooperative ? shared.workgroup_count
                           : std::min<std::uint64_t>(std::max(config.schedule.resident, 1u), shared.workgroup_count));
    GlobalWaveSync gws;
    if (config.cooperative) {
        if (shared.workgroup_count > max_cooperative_workgroups)
            throw LaunchError("cooperative launch of " + std::to_string(shared.workgroup_count) +
                              " workgroups (the emulator keeps at most " + std::to_string(max_cooperative_workgroups) +
                              " resident)");
        gws.resources[0].counter = static_cast<std::int64_t>(shared.workgroup_count) - 1;
        shared.env.gws = &gws;
    }
    if (random || config.cooperative) shared.team_threads = 1;
    allocate_scratch(shared, objects, random || config.cooperative ? resident : std::max(threads, 1u));
    if (random) {
        run_random_schedule(shared, resident);
    } else if (config.cooperative) {
        run_cooperative(shared);
    } else if (threads <= 1 && !config.progress) {
        Worker(shared, 0).run();
    } else if (!config.progress && threads <= max_pooled_workers) {
        // The launching thread and threads - 1 pooled ones (kept between
        // launches, asleep while unused: no thread start per launch).
        run_workers_on_team(shared, threads);
    } else {
        // With a progress callback even one worker gets its own thread, so
        // that the launching thread is free to report. It reports every 100
        // ms, but is woken when the last worker ends: the dispatch does not
        // last until the next report.
        std::vector<std::thread> pool;
        unsigned running = std::max(threads, 1u);
        std::mutex running_mutex;
        std::condition_variable all_done;
        for (unsigned t = 0; t < std::max(threads, 1u); ++t)
            pool.emplace_back([&shared, &running_mutex, &running, &all_done, t] {
                Worker(shared, t).run();
                std::lock_guard<std::mutex> lock(running_mutex);
                if (--running == 0) all_done.notify_all();
            });
        if (config.progress) {
            try {
                std::unique_lock<std::mutex> lock(running_mutex);
                while (running != 0) {
                    lock.unlock();
                    config.progress(shared.finished.load(), shared.workgroup_count);
                    lock.lock();
                    all_done.wait_for(lock, std::chrono::milliseconds(100), [&] { return running == 0; });
                }
            } catch (...) {
                // The caller's callback threw: the workers stop after their
                // current workgroup and are joined before the exception
                // leaves (destroying a running std::thread ends the process).
                shared.next.store(shared.workgroup_count);
                for (std::thread& t : pool) t.join();
                throw;
            }
        }
        for (std::thread& t : pool) t.join();
        if (config.progress) config.progress(shared.finished.load(), shared.workgroup_count);
    }

    DispatchResult result;
    result.counters = shared.counters;
    if (!shared.faults.empty()) result.fault = shared.faults.begin()->second;
    return result;
}

Schedule Schedule::parse(const std::string& text) {
    Schedule schedule;
    if (text == "parallel") return schedule;
    schedule.kind = Kind::random;
    if (text == "random") {
        std::random_device device;
        schedule.seed = (std::uint64_t(device()) << 32) | device();
        return schedule;
    }
    const std::string prefix = "random:";
    std::size_t used = 0;
    if (text.compare(0, prefix.size(), prefix) == 0 && text.size() > prefix.size() &&
        text.find_first_not_of("0123456789", prefix.size()) == std::string::npos) {
        try {
            schedule.seed = std::stoull(text.substr(prefix.size()), &used);
            return schedule;
        } catch (const std::out_of_range&) {
        }
    }
    throw std::invalid_argument("schedule '" + text +
                                "': expected parallel, random or random:SEED (SEED a 64-bit decimal)");
}

std::string Schedule::name() const { return kind == Kind::parallel ? "parallel" : "random:" + std::to_string(seed); }

Kernargs::Kernargs(const Program& program)
    : program_(&program),
      bytes_(std::max<std::uint64_t>(program.metadata.kernarg_segment_size, program.descriptor.kernarg_size), 0) {}

void Kernargs::set_bytes(std::size_t position, const void* data, std::size_t size) {
    std::size_t seen = 0;
    for (const KernelArgument& arg : program_->metadata.args) {
        if (is_hidden(arg.value_kind)) continue;
        if (seen++ != position) continue;
        if (arg.size != size)
            throw LaunchError("argument " + std::to_string(position) + (arg.name.empty() ? "" : " '" + arg.name + "'") +
                              " has " + std::to_string(arg.size) + " bytes, not " + std::to_string(size));
        if (arg.offset + size > bytes_.size()) bytes_.resize(arg.offset + size, 0);
        std::memcpy(bytes_.data() + arg.offset, data, size);
        return;
    }
    throw LaunchError("kernel '" + program_->kernel_name + "' has no argument at position " + std::to_string(position));
}

}  // namespace dppgemm::emu
