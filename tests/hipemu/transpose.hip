// Matrix transpose with 32x32 shared-memory tiles (padded against bank
// conflicts), 2D grid and block, sizes that are not multiples of the tile.
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                   \
  do {                                                                                \
    hipError_t e_ = (call);                                                           \
    if (e_ != hipSuccess) {                                                           \
      std::printf("transpose: %s failed: %s\n", #call, hipGetErrorString(e_));       \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

constexpr int TILE = 32, ROWS = 8;

template <typename T>
__global__ void transpose(T* out, const T* in, int width, int height) {
  __shared__ T tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < width && y + j < height) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < height && y + j < width) out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

template <typename T>
static int run(int width, int height) {
  std::vector<T> h(width * height), r(width * height);
  for (int i = 0; i < width * height; ++i) h[i] = T(i * 3 + 1);
  T *din, *dout;
  CHECK(hipMalloc(&din, h.size() * sizeof(T)));
  CHECK(hipMalloc(&dout, h.size() * sizeof(T)));
  CHECK(hipMemcpy(din, h.data(), h.size() * sizeof(T), hipMemcpyHostToDevice));
  dim3 block(TILE, ROWS), grid((width + TILE - 1) / TILE, (height + TILE - 1) / TILE);
  transpose<T><<<grid, block>>>(dout, din, width, height);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(r.data(), dout, r.size() * sizeof(T), hipMemcpyDeviceToHost));
  CHECK(hipFree(din));
  CHECK(hipFree(dout));
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      if (r[x * height + y] != h[y * width + x]) {
        std::printf("transpose: %dx%d: out[%d][%d] = %g, expected %g\n", width, height, x, y,
                    double(r[x * height + y]), double(h[y * width + x]));
        return 1;
      }
  return 0;
}

int main() {
  int bad = run<float>(100, 70) + run<double>(64, 33) + run<int>(31, 129);
  if (bad) return 1;
  std::printf("transpose: correct\n");
  return 0;
}
