// Prefix sums: a Blelloch work-efficient exclusive scan per block in shared
// memory (dynamic size), the block sums scanned recursively and added back;
// a decoupled inclusive scan of 64-bit values with __shfl_up inside waves;
// stream compaction with __ballot/__popcll and an atomic offset; bitonic sort
// of a block in shared memory.
#define PROGRAM "scan_sort"
#include "hip_check.h"
#include <algorithm>
#include <vector>

__global__ void block_scan(const int* in, int* out, int* block_sums, int n) {
  extern __shared__ int temp[];
  const int t = threadIdx.x, block = 2 * blockDim.x, base = blockIdx.x * block;
  temp[2 * t] = base + 2 * t < n ? in[base + 2 * t] : 0;
  temp[2 * t + 1] = base + 2 * t + 1 < n ? in[base + 2 * t + 1] : 0;
  int offset = 1;
  for (int d = block >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d) {
      int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
      temp[bi] += temp[ai];
    }
    offset *= 2;
  }
  if (t == 0) {
    if (block_sums) block_sums[blockIdx.x] = temp[block - 1];
    temp[block - 1] = 0;
  }
  for (int d = 1; d < block; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (t < d) {
      int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
      int x = temp[ai];
      temp[ai] = temp[bi];
      temp[bi] += x;
    }
  }
  __syncthreads();
  if (base + 2 * t < n) out[base + 2 * t] = temp[2 * t];
  if (base + 2 * t + 1 < n) out[base + 2 * t + 1] = temp[2 * t + 1];
}

__global__ void add_block_offsets(int* out, const int* offsets, int n) {
  int i = blockIdx.x * 2 * blockDim.x + threadIdx.x;
  int add = offsets[blockIdx.x];
  if (i < n) out[i] += add;
  if (i + int(blockDim.x) < n) out[i + blockDim.x] += add;
}

__global__ void wave_scan64(const long long* in, long long* out, int n) {
  __shared__ long long wave_totals[16];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  long long v = i < n ? in[i] : 0;
  int lane = __lane_id(), wave = threadIdx.x / warpSize;
  for (int o = 1; o < warpSize; o *= 2) {
    long long u = __shfl_up(v, o);
    if (lane >= o) v += u;
  }
  if (lane == warpSize - 1) wave_totals[wave] = v;
  __syncthreads();
  if (wave == 0) {
    long long t = lane < int(blockDim.x / warpSize) ? wave_totals[lane] : 0;
    for (int o = 1; o < warpSize; o *= 2) {
      long long u = __shfl_up(t, o);
      if (lane >= o) t += u;
    }
    if (lane < int(blockDim.x / warpSize)) wave_totals[lane] = t;
  }
  __syncthreads();
  if (wave > 0) v += wave_totals[wave - 1];
  if (i < n) out[i] = v;  // inclusive within the block
}

__global__ void compact(const int* in, int* out, int* count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool keep = i < n && in[i] % 5 == 0;
  unsigned long long mask = __ballot(keep);
  int lane = __lane_id();
  int before = __popcll(mask & ((1ull << lane) - 1));
  int base = 0;
  if (lane == 0) base = atomicAdd(count, __popcll(mask));
  base = __shfl(base, 0);
  if (keep) out[base + before] = in[i];
}

__global__ void bitonic_sort(int* data) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  s[t] = data[blockIdx.x * 1024 + t];
  __syncthreads();
  for (int k = 2; k <= 1024; k <<= 1)
    for (int j = k >> 1; j > 0; j >>= 1) {
      int ixj = t ^ j;
      if (ixj > t) {
        bool up = (t & k) == 0;
        if ((s[t] > s[ixj]) == up) { int x = s[t]; s[t] = s[ixj]; s[ixj] = x; }
      }
      __syncthreads();
    }
  data[blockIdx.x * 1024 + t] = s[t];
}

int main() {
  int bad = 0;
  const int n = 100000, threads = 256, per_block = 2 * threads;
  const int blocks = (n + per_block - 1) / per_block;  // 196: one more level of 256 covers it
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 31 + 7) % 97 - 40;
  int *din, *dout, *dsums, *dsums_scanned;
  CHECK(hipMalloc(&din, n * 4)); CHECK(hipMalloc(&dout, n * 4));
  CHECK(hipMalloc(&dsums, per_block * 4)); CHECK(hipMalloc(&dsums_scanned, per_block * 4));
  CHECK(hipMemset(dsums, 0, per_block * 4));
  CHECK(hipMemcpy(din, in.data(), n * 4, hipMemcpyHostToDevice));
  block_scan<<<blocks, threads, per_block * sizeof(int)>>>(din, dout, dsums, n);
  block_scan<<<1, threads, per_block * sizeof(int)>>>(dsums, dsums_scanned, nullptr, blocks);
  add_block_offsets<<<blocks, threads>>>(dout, dsums_scanned, n);
  std::vector<int> out(n);
  CHECK(hipMemcpy(out.data(), dout, n * 4, hipMemcpyDeviceToHost));
  int running = 0;
  for (int i = 0; i < n; ++i) {
    if (out[i] != running) { std::printf("scan_sort: exclusive[%d] = %d, expected %d\n", i, out[i], running); bad = 1; break; }
    running += in[i];
  }
  // 64-bit inclusive per block of 1024
  std::vector<long long> l(n), lo(n);
  for (int i = 0; i < n; ++i) l[i] = (long long)in[i] << 36;
  long long *dl, *dlo;
  CHECK(hipMalloc(&dl, n * 8)); CHECK(hipMalloc(&dlo, n * 8));
  CHECK(hipMemcpy(dl, l.data(), n * 8, hipMemcpyHostToDevice));
  wave_scan64<<<(n + 1023) / 1024, 1024>>>(dl, dlo, n);
  CHECK(hipMemcpy(lo.data(), dlo, n * 8, hipMemcpyDeviceToHost));
  long long acc = 0;
  for (int i = 0; i < n; ++i) {
    if (i % 1024 == 0) acc = 0;
    acc += l[i];
    if (lo[i] != acc) { std::printf("scan_sort: inclusive64[%d] = %lld, expected %lld\n", i, lo[i], acc); bad = 1; break; }
  }
  // compaction: order within a wave is kept, waves land in any order
  int* dcount;
  CHECK(hipMalloc(&dcount, 4)); CHECK(hipMemset(dcount, 0, 4));
  compact<<<(n + 255) / 256, 256>>>(din, dout, dcount, n);
  int count = 0;
  CHECK(hipMemcpy(&count, dcount, 4, hipMemcpyDeviceToHost));
  std::vector<int> kept;
  for (int v : in) if (v % 5 == 0) kept.push_back(v);
  CHECK(hipMemcpy(out.data(), dout, count * 4, hipMemcpyDeviceToHost));
  std::vector<int> got(out.begin(), out.begin() + count);
  std::sort(got.begin(), got.end()); std::sort(kept.begin(), kept.end());
  if (count != int(kept.size()) || got != kept) { std::printf("scan_sort: compaction kept %d, expected %zu\n", count, kept.size()); bad = 1; }
  // bitonic sort of 4 blocks
  std::vector<int> s(4096);
  for (int i = 0; i < 4096; ++i) s[i] = (i * 2654435761u) >> 7;
  CHECK(hipMemcpy(din, s.data(), 4096 * 4, hipMemcpyHostToDevice));
  bitonic_sort<<<4, 1024>>>(din);
  std::vector<int> sorted(4096);
  CHECK(hipMemcpy(sorted.data(), din, 4096 * 4, hipMemcpyDeviceToHost));
  for (int b = 0; b < 4; ++b) std::sort(s.begin() + b * 1024, s.begin() + (b + 1) * 1024);
  if (sorted != s) { std::printf("scan_sort: bitonic sort differs\n"); bad = 1; }
  if (bad) return 1;
  std::printf("scan_sort: correct\n");
  return 0;
}
