// Histograms with atomicAdd: per-block bins in shared memory merged into
// global bins (int), directly on global memory (unsigned, unsigned long long,
// float, double; float/double with integer-valued weights so every order sums
// exactly), and atomicAdd on shared float.
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                   \
  do {                                                                                \
    hipError_t e_ = (call);                                                           \
    if (e_ != hipSuccess) {                                                           \
      std::printf("histogram: %s failed: %s\n", #call, hipGetErrorString(e_));       \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

constexpr int BINS = 64;

__global__ void hist_shared(const unsigned char* data, int n, int* bins) {
  __shared__ int local[BINS];
  for (int i = threadIdx.x; i < BINS; i += blockDim.x) local[i] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local[data[i] % BINS], 1);
  __syncthreads();
  for (int i = threadIdx.x; i < BINS; i += blockDim.x) atomicAdd(&bins[i], local[i]);
}

__global__ void hist_global(const unsigned char* data, int n, unsigned* ubins, unsigned long long* llbins,
                            float* fbins, double* dbins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int b = data[i] % BINS;
  atomicAdd(&ubins[b], 1u);
  atomicAdd(&llbins[b], (unsigned long long)data[i] << 33);
  atomicAdd(&fbins[b], float(data[i]));
  atomicAdd(&dbins[b], double(data[i]) * 0.5);
}

__global__ void shared_float_sum(const float* in, float* out) {
  __shared__ float sum;
  if (threadIdx.x == 0) sum = 0.0f;
  __syncthreads();
  atomicAdd(&sum, in[blockIdx.x * blockDim.x + threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

int main() {
  const int n = 100000;
  std::vector<unsigned char> h(n);
  unsigned s = 12345;
  for (auto& v : h) { s = s * 1103515245u + 12345u; v = (s >> 16) & 0xff; }
  std::vector<long long> ref(BINS), ref_ll(BINS);
  std::vector<double> ref_f(BINS);
  for (int i = 0; i < n; ++i) { ref[h[i] % BINS]++; ref_ll[h[i] % BINS] += (long long)h[i] << 33; ref_f[h[i] % BINS] += h[i]; }

  unsigned char* d;
  int* bins; unsigned* ubins; unsigned long long* llbins; float* fbins; double* dbins;
  CHECK(hipMalloc(&d, n));
  CHECK(hipMalloc(&bins, BINS * sizeof(int)));
  CHECK(hipMalloc(&ubins, BINS * sizeof(unsigned)));
  CHECK(hipMalloc(&llbins, BINS * sizeof(unsigned long long)));
  CHECK(hipMalloc(&fbins, BINS * sizeof(float)));
  CHECK(hipMalloc(&dbins, BINS * sizeof(double)));
  CHECK(hipMemcpy(d, h.data(), n, hipMemcpyHostToDevice));
  CHECK(hipMemset(bins, 0, BINS * sizeof(int)));
  CHECK(hipMemset(ubins, 0, BINS * sizeof(unsigned)));
  CHECK(hipMemset(llbins, 0, BINS * sizeof(unsigned long long)));
  CHECK(hipMemset(fbins, 0, BINS * sizeof(float)));
  CHECK(hipMemset(dbins, 0, BINS * sizeof(double)));
  hipLaunchKernelGGL(hist_shared, dim3(30), dim3(256), 0, 0, d, n, bins);
  hist_global<<<(n + 255) / 256, 256>>>(d, n, ubins, llbins, fbins, dbins);
  CHECK(hipGetLastError());
  std::vector<int> rb(BINS); std::vector<unsigned> ru(BINS); std::vector<unsigned long long> rl(BINS);
  std::vector<float> rf(BINS); std::vector<double> rd(BINS);
  CHECK(hipMemcpy(rb.data(), bins, BINS * sizeof(int), hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(ru.data(), ubins, BINS * sizeof(unsigned), hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(rl.data(), llbins, BINS * sizeof(unsigned long long), hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(rf.data(), fbins, BINS * sizeof(float), hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(rd.data(), dbins, BINS * sizeof(double), hipMemcpyDeviceToHost));
  for (int b = 0; b < BINS; ++b) {
    if (rb[b] != ref[b] || ru[b] != ref[b] || rl[b] != (unsigned long long)ref_ll[b] || rf[b] != float(ref_f[b]) ||
        rd[b] != ref_f[b] * 0.5) {
      std::printf("histogram: bin %d: shared %d, unsigned %u, ull %llu, float %.1f, double %.1f; expected %lld, %llu, %.1f\n",
                  b, rb[b], ru[b], rl[b], rf[b], rd[b], ref[b], (unsigned long long)ref_ll[b], ref_f[b]);
      return 1;
    }
  }

  // shared float atomics, 4 blocks of 512
  std::vector<float> in(2048), outs(4);
  for (int i = 0; i < 2048; ++i) in[i] = float((i * 7) % 13) - 6.0f;
  float *din, *dout;
  CHECK(hipMalloc(&din, 2048 * sizeof(float)));
  CHECK(hipMalloc(&dout, 4 * sizeof(float)));
  CHECK(hipMemcpy(din, in.data(), 2048 * sizeof(float), hipMemcpyHostToDevice));
  shared_float_sum<<<4, 512>>>(din, dout);
  CHECK(hipMemcpy(outs.data(), dout, 4 * sizeof(float), hipMemcpyDeviceToHost));
  for (int b = 0; b < 4; ++b) {
    float r = 0;
    for (int i = 0; i < 512; ++i) r += in[b * 512 + i];
    if (outs[b] != r) { std::printf("histogram: shared float sum of block %d: %g, expected %g\n", b, outs[b], r); return 1; }
  }
  std::printf("histogram: correct\n");
  return 0;
}
