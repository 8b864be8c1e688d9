// Checking a variant's C: bit for bit against the same-order host reference,
// and within the classic dot-product error bound of OpenBLAS's result.
#pragma once

#include "problem.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dppgemm::bench {

struct Difference {
    int row = 0, col = 0;
    float got = 0, expected = 0;
};

struct Verification {
    bool enabled = false;
    std::uint64_t bitwise_mismatches = 0;              // elements differing from the same-order reference
    std::optional<Difference> first_bitwise_mismatch;  // in column-major order
    double max_error_over_bound = 0;                   // max |C - C_openblas| / bound, over every element
    std::optional<Difference> worst_vs_openblas;       // where that maximum is (expected = OpenBLAS)
    bool passed() const { return !enabled || (bitwise_mismatches == 0 && max_error_over_bound <= 1.0); }
};

// Per element |alpha| sum_k |op(A)(i,k)| |op(B)(k,j)| + |beta| |C0(i,j)|, in
// double (OpenBLAS dgemm), the scale of the rounding error bound.
std::vector<double> error_scales(const Problem& problem);

// OpenBLAS's C for the problem and its median time over `runs` calls.
std::vector<float> openblas_sgemm(const Problem& problem, int warmup, int runs, double& median_ms);

// Two NaNs count as equal: which NaN survives a + b when both are NaN is the
// host's and the compiler's choice, in the reference and the emulator alike.
Verification verify_result(const Problem& problem, const std::vector<float>& c, const std::vector<float>& c_same_order,
                           const std::vector<float>& c_openblas, const std::vector<double>& scales);

// "dpp1 on gfx906: C(3,17) = ... but the same-order reference gives ..." for a
// failed check, empty when it passed.
std::string failure_message(const std::string& variant, const std::string& target, const Verification& check);

double median(std::vector<double> values);

}  // namespace dppgemm::bench
