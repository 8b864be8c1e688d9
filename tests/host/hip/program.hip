// An ordinary HIP program with its kernel compiled in: launched with <<<>>>
// and hipLaunchKernelGGL on a stream, result checked on the host. Prints one
// line; CTest runs it with libdppgemm-hipemu preloaded.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <vector>

__global__ void axpy(float a, const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

int main() {
  const int n = 1000;
  std::vector<float> x(n), y(n, 1.0f);
  for (int i = 0; i < n; ++i) x[i] = float(i);
  float *dx = nullptr, *dy = nullptr;
  hipStream_t stream = nullptr;
  hipDeviceProp_t props;
  if (hipGetDeviceProperties(&props, 0) != hipSuccess || hipMalloc(&dx, n * 4) != hipSuccess ||
      hipMalloc(&dy, n * 4) != hipSuccess || hipStreamCreate(&stream) != hipSuccess) {
    std::printf("hip_program: no device\n");
    return 1;
  }
  (void)hipMemcpy(dx, x.data(), n * 4, hipMemcpyHostToDevice);
  (void)hipMemcpy(dy, y.data(), n * 4, hipMemcpyHostToDevice);
  axpy<<<(n + 255) / 256, 256>>>(2.0f, dx, dy, n);
  hipLaunchKernelGGL(axpy, dim3((n + 127) / 128), dim3(128), 0, stream, 0.5f, dx, dy, n);
  const hipError_t launched = hipGetLastError();
  const hipError_t finished = hipStreamSynchronize(stream);
  (void)hipMemcpy(y.data(), dy, n * 4, hipMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += y[i] != 1.0f + 2.5f * float(i);
  void* no_args[] = {nullptr};
  const hipError_t unknown = hipLaunchKernel(reinterpret_cast<const void*>(&main), dim3(1), dim3(1), no_args, 0, nullptr);
  (void)hipStreamDestroy(stream);
  (void)hipFree(dx);
  (void)hipFree(dy);
  const bool ok = launched == hipSuccess && finished == hipSuccess && wrong == 0;
  std::printf("hip_program: axpy twice on %s: %s; unknown kernel: %s\n", props.gcnArchName, ok ? "correct" : "WRONG",
              hipGetErrorName(unknown));
  return ok && unknown == hipErrorInvalidDeviceFunction ? 0 : 1;
}
