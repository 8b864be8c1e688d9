// Small and vector types: __half and __half2 arithmetic and conversions
// (hip_fp16.h), hip_bfloat16, char/short/unsigned char/bool arrays, and the
// vector types (char4, uchar4, short2, int2, int4, float2, float4, double2)
// as kernel arguments, loads and stores.
#define PROGRAM "small_types"
#include "hip_check.h"
#include <hip/hip_fp16.h>
#include <hip/hip_bfloat16.h>
#include <cmath>
#include <cstring>
#include <vector>

__global__ void halves(const __half* a, const __half* b, __half* out, const __half2* a2, __half2* out2, float* f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[4 * i + 0] = __hadd(a[i], b[i]);
  out[4 * i + 1] = __hmul(a[i], b[i]);
  out[4 * i + 2] = __hfma(a[i], b[i], __float2half(0.5f));
  out[4 * i + 3] = __hgt(a[i], b[i]) ? a[i] : b[i];
  out2[i] = __hmul2(a2[i], a2[i]);
  f[i] = __half2float(a[i]) * 2.0f + __low2float(a2[i]) - __high2float(a2[i]);
}

__global__ void small_ints(const signed char* c, const short* s, const unsigned char* u, const bool* flags,
                           int* out, unsigned char* bytes, short* shorts, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = c[i] * 3 + s[i] / 7 - u[i] + (flags[i] ? 1000 : -1000);
  bytes[i] = (unsigned char)(u[i] + c[i]);                // wraps
  shorts[i] = (short)(s[i] * 5);                          // wraps
}

struct Pack { char4 c; uchar4 u; short2 s; int2 i2; float2 f2; };

__global__ void vectors(Pack p, const float4* in4, float4* out4, const double2* in2, double2* out2, int4* outi) {
  int i = threadIdx.x;
  float4 v = in4[i];
  out4[i] = make_float4(v.w + p.f2.x, v.z * p.f2.y, v.y - p.c.x, v.x + p.u.w);
  double2 d = in2[i];
  out2[i] = make_double2(d.x * d.y, d.x - d.y + p.s.y);
  outi[i] = make_int4(p.i2.x + i, p.i2.y - i, p.c.y * p.s.x, p.u.x + p.u.y + p.u.z);
}

__global__ void bfloats(const hip_bfloat16* in, hip_bfloat16* out, float* widened, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = float(in[i]);
  widened[i] = x;
  out[i] = hip_bfloat16(x * 3.0f);
}

static uint16_t half_bits(__half h) { uint16_t b; std::memcpy(&b, &h, 2); return b; }

int main() {
  const int n = 300;
  int bad = 0;
  // halves
  {
    std::vector<__half> a(n), b(n), out(4 * n);
    std::vector<__half2> a2(n), out2(n);
    std::vector<float> f(n);
    for (int i = 0; i < n; ++i) {
      a[i] = __float2half((i - 150) * 0.0625f);
      b[i] = __float2half(1.0f + (i % 17) * 0.125f);
      a2[i] = __halves2half2(__float2half(i * 0.25f), __float2half(-i * 0.5f));
    }
    __half *da, *db, *dout; __half2 *da2, *dout2; float* df;
    CHECK(hipMalloc(&da, n * 2)); CHECK(hipMalloc(&db, n * 2)); CHECK(hipMalloc(&dout, 4 * n * 2));
    CHECK(hipMalloc(&da2, n * 4)); CHECK(hipMalloc(&dout2, n * 4)); CHECK(hipMalloc(&df, n * 4));
    CHECK(hipMemcpy(da, a.data(), n * 2, hipMemcpyHostToDevice));
    CHECK(hipMemcpy(db, b.data(), n * 2, hipMemcpyHostToDevice));
    CHECK(hipMemcpy(da2, a2.data(), n * 4, hipMemcpyHostToDevice));
    halves<<<(n + 127) / 128, 128>>>(da, db, dout, da2, dout2, df, n);
    CHECK(hipMemcpy(out.data(), dout, 4 * n * 2, hipMemcpyDeviceToHost));
    CHECK(hipMemcpy(out2.data(), dout2, n * 4, hipMemcpyDeviceToHost));
    CHECK(hipMemcpy(f.data(), df, n * 4, hipMemcpyDeviceToHost));
    for (int i = 0; i < n && !bad; ++i) {
      float x = __half2float(a[i]), y = __half2float(b[i]);
      // Every input has few significant bits: sums and products are exact in f16 or rounded once, as here.
      __half want[4] = {__float2half(x + y), __float2half(x * y), __float2half(std::fma(x, y, 0.5f)), x > y ? a[i] : b[i]};
      for (int k = 0; k < 4; ++k)
        if (half_bits(out[4 * i + k]) != half_bits(want[k])) {
          std::printf("small_types: half op %d of %d: %04x, expected %04x\n", k, i, half_bits(out[4 * i + k]), half_bits(want[k]));
          bad = 1;
        }
      float lo = i * 0.25f, hi = -i * 0.5f;
      __half2 w2 = __halves2half2(__float2half(lo * lo), __float2half(hi * hi));
      if (std::memcmp(&out2[i], &w2, 4) != 0) { std::printf("small_types: __hmul2 of %d\n", i); bad = 1; }
      float wf = __half2float(a[i]) * 2.0f + __half2float(__float2half(lo)) - __half2float(__float2half(hi));
      if (f[i] != wf) { std::printf("small_types: half to float of %d: %g, expected %g\n", i, f[i], wf); bad = 1; }
    }
  }
  // small integers
  {
    std::vector<signed char> c(n); std::vector<short> s(n); std::vector<unsigned char> u(n);
    bool* flags = new bool[n];
    for (int i = 0; i < n; ++i) { c[i] = (signed char)(i * 37); s[i] = (short)(i * 1237); u[i] = (unsigned char)(i * 11); flags[i] = i % 3 == 1; }
    signed char* dc; short* ds; unsigned char* du; bool* dflags; int* dout; unsigned char* dbytes; short* dshorts;
    CHECK(hipMalloc(&dc, n)); CHECK(hipMalloc(&ds, n * 2)); CHECK(hipMalloc(&du, n)); CHECK(hipMalloc(&dflags, n));
    CHECK(hipMalloc(&dout, n * 4)); CHECK(hipMalloc(&dbytes, n)); CHECK(hipMalloc(&dshorts, n * 2));
    CHECK(hipMemcpy(dc, c.data(), n, hipMemcpyHostToDevice)); CHECK(hipMemcpy(ds, s.data(), n * 2, hipMemcpyHostToDevice));
    CHECK(hipMemcpy(du, u.data(), n, hipMemcpyHostToDevice)); CHECK(hipMemcpy(dflags, flags, n, hipMemcpyHostToDevice));
    small_ints<<<(n + 63) / 64, 64>>>(dc, ds, du, dflags, dout, dbytes, dshorts, n);
    std::vector<int> out(n); std::vector<unsigned char> bytes(n); std::vector<short> shorts(n);
    CHECK(hipMemcpy(out.data(), dout, n * 4, hipMemcpyDeviceToHost));
    CHECK(hipMemcpy(bytes.data(), dbytes, n, hipMemcpyDeviceToHost));
    CHECK(hipMemcpy(shorts.data(), dshorts, n * 2, hipMemcpyDeviceToHost));
    for (int i = 0; i < n && !bad; ++i) {
      int w = c[i] * 3 + s[i] / 7 - u[i] + (flags[i] ? 1000 : -1000);
      if (out[i] != w || bytes[i] != (unsigned char)(u[i] + c[i]) || shorts[i] != (short)(s[i] * 5)) {
        std::printf("small_types: small ints of %d: %d %u %d, expected %d %u %d\n", i, out[i], bytes[i], shorts[i], w,
                    (unsigned char)(u[i] + c[i]), (short)(s[i] * 5));
        bad = 1;
      }
    }
    delete[] flags;
  }
  // vector types
  {
    Pack p;
    p.c = make_char4(-3, 5, 7, -9); p.u = make_uchar4(200, 10, 20, 250); p.s = make_short2(-300, 400);
    p.i2 = make_int2(100000, -7); p.f2 = make_float2(0.5f, -2.0f);
    const int m = 64;
    std::vector<float4> in4(m), out4(m); std::vector<double2> in2(m), out2(m); std::vector<int4> outi(m);
    for (int i = 0; i < m; ++i) { in4[i] = make_float4(i, i * 2.0f, i * 0.5f, -i); in2[i] = make_double2(i * 1.5, i - 0.25); }
    float4 *d4, *do4; double2 *d2, *do2; int4* doi;
    CHECK(hipMalloc(&d4, m * sizeof(float4))); CHECK(hipMalloc(&do4, m * sizeof(float4)));
    CHECK(hipMalloc(&d2, m * sizeof(double2))); CHECK(hipMalloc(&do2, m * sizeof(double2))); CHECK(hipMalloc(&doi, m * sizeof(int4)));
    CHECK(hipMemcpy(d4, in4.data(), m * sizeof(float4), hipMemcpyHostToDevice));
    CHECK(hipMemcpy(d2, in2.data(), m * sizeof(double2), hipMemcpyHostToDevice));
    hipLaunchKernelGGL(vectors, dim3(1), dim3(m), 0, 0, p, d4, do4, d2, do2, doi);
    CHECK(hipMemcpy(out4.data(), do4, m * sizeof(float4), hipMemcpyDeviceToHost));
    CHECK(hipMemcpy(out2.data(), do2, m * sizeof(double2), hipMemcpyDeviceToHost));
    CHECK(hipMemcpy(outi.data(), doi, m * sizeof(int4), hipMemcpyDeviceToHost));
    for (int i = 0; i < m && !bad; ++i) {
      float4 v = in4[i];
      float4 w = make_float4(v.w + p.f2.x, v.z * p.f2.y, v.y - p.c.x, v.x + p.u.w);
      double2 d = in2[i];
      double2 wd = make_double2(d.x * d.y, d.x - d.y + p.s.y);
      int4 wi = make_int4(p.i2.x + i, p.i2.y - i, p.c.y * p.s.x, p.u.x + p.u.y + p.u.z);
      if (std::memcmp(&out4[i], &w, sizeof w) || std::memcmp(&out2[i], &wd, sizeof wd) || std::memcmp(&outi[i], &wi, sizeof wi)) {
        std::printf("small_types: vectors of %d: %g %g %g %g / %g %g / %d %d %d %d\n", i, out4[i].x, out4[i].y, out4[i].z, out4[i].w,
                    out2[i].x, out2[i].y, outi[i].x, outi[i].y, outi[i].z, outi[i].w);
        bad = 1;
      }
    }
  }
  // bfloat16
  {
    std::vector<hip_bfloat16> in(n), out(n); std::vector<float> widened(n);
    for (int i = 0; i < n; ++i) in[i] = hip_bfloat16((i - 100) * 0.375f);
    hip_bfloat16 *din, *dout; float* dw;
    CHECK(hipMalloc(&din, n * 2)); CHECK(hipMalloc(&dout, n * 2)); CHECK(hipMalloc(&dw, n * 4));
    CHECK(hipMemcpy(din, in.data(), n * 2, hipMemcpyHostToDevice));
    bfloats<<<(n + 127) / 128, 128>>>(din, dout, dw, n);
    CHECK(hipMemcpy(out.data(), dout, n * 2, hipMemcpyDeviceToHost));
    CHECK(hipMemcpy(widened.data(), dw, n * 4, hipMemcpyDeviceToHost));
    for (int i = 0; i < n && !bad; ++i) {
      float x = float(in[i]);
      hip_bfloat16 w(x * 3.0f);
      if (widened[i] != x || std::memcmp(&out[i], &w, 2)) { std::printf("small_types: bfloat16 of %d\n", i); bad = 1; }
    }
  }
  if (bad) return 1;
  std::printf("small_types: correct\n");
  return 0;
}
