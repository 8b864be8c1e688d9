// The runtime API calls an ordinary HIP program makes beyond malloc, copy and
// launch, on hipemu: occupancy, function attributes, cache configuration,
// limits, device flags, managed memory, pitched memory and 2D copies, host
// registration and mapped pointers, stream callbacks, and an entry point
// hipemu does not provide. Self-checking against host results; prints one
// line per check that fails and a summary.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

static int failures = 0;
#define EXPECT(cond)                                              \
  do {                                                            \
    if (!(cond)) {                                                \
      std::printf("runtime_api: line %d: %s\n", __LINE__, #cond); \
      ++failures;                                                 \
    }                                                             \
  } while (0)

__global__ void scale(float* data, int n, float factor) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}

__global__ void shared_sum(const int* in, int* out) {
  __shared__ int partial[256];
  partial[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  __syncthreads();
  for (int stride = 128; stride > 0; stride /= 2) {
    if (int(threadIdx.x) < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}

// Adds the row number to every element of a pitched 2D array.
__global__ void add_row(float* data, size_t pitch, int width, int height) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < width && y < height) reinterpret_cast<float*>(reinterpret_cast<char*>(data) + y * pitch)[x] += float(y);
}

static void on_stream(hipStream_t, hipError_t status, void* user) {
  *static_cast<int*>(user) = status == hipSuccess ? 42 : -1;
}

int main() {
  // Occupancy and attributes.
  int blocks = 0, grid = 0, block = 0;
  EXPECT(hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, scale, 256, 0) == hipSuccess);
  EXPECT(blocks >= 1 && blocks <= 10);  // 4 waves each, at most 40 waves (10 per SIMD) per CU
  int blocks_lds = 0;
  EXPECT(hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_lds, shared_sum, 256, 32768) == hipSuccess);
  EXPECT(blocks_lds == 1);  // 1 KiB static + 32 KiB dynamic of 64 KiB
  EXPECT(hipOccupancyMaxPotentialBlockSize(&grid, &block, scale, 0, 0) == hipSuccess);
  hipDeviceProp_t props;
  EXPECT(hipGetDeviceProperties(&props, 0) == hipSuccess);
  EXPECT(block % 64 == 0 && block >= 64 && block <= 1024 && grid % props.multiProcessorCount == 0);
  EXPECT(hipOccupancyMaxPotentialBlockSize(&grid, &block, scale, 0, 100) == hipSuccess && block == 64);
  hipFuncAttributes attributes;
  EXPECT(hipFuncGetAttributes(&attributes, reinterpret_cast<const void*>(shared_sum)) == hipSuccess);
  EXPECT(attributes.sharedSizeBytes == 1024 && attributes.maxThreadsPerBlock == 1024 && attributes.numRegs > 0);
  EXPECT(hipFuncGetAttributes(&attributes, reinterpret_cast<const void*>(&main)) == hipErrorInvalidDeviceFunction);

  // Cache configuration, limits, flags.
  hipFuncCache_t cache;
  EXPECT(hipDeviceSetCacheConfig(hipFuncCachePreferShared) == hipSuccess);
  EXPECT(hipDeviceGetCacheConfig(&cache) == hipSuccess && cache == hipFuncCachePreferShared);
  size_t heap = 1;
  EXPECT(hipDeviceGetLimit(&heap, hipLimitMallocHeapSize) == hipSuccess);
  EXPECT(hipDeviceGetLimit(&heap, hipLimitPrintfFifoSize) == hipErrorUnsupportedLimit);
  unsigned flags = 99;
  EXPECT(hipSetDeviceFlags(hipDeviceScheduleYield | hipDeviceMapHost) == hipSuccess);
  EXPECT(hipGetDeviceFlags(&flags) == hipSuccess && flags == (hipDeviceScheduleYield | hipDeviceMapHost));
  EXPECT(hipSetDeviceFlags(0x3) == hipErrorInvalidValue);

  // Managed memory: the same pointer on both sides.
  const int n = 1000;
  float* managed = nullptr;
  EXPECT(hipMallocManaged(&managed, n * sizeof(float)) == hipSuccess);
  for (int i = 0; i < n; ++i) managed[i] = float(i);
  scale<<<(n + 255) / 256, 256>>>(managed, n, 3.0f);
  EXPECT(hipDeviceSynchronize() == hipSuccess);
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += managed[i] != 3.0f * float(i);
  EXPECT(wrong == 0);
  EXPECT(hipFree(managed) == hipSuccess);

  // Pitched memory and 2D copies.
  const int width = 100, height = 7;
  float* pitched = nullptr;
  size_t pitch = 0;
  EXPECT(hipMallocPitch(reinterpret_cast<void**>(&pitched), &pitch, width * sizeof(float), height) == hipSuccess);
  EXPECT(pitch >= width * sizeof(float) && pitch % 256 == 0);
  std::vector<float> host(width * height), back(width * height);
  for (int i = 0; i < width * height; ++i) host[i] = float(i) * 0.25f;
  EXPECT(hipMemcpy2D(pitched, pitch, host.data(), width * sizeof(float), width * sizeof(float), height,
                     hipMemcpyHostToDevice) == hipSuccess);
  add_row<<<dim3(1, height), 128>>>(pitched, pitch, width, height);
  EXPECT(hipMemcpy2DAsync(back.data(), width * sizeof(float), pitched, pitch, width * sizeof(float), height,
                          hipMemcpyDeviceToHost, nullptr) == hipSuccess);
  EXPECT(hipStreamSynchronize(nullptr) == hipSuccess);
  wrong = 0;
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) wrong += back[y * width + x] != host[y * width + x] + float(y);
  EXPECT(wrong == 0);
  EXPECT(hipMemcpy2D(pitched, 4, host.data(), 400, 400, 1, hipMemcpyHostToDevice) == hipErrorInvalidPitchValue);
  EXPECT(hipFree(pitched) == hipSuccess);

  // Registered host memory and its device pointer.
  std::vector<float> registered(n, 2.0f);
  EXPECT(hipHostRegister(registered.data(), n * sizeof(float), hipHostRegisterMapped) == hipSuccess);
  EXPECT(hipHostRegister(registered.data(), n * sizeof(float), 0) == hipErrorHostMemoryAlreadyRegistered);
  float* device_view = nullptr;
  EXPECT(hipHostGetDevicePointer(reinterpret_cast<void**>(&device_view), registered.data(), 0) == hipSuccess);
  scale<<<(n + 255) / 256, 256>>>(device_view, n, 0.5f);
  EXPECT(hipDeviceSynchronize() == hipSuccess);
  EXPECT(registered[0] == 1.0f && registered[n - 1] == 1.0f);
  EXPECT(hipHostUnregister(registered.data()) == hipSuccess);
  EXPECT(hipHostUnregister(registered.data()) == hipErrorHostMemoryNotRegistered);
  float* pinned = nullptr;
  EXPECT(hipHostMalloc(reinterpret_cast<void**>(&pinned), 64 * sizeof(float), 0) == hipSuccess);
  for (int i = 0; i < 64; ++i) pinned[i] = 1.0f;
  scale<<<1, 64>>>(pinned, 64, 5.0f);
  EXPECT(hipDeviceSynchronize() == hipSuccess && pinned[63] == 5.0f);
  EXPECT(hipHostFree(pinned) == hipSuccess);

  // Shared memory reduction, then a callback after it on a stream.
  std::vector<int> values(4 * 256), sums(4);
  for (int i = 0; i < 4 * 256; ++i) values[i] = i % 97;
  int *d_values = nullptr, *d_sums = nullptr;
  EXPECT(hipMalloc(&d_values, values.size() * sizeof(int)) == hipSuccess);
  EXPECT(hipMalloc(&d_sums, 4 * sizeof(int)) == hipSuccess);
  hipStream_t stream;
  EXPECT(hipStreamCreate(&stream) == hipSuccess);
  EXPECT(hipMemcpyAsync(d_values, values.data(), values.size() * sizeof(int), hipMemcpyHostToDevice, stream) ==
         hipSuccess);
  hipLaunchKernelGGL(shared_sum, dim3(4), dim3(256), 0, stream, d_values, d_sums);
  int called = 0;
  EXPECT(hipStreamAddCallback(stream, on_stream, &called, 0) == hipSuccess);
  EXPECT(hipStreamAddCallback(stream, on_stream, &called, 1) == hipErrorInvalidValue);
  EXPECT(hipMemcpyAsync(sums.data(), d_sums, 4 * sizeof(int), hipMemcpyDeviceToHost, stream) == hipSuccess);
  EXPECT(hipStreamSynchronize(stream) == hipSuccess);
  EXPECT(called == 42);
  for (int b = 0; b < 4; ++b) {
    int expected = 0;
    for (int i = 0; i < 256; ++i) expected += values[b * 256 + i];
    EXPECT(sums[b] == expected);
  }
  EXPECT(hipStreamDestroy(stream) == hipSuccess);
  EXPECT(hipFree(d_values) == hipSuccess && hipFree(d_sums) == hipSuccess);

  // An entry point hipemu does not provide: its documented failure.
  hipGraph_t clone = nullptr;
  EXPECT(hipGraphClone(&clone, nullptr) == hipErrorNotSupported);
  EXPECT(hipGetLastError() == hipErrorNotSupported);

  std::printf("runtime_api: %s\n", failures ? "WRONG" : "correct");
  return failures ? 1 : 0;
}
