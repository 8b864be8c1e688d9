// One SGEMM problem of a benchmark configuration: arguments and random data.
#pragma once

#include "options.hpp"

#include <cstdint>
#include <vector>

namespace dppgemm::bench {

struct Problem {
    char ta = 'N', tb = 'N';
    int m = 0, n = 0, k = 0, lda = 1, ldb = 1, ldc = 1;
    float alpha = 1, beta = 0;
    std::vector<float> a, b, c0;  // column-major, c0 is C before the call

    long long steps() const;  // 128x128x8 steps of work of a 128x128 kernel
    // The 128x128x8 steps of work a kernel of that macro tile does: its
    // workgroup steps, each (macro_tile / 128)^2 of one (a 64x64 kernel does
    // one in 4); steps() for 128.
    double steps_of(unsigned macro_tile) const;
    double flops() const { return 2.0 * m * n * k; }
    std::size_t at(int row, int col) const { return row + std::size_t(col) * ldc; }  // index into C
};

// The arguments alone (no data yet, so that bad ones are rejected before any
// allocation): lda/ldb/ldc of 0 in the options become the smallest legal value.
Problem make_problem(const BenchOptions& options, const Shape& shape);

// Host memory a configuration needs, in bytes (double: the products of two
// 31-bit sizes and a leading dimension overflow 64 bits): `kept` for the rest
// of the run (A, B and C0 stay in its report), `during` while it runs (the
// emulator's copies of A, B and C; C of the variant, of OpenBLAS and of up to
// two same-order references; the error scales in double).
struct MemoryNeed {
    double kept = 0, during = 0;
};
MemoryNeed memory_need(const Problem& problem);

// A, B and C get uniform values in [-1, 1) from the seed.
void fill_random(Problem& problem, std::uint64_t seed);

}  // namespace dppgemm::bench
