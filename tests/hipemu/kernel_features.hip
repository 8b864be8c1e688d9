// Kernel features tutorials lean on: a __device__ lambda launched through a
// template kernel, private arrays indexed at run time (scratch) in
// 1024-work-item workgroups, 18 by-value arguments including a 208-byte
// struct, hipFloatComplex arithmetic, a workgroup using all 64 KiB of LDS.
#define PROGRAM "kernel_features"
#include "hip_check.h"
#include <hip/hip_complex.h>
#include <vector>
template <class F> __global__ void for_each(int n, F f) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) f(i); }
__global__ void __launch_bounds__(1024) scratch_heavy(const int* idx, float* out) {
  float local[96];
  for (int k = 0; k < 96; ++k) local[k] = k * 0.5f + threadIdx.x;
  int j = idx[threadIdx.x] % 96;
  local[j] += 100.0f;
  float s = 0;
  for (int k = 0; k < 96; k += 7) s += local[(k + j) % 96];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
struct Big { int a[40]; double d[6]; };
__global__ void many_args(int a0, int a1, int a2, int a3, int a4, int a5, int a6, int a7, int a8, int a9, double b0, double b1, float c0, float c1, char c, short s, Big big, long long* out) {
  long long t = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + (long long)(b0 * 4) + (long long)(b1 * 4) + (long long)c0 + (long long)c1 + c + s;
  for (int k = 0; k < 40; ++k) t += big.a[k] * (k + 1);
  for (int k = 0; k < 6; ++k) t += (long long)(big.d[k] * 8);
  out[threadIdx.x] = t + threadIdx.x;
}
__global__ void complex_mul(const hipFloatComplex* a, const hipFloatComplex* b, hipFloatComplex* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = hipCaddf(hipCmulf(a[i], b[i]), make_hipFloatComplex(1.0f, -1.0f));
}
__global__ void big_lds(float* out) {
  __shared__ float buf[16384];  // 64 KiB
  for (int k = threadIdx.x; k < 16384; k += blockDim.x) buf[k] = k;
  __syncthreads();
  float s = 0;
  for (int k = threadIdx.x; k < 16384; k += blockDim.x) s += buf[16383 - k];
  out[threadIdx.x] = s;
}
int main() {
  int bad = 0;
  const int n = 1000;
  int* d; CHECK(hipMalloc(&d, n * 4));
  int mul = 3;
  for_each<<<(n + 255) / 256, 256>>>(n, [=] __device__(int i) { d[i] = i * mul + 1; });
  std::vector<int> h(n); CHECK(hipMemcpy(h.data(), d, n * 4, hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) if (h[i] != i * 3 + 1) { printf("kernel_features: lambda %d\n", i); bad = 1; break; }
  std::vector<int> idx(2048); for (int i = 0; i < 2048; ++i) idx[i] = i * 13 + 5;
  int* didx; float* dout; CHECK(hipMalloc(&didx, 2048 * 4)); CHECK(hipMalloc(&dout, 2048 * 4));
  CHECK(hipMemcpy(didx, idx.data(), 2048 * 4, hipMemcpyHostToDevice));
  scratch_heavy<<<2, 1024>>>(didx, dout);
  std::vector<float> o(2048); CHECK(hipMemcpy(o.data(), dout, 2048 * 4, hipMemcpyDeviceToHost));
  for (int b = 0; b < 2; ++b) for (int t = 0; t < 1024; ++t) {
    float local[96]; for (int k = 0; k < 96; ++k) local[k] = k * 0.5f + t;
    int j = idx[t] % 96; local[j] += 100.0f; float s = 0; for (int k = 0; k < 96; k += 7) s += local[(k + j) % 96];
    if (o[b * 1024 + t] != s) { printf("kernel_features: scratch %d %d: %g vs %g\n", b, t, o[b * 1024 + t], s); bad = 1; b = 2; break; }
  }
  Big big; for (int k = 0; k < 40; ++k) big.a[k] = k - 20; for (int k = 0; k < 6; ++k) big.d[k] = k * 0.125;
  long long* dl; CHECK(hipMalloc(&dl, 64 * 8));
  many_args<<<1, 64>>>(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1.25, 2.5, 3.0f, 4.0f, 'x', -300, big, dl);
  std::vector<long long> l(64); CHECK(hipMemcpy(l.data(), dl, 64 * 8, hipMemcpyDeviceToHost));
  long long want = 55 + 5 + 10 + 3 + 4 + 'x' - 300; for (int k = 0; k < 40; ++k) want += big.a[k] * (k + 1); for (int k = 0; k < 6; ++k) want += (long long)(big.d[k] * 8);
  for (int t = 0; t < 64; ++t) if (l[t] != want + t) { printf("kernel_features: many_args %d: %lld vs %lld\n", t, l[t], want + t); bad = 1; break; }
  std::vector<hipFloatComplex> a(n), b(n), c(n);
  for (int i = 0; i < n; ++i) { a[i] = make_hipFloatComplex(i * 0.5f, 1.0f); b[i] = make_hipFloatComplex(2.0f, -i * 0.25f); }
  hipFloatComplex *da, *db, *dc; CHECK(hipMalloc(&da, n * 8)); CHECK(hipMalloc(&db, n * 8)); CHECK(hipMalloc(&dc, n * 8));
  CHECK(hipMemcpy(da, a.data(), n * 8, hipMemcpyHostToDevice)); CHECK(hipMemcpy(db, b.data(), n * 8, hipMemcpyHostToDevice));
  complex_mul<<<(n + 127) / 128, 128>>>(da, db, dc, n);
  CHECK(hipMemcpy(c.data(), dc, n * 8, hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) { hipFloatComplex w = hipCaddf(hipCmulf(a[i], b[i]), make_hipFloatComplex(1.0f, -1.0f));
    if (std::abs(hipCrealf(c[i]) - hipCrealf(w)) > 1e-3f * (1 + std::abs(hipCrealf(w))) || std::abs(hipCimagf(c[i]) - hipCimagf(w)) > 1e-3f * (1 + std::abs(hipCimagf(w)))) { printf("kernel_features: complex %d\n", i); bad = 1; break; } }
  float* dbig; CHECK(hipMalloc(&dbig, 256 * 4));
  big_lds<<<1, 256>>>(dbig);
  std::vector<float> bo(256); CHECK(hipMemcpy(bo.data(), dbig, 256 * 4, hipMemcpyDeviceToHost));
  for (int t = 0; t < 256; ++t) { float s = 0; for (int k = t; k < 16384; k += 256) s += 16383 - k; if (bo[t] != s) { printf("kernel_features: big_lds %d\n", t); bad = 1; break; } }
  if (bad) return 1;
  printf("kernel_features: correct\n");
  return 0;
}
