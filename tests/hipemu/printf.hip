// Device printf on hipemu: every conversion ROCm's device library passes to
// the host (integers of each length, floating point, characters, strings,
// pointers, %%, '*' widths and precisions), strings longer than one hostcall
// packet, a null string, and lanes of several waves. CTest compares the
// output with printf.expected exactly: what glibc's printf prints for the
// same calls (a null %s argument as ROCm's device library sends it, an empty
// string), the waves in order as one host thread runs them, lanes in order.
#include <hip/hip_runtime.h>

#include <cstdio>

__global__ void formats(int base) {
  if (threadIdx.x != 0) return;
  printf("plain text, no arguments\n");
  printf("int %d %i %+d % d %5d|%-5d|%05d\n", base, -base, base, base, base, base, base);
  printf("unsigned %u %o %x %X %#x %#o\n", 4000000000u, 8u, 255u, 255u, 255u, 8u);
  printf("lengths %hhd %hd %ld %lld %llu %zu\n", (signed char)-5, (short)-300, -1234567890123L, -9000000000000LL,
         18000000000000000000ULL, (size_t)77);
  printf("float %f %.2f %e %E %g %G %a\n", 1.5f, 3.14159, 12345.678, 0.000123, 0.0001, 1e20, 1.0);
  printf("special %f %f %F\n", 1.0 / 0.0, -1.0 / 0.0, 0.0 / 0.0 == 0.0 ? 1.0 : 2.5);
  printf("char %c%c%c string [%s] [%10s] [%-6s] [%.3s]\n", 'h', 'i', '!', "hip", "right", "left", "truncate");
  printf("star [%*d] [%-*d] [%.*f] [%*.*f]\n", 6, 42, 6, 42, 3, 2.0 / 3.0, 9, 2, 2.0 / 3.0);
  printf("percent 100%% done, pointer %p, null %p\n", (void*)0x1234, (void*)0);
  const char* nothing = nullptr;
  printf("null string [%s]\n", nothing);
  printf("a long string: [%s] and after it %d\n",
         "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-long enough for three packets", 7);
  printf("%d %d %d %d %d %d %d %d %d %d\n", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
}

__global__ void lanes() {
  if (threadIdx.x % 32 == 0) printf("block %d thread %d of %d\n", int(blockIdx.x), int(threadIdx.x), int(blockDim.x));
}

int main() {
  formats<<<1, 64>>>(42);
  if (hipDeviceSynchronize() != hipSuccess) return 1;
  lanes<<<2, 128>>>();
  if (hipDeviceSynchronize() != hipSuccess) return 1;
  std::printf("host: done\n");
  return 0;
}
