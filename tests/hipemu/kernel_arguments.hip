// Structs by value as kernel arguments (mixed types, padding, arrays, nested),
// template kernels over element types and functors, __constant__ tables set
// with hipMemcpyToSymbol, dynamic shared memory (extern __shared__ with the
// launch's byte count, HIP_DYNAMIC_SHARED), 2D/3D grids and blocks.
#define PROGRAM "kernel_arguments"
#include "hip_check.h"
#include <cstring>
#include <vector>

struct Params {
  char tag;          // padding after
  double scale;
  int offset[3];
  short s;
  float bias;
  struct { unsigned char lo, hi; } pair;
  long long big;
};

struct Affine { float a, b; __host__ __device__ float operator()(float x) const { return a * x + b; } };
struct Square { __host__ __device__ float operator()(float x) const { return x * x; } };

__constant__ int lut[16];
__constant__ float weights[4] = {1.0f, 2.0f, 3.0f, 4.0f};

__global__ void use_params(Params p, double* out) {
  int i = threadIdx.x;
  out[i] = p.scale * i + p.offset[i % 3] + p.s + p.bias + p.tag + p.pair.lo * 256 + p.pair.hi + double(p.big);
}

template <typename T, int N>
__global__ void scaled_sum(const T* in, T* out, T factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  T acc = 0;
  for (int k = 0; k < N; ++k) acc += in[i * N + k];
  out[i] = acc * factor;
}

template <class F>
__global__ void map(const float* in, float* out, int n, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = f(in[i]) + weights[i % 4] + float(lut[i % 16]);
}

// Reverse each block's slice through dynamic shared memory.
__global__ void reverse_dynamic(const int* in, int* out) {
  extern __shared__ int buffer[];
  int t = threadIdx.x, base = blockIdx.x * blockDim.x;
  buffer[t] = in[base + t];
  __syncthreads();
  out[base + t] = buffer[blockDim.x - 1 - t];
}
__global__ void dynamic_two_arrays(const float* in, float* out) {
  HIP_DYNAMIC_SHARED(float, shared)
  float* a = shared;
  float* b = shared + blockDim.x;
  int t = threadIdx.x;
  a[t] = in[t];
  b[t] = in[t] * 2.0f;
  __syncthreads();
  out[t] = a[(t + 1) % blockDim.x] + b[(t + blockDim.x - 1) % blockDim.x];
}

// Writes the linear id of each thread of a 3D grid of 3D blocks.
__global__ void ids3d(int* out, int* dims) {
  int bx = blockIdx.x, by = blockIdx.y, bz = blockIdx.z;
  int tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
  int block = (bz * gridDim.y + by) * gridDim.x + bx;
  int thread = (tz * blockDim.y + ty) * blockDim.x + tx;
  int per_block = blockDim.x * blockDim.y * blockDim.z;
  out[block * per_block + thread] = (bx << 24) | (by << 18) | (bz << 12) | (tx << 8) | (ty << 4) | tz;
  if (block == 0 && thread == 0) {
    dims[0] = gridDim.x; dims[1] = gridDim.y; dims[2] = gridDim.z;
    dims[3] = blockDim.x; dims[4] = blockDim.y; dims[5] = blockDim.z;
  }
}

static int fail(const char* what, long i, double got, double want) {
  std::printf("kernel_arguments: %s[%ld] = %.17g, expected %.17g\n", what, i, got, want);
  return 1;
}

int main() {
  // Struct by value.
  Params p{};
  p.tag = 'A'; p.scale = 0.125; p.offset[0] = 10; p.offset[1] = -20; p.offset[2] = 30; p.s = -7; p.bias = 0.5f;
  p.pair.lo = 3; p.pair.hi = 250; p.big = 1ll << 40;
  double* dout;
  CHECK(hipMalloc(&dout, 64 * sizeof(double)));
  use_params<<<1, 64>>>(p, dout);
  std::vector<double> r(64);
  CHECK(hipMemcpy(r.data(), dout, 64 * sizeof(double), hipMemcpyDeviceToHost));
  for (int i = 0; i < 64; ++i) {
    double want = p.scale * i + p.offset[i % 3] + p.s + p.bias + p.tag + p.pair.lo * 256 + p.pair.hi + double(p.big);
    if (r[i] != want) return fail("use_params", i, r[i], want);
  }

  // Templates.
  {
    const int n = 256, N = 4;
    std::vector<int> hi(n * N); std::vector<double> hd(n * N);
    for (int i = 0; i < n * N; ++i) { hi[i] = i - 300; hd[i] = i * 0.5 - 1.0; }
    int *di, *dio; double *dd, *ddo;
    CHECK(hipMalloc(&di, n * N * sizeof(int))); CHECK(hipMalloc(&dio, n * sizeof(int)));
    CHECK(hipMalloc(&dd, n * N * sizeof(double))); CHECK(hipMalloc(&ddo, n * sizeof(double)));
    CHECK(hipMemcpy(di, hi.data(), n * N * sizeof(int), hipMemcpyHostToDevice));
    CHECK(hipMemcpy(dd, hd.data(), n * N * sizeof(double), hipMemcpyHostToDevice));
    scaled_sum<int, N><<<n / 64, 64>>>(di, dio, 3);
    hipLaunchKernelGGL((scaled_sum<double, N>), dim3(n / 128), dim3(128), 0, 0, dd, ddo, 0.25);
    std::vector<int> ri(n); std::vector<double> rd(n);
    CHECK(hipMemcpy(ri.data(), dio, n * sizeof(int), hipMemcpyDeviceToHost));
    CHECK(hipMemcpy(rd.data(), ddo, n * sizeof(double), hipMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
      int si = 0; double sd = 0;
      for (int k = 0; k < N; ++k) { si += hi[i * N + k]; sd += hd[i * N + k]; }
      if (ri[i] != si * 3) return fail("scaled_sum<int>", i, ri[i], si * 3);
      if (rd[i] != sd * 0.25) return fail("scaled_sum<double>", i, rd[i], sd * 0.25);
    }
  }

  // Functors and constant memory.
  {
    int table[16];
    for (int i = 0; i < 16; ++i) table[i] = i * i - 10;
    CHECK(hipMemcpyToSymbol(HIP_SYMBOL(lut), table, sizeof table));
    const int n = 1000;
    std::vector<float> in(n), out(n);
    for (int i = 0; i < n; ++i) in[i] = i * 0.01f - 3.0f;
    float *din, *dout2;
    CHECK(hipMalloc(&din, n * sizeof(float))); CHECK(hipMalloc(&dout2, n * sizeof(float)));
    CHECK(hipMemcpy(din, in.data(), n * sizeof(float), hipMemcpyHostToDevice));
    const float w[4] = {1.0f, 2.0f, 3.0f, 4.0f};
    Affine f{1.5f, -0.25f};
    map<<<(n + 255) / 256, 256>>>(din, dout2, n, f);
    CHECK(hipMemcpy(out.data(), dout2, n * sizeof(float), hipMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
      float want = std::fma(f.a, in[i], f.b);  // contracted to an fma on the device (-ffp-contract=fast)
      float want_unfused = f.a * in[i] + f.b;
      float got = out[i] - w[i % 4] - float(table[i % 16]);
      (void)got;
      float full = want + w[i % 4] + float(table[i % 16]), full2 = want_unfused + w[i % 4] + float(table[i % 16]);
      if (out[i] != full && out[i] != full2) return fail("map<Affine>", i, out[i], full);
    }
    map<<<(n + 255) / 256, 256>>>(din, dout2, n, Square{});
    CHECK(hipMemcpy(out.data(), dout2, n * sizeof(float), hipMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
      float want = in[i] * in[i] + w[i % 4] + float(table[i % 16]);
      float fused = std::fma(in[i], in[i], w[i % 4]) + float(table[i % 16]);  // -ffp-contract=fast
      if (out[i] != want && out[i] != fused) return fail("map<Square>", i, out[i], want);
    }
    int back[16];
    CHECK(hipMemcpyFromSymbol(back, HIP_SYMBOL(lut), sizeof back));
    if (std::memcmp(back, table, sizeof table)) return fail("hipMemcpyFromSymbol(lut)", 0, back[0], table[0]);
  }

  // Dynamic shared memory.
  {
    const int block = 512, blocks = 3;
    std::vector<int> in(block * blocks), out(block * blocks);
    for (int i = 0; i < block * blocks; ++i) in[i] = i * 7;
    int *din, *dout3;
    CHECK(hipMalloc(&din, in.size() * sizeof(int))); CHECK(hipMalloc(&dout3, in.size() * sizeof(int)));
    CHECK(hipMemcpy(din, in.data(), in.size() * sizeof(int), hipMemcpyHostToDevice));
    reverse_dynamic<<<blocks, block, block * sizeof(int)>>>(din, dout3);
    CHECK(hipGetLastError());
    CHECK(hipMemcpy(out.data(), dout3, in.size() * sizeof(int), hipMemcpyDeviceToHost));
    for (int b = 0; b < blocks; ++b)
      for (int t = 0; t < block; ++t)
        if (out[b * block + t] != in[b * block + block - 1 - t]) return fail("reverse_dynamic", b * block + t, out[b * block + t], in[b * block + block - 1 - t]);
    std::vector<float> fin(128), fout(128);
    for (int i = 0; i < 128; ++i) fin[i] = float(i) * 0.5f;
    float *df, *dfo;
    CHECK(hipMalloc(&df, 128 * sizeof(float))); CHECK(hipMalloc(&dfo, 128 * sizeof(float)));
    CHECK(hipMemcpy(df, fin.data(), 128 * sizeof(float), hipMemcpyHostToDevice));
    hipLaunchKernelGGL(dynamic_two_arrays, dim3(1), dim3(128), 2 * 128 * sizeof(float), 0, df, dfo);
    CHECK(hipMemcpy(fout.data(), dfo, 128 * sizeof(float), hipMemcpyDeviceToHost));
    for (int t = 0; t < 128; ++t) {
      float want = fin[(t + 1) % 128] + fin[(t + 127) % 128] * 2.0f;
      if (fout[t] != want) return fail("dynamic_two_arrays", t, fout[t], want);
    }
  }

  // 3D grid of 3D blocks.
  {
    dim3 grid(3, 2, 4), block(4, 3, 5);
    const int total = 3 * 2 * 4 * 4 * 3 * 5;
    int *dids, *ddims;
    CHECK(hipMalloc(&dids, total * sizeof(int))); CHECK(hipMalloc(&ddims, 6 * sizeof(int)));
    CHECK(hipMemset(dids, 0xff, total * sizeof(int)));
    ids3d<<<grid, block>>>(dids, ddims);
    std::vector<int> ids(total); int dims[6];
    CHECK(hipMemcpy(ids.data(), dids, total * sizeof(int), hipMemcpyDeviceToHost));
    CHECK(hipMemcpy(dims, ddims, sizeof dims, hipMemcpyDeviceToHost));
    const int want_dims[6] = {3, 2, 4, 4, 3, 5};
    for (int k = 0; k < 6; ++k) if (dims[k] != want_dims[k]) return fail("dims", k, dims[k], want_dims[k]);
    for (int bz = 0; bz < 4; ++bz) for (int by = 0; by < 2; ++by) for (int bx = 0; bx < 3; ++bx)
      for (int tz = 0; tz < 5; ++tz) for (int ty = 0; ty < 3; ++ty) for (int tx = 0; tx < 4; ++tx) {
        int i = ((bz * 2 + by) * 3 + bx) * 60 + (tz * 3 + ty) * 4 + tx;
        int want = (bx << 24) | (by << 18) | (bz << 12) | (tx << 8) | (ty << 4) | tz;
        if (ids[i] != want) return fail("ids3d", i, ids[i], want);
      }
  }
  std::printf("kernel_arguments: correct\n");
  return 0;
}
