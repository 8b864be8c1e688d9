// rocPRIM's block algorithms on 8- and 16-bit types, and a byte histogram
// as HIP's histogram256 sample writes it: waves write different bytes of one
// dword of shared memory, which is no race. Results are compared exactly with
// host references; prints one line. Run under dppgemm-emu exec, which must
// report no findings (tests/hipemu/CMakeLists.txt).
#include <hip/hip_runtime.h>
#include <rocprim/rocprim.hpp>

#include <cstdint>
#include <cstdio>
#include <vector>

#define PROGRAM "rocprim_small_types"
#include "hip_check.h"

constexpr unsigned kBlock = 256, kBlocks = 4, kItems = 4;

template <class T, rocprim::block_reduce_algorithm Algorithm>
__global__ void block_sum(const T* in, T* out) {
  using reduce = rocprim::block_reduce<T, kBlock, Algorithm>;
  __shared__ typename reduce::storage_type storage;
  T sum;
  reduce().reduce(in[blockIdx.x * kBlock + threadIdx.x], sum, storage);
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

template <class T>
__global__ void blocked_to_striped(const T* in, T* out) {
  using exchange = rocprim::block_exchange<T, kBlock, kItems>;
  __shared__ typename exchange::storage_type storage;
  T items[kItems];
  const unsigned base = blockIdx.x * kBlock * kItems;
  for (unsigned i = 0; i < kItems; ++i) items[i] = in[base + threadIdx.x * kItems + i];
  exchange().blocked_to_striped(items, items, storage);
  for (unsigned i = 0; i < kItems; ++i) out[base + threadIdx.x * kItems + i] = items[i];
}

// histogram256's scheme: each thread counts in its own byte-wide bins (a
// column of bytes, so a dword holds four threads' counts), then after a
// barrier each thread sums one bin over all threads.
constexpr unsigned kBins = 64, kPerThread = 32;  // at most 32 per bin: no byte overflows
__global__ void byte_histogram(const std::uint8_t* in, unsigned* out) {
  __shared__ std::uint8_t counts[kBins * kBlock];
  for (unsigned b = 0; b < kBins; ++b) counts[b * kBlock + threadIdx.x] = 0;
  const unsigned base = (blockIdx.x * kBlock + threadIdx.x) * kPerThread;
  for (unsigned i = 0; i < kPerThread; ++i) ++counts[(in[base + i] % kBins) * kBlock + threadIdx.x];
  __syncthreads();
  if (threadIdx.x < kBins) {
    unsigned sum = 0;
    for (unsigned t = 0; t < kBlock; ++t) sum += counts[threadIdx.x * kBlock + t];
    out[blockIdx.x * kBins + threadIdx.x] = sum;
  }
}

template <class T>
std::vector<T> pattern(std::size_t n, unsigned seed) {
  std::vector<T> v(n);
  std::uint32_t x = seed;
  for (auto& e : v) {
    x = x * 1664525u + 1013904223u;
    e = T(x >> 13);
  }
  return v;
}

template <class T>
T* to_device(const std::vector<T>& host) {
  T* device = nullptr;
  CHECK(hipMalloc(&device, host.size() * sizeof(T)));
  CHECK(hipMemcpy(device, host.data(), host.size() * sizeof(T), hipMemcpyHostToDevice));
  return device;
}

template <class T>
std::vector<T> to_host(const T* device, std::size_t n) {
  std::vector<T> host(n);
  CHECK(hipMemcpy(host.data(), device, n * sizeof(T), hipMemcpyDeviceToHost));
  return host;
}

template <class T, rocprim::block_reduce_algorithm Algorithm>
int check_sum(const char* name) {
  const std::vector<T> in = pattern<T>(kBlock * kBlocks, 7);
  T* d_in = to_device(in);
  T* d_out = to_device(std::vector<T>(kBlocks));
  block_sum<T, Algorithm><<<kBlocks, kBlock>>>(d_in, d_out);
  const std::vector<T> out = to_host(d_out, kBlocks);
  int wrong = 0;
  for (unsigned b = 0; b < kBlocks; ++b) {
    T sum = 0;
    for (unsigned i = 0; i < kBlock; ++i) sum = T(sum + in[b * kBlock + i]);  // wraps as the device's T does
    if (out[b] != sum) ++wrong;
  }
  if (wrong) std::printf(PROGRAM ": %s: %d of %u block sums wrong\n", name, wrong, kBlocks);
  CHECK(hipFree(d_in));
  CHECK(hipFree(d_out));
  return wrong;
}

template <class T>
int check_exchange(const char* name) {
  const std::size_t n = kBlock * kItems * kBlocks;
  const std::vector<T> in = pattern<T>(n, 11);
  T* d_in = to_device(in);
  T* d_out = to_device(std::vector<T>(n));
  blocked_to_striped<T><<<kBlocks, kBlock>>>(d_in, d_out);
  const std::vector<T> out = to_host(d_out, n);
  // Thread t loaded in[t * kItems + i] (blocked) and holds in[i * kBlock + t]
  // after the exchange (striped), stored at t * kItems + i.
  int wrong = 0;
  for (unsigned b = 0; b < kBlocks; ++b)
    for (unsigned t = 0; t < kBlock; ++t)
      for (unsigned i = 0; i < kItems; ++i) {
        const std::size_t base = std::size_t(b) * kBlock * kItems;
        wrong += out[base + t * kItems + i] != in[base + i * kBlock + t];
      }
  if (wrong) std::printf(PROGRAM ": %s: %d of %zu items wrong\n", name, wrong, n);
  CHECK(hipFree(d_in));
  CHECK(hipFree(d_out));
  return wrong;
}

int check_histogram() {
  const std::vector<std::uint8_t> in = pattern<std::uint8_t>(kBlock * kBlocks * kPerThread, 3);
  std::uint8_t* d_in = to_device(in);
  unsigned* d_out = to_device(std::vector<unsigned>(kBins * kBlocks));
  byte_histogram<<<kBlocks, kBlock>>>(d_in, d_out);
  const std::vector<unsigned> out = to_host(d_out, kBins * kBlocks);
  std::vector<unsigned> expected(kBins * kBlocks);
  for (std::size_t i = 0; i < in.size(); ++i) ++expected[i / (kBlock * kPerThread) * kBins + in[i] % kBins];
  int wrong = 0;
  for (std::size_t i = 0; i < out.size(); ++i) wrong += out[i] != expected[i];
  if (wrong) std::printf(PROGRAM ": byte histogram: %d of %zu bins wrong\n", wrong, out.size());
  CHECK(hipFree(d_in));
  CHECK(hipFree(d_out));
  return wrong;
}

int main() {
  using algorithm = rocprim::block_reduce_algorithm;
  int wrong = 0;
  wrong += check_sum<std::uint8_t, algorithm::using_warp_reduce>("block_reduce<uint8_t> (warp reduce)");
  wrong += check_sum<std::uint8_t, algorithm::raking_reduce>("block_reduce<uint8_t> (raking)");
  wrong += check_sum<std::uint16_t, algorithm::using_warp_reduce>("block_reduce<uint16_t> (warp reduce)");
  wrong += check_exchange<std::uint8_t>("block_exchange<uint8_t>");
  wrong += check_exchange<std::uint16_t>("block_exchange<uint16_t>");
  wrong += check_histogram();
  if (!wrong) std::printf(PROGRAM ": correct\n");
  return wrong ? 1 : 0;
}
