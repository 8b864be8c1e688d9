#pragma once
// Running a kernel: the public entry point of the executor.
//
//   CodeObject co = load_code_object("k.co");
//   Program program = build_program(co, co.kernel("vadd"));   // pre-decode once
//   DeviceMemory memory;
//   std::uint64_t a = memory.allocate(n * 4, "a");             // device buffers
//   Kernargs args(program);
//   args.set(0, a).set(1, b).set(2, n);                        // explicit args, in order
//   LaunchConfig config;
//   config.grid = {n / 256, 1, 1};                             // in workgroups, like hipModuleLaunchKernel
//   config.block = {256, 1, 1};
//   config.kernarg = args.bytes();
//   DispatchResult r = launch(memory, program, config);
//   if (r.fault) std::cerr << r.fault->message << "\n";
//   std::cout << r.counters.to_json();
//
// Workgroups run in parallel on `threads` host threads; results and
// counters do not depend on the thread count. Within a workgroup the waves
// take turns, each running until it reaches s_barrier or s_endpgm (one
// phase), wave 0 first.
//
// Small grids: when the grid has fewer workgroups than threads, the idle
// threads join the workgroups as teams (emu/exec/wave_team.hpp) once a
// workgroup has run LaunchConfig::team_join_instructions on its own thread
// (a short one never waits for a helper to wake): a phase's waves then run
// side by side, and the next phase starts when all have reached the barrier
// or their end. Between two barriers the waves of a race-free
// program are independent, so memory and counters are the sequential
// schedule's; the reported fault is too (the lowest faulting wave of the
// phase, the one the sequential schedule stops at, with the counts of the
// waves before it). The waves take turns as above instead when an observer
// (the checkers) is attached, or when Program::wave_order_matters (atomics,
// ds_append/ds_consume: their results show the order of the waves). A
// program with an LDS or global race between waves of one phase (which the
// checkers report) may give results that depend on the thread count.
// docs/emulator-performance.md "Small grids" has the measurements.
//
// A launch reuses what earlier launches set up (process-wide pools): the
// host threads (asleep between launches), the waves' register files and the
// per-instruction LDS bank-conflict memos; "The fixed cost of a launch" in
// docs/emulator-performance.md.
//
// A cooperative launch (LaunchConfig::cooperative): every workgroup is
// resident from the start and runs on the launching thread, in turns: each
// runs its waves until all of them wait (at s_barrier, on a GWS resource) or
// end, then the next one; a waiting wave is woken when what it waits for
// holds. When no workgroup can go on, the dispatch stops with a deadlock
// fault naming the first waiting wave. Under the random schedule all
// workgroups are resident as well.
//
// The random schedule (LaunchConfig::schedule, a stress mode): every
// workgroup runs on the launching thread, up to Schedule::resident of them in
// flight at once (started in order, as the GPU's dispatcher does, on
// resident / 2 compute units), each step running a randomly chosen wave of a
// randomly chosen workgroup for a random number of instructions; and memory
// is as weak as the AMDGPU memory model allows (weak_memory.hpp): stores
// reach other workgroups late and out of order, non-bypassing loads may hit a
// stale L1. A program that passes data between workgroups without the
// memory model's release and acquire then goes wrong in a few runs. The same
// seed replays the same schedule.

#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "emu/exec/address_space.hpp"
#include "emu/exec/counters.hpp"
#include "emu/exec/fault_kind.hpp"
#include "emu/exec/observer.hpp"
#include "emu/exec/program.hpp"

namespace dppgemm::emu {

// Instructions one wave may execute before its run stops as an endless loop:
// about 5 s of a one-instruction loop on one core (docs/reliability.md), far
// above any dppgemm kernel (K = 10^5 is about 2.5 million per wave).
inline constexpr std::uint64_t default_watchdog = std::uint64_t{1} << 28;

// Wave instructions a workgroup of a small grid runs on its worker's thread
// before the idle threads join it (LaunchConfig::team_join_instructions):
// about 0.2 ms of one host thread (a 16^3 SGEMM through the BLAS, about
// 1,200 wave instructions, takes 0.05 ms). LAPACK's typical SGEMM (M, N <= 32,
// K <= 8: one workgroup of the 32x32 kernel) runs fewer than that, and waking
// a sleeping helper and moving waves between cores cost it more than the
// helper gives (docs/emulator-performance.md, "Small grids").
inline constexpr std::uint64_t default_team_join_instructions = 4096;

struct Schedule {
    enum class Kind : std::uint8_t { parallel, random };
    Kind kind = Kind::parallel;
    std::uint64_t seed = 0;
    unsigned resident = 8;  // random: workgroups in flight at once

    // "parallel", "random" (seed from std::random_device) or "random:SEED";
    // throws std::invalid_argument naming the text otherwise.
    static Schedule parse(const std::string& text);
    // "parallel" or "random:SEED": what parse() reads back.
    std::string name() const;
};

struct LaunchConfig {
    std::array<std::uint32_t, 3> grid{1, 1, 1};   // workgroups per dimension
    std::array<std::uint32_t, 3> block{1, 1, 1};  // work-items per workgroup
    // The explicit arguments at their metadata offsets; hidden arguments are
    // filled in by launch(). May be shorter than the kernarg segment.
    std::vector<std::uint8_t> kernarg;
    std::uint32_t dynamic_lds = 0;  // bytes of LDS beyond the descriptor's fixed size
    unsigned threads = 0;           // 0: all host cores (workgroups, then the waves of small grids)
    // Small grids: the wave instructions (all waves together) a workgroup
    // runs on its worker's thread alone, in wave order, before that worker's
    // idle threads take part; 0: from the first phase. The results are the
    // same either way.
    std::uint64_t team_join_instructions = default_team_join_instructions;
    DispatchObserver* observer = nullptr;
    std::uint64_t watchdog = default_watchdog;  // instructions per wave before "endless loop"; 0: none
    // Scratch bytes per work-item for a kernel with a dynamic stack (calls
    // the compiler cannot bound), as HIP's hipLimitStackSize.
    std::uint32_t stack_size = 1024;
    // Where the code object's image (Program::image with relocations
    // applied, emu/loader loaded_image) already lies in `memory`, as a HIP
    // runtime maps a module once: its `__device__` variables then persist
    // from launch to launch. 0: the image is copied for this launch only.
    std::uint64_t image_address = 0;
    // The hidden_hostcall_buffer argument (device printf and other host
    // calls of ROCm's device library); 0: none.
    std::uint64_t hostcall_buffer = 0;
    // Called on the launching thread, about every 100 ms and once at the end,
    // with (workgroups finished, workgroups in the grid). Empty: not called.
    // If it throws, the workers stop after their current workgroup and
    // launch passes the exception on.
    std::function<void(std::uint64_t, std::uint64_t)> progress;
    // How the workgroups are interleaved (see the top of this file).
    Schedule schedule;
    // A cooperative launch (hipLaunchCooperativeKernel): every workgroup of
    // the grid is resident at once, interleaved on the launching thread, and
    // the dispatch has GWS resources (gws.hpp), resource 0 initialised to
    // workgroups - 1 as the ROCm runtime does before the dispatch (ROCclr
    // VirtualGPU::submitKernel: RunGwsInit(workgroups - 1)), so that
    // cooperative_groups' grid sync (one ds_gws_barrier per workgroup) works.
    bool cooperative = false;
    // Linear ids (ascending, each < the grid's workgroups) of the only
    // workgroups to run; empty: all. What the others would write stays
    // unwritten and the counters cover the listed ones alone: for observers
    // that need a few representative workgroups (emu/timing), not results.
    std::vector<std::uint64_t> only_workgroups;
};

// Why a dispatch stopped: the lowest-numbered faulting workgroup's first fault.
struct Fault {
    std::string what;  // the rule broken ("memory access outside any allocation", ...)
    FaultKind kind = FaultKind::not_implemented;
    std::string kernel;
    std::uint32_t pc = 0;     // the instruction's address in the code object, as llvm-objdump prints it
    std::string instruction;  // disassembled
    std::array<std::uint32_t, 3> workgroup{};
    std::uint32_t wave = 0;
    bool has_address = false;
    std::uint64_t address = 0;
    // "kernel 'k': workgroup (1,0,0) wave 2 pc 0x1c: s_load_dword s0, s[4:5], 0x0: <what> at 0x..."
    std::string message;
};

struct DispatchResult {
    Counters counters;
    std::optional<Fault> fault;
    bool ok() const { return !fault; }
};

// A usage problem found before anything runs (grid of zero, LDS too large,
// scratch requested, ...).
class LaunchError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

DispatchResult launch(DeviceMemory& memory, const Program& program, const LaunchConfig& config);

// Explicit kernel arguments, by position among the non-hidden arguments.
class Kernargs {
public:
    explicit Kernargs(const Program& program);
    // Throws LaunchError when the position does not exist or sizeof(T)
    // differs from the argument's size.
    template <class T>
    Kernargs& set(std::size_t position, const T& value) {
        set_bytes(position, &value, sizeof value);
        return *this;
    }
    void set_bytes(std::size_t position, const void* data, std::size_t size);
    const std::vector<std::uint8_t>& bytes() const { return bytes_; }

private:
    const Program* program_;
    std::vector<std::uint8_t> bytes_;
};

}  // namespace dppgemm::emu
