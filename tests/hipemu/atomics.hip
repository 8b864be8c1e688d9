// Atomics and block-wide votes: atomicCAS loops (float max, double
// multiply), atomicMax/Min/Exch/Inc/Dec/And/Or/Xor/Sub on int, unsigned and
// 64-bit, atomicMax/Min on float and double, atomicAdd on shared double, __syncthreads_count/and/or, __threadfence,
// clock64/__clock64 monotonic, a spin lock in global memory.
#define PROGRAM "atomics"
#include "hip_check.h"
#include <vector>
#include <cstdint>
#include <algorithm>

struct Results {
  int imax, imin, exch_seen, and_, or_, xor_, sub;
  unsigned umax, umin, inc, dec;
  unsigned long long ullmax, ullmin, ulland, ullor, ullxor, ullexch;
  float fmax_builtin;
  double dmin_builtin;
  float fmax_cas;
  double dmul_cas, dshared;
  int count, all, any;
  int clock_ok;
  int locked_sum;
};

__device__ float atomic_max_float(float* address, float val) {
  int* p = reinterpret_cast<int*>(address);
  int old = *p, assumed;
  do {
    assumed = old;
    if (__int_as_float(assumed) >= val) break;
    old = atomicCAS(p, assumed, __float_as_int(val));
  } while (assumed != old);
  return __int_as_float(old);
}
__device__ double atomic_mul_double(double* address, double val) {
  unsigned long long* p = reinterpret_cast<unsigned long long*>(address);
  unsigned long long old = *p, assumed;
  do {
    assumed = old;
    old = atomicCAS(p, assumed, __double_as_longlong(__longlong_as_double(assumed) * val));
  } while (assumed != old);
  return __longlong_as_double(old);
}

__global__ void atomics(const int* in, Results* r, int* lock) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  atomicMax(&r->imax, v);
  atomicMin(&r->imin, v);
  int prev = atomicExch(&r->exch_seen, t);
  (void)prev;
  atomicAnd(&r->and_, ~(1 << (t % 31)));
  atomicOr(&r->or_, 1 << (t % 29));
  atomicXor(&r->xor_, v);
  atomicSub(&r->sub, v);
  atomicMax(&r->umax, unsigned(v) * 2654435761u);
  atomicMin(&r->umin, unsigned(v) * 2654435761u);
  atomicInc(&r->inc, 100u);
  atomicDec(&r->dec, 1000u);
  unsigned long long u = (unsigned long long)(unsigned)v * 0x9E3779B97F4A7C15ull;
  atomicMax(&r->ullmax, u);
  atomicMin(&r->ullmin, u);
  atomicAnd(&r->ulland, ~(1ull << (t % 63)));
  atomicOr(&r->ullor, 1ull << (t % 61));
  atomicXor(&r->ullxor, u);
  atomicExch(&r->ullexch, u);
  atomicMax(&r->fmax_builtin, v * -0.5f + 3.25f);
  atomicMin(&r->dmin_builtin, v * -0.125 + 7.0);
  atomic_max_float(&r->fmax_cas, v * 0.75f - 100.0f);
  if (t % 64 == 0) atomic_mul_double(&r->dmul_cas, 1.0 + (t / 64) * 0.5);

  __shared__ double sd;
  if (threadIdx.x == 0) sd = 0.0;
  __syncthreads();
  atomicAdd(&sd, double(v) * 0.25);
  int c = __syncthreads_count(v % 3 == 0);
  int all = __syncthreads_and(v >= 0);
  int any = __syncthreads_or(v == 4242);
  if (threadIdx.x == 0) {
    atomicAdd(&r->dshared, sd);
    atomicAdd(&r->count, c);
    atomicAnd(&r->all, all);
    atomicOr(&r->any, any);
  }
  long long c0 = clock64();
  long long w0 = __clock64();
  __threadfence();
  long long c1 = clock64();
  long long w1 = __clock64();
  if (c1 < c0 || w1 < w0) atomicAnd(&r->clock_ok, 0);
  // A spin lock per lane 0 of each wave: one wave in the critical section at a time.
  if (__lane_id() == 0) {
    while (atomicCAS(lock, 0, 1) != 0) {}
    __threadfence();
    r->locked_sum += 1;
    __threadfence();
    atomicExch(lock, 0);
  }
}

int main() {
  const int blocks = 8, threads = 256, n = blocks * threads;
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 7919) % 5003;
  in[1234] = 4242;
  Results init{};
  init.imax = INT32_MIN; init.imin = INT32_MAX; init.exch_seen = -1; init.and_ = -1; init.or_ = 0; init.xor_ = 0; init.sub = 0;
  init.umax = 0; init.umin = 0xffffffffu; init.inc = 0; init.dec = 0;
  init.ullmax = 0; init.ullmin = ~0ull; init.ulland = ~0ull; init.ullor = 0; init.ullxor = 0; init.ullexch = 0;
  init.fmax_builtin = -1e30f; init.dmin_builtin = 1e300; init.fmax_cas = -1e30f; init.dmul_cas = 1.0; init.dshared = 0;
  init.count = 0; init.all = 1; init.any = 0; init.clock_ok = 1; init.locked_sum = 0;
  int *din, *dlock; Results* dr;
  CHECK(hipMalloc(&din, n * sizeof(int)));
  CHECK(hipMalloc(&dr, sizeof(Results)));
  CHECK(hipMalloc(&dlock, sizeof(int)));
  CHECK(hipMemcpy(din, in.data(), n * sizeof(int), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dr, &init, sizeof init, hipMemcpyHostToDevice));
  CHECK(hipMemset(dlock, 0, sizeof(int)));
  atomics<<<blocks, threads>>>(din, dr, dlock);
  CHECK(hipDeviceSynchronize());
  Results r;
  CHECK(hipMemcpy(&r, dr, sizeof r, hipMemcpyDeviceToHost));

  Results w = init;
  double dmul = 1.0;
  int bad = 0;
  unsigned inc = 0, dec = 0;
  for (int t = 0; t < n; ++t) {
    int v = in[t];
    w.imax = std::max(w.imax, v); w.imin = std::min(w.imin, v);
    w.and_ &= ~(1 << (t % 31)); w.or_ |= 1 << (t % 29); w.xor_ ^= v; w.sub -= v;
    w.umax = std::max(w.umax, unsigned(v) * 2654435761u); w.umin = std::min(w.umin, unsigned(v) * 2654435761u);
    inc = inc >= 100u ? 0 : inc + 1;
    dec = (dec == 0 || dec > 1000u) ? 1000u : dec - 1;
    unsigned long long u = (unsigned long long)(unsigned)v * 0x9E3779B97F4A7C15ull;
    w.ullmax = std::max(w.ullmax, u); w.ullmin = std::min(w.ullmin, u);
    w.ulland &= ~(1ull << (t % 63)); w.ullor |= 1ull << (t % 61); w.ullxor ^= u;
    w.fmax_builtin = std::max(w.fmax_builtin, v * -0.5f + 3.25f); w.dmin_builtin = std::min(w.dmin_builtin, v * -0.125 + 7.0);
    w.fmax_cas = std::max(w.fmax_cas, v * 0.75f - 100.0f);
    if (t % 64 == 0) dmul *= 1.0 + (t / 64) * 0.5;  // exact: products of halves stay exact in double? checked below
    w.count += (v % 3 == 0);
  }
  // atomicInc/atomicDec wrap at their limit: the final value depends only on how many ran.
#define EXPECT_EQ(field, want) if (r.field != (want)) { std::printf("atomics: " #field " = %.17g, expected %.17g\n", double(r.field), double(want)); bad = 1; }
  EXPECT_EQ(imax, w.imax) EXPECT_EQ(imin, w.imin) EXPECT_EQ(and_, w.and_) EXPECT_EQ(or_, w.or_) EXPECT_EQ(xor_, w.xor_)
  EXPECT_EQ(sub, w.sub) EXPECT_EQ(umax, w.umax) EXPECT_EQ(umin, w.umin) EXPECT_EQ(inc, inc) EXPECT_EQ(dec, dec)
  EXPECT_EQ(ullmax, w.ullmax) EXPECT_EQ(ullmin, w.ullmin) EXPECT_EQ(ulland, w.ulland) EXPECT_EQ(ullor, w.ullor)
  EXPECT_EQ(ullxor, w.ullxor) EXPECT_EQ(fmax_builtin, w.fmax_builtin) EXPECT_EQ(dmin_builtin, w.dmin_builtin) EXPECT_EQ(fmax_cas, w.fmax_cas)
  EXPECT_EQ(count, w.count) EXPECT_EQ(all, 1) EXPECT_EQ(any, 1) EXPECT_EQ(clock_ok, 1) EXPECT_EQ(locked_sum, n / 64)
  if (r.exch_seen < 0 || r.exch_seen >= n) { std::printf("atomics: exch_seen %d\n", r.exch_seen); bad = 1; }
  bool seen = false;
  for (int t = 0; t < n; ++t) seen |= r.ullexch == (unsigned long long)(unsigned)in[t] * 0x9E3779B97F4A7C15ull;
  if (!seen) { std::printf("atomics: ullexch %llx is no thread's value\n", r.ullexch); bad = 1; }
  // The product of (1 + k/2) over k = 0..31 in any order: compare with a tolerance of a few ulps.
  if (std::abs(r.dmul_cas - dmul) > 1e-12 * dmul) { std::printf("atomics: dmul_cas %.17g, expected %.17g\n", r.dmul_cas, dmul); bad = 1; }
  double dsh = 0;
  for (int t = 0; t < n; ++t) dsh += in[t] * 0.25;  // sums of quarters of integers below 2^53: exact in any order
  if (r.dshared != dsh) { std::printf("atomics: dshared %.17g, expected %.17g\n", r.dshared, dsh); bad = 1; }
  if (r.inc != inc || r.dec != dec) { std::printf("atomics: inc %u dec %u, expected %u %u\n", r.inc, r.dec, inc, dec); bad = 1; }
  if (bad) return 1;
  std::printf("atomics: correct\n");
  return 0;
}
