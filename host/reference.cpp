#include "dppgemm/reference.hpp"

#include <cmath>
#include <cstring>

namespace dppgemm {

float flush_denormal(float x) {
  return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x;
}

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

}  // namespace

void reference_sgemm(MacKind mac, char trans_a, char trans_b, int m, int n, int k, float alpha,
                     const float* a, int lda, const float* b, int ldb, float beta, float* c,
                     int ldc) {
  const bool ta = trans_a == 'T' || trans_a == 't';
  const bool tb = trans_b == 'T' || trans_b == 't';
  const auto op_a = [&](int row, int col) {
    return ta ? a[col + std::int64_t(row) * lda] : a[row + std::int64_t(col) * lda];
  };
  const auto op_b = [&](int row, int col) {
    return tb ? b[col + std::int64_t(row) * ldb] : b[row + std::int64_t(col) * ldb];
  };
  const auto step = mac == MacKind::mac_f32 ? mac_f32_ftz : fmac_f32_ftz;
  const int padded_k = is_zero(alpha) ? 0 : (k + kUnroll - 1) / kUnroll * kUnroll;
  for (int col = 0; col < n; ++col)
    for (int row = 0; row < m; ++row) {
      float acc = 0.0f;
      for (int i = 0; i < padded_k; ++i)
        acc = i < k ? step(acc, op_a(row, i), op_b(i, col)) : step(acc, 0.0f, 0.0f);
      float& out = c[row + std::int64_t(col) * ldc];
      float r = mul_f32_ftz(alpha, acc);
      if (!is_zero(beta)) r = step(r, beta, out);
      out = r;
    }
}

}  // namespace dppgemm
