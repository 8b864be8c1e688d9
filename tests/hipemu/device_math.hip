// Device math: exactly specified operations (fmaf, fma, sqrt, IEEE division
// in float and double, integer division and remainder 32/64-bit signed and
// unsigned, conversions, rounding, min/max, bit functions) bitwise against
// the host; approximate functions (sinf, expf, logf, powf, __fdividef,
// rsqrtf, __expf, double exp/log/sin/pow) within their documented ulp bounds.
#include <hip/hip_runtime.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <vector>

#define CHECK(call)                                                                   \
  do {                                                                                \
    hipError_t e_ = (call);                                                           \
    if (e_ != hipSuccess) {                                                           \
      std::printf("device_math: %s failed: %s\n", #call, hipGetErrorString(e_));            \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

constexpr int NF = 24;  // float results per element
constexpr int ND = 8;   // double results
constexpr int NI = 16;  // integer results

__device__ float device_poly(float x) { return fmaf(fmaf(x, 0.5f, -1.25f), x, 3.0f); }

__global__ void math_kernel(const float* a, const float* b, const double* da, const double* db, const int* ia,
                            const int* ib, const long long* la, const long long* lb, float* fo, double* dout,
                            long long* io, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = a[i], y = b[i];
  float* f = fo + i * NF;
  f[0] = fmaf(x, y, 1.5f);
  f[1] = x / y;
  f[2] = sqrtf(fabsf(x));
  f[3] = sinf(x);
  f[4] = cosf(x);
  f[5] = expf(x * 0.1f);
  f[6] = logf(fabsf(y) + 1.0f);
  f[7] = powf(fabsf(x) + 0.5f, 1.7f);
  f[8] = __fdividef(x, y);
  f[9] = rsqrtf(fabsf(x) + 1.0f);
  f[10] = __expf(x * 0.1f);
  f[11] = fminf(x, y);
  f[12] = fmaxf(x, y);
  f[13] = floorf(x);
  f[14] = ceilf(x);
  f[15] = truncf(x);
  f[16] = roundf(x);
  f[17] = rintf(x);
  f[18] = device_poly(x);
  f[19] = copysignf(x, y);
  f[20] = (float)(x * 1000.0f > 0 ? (int)(x * 1000.0f) : -(int)(-x * 1000.0f));
  f[21] = __int2float_rn(ia[i]);
  f[22] = (float)la[i];
  f[23] = tanhf(x * 0.3f);
  double dx = da[i], dy = db[i];
  double* d = dout + i * ND;
  d[0] = fma(dx, dy, 0.25);
  d[1] = dx / dy;
  d[2] = sqrt(fabs(dx));
  d[3] = exp(dx * 0.01);
  d[4] = log(fabs(dy) + 1.0);
  d[5] = sin(dx);
  d[6] = pow(fabs(dx) + 0.5, 1.3);
  d[7] = (double)x * (double)y + floor(dx);
  int p = ia[i], q = ib[i];
  long long P = la[i], Q = lb[i];
  long long* o = io + i * NI;
  o[0] = p / q;
  o[1] = p % q;
  o[2] = (unsigned)p / (unsigned)q;
  o[3] = (unsigned)p % (unsigned)q;
  o[4] = P / Q;
  o[5] = P % Q;
  o[6] = (unsigned long long)P / (unsigned long long)Q;
  o[7] = (unsigned long long)P % (unsigned long long)Q;
  o[8] = __popc(p) + (__clz(p) << 8) + (__ffs(p) << 16);
  o[9] = __brev(p);
  o[10] = __mulhi(p, q);
  o[11] = __umul64hi(P, Q);
  o[12] = __float2int_rn(x * 100.0f);
  o[13] = (long long)(dx * 1e6);
  o[14] = __popcll(P) + (__clzll(P) << 8) + (__ffsll(P) << 16);
  o[15] = min(p, q) * 3 + max(p, q) + abs(p - q);
}

static float ulp_f(float v) { return std::nextafter(std::fabs(v), INFINITY) - std::fabs(v); }
static double ulp_d(double v) { return std::nextafter(std::fabs(v), INFINITY) - std::fabs(v); }

static long long host_mulhi(int a, int b) { return (int)(((long long)a * b) >> 32); }
static long long host_umul64hi(long long a, long long b) {
  return (long long)(unsigned long long)(((unsigned __int128)(unsigned long long)a * (unsigned long long)b) >> 64);
}
static unsigned host_brev(unsigned v) { unsigned r = 0; for (int k = 0; k < 32; ++k) r |= ((v >> k) & 1u) << (31 - k); return r; }

int main() {
  const int n = 1000;
  std::vector<float> a(n), b(n);
  std::vector<double> da(n), db(n);
  std::vector<int> ia(n), ib(n);
  std::vector<long long> la(n), lb(n);
  uint64_t s = 88172645463325252ull;
  auto rnd = [&] { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return s; };
  for (int i = 0; i < n; ++i) {
    a[i] = (float)((int64_t)(rnd() % 2000001) - 1000000) / 7919.0f;
    b[i] = (float)((int64_t)(rnd() % 2000001) - 1000000) / 3571.0f + 0.001f;
    da[i] = (double)((int64_t)(rnd() % 20000001) - 10000000) / 7919.0;
    db[i] = (double)((int64_t)(rnd() % 20000001) - 10000000) / 3571.0 + 1e-3;
    ia[i] = (int)rnd();
    ib[i] = (int)(rnd() % 100000) - 50000; if (ib[i] == 0) ib[i] = 3;
    la[i] = (long long)rnd();
    lb[i] = (long long)rnd() >> (rnd() % 60); if (lb[i] == 0) lb[i] = 7;
    if (i % 5 == 0) ib[i] = (int)rnd() | 1;
  }
  a[0] = 2.5f; a[1] = -2.5f; a[2] = 0.5f; a[3] = -0.0f; ia[0] = 0; ia[1] = INT32_MIN; ib[1] = -1; la[1] = INT64_MIN; lb[1] = -1;
  float *fa, *fb, *fo; double *dda, *ddb, *dout; int *dia, *dib; long long *dla, *dlb, *io;
  CHECK(hipMalloc(&fa, n * 4)); CHECK(hipMalloc(&fb, n * 4)); CHECK(hipMalloc(&fo, n * NF * 4));
  CHECK(hipMalloc(&dda, n * 8)); CHECK(hipMalloc(&ddb, n * 8)); CHECK(hipMalloc(&dout, n * ND * 8));
  CHECK(hipMalloc(&dia, n * 4)); CHECK(hipMalloc(&dib, n * 4)); CHECK(hipMalloc(&dla, n * 8)); CHECK(hipMalloc(&dlb, n * 8));
  CHECK(hipMalloc(&io, n * NI * 8));
  CHECK(hipMemcpy(fa, a.data(), n * 4, hipMemcpyHostToDevice)); CHECK(hipMemcpy(fb, b.data(), n * 4, hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dda, da.data(), n * 8, hipMemcpyHostToDevice)); CHECK(hipMemcpy(ddb, db.data(), n * 8, hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dia, ia.data(), n * 4, hipMemcpyHostToDevice)); CHECK(hipMemcpy(dib, ib.data(), n * 4, hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dla, la.data(), n * 8, hipMemcpyHostToDevice)); CHECK(hipMemcpy(dlb, lb.data(), n * 8, hipMemcpyHostToDevice));
  hipLaunchKernelGGL(math_kernel, dim3((n + 127) / 128), dim3(128), 0, 0, fa, fb, dda, ddb, dia, dib, dla, dlb, fo, dout, io, n);
  CHECK(hipGetLastError());
  std::vector<float> rf(n * NF); std::vector<double> rd(n * ND); std::vector<long long> ri(n * NI);
  CHECK(hipMemcpy(rf.data(), fo, n * NF * 4, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(rd.data(), dout, n * ND * 8, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(ri.data(), io, n * NI * 8, hipMemcpyDeviceToHost));
  int bad = 0;
  auto fcheck = [&](int i, int k, float got, float want, float ulps) {
    bool ok = ulps == 0 ? std::memcmp(&got, &want, 4) == 0 : std::fabs(got - want) <= ulps * ulp_f(want);
    if (!ok && bad++ < 5) std::printf("device_math: float result %d of element %d (x=%a y=%a): %a, expected %a\n", k, i, a[i], b[i], got, want);
  };
  auto dcheck = [&](int i, int k, double got, double want, double ulps) {
    bool ok = ulps == 0 ? std::memcmp(&got, &want, 8) == 0 : std::fabs(got - want) <= ulps * ulp_d(want);
    if (!ok && bad++ < 5) std::printf("device_math: double result %d of element %d (x=%a y=%a): %a, expected %a\n", k, i, da[i], db[i], got, want);
  };
  auto icheck = [&](int i, int k, long long got, long long want) {
    if (got != want && bad++ < 5) std::printf("device_math: integer result %d of element %d (%d %d %lld %lld): %lld, expected %lld\n", k, i, ia[i], ib[i], la[i], lb[i], got, want);
  };
  for (int i = 0; i < n; ++i) {
    float x = a[i], y = b[i];
    const float* f = &rf[i * NF];
    fcheck(i, 0, f[0], std::fmaf(x, y, 1.5f), 0);
    fcheck(i, 1, f[1], x / y, 0);
    fcheck(i, 2, f[2], std::sqrt(std::fabs(x)), 0);
    fcheck(i, 3, f[3], std::sin(x), 2);
    fcheck(i, 4, f[4], std::cos(x), 2);
    fcheck(i, 5, f[5], std::exp(x * 0.1f), 2);
    fcheck(i, 6, f[6], std::log(std::fabs(y) + 1.0f), 2);
    fcheck(i, 7, f[7], std::pow(std::fabs(x) + 0.5f, 1.7f), 2);
    fcheck(i, 8, f[8], x / y, 2);
    fcheck(i, 9, f[9], 1.0f / std::sqrt(std::fabs(x) + 1.0f), 2);
    fcheck(i, 10, f[10], std::exp(x * 0.1f), 2 + std::fabs(x * 0.1f) * 3);
    fcheck(i, 11, f[11], std::fmin(x, y), 0);
    fcheck(i, 12, f[12], std::fmax(x, y), 0);
    fcheck(i, 13, f[13], std::floor(x), 0);
    fcheck(i, 14, f[14], std::ceil(x), 0);
    fcheck(i, 15, f[15], std::trunc(x), 0);
    // LLVM 14 lowers roundf as trunc(x) + (0 or +-1): round(-0) is +0 on the GPU.
    fcheck(i, 16, f[16], std::trunc(x) + (std::fabs(x - std::trunc(x)) >= 0.5f ? std::copysign(1.0f, x) : 0.0f), 0);
    fcheck(i, 17, f[17], std::rint(x), 0);
    fcheck(i, 18, f[18], std::fmaf(std::fmaf(x, 0.5f, -1.25f), x, 3.0f), 0);
    fcheck(i, 19, f[19], std::copysign(x, y), 0);
    fcheck(i, 20, f[20], (float)(x * 1000.0f > 0 ? (int)(x * 1000.0f) : -(int)(-x * 1000.0f)), 0);
    fcheck(i, 21, f[21], (float)ia[i], 0);
    fcheck(i, 22, f[22], (float)la[i], 0);
    fcheck(i, 23, f[23], std::tanh(x * 0.3f), 2);
    double dx = da[i], dy = db[i];
    const double* d = &rd[i * ND];
    dcheck(i, 0, d[0], std::fma(dx, dy, 0.25), 0);
    dcheck(i, 1, d[1], dx / dy, 0);
    dcheck(i, 2, d[2], std::sqrt(std::fabs(dx)), 0);
    dcheck(i, 3, d[3], std::exp(dx * 0.01), 1);
    dcheck(i, 4, d[4], std::log(std::fabs(dy) + 1.0), 1);
    dcheck(i, 5, d[5], std::sin(dx), 1);
    dcheck(i, 6, d[6], std::pow(std::fabs(dx) + 0.5, 1.3), 1);
    dcheck(i, 7, d[7], (double)x * (double)y + std::floor(dx), 0);
    int p = ia[i], q = ib[i];
    long long P = la[i], Q = lb[i];
    const long long* o = &ri[i * NI];
    if (!(p == INT32_MIN && q == -1)) { icheck(i, 0, o[0], p / q); icheck(i, 1, o[1], p % q); }
    icheck(i, 2, o[2], (unsigned)p / (unsigned)q);
    icheck(i, 3, o[3], (unsigned)p % (unsigned)q);
    if (!(P == INT64_MIN && Q == -1)) { icheck(i, 4, o[4], P / Q); icheck(i, 5, o[5], P % Q); }
    icheck(i, 6, o[6], (long long)((unsigned long long)P / (unsigned long long)Q));
    icheck(i, 7, o[7], (long long)((unsigned long long)P % (unsigned long long)Q));
    icheck(i, 8, o[8], __builtin_popcount(p) + ((p ? __builtin_clz(p) : 32) << 8) + (__builtin_ffs(p) << 16));
    icheck(i, 9, o[9], (long long)host_brev(p));
    icheck(i, 10, o[10], host_mulhi(p, q));
    icheck(i, 11, o[11], host_umul64hi(P, Q));
    icheck(i, 12, o[12], (int)std::nearbyint(x * 100.0f));
    icheck(i, 13, o[13], (long long)(dx * 1e6));
    icheck(i, 14, o[14], __builtin_popcountll(P) + ((P ? __builtin_clzll(P) : 64) << 8) + (__builtin_ffsll(P) << 16));
    icheck(i, 15, o[15], (long long)(std::min(p, q) * 3 + std::max(p, q) + std::abs(p - q)));
  }
  if (bad) { std::printf("device_math: %d wrong\n", bad); return 1; }
  std::printf("device_math: correct\n");
  return 0;
}
