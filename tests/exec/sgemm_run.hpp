#pragma once
// A dppgemm SGEMM described by its shape (tests/support/sgemm_launch.hpp
// launches it), for the executor tests that run the kernels.

#include <random>
#include <vector>

#include "kernel_builder.hpp"  // exec_test, with dppgemm::emu in scope
#include "sgemm_launch.hpp"

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

using dppgemm::test_support::random_matrix;

}  // namespace exec_test
