// Random column-major SGEMM problems for the host API tests.
#pragma once

#include <cstring>
#include <random>
#include <vector>

#include "dppgemm/dppgemm.hpp"

struct Problem {
    char ta, tb;
    int m, n, k, lda, ldb, ldc;
    float alpha, beta;
    std::vector<float> a, b, c;

    // op(A) is m x k, op(B) k x n; each leading dimension `pad` beyond its minimum.
    static Problem random(char ta, char tb, int m, int n, int k, int pad, unsigned seed) {
        Problem p{ta, tb, m, n, k, 0, 0, 0, 0.75f, -1.25f, {}, {}, {}};
        const bool a_t = ta == 'T', b_t = tb == 'T';
        p.lda = (a_t ? k : m) + pad;
        p.ldb = (b_t ? n : k) + pad;
        p.ldc = m + pad;
        std::mt19937 rng(seed);
        std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
        const auto fill = [&](std::vector<float>& v, std::size_t count) {
            v.resize(count);
            for (float& x : v) x = dist(rng);
        };
        fill(p.a, std::size_t(p.lda) * (a_t ? m : k));
        fill(p.b, std::size_t(p.ldb) * (b_t ? k : n));
        fill(p.c, std::size_t(p.ldc) * n);
        return p;
    }

    dppgemm::Result run(std::vector<float>& c_out, const dppgemm::Options& options) const {
        c_out = c;
        return dppgemm::sgemm(ta, tb, m, n, k, alpha, a.data(), lda, b.data(), ldb, beta, c_out.data(), ldc, options);
    }
};

inline bool bitwise_equal(const std::vector<float>& x, const std::vector<float>& y) {
    return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(float)) == 0;
}
