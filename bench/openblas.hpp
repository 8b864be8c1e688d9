#pragma once
// OpenBLAS, the benchmarks' yardstick, loaded at run time with a short
// thread timeout.
//
// Both benchmarks time OpenBLAS and the emulator in alternating rounds on the
// same cores. After every threaded call OpenBLAS's idle threads spin on
// sched_yield for their thread timeout (2^28 cycles by default, about 0.1 s)
// before they sleep: the first 0.1 s of the emulator's turn, on a core the
// emulator's threads need. OpenBLAS reads OPENBLAS_THREAD_TIMEOUT once, in its
// library constructor (OpenBLAS's README, "checks the following environment
// variables on startup"), so the variable must be set before the library
// loads. Linked at build time, the library loads before main, and even a
// setenv in the program's .preinit_array is lost: glibc's own initializer,
// which runs after the preinit array, points `environ` back at the
// environment the process started with (glibc csu/init-first.c). So the
// benchmarks dlopen OpenBLAS on first use, after setting the timeout to its
// minimum, 4 (2^4 cycles), unless the user set one. Measured with
// `strace -f -c -e trace=sched_yield dppgemm-emu-bench --size 512 --threads 1
// --variant dpp0 --only unchecked`: 3,192 sched_yield calls linked, 1 loaded
// this way.

#include <cblas.h>
#include <dlfcn.h>

#include <cstdlib>
#include <stdexcept>
#include <string>

#ifndef DPPGEMM_OPENBLAS_LIBRARY
#error "DPPGEMM_OPENBLAS_LIBRARY (the library dlopen loads) is set by bench/CMakeLists.txt"
#endif

namespace dppgemm::bench {

struct OpenBlas {
    decltype(&::cblas_sgemm) sgemm = nullptr;
    decltype(&::cblas_dgemm) dgemm = nullptr;
    void (*set_num_threads)(int) = nullptr;
};

// Loads OpenBLAS on the first call; throws naming the library or symbol that
// is missing.
inline const OpenBlas& openblas() {
    static const OpenBlas loaded = [] {
        if (!std::getenv("OPENBLAS_THREAD_TIMEOUT") && !std::getenv("GOTO_THREAD_TIMEOUT"))
            setenv("OPENBLAS_THREAD_TIMEOUT", "4", /*overwrite=*/0);
        void* handle = dlopen(DPPGEMM_OPENBLAS_LIBRARY, RTLD_NOW | RTLD_LOCAL);
        if (!handle)
            throw std::runtime_error(std::string("cannot load OpenBLAS '") + DPPGEMM_OPENBLAS_LIBRARY +
                                     "': " + dlerror());
        const auto symbol = [handle](const char* name) {
            void* address = dlsym(handle, name);
            if (!address)
                throw std::runtime_error(std::string("OpenBLAS '") + DPPGEMM_OPENBLAS_LIBRARY + "' has no " + name);
            return address;
        };
        OpenBlas blas;
        blas.sgemm = reinterpret_cast<decltype(blas.sgemm)>(symbol("cblas_sgemm"));
        blas.dgemm = reinterpret_cast<decltype(blas.dgemm)>(symbol("cblas_dgemm"));
        blas.set_num_threads = reinterpret_cast<decltype(blas.set_num_threads)>(symbol("openblas_set_num_threads"));
        return blas;
    }();
    return loaded;
}

}  // namespace dppgemm::bench
