// A deliberate bug: a block reverses an array through shared memory but
// forgets __syncthreads() between the writes and the reads, so a wave may
// read slots another wave has not written yet. The checkers report the race
// whatever the outcome; the program prints how many results differ (which
// depends on the order the waves happen to run in).
#include <hip/hip_runtime.h>

#include <cstdio>

__global__ void reverse(const int* in, int* out) {
  __shared__ int tile[256];
  tile[threadIdx.x] = in[threadIdx.x];
  // BUG: __syncthreads() missing here
  out[threadIdx.x] = tile[255 - threadIdx.x];
}

int main() {
  int host[256], result[256];
  for (int i = 0; i < 256; ++i) host[i] = i * 3;
  int *in = nullptr, *out = nullptr;
  if (hipMalloc(&in, sizeof host) != hipSuccess || hipMalloc(&out, sizeof host) != hipSuccess) return 2;
  (void)hipMemcpy(in, host, sizeof host, hipMemcpyHostToDevice);
  reverse<<<1, 256>>>(in, out);
  (void)hipMemcpy(result, out, sizeof result, hipMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < 256; ++i) wrong += result[i] != host[255 - i];
  std::printf("missing_syncthreads: %d of 256 wrong\n", wrong);
  (void)hipFree(in);
  (void)hipFree(out);
  return 0;
}
