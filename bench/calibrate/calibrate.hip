// dppgemm-calibrate: times the calibration kernels (calibration.hpp) on a HIP
// device with s_memtime and writes the cycle-model parameters they give as a
// parameter file for --model-params @FILE. An ordinary HIP program: on an AMD
// GPU it measures; preloaded with libdppgemm-hipemu it runs on the emulator,
// whose s_memtime counts host nanoseconds, so the file it writes there only
// shows that the path works:
//
//   LD_PRELOAD=build/host/hipemu/libdppgemm-hipemu.so build/bench/calibrate/dppgemm-calibrate -o calibrated.params
#include <hip/hip_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include "calibration.hpp"

namespace cal = dppgemm::calibration;

// The clock before and after: every earlier access done, the clock read back.
#define DPPGEMM_READ_CLOCK(into) \
    asm volatile("s_waitcnt vmcnt(0) lgkmcnt(0)\n s_memtime %0\n s_waitcnt lgkmcnt(0)" : "=s"(into)::"memory")

#define DPPGEMM_CALIBRATION_KERNEL_OF(name, count, body, after)                                                \
    extern "C" __global__ void name##_##count(unsigned long long* clocks, const int* zeros, unsigned stride) { \
        __shared__ int lds[cal::lds_words];                                                                    \
        for (unsigned i = threadIdx.x; i < cal::lds_words; i += blockDim.x) lds[i] = 0;                        \
        __syncthreads();                                                                                       \
        unsigned offset = threadIdx.x * stride;                                                                \
        unsigned long long start, end;                                                                         \
        DPPGEMM_READ_CLOCK(start);                                                                             \
        /* `lds` as an operand: the compiler keeps the array and its zeroing. */                               \
        asm volatile(".rept " #count "\n " body "\n .endr\n " after                                            \
                     : [a] "+v"(offset)                                                                        \
                     : [base] "s"(zeros), "v"(lds)                                                             \
                     : "v1", "v16", "v17", "v18", "v19", "memory");                                            \
        DPPGEMM_READ_CLOCK(end);                                                                               \
        if (threadIdx.x == 0) clocks[0] = end - start;                                                         \
    }
#define DPPGEMM_CALIBRATION_KERNEL(name, lanes, stride, short_count, long_count, body, after, conflicts, what) \
    DPPGEMM_CALIBRATION_KERNEL_OF(name, short_count, body, after)                                              \
    DPPGEMM_CALIBRATION_KERNEL_OF(name, long_count, body, after)
DPPGEMM_CALIBRATION_KERNELS(DPPGEMM_CALIBRATION_KERNEL)

namespace {

using KernelFunction = void (*)(unsigned long long*, const int*, unsigned);
struct Launchable {
    KernelFunction short_run, long_run;
};
constexpr Launchable launchable[cal::kernel_count] = {
#define DPPGEMM_CALIBRATION_LAUNCHABLE(name, lanes, stride, short_count, long_count, body, after, conflicts, what) \
    {name##_##short_count, name##_##long_count},
    DPPGEMM_CALIBRATION_KERNELS(DPPGEMM_CALIBRATION_LAUNCHABLE)
#undef DPPGEMM_CALIBRATION_LAUNCHABLE
};

void check(hipError_t e, const char* what) {
    if (e == hipSuccess) return;
    std::fprintf(stderr, "dppgemm-calibrate: %s failed: %s\n", what, hipGetErrorName(e));
    std::exit(1);
}

// The fewest clocks of `runs` launches of one workgroup of `lanes` workitems.
double least_clocks(KernelFunction f, const cal::KernelInfo& k, unsigned long long* clocks, const int* zeros,
                    int runs) {
    unsigned long long least = ~0ull;
    for (int run = 0; run < runs; ++run) {
        hipLaunchKernelGGL(f, dim3(1), dim3(k.lanes), 0, 0, clocks, zeros, k.lane_stride);
        check(hipGetLastError(), "hipLaunchKernelGGL");
        unsigned long long host = 0;
        check(hipMemcpy(&host, clocks, sizeof host, hipMemcpyDeviceToHost), "hipMemcpy");
        least = std::min(least, host);
    }
    return double(least);
}

}  // namespace

int main(int argc, char** argv) {
    std::string output;
    int runs = 5;
    for (int i = 1; i < argc; ++i) {
        if ((!std::strcmp(argv[i], "-o") || !std::strcmp(argv[i], "--output")) && i + 1 < argc) output = argv[++i];
        else if (!std::strcmp(argv[i], "--runs") && i + 1 < argc && std::atoi(argv[i + 1]) > 0)
            runs = std::atoi(argv[++i]);
        else {
            std::fprintf(stderr,
                         "dppgemm-calibrate: unknown argument '%s'\nusage: dppgemm-calibrate [-o FILE] [--runs N]\n",
                         argv[i]);
            return 2;
        }
    }
    hipDeviceProp_t props;
    check(hipGetDeviceProperties(&props, 0), "hipGetDeviceProperties");
    unsigned long long* clocks = nullptr;
    int* zeros = nullptr;
    check(hipMalloc(&clocks, sizeof *clocks), "hipMalloc");
    check(hipMalloc(&zeros, 4096), "hipMalloc");
    check(hipMemset(zeros, 0, 4096), "hipMemset");

    cal::Clocks per_repetition{};
    std::printf("%-26s %12s  %s\n", "kernel", "clocks/rep", "what");
    for (std::size_t i = 0; i < cal::kernel_count; ++i) {
        const cal::KernelInfo& k = cal::kernels[i];
        const double short_clocks = least_clocks(launchable[i].short_run, k, clocks, zeros, runs);
        const double long_clocks = least_clocks(launchable[i].long_run, k, clocks, zeros, runs);
        per_repetition[i] = cal::clocks_per_repetition(cal::Kernel(i), short_clocks, long_clocks);
        std::printf("%-26s %12.2f  %s\n", k.name, per_repetition[i], k.what);
    }
    const std::string origin =
        std::string(props.name) + " (" + props.gcnArchName + "), s_memtime, least of " + std::to_string(runs) + " runs";
    const std::string file = cal::parameter_file(cal::derive(per_repetition), origin);
    if (output.empty()) {
        std::fputs(file.c_str(), stdout);
    } else {
        std::ofstream out(output);
        out << file;
        if (!out) {
            std::fprintf(stderr, "dppgemm-calibrate: cannot write '%s'\n", output.c_str());
            return 1;
        }
        std::printf("wrote %s\n", output.c_str());
    }
    check(hipFree(clocks), "hipFree");
    check(hipFree(zeros), "hipFree");
    return 0;
}
