// A naturally aligned 64-bit store or load is single-copy atomic on the GPU
// (LLVM AMDGPUUsage, "Memory Model"): workgroup 0 stores the pairs (i, i)
// with one 64-bit atomic store each, the other workgroups read the pair with
// one 64-bit atomic load each and count the reads whose halves differ. On
// the emulator the workgroups run on different host threads at once.
#define PROGRAM "single_copy"
#include "hip_check.h"

__global__ void pairs(unsigned long long* slot, unsigned* torn, int iterations) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    for (unsigned long long i = 1; i <= (unsigned long long)iterations; ++i)
      __hip_atomic_store(slot, (i << 32) | i, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
    return;
  }
  unsigned count = 0;
  for (int i = 0; i < iterations; ++i) {
    const unsigned long long v = __hip_atomic_load(slot, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
    count += (v >> 32) != (v & 0xffffffffu);
  }
  torn[blockIdx.x] = count;
}

int main() {
  const int readers = 3, iterations = 200000;
  unsigned long long* slot;
  unsigned* torn;
  CHECK(hipMalloc(&slot, 8));
  CHECK(hipMalloc(&torn, (readers + 1) * sizeof(unsigned)));
  CHECK(hipMemset(slot, 0, 8));
  CHECK(hipMemset(torn, 0, (readers + 1) * sizeof(unsigned)));
  hipLaunchKernelGGL(pairs, dim3(readers + 1), dim3(64), 0, 0, slot, torn, iterations);
  CHECK(hipGetLastError());
  unsigned counts[readers + 1];
  CHECK(hipMemcpy(counts, torn, sizeof counts, hipMemcpyDeviceToHost));
  unsigned total = 0;
  for (int r = 1; r <= readers; ++r) total += counts[r];
  if (total) {
    std::printf("single_copy: %u of %d 64-bit loads saw half a store\n", total, readers * iterations);
    return 1;
  }
  std::printf("single_copy: correct\n");
  return 0;
}
