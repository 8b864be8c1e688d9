// Device intrinsics beyond the basics: the _rn float and double ops
// (__fadd_rn, __fdiv_rn, __fsqrt_rn, __frcp_rn, __fmaf_rn, __ddiv_rn ...),
// the directed-rounding conversions (__double2float_rz/ru/rd, __ll2float_rz/ru,
// __int2float_ru/rd, __uint2float_rz, __ll2double_rz: nearest in ROCm 5.2),
// integer helpers (__byte_perm, __funnelshift_l/r, __sad, __usad, __uhadd,
// __mulhi, __mul24, __umul24, __umulhi, __mul64hi), conversions with rounding
// (__float2int_rd/ru/rz, __double2float_rz, __float2uint_rn, __int2float_rz ...)
// and AMDGCN builtins (ds_bpermute, ds_swizzle, mov_dpp, readfirstlane, mbcnt).
#define PROGRAM "intrinsics"
#include "hip_check.h"
#include <cmath>
#include <cstring>
#include <cstdint>
#include <vector>

constexpr int NF = 16, NI = 16;

__global__ void rounding(const float* a, const float* b, const double* da, const double* db, float* f, double* d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = a[i], y = b[i];
  float* o = f + i * NF;
  o[0] = __fadd_rn(x, y); o[1] = __fmul_rn(x, y); o[2] = __fsub_rn(x, y); o[3] = __fdiv_rn(x, y);
  o[4] = __fsqrt_rn(fabsf(x)); o[5] = __frcp_rn(y); o[6] = __fmaf_rn(x, y, 1.0f); o[7] = __double2float_rz(da[i]);
  o[8] = __double2float_ru(da[i]); o[9] = __double2float_rd(da[i]); o[10] = __ll2float_rz((long long)(da[i] * 1e9));
  o[11] = __ll2float_ru((long long)(da[i] * 1e9)); o[12] = __int2float_ru(int(da[i] * 1e3)); o[13] = __uint2float_rz(unsigned(fabs(da[i]) * 1e3));
  o[14] = __int2float_rd(int(da[i] * 1e3)); o[15] = __double2float_rn(da[i]);
  double* p = d + i * 4;
  p[0] = __dadd_rn(da[i], db[i]); p[1] = __ll2double_rz((long long)(da[i] * 1e12)); p[2] = __ddiv_rn(da[i], db[i]); p[3] = __dsqrt_rn(fabs(da[i]));
}

__global__ void integers(const unsigned* a, const unsigned* b, const unsigned long long* la, long long* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned x = a[i], y = b[i];
  long long* o = out + i * NI;
  o[0] = __byte_perm(x, y, 0x5140u);
  o[1] = __funnelshift_l(x, y, i % 40);
  o[2] = __funnelshift_r(x, y, i % 40);
  o[3] = __sad(int(x), int(y), 7u);
  o[4] = __usad(x, y, 9u);
  o[5] = __uhadd(x, y);
  o[6] = __mulhi(int(x), int(y));
  o[7] = __mul24(int(x), int(y));
  o[8] = __umul24(x, y);
  o[9] = __umulhi(x, y);
  o[10] = (long long)__mul64hi((long long)la[i], (long long)(la[i] ^ y));
  o[11] = __float2int_rd(float(int(x)) / 1000.0f);
  o[12] = __float2int_ru(float(int(x)) / 1000.0f);
  o[13] = __float2uint_rz(float(x) / 3.0f);
  o[14] = __float_as_uint(__int2float_rz(int(x)));
  o[15] = __float_as_uint(__uint2float_rd(y));
}

__global__ void wave_builtins(const int* in, int* out) {
  int t = threadIdx.x;
  int v = in[t];
  out[t * 6 + 0] = __builtin_amdgcn_ds_bpermute(((t + 5) % 64) * 4, v);     // gather from lane t+5
  out[t * 6 + 1] = __builtin_amdgcn_ds_swizzle(v, 0x041f);                  // xor lane by 1 in 32-lane groups
  out[t * 6 + 2] = __builtin_amdgcn_mov_dpp(v, 0x1b, 0xf, 0xf, false);      // quad_perm [3,2,1,0]
  out[t * 6 + 3] = __builtin_amdgcn_readfirstlane(v + t);
  out[t * 6 + 4] = __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0));
  out[t * 6 + 5] = __builtin_amdgcn_update_dpp(-1, v, 0x111, 0xf, 0xf, false);  // row_shr:1
}

int main() {
  const int n = 512;
  int bad = 0;
  std::vector<float> a(n), b(n); std::vector<double> da(n), db(n);
  uint64_t s = 0x2545F4914F6CDD1Dull;
  auto rnd = [&] { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return s; };
  for (int i = 0; i < n; ++i) {
    a[i] = float(int64_t(rnd() % 2000001) - 1000000) / 977.0f;
    b[i] = float(int64_t(rnd() % 2000001) - 1000000) / 3011.0f + 0.5f;
    da[i] = double(int64_t(rnd() % 2000000001) - 1000000000) / 977.0;
    db[i] = double(int64_t(rnd() % 2000000001) - 1000000000) / 3011.0 + 0.5;
  }
  float *fa, *fb, *fo; double *dda, *ddb, *ddo;
  CHECK(hipMalloc(&fa, n * 4)); CHECK(hipMalloc(&fb, n * 4)); CHECK(hipMalloc(&fo, n * NF * 4));
  CHECK(hipMalloc(&dda, n * 8)); CHECK(hipMalloc(&ddb, n * 8)); CHECK(hipMalloc(&ddo, n * 4 * 8));
  CHECK(hipMemcpy(fa, a.data(), n * 4, hipMemcpyHostToDevice)); CHECK(hipMemcpy(fb, b.data(), n * 4, hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dda, da.data(), n * 8, hipMemcpyHostToDevice)); CHECK(hipMemcpy(ddb, db.data(), n * 8, hipMemcpyHostToDevice));
  rounding<<<n / 128, 128>>>(fa, fb, dda, ddb, fo, ddo, n);
  CHECK(hipGetLastError());
  std::vector<float> rf(n * NF); std::vector<double> rd(n * 4);
  CHECK(hipMemcpy(rf.data(), fo, n * NF * 4, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(rd.data(), ddo, n * 4 * 8, hipMemcpyDeviceToHost));
  for (int i = 0; i < n && bad < 5; ++i) {
    float x = a[i], y = b[i];
    const double d = da[i];
    const long long l = (long long)(d * 1e9);
    const int iv = int(d * 1e3);
    const unsigned uv = unsigned(std::fabs(d) * 1e3);
    // ROCm 5.2's directed-rounding conversions (amd_device_functions.h) are
    // plain conversions, rounding to nearest: __double2float_rz(x) is (float)x.
    float want[NF] = {x + y, x * y, x - y, x / y, std::sqrt(std::fabs(x)), 1.0f / y, std::fmaf(x, y, 1.0f),
                      float(d), float(d), float(d), float(l), float(l), float(iv), float(uv), float(iv), float(d)};
    for (int k = 0; k < NF; ++k)
      if (std::memcmp(&rf[i * NF + k], &want[k], 4)) { std::printf("intrinsics: rounding op %d of %d (%a, %a): %a, expected %a\n", k, i, x, y, rf[i * NF + k], want[k]); ++bad; }
    const long long l12 = (long long)(d * 1e12);
    double wd[4] = {da[i] + db[i], double(l12), da[i] / db[i], std::sqrt(std::fabs(da[i]))};
    for (int k = 0; k < 4; ++k)
      if (std::memcmp(&rd[i * 4 + k], &wd[k], 8)) { std::printf("intrinsics: double rounding op %d of %d: %a, expected %a\n", k, i, rd[i * 4 + k], wd[k]); ++bad; }
  }
  // integers
  std::vector<unsigned> ua(n), ub(n); std::vector<unsigned long long> la(n);
  for (int i = 0; i < n; ++i) { ua[i] = unsigned(rnd()); ub[i] = unsigned(rnd()); la[i] = rnd(); }
  ua[1] = 0; ub[1] = 0xffffffffu;
  unsigned *dua, *dub; unsigned long long* dla; long long* dio;
  CHECK(hipMalloc(&dua, n * 4)); CHECK(hipMalloc(&dub, n * 4)); CHECK(hipMalloc(&dla, n * 8)); CHECK(hipMalloc(&dio, n * NI * 8));
  CHECK(hipMemcpy(dua, ua.data(), n * 4, hipMemcpyHostToDevice)); CHECK(hipMemcpy(dub, ub.data(), n * 4, hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dla, la.data(), n * 8, hipMemcpyHostToDevice));
  integers<<<n / 128, 128>>>(dua, dub, dla, dio, n);
  std::vector<long long> ri(n * NI);
  CHECK(hipMemcpy(ri.data(), dio, n * NI * 8, hipMemcpyDeviceToHost));
  for (int i = 0; i < n && bad < 5; ++i) {
    unsigned x = ua[i], y = ub[i];
    uint64_t both = (uint64_t(y) << 32) | x;
    auto byte = [&](unsigned sel) { return unsigned((both >> (8 * (sel & 7))) & 0xff); };
    long long w[NI];
    w[0] = byte(0) | byte(4) << 8 | byte(1) << 16 | byte(5) << 24;
    unsigned sh = (i % 40) & 31;  // the shift is taken modulo 32 (CUDA's __funnelshift_l, not _lc)
    w[1] = (unsigned)(sh == 0 ? y : (y << sh) | (x >> (32 - sh)));
    w[2] = (unsigned)(sh == 0 ? x : (x >> sh) | (y << (32 - sh)));
    w[3] = (unsigned)(std::llabs((long long)int(x) - int(y)) + 7);
    w[4] = (unsigned)((x > y ? x - y : y - x) + 9u);
    w[5] = (unsigned)((x + y) >> 1);  // ROCm 5.2: (x + y) >> 1 in 32 bits
    w[6] = int(((long long)int(x) * int(y)) >> 32);
    auto s24 = [](unsigned v) { return (long long)(int(v << 8) >> 8); };
    w[7] = int(s24(x) * s24(y));
    w[8] = int((x & 0xffffff) * (y & 0xffffff));  // ROCm 5.2 declares __umul24 as returning int
    w[9] = (unsigned)((uint64_t(x) * y) >> 32);
    w[10] = (long long)(((__int128)(long long)la[i] * (long long)(la[i] ^ y)) >> 64);
    w[11] = (int)std::floor(float(int(x)) / 1000.0f);
    w[12] = (int)std::ceil(float(int(x)) / 1000.0f);
    w[13] = (unsigned)(float(x) / 3.0f);
    { float f = float(int(x)); unsigned u; std::memcpy(&u, &f, 4); w[14] = u; }
    { float f = float(y); unsigned u; std::memcpy(&u, &f, 4); w[15] = u; }
    for (int k = 0; k < NI; ++k)
      if (ri[i * NI + k] != w[k]) { std::printf("intrinsics: integer op %d of %d (%08x, %08x): %llx, expected %llx\n", k, i, x, y, ri[i * NI + k], w[k]); ++bad; }
  }
  // wave builtins
  std::vector<int> in(64), out(64 * 6);
  for (int i = 0; i < 64; ++i) in[i] = i * 10 + 3;
  int *din, *dout;
  CHECK(hipMalloc(&din, 64 * 4)); CHECK(hipMalloc(&dout, 64 * 6 * 4));
  CHECK(hipMemcpy(din, in.data(), 64 * 4, hipMemcpyHostToDevice));
  wave_builtins<<<1, 64>>>(din, dout);
  CHECK(hipMemcpy(out.data(), dout, 64 * 6 * 4, hipMemcpyDeviceToHost));
  for (int t = 0; t < 64 && bad < 5; ++t) {
    int w[6] = {in[(t + 5) % 64], in[t ^ 1], in[(t & ~3) | (3 - (t & 3))], in[0], t, (t % 16 == 0) ? -1 : in[t - 1]};
    for (int k = 0; k < 6; ++k)
      if (out[t * 6 + k] != w[k]) { std::printf("intrinsics: wave builtin %d lane %d: %d, expected %d\n", k, t, out[t * 6 + k], w[k]); ++bad; }
  }
  if (bad) return 1;
  std::printf("intrinsics: correct\n");
  return 0;
}
