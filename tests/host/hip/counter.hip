// A module with a __device__ variable, for hipModuleGetGlobal: each launch
// counts itself in `launches` and writes the new count out.
#include <hip/hip_runtime.h>

__device__ unsigned launches = 10;

extern "C" __global__ void count(unsigned* out) {
  if (threadIdx.x == 0 && blockIdx.x == 0) out[0] = ++launches;
}
