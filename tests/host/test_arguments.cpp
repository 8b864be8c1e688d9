// Argument checking and quick returns follow reference BLAS SGEMM exactly.
#include <catch2/catch.hpp>

#include "dppgemm/dppgemm.hpp"

using dppgemm::check_sgemm_arguments;
using dppgemm::Status;

namespace {

int position(char ta, char tb, int m, int n, int k, int lda, int ldb, int ldc) {
    const auto r = check_sgemm_arguments(ta, tb, m, n, k, 1.0f, lda, ldb, 0.0f, ldc);
    if (r.status == Status::success) return 0;
    CHECK(r.status == Status::invalid_argument);
    CHECK(r.message.find("parameter " + std::to_string(r.invalid_argument)) != std::string::npos);
    return r.invalid_argument;
}

}  // namespace

TEST_CASE("each illegal argument is reported at its BLAS position") {
    CHECK(position('N', 'N', 4, 5, 6, 4, 6, 4) == 0);
    CHECK(position('X', 'N', 4, 5, 6, 4, 6, 4) == 1);
    CHECK(position('N', '?', 4, 5, 6, 4, 6, 4) == 2);
    CHECK(position('N', 'N', -1, 5, 6, 4, 6, 4) == 3);
    CHECK(position('N', 'N', 4, -5, 6, 4, 6, 4) == 4);
    CHECK(position('N', 'N', 4, 5, -6, 4, 6, 4) == 5);
    CHECK(position('N', 'N', 4, 5, 6, 3, 6, 4) == 8);  // lda < M
    CHECK(position('T', 'N', 4, 5, 6, 5, 6, 4) == 8);  // lda < K when A is transposed
    CHECK(position('T', 'N', 4, 5, 6, 6, 6, 4) == 0);
    CHECK(position('N', 'N', 4, 5, 6, 4, 5, 4) == 10);  // ldb < K
    CHECK(position('N', 'T', 4, 5, 6, 4, 4, 4) == 10);  // ldb < N when B is transposed
    CHECK(position('N', 'T', 4, 5, 6, 4, 5, 4) == 0);
    CHECK(position('N', 'N', 4, 5, 6, 4, 6, 3) == 13);  // ldc < M
    CHECK(position('N', 'N', 0, 0, 0, 0, 1, 1) == 8);   // max(1, 0): a zero ld is illegal
    CHECK(position('N', 'N', 0, 0, 0, 1, 1, 1) == 0);
    // the first illegal argument wins, as in xerbla
    CHECK(position('X', 'Y', -1, -1, -1, 0, 0, 0) == 1);
    CHECK(position('n', 't', -1, -1, -1, 0, 0, 0) == 3);
    CHECK(position('c', 'C', 2, 2, 2, 1, 1, 1) == 8);  // 'C' is a transpose for real data
}

TEST_CASE("quick returns are the reference BLAS ones") {
    const auto quick = [](int m, int n, int k, float alpha, float beta) {
        const auto r = check_sgemm_arguments('N', 'N', m, n, k, alpha, 8, 8, beta, 8);
        REQUIRE(r.status == Status::success);
        return r.quick_return;
    };
    CHECK(quick(0, 5, 5, 1, 0));
    CHECK(quick(5, 0, 5, 1, 0));
    CHECK(quick(5, 5, 5, 0, 1));
    CHECK(quick(5, 5, 0, 2, 1));
    CHECK_FALSE(quick(5, 5, 0, 2, 0));    // K = 0, beta = 0: C must become 0
    CHECK_FALSE(quick(5, 5, 5, 0, 0.5));  // alpha = 0: C = beta C
    CHECK_FALSE(quick(5, 5, 5, 1, 1));
}
