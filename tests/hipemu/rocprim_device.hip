// rocPRIM's device-wide algorithms that pass data between workgroups (the
// decoupled look-back of scan, reduce_by_key and run_length_encode; the
// look-back and histogram passes of radix sort), from Debian's
// librocprim-dev headers, each checked against a host computation.
// Prints "rocprim_device: correct" when every result is right.
#define PROGRAM "rocprim_device"
#include "hip_check.h"
#include <rocprim/rocprim.hpp>

#include <algorithm>
#include <cstdlib>
#include <vector>

template <class T>
T* to_device(const std::vector<T>& host) {
  T* device = nullptr;
  CHECK(hipMalloc(&device, std::max<size_t>(host.size(), 1) * sizeof(T)));
  CHECK(hipMemcpy(device, host.data(), host.size() * sizeof(T), hipMemcpyHostToDevice));
  return device;
}

template <class T>
std::vector<T> to_host(const T* device, size_t n) {
  std::vector<T> host(n);
  CHECK(hipMemcpy(host.data(), device, n * sizeof(T), hipMemcpyDeviceToHost));
  return host;
}

// Temporary storage as rocPRIM asks for it: size first, then the call.
template <class Call>
void with_storage(Call call) {
  size_t bytes = 0;
  CHECK(call(nullptr, bytes));
  void* storage = nullptr;
  CHECK(hipMalloc(&storage, std::max<size_t>(bytes, 1)));
  CHECK(call(storage, bytes));
  CHECK(hipDeviceSynchronize());
  CHECK(hipFree(storage));
}

int failures = 0;

void expect(bool ok, const char* what) {
  if (!ok) {
    std::printf(PROGRAM ": %s wrong\n", what);
    ++failures;
  }
}

int main() {
  const size_t n = 100000;
  std::vector<int> values(n);
  std::vector<unsigned> keys(n);
  for (size_t i = 0; i < n; ++i) {
    values[i] = int(i * 7919 % 23) - 11;
    keys[i] = unsigned(i / (1 + i % 13));  // runs of varying length
  }
  int* d_values = to_device(values);
  unsigned* d_keys = to_device(keys);

  {  // inclusive scan
    int* d_out = to_device(std::vector<int>(n));
    with_storage([&](void* s, size_t& b) { return rocprim::inclusive_scan(s, b, d_values, d_out, n, rocprim::plus<int>()); });
    std::vector<int> expected(n);
    int running = 0;
    for (size_t i = 0; i < n; ++i) expected[i] = running += values[i];
    expect(to_host(d_out, n) == expected, "inclusive_scan");
    CHECK(hipFree(d_out));
  }
  {  // reduce_by_key
    unsigned* d_unique = to_device(std::vector<unsigned>(n));
    int* d_sums = to_device(std::vector<int>(n));
    unsigned* d_count = to_device(std::vector<unsigned>(1));
    with_storage([&](void* s, size_t& b) {
      return rocprim::reduce_by_key(s, b, d_keys, d_values, n, d_unique, d_sums, d_count, rocprim::plus<int>());
    });
    std::vector<unsigned> unique;
    std::vector<int> sums;
    for (size_t i = 0; i < n; ++i) {
      if (i == 0 || keys[i] != keys[i - 1]) unique.push_back(keys[i]), sums.push_back(0);
      sums.back() += values[i];
    }
    const unsigned count = to_host(d_count, 1)[0];
    expect(count == unique.size() && to_host(d_unique, count) == unique && to_host(d_sums, count) == sums,
           "reduce_by_key");
    CHECK(hipFree(d_unique));
    CHECK(hipFree(d_sums));
    CHECK(hipFree(d_count));
  }
  {  // run_length_encode
    unsigned* d_unique = to_device(std::vector<unsigned>(n));
    unsigned* d_lengths = to_device(std::vector<unsigned>(n));
    unsigned* d_runs = to_device(std::vector<unsigned>(1));
    with_storage([&](void* s, size_t& b) {
      return rocprim::run_length_encode(s, b, d_keys, n, d_unique, d_lengths, d_runs);
    });
    std::vector<unsigned> unique, lengths;
    for (size_t i = 0; i < n; ++i) {
      if (i == 0 || keys[i] != keys[i - 1]) unique.push_back(keys[i]), lengths.push_back(0);
      ++lengths.back();
    }
    const unsigned runs = to_host(d_runs, 1)[0];
    expect(runs == unique.size() && to_host(d_unique, runs) == unique && to_host(d_lengths, runs) == lengths,
           "run_length_encode");
    CHECK(hipFree(d_unique));
    CHECK(hipFree(d_lengths));
    CHECK(hipFree(d_runs));
  }
  {  // radix sort of pairs (stable: equal keys keep their values' order)
    std::vector<unsigned> sort_keys(n);
    std::vector<int> sort_values(n);
    for (size_t i = 0; i < n; ++i) sort_keys[i] = unsigned((i * 2654435761u) % 50021u), sort_values[i] = int(i);
    unsigned* d_in_keys = to_device(sort_keys);
    int* d_in_values = to_device(sort_values);
    unsigned* d_out_keys = to_device(std::vector<unsigned>(n));
    int* d_out_values = to_device(std::vector<int>(n));
    with_storage([&](void* s, size_t& b) {
      return rocprim::radix_sort_pairs(s, b, d_in_keys, d_out_keys, d_in_values, d_out_values, n);
    });
    std::vector<size_t> order(n);
    for (size_t i = 0; i < n; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return sort_keys[a] < sort_keys[b]; });
    std::vector<unsigned> expected_keys(n);
    std::vector<int> expected_values(n);
    for (size_t i = 0; i < n; ++i) expected_keys[i] = sort_keys[order[i]], expected_values[i] = sort_values[order[i]];
    expect(to_host(d_out_keys, n) == expected_keys && to_host(d_out_values, n) == expected_values,
           "radix_sort_pairs");
    CHECK(hipFree(d_in_keys));
    CHECK(hipFree(d_in_values));
    CHECK(hipFree(d_out_keys));
    CHECK(hipFree(d_out_values));
  }
  if (failures) return 1;
  std::printf(PROGRAM ": correct\n");
  return 0;
}
