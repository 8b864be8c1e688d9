// The memory API beyond hipMalloc/hipMemcpy: memsets of every width (sync
// and async), 2D memsets and copies in every direction, hipMemcpyDefault,
// hipMemcpyWithStream, peer copies on one device, host allocations under
// their other names, pointer attributes and address ranges, managed memory
// with prefetch and advice.
#define PROGRAM "memory_api"
#include "hip_check.h"
#include <cstring>
#include <cstdint>
#include <vector>

__global__ void add_one(int* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += 1;
}

static int failures = 0;
#define EXPECT(cond)                                                   \
  do {                                                                 \
    if (!(cond)) {                                                     \
      std::printf("memory_api: line %d: %s\n", __LINE__, #cond);           \
      ++failures;                                                      \
    }                                                                  \
  } while (0)

int main() {
  const int n = 1000;
  hipStream_t s;
  CHECK(hipStreamCreate(&s));
  // memsets
  unsigned char* d8; unsigned short* d16; unsigned* d32;
  CHECK(hipMalloc(&d8, n)); CHECK(hipMalloc(&d16, n * 2)); CHECK(hipMalloc(&d32, n * 4));
  CHECK(hipMemset(d8, 0xab, n));
  CHECK(hipMemsetD8(reinterpret_cast<hipDeviceptr_t>(d8 + 10), 0x11, 5));
  CHECK(hipMemsetD16(reinterpret_cast<hipDeviceptr_t>(d16), 0xbeef, n));
  CHECK(hipMemsetD32(reinterpret_cast<hipDeviceptr_t>(d32), 0xdeadbeef, n));
  CHECK(hipMemsetAsync(d32 + 100, 0, 40, s));
  CHECK(hipMemsetD16Async(reinterpret_cast<hipDeviceptr_t>(d16 + 7), 0x1234, 3, s));
  CHECK(hipStreamSynchronize(s));
  std::vector<unsigned char> h8(n); std::vector<unsigned short> h16(n); std::vector<unsigned> h32(n);
  CHECK(hipMemcpy(h8.data(), d8, n, hipMemcpyDefault));
  CHECK(hipMemcpy(h16.data(), d16, n * 2, hipMemcpyDefault));
  CHECK(hipMemcpyWithStream(h32.data(), d32, n * 4, hipMemcpyDeviceToHost, s));
  for (int i = 0; i < n; ++i) {
    EXPECT(h8[i] == ((i >= 10 && i < 15) ? 0x11 : 0xab));
    EXPECT(h16[i] == ((i >= 7 && i < 10) ? 0x1234 : 0xbeef));
    EXPECT(h32[i] == ((i >= 100 && i < 110) ? 0u : 0xdeadbeefu));
    if (failures) { std::printf("memory_api: memset element %d\n", i); return 1; }
  }
  // 2D
  const int w = 37, hgt = 11;
  size_t pitch = 0;
  char* d2;
  CHECK(hipMallocPitch(reinterpret_cast<void**>(&d2), &pitch, w, hgt));
  CHECK(hipMemset2D(d2, pitch, 0x5a, w, hgt));
  CHECK(hipMemset2DAsync(d2 + 2 * pitch + 3, pitch, 0x33, 4, 2, s));
  std::vector<char> h2(w * hgt);
  CHECK(hipMemcpy2D(h2.data(), w, d2, pitch, w, hgt, hipMemcpyDeviceToHost));
  for (int y = 0; y < hgt; ++y)
    for (int x = 0; x < w; ++x) EXPECT(h2[y * w + x] == ((y >= 2 && y < 4 && x >= 3 && x < 7) ? 0x33 : 0x5a));
  std::vector<char> src(w * hgt);
  for (int i = 0; i < w * hgt; ++i) src[i] = char(i * 13);
  char* d2b; size_t pitch_b;
  CHECK(hipMallocPitch(reinterpret_cast<void**>(&d2b), &pitch_b, w, hgt));
  CHECK(hipMemcpy2D(d2, pitch, src.data(), w, w, hgt, hipMemcpyHostToDevice));
  CHECK(hipMemcpy2D(d2b, pitch_b, d2, pitch, w, hgt, hipMemcpyDeviceToDevice));
  CHECK(hipMemcpy2DAsync(h2.data(), w, d2b, pitch_b, w, hgt, hipMemcpyDefault, s));
  CHECK(hipStreamSynchronize(s));
  EXPECT(std::memcmp(h2.data(), src.data(), w * hgt) == 0);
  // peer copy on the one device, DtoD async
  int* a; int* b;
  CHECK(hipMalloc(&a, n * 4)); CHECK(hipMalloc(&b, n * 4));
  std::vector<int> hi(n), ho(n);
  for (int i = 0; i < n; ++i) hi[i] = i * 3;
  CHECK(hipMemcpyHtoD(reinterpret_cast<hipDeviceptr_t>(a), hi.data(), n * 4));
  CHECK(hipMemcpyPeer(b, 0, a, 0, n * 4));
  CHECK(hipMemcpyDtoHAsync(ho.data(), reinterpret_cast<hipDeviceptr_t>(b), n * 4, s));
  CHECK(hipStreamSynchronize(s));
  EXPECT(ho == hi);
  int can = -1;
  CHECK(hipDeviceCanAccessPeer(&can, 0, 0));
  EXPECT(can == 0);
  // pointer attributes
  hipPointerAttribute_t attr;
  CHECK(hipPointerGetAttributes(&attr, a + 5));
  EXPECT(attr.memoryType == hipMemoryTypeDevice);
  EXPECT(attr.devicePointer == a + 5);
  EXPECT(attr.device == 0);
  hipDeviceptr_t base = nullptr; size_t size = 0;
  CHECK(hipMemGetAddressRange(&base, &size, reinterpret_cast<hipDeviceptr_t>(a + 5)));
  EXPECT(base == reinterpret_cast<hipDeviceptr_t>(a));
  EXPECT(size == n * 4);
  size_t psize = 0;
  CHECK(hipMemPtrGetInfo(a, &psize));
  EXPECT(psize == n * 4);
  // host allocations
  int* ph = nullptr;
  CHECK(hipHostMalloc(&ph, n * 4, hipHostMallocDefault));
  CHECK(hipPointerGetAttributes(&attr, ph));
  EXPECT(attr.memoryType == hipMemoryTypeHost);
  unsigned flags = 99;
  CHECK(hipHostGetFlags(&flags, ph));
  CHECK(hipHostFree(ph));
  int* pm = nullptr;
  CHECK(hipMallocManaged(&pm, n * 4));
  for (int i = 0; i < n; ++i) pm[i] = i;
  CHECK(hipMemAdvise(pm, n * 4, hipMemAdviseSetReadMostly, 0));
  CHECK(hipMemPrefetchAsync(pm, n * 4, 0, s));
  add_one<<<(n + 255) / 256, 256, 0, s>>>(pm, n);
  CHECK(hipStreamSynchronize(s));
  for (int i = 0; i < n; ++i) EXPECT(pm[i] == i + 1);
  CHECK(hipPointerGetAttributes(&attr, pm));
  EXPECT(attr.isManaged == 1);
  CHECK(hipFree(pm));
  CHECK(hipStreamDestroy(s));
  if (failures) return 1;
  std::printf("memory_api: correct\n");
  return 0;
}
