#include "verify.hpp"

#include "openblas.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

namespace dppgemm::bench {

namespace {

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0 || (std::isnan(a) && std::isnan(b)); }

std::string show(float v) {
    std::uint32_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    char text[48];
    std::snprintf(text, sizeof text, "%.9g [0x%08x]", double(v), bits);
    return text;
}

// Each of C and C_openblas is within gamma(K+3) * scale of the exact value
// (K products, K sums, alpha and beta), for every summation order, mac or fma;
// flushed denormals add at most one FLT_MIN per operation.
double error_bound(int k, double scale) {
    const double u = std::ldexp(1.0, -24), n = k + 3.0;
    const double gamma = n * u / (1 - n * u);
    return 2 * (gamma * scale + n * std::numeric_limits<float>::min());
}

double error_over_bound(float got, float expected, int k, double scale) {
    if (!std::isfinite(got) || !std::isfinite(expected))
        return same_bits(got, expected) ? 0 : std::numeric_limits<double>::infinity();
    return std::fabs(double(got) - double(expected)) / error_bound(k, scale);
}

}  // namespace

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t h = v.size() / 2;
    return v.size() % 2 ? v[h] : (v[h - 1] + v[h]) / 2;
}

std::vector<double> error_scales(const Problem& p) {
    const auto absolute = [](const std::vector<float>& v) {
        std::vector<double> out(v.size());
        std::transform(v.begin(), v.end(), out.begin(), [](float x) { return std::fabs(double(x)); });
        return out;
    };
    const std::vector<double> a = absolute(p.a), b = absolute(p.b);
    std::vector<double> scale = absolute(p.c0);
    if (p.m == 0 || p.n == 0) return scale;
    openblas().dgemm(CblasColMajor, p.ta == 'N' ? CblasNoTrans : CblasTrans, p.tb == 'N' ? CblasNoTrans : CblasTrans,
                     p.m, p.n, p.k, std::fabs(double(p.alpha)), a.data(), p.lda, b.data(), p.ldb,
                     std::fabs(double(p.beta)), scale.data(), p.ldc);
    return scale;
}

std::vector<float> openblas_sgemm(const Problem& p, int warmup, int runs, double& median_ms) {
    std::vector<float> c;
    std::vector<double> ms;
    for (int run = 0; run < warmup + runs; ++run) {
        c = p.c0;
        const auto start = std::chrono::steady_clock::now();
        openblas().sgemm(CblasColMajor, p.ta == 'N' ? CblasNoTrans : CblasTrans,
                         p.tb == 'N' ? CblasNoTrans : CblasTrans, p.m, p.n, p.k, p.alpha, p.a.data(), p.lda, p.b.data(),
                         p.ldb, p.beta, c.data(), p.ldc);
        const auto stop = std::chrono::steady_clock::now();
        if (run >= warmup) ms.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
    }
    median_ms = median(ms);
    return c;
}

Verification verify_result(const Problem& p, const std::vector<float>& c, const std::vector<float>& c_same_order,
                           const std::vector<float>& c_openblas, const std::vector<double>& scales) {
    Verification v;
    v.enabled = true;
    for (int col = 0; col < p.n; ++col)
        for (int row = 0; row < p.m; ++row) {
            const std::size_t at = p.at(row, col);
            if (!same_bits(c[at], c_same_order[at]) && v.bitwise_mismatches++ == 0)
                v.first_bitwise_mismatch = Difference{row, col, c[at], c_same_order[at]};
            const double ratio = error_over_bound(c[at], c_openblas[at], p.k, scales[at]);
            if (!v.worst_vs_openblas || ratio > v.max_error_over_bound) {
                v.max_error_over_bound = ratio;
                v.worst_vs_openblas = Difference{row, col, c[at], c_openblas[at]};
            }
        }
    return v;
}

std::string failure_message(const std::string& variant, const std::string& target, const Verification& check) {
    if (check.passed()) return "";
    std::ostringstream s;
    s << variant << " on " << target << ":";
    if (const auto& d = check.first_bitwise_mismatch)
        s << " C(" << d->row << "," << d->col << ") = " << show(d->got) << " but the same-order reference gives "
          << show(d->expected) << " (first of " << check.bitwise_mismatches << " bitwise mismatches);";
    if (check.max_error_over_bound > 1.0 && check.worst_vs_openblas) {
        const Difference& d = *check.worst_vs_openblas;
        s << " C(" << d.row << "," << d.col << ") = " << show(d.got) << " is " << check.max_error_over_bound
          << " times the error bound away from OpenBLAS's " << show(d.expected) << ";";
    }
    std::string text = s.str();
    text.pop_back();
    return text;
}

}  // namespace dppgemm::bench
