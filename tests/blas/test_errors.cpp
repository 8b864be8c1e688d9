// Illegal arguments: libdppgemm-blas calls xerbla_("SGEMM ", position) with
// the reference SGEMM position of the column-major call (0 for a bad CBLAS
// order, as OpenBLAS), once, and leaves C untouched. Netlib's reference BLAS
// and CBLAS reports the same xerbla_ call wherever it calls xerbla_; where
// reference CBLAS calls cblas_xerbla instead (bad order or transpose), the
// table says with which position. OpenBLAS agrees except where it accepts
// more than reference BLAS does.
#include <catch2/catch.hpp>

#include <cblas.h>

#include "blas_under_test.hpp"

#include <cstring>
#include <vector>

using blas_test::Blas;
using blas_test::ErrorReport;

namespace {

// Large enough for every matrix below (dimensions and leading dimensions <= 7).
constexpr std::size_t kElements = 64;

struct Buffers {
    std::vector<float> a = std::vector<float>(kElements, 0.25f);
    std::vector<float> b = std::vector<float>(kElements, -0.5f);
    std::vector<float> c;
    Buffers() {
        for (std::size_t i = 0; i < kElements; ++i) c.push_back(float(i) + 0.125f);
    }
};

struct FortranCase {
    const char* what;
    char trans_a, trans_b;
    int m, n, k, lda, ldb, ldc;
    int position;
    bool openblas_agrees;
};

const FortranCase kFortranCases[] = {
    {"transA 'X'", 'X', 'N', 4, 5, 6, 4, 6, 4, 1, true},
    {"transA 'R' (OpenBLAS reads it as 'N')", 'R', 'N', 4, 5, 6, 4, 6, 4, 1, false},
    {"transB '?'", 'N', '?', 4, 5, 6, 4, 6, 4, 2, true},
    {"both transposes illegal", 'x', 'y', 4, 5, 6, 4, 6, 4, 1, true},
    {"M < 0", 'N', 'N', -1, 5, 6, 4, 6, 4, 3, true},
    {"N < 0", 'n', 't', 4, -5, 6, 4, 6, 4, 4, true},
    {"K < 0", 'T', 'N', 4, 5, -6, 4, 6, 4, 5, true},
    {"M < 0 and lda = 0: the first wins", 'N', 'N', -1, 5, 6, 0, 6, 4, 3, true},
    {"lda < M", 'N', 'N', 4, 5, 6, 3, 6, 4, 8, true},
    {"lda < K, A transposed", 'c', 'N', 4, 5, 6, 5, 6, 4, 8, true},
    {"lda = 0 with M = 0 (lda >= max(1, M))", 'N', 'N', 0, 5, 6, 0, 6, 1, 8, false},
    {"ldb < K", 'N', 'N', 4, 5, 6, 4, 5, 4, 10, true},
    {"ldb < N, B transposed", 'N', 'C', 4, 5, 6, 4, 4, 4, 10, true},
    {"ldb = 0 with K = 0 (ldb >= max(1, K))", 'N', 'N', 4, 5, 0, 4, 0, 4, 10, false},
    {"ldc < M", 'N', 'N', 4, 5, 6, 4, 6, 3, 13, true},
    {"ldc = 0 with M = 0 (ldc >= max(1, M))", 'N', 'N', 0, 5, 6, 1, 6, 0, 13, false},
};

struct CblasCase {
    const char* what;
    int order, trans_a, trans_b;
    int m, n, k, lda, ldb, ldc;
    int position;
    int reference_cblas_xerbla;  // position reference CBLAS gives cblas_xerbla; 0: it calls xerbla_ as we do
    bool openblas_agrees;
};

constexpr int kRow = CblasRowMajor, kCol = CblasColMajor;
// Reference CBLAS up to LAPACK 3.11 reports a bad row-major TransB as
// parameter 2, later releases as 3: compared with either.
constexpr int kTransBPositionByRelease = -1;
constexpr int kN = CblasNoTrans, kT = CblasTrans, kC = CblasConjTrans, kBadTranspose = 110;

const CblasCase kCblasCases[] = {
    {"order 100", 100, kN, kN, 4, 5, 6, 6, 5, 5, 0, 1, true},
    {"column-major, TransA 110", kCol, kBadTranspose, kN, 4, 5, 6, 4, 6, 4, 1, 2, true},
    {"column-major, TransB 110", kCol, kN, kBadTranspose, 4, 5, 6, 4, 6, 4, 2, 3, true},
    {"column-major, TransA CblasConjNoTrans (OpenBLAS takes it)", kCol, CblasConjNoTrans, kN, 4, 5, 6, 4, 6, 4, 1, 2,
     false},
    {"row-major, TransA 110", kRow, kBadTranspose, kN, 4, 5, 6, 6, 5, 5, 2, 2, true},
    {"row-major, TransB 110", kRow, kN, kBadTranspose, 4, 5, 6, 6, 5, 5, 1, kTransBPositionByRelease, true},
    {"column-major, M < 0", kCol, kN, kN, -4, 5, 6, 4, 6, 4, 3, 0, true},
    {"row-major, M < 0", kRow, kN, kN, -4, 5, 6, 6, 5, 5, 4, 0, true},
    {"column-major, N < 0", kCol, kT, kN, 4, -5, 6, 6, 6, 4, 4, 0, true},
    {"row-major, N < 0", kRow, kT, kN, 4, -5, 6, 4, 5, 5, 3, 0, true},
    {"row-major, M < 0 and N < 0", kRow, kN, kN, -4, -5, 6, 6, 5, 5, 3, 0, true},
    {"column-major, K < 0", kCol, kN, kC, 4, 5, -6, 4, 5, 4, 5, 0, true},
    {"row-major, K < 0", kRow, kN, kN, 4, 5, -6, 6, 5, 5, 5, 0, true},
    {"column-major, lda < M", kCol, kN, kN, 4, 5, 6, 3, 6, 4, 8, 0, true},
    {"row-major, lda < K", kRow, kN, kN, 4, 5, 6, 5, 5, 5, 10, 0, true},
    {"row-major, lda < M, A transposed", kRow, kT, kN, 4, 5, 6, 3, 5, 5, 10, 0, true},
    {"column-major, ldb < K", kCol, kN, kN, 4, 5, 6, 4, 5, 4, 10, 0, true},
    {"row-major, ldb < N", kRow, kN, kN, 4, 5, 6, 6, 4, 5, 8, 0, true},
    {"row-major, ldb < K, B transposed", kRow, kN, kC, 4, 5, 6, 6, 5, 5, 8, 0, true},
    {"column-major, ldc < M", kCol, kN, kN, 4, 5, 6, 4, 6, 3, 13, 0, true},
    {"row-major, ldc < N", kRow, kN, kN, 4, 5, 6, 6, 5, 4, 13, 0, true},
    {"column-major, ldc = 0 with M = 0", kCol, kN, kN, 0, 5, 6, 1, 6, 0, 13, 0, false},
};

// The error reports one call made, and whether it left C as it was.
struct Outcome {
    std::vector<ErrorReport> reports;
    bool c_untouched;
};

Outcome call(const Blas& blas, const FortranCase& x) {
    Buffers buffers;
    const std::vector<float> c_before = buffers.c;
    const float alpha = 1.0f, beta = 0.5f;
    blas_test::take_error_reports();
    blas.sgemm(&x.trans_a, &x.trans_b, &x.m, &x.n, &x.k, &alpha, buffers.a.data(), &x.lda, buffers.b.data(), &x.ldb,
               &beta, buffers.c.data(), &x.ldc, 1, 1);
    return {blas_test::take_error_reports(), buffers.c == c_before};
}

Outcome call(const Blas& blas, const CblasCase& x) {
    Buffers buffers;
    const std::vector<float> c_before = buffers.c;
    blas_test::take_error_reports();
    blas.cblas_sgemm(x.order, x.trans_a, x.trans_b, x.m, x.n, x.k, 1.0f, buffers.a.data(), x.lda, buffers.b.data(),
                     x.ldb, 0.5f, buffers.c.data(), x.ldc);
    return {blas_test::take_error_reports(), buffers.c == c_before};
}

std::vector<ErrorReport> xerbla(int position) { return {{"xerbla_", "SGEMM", position}}; }

bool reference_agrees(const FortranCase&, const std::vector<ErrorReport>& ours,
                      const std::vector<ErrorReport>& theirs) {
    return theirs == ours;
}

// What reference CBLAS reports for a case: our xerbla_ call, or its own
// cblas_xerbla call.
bool reference_agrees(const CblasCase& x, const std::vector<ErrorReport>& ours,
                      const std::vector<ErrorReport>& theirs) {
    if (!x.reference_cblas_xerbla) return theirs == ours;
    const auto cblas_xerbla = [](int position) {
        return std::vector<ErrorReport>{{"cblas_xerbla", "cblas_sgemm", position}};
    };
    if (x.reference_cblas_xerbla == kTransBPositionByRelease)
        return theirs == cblas_xerbla(2) || theirs == cblas_xerbla(3);
    return theirs == cblas_xerbla(x.reference_cblas_xerbla);
}

}  // namespace

namespace Catch {
template <>
struct StringMaker<ErrorReport> {
    static std::string convert(const ErrorReport& r) {
        return r.handler + "(\"" + r.routine + "\", " + std::to_string(r.position) + ")";
    }
};
}  // namespace Catch

namespace {

template <typename Case>
void check_illegal(const Case& x) {
    INFO(x.what);
    const Outcome ours = call(blas_test::dppgemm_blas(), x);
    CHECK(ours.reports == xerbla(x.position));
    CHECK(ours.c_untouched);
    if (const Blas* reference = blas_test::reference_blas()) {
        const Outcome theirs = call(*reference, x);
        INFO("reference BLAS reported " << Catch::Detail::stringify(theirs.reports));
        CHECK(reference_agrees(x, ours.reports, theirs.reports));
        CHECK(theirs.c_untouched);
    }
    if (x.openblas_agrees) CHECK(call(blas_test::openblas(), x).reports == ours.reports);
}

}  // namespace

TEST_CASE("sgemm_: each illegal argument goes to xerbla_ at its reference position, C untouched") {
    for (const FortranCase& x : kFortranCases) check_illegal(x);
}

TEST_CASE("cblas_sgemm: each illegal argument goes to xerbla_ at the position of the column-major call") {
    for (const CblasCase& x : kCblasCases) check_illegal(x);
}

TEST_CASE("legal calls report nothing, including the edge of every leading-dimension rule") {
    const FortranCase legal[] = {
        {"lda = M", 'N', 'N', 4, 5, 6, 4, 6, 4, 0, true},
        {"lda = K, A transposed; ldb = N, B transposed", 'T', 'T', 4, 5, 6, 6, 5, 4, 0, true},
        {"M = N = K = 0 with every ld = 1", 'N', 'N', 0, 0, 0, 1, 1, 1, 0, true},
    };
    for (const FortranCase& x : legal) {
        INFO(x.what);
        CHECK(call(blas_test::dppgemm_blas(), x).reports.empty());
    }
    const CblasCase row_major{"row-major, lda = K, ldb = N, ldc = N", kRow, kN, kN, 4, 5, 6, 6, 5, 5, 0, 0, true};
    const Outcome outcome = call(blas_test::dppgemm_blas(), row_major);
    CHECK(outcome.reports.empty());
    CHECK_FALSE(outcome.c_untouched);
}

// Reference BLAS and OpenBLAS would crash on a null matrix the call reads or
// writes; libdppgemm-blas reports it as illegal at the matrix's position (A 7,
// B 9, C 12 of the column-major call) and touches nothing, whatever the
// threshold (a call below it would otherwise reach the next BLAS and crash).
TEST_CASE("a null matrix the call would read or write goes to xerbla_ at its position") {
    const Blas& ours = blas_test::dppgemm_blas();
    Buffers buffers;
    const std::vector<float> c_before = buffers.c;
    const int two = 2, three = 3, zero_size = 0;
    const float one = 1.0f, zero = 0.0f;
    const float* a = buffers.a.data();
    const float* b = buffers.b.data();
    blas_test::take_error_reports();
    ours.sgemm("N", "N", &two, &two, &two, &one, nullptr, &two, b, &two, &zero, buffers.c.data(), &two, 1, 1);
    CHECK(blas_test::take_error_reports() == xerbla(7));
    ours.sgemm("N", "T", &two, &three, &two, &one, a, &two, nullptr, &three, &zero, buffers.c.data(), &two, 1, 1);
    CHECK(blas_test::take_error_reports() == xerbla(9));
    ours.sgemm("T", "N", &two, &two, &two, &zero, a, &two, b, &two, &zero, nullptr, &two, 1, 1);
    CHECK(blas_test::take_error_reports() == xerbla(12));
    // Row-major: A and B are B and A of the column-major call.
    ours.cblas_sgemm(kRow, kN, kN, 2, 3, 4, 1.0f, nullptr, 4, b, 3, 0.0f, buffers.c.data(), 3);
    CHECK(blas_test::take_error_reports() == xerbla(9));
    ours.cblas_sgemm(kRow, kN, kN, 2, 3, 4, 1.0f, a, 4, nullptr, 3, 0.0f, buffers.c.data(), 3);
    CHECK(blas_test::take_error_reports() == xerbla(7));
    // The reference checks come first: lda < M wins over the null A.
    const int one_int = 1;
    ours.sgemm("N", "N", &two, &two, &two, &one, nullptr, &one_int, b, &two, &zero, buffers.c.data(), &two, 1, 1);
    CHECK(blas_test::take_error_reports() == xerbla(8));
    CHECK(buffers.c == c_before);
    // Nothing read or written, nothing illegal: M = 0, and alpha = 0 with beta = 1.
    ours.sgemm("N", "N", &zero_size, &two, &two, &one, nullptr, &one_int, nullptr, &two, &zero, nullptr, &one_int, 1,
               1);
    ours.sgemm("N", "N", &two, &two, &two, &zero, nullptr, &two, nullptr, &two, &one, nullptr, &two, 1, 1);
    CHECK(blas_test::take_error_reports().empty());
}
