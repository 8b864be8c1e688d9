// What a program asks about the device before it runs: hipGetDeviceProperties
// fields against hipDeviceGetAttribute, name, arch, PCI id round trip, memory,
// versions, occupancy of a real kernel, hipFuncGetAttributes, the context
// API (create, current, push/pop, primary context), and launches
// the runtime must refuse (too many threads, too much shared memory).
#define PROGRAM "device_properties"
#include "hip_check.h"
#include <algorithm>
#include <climits>
#include <cstring>
#include <string>

__global__ void kernel_with_lds(float* out) {
  __shared__ float tile[1024];
  tile[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = tile[1023 - threadIdx.x];
}

static int failures = 0;
#define EXPECT(cond) do { if (!(cond)) { std::printf("device_properties: line %d: %s\n", __LINE__, #cond); ++failures; } } while (0)

int main() {
  int count = 0, dev = -1;
  CHECK(hipGetDeviceCount(&count));
  CHECK(hipGetDevice(&dev));
  EXPECT(count == 1 && dev == 0);
  hipDeviceProp_t p;
  CHECK(hipGetDeviceProperties(&p, 0));
  std::printf("device_properties: %s, %s, %d CUs, warp %d, %zu MiB, LDS/block %zu, clock %d kHz\n", p.name, p.gcnArchName,
              p.multiProcessorCount, p.warpSize, p.totalGlobalMem >> 20, p.sharedMemPerBlock, p.clockRate);
  auto attr = [](hipDeviceAttribute_t a) { int v = -1; CHECK(hipDeviceGetAttribute(&v, a, 0)); return v; };
  EXPECT(attr(hipDeviceAttributeMultiprocessorCount) == p.multiProcessorCount);
  EXPECT(attr(hipDeviceAttributeWarpSize) == p.warpSize && p.warpSize == 64);
  EXPECT(attr(hipDeviceAttributeMaxThreadsPerBlock) == p.maxThreadsPerBlock && p.maxThreadsPerBlock == 1024);
  EXPECT(attr(hipDeviceAttributeMaxSharedMemoryPerBlock) == int(p.sharedMemPerBlock) && p.sharedMemPerBlock == 65536);
  EXPECT(attr(hipDeviceAttributeMaxBlockDimX) == p.maxThreadsDim[0]);
  EXPECT(attr(hipDeviceAttributeMaxGridDimX) == p.maxGridSize[0]);
  EXPECT(attr(hipDeviceAttributeClockRate) == p.clockRate);
  EXPECT(attr(hipDeviceAttributeComputeCapabilityMajor) == p.major);
  EXPECT(attr(hipDeviceAttributeComputeCapabilityMinor) == p.minor);
  EXPECT(attr(hipDeviceAttributeL2CacheSize) == p.l2CacheSize);
  EXPECT(attr(hipDeviceAttributeMaxRegistersPerBlock) == p.regsPerBlock);
  EXPECT(attr(hipDeviceAttributeTotalConstantMemory) == int(std::min<size_t>(p.totalConstMem, INT_MAX)));  // an int: saturated
  EXPECT(attr(hipDeviceAttributeMemoryBusWidth) == p.memoryBusWidth);
  EXPECT(attr(hipDeviceAttributeConcurrentKernels) == p.concurrentKernels);
  EXPECT(attr(hipDeviceAttributeManagedMemory) == p.managedMemory);
  EXPECT(attr(hipDeviceAttributeCanMapHostMemory) == p.canMapHostMemory);
  EXPECT(std::string(p.gcnArchName).rfind("gfx9", 0) == 0);
  // What device queries print and some programs check before running.
  EXPECT(p.arch.hasGlobalInt32Atomics && p.arch.hasSharedInt32Atomics && p.arch.hasGlobalInt64Atomics &&
         p.arch.hasSharedInt64Atomics && p.arch.hasFloatAtomicAdd && p.arch.hasDoubles && p.arch.hasWarpVote &&
         p.arch.hasWarpBallot && p.arch.hasWarpShuffle && p.arch.has3dGrid);
  EXPECT(!p.arch.hasDynamicParallelism && !p.arch.hasSurfaceFuncs);
  EXPECT(p.totalGlobalMem > (1ull << 30));
  char name[256];
  CHECK(hipDeviceGetName(name, sizeof name, 0));
  EXPECT(std::strcmp(name, p.name) == 0);
  char bus[32];
  CHECK(hipDeviceGetPCIBusId(bus, sizeof bus, 0));
  int found = -1;
  CHECK(hipDeviceGetByPCIBusId(&found, bus));
  EXPECT(found == 0);
  int chosen = -1;
  CHECK(hipChooseDevice(&chosen, &p));
  EXPECT(chosen == 0);
  int driver = 0, runtime = 0;
  CHECK(hipDriverGetVersion(&driver));
  CHECK(hipRuntimeGetVersion(&runtime));
  EXPECT(driver > 0 && runtime > 0);
  size_t free_bytes = 0, total = 0;
  CHECK(hipMemGetInfo(&free_bytes, &total));
  EXPECT(total == p.totalGlobalMem && free_bytes <= total);
  hipFuncAttributes fa;
  CHECK(hipFuncGetAttributes(&fa, reinterpret_cast<const void*>(kernel_with_lds)));
  EXPECT(fa.sharedSizeBytes == 4096);
  EXPECT(fa.maxThreadsPerBlock == 1024);
  int blocks = 0;
  CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel_with_lds, 1024, 0));
  EXPECT(blocks >= 1);
  CHECK(hipFuncSetAttribute(reinterpret_cast<const void*>(kernel_with_lds), hipFuncAttributeMaxDynamicSharedMemorySize, 8192));
  // The context API of driver-style programs: one device, one context
  // (deprecated in ROCm 5.2's header, still used by ported driver-API code).
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
  CHECK(hipInit(0));
  hipDevice_t device;
  CHECK(hipDeviceGet(&device, 0));
  hipCtx_t ctx = nullptr, current = nullptr, primary = nullptr, popped = nullptr;
  CHECK(hipCtxCreate(&ctx, 0, device));
  CHECK(hipCtxGetCurrent(&current));
  EXPECT(ctx != nullptr && current == ctx);
  hipDevice_t ctx_device = -1;
  CHECK(hipCtxGetDevice(&ctx_device));
  EXPECT(ctx_device == 0);
  CHECK(hipDevicePrimaryCtxRetain(&primary, device));
  CHECK(hipCtxPushCurrent(primary));
  CHECK(hipCtxPopCurrent(&popped));
  EXPECT(popped == primary);
  unsigned ctx_flags = 99;
  int active = 0;
  CHECK(hipDevicePrimaryCtxGetState(device, &ctx_flags, &active));
  EXPECT(active == 1);
  CHECK(hipCtxSynchronize());
  CHECK(hipDevicePrimaryCtxRelease(device));
  CHECK(hipCtxDestroy(ctx));
#pragma clang diagnostic pop
  // Launches the runtime refuses, and says why.
  float* out;
  CHECK(hipMalloc(&out, 4096 * sizeof(float)));
  kernel_with_lds<<<1, 2048>>>(out);
  EXPECT(hipGetLastError() == hipErrorInvalidValue);
  kernel_with_lds<<<1, 1024, 65536>>>(out);
  EXPECT(hipGetLastError() == hipErrorInvalidValue);
  kernel_with_lds<<<1, 1024>>>(out);
  CHECK(hipGetLastError());
  float h[1024];
  CHECK(hipMemcpy(h, out, sizeof h, hipMemcpyDeviceToHost));
  for (int i = 0; i < 1024; ++i) EXPECT(h[i] == float(1023 - i));
  if (failures) return 1;
  std::printf("device_properties: correct\n");
  return 0;
}
