#pragma once
// One dppgemm SGEMM launch on the emulator with host matrices (column major,
// as the kernels take them), shared by the executor tests that run the
// kernels.

#include <random>
#include <vector>

#include "kernel_builder.hpp"  // exec_test, with dppgemm::emu in scope

namespace exec_test {

struct Gemm {
    char ta = 'N', tb = 'N';
    int m = 0, n = 0, k = 0, lda = 0, ldb = 0, ldc = 0;
    float alpha = 1.0f, beta = 0.0f;
};

struct GemmResult {
    std::vector<float> c;
    DispatchResult dispatch;
};

// C = alpha op(A) op(B) + beta C on a grid of macro_tile x macro_tile tiles
// (the kernel's row of the variant table), `threads` host threads (the
// parallel schedule) or the given schedule.
GemmResult run_gemm(const Program& program, unsigned macro_tile, const Gemm& g, const std::vector<float>& a,
                    const std::vector<float>& b, const std::vector<float>& c0, unsigned threads,
                    const Schedule& schedule = {});

// `count` values uniform in [-1, 1).
std::vector<float> random_matrix(std::size_t count, std::mt19937& rng);

}  // namespace exec_test
