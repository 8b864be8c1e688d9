// dppgemm-bench flags, in the style of rocblas-bench.
#pragma once

#include "dppgemm/dppgemm.hpp"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace dppgemm::bench {

struct Shape {
    int m, n, k;
};

struct BenchOptions {
    std::vector<Shape> shapes;      // one per configuration (from -m/-n/-k or --sizes)
    int lda = 0, ldb = 0, ldc = 0;  // 0: the smallest legal value
    float alpha = 1.0f, beta = 0.0f;
    char trans_a = 'N', trans_b = 'N';
    int iterations = 5;              // -i: timed rounds (medians reported)
    int warmup = 0;                  // -j: untimed runs first
    std::vector<Variant> variants;   // --variant
    bool every_variant = false;      // --variant all: per target, the rows it has (others are skipped)
    std::vector<std::string> archs;  // --arch (emu targets)
    Backend backend = Backend::automatic;
    std::uint64_t seed = 1;
    bool verify = true;
    std::string csv, json, plot;
    unsigned threads = 0;  // emulator and OpenBLAS host threads, 0: all cores
    // --model-only: the emulator runs only the workgroups the cycle model
    // traces (no C, no verification); --model-params: name=value,... overrides.
    bool model_only = false;
    std::string model_params;
    bool model_grid = false;  // --model-grid: every variant over model_grid() (model.hpp)
    // --progression: the HIP steps, dpp0 and best, and the transpositions
    // (progression.hpp) instead of the variants.
    bool progression = false;
};

// A flag with a bad value: names the flag and the value; exit status 2.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Parses argv. Throws UsageError for any bad flag or value. Returns nullopt
// when --help was printed.
std::optional<BenchOptions> parse_options(int argc, const char* const* argv);

// "128:4096:x2" (multiply) or "128:1024:+128" (add) or "512" -> sizes.
std::vector<int> parse_sweep(const std::string& text);

}  // namespace dppgemm::bench
