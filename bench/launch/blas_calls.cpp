// dppgemm-blas-calls: what one small SGEMM call costs through whichever
// sgemm_ the program gets, the way a BLAS user feels it. Run it preloaded to
// time the drop-in BLAS, plain to time the system BLAS:
//
//   export LD_PRELOAD=build/blas/libdppgemm-blas.so DPPGEMM_BLAS_THRESHOLD=0
//   build/bench/launch/dppgemm-blas-calls [--calls 1000] [--sizes 16,32,64,128]
//
// For each size n it makes one untimed first call, then `calls` timed calls
// of C = A B + 0.5 C (n x n x n, column-major, no transposes), and prints the
// median and the 10th and 90th percentiles of the wall time of one call, and
// the median of the process's CPU time per call (all its threads: on a busy
// machine the wall time includes waiting for a core, the CPU time does not;
// it does include a helper thread's spinning while it waits for work).
#include <dlfcn.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

extern "C" void sgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
                       const float* alpha, const float* a, const int* lda, const float* b, const int* ldb,
                       const float* beta, float* c, const int* ldc);

namespace {

using Clock = std::chrono::steady_clock;

[[noreturn]] void usage(const char* why) {
    std::fprintf(stderr,
                 "dppgemm-blas-calls: %s\nusage: dppgemm-blas-calls [--calls N >= 1] [--sizes n1,n2,... (each >= 1)]\n",
                 why);
    std::exit(2);
}

int positive(const std::string& text, const char* what) {
    char* end = nullptr;
    const long value = std::strtol(text.c_str(), &end, 10);
    if (text.empty() || *end || value < 1 || value > 1 << 20)
        usage((std::string(what) + " '" + text + "' is not a positive integer").c_str());
    return static_cast<int>(value);
}

double process_cpu_ms() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) * 1e-6;
}

double percentile(std::vector<double> sorted, double p) {
    std::sort(sorted.begin(), sorted.end());
    return sorted[static_cast<std::size_t>(p * double(sorted.size() - 1) + 0.5)];
}

}  // namespace

int main(int argc, char** argv) {
    int calls = 1000;
    std::vector<int> sizes{16, 32, 64, 128};
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        if (i + 1 >= argc) usage((flag + " needs a value").c_str());
        const std::string value = argv[++i];
        if (flag == "--calls") {
            calls = positive(value, "--calls");
        } else if (flag == "--sizes") {
            sizes.clear();
            for (std::size_t start = 0; start <= value.size();) {
                const std::size_t comma = std::min(value.find(',', start), value.size());
                sizes.push_back(positive(value.substr(start, comma - start), "a size"));
                start = comma + 1;
            }
        } else {
            usage(("unknown flag " + flag).c_str());
        }
    }

    Dl_info where{};
    const bool found = dladdr(reinterpret_cast<void*>(&sgemm_), &where) && where.dli_fname;
    std::printf("sgemm_ from %s, %d timed calls per size after one untimed call\n", found ? where.dli_fname : "?",
                calls);
    std::printf("%6s %12s %12s %12s %12s %12s\n", "n", "first, ms", "median, ms", "p10, ms", "p90, ms", "cpu med, ms");
    for (const int n : sizes) {
        const std::size_t elements = std::size_t(n) * n;
        std::vector<float> a(elements), b(elements), c(elements);
        for (std::size_t i = 0; i < elements; ++i) {
            a[i] = float(i % 17) / 8.0f - 1.0f;
            b[i] = float(i % 13) / 6.0f - 1.0f;
            c[i] = float(i % 11) / 5.0f - 1.0f;
        }
        const float alpha = 1.0f, beta = 0.5f;
        double cpu = 0;  // of the last call
        const auto call = [&] {
            const double cpu_start = process_cpu_ms();
            const auto start = Clock::now();
            sgemm_("N", "N", &n, &n, &n, &alpha, a.data(), &n, b.data(), &n, &beta, c.data(), &n);
            const double wall = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
            cpu = process_cpu_ms() - cpu_start;
            return wall;
        };
        const double first = call();
        std::vector<double> times(static_cast<std::size_t>(calls)), cpu_times(times.size());
        for (std::size_t i = 0; i < times.size(); ++i) {
            times[i] = call();
            cpu_times[i] = cpu;
        }
        std::printf("%6d %12.4f %12.4f %12.4f %12.4f %12.4f\n", n, first, percentile(times, 0.5),
                    percentile(times, 0.1), percentile(times, 0.9), percentile(cpu_times, 0.5));
    }
    return 0;
}
