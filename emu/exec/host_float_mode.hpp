#pragma once
// The host's "denormals are zero" mode (x86 MXCSR bit 6) while a wave runs.
//
// The fp32 multiply-add runs that flush their inputs (sem_vector.cpp) run
// under it: it reads denormal inputs as zeros of the same sign, which is
// exactly the input flush. Waves otherwise run in the host's default
// environment (dispatch.cpp, HostFloatEnvironment). A run used to set the
// mode and restore the default around itself: two MXCSR writes per run, and
// the write waits for the run's floating-point operations to finish. At
// four or eight multiply-adds a run (dpp0_32, dpp2_64) that made launches
// bimodal: the same dpp0_32 1024^3 launch took 0.355-0.52 s, 0.35-0.38 s
// with the mode left set (1 thread, alternating rounds, Zen 5 under KVM).
//
// So a run leaves the mode set and records it in the wave
// (Wave::host_denormals_are_zero); the run loop (dispatch.cpp) restores the
// default before the next instruction whose result could depend on it (one
// not ExecInst::host_mode_free) and before the wave stops, so that nothing
// else on the thread ever runs under it.

#include "emu/exec/wave.hpp"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

namespace dppgemm::emu {

// Puts the host in "denormals are zero" (on) or the default environment
// (off) unless it is there already. Without x86's MXCSR the mode is never on.
inline void set_host_denormals_are_zero(Wave& w, bool on) {
#if defined(__x86_64__) && defined(__GNUC__)
    if (w.host_denormals_are_zero == on) return;
    constexpr unsigned default_mode = 0x1f80;  // FE_DFL_ENV's MXCSR
    constexpr unsigned denormals_are_zero = 0x40;
    // Written, never read: reading MXCSR (stmxcsr) waits for every
    // floating-point operation in flight, for its sticky exception flags,
    // which nothing here reads (three quarters of multiply_add_op's own time
    // with the read, perf at 1024^3 dpp0_32, Zen 5).
    _mm_setcsr(on ? default_mode | denormals_are_zero : default_mode);
    w.host_denormals_are_zero = on;
#else
    (void)w;
    (void)on;
#endif
}

}  // namespace dppgemm::emu
