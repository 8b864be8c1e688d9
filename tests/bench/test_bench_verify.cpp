// dppgemm-bench's checks: a wrong C is reported with the variant, the target,
// the first mismatching (row, col) and both values.
#include <catch2/catch.hpp>

#include "dppgemm/reference.hpp"
#include "verify.hpp"

#include <string>

using namespace dppgemm;
using namespace dppgemm::bench;

namespace {

Problem small_problem() {
    BenchOptions options;
    options.beta = 0.5f;
    Problem p = make_problem(options, Shape{5, 3, 9});
    fill_random(p, 42);
    return p;
}

std::vector<float> same_order(const Problem& p) {
    std::vector<float> c = p.c0;
    reference_sgemm(MacKind::mac_f32, p.ta, p.tb, p.m, p.n, p.k, p.alpha, p.a.data(), p.lda, p.b.data(), p.ldb, p.beta,
                    c.data(), p.ldc);
    return c;
}

}  // namespace

TEST_CASE("the same-order result passes both checks") {
    const Problem p = small_problem();
    double ms = 0;
    const std::vector<float> expected = same_order(p);
    const Verification v = verify_result(p, expected, expected, openblas_sgemm(p, 0, 1, ms), error_scales(p));
    CHECK(v.passed());
    CHECK(v.bitwise_mismatches == 0);
    CHECK(v.max_error_over_bound < 1.0);
    CHECK(failure_message("dpp1", "gfx906", v).empty());
}

TEST_CASE("a one-ulp difference fails bitwise and names variant, target, position and values") {
    const Problem p = small_problem();
    double ms = 0;
    const std::vector<float> expected = same_order(p);
    std::vector<float> c = expected;
    c[p.at(2, 1)] = std::nextafter(c[p.at(2, 1)], 100.0f);
    c[p.at(4, 2)] = std::nextafter(c[p.at(4, 2)], 100.0f);
    const Verification v = verify_result(p, c, expected, openblas_sgemm(p, 0, 1, ms), error_scales(p));
    CHECK(!v.passed());
    CHECK(v.bitwise_mismatches == 2);
    REQUIRE(v.first_bitwise_mismatch);
    CHECK(v.first_bitwise_mismatch->row == 2);
    CHECK(v.first_bitwise_mismatch->col == 1);
    CHECK(v.max_error_over_bound <= 1.0);  // within rounding error of OpenBLAS all the same

    const std::string message = failure_message("dpp1", "gfx906", v);
    CAPTURE(message);
    CHECK(message.find("dpp1 on gfx906") == 0);
    CHECK(message.find("C(2,1)") != std::string::npos);
    char got[32], want[32];
    std::snprintf(got, sizeof got, "%.9g", double(c[p.at(2, 1)]));
    std::snprintf(want, sizeof want, "%.9g", double(expected[p.at(2, 1)]));
    CHECK(message.find(got) != std::string::npos);
    CHECK(message.find(want) != std::string::npos);
    CHECK(message.find("first of 2") != std::string::npos);
}

TEST_CASE("an error beyond the rounding bound fails against OpenBLAS too") {
    const Problem p = small_problem();
    double ms = 0;
    std::vector<float> expected = same_order(p);
    std::vector<float> c = expected;
    c[p.at(3, 0)] += 0.01f;
    const Verification v = verify_result(p, c, expected, openblas_sgemm(p, 0, 1, ms), error_scales(p));
    CHECK(!v.passed());
    CHECK(v.max_error_over_bound > 1.0);
    REQUIRE(v.worst_vs_openblas);
    CHECK(v.worst_vs_openblas->row == 3);
    CHECK(v.worst_vs_openblas->col == 0);
    const std::string message = failure_message("dpp2", "gfx942", v);
    CAPTURE(message);
    CHECK(message.find("dpp2 on gfx942") == 0);
    CHECK(message.find("error bound away from OpenBLAS") != std::string::npos);
}

TEST_CASE("two NaNs compare equal, a NaN and a number do not") {
    Problem p = small_problem();
    double ms = 0;
    std::vector<float> expected = same_order(p);
    const std::vector<float> c_blas = openblas_sgemm(p, 0, 1, ms);
    std::vector<float> c = expected;
    c[p.at(0, 0)] = std::nanf("");
    expected[p.at(0, 0)] = -std::nanf("");
    CHECK(verify_result(p, c, expected, c, error_scales(p)).bitwise_mismatches == 0);
    CHECK(!verify_result(p, c, same_order(p), c_blas, error_scales(p)).passed());
}

TEST_CASE("median of the timed runs") {
    CHECK(median({3, 1, 2}) == 2);
    CHECK(median({4, 1, 3, 2}) == 2.5);
    CHECK(median({}) == 0);
}
