// A shared library with its own device code whose entry point, as many
// libraries do, launches a kernel without looking at the launch's error.
#include <hip/hip_runtime.h>

__global__ void fill_squares(int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i * i;
}

extern "C" void library_fill(int* device_out, int n) {
  fill_squares<<<(n + 255) / 256, 256>>>(device_out, n);
}
