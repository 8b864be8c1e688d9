#include "problem.hpp"

#include <algorithm>
#include <random>

namespace dppgemm::bench {

long long Problem::steps() const { return (m + 127LL) / 128 * ((n + 127LL) / 128) * ((k + 7LL) / 8); }

double Problem::steps_of(unsigned macro_tile) const {
    const long long t = macro_tile;
    const double share = double(t) * double(t) / (128.0 * 128.0);
    return double((m + t - 1) / t * ((n + t - 1) / t) * ((k + 7LL) / 8)) * share;
}

Problem make_problem(const BenchOptions& o, const Shape& s) {
    Problem p;
    p.ta = o.trans_a;
    p.tb = o.trans_b;
    p.m = s.m;
    p.n = s.n;
    p.k = s.k;
    p.alpha = o.alpha;
    p.beta = o.beta;
    p.lda = o.lda ? o.lda : std::max(1, p.ta == 'N' ? p.m : p.k);
    p.ldb = o.ldb ? o.ldb : std::max(1, p.tb == 'N' ? p.k : p.n);
    p.ldc = o.ldc ? o.ldc : std::max(1, p.m);
    return p;
}

MemoryNeed memory_need(const Problem& p) {
    const int cols_a = p.ta == 'N' ? p.k : p.m, cols_b = p.tb == 'N' ? p.n : p.k;
    const double a = double(p.lda) * std::max(cols_a, 1), b = double(p.ldb) * std::max(cols_b, 1),
                 c = double(p.ldc) * std::max(p.n, 1);
    constexpr double f = sizeof(float), d = sizeof(double);
    return {f * (a + b + c), f * (a + b + c) + 4 * f * c + d * c};
}

void fill_random(Problem& p, std::uint64_t seed) {
    const int cols_a = p.ta == 'N' ? p.k : p.m, cols_b = p.tb == 'N' ? p.n : p.k;
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    const auto fill = [&](std::vector<float>& v, std::size_t count) {
        v.resize(std::max<std::size_t>(count, 1));
        for (float& x : v) x = uniform(rng);
    };
    fill(p.a, std::size_t(p.lda) * std::max(cols_a, 0));
    fill(p.b, std::size_t(p.ldb) * std::max(cols_b, 0));
    fill(p.c0, std::size_t(p.ldc) * std::max(p.n, 0));
}

}  // namespace dppgemm::bench
