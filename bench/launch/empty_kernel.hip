// dppgemm-empty-launches: what one kernel launch costs when the kernel does
// nothing, the fixed cost a HIP program that launches many small kernels
// pays on every one. An ordinary HIP program; on the emulator:
//
//   LD_PRELOAD=build/host/hipemu/libdppgemm-hipemu.so build/bench/launch/dppgemm-empty-launches [--launches 1000]
//
// For a few grid shapes it makes one untimed launch, then `launches` timed
// ones, each a hipLaunchKernelGGL followed by hipDeviceSynchronize, and
// prints the median and the 10th and 90th percentiles of one.
#include <hip/hip_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

__global__ void empty_kernel() {}

namespace {

using Clock = std::chrono::steady_clock;

void check(hipError_t e, const char* what) {
    if (e == hipSuccess) return;
    std::fprintf(stderr, "dppgemm-empty-launches: %s failed: %s\n", what, hipGetErrorName(e));
    std::exit(1);
}

double percentile(std::vector<double> times, double p) {
    std::sort(times.begin(), times.end());
    return times[static_cast<std::size_t>(p * double(times.size() - 1) + 0.5)];
}

}  // namespace

int main(int argc, char** argv) {
    int launches = 1000;
    if (argc == 3 && std::strcmp(argv[1], "--launches") == 0) {
        launches = std::atoi(argv[2]);
    } else if (argc != 1) {
        launches = 0;
    }
    if (launches < 1) {
        std::fprintf(stderr, "usage: dppgemm-empty-launches [--launches N >= 1]\n");
        return 2;
    }
    struct Shape {
        unsigned workgroups, items;
    };
    std::printf("%d timed launches of an empty kernel per shape after one untimed launch\n", launches);
    std::printf("%11s %6s %12s %12s %12s %12s\n", "workgroups", "items", "first, ms", "median, ms", "p10, ms",
                "p90, ms");
    for (const Shape shape : {Shape{1, 64}, Shape{1, 256}, Shape{64, 256}}) {
        const auto launch = [&] {
            const auto start = Clock::now();
            hipLaunchKernelGGL(empty_kernel, dim3(shape.workgroups), dim3(shape.items), 0, 0);
            check(hipGetLastError(), "hipLaunchKernelGGL");
            check(hipDeviceSynchronize(), "hipDeviceSynchronize");
            return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
        };
        const double first = launch();
        std::vector<double> times(static_cast<std::size_t>(launches));
        for (double& t : times) t = launch();
        std::printf("%11u %6u %12.4f %12.4f %12.4f %12.4f\n", shape.workgroups, shape.items, first,
                    percentile(times, 0.5), percentile(times, 0.1), percentile(times, 0.9));
    }
    return 0;
}
