// A deliberate bug: the kernel stores one element past the end of its buffer
// (the bounds test uses <= instead of <). hipemu reports the store; the
// program prints what the synchronizing call returned.
#include <hip/hip_runtime.h>

#include <cstdio>

__global__ void fill(int* data, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) data[i * 1024] = i;  // BUG: i == n is past the end
}

int main() {
  const int n = 64;
  int* data = nullptr;
  if (hipMalloc(&data, n * 1024 * sizeof(int)) != hipSuccess) return 2;
  fill<<<2, 64>>>(data, n);
  const hipError_t e = hipDeviceSynchronize();
  std::printf("out_of_bounds: hipDeviceSynchronize: %s\n", hipGetErrorName(e));
  (void)hipFree(data);
  return 0;
}
