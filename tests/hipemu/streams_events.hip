// Streams and events as tutorials use them: work split over several streams
// with async copies, events recorded and timed, a stream waiting on another's
// event, hipStreamQuery/hipEventQuery, priorities, a host callback, the
// per-thread default stream, launches with hipLaunchKernelGGL, <<<>>> and
// hipExtLaunchKernelGGL (with its start/stop events), and __managed__
// variables.
#define PROGRAM "streams_events"
#include "hip_check.h"
#include <hip/hip_ext.h>
#include <vector>

__managed__ int managed_counter = 5;
__managed__ float managed_table[4] = {1.5f, 2.5f, 3.5f, 4.5f};

__global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
__global__ void bump_managed(int by) {
  if (threadIdx.x == 0 && blockIdx.x == 0) managed_counter += by;
  if (threadIdx.x < 4) managed_table[threadIdx.x] *= 2.0f;
}

static void callback(hipStream_t, hipError_t status, void* user) { *static_cast<int*>(user) = status == hipSuccess ? 7 : -7; }

int main() {
  const int n = 1 << 14, chunks = 4, chunk = n / chunks;
  std::vector<float> x(n), y(n), r(n);
  for (int i = 0; i < n; ++i) { x[i] = float(i % 100) * 0.5f; y[i] = float(i % 7); }
  float *dx, *dy;
  CHECK(hipMalloc(&dx, n * sizeof(float)));
  CHECK(hipMalloc(&dy, n * sizeof(float)));
  int least = 0, greatest = 0;
  CHECK(hipDeviceGetStreamPriorityRange(&least, &greatest));
  if (greatest > least) { std::printf("streams_events: priority range %d..%d\n", greatest, least); return 1; }
  hipStream_t streams[chunks];
  for (int c = 0; c < chunks; ++c) {
    if (c == 0) CHECK(hipStreamCreateWithPriority(&streams[c], hipStreamNonBlocking, greatest));
    else CHECK(hipStreamCreate(&streams[c]));
  }
  int priority = 99; unsigned flags = 99;
  CHECK(hipStreamGetPriority(streams[0], &priority));
  CHECK(hipStreamGetFlags(streams[0], &flags));
  if (priority != greatest || flags != hipStreamNonBlocking) { std::printf("streams_events: priority %d flags %u\n", priority, flags); return 1; }
  hipEvent_t start, stop, mid;
  CHECK(hipEventCreate(&start));
  CHECK(hipEventCreate(&stop));
  CHECK(hipEventCreateWithFlags(&mid, hipEventDisableTiming));
  CHECK(hipEventRecord(start, 0));
  for (int c = 0; c < chunks; ++c) {
    const int off = c * chunk;
    CHECK(hipMemcpyAsync(dx + off, x.data() + off, chunk * sizeof(float), hipMemcpyHostToDevice, streams[c]));
    CHECK(hipMemcpyAsync(dy + off, y.data() + off, chunk * sizeof(float), hipMemcpyHostToDevice, streams[c]));
    if (c % 3 == 0) saxpy<<<chunk / 256, 256, 0, streams[c]>>>(2.0f, dx + off, dy + off, chunk);
    else if (c % 3 == 1) hipLaunchKernelGGL(saxpy, dim3(chunk / 256), dim3(256), 0, streams[c], 2.0f, dx + off, dy + off, chunk);
    else hipExtLaunchKernelGGL(saxpy, dim3(chunk / 256), dim3(256), 0, streams[c], nullptr, nullptr, 0, 2.0f, dx + off, dy + off, chunk);
    CHECK(hipGetLastError());
    CHECK(hipMemcpyAsync(r.data() + off, dy + off, chunk * sizeof(float), hipMemcpyDeviceToHost, streams[c]));
  }
  CHECK(hipEventRecord(mid, streams[1]));
  CHECK(hipStreamWaitEvent(streams[2], mid, 0));
  int called = 0;
  CHECK(hipStreamAddCallback(streams[3], callback, &called, 0));
  for (int c = 0; c < chunks; ++c) CHECK(hipStreamSynchronize(streams[c]));
  CHECK(hipEventRecord(stop, 0));
  CHECK(hipEventSynchronize(stop));
  hipError_t q = hipEventQuery(stop);
  if (q != hipSuccess) { std::printf("streams_events: hipEventQuery %s\n", hipGetErrorName(q)); return 1; }
  q = hipStreamQuery(streams[0]);
  if (q != hipSuccess) { std::printf("streams_events: hipStreamQuery %s\n", hipGetErrorName(q)); return 1; }
  float ms = -1.0f;
  CHECK(hipEventElapsedTime(&ms, start, stop));
  if (!(ms >= 0.0f)) { std::printf("streams_events: elapsed %f ms\n", ms); return 1; }
  if (hipEventElapsedTime(&ms, start, mid) != hipErrorInvalidHandle) { std::printf("streams_events: timing a hipEventDisableTiming event did not fail\n"); return 1; }
  (void)hipGetLastError();  // that failure, expected
  if (called != 7) { std::printf("streams_events: callback %d\n", called); return 1; }
  for (int i = 0; i < n; ++i) {
    float want = 2.0f * x[i] + y[i];
    if (r[i] != want) { std::printf("streams_events: y[%d] = %g, expected %g\n", i, r[i], want); return 1; }
  }
  // hipExtLaunchKernelGGL with events: they are recorded around the launch.
  hipEvent_t before, after;
  CHECK(hipEventCreate(&before));
  CHECK(hipEventCreate(&after));
  hipExtLaunchKernelGGL(saxpy, dim3(n / 256), dim3(256), 0, 0, before, after, 0, 1.0f, dx, dy, n);
  CHECK(hipGetLastError());
  CHECK(hipEventSynchronize(after));
  CHECK(hipEventElapsedTime(&ms, before, after));
  CHECK(hipMemcpy(r.data(), dy, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    float want = x[i] + (2.0f * x[i] + y[i]);
    if (r[i] != want) { std::printf("streams_events: ext launch y[%d] = %g, expected %g\n", i, r[i], want); return 1; }
  }
  // The per-thread default stream.
  saxpy<<<n / 256, 256, 0, hipStreamPerThread>>>(-1.0f, dx, dy, n);
  CHECK(hipStreamSynchronize(hipStreamPerThread));
  // __managed__ variables: host and device see one value.
  managed_counter += 10;
  bump_managed<<<1, 64>>>(3);
  CHECK(hipDeviceSynchronize());
  if (managed_counter != 18) { std::printf("streams_events: managed_counter %d, expected 18\n", managed_counter); return 1; }
  for (int k = 0; k < 4; ++k)
    if (managed_table[k] != 2.0f * (1.5f + k)) { std::printf("streams_events: managed_table[%d] %g\n", k, managed_table[k]); return 1; }
  for (int c = 0; c < chunks; ++c) CHECK(hipStreamDestroy(streams[c]));
  CHECK(hipEventDestroy(start)); CHECK(hipEventDestroy(stop)); CHECK(hipEventDestroy(mid));
  std::printf("streams_events: correct\n");
  return 0;
}
