#include "emu/exec/wave_team.hpp"

#include <chrono>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace dppgemm::emu {
namespace {

// How long a waiting thread spins before it sleeps. Longer than the gap
// between two phases of a running workgroup (the caller's own share of the
// waves plus the bookkeeping between phases), far shorter than anything a
// user would notice when the team idles between launches' phases.
constexpr std::chrono::microseconds spin_time{50};

inline void relax() {
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#else
    std::this_thread::yield();
#endif
}

// Spins until ready() or spin_time has passed; returns ready().
template <class Ready>
bool spin_until(Ready ready) {
    const auto deadline = std::chrono::steady_clock::now() + spin_time;
    for (unsigned i = 1;; ++i) {
        if (ready()) return true;
        relax();
        if (i % 64 == 0 && std::chrono::steady_clock::now() >= deadline) return ready();
    }
}

}  // namespace

WaveTeam::WaveTeam(unsigned helpers) {
    helpers_.reserve(helpers);
    for (unsigned i = 0; i < helpers; ++i) helpers_.emplace_back([this] { helper(); });
}

WaveTeam::~WaveTeam() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_.store(true);
    }
    phase_started_.notify_all();
    for (std::thread& t : helpers_) t.join();
}

void WaveTeam::work(std::uint64_t ticket) {
    for (;;) {
        if (next_of(ticket) >= count_of(ticket)) return;
        // Claim task next_of(ticket); on failure `ticket` is reloaded (another
        // thread claimed it, or a newer phase began) and we try again.
        if (!ticket_.compare_exchange_weak(ticket, ticket + 1, std::memory_order_acq_rel)) continue;
        task_(context_, next_of(ticket));
        const unsigned count = count_of(ticket);
        ++ticket;
        if (done_.fetch_add(1) + 1 == count && caller_sleeping_.load()) {
            std::lock_guard<std::mutex> lock(mutex_);
            phase_finished_.notify_one();
        }
    }
}

void WaveTeam::helper() {
    std::uint64_t seen = 0;  // the last phase this thread looked at
    for (;;) {
        auto started = [&] { return phase_of(ticket_.load(std::memory_order_acquire)) != seen || stop_.load(); };
        auto started_or_resting = [&] { return started() || resting_.load(std::memory_order_relaxed); };
        if (!spin_until(started_or_resting) || !started()) {
            std::unique_lock<std::mutex> lock(mutex_);
            // Announce the sleep before the last look at the ticket: run()
            // publishes the ticket before it looks for sleepers, so one of
            // the two sees the other.
            helpers_sleeping_.fetch_add(1);
            phase_started_.wait(lock, started);
            helpers_sleeping_.fetch_sub(1);
        }
        if (stop_.load()) return;
        const std::uint64_t ticket = ticket_.load(std::memory_order_acquire);
        seen = phase_of(ticket);
        work(ticket);
    }
}

void WaveTeam::run(unsigned count, Task task, void* context) {
    if (count == 0) return;
    resting_.store(false, std::memory_order_relaxed);
    // The previous phase is complete (done_ reached its count), so no thread
    // reads task_/context_ now: a late helper only ever claims through a
    // ticket of the new phase, published below with release order.
    task_ = task;
    context_ = context;
    done_.store(0);
    const std::uint64_t ticket = (phase_of(ticket_.load()) + 1) * phase_unit | std::uint64_t(count) << 8;
    ticket_.store(ticket);
    if (helpers_sleeping_.load() != 0) {
        std::lock_guard<std::mutex> lock(mutex_);
        phase_started_.notify_all();
    }
    work(ticket);
    auto finished = [&] { return done_.load() == count; };
    if (!spin_until(finished)) {
        std::unique_lock<std::mutex> lock(mutex_);
        caller_sleeping_.store(true);
        phase_finished_.wait(lock, finished);
        caller_sleeping_.store(false);
    }
}

}  // namespace dppgemm::emu

namespace dppgemm::emu {
namespace {

struct TeamPool {
    std::mutex mutex;
    std::vector<std::unique_ptr<WaveTeam>> idle;
};
TeamPool& team_pool() {
    static TeamPool pool;
    return pool;
}

}  // namespace

PooledWaveTeam acquire_wave_team(unsigned helpers) {
    TeamPool& pool = team_pool();
    {
        std::lock_guard<std::mutex> lock(pool.mutex);
        for (auto it = pool.idle.begin(); it != pool.idle.end(); ++it) {
            if ((*it)->threads() != helpers + 1) continue;
            PooledWaveTeam team((*it).release());
            pool.idle.erase(it);
            return team;
        }
    }
    return PooledWaveTeam(new WaveTeam(helpers));
}

void WaveTeamRelease::operator()(WaveTeam* team) const {
    team->rest();
    TeamPool& pool = team_pool();
    std::lock_guard<std::mutex> lock(pool.mutex);
    pool.idle.emplace_back(team);
}

}  // namespace dppgemm::emu
