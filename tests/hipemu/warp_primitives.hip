// Wave-level primitives: reductions with __shfl_down and __shfl_xor (int,
// float, double, 64-bit), __shfl_up scan, __shfl with width, __ballot,
// __popcll, __any, __all, __lane_id, warpSize, a block reduction through
// shared memory, all against host results.
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                   \
  do {                                                                                \
    hipError_t e_ = (call);                                                           \
    if (e_ != hipSuccess) {                                                           \
      std::printf("warp_primitives: %s failed: %s\n", #call, hipGetErrorString(e_));            \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

struct Out {
  int sum_down, sum_xor;
  float fsum;
  double dsum;
  long long llsum;
  int scan;          // inclusive scan with __shfl_up
  int bcast;         // __shfl from lane 5 of each 16-wide group
  int rot;           // __shfl(v, lane+1) rotation within the wave
  unsigned long long ballot;
  int popc, any, all, lane, wsize;
};

__global__ void wave_ops(const int* in, Out* out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  int s = v;
  for (int o = warpSize / 2; o > 0; o /= 2) s += __shfl_down(s, o);
  int x = v;
  for (int o = 1; o < warpSize; o *= 2) x += __shfl_xor(x, o);
  float f = v * 0.25f;
  for (int o = warpSize / 2; o > 0; o /= 2) f += __shfl_down(f, o);
  double d = v * 0.125;
  for (int o = 1; o < warpSize; o *= 2) d += __shfl_xor(d, o);
  long long ll = (long long)v << 35;
  for (int o = warpSize / 2; o > 0; o /= 2) ll += __shfl_down(ll, o);
  int lane = __lane_id();
  int sc = v;
  for (int o = 1; o < warpSize; o *= 2) {
    int u = __shfl_up(sc, o);
    if (lane >= o) sc += u;
  }
  Out r;
  r.sum_down = s;
  r.sum_xor = x;
  r.fsum = f;
  r.dsum = d;
  r.llsum = ll;
  r.scan = sc;
  r.bcast = __shfl(v, 5, 16);
  r.rot = __shfl(v, (lane + 1) % warpSize);
  r.ballot = __ballot(v & 1);
  r.popc = __popcll(__ballot(v > 50));
  r.any = __any(v == 7);
  r.all = __all(v >= 0);
  r.lane = lane;
  r.wsize = warpSize;
  out[t] = r;
}

__global__ void block_sum(const int* in, int* out, int n) {
  __shared__ int partial[32];
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = t < n ? in[t] : 0;
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down(v, o);
  int wave = threadIdx.x / warpSize;
  if (__lane_id() == 0) partial[wave] = v;
  __syncthreads();
  if (wave == 0) {
    v = (int)threadIdx.x < (int)(blockDim.x / warpSize) ? partial[threadIdx.x] : 0;
    for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down(v, o);
    if (threadIdx.x == 0) atomicAdd(out, v);
  }
}

int main() {
  hipDeviceProp_t prop;
  CHECK(hipGetDeviceProperties(&prop, 0));
  const int W = prop.warpSize;
  if (W != 64) { std::printf("warp_primitives: warpSize %d\n", W); return 1; }
  const int n = 256;
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i) h[i] = (i * 37 + 11) % 101;
  h[70] = 7;
  int* din; Out* dout;
  CHECK(hipMalloc(&din, n * sizeof(int)));
  CHECK(hipMalloc(&dout, n * sizeof(Out)));
  CHECK(hipMemcpy(din, h.data(), n * sizeof(int), hipMemcpyHostToDevice));
  wave_ops<<<2, 128>>>(din, dout);
  std::vector<Out> r(n);
  CHECK(hipMemcpy(r.data(), dout, n * sizeof(Out), hipMemcpyDeviceToHost));
  int bad = 0;
  for (int w = 0; w < n / W && !bad; ++w) {
    const int* v = &h[w * W];
    int total = 0; long long lltotal = 0; unsigned long long ballot = 0; int pop = 0, any = 0, all = 1;
    for (int l = 0; l < W; ++l) {
      total += v[l]; lltotal += (long long)v[l] << 35;
      if (v[l] & 1) ballot |= 1ull << l;
      pop += v[l] > 50; any |= v[l] == 7; all &= v[l] >= 0;
    }
    // The reductions' exact orders: shfl_down's tree and shfl_xor's butterfly.
    std::vector<float> f(W); std::vector<double> d(W);
    for (int l = 0; l < W; ++l) { f[l] = v[l] * 0.25f; d[l] = v[l] * 0.125; }
    for (int o = W / 2; o > 0; o /= 2) { std::vector<float> g = f; for (int l = 0; l < W; ++l) g[l] = f[l] + (l + o < W ? f[l + o] : f[l]); f = g; }
    for (int o = 1; o < W; o *= 2) { std::vector<double> g = d; for (int l = 0; l < W; ++l) g[l] = d[l] + d[l ^ o]; d = g; }
    int scan = 0;
    for (int l = 0; l < W && !bad; ++l) {
      const Out& o = r[w * W + l];
      scan += v[l];
      if (l == 0 && (o.sum_down != total || o.llsum != lltotal || o.fsum != f[0])) {
        std::printf("warp_primitives: wave %d lane 0: shfl_down sums %d %lld %g, expected %d %lld %g\n", w, o.sum_down, o.llsum, o.fsum, total, lltotal, f[0]); bad = 1;
      }
      if (o.sum_xor != total || o.dsum != d[l]) { std::printf("warp_primitives: wave %d lane %d: shfl_xor sums %d %g, expected %d %g\n", w, l, o.sum_xor, o.dsum, total, d[l]); bad = 1; }
      if (o.scan != scan) { std::printf("warp_primitives: wave %d lane %d: scan %d, expected %d\n", w, l, o.scan, scan); bad = 1; }
      if (o.bcast != v[(l / 16) * 16 + 5]) { std::printf("warp_primitives: wave %d lane %d: shfl width 16: %d, expected %d\n", w, l, o.bcast, v[(l / 16) * 16 + 5]); bad = 1; }
      if (o.rot != v[(l + 1) % W]) { std::printf("warp_primitives: wave %d lane %d: rotation %d, expected %d\n", w, l, o.rot, v[(l + 1) % W]); bad = 1; }
      if (o.ballot != ballot || o.popc != pop || o.any != any || o.all != all || o.lane != l || o.wsize != W) {
        std::printf("warp_primitives: wave %d lane %d: ballot %llx popc %d any %d all %d lane %d warpSize %d, expected %llx %d %d %d %d %d\n",
                    w, l, o.ballot, o.popc, o.any, o.all, o.lane, o.wsize, ballot, pop, any, all, l, W); bad = 1;
      }
    }
  }
  if (bad) return 1;
  const int m = 100000;
  std::vector<int> big(m);
  long long ref = 0;
  for (int i = 0; i < m; ++i) { big[i] = (i % 1000) - 400; ref += big[i]; }
  int *dbig, *dsum;
  CHECK(hipMalloc(&dbig, m * sizeof(int)));
  CHECK(hipMalloc(&dsum, sizeof(int)));
  CHECK(hipMemcpy(dbig, big.data(), m * sizeof(int), hipMemcpyHostToDevice));
  CHECK(hipMemset(dsum, 0, sizeof(int)));
  hipLaunchKernelGGL(block_sum, dim3((m + 511) / 512), dim3(512), 0, 0, dbig, dsum, m);
  int sum = 0;
  CHECK(hipMemcpy(&sum, dsum, sizeof(int), hipMemcpyDeviceToHost));
  if (sum != ref) { std::printf("warp_primitives: block_sum %d, expected %lld\n", sum, ref); return 1; }
  std::printf("warp_primitives: correct\n");
  return 0;
}
