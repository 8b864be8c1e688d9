// Host threads sharing the device: six std::threads, each with its own
// stream and buffers, launch kernels and copy results back twenty times at
// once; every result is checked (the runtime is shared, its errors per thread).
#define PROGRAM "host_threads"
#include "hip_check.h"
#include <thread>
#include <vector>
#include <atomic>
__global__ void fill(int* p, int n, int v) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] = v + i; }
__global__ void add(int* p, const int* q, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] += q[i]; }
int main() {
  std::atomic<int> bad{0};
  auto work = [&](int id) {
    hipStream_t s; CHECK(hipStreamCreate(&s));
    const int n = 5000 + id * 100;
    int *a, *b; CHECK(hipMalloc(&a, n * 4)); CHECK(hipMalloc(&b, n * 4));
    std::vector<int> h(n);
    for (int rep = 0; rep < 20; ++rep) {
      fill<<<(n + 255) / 256, 256, 0, s>>>(a, n, id * 1000 + rep);
      fill<<<(n + 255) / 256, 256, 0, s>>>(b, n, rep);
      add<<<(n + 127) / 128, 128, 0, s>>>(a, b, n);
      CHECK(hipMemcpyAsync(h.data(), a, n * 4, hipMemcpyDeviceToHost, s));
      CHECK(hipStreamSynchronize(s));
      for (int i = 0; i < n; ++i) if (h[i] != id * 1000 + rep + i + rep + i) { bad++; printf("host_threads: thread %d rep %d element %d: %d\n", id, rep, i, h[i]); break; }
    }
    CHECK(hipFree(a)); CHECK(hipFree(b)); CHECK(hipStreamDestroy(s));
  };
  std::vector<std::thread> ts;
  for (int t = 0; t < 6; ++t) ts.emplace_back(work, t);
  for (auto& t : ts) t.join();
  if (bad) return 1;
  printf("host_threads: correct\n");
  return 0;
}
