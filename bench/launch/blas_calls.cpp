// dppgemm-blas-calls: what one small SGEMM call costs through whichever
// sgemm_ the program gets, the way a BLAS user feels it. Run it preloaded to
// time the drop-in BLAS, plain to time the system BLAS:
//
//   export LD_PRELOAD=build/blas/libdppgemm-blas.so DPPGEMM_BLAS_THRESHOLD=0
//   build/bench/launch/dppgemm-blas-calls [--calls 1000] [--sizes 16,32,64,128]
//
// A size is n (n x n x n, no transposes) or a shape [TT:]MxNxK, e.g. 4x4x4
// or NT:20x2x2 (TT: the transposes of A and B, as sgemm_'s TRANSA, TRANSB):
// the calls LAPACK makes are mostly of a few rows and columns (docs/blas.md).
// For each it makes one untimed first call, then `calls` timed calls of
// C = op(A) op(B) + 0.5 C (column-major, each leading dimension the rows of
// its matrix), and prints the
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
                 "dppgemm-blas-calls: %s\nusage: dppgemm-blas-calls [--calls N >= 1] [--sizes S1,S2,... (each n >= 1 "
                 "or [TT:]MxNxK, T one of N, T)]\n",
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

struct Shape {
    char trans_a = 'N', trans_b = 'N';
    int m = 0, n = 0, k = 0;
    std::string name;
};

// "n" or "[TT:]MxNxK".
Shape parse_shape(const std::string& text) {
    Shape shape;
    shape.name = text;
    std::string dims = text;
    if (const std::size_t colon = text.find(':'); colon != std::string::npos) {
        const std::string trans = text.substr(0, colon);
        if (trans.size() != 2 || (trans[0] != 'N' && trans[0] != 'T') || (trans[1] != 'N' && trans[1] != 'T'))
            usage(("'" + trans + "' in '" + text + "' is not two of N and T").c_str());
        shape.trans_a = trans[0];
        shape.trans_b = trans[1];
        dims = text.substr(colon + 1);
    }
    const std::size_t x1 = dims.find('x');
    if (x1 == std::string::npos) {
        shape.m = shape.n = shape.k = positive(dims, "a size");
        return shape;
    }
    const std::size_t x2 = dims.find('x', x1 + 1);
    if (x2 == std::string::npos) usage(("'" + text + "' is not n nor [TT:]MxNxK").c_str());
    shape.m = positive(dims.substr(0, x1), "M");
    shape.n = positive(dims.substr(x1 + 1, x2 - x1 - 1), "N");
    shape.k = positive(dims.substr(x2 + 1), "K");
    return shape;
}

double percentile(std::vector<double> sorted, double p) {
    std::sort(sorted.begin(), sorted.end());
    return sorted[static_cast<std::size_t>(p * double(sorted.size() - 1) + 0.5)];
}

}  // namespace

int main(int argc, char** argv) {
    int calls = 1000;
    std::vector<Shape> sizes;
    for (const char* n : {"16", "32", "64", "128"}) sizes.push_back(parse_shape(n));
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
                sizes.push_back(parse_shape(value.substr(start, comma - start)));
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
    std::printf("%12s %12s %12s %12s %12s %12s\n", "n", "first, ms", "median, ms", "p10, ms", "p90, ms", "cpu med, ms");
    for (const Shape& shape : sizes) {
        const int m = shape.m, n = shape.n, k = shape.k;
        const int lda = shape.trans_a == 'N' ? m : k, ldb = shape.trans_b == 'N' ? k : n;
        std::vector<float> a(std::size_t(m) * k), b(std::size_t(k) * n), c(std::size_t(m) * n);
        for (std::size_t i = 0; i < a.size(); ++i) a[i] = float(i % 17) / 8.0f - 1.0f;
        for (std::size_t i = 0; i < b.size(); ++i) b[i] = float(i % 13) / 6.0f - 1.0f;
        for (std::size_t i = 0; i < c.size(); ++i) c[i] = float(i % 11) / 5.0f - 1.0f;
        const float alpha = 1.0f, beta = 0.5f;
        double cpu = 0;  // of the last call
        const auto call = [&] {
            const double cpu_start = process_cpu_ms();
            const auto start = Clock::now();
            sgemm_(&shape.trans_a, &shape.trans_b, &m, &n, &k, &alpha, a.data(), &lda, b.data(), &ldb, &beta, c.data(),
                   &m);
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
        std::printf("%12s %12.4f %12.4f %12.4f %12.4f %12.4f\n", shape.name.c_str(), first, percentile(times, 0.5),
                    percentile(times, 0.1), percentile(times, 0.9), percentile(cpu_times, 0.5));
    }
    return 0;
}
