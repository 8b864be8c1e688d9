// __device__ and __constant__ variables on hipemu: device writes persist from
// launch to launch, the host reads and writes them through the symbol API, a
// variable initialised with another's address (a dynamic relocation) points
// into the loaded image. Self-checking; prints one line.
#include <hip/hip_runtime.h>

#include <cstdio>

__device__ int counter = 5;
__device__ int table[4] = {1, 2, 3, 4};
__device__ int* third = &table[2];
__constant__ float scale[2] = {2.0f, 0.5f};

__global__ void bump(int* out) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    counter += 1;
    out[0] = counter;
    out[1] = *third;
    out[2] = int(scale[0] * 10.0f + scale[1]);
  }
}

__global__ void add_table(int* out) { out[threadIdx.x] = table[threadIdx.x] + counter; }

#define CHECK(expr)                                                               \
  do {                                                                            \
    hipError_t e_ = (expr);                                                       \
    if (e_ != hipSuccess) {                                                       \
      std::printf("globals: %s failed: %s\n", #expr, hipGetErrorName(e_));        \
      return 1;                                                                   \
    }                                                                             \
  } while (0)

int main() {
  int* out = nullptr;
  CHECK(hipMalloc(&out, 16));
  int host[4] = {};
  int failures = 0;
  // Initial values from the code object, persistence across launches.
  bump<<<1, 64>>>(out);
  CHECK(hipMemcpy(host, out, 12, hipMemcpyDeviceToHost));
  failures += host[0] != 6 || host[1] != 3 || host[2] != 20;
  bump<<<1, 64>>>(out);
  CHECK(hipMemcpy(host, out, 4, hipMemcpyDeviceToHost));
  failures += host[0] != 7;
  int value = 0;
  CHECK(hipMemcpyFromSymbol(&value, HIP_SYMBOL(counter), sizeof value));
  failures += value != 7;
  // The host writes, the device sees it.
  value = 100;
  CHECK(hipMemcpyToSymbol(HIP_SYMBOL(counter), &value, sizeof value));
  const int row[2] = {40, 50};
  CHECK(hipMemcpyToSymbolAsync(HIP_SYMBOL(table), row, sizeof row, 2 * sizeof(int), hipMemcpyHostToDevice, nullptr));
  add_table<<<1, 4>>>(out);
  CHECK(hipMemcpy(host, out, 16, hipMemcpyDeviceToHost));
  failures += host[0] != 101 || host[1] != 102 || host[2] != 140 || host[3] != 150;
  int back[4] = {};
  CHECK(hipMemcpyFromSymbolAsync(back, HIP_SYMBOL(table), sizeof back, 0, hipMemcpyDeviceToHost, nullptr));
  CHECK(hipStreamSynchronize(nullptr));
  failures += back[0] != 1 || back[3] != 50;
  // Addresses and sizes.
  void* address = nullptr;
  size_t size = 0;
  CHECK(hipGetSymbolAddress(&address, HIP_SYMBOL(table)));
  CHECK(hipGetSymbolSize(&size, HIP_SYMBOL(table)));
  failures += size != 16;
  int via_address[4] = {};
  CHECK(hipMemcpy(via_address, address, 16, hipMemcpyDeviceToHost));
  failures += via_address[2] != 40;
  int* pointer = nullptr;
  CHECK(hipMemcpyFromSymbol(&pointer, HIP_SYMBOL(third), sizeof pointer));
  failures += pointer != static_cast<int*>(address) + 2;
  CHECK(hipGetSymbolSize(&size, HIP_SYMBOL(scale)));
  failures += size != 8;
  // Past the end of the variable; not a variable.
  const hipError_t too_far = hipMemcpyToSymbol(HIP_SYMBOL(counter), row, 8);
  const hipError_t unknown = hipGetSymbolAddress(&address, &failures);
  failures += too_far != hipErrorInvalidValue || unknown != hipErrorInvalidSymbol;
  (void)hipGetLastError();
  CHECK(hipFree(out));
  std::printf("globals: %s\n", failures ? "WRONG" : "correct");
  return failures ? 1 : 0;
}
