// Data handed from workgroup to workgroup through global memory, in the two
// patterns GPU libraries use: a chained scan (block b waits behind a flag for
// block b-1's inclusive prefix, adds its own sum and publishes the result)
// and a last-block reduction (each block publishes its partial sum and counts
// itself in with an atomic; the block that counts last adds the partials).
//
//   workgroup_handoff <chained-scan|last-block> <correct|no-release|no-acquire>
//
// `correct` follows the AMDGPU memory model: a release before the flag store
// (or the counting atomic), an acquire after the flag load (or the atomic).
// The other two drop one half: `no-release` lets the value and the flag
// reach other workgroups out of order; `no-acquire` lets the reader's CU
// serve the value from a stale L1 line. Prints "<pattern>: correct" and exits
// 0 when every block's result is right, else the count of wrong ones and 1.
#define PROGRAM "workgroup_handoff"
#include "hip_check.h"
#include <cstring>
#include <string>
#include <vector>

enum Mode { correct, no_release, no_acquire };

constexpr int block_size = 256;

__device__ int block_sum(const int* in) {
  __shared__ int partial[block_size];
  partial[threadIdx.x] = in[blockIdx.x * block_size + threadIdx.x];
  __syncthreads();
  for (int stride = block_size / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  return partial[0];
}

// The mode is a template parameter: each kernel is straight-line code, so
// that the compiler's own waits (at branch joins) cannot hide a dropped release.
template <int mode>
__global__ void chained_scan(const int* in, int* prefix, int* flag, int* out) {
  const int sum = block_sum(in);
  if (threadIdx.x != 0) return;
  const int b = blockIdx.x;
  int before = 0;
  if (b > 0) {
    if constexpr (mode == no_acquire)
      while (__hip_atomic_load(&flag[b - 1], __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT) == 0) {
      }
    else
      while (__hip_atomic_load(&flag[b - 1], __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_AGENT) == 0) {
      }
    before = prefix[b - 1];
  }
  prefix[b] = before + sum;
  if constexpr (mode == no_release)
    __hip_atomic_store(&flag[b], 1, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
  else
    __hip_atomic_store(&flag[b], 1, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_AGENT);
  out[b] = before + sum;
}

template <int mode>
__global__ void last_block(const int* in, int* partial, unsigned* count, int* out) {
  const int sum = block_sum(in);
  if (threadIdx.x != 0) return;
  partial[blockIdx.x] = sum;
  unsigned order;
  if constexpr (mode == no_release)
    order = __hip_atomic_fetch_add(count, 1u, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
  else
    order = __hip_atomic_fetch_add(count, 1u, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_AGENT);
  if (order != gridDim.x - 1) return;
  if constexpr (mode != no_acquire) __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "agent");
  int total = 0;
  for (unsigned i = 0; i < gridDim.x; ++i) total += partial[i];
  *out = total;
}

int main(int argc, char** argv) {
  const std::string pattern = argc > 1 ? argv[1] : "", mode_name = argc > 2 ? argv[2] : "";
  const int mode = mode_name == "correct" ? correct : mode_name == "no-release" ? no_release
                   : mode_name == "no-acquire"                                   ? no_acquire
                                                                                 : -1;
  if ((pattern != "chained-scan" && pattern != "last-block") || mode < 0) {
    std::fprintf(stderr, "usage: workgroup_handoff <chained-scan|last-block> <correct|no-release|no-acquire>\n");
    return 2;
  }
  const int blocks = 96, n = blocks * block_size;
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 7 + 3) % 11 - 4;
  int *d_in, *d_values, *d_flags, *d_out;
  CHECK(hipMalloc(&d_in, n * sizeof(int)));
  CHECK(hipMalloc(&d_values, blocks * sizeof(int)));
  CHECK(hipMalloc(&d_flags, blocks * sizeof(int)));
  CHECK(hipMalloc(&d_out, blocks * sizeof(int)));
  CHECK(hipMemcpy(d_in, in.data(), n * sizeof(int), hipMemcpyHostToDevice));
  CHECK(hipMemset(d_values, 0, blocks * sizeof(int)));
  CHECK(hipMemset(d_flags, 0, blocks * sizeof(int)));
  CHECK(hipMemset(d_out, 0, blocks * sizeof(int)));
  std::vector<int> expected(blocks), got(blocks);
  int results = blocks;
  if (pattern == "chained-scan") {
    auto kernel = mode == correct ? chained_scan<correct> : mode == no_release ? chained_scan<no_release>
                                                                               : chained_scan<no_acquire>;
    hipLaunchKernelGGL(kernel, dim3(blocks), dim3(block_size), 0, 0, d_in, d_values, d_flags, d_out);
    int running = 0;
    for (int b = 0; b < blocks; ++b) {
      for (int i = 0; i < block_size; ++i) running += in[b * block_size + i];
      expected[b] = running;
    }
  } else {
    auto kernel = mode == correct ? last_block<correct> : mode == no_release ? last_block<no_release>
                                                                             : last_block<no_acquire>;
    hipLaunchKernelGGL(kernel, dim3(blocks), dim3(block_size), 0, 0, d_in, d_values,
                       reinterpret_cast<unsigned*>(d_flags), d_out);
    results = 1;
    for (int i = 0; i < n; ++i) expected[0] += in[i];
  }
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(got.data(), d_out, results * sizeof(int), hipMemcpyDeviceToHost));
  int wrong = 0;
  for (int b = 0; b < results; ++b) wrong += got[b] != expected[b];
  if (wrong) {
    std::printf("%s: %d of %d wrong\n", pattern.c_str(), wrong, results);
    return 1;
  }
  std::printf("%s: correct\n", pattern.c_str());
  return 0;
}
