// The memory API beyond hipMalloc/hipMemcpy: memsets of every width (sync
// and async), 2D memsets and copies in every direction, 3D pitched volumes
// (hipMalloc3D, hipMemset3D, hipMemcpy3D of whole volumes and sub-boxes), hipMemcpyDefault,
// hipMemcpyWithStream, peer copies on one device, host allocations under
// their other names, pointer attributes and address ranges, managed memory
// with prefetch and advice, stream memory writes and waits.
#define PROGRAM "memory_api"
#include "hip_check.h"
#include <cstring>
#include <cstdint>
#include <algorithm>
#include <vector>

// A 7-point stencil over the interior of a pitched 3D volume.
__global__ void stencil(hipPitchedPtr in, hipPitchedPtr out, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y, z = blockIdx.z;
  if (x < 1 || y < 1 || z < 1 || x >= nx - 1 || y >= ny - 1 || z >= nz - 1) return;
  auto at = [](hipPitchedPtr p, int x, int y, int z) -> float& {
    return reinterpret_cast<float*>(static_cast<char*>(p.ptr) + (size_t(z) * p.ysize + y) * p.pitch)[x];
  };
  at(out, x, y, z) = at(in, x - 1, y, z) + at(in, x + 1, y, z) + at(in, x, y - 1, z) + at(in, x, y + 1, z) +
                     at(in, x, y, z - 1) + at(in, x, y, z + 1) - 6.0f * at(in, x, y, z);
}

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
  // hipFree frees a hipHostMalloc'd block as ROCm's does; a second free is an error.
  CHECK(hipHostMalloc(&ph, n * 4, hipHostMallocDefault));
  CHECK(hipFree(ph));
  EXPECT(hipHostFree(ph) == hipErrorInvalidValue);
  (void)hipGetLastError();
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
  // 3D: pitched volumes, a memset, copies host <-> device and of a sub-box.
  {
    const int nx = 19, ny = 7, nz = 5;
    std::vector<float> vol(nx * ny * nz), res(nx * ny * nz, -1.0f);
    for (int i = 0; i < nx * ny * nz; ++i) vol[i] = float((i * 37) % 101) * 0.5f;
    hipExtent extent = make_hipExtent(nx * sizeof(float), ny, nz);
    hipPitchedPtr din3, dout3;
    CHECK(hipMalloc3D(&din3, extent));
    CHECK(hipMalloc3D(&dout3, extent));
    EXPECT(din3.pitch >= nx * sizeof(float) && din3.pitch % 256 == 0 && din3.xsize == nx * sizeof(float) && din3.ysize == ny);
    CHECK(hipMemset3D(dout3, 0, extent));
    hipMemcpy3DParms up = {};
    up.srcPtr = make_hipPitchedPtr(vol.data(), nx * sizeof(float), nx, ny);
    up.dstPtr = din3;
    up.extent = extent;
    up.kind = hipMemcpyHostToDevice;
    CHECK(hipMemcpy3D(&up));
    stencil<<<dim3(1, 1, nz), dim3(32, 8)>>>(din3, dout3, nx, ny, nz);
    CHECK(hipGetLastError());
    hipMemcpy3DParms down = {};
    down.srcPtr = dout3;
    down.dstPtr = make_hipPitchedPtr(res.data(), nx * sizeof(float), nx, ny);
    down.extent = extent;
    down.kind = hipMemcpyDeviceToHost;
    CHECK(hipMemcpy3DAsync(&down, s));
    CHECK(hipStreamSynchronize(s));
    auto v = [&](int x, int y, int z) { return vol[(z * ny + y) * nx + x]; };
    for (int z = 0; z < nz; ++z)
      for (int y = 0; y < ny; ++y)
        for (int x = 0; x < nx; ++x) {
          bool inside = x > 0 && y > 0 && z > 0 && x < nx - 1 && y < ny - 1 && z < nz - 1;
          float want = inside ? v(x - 1, y, z) + v(x + 1, y, z) + v(x, y - 1, z) + v(x, y + 1, z) + v(x, y, z - 1) + v(x, y, z + 1) - 6.0f * v(x, y, z) : 0.0f;
          if (res[(z * ny + y) * nx + x] != want) { std::printf("memory_api: stencil (%d,%d,%d) = %g, expected %g\n", x, y, z, res[(z * ny + y) * nx + x], want); return 1; }
        }
    // A 4x3x2 box from (2,1,1) of the input volume to (0,0,0) of a host box.
    std::vector<float> box(4 * 3 * 2, 0.0f);
    hipMemcpy3DParms part = {};
    part.srcPtr = din3;
    part.srcPos = make_hipPos(2 * sizeof(float), 1, 1);
    part.dstPtr = make_hipPitchedPtr(box.data(), 4 * sizeof(float), 4, 3);
    part.extent = make_hipExtent(4 * sizeof(float), 3, 2);
    part.kind = hipMemcpyDeviceToHost;
    CHECK(hipMemcpy3D(&part));
    for (int z = 0; z < 2; ++z)
      for (int y = 0; y < 3; ++y)
        for (int x = 0; x < 4; ++x) EXPECT(box[(z * 3 + y) * 4 + x] == v(x + 2, y + 1, z + 1));
    // A box reaching past the volume is refused and copies nothing.
    part.srcPos = make_hipPos(0, 0, nz - 1);
    std::fill(box.begin(), box.end(), -2.0f);
    EXPECT(hipMemcpy3D(&part) == hipErrorInvalidValue);
    EXPECT(box[0] == -2.0f);
    (void)hipGetLastError();
    CHECK(hipFree(din3.ptr));
    CHECK(hipFree(dout3.ptr));
  }
  // Stream memory operations: writes land, a wait whose condition holds passes.
  {
    unsigned long long* flag;
    CHECK(hipMalloc(&flag, 16));
    CHECK(hipStreamWriteValue64(s, flag, 0x1234567890ull, 0));
    CHECK(hipStreamWriteValue32(s, flag + 1, 77u, 0));
    CHECK(hipStreamWaitValue64(s, flag, 0x1234567890ull, hipStreamWaitValueEq, ~0ull));
    CHECK(hipStreamWaitValue32(s, flag + 1, 70u, hipStreamWaitValueGte, 0xffffffffu));
    CHECK(hipStreamWaitValue32(s, flag + 1, 4u, hipStreamWaitValueAnd, 0xffffffffu));  // 77 & 4
    unsigned long long back[2] = {};
    CHECK(hipMemcpy(back, flag, 16, hipMemcpyDeviceToHost));
    EXPECT(back[0] == 0x1234567890ull && (back[1] & 0xffffffffu) == 77u);
    CHECK(hipFree(flag));
  }
  CHECK(hipStreamDestroy(s));
  if (failures) return 1;
  std::printf("memory_api: correct\n");
  return 0;
}
