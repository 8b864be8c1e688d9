// libdppgemm-blas results: bit for bit dppgemm::reference_sgemm on the
// column-major problem the call is (the emu backend plays gfx906, whose
// v_mac_f32 rounds product and sum apart), and within rounding of OpenBLAS.
// Padding (leading dimensions above the minimum) holds NaN in A and B, which
// must never reach C, and must come back untouched in C; with beta = 0, C
// holds NaN, which must never be read.
#include <catch2/catch.hpp>

#include <cblas.h>

#include "blas_under_test.hpp"
#include "dppgemm/dppgemm.hpp"
#include "dppgemm/reference.hpp"

#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using blas_test::Blas;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kScalars[] = {0.0f, 1.0f, -1.0f, 0.7f};
constexpr char kFortranTransposes[] = {'N', 'n', 'T', 't', 'C', 'c'};
constexpr char kCblasTransposes[] = {'N', 'T', 'C'};  // CblasNoTrans, CblasTrans, CblasConjTrans

enum class Entry { sgemm, cblas_column_major, cblas_row_major };

// One call as a program makes it. For cblas_sgemm, trans 'N', 'T', 'C' stand
// for CblasNoTrans, CblasTrans, CblasConjTrans.
struct Call {
    Entry entry = Entry::sgemm;
    char trans_a = 'N', trans_b = 'N';
    int m = 0, n = 0, k = 0;
    float alpha = 1, beta = 0;
    int padding = 3;  // every leading dimension exceeds its minimum by this
};

// The column-major problem a call is: row-major C = op(A) op(B) is
// column-major C^T = op(B)^T op(A)^T on the same memory.
struct ColumnMajorProblem {
    char trans_a, trans_b;
    int m, n, k;
};

ColumnMajorProblem column_major(const Call& call) {
    if (call.entry == Entry::cblas_row_major) return {call.trans_b, call.trans_a, call.n, call.m, call.k};
    return {call.trans_a, call.trans_b, call.m, call.n, call.k};
}

bool transposed(char trans) { return trans != 'N' && trans != 'n'; }

// Column-major storage with NaN in the padding rows.
struct Matrix {
    int rows, cols, ld;
    std::vector<float> data;
    float at(int row, int col) const { return data[std::size_t(col) * ld + row]; }
};

Matrix random_matrix(int rows, int cols, int padding, std::mt19937& rng, bool unreadable) {
    Matrix x{rows, cols, std::max(1, rows + padding), {}};
    x.data.assign(std::size_t(x.ld) * std::max(cols, 1), kNaN);
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    for (int j = 0; j < cols; ++j)
        for (int i = 0; i < rows; ++i) x.data[std::size_t(j) * x.ld + i] = unreadable ? kNaN : value(rng);
    return x;
}

// Operands of the column-major problem (for a row-major call, first is the
// caller's B and second the caller's A).
struct Operands {
    ColumnMajorProblem problem;
    Matrix first, second, c;
};

Operands make_operands(const Call& call, std::mt19937& rng) {
    const ColumnMajorProblem p = column_major(call);
    const bool ta = transposed(p.trans_a), tb = transposed(p.trans_b);
    Matrix first = random_matrix(ta ? p.k : p.m, ta ? p.m : p.k, call.padding, rng, false);
    Matrix second = random_matrix(tb ? p.n : p.k, tb ? p.k : p.n, call.padding, rng, false);
    Matrix c = random_matrix(p.m, p.n, call.padding, rng, call.beta == 0.0f);
    return {p, std::move(first), std::move(second), std::move(c)};
}

CBLAS_TRANSPOSE cblas_transpose(char trans) {
    return trans == 'N' ? CblasNoTrans : trans == 'T' ? CblasTrans : CblasConjTrans;
}

std::vector<float> run(const Blas& blas, const Call& call, const Operands& x) {
    std::vector<float> c = x.c.data;
    const ColumnMajorProblem& p = x.problem;
    switch (call.entry) {
    case Entry::sgemm:
        blas.sgemm(&p.trans_a, &p.trans_b, &p.m, &p.n, &p.k, &call.alpha, x.first.data.data(), &x.first.ld,
                   x.second.data.data(), &x.second.ld, &call.beta, c.data(), &x.c.ld, 1, 1);
        break;
    case Entry::cblas_column_major:
        blas.cblas_sgemm(CblasColMajor, cblas_transpose(call.trans_a), cblas_transpose(call.trans_b), call.m, call.n,
                         call.k, call.alpha, x.first.data.data(), x.first.ld, x.second.data.data(), x.second.ld,
                         call.beta, c.data(), x.c.ld);
        break;
    case Entry::cblas_row_major:
        blas.cblas_sgemm(CblasRowMajor, cblas_transpose(call.trans_a), cblas_transpose(call.trans_b), call.m, call.n,
                         call.k, call.alpha, x.second.data.data(), x.second.ld, x.first.data.data(), x.first.ld,
                         call.beta, c.data(), x.c.ld);
        break;
    }
    return c;
}

std::vector<float> run_reference(const Call& call, const Operands& x) {
    std::vector<float> c = x.c.data;
    const ColumnMajorProblem& p = x.problem;
    const char ta = transposed(p.trans_a) ? 'T' : 'N', tb = transposed(p.trans_b) ? 'T' : 'N';
    dppgemm::reference_sgemm(dppgemm::kernel_mac_kind(dppgemm::Variant::best, dppgemm::default_emu_target), ta, tb, p.m,
                             p.n, p.k, call.alpha, x.first.data.data(), x.first.ld, x.second.data.data(), x.second.ld,
                             call.beta, c.data(), x.c.ld);
    return c;
}

bool same_bits(float x, float y) { return std::memcmp(&x, &y, sizeof x) == 0; }

// Bound on |dppgemm - OpenBLAS| for C(i, j): each is within (k + 1) ulps of
// |alpha| sum |op(A)(i,l) op(B)(l,j)| + |beta C(i,j)| of the exact result.
double tolerance(const Call& call, const Operands& x, int i, int j) {
    const ColumnMajorProblem& p = x.problem;
    double magnitude = call.beta == 0.0f ? 0.0 : std::fabs(double(call.beta) * x.c.at(i, j));
    for (int l = 0; l < p.k; ++l) {
        const float a = transposed(p.trans_a) ? x.first.at(l, i) : x.first.at(i, l);
        const float b = transposed(p.trans_b) ? x.second.at(j, l) : x.second.at(l, j);
        magnitude += std::fabs(double(call.alpha) * a * b);
    }
    return 2.0 * (p.k + 2) * FLT_EPSILON * magnitude;
}

bool in_matrix(const Matrix& c, std::size_t index) { return int(index % c.ld) < c.rows && int(index / c.ld) < c.cols; }

// "" when libdppgemm-blas agrees with both, else the first disagreement.
std::string disagreement(const Call& call, std::mt19937& rng) {
    const Operands x = make_operands(call, rng);
    const std::vector<float> ours = run(blas_test::dppgemm_blas(), call, x);
    const std::vector<float> openblas = run(blas_test::openblas(), call, x);
    const std::vector<float> reference = run_reference(call, x);
    for (std::size_t e = 0; e < ours.size(); ++e) {
        const int i = int(e % x.c.ld), j = int(e / x.c.ld);
        // Formatted only for the element that disagrees (formatting every
        // element's floats took a third of the test's time).
        const auto where = [&] {
            std::ostringstream out;
            out << "column-major C(" << i << ", " << j << "): dppgemm-blas " << ours[e];
            return out.str();
        };
        if (!same_bits(ours[e], reference[e])) return where() + ", reference_sgemm " + std::to_string(reference[e]);
        if (!in_matrix(x.c, e) && !same_bits(ours[e], x.c.data[e])) return where() + " written into the padding";
        if (in_matrix(x.c, e) && !(std::fabs(double(ours[e]) - openblas[e]) <= tolerance(call, x, i, j)))
            return where() + ", OpenBLAS " + std::to_string(openblas[e]);
    }
    return "";
}

std::string describe(const Call& call) {
    static const char* const entries[] = {"sgemm_", "cblas_sgemm column-major", "cblas_sgemm row-major"};
    std::ostringstream out;
    out << entries[int(call.entry)] << " " << call.trans_a << call.trans_b << " m=" << call.m << " n=" << call.n
        << " k=" << call.k << " alpha=" << call.alpha << " beta=" << call.beta << " padding=" << call.padding;
    return out.str();
}

void check_agreement(const Call& call, std::mt19937& rng) {
    INFO(describe(call));
    CHECK(disagreement(call, rng) == "");
}

}  // namespace

TEST_CASE("sgemm_: every transpose character with every alpha and beta") {
    std::mt19937 rng(9);
    for (const Call& shape :
         {Call{Entry::sgemm, 'N', 'N', 13, 7, 5, 1, 0, 2}, Call{Entry::sgemm, 'N', 'N', 131, 67, 19, 1, 0, 1}})
        for (char ta : kFortranTransposes)
            for (char tb : kFortranTransposes)
                for (float alpha : kScalars)
                    for (float beta : kScalars)
                        check_agreement({Entry::sgemm, ta, tb, shape.m, shape.n, shape.k, alpha, beta, shape.padding},
                                        rng);
}

TEST_CASE("cblas_sgemm: both orders, every transpose with every alpha and beta") {
    std::mt19937 rng(10);
    for (const Call& shape :
         {Call{Entry::sgemm, 'N', 'N', 11, 17, 3, 1, 0, 1}, Call{Entry::sgemm, 'N', 'N', 67, 137, 23, 1, 0, 2}})
        for (Entry entry : {Entry::cblas_column_major, Entry::cblas_row_major})
            for (char ta : kCblasTransposes)
                for (char tb : kCblasTransposes)
                    for (float alpha : kScalars)
                        for (float beta : kScalars)
                            check_agreement({entry, ta, tb, shape.m, shape.n, shape.k, alpha, beta, shape.padding},
                                            rng);
}

// Each size as M, N and K alone (the others small), and as all three; the
// entry point, transposes, alpha, beta and padding change from call to call.
TEST_CASE("sizes 0..300, odd and prime, through every entry point") {
    std::mt19937 rng(11);
    const int sizes[] = {0, 1, 2, 3, 5, 8, 13, 31, 64, 97, 127, 128, 129, 131, 199, 255, 257, 293, 300};
    int variation = 0;
    for (int size : sizes)
        for (int shape = 0; shape < 4; ++shape, ++variation) {
            Call call;
            call.entry = Entry(variation % 3);
            call.trans_a = kCblasTransposes[variation % 3];
            call.trans_b = kCblasTransposes[variation / 3 % 3];
            call.m = shape == 0 || shape == 3 ? size : 7;
            call.n = shape == 1 || shape == 3 ? size : 9;
            call.k = shape == 2 || shape == 3 ? size : 5;
            call.alpha = kScalars[(variation + 1) % 4];
            call.beta = kScalars[variation / 4 % 4];
            call.padding = 1 + variation % 4 * 20;
            check_agreement(call, rng);
        }
}

TEST_CASE("large odd and prime shapes up to 300") {
    std::mt19937 rng(12);
    check_agreement({Entry::sgemm, 'N', 'N', 300, 300, 300, 0.7f, -1.0f, 4}, rng);
    check_agreement({Entry::sgemm, 't', 'c', 257, 293, 131, -1.0f, 0.7f, 1}, rng);
    check_agreement({Entry::cblas_row_major, 'N', 'T', 251, 129, 299, 1.0f, 0.0f, 5}, rng);
    check_agreement({Entry::cblas_column_major, 'C', 'N', 131, 263, 277, 0.7f, 1.0f, 2}, rng);
}

TEST_CASE("concurrent calls from several threads each get their own result") {
    std::vector<Call> calls;
    for (int t = 0; t < 6; ++t)
        calls.push_back({Entry(t % 3), kCblasTransposes[t % 3], kCblasTransposes[(t + 1) % 3], 97 + t, 131 - t,
                         29 + 2 * t, kScalars[t % 4], kScalars[(t + 2) % 4], 1 + t});
    std::vector<std::string> disagreements(calls.size());
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < calls.size(); ++t)
        threads.emplace_back([&, t] {
            std::mt19937 rng(100 + t);
            disagreements[t] = disagreement(calls[t], rng);
        });
    for (std::thread& thread : threads) thread.join();
    for (std::size_t t = 0; t < calls.size(); ++t) {
        INFO(describe(calls[t]));
        CHECK(disagreements[t] == "");
    }
}

// ldc = 2^22 is legal BLAS but past the kernels' 32-bit tile offsets: the
// call goes to the next BLAS, OpenBLAS here, so the result is OpenBLAS's own.
TEST_CASE("a call dppgemm cannot take runs on the next BLAS") {
    const int m = 5, n = 2, k = 3, lda = 5, ldb = 3, ldc = 1 << 22;
    std::vector<float> a(lda * k), b(ldb * n), c(std::size_t(ldc) * (n - 1) + m, 1.5f);
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = 0.1f * float(i) - 0.7f;
    for (std::size_t i = 0; i < b.size(); ++i) b[i] = 0.3f - 0.05f * float(i);
    REQUIRE(dppgemm::sgemm('N', 'N', m, n, k, 1.0f, a.data(), lda, b.data(), ldb, 0.7f, c.data(), ldc).status ==
            dppgemm::Status::unsupported);
    std::vector<float> theirs = c;
    const float alpha = 0.7f, beta = -1.0f;
    blas_test::dppgemm_blas().sgemm("N", "N", &m, &n, &k, &alpha, a.data(), &lda, b.data(), &ldb, &beta, c.data(), &ldc,
                                    1, 1);
    blas_test::openblas().sgemm("N", "N", &m, &n, &k, &alpha, a.data(), &lda, b.data(), &ldb, &beta, theirs.data(),
                                &ldc, 1, 1);
    CHECK(c[0] != 1.5f);
    CHECK(std::memcmp(c.data(), theirs.data(), c.size() * sizeof(float)) == 0);
}

// Reference BLAS never reads A or B when alpha = 0: null is legal, at any size.
TEST_CASE("alpha = 0 with null A and B gives beta C through both entry points") {
    const int m = 300, n = 270, k = 290, lda = 300, ldb = 290, ldc = 301;
    std::vector<float> c(std::size_t(ldc) * n);
    for (std::size_t i = 0; i < c.size(); ++i) c[i] = 0.25f * float(i % 97) - 3.0f;
    std::vector<float> ours = c, row_major = c;
    const float alpha = 0.0f, beta = -1.5f;
    blas_test::dppgemm_blas().sgemm("N", "N", &m, &n, &k, &alpha, nullptr, &lda, nullptr, &ldb, &beta, ours.data(),
                                    &ldc, 1, 1);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < ldc; ++i) {
            const std::size_t at = i + std::size_t(j) * ldc;
            CHECK(ours[at] == (i < m ? beta * c[at] : c[at]));
        }
    // Row-major: C is n rows of ldc; the same memory, the same result.
    blas_test::dppgemm_blas().cblas_sgemm(101 /* CblasRowMajor */, 111, 111, n, m, k, alpha, nullptr, k, nullptr, m,
                                          beta, row_major.data(), ldc);
    CHECK(std::memcmp(row_major.data(), ours.data(), ours.size() * sizeof(float)) == 0);
}

// Reference BLAS forms beta C alone for alpha = 0, and for K = 0 when A is
// not transposed (its column update); with A transposed it computes
// alpha * (dot product) + beta C even for K = 0 (NaN for an infinite alpha).
// Not transposed, it adds alpha-scaled products to C = +0 (beta = 0), so a
// zero sum is +0 whatever alpha's sign; transposed, alpha * (+0). Each case
// against netlib's sgemm_, bit for bit (NaN as NaN), in every layout.
TEST_CASE("C as reference BLAS gives it, sign of zero and NaN, where it scales C alone or sums zero products") {
    const blas_test::Blas* netlib = blas_test::reference_blas();
    if (!netlib) FAIL("no netlib reference BLAS to compare with (Debian libblas3, tools/install-deps)");
    constexpr float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
    struct Case {
        int k;
        float alpha, beta;
        bool zero_operands;  // A is +-0 throughout: every product is zero
        float c;             // 0 (either sign): every element of C; else C varies around it
    };
    const Case cases[] = {
        {16, 0.0f, -1.0f, false, 0.0f}, {16, -0.0f, 2.0f, false, -0.0f}, {0, 3.0f, -1.0f, false, 0.0f},
        {0, -2.0f, 0.0f, false, 5.0f},  {0, inf, 0.0f, false, 5.0f},     {0, nan, -1.5f, false, 5.0f},
        {0, -inf, -1.5f, false, -0.0f}, {16, -2.0f, 0.0f, true, 5.0f},   {19, -0.5f, 0.0f, true, 5.0f},
        {16, -0.0f, 0.0f, false, 5.0f}, {21, 2.0f, 0.0f, true, 5.0f},
    };
    const int m = 70, n = 9, ldc = 71;
    for (const char ta : {'N', 'T'})
        for (const char tb : {'N', 'T'})
            for (const Case& c : cases) {
                const int lda = ta == 'N' ? m : std::max(c.k, 1), ldb = tb == 'N' ? std::max(c.k, 1) : n;
                std::vector<float> a(std::size_t(lda) * (ta == 'N' ? std::max(c.k, 1) : m));
                std::vector<float> b(std::size_t(ldb) * (tb == 'N' ? n : std::max(c.k, 1)));
                for (std::size_t i = 0; i < a.size(); ++i)
                    a[i] = c.zero_operands ? (i % 3 ? 0.0f : -0.0f) : 0.25f * float(i % 7) - 0.5f;
                for (std::size_t i = 0; i < b.size(); ++i) b[i] = 0.5f * float(i % 5) - 1.25f;
                std::vector<float> c0(std::size_t(ldc) * n);
                for (std::size_t i = 0; i < c0.size(); ++i)
                    c0[i] = c.c == 0.0f ? c.c : c.c * (0.5f * float(i % 13) - 2.0f);
                std::vector<float> ours = c0, theirs = c0, same_order = c0;
                const char tas[2] = {ta, 0}, tbs[2] = {tb, 0};
                blas_test::dppgemm_blas().sgemm(tas, tbs, &m, &n, &c.k, &c.alpha, a.data(), &lda, b.data(), &ldb,
                                                &c.beta, ours.data(), &ldc, 1, 1);
                netlib->sgemm(tas, tbs, &m, &n, &c.k, &c.alpha, a.data(), &lda, b.data(), &ldb, &c.beta, theirs.data(),
                              &ldc, 1, 1);
                dppgemm::reference_sgemm(dppgemm::kernel_mac_kind(dppgemm::Variant::best, dppgemm::default_emu_target),
                                         ta, tb, m, n, c.k, c.alpha, a.data(), lda, b.data(), ldb, c.beta,
                                         same_order.data(), ldc);
                std::size_t differ_from_netlib = 0, differ_from_same_order = 0;
                for (std::size_t i = 0; i < ours.size(); ++i) {
                    const bool nan = std::isnan(ours[i]);
                    differ_from_netlib += nan ? !std::isnan(theirs[i]) : !same_bits(ours[i], theirs[i]);
                    differ_from_same_order += nan ? !std::isnan(same_order[i]) : !same_bits(ours[i], same_order[i]);
                }
                INFO(tas << tbs << " K=" << c.k << " alpha=" << c.alpha << " beta=" << c.beta << " zero operands="
                         << c.zero_operands << " C=" << c.c << ": C(0,0) " << ours[0] << ", netlib " << theirs[0]);
                CHECK(differ_from_netlib == 0);
                CHECK(differ_from_same_order == 0);
            }
}

// K = 0 with A not transposed: reference BLAS scales C by beta and nothing
// else, whatever alpha is; alpha * (empty sum) must not turn C into NaN.
TEST_CASE("K = 0, A not transposed, with an infinite or NaN alpha gives beta C, as reference BLAS") {
    const int m = 70, n = 9, k = 0, lda = 70, ldb = 1, ldc = 71;
    std::vector<float> a(std::size_t(lda), 1.0f), b(std::size_t(n), 1.0f), c0(std::size_t(ldc) * n);
    for (std::size_t i = 0; i < c0.size(); ++i) c0[i] = 0.5f * float(i % 13) - 2.0f;
    for (const float alpha : {std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                              std::numeric_limits<float>::quiet_NaN()})
        for (const float beta : {0.0f, -1.5f}) {
            INFO("alpha " << alpha << " beta " << beta);
            std::vector<float> ours = c0;
            blas_test::dppgemm_blas().sgemm("N", "N", &m, &n, &k, &alpha, a.data(), &lda, b.data(), &ldb, &beta,
                                            ours.data(), &ldc, 1, 1);
            for (int j = 0; j < n; ++j)
                for (int i = 0; i < ldc; ++i) {
                    const std::size_t at = i + std::size_t(j) * ldc;
                    CHECK(ours[at] == (i < m ? beta * c0[at] : c0[at]));
                }
            if (const blas_test::Blas* reference = blas_test::reference_blas()) {
                std::vector<float> theirs = c0;
                reference->sgemm("N", "N", &m, &n, &k, &alpha, a.data(), &lda, b.data(), &ldb, &beta, theirs.data(),
                                 &ldc, 1, 1);
                CHECK(ours == theirs);
            }
        }
}
