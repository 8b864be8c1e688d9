// A kernel compiled by hipcc --genco (an offload bundle) for the hipemu tests.
#include <hip/hip_runtime.h>

extern "C" __global__ void axpy(float a, const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
