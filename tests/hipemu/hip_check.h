// The HIP programs of this folder that check every call: CHECK prints the call,
// its line and the error name, and exits 1.
#pragma once
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>
#ifndef PROGRAM
#define PROGRAM "program"
#endif
#define CHECK(call)                                                                                  \
    do {                                                                                             \
        hipError_t e_ = (call);                                                                      \
        if (e_ != hipSuccess) {                                                                      \
            std::printf(PROGRAM ": line %d: %s failed: %s\n", __LINE__, #call, hipGetErrorName(e_)); \
            std::exit(1);                                                                            \
        }                                                                                            \
    } while (0)
