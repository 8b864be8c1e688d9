// The matrix-core kernel (variant mfma) on gfx908, gfx90a and gfx942 against a
// double-precision reference that knows nothing of the kernel's summation
// order (the order of an MFMA's K products is published nowhere):
//   - small-integer data: every product and partial sum is an integer far
//     below 2^24, so any order gives the exact result, compared exactly (up to the sign of a zero);
//   - random data: within the bound any order of fused or unfused
//     multiply-adds meets.
// The same-order bitwise checks of every row (test_sgemm.cpp, [every-kernel])
// cover it too, under the emulator's model of the MFMA's arithmetic.

#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <limits>
#include <random>

#include "dppgemm/dppgemm.hpp"
#include "kernel_builder.hpp"
#include "sgemm_run.hpp"

using namespace exec_test;

namespace {

constexpr const char* kTargets[] = {"gfx908", "gfx90a", "gfx942"};

Program mfma_program(const std::string& target, const std::string& layout) {
    const std::string path = code_object_dir() + "/" + target + "/dppgemm_sgemm_mfma_" + layout + ".co";
    REQUIRE(std::filesystem::exists(path));
    const CodeObject co = load_code_object(path);
    return build_program(co, co.kernels.at(0));
}

unsigned mfma_macro_tile() { return dppgemm::variant_info(dppgemm::Variant::mfma)->macro_tile; }

struct Operands {
    std::vector<float> a, b, c0;
};

// Integers in [-3, 3].
std::vector<float> small_integers(std::size_t count, std::mt19937& rng) {
    std::vector<float> v(count);
    for (float& x : v) x = float(int(rng() % 7) - 3);
    return v;
}

Gemm shaped(const char* layout, int m, int n, int k, int pad) {
    Gemm g;
    g.ta = layout[0], g.tb = layout[1];
    g.m = m, g.n = n, g.k = k;
    g.lda = (g.ta == 'N' ? m : std::max(k, 1)) + pad;
    g.ldb = (g.tb == 'N' ? std::max(k, 1) : n) + pad;
    g.ldc = m + pad;
    return g;
}

template <class Fill>
Operands operands(const Gemm& g, Fill fill) {
    const int cols_a = g.ta == 'N' ? g.k : g.m, cols_b = g.tb == 'N' ? g.n : g.k;
    return {fill(std::size_t(g.lda) * std::max(cols_a, 1)), fill(std::size_t(g.ldb) * std::max(cols_b, 1)),
            fill(std::size_t(g.ldc) * g.n)};
}

double element(const std::vector<float>& x, int ld, bool transposed, int row, int col) {
    return transposed ? x[std::size_t(col) + std::size_t(row) * ld] : x[std::size_t(row) + std::size_t(col) * ld];
}

// C(i, j) in double, and the bound |alpha| sum |a b| + |beta c| that scales the
// rounding error. beta = 0 does not read C; alpha = 0 does not read A, B.
struct Expected {
    std::vector<double> value, magnitude;
};

Expected expected_of(const Gemm& g, const Operands& o) {
    Expected e{std::vector<double>(o.c0.begin(), o.c0.end()), std::vector<double>(o.c0.size(), 0.0)};
    for (int j = 0; j < g.n; ++j)
        for (int i = 0; i < g.m; ++i) {
            double sum = 0, abs_sum = 0;
            if (g.alpha != 0.0f)
                for (int k = 0; k < g.k; ++k) {
                    const double p = element(o.a, g.lda, g.ta == 'T', i, k) * element(o.b, g.ldb, g.tb == 'T', k, j);
                    sum += p, abs_sum += std::fabs(p);
                }
            const std::size_t at = std::size_t(i) + std::size_t(j) * g.ldc;
            const double c = g.beta == 0.0f ? 0.0 : double(g.beta) * o.c0[at];
            e.value[at] = double(g.alpha) * sum + c;
            e.magnitude[at] = std::fabs(double(g.alpha)) * abs_sum + std::fabs(c);
        }
    return e;
}

std::vector<float> run(const std::string& target, const Gemm& g, const Operands& o) {
    const Program program = mfma_program(target, std::string{g.ta, g.tb});
    const GemmResult r = run_gemm(program, mfma_macro_tile(), g, o.a, o.b, o.c0, 2);
    REQUIRE_FALSE(r.dispatch.fault.has_value());
    return r.c;
}

// Elements that differ from the (exact) expected value. The sign of a zero
// result follows reference BLAS's order of operations, which this reference
// does not model: the same-order bitwise sweeps (test_sgemm.cpp) check it.
std::size_t inexact(const std::vector<float>& c, const Expected& e) {
    std::size_t count = 0;
    for (std::size_t i = 0; i < c.size(); ++i) count += !(double(c[i]) == e.value[i]);
    return count;
}

}  // namespace

TEST_CASE("mfma: small-integer data exact on every target, layout and edge shape", "[sgemm][mfma]") {
    std::mt19937 rng(29);
    const auto ints = [&](std::size_t count) { return small_integers(count, rng); };
    // M, N around the 128 tile and its 32 x 32 blocks, K around the 8-deep step
    // and the MFMA's k pair (odd K: a pair half in range), K = 0.
    const int shapes[][3] = {{1, 1, 1}, {128, 128, 8}, {129, 130, 9}, {33, 257, 17}, {64, 1, 40}, {200, 70, 0}};
    for (const char* target : kTargets)
        for (const char* layout : {"NN", "NT", "TN", "TT"})
            for (const auto& [m, n, k] : shapes) {
                Gemm g = shaped(layout, m, n, k, 3);
                g.alpha = 2.0f, g.beta = -3.0f;
                const Operands o = operands(g, ints);
                INFO(target << " " << layout << " m=" << m << " n=" << n << " k=" << k);
                CHECK(inexact(run(target, g, o), expected_of(g, o)) == 0);
            }
}

TEST_CASE("mfma: beta = 0 never reads C, alpha = 0 never reads A and B", "[sgemm][mfma]") {
    std::mt19937 rng(30);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const auto ints = [&](std::size_t count) { return small_integers(count, rng); };
    for (const char* target : kTargets)
        for (const char* layout : {"NN", "TT"}) {
            INFO(target << " " << layout);
            Gemm g = shaped(layout, 131, 67, 13, 0);
            // beta = 0: C holds NaN, which must not reach the result.
            Operands o = operands(g, ints);
            std::fill(o.c0.begin(), o.c0.end(), nan);
            g.alpha = -1.0f, g.beta = 0.0f;
            CHECK(inexact(run(target, g, o), expected_of(g, o)) == 0);
            // alpha = 0: A and B hold NaN; C = beta C.
            o = operands(g, ints);
            std::fill(o.a.begin(), o.a.end(), nan);
            std::fill(o.b.begin(), o.b.end(), nan);
            g.alpha = 0.0f, g.beta = 3.0f;
            CHECK(inexact(run(target, g, o), expected_of(g, o)) == 0);
            // alpha = 0 and beta = 0: C = 0, over NaN too.
            std::fill(o.c0.begin(), o.c0.end(), -0.0f);
            o.c0[0] = nan;
            g.beta = 0.0f;
            CHECK(inexact(run(target, g, o), expected_of(g, o)) == 0);
        }
}

TEST_CASE("mfma: random data within the K-dependent rounding bound on every target and layout", "[sgemm][mfma]") {
    std::mt19937 rng(31);
    const auto randoms = [&](std::size_t count) { return random_matrix(count, rng); };
    const int shapes[][3] = {{129, 130, 9}, {70, 33, 61}};
    const double u = std::ldexp(1.0, -24);
    for (const char* target : kTargets)
        for (const char* layout : {"NN", "NT", "TN", "TT"})
            for (const auto& [m, n, k] : shapes) {
                Gemm g = shaped(layout, m, n, k, 1);
                g.alpha = 1.25f, g.beta = -0.75f;
                const Operands o = operands(g, randoms);
                const Expected e = expected_of(g, o);
                const std::vector<float> c = run(target, g, o);
                // A K-term dot product in any order, fused or not, then alpha and
                // the fused blend: gamma(K + 2), gamma(n) = n u / (1 - n u) (Higham,
                // Accuracy and Stability of Numerical Algorithms, 2nd ed., 3.1).
                const double gamma = (g.k + 2.0) * u / (1.0 - (g.k + 2.0) * u);
                std::size_t outside = 0;
                for (int j = 0; j < g.n; ++j)
                    for (int i = 0; i < g.m; ++i) {
                        const std::size_t at = std::size_t(i) + std::size_t(j) * g.ldc;
                        const double error = std::fabs(double(c[at]) - e.value[at]);
                        outside += !(error <= gamma * e.magnitude[at]);
                    }
                INFO(target << " " << layout << " m=" << m << " n=" << n << " k=" << k);
                CHECK(outside == 0);
            }
}
