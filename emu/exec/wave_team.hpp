#pragma once
// A few host threads that run the waves of one workgroup side by side, one
// barrier interval (phase) at a time: what launch() uses when the grid has
// fewer workgroups than threads (dispatch.hpp, docs/emulator-performance.md
// "Small grids").
//
// A phase can be a few microseconds (SGEMM 128x128: a K step of LDS stores,
// a barrier, the multiply-adds of 8 K values, a barrier), so waking threads
// through the kernel for each would cost as much as the phase. The helpers
// spin for a short while on the phase counter and only then sleep on a
// condition variable; the caller does the same while it waits for the last
// task. Tasks are claimed one at a time from a shared ticket, so a wave with
// more work does not hold up the others more than necessary.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace dppgemm::emu {

class WaveTeam {
public:
    // Starts `helpers` threads; run() uses them and the calling thread.
    explicit WaveTeam(unsigned helpers);
    ~WaveTeam();
    WaveTeam(const WaveTeam&) = delete;
    WaveTeam& operator=(const WaveTeam&) = delete;

    // Calls task(context, i) once for every i in [0, count) (at most 255), on
    // the helpers and the calling thread, and returns when all have
    // returned. task must not throw.
    using Task = void (*)(void* context, unsigned index);
    void run(unsigned count, Task task, void* context);

    unsigned threads() const { return static_cast<unsigned>(helpers_.size()) + 1; }

    // The team goes back to the pool (WaveTeamRelease): the helpers sleep
    // at once instead of spinning for the next phase, which may be a whole
    // program's work away (LAPACK calls SGEMM between its own loops). The
    // next run() wakes them.
    void rest() { resting_.store(true, std::memory_order_relaxed); }

private:
    // ticket_: phase number << 16 | task count << 8 | next task index. A
    // claim is a compare-exchange of the whole word, so a helper that wakes
    // late never claims a task of a newer phase with the older phase's view
    // of task_/context_.
    static constexpr std::uint64_t phase_unit = 1u << 16;
    static unsigned count_of(std::uint64_t ticket) { return (ticket >> 8) & 0xff; }
    static unsigned next_of(std::uint64_t ticket) { return ticket & 0xff; }
    static std::uint64_t phase_of(std::uint64_t ticket) { return ticket >> 16; }

    // Runs tasks of the phase in `ticket` until none is left to claim.
    void work(std::uint64_t ticket);
    void helper();

    std::atomic<std::uint64_t> ticket_{0};
    std::atomic<unsigned> done_{0};  // tasks of the current phase finished
    Task task_ = nullptr;
    void* context_ = nullptr;
    std::atomic<bool> stop_{false};
    std::atomic<bool> resting_{false};

    std::mutex mutex_;
    std::condition_variable phase_started_, phase_finished_;
    std::atomic<unsigned> helpers_sleeping_{0};
    std::atomic<bool> caller_sleeping_{false};
    std::vector<std::thread> helpers_;
};

// Teams outlive launches: a program that launches many small kernels would
// otherwise start and join threads for each (about as long as a small
// kernel runs). A team from acquire_wave_team has `helpers` helpers and
// goes back to a process-wide pool when the pointer is destroyed; its
// helpers sleep while it is unused.
struct WaveTeamRelease {
    void operator()(WaveTeam* team) const;
};
using PooledWaveTeam = std::unique_ptr<WaveTeam, WaveTeamRelease>;
PooledWaveTeam acquire_wave_team(unsigned helpers);

}  // namespace dppgemm::emu
