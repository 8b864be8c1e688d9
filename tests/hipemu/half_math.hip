// Packed and scalar half-precision math (hip_fp16.h): __hfma2, __h2div,
// h2sqrt, h2exp, h2log, __hmul2, __hsub2, hexp2, hcos, hfloor, __hdiv on
// gfx9's f16 and packed f16 instructions, against the host in float within
// f16 rounding (exact where the result is: scaling by 2, floor).
#define PROGRAM "half_math"
#include "hip_check.h"
#include <hip/hip_fp16.h>
#include <cmath>
#include <cstring>
#include <vector>
__global__ void k(const __half2* in, __half2* out, __half* hout, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half2 a = in[i], b = in[(i + 1) % n];
  out[8 * i + 0] = __hfma2(a, b, a);
  out[8 * i + 1] = __h2div(a, __habs2(b) + __float2half2_rn(1.0f));
  out[8 * i + 2] = h2sqrt(__habs2(a));
  out[8 * i + 3] = h2exp(a * __float2half2_rn(0.1f));
  out[8 * i + 4] = h2log(__habs2(a) + __float2half2_rn(0.5f));
  out[8 * i + 5] = __h2div(__float2half2_rn(1.0f), b + __float2half2_rn(8.0f));
  out[8 * i + 6] = __hmul2(a, __float2half2_rn(2.0f));
  out[8 * i + 7] = __hsub2(a, b);
  __half x = __low2half(a);
  hout[4 * i + 0] = hexp2(x * __float2half(0.25f));
  hout[4 * i + 1] = hcos(x);
  hout[4 * i + 2] = hfloor(x);
  hout[4 * i + 3] = __hdiv(x, __high2half(b) + __float2half(9.0f));
}
static float h(__half v) { return __half2float(v); }
int main() {
  const int n = 256;
  std::vector<__half2> in(n), out(8 * n); std::vector<__half> hout(4 * n);
  for (int i = 0; i < n; ++i) in[i] = __floats2half2_rn((i - 128) * 0.03125f, (i % 37) * 0.25f - 4.0f);
  __half2 *din, *dout; __half* dh;
  CHECK(hipMalloc(&din, n * 4)); CHECK(hipMalloc(&dout, 8 * n * 4)); CHECK(hipMalloc(&dh, 4 * n * 2));
  CHECK(hipMemcpy(din, in.data(), n * 4, hipMemcpyHostToDevice));
  k<<<n / 64, 64>>>(din, dout, dh, n);
  CHECK(hipDeviceSynchronize());
  CHECK(hipMemcpy(out.data(), dout, 8 * n * 4, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(hout.data(), dh, 4 * n * 2, hipMemcpyDeviceToHost));
  int bad = 0;
  auto near = [&](float got, float want, float tol, int i, int k) {
    if (!(std::fabs(got - want) <= tol * std::fmax(1.0f, std::fabs(want)))) { if (bad++ < 10) std::printf("half_math: %d of %d: %g, expected %g\n", k, i, got, want); }
  };
  for (int i = 0; i < n; ++i) {
    float a[2] = {h(__low2half(in[i])), h(__high2half(in[i]))}, b[2] = {h(__low2half(in[(i + 1) % n])), h(__high2half(in[(i + 1) % n]))};
    for (int p = 0; p < 2; ++p) {
      auto get = [&](int k) { return p ? h(__high2half(out[8 * i + k])) : h(__low2half(out[8 * i + k])); };
      near(get(0), std::fma(a[p], b[p], a[p]), 2e-3f, i, 0);
      near(get(1), a[p] / (std::fabs(b[p]) + 1.0f), 2e-3f, i, 1);
      near(get(2), std::sqrt(std::fabs(a[p])), 2e-3f, i, 2);
      near(get(3), std::exp(h(__float2half(a[p] * h(__float2half(0.1f))))), 3e-3f, i, 3);
      near(get(4), std::log(std::fabs(a[p]) + 0.5f), 3e-3f, i, 4);
      near(get(5), 1.0f / (b[p] + 8.0f), 2e-3f, i, 5);
      near(get(6), 2.0f * a[p], 0, i, 6);
      near(get(7), a[p] - b[p], 1e-3f, i, 7);
    }
    near(h(hout[4 * i]), std::exp2(h(__float2half(a[0] * 0.25f))), 3e-3f, i, 8);
    near(h(hout[4 * i + 1]), std::cos(a[0]), 3e-3f, i, 9);
    near(h(hout[4 * i + 2]), std::floor(a[0]), 0, i, 10);
    near(h(hout[4 * i + 3]), a[0] / (b[1] + 9.0f), 2e-3f, i, 11);
  }
  if (bad) return 1;
  std::printf("half_math: correct\n");
  return 0;
}
