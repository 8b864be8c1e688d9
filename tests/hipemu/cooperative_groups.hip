// Cooperative groups inside a block (thread_block sync, tiled_partition of
// 16 and 32 with shfl_down and sync), launched with <<<>>> and with
// hipLaunchCooperativeKernel (and refused when the grid cannot be resident),
// __launch_bounds__, a device function called recursively (stack in scratch), double-precision matrix multiply
// with shared tiles, an N-body step with rsqrtf, device assert that holds.
#define PROGRAM "cooperative_groups"
#include "hip_check.h"
#include <hip/hip_cooperative_groups.h>
#include <cassert>
#include <cmath>
#include <vector>
namespace cg = cooperative_groups;

__global__ void __launch_bounds__(256) tile_sums(const int* in, int* out16, int* out32, int* block_total) {
  cg::thread_block block = cg::this_thread_block();
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(block);
  int s = v;
  for (int o = t16.size() / 2; o > 0; o /= 2) s += t16.shfl_down(s, o);
  if (t16.thread_rank() == 0) out16[(blockIdx.x * blockDim.x + threadIdx.x) / 16] = s;
  cg::thread_block_tile<32> t32 = cg::tiled_partition<32>(block);
  int s32 = v;
  for (int o = 16; o > 0; o /= 2) s32 += t32.shfl_xor(s32, o);
  if (t32.thread_rank() == 0) out32[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = s32;
  __shared__ int total;
  if (block.thread_rank() == 0) total = 0;
  block.sync();
  atomicAdd(&total, v);
  block.sync();
  if (block.thread_rank() == 0) block_total[blockIdx.x] = total;
}

__device__ long long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__device__ int gcd(int a, int b) { return b == 0 ? a : gcd(b, a % b); }
__global__ void recursive(long long* f, int* g) {
  int i = threadIdx.x;
  f[i] = fib(i % 20);
  g[i] = gcd(i * 84, 36 + i);
}

constexpr int T = 16;
__global__ void dgemm(const double* A, const double* B, double* C, int n) {
  __shared__ double a[T][T], b[T][T];
  int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
  double acc = 0;
  for (int k0 = 0; k0 < n; k0 += T) {
    a[threadIdx.y][threadIdx.x] = row < n && k0 + int(threadIdx.x) < n ? A[row * n + k0 + threadIdx.x] : 0.0;
    b[threadIdx.y][threadIdx.x] = col < n && k0 + int(threadIdx.y) < n ? B[(k0 + threadIdx.y) * n + col] : 0.0;
    __syncthreads();
    for (int k = 0; k < T; ++k) acc = fma(a[threadIdx.y][k], b[k][threadIdx.x], acc);
    __syncthreads();
  }
  if (row < n && col < n) C[row * n + col] = acc;
}

__global__ void nbody(const float4* pos, float3* acc, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 p = pos[i];
  float3 a = make_float3(0, 0, 0);
  for (int j = 0; j < n; ++j) {
    float4 q = pos[j];
    float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
    float r2 = dx * dx + dy * dy + dz * dz + 0.01f;
    float inv = rsqrtf(r2);
    float s = q.w * inv * inv * inv;
    a.x += dx * s; a.y += dy * s; a.z += dz * s;
  }
  assert(a.x == a.x);  // never NaN
  acc[i] = a;
}

int main() {
  int bad = 0;
  {
    const int blocks = 6, threads = 256, n = blocks * threads;
    std::vector<int> in(n);
    for (int i = 0; i < n; ++i) in[i] = (i * 13) % 101 - 50;
    int *din, *d16, *d32, *dt;
    CHECK(hipMalloc(&din, n * 4)); CHECK(hipMalloc(&d16, n / 16 * 4)); CHECK(hipMalloc(&d32, n / 32 * 4)); CHECK(hipMalloc(&dt, blocks * 4));
    CHECK(hipMemcpy(din, in.data(), n * 4, hipMemcpyHostToDevice));
    // A cooperative launch (no grid-wide sync in the kernel) runs as any other.
    void* args[] = {&din, &d16, &d32, &dt};
    CHECK(hipLaunchCooperativeKernel(reinterpret_cast<const void*>(tile_sums), dim3(blocks), dim3(threads), args, 0, 0));
    // One that cannot be resident at once is refused.
    if (hipLaunchCooperativeKernel(reinterpret_cast<const void*>(tile_sums), dim3(1 << 20), dim3(threads), args, 0, 0) !=
        hipErrorCooperativeLaunchTooLarge) {
      std::printf("cooperative_groups: an oversized cooperative launch was not refused\n");
      bad = 1;
    }
    (void)hipGetLastError();
    std::vector<int> s16(n / 16), s32(n / 32), tot(blocks);
    CHECK(hipMemcpy(s16.data(), d16, n / 16 * 4, hipMemcpyDeviceToHost));
    CHECK(hipMemcpy(s32.data(), d32, n / 32 * 4, hipMemcpyDeviceToHost));
    CHECK(hipMemcpy(tot.data(), dt, blocks * 4, hipMemcpyDeviceToHost));
    for (int g = 0; g < n / 16; ++g) { int s = 0; for (int k = 0; k < 16; ++k) s += in[g * 16 + k]; if (s16[g] != s) { std::printf("cooperative_groups: tile16 %d: %d, expected %d\n", g, s16[g], s); bad = 1; break; } }
    for (int g = 0; g < n / 32; ++g) { int s = 0; for (int k = 0; k < 32; ++k) s += in[g * 32 + k]; if (s32[g] != s) { std::printf("cooperative_groups: tile32 %d: %d, expected %d\n", g, s32[g], s); bad = 1; break; } }
    for (int b = 0; b < blocks; ++b) { int s = 0; for (int k = 0; k < threads; ++k) s += in[b * threads + k]; if (tot[b] != s) { std::printf("cooperative_groups: block %d: %d, expected %d\n", b, tot[b], s); bad = 1; } }
  }
  {
    long long* df; int* dg;
    CHECK(hipMalloc(&df, 64 * 8)); CHECK(hipMalloc(&dg, 64 * 4));
    recursive<<<1, 64>>>(df, dg);
    CHECK(hipGetLastError());
    std::vector<long long> f(64); std::vector<int> g(64);
    CHECK(hipMemcpy(f.data(), df, 64 * 8, hipMemcpyDeviceToHost));
    CHECK(hipMemcpy(g.data(), dg, 64 * 4, hipMemcpyDeviceToHost));
    auto hfib = [](int n) { long long a = 0, b = 1; for (int k = 0; k < n; ++k) { long long c = a + b; a = b; b = c; } return a; };
    auto hgcd = [](int a, int b) { while (b) { int t = a % b; a = b; b = t; } return a; };
    for (int i = 0; i < 64; ++i)
      if (f[i] != hfib(i % 20) || g[i] != hgcd(i * 84, 36 + i)) { std::printf("cooperative_groups: recursion %d: %lld %d\n", i, f[i], g[i]); bad = 1; break; }
  }
  {
    const int n = 70;
    std::vector<double> A(n * n), B(n * n), C(n * n);
    for (int i = 0; i < n * n; ++i) { A[i] = (i % 13) * 0.25 - 1.0; B[i] = (i % 7) * 0.5 + 0.125; }
    double *dA, *dB, *dC;
    CHECK(hipMalloc(&dA, n * n * 8)); CHECK(hipMalloc(&dB, n * n * 8)); CHECK(hipMalloc(&dC, n * n * 8));
    CHECK(hipMemcpy(dA, A.data(), n * n * 8, hipMemcpyHostToDevice));
    CHECK(hipMemcpy(dB, B.data(), n * n * 8, hipMemcpyHostToDevice));
    dim3 block(T, T), grid((n + T - 1) / T, (n + T - 1) / T);
    dgemm<<<grid, block>>>(dA, dB, dC, n);
    CHECK(hipMemcpy(C.data(), dC, n * n * 8, hipMemcpyDeviceToHost));
    for (int r = 0; r < n && !bad; ++r)
      for (int c = 0; c < n; ++c) {
        double acc = 0;
        for (int k = 0; k < ((n + T - 1) / T) * T; ++k) acc = std::fma(k < n ? A[r * n + k] : 0.0, k < n ? B[k * n + c] : 0.0, acc);
        if (C[r * n + c] != acc) { std::printf("cooperative_groups: dgemm C[%d][%d] = %.17g, expected %.17g\n", r, c, C[r * n + c], acc); bad = 1; break; }
      }
  }
  {
    const int n = 512;
    std::vector<float4> pos(n); std::vector<float3> acc(n);
    for (int i = 0; i < n; ++i) pos[i] = make_float4(std::sin(i * 0.1f), std::cos(i * 0.37f), (i % 17) * 0.1f, 1.0f + (i % 3));
    float4* dp; float3* da;
    CHECK(hipMalloc(&dp, n * sizeof(float4))); CHECK(hipMalloc(&da, n * sizeof(float3)));
    CHECK(hipMemcpy(dp, pos.data(), n * sizeof(float4), hipMemcpyHostToDevice));
    nbody<<<n / 128, 128>>>(dp, da, n);
    CHECK(hipDeviceSynchronize());
    CHECK(hipMemcpy(acc.data(), da, n * sizeof(float3), hipMemcpyDeviceToHost));
    for (int i = 0; i < n && !bad; ++i) {
      double ax = 0;
      for (int j = 0; j < n; ++j) {
        double dx = pos[j].x - pos[i].x, dy = pos[j].y - pos[i].y, dz = pos[j].z - pos[i].z;
        double r2 = dx * dx + dy * dy + dz * dz + 0.01;
        ax += dx * pos[j].w / (r2 * std::sqrt(r2));
      }
      if (std::fabs(acc[i].x - ax) > 1e-3 * (1 + std::fabs(ax))) { std::printf("cooperative_groups: nbody %d: %g, expected %g\n", i, acc[i].x, ax); bad = 1; }
    }
  }
  if (bad) return 1;
  std::printf("cooperative_groups: correct\n");
  return 0;
}
