// A program with no device code of its own calling library_fill (a shared
// library built for gfx906 and gfx90a). Run as gfx908, the library's launch
// fails with hipErrorNoBinaryForGpu, which the library ignores: the result is
// wrong and only hipemu's API error says why. Prints one line.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <vector>

extern "C" void library_fill(int* device_out, int n);

int main() {
  constexpr int n = 1000;
  int* out = nullptr;
  if (hipMalloc(&out, n * sizeof(int)) != hipSuccess || hipMemset(out, 0xff, n * sizeof(int)) != hipSuccess) {
    std::printf("library_user: no device memory\n");
    return 1;
  }
  library_fill(out, n);
  std::vector<int> host(n);
  if (hipMemcpy(host.data(), out, n * sizeof(int), hipMemcpyDeviceToHost) != hipSuccess) {
    std::printf("library_user: hipMemcpy failed\n");
    return 1;
  }
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += host[i] != i * i;
  if (wrong)
    std::printf("library_user: %d of %d wrong\n", wrong, n);
  else
    std::printf("library_user: correct\n");
  return 0;
}
