// Graphs as the HIP graph tutorials use them: a sequence captured from a
// stream (memset, kernels, copies, a stream callback, an event record) and
// launched several times; a graph built node by node, added out of order and
// ordered by dependencies, whose kernel node keeps the arguments it was made
// with; a cycle refused at instantiation.
#define PROGRAM "graphs"
#include "hip_check.h"
#include <vector>

__global__ void add_value(int* p, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += v;
}
__global__ void times(int* p, int n, int f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= f;
}
static void count_call(hipStream_t, hipError_t status, void* counter) {
  if (status == hipSuccess) ++*static_cast<int*>(counter);
}

int main() {
  const int n = 1000;
  int bad = 0;
  int *d, *e;
  CHECK(hipMalloc(&d, n * sizeof(int)));
  CHECK(hipMalloc(&e, n * sizeof(int)));
  std::vector<int> h(n, -1);
  hipStream_t s;
  CHECK(hipStreamCreate(&s));
  hipEvent_t done;
  CHECK(hipEventCreate(&done));
  int calls = 0;

  // Captured: nothing runs until the graph is launched.
  CHECK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
  hipStreamCaptureStatus status = hipStreamCaptureStatusNone;
  CHECK(hipStreamIsCapturing(s, &status));
  if (status != hipStreamCaptureStatusActive) { std::printf("graphs: not capturing\n"); bad = 1; }
  CHECK(hipMemsetAsync(d, 0, n * sizeof(int), s));
  add_value<<<(n + 255) / 256, 256, 0, s>>>(d, n, 5);
  hipLaunchKernelGGL(times, dim3((n + 127) / 128), dim3(128), 0, s, d, n, 3);
  CHECK(hipMemcpyAsync(e, d, n * sizeof(int), hipMemcpyDeviceToDevice, s));
  CHECK(hipMemcpyAsync(h.data(), e, n * sizeof(int), hipMemcpyDeviceToHost, s));
  CHECK(hipStreamAddCallback(s, count_call, &calls, 0));
  CHECK(hipEventRecord(done, s));
  hipGraph_t graph;
  CHECK(hipStreamEndCapture(s, &graph));
  if (calls != 0 || h[0] != -1) { std::printf("graphs: captured work ran during capture\n"); bad = 1; }
  size_t nodes = 0;
  CHECK(hipGraphGetNodes(graph, nullptr, &nodes));
  if (nodes != 7) { std::printf("graphs: %zu nodes captured, expected 7\n", nodes); bad = 1; }
  hipGraphExec_t exec;
  CHECK(hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0));
  for (int launch = 0; launch < 3; ++launch) {
    CHECK(hipGraphLaunch(exec, s));
    CHECK(hipStreamSynchronize(s));
    CHECK(hipEventSynchronize(done));
    for (int i = 0; i < n; ++i)
      if (h[i] != 15) { std::printf("graphs: launch %d: h[%d] = %d, expected 15\n", launch, i, h[i]); bad = 1; break; }
  }
  if (calls != 3) { std::printf("graphs: host function ran %d times, expected 3\n", calls); bad = 1; }
  CHECK(hipGraphExecDestroy(exec));
  CHECK(hipGraphDestroy(graph));

  // Built by hand: memset -> add(v = 7) -> times(2) -> copy, added out of order.
  hipGraph_t g;
  CHECK(hipGraphCreate(&g, 0));
  int value = 7, factor = 2, count = n;
  hipGraphNode_t copy_node, times_node, add_node, set_node, empty_node;
  CHECK(hipGraphAddMemcpyNode1D(&copy_node, g, nullptr, 0, h.data(), d, n * sizeof(int), hipMemcpyDeviceToHost));
  hipKernelNodeParams tp = {};
  void* times_args[] = {&d, &count, &factor};
  tp.func = reinterpret_cast<void*>(times);
  tp.gridDim = dim3((n + 255) / 256);
  tp.blockDim = dim3(256);
  tp.kernelParams = times_args;
  CHECK(hipGraphAddKernelNode(&times_node, g, nullptr, 0, &tp));
  hipKernelNodeParams ap = tp;
  void* add_args[] = {&d, &count, &value};
  ap.func = reinterpret_cast<void*>(add_value);
  ap.kernelParams = add_args;
  CHECK(hipGraphAddKernelNode(&add_node, g, nullptr, 0, &ap));
  value = 1000;  // the node keeps the 7 it was made with
  hipMemsetParams mp = {};
  mp.dst = d;
  mp.elementSize = 4;
  mp.width = n;
  mp.height = 1;
  mp.value = 0;
  CHECK(hipGraphAddMemsetNode(&set_node, g, nullptr, 0, &mp));
  CHECK(hipGraphAddEmptyNode(&empty_node, g, &set_node, 1));
  hipGraphNode_t from[] = {empty_node, add_node, times_node};
  hipGraphNode_t to[] = {add_node, times_node, copy_node};
  CHECK(hipGraphAddDependencies(g, from, to, 3));
  CHECK(hipGraphInstantiateWithFlags(&exec, g, 0));
  CHECK(hipGraphLaunch(exec, 0));
  CHECK(hipDeviceSynchronize());
  for (int i = 0; i < n; ++i)
    if (h[i] != 14) { std::printf("graphs: built graph h[%d] = %d, expected 14\n", i, h[i]); bad = 1; break; }
  CHECK(hipGraphExecDestroy(exec));
  // A cycle cannot be ordered.
  CHECK(hipGraphAddDependencies(g, &copy_node, &set_node, 1));
  if (hipGraphInstantiateWithFlags(&exec, g, 0) != hipErrorInvalidValue) { std::printf("graphs: a cycle was instantiated\n"); bad = 1; }
  (void)hipGetLastError();
  CHECK(hipGraphDestroy(g));
  CHECK(hipStreamDestroy(s));
  if (bad) return 1;
  std::printf("graphs: correct\n");
  return 0;
}
