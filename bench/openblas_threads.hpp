#pragma once
// Both benchmarks time OpenBLAS and the emulator in alternating rounds on the
// same cores. After every threaded call OpenBLAS's idle threads spin on
// sched_yield for their thread timeout (2^28 cycles by default, about 0.1 s)
// before they sleep: that is the first 0.1 s of the emulator's turn, on a
// core the emulator's threads need (at 1024^3 on 2 cores dpp0 took 215 ms
// with the spin, 174 ms without). OpenBLAS reads OPENBLAS_THREAD_TIMEOUT
// when the library loads (OpenBLAS's README, "checks the following
// environment variables on startup"), before main and before any constructor
// of the program: only the program's .preinit_array runs earlier (the ELF
// gABI, "Initialization and Termination Functions"). So the benchmark sets
// the timeout there, to its minimum, 4 (2^4 cycles), unless the user set one.
// Include this header in the benchmark's main source file only.

#include <cstdlib>

namespace dppgemm::bench {

inline void keep_openblas_idle_threads_asleep() {
    if (!std::getenv("GOTO_THREAD_TIMEOUT")) setenv("OPENBLAS_THREAD_TIMEOUT", "4", /*overwrite=*/0);
}

[[gnu::section(".preinit_array"),
  gnu::used]] inline void (*const openblas_thread_timeout_setter)() = keep_openblas_idle_threads_asleep;

}  // namespace dppgemm::bench
