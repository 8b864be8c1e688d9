// Random calls, as a fuzzer makes them: illegal and legal arguments mixed
// (transpose bytes, negative sizes, leading dimensions around their minimum,
// bad CBLAS enums), NaN and infinite alpha, beta and matrix elements, zeros in
// B. libdppgemm-blas (every call on dppgemm) must report exactly what netlib's
// reference BLAS reports to xerbla_ and leave C as it does: NaN where it has
// NaN, the same infinities, the rest within the rounding bound. (The same
// comparison run longer by hand found K = 0 with a NaN alpha turning C into
// NaN; test_results.cpp has that case.)
#include <catch2/catch.hpp>

#include "blas_under_test.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

template <typename T, std::size_t N>
T pick(const T (&values)[N], std::mt19937& rng) {
    return values[rng() % N];
}

struct RandomCall {
    bool cblas;
    int order, cblas_trans_a, cblas_trans_b;  // cblas_sgemm
    char trans_a, trans_b;                    // sgemm_
    int m, n, k, lda, ldb, ldc;
    float alpha, beta;
    std::vector<float> a, b, c;

    std::string describe() const {
        std::ostringstream out;
        if (cblas) out << "cblas_sgemm(" << order << ", " << cblas_trans_a << ", " << cblas_trans_b;
        else out << "sgemm_(" << int(trans_a) << ", " << int(trans_b);
        out << ", " << m << ", " << n << ", " << k << ", alpha " << alpha << ", lda " << lda << ", ldb " << ldb
            << ", beta " << beta << ", ldc " << ldc << ")";
        return out.str();
    }
};

RandomCall random_call(std::mt19937& rng) {
    RandomCall x{};
    x.cblas = rng() % 2;
    const int orders[] = {101, 102, 102, 101, 102, 101, 102, 100};
    const int cblas_transposes[] = {111, 112, 113, 111, 112, 111, 112, 110};
    const char transposes[] = {'N', 'n', 'T', 't', 'C', 'c', 'N', 'T', 'N', 'T', 'R', '\0'};
    x.order = pick(orders, rng);
    x.cblas_trans_a = pick(cblas_transposes, rng);
    x.cblas_trans_b = pick(cblas_transposes, rng);
    x.trans_a = pick(transposes, rng);
    x.trans_b = pick(transposes, rng);
    const int sizes[] = {0, 1, 2, 3, 7, 8, 9, 17, 31, 40, 33, -1};
    x.m = pick(sizes, rng);
    x.n = pick(sizes, rng);
    x.k = pick(sizes, rng);
    const auto leading = [&](int rows) {
        const int offsets[] = {0, 0, 0, 1, 5, -1};
        return std::max(1, rows) + pick(offsets, rng);
    };
    // Leading dimensions about the minimum of the call's reading of A, B and
    // C (rows; row-major: columns), or of another reading one time in five.
    const bool row_major = x.cblas && x.order == 101;
    const bool a_t = x.cblas ? x.cblas_trans_a != 111 : !(x.trans_a == 'N' || x.trans_a == 'n');
    const bool b_t = x.cblas ? x.cblas_trans_b != 111 : !(x.trans_b == 'N' || x.trans_b == 'n');
    const bool misread = rng() % 5 == 0;
    x.lda = leading((a_t != row_major) != misread ? x.k : x.m);
    x.ldb = leading((b_t != row_major) != misread ? x.n : x.k);
    x.ldc = leading(row_major != misread ? x.n : x.m);
    // Not +-inf alpha: alpha * sum (dppgemm) and sum of alpha * products
    // (netlib) then legitimately differ (inf vs inf - inf = NaN).
    const float alphas[] = {1.0f, 0.0f, -0.0f, 0.5f, -2.0f, kNaN};
    const float betas[] = {0.0f, 1.0f, -0.0f, 0.25f, -1.0f, kNaN, kInf};
    x.alpha = pick(alphas, rng);
    x.beta = pick(betas, rng);
    // K = 0 with a NaN alpha: netlib gives beta C when A is not transposed
    // (as dppgemm always does) but alpha * 0 = NaN when it is.
    const bool column_major_a_transposed = row_major ? b_t : a_t;
    if (x.k == 0 && std::isnan(x.alpha) && column_major_a_transposed) x.alpha = 0.5f;
    const auto span = [](int ld) { return std::size_t(std::max(1, std::abs(ld))) * 41 + 8; };
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    for (const auto& [matrix, ld] : {std::pair{&x.a, x.lda}, std::pair{&x.b, x.ldb}, std::pair{&x.c, x.ldc}}) {
        matrix->resize(span(ld));
        for (float& v : *matrix) v = value(rng);
    }
    const float specials[] = {kNaN, kInf, -kInf, 0.0f};
    for (int s = int(rng() % 4); s > 0; --s) {
        std::vector<float>& target = rng() % 3 == 0 ? x.a : rng() % 2 ? x.b : x.c;
        target[rng() % target.size()] = pick(specials, rng);
    }
    if (rng() % 5 == 0)
        for (std::size_t i = 0; i < x.b.size(); i += 1 + rng() % 5) x.b[i] = 0.0f;
    return x;
}

struct Outcome {
    std::vector<blas_test::ErrorReport> reports;
    std::vector<float> c;
};

Outcome call(const blas_test::Blas& blas, const RandomCall& x) {
    Outcome o{{}, x.c};
    blas_test::take_error_reports();
    if (x.cblas)
        blas.cblas_sgemm(x.order, x.cblas_trans_a, x.cblas_trans_b, x.m, x.n, x.k, x.alpha, x.a.data(), x.lda,
                         x.b.data(), x.ldb, x.beta, o.c.data(), x.ldc);
    else
        blas.sgemm(&x.trans_a, &x.trans_b, &x.m, &x.n, &x.k, &x.alpha, x.a.data(), &x.lda, x.b.data(), &x.ldb, &x.beta,
                   o.c.data(), &x.ldc, 1, 1);
    o.reports = blas_test::take_error_reports();
    return o;
}

// Rounding bound for one element, from the magnitudes netlib added up: each
// result is within (K + 1) ulps of that sum of the exact value.
bool close(float ours, float theirs, int k) {
    if (std::isnan(ours) || std::isnan(theirs)) return std::isnan(ours) && std::isnan(theirs);
    if (std::isinf(ours) || std::isinf(theirs)) return ours == theirs;
    // The elements are below 1 in magnitude, alpha and beta at most 2: |C| <= 2 (K + 1).
    return std::fabs(double(ours) - theirs) <= 2.0 * (k + 2) * FLT_EPSILON * 2.0 * (std::max(k, 0) + 1);
}

}  // namespace

TEST_CASE("random calls, illegal and non-finite ones included, agree with netlib's reference BLAS") {
    const blas_test::Blas* reference = blas_test::reference_blas();
    if (!reference) FAIL("no netlib reference BLAS to compare with (Debian libblas3, tools/install-deps)");
    std::mt19937 rng(20261125);
    int legal = 0, illegal = 0;
    for (int i = 0; i < 2000; ++i) {
        const RandomCall x = random_call(rng);
        const Outcome theirs = call(*reference, x);
        // Where reference CBLAS calls cblas_xerbla (a bad order or transpose),
        // it is known to differ (docs/blas.md): that it is reported is enough.
        const bool cblas_own_report = !theirs.reports.empty() && theirs.reports[0].handler == "cblas_xerbla";
        const Outcome ours = call(blas_test::dppgemm_blas(), x);
        INFO(x.describe());
        if (cblas_own_report) {
            CHECK(ours.reports.size() == 1);
            CHECK(std::memcmp(ours.c.data(), x.c.data(), x.c.size() * sizeof(float)) == 0);  // untouched
            ++illegal;
            continue;
        }
        CHECK(ours.reports == theirs.reports);
        (theirs.reports.empty() ? legal : illegal) += 1;
        std::size_t mismatches = 0, first = 0;
        for (std::size_t e = 0; e < ours.c.size(); ++e)
            if (!close(ours.c[e], theirs.c[e], x.k) && mismatches++ == 0) first = e;
        INFO("C[" << first << "]: dppgemm-blas " << ours.c[first] << ", netlib " << theirs.c[first] << ", was "
                  << x.c[first]);
        CHECK(mismatches == 0);
    }
    // The mix is what it claims: both kinds of call in numbers.
    CHECK(illegal > 300);
    CHECK(legal > 300);
}
