#include "dppgemm/reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <thread>
#include <vector>

namespace dppgemm {

float flush_denormal(float x) { return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x; }

float mul_f32_ftz(float a, float b) {
    const volatile float product = flush_denormal(a) * flush_denormal(b);  // no contraction
    return flush_denormal(product);
}

float mac_f32_ftz(float acc, float a, float b) {
    const volatile float sum = mul_f32_ftz(a, b) + flush_denormal(acc);
    return flush_denormal(sum);
}

float fmac_f32_ftz(float acc, float a, float b) {
    return flush_denormal(std::fma(flush_denormal(a), flush_denormal(b), flush_denormal(acc)));
}

namespace {

bool is_zero(float x) {
    std::uint32_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    return (bits & 0x7fffffffu) == 0;
}

constexpr int kUnroll = 8;
// Rows of one C column computed together: independent accumulation chains the
// compiler turns into vector lanes. Each element still sees its own k order.
constexpr int kRows = 32;

// flush_denormal without a branch, so that the row loops vectorize.
inline float flush_lane(float x) {
    std::uint32_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    bits = (bits & 0x7f800000u) ? bits : (bits & 0x80000000u);
    std::memcpy(&x, &bits, sizeof x);
    return x;
}

// op(A) copied (and flushed, as the kernels flush inputs) into row blocks of
// kRows, k-major inside a block; k past K and rows past M are +0.
struct PackedA {
    int padded_k = 0, blocks = 0;
    std::vector<float> values;
    const float* block(int b) const { return values.data() + std::size_t(b) * padded_k * kRows; }
};

PackedA pack_a(bool ta, bool flush, int m, int k, int padded_k, const float* a, int lda) {
    PackedA p;
    p.padded_k = padded_k;
    p.blocks = (m + kRows - 1) / kRows;
    p.values.assign(std::size_t(p.blocks) * padded_k * kRows, 0.0f);
    for (int row = 0; row < m; ++row)
        for (int i = 0; i < k; ++i) {
            const float v = ta ? a[i + std::int64_t(row) * lda] : a[row + std::int64_t(i) * lda];
            p.values[(std::size_t(row / kRows) * padded_k + i) * kRows + row % kRows] = flush ? flush_lane(v) : v;
        }
    return p;
}

// One column of op(B), flushed when `flush`, +0 past K.
void pack_b_column(bool tb, bool flush, int k, int col, const float* b, int ldb, std::vector<float>& out) {
    std::fill(out.begin(), out.end(), 0.0f);
    for (int i = 0; i < k; ++i) {
        const float v = tb ? b[col + std::int64_t(i) * ldb] : b[i + std::int64_t(col) * ldb];
        out[i] = flush ? flush_lane(v) : v;
    }
}

// acc = mac(acc, a, b) per lane, exactly as mac_f32_ftz / fmac_f32_ftz (inputs already flushed).
template <MacKind kMac>
inline void mac_rows(float* acc, const float* a, float b) {
    for (int r = 0; r < kRows; ++r) {
        if constexpr (kMac == MacKind::mac_f32) acc[r] = flush_lane(flush_lane(a[r] * b) + acc[r]);
        else if constexpr (kMac == MacKind::fmac_f32) acc[r] = flush_lane(std::fma(a[r], b, acc[r]));
        else acc[r] = std::fma(a[r], b, acc[r]);
    }
}

template <MacKind kMac>
inline void column_block(const float* a_block, const float* b_column, int padded_k, float* acc) {
    std::fill(acc, acc + kRows, 0.0f);
    for (int i = 0; i < padded_k; ++i) mac_rows<kMac>(acc, a_block + std::size_t(i) * kRows, b_column[i]);
}

// Compiled for AVX2+FMA as well, picked at run time; the same IEEE operations either way.
__attribute__((target_clones("arch=x86-64-v3", "default"))) void column_block_mac(const float* a_block,
                                                                                  const float* b_column, int padded_k,
                                                                                  float* acc) {
    column_block<MacKind::mac_f32>(a_block, b_column, padded_k, acc);
}

__attribute__((target_clones("arch=x86-64-v3", "default"))) void column_block_fmac(const float* a_block,
                                                                                   const float* b_column, int padded_k,
                                                                                   float* acc) {
    column_block<MacKind::fmac_f32>(a_block, b_column, padded_k, acc);
}

__attribute__((target_clones("arch=x86-64-v3", "default"))) void column_block_fmac_denormals(const float* a_block,
                                                                                             const float* b_column,
                                                                                             int padded_k, float* acc) {
    column_block<MacKind::fmac_f32_denormals>(a_block, b_column, padded_k, acc);
}

// The epilogue's steps in the kernel's denormal mode.
float mul_ieee(float a, float b) {
    const volatile float product = a * b;  // no contraction
    return product;
}

float fmac_ieee(float acc, float a, float b) { return std::fma(a, b, acc); }

float add_zero_ftz(float x) { return flush_denormal(x + 0.0f); }

float add_zero_ieee(float x) {
    const volatile float sum = x + 0.0f;
    return sum;
}

struct Problem {
    MacKind mac;
    bool ta, tb, no_products;
    int m, k;
    float alpha;
    const float* b;
    int ldb;
    float beta;
    float* c;
    int ldc;
};

void columns(const Problem& p, const PackedA& a, int first_col, int end_col) {
    const bool ieee = p.mac == MacKind::fmac_f32_denormals;
    const auto step = p.mac == MacKind::mac_f32 ? mac_f32_ftz : ieee ? fmac_ieee : fmac_f32_ftz;
    const auto mul = ieee ? mul_ieee : mul_f32_ftz;
    const auto add_zero = ieee ? add_zero_ieee : add_zero_ftz;
    const auto block = p.mac == MacKind::mac_f32 ? column_block_mac
                       : ieee                    ? column_block_fmac_denormals
                                                 : column_block_fmac;
    std::vector<float> b_column(std::max(a.padded_k, 1));
    float acc[kRows];
    for (int col = first_col; col < end_col; ++col) {
        pack_b_column(p.tb, !ieee, p.k, col, p.b, p.ldb, b_column);
        for (int blk = 0; blk < a.blocks; ++blk) {
            block(a.block(blk), b_column.data(), a.padded_k, acc);
            const int rows = std::min(kRows, p.m - blk * kRows);
            for (int r = 0; r < rows; ++r) {
                float& out = p.c[blk * kRows + r + std::int64_t(col) * p.ldc];
                if (p.no_products) {
                    out = is_zero(p.beta) ? 0.0f : mul(p.beta, out);
                    continue;
                }
                float result = mul(p.alpha, acc[r]);
                if (!is_zero(p.beta)) result = step(result, p.beta, out);
                else if (!p.ta) result = add_zero(result);
                out = result;
            }
        }
    }
}

}  // namespace

void reference_sgemm(MacKind mac, char trans_a, char trans_b, int m, int n, int k, float alpha, const float* a, int lda,
                     const float* b, int ldb, float beta, float* c, int ldc) {
    if (m <= 0 || n <= 0) return;
    const bool ta = trans_a == 'T' || trans_a == 't';
    const bool tb = trans_b == 'T' || trans_b == 't';
    const bool no_products = is_zero(alpha) || (k == 0 && !ta);
    const int padded_k = no_products ? 0 : (k + kUnroll - 1) / kUnroll * kUnroll;
    const bool flush = mac != MacKind::fmac_f32_denormals;
    const PackedA packed = pack_a(ta, flush, m, padded_k ? k : 0, padded_k, a, lda);
    const Problem problem{mac, ta, tb, no_products, m, padded_k ? k : 0, alpha, b, ldb, beta, c, ldc};

    // Columns are independent: split them across threads when the work pays for them.
    const double work = double(m) * n * std::max(padded_k, 1);
    const int threads = int(std::clamp<double>(work / 4e6, 1, std::max(1u, std::thread::hardware_concurrency())));
    const int per_thread = (n + threads - 1) / threads;
    std::vector<std::thread> pool;
    for (int first = per_thread; first < n; first += per_thread)
        pool.emplace_back(columns, std::cref(problem), std::cref(packed), first, std::min(n, first + per_thread));
    columns(problem, packed, 0, std::min(n, per_thread));
    for (std::thread& t : pool) t.join();
}

}  // namespace dppgemm
