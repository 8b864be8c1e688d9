// Memory beyond hipMalloc: managed memory, host registration and mapping,
// pitched allocations and 2D copies, and the `__device__` variables of
// hipcc-compiled programs (hipMemcpyToSymbol and friends).
//
// Managed and registered host memory are host bytes that kernels reach at
// the same address (DeviceMemory::map_host), as on a GPU with a unified
// address space: no copies, no migration.
#include <hip/hip_runtime_api.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>

#include "runtime.hpp"

using dppgemm::hipemu::record;
using dppgemm::hipemu::Runtime;

namespace {

Runtime& runtime() { return Runtime::instance(); }

std::mutex managed_mutex;
std::set<void*> managed_blocks;

constexpr size_t kPage = 4096;

hipError_t copy_2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                   hipMemcpyKind kind) {
  if (width == 0 || height == 0) return hipSuccess;
  if (width > dpitch || width > spitch) return hipErrorInvalidPitchValue;
  for (size_t row = 0; row < height; ++row)
    if (hipError_t e = runtime().copy(static_cast<char*>(dst) + row * dpitch,
                                      static_cast<const char*>(src) + row * spitch, width, kind);
        e != hipSuccess)
      return e;
  return hipSuccess;
}

// [symbol's device address + offset, + bytes) inside the variable.
hipError_t symbol_range(const void* symbol, size_t bytes, size_t offset, char** out) {
  void* address = nullptr;
  size_t size = 0;
  if (hipError_t e = dppgemm::hipemu::variable_of_shadow(symbol, &address, &size); e != hipSuccess) return e;
  if (offset > size || bytes > size - offset) return hipErrorInvalidValue;
  *out = static_cast<char*>(address) + offset;
  return hipSuccess;
}

}  // namespace

namespace dppgemm::hipemu {

// hipFree of managed memory (api.cpp): true when `pointer` was one.
bool free_managed(void* pointer) {
  std::lock_guard<std::mutex> lock(managed_mutex);
  if (managed_blocks.erase(pointer) != 1) return false;
  (void)runtime().unmap_host(pointer);
  std::free(pointer);
  return true;
}

}  // namespace dppgemm::hipemu

extern "C" {

hipError_t hipMallocManaged(void** dev_ptr, size_t size, unsigned int flags) {
  if (!dev_ptr || size == 0 || (flags != hipMemAttachGlobal && flags != hipMemAttachHost))
    return record(hipErrorInvalidValue);
  if (!runtime().device()) return record(hipErrorNoDevice);
  void* block = std::aligned_alloc(kPage, (size + kPage - 1) / kPage * kPage);
  if (!block) return record(hipErrorOutOfMemory);
  std::memset(block, 0, size);
  if (hipError_t e = runtime().map_host(block, size, "hipMallocManaged"); e != hipSuccess) {
    std::free(block);
    return record(hipErrorOutOfMemory);
  }
  std::lock_guard<std::mutex> lock(managed_mutex);
  managed_blocks.insert(block);
  *dev_ptr = block;
  return hipSuccess;
}

hipError_t hipHostRegister(void* hostPtr, size_t sizeBytes, unsigned int flags) {
  if (!hostPtr || sizeBytes == 0 ||
      (flags & ~unsigned(hipHostRegisterPortable | hipHostRegisterMapped | hipHostRegisterIoMemory)))
    return record(hipErrorInvalidValue);
  return record(runtime().map_host(hostPtr, sizeBytes, "hipHostRegister"));
}

hipError_t hipHostUnregister(void* hostPtr) {
  if (!hostPtr) return record(hipErrorInvalidValue);
  return record(runtime().unmap_host(hostPtr));
}

// Mapped host memory (hipHostMalloc, hipHostRegister, managed) is reached at
// its own address.
hipError_t hipHostGetDevicePointer(void** devPtr, void* hstPtr, unsigned int flags) {
  if (!devPtr || !hstPtr || flags != 0) return record(hipErrorInvalidValue);
  if (reinterpret_cast<std::uintptr_t>(hstPtr) >= dppgemm::emu::DeviceMemory::first_address ||
      !runtime().is_mapped(hstPtr))
    return record(hipErrorInvalidValue);
  *devPtr = hstPtr;
  return hipSuccess;
}

// Rows padded to the device's texture pitch alignment, as ROCm does.
hipError_t hipMallocPitch(void** ptr, size_t* pitch, size_t width, size_t height) {
  if (!ptr || !pitch) return record(hipErrorInvalidValue);
  if (!runtime().device()) return record(hipErrorNoDevice);
  const size_t alignment = runtime().device()->properties.texturePitchAlignment;
  *pitch = (width + alignment - 1) / alignment * alignment;
  if (*pitch < width) return record(hipErrorOutOfMemory);  // the rounding overflowed
  if (height != 0 && *pitch > SIZE_MAX / height) return record(hipErrorOutOfMemory);
  return record(runtime().allocate(ptr, *pitch * height));
}

hipError_t hipMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                       hipMemcpyKind kind) {
  if (hipError_t e = runtime().take_pending_fault(); e != hipSuccess) return record(e);
  return record(copy_2d(dst, dpitch, src, spitch, width, height, kind));
}

hipError_t hipMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                            hipMemcpyKind kind, hipStream_t stream) {
  if (hipError_t e = runtime().check_stream(stream); e != hipSuccess) return record(e);
  return record(copy_2d(dst, dpitch, src, spitch, width, height, kind));
}

hipError_t hipModuleGetGlobal(hipDeviceptr_t* dptr, size_t* bytes, hipModule_t hmod, const char* name) {
  return record(runtime().get_global(dptr, bytes, hmod, name));
}

hipError_t hipGetSymbolAddress(void** devPtr, const void* symbol) {
  if (!devPtr) return record(hipErrorInvalidValue);
  return record(dppgemm::hipemu::variable_of_shadow(symbol, devPtr, nullptr));
}

hipError_t hipGetSymbolSize(size_t* size, const void* symbol) {
  if (!size) return record(hipErrorInvalidValue);
  return record(dppgemm::hipemu::variable_of_shadow(symbol, nullptr, size));
}

hipError_t hipMemcpyToSymbol(const void* symbol, const void* src, size_t sizeBytes, size_t offset,
                             hipMemcpyKind kind) {
  if (kind != hipMemcpyHostToDevice && kind != hipMemcpyDeviceToDevice && kind != hipMemcpyDefault)
    return record(hipErrorInvalidMemcpyDirection);
  char* to = nullptr;
  if (hipError_t e = symbol_range(symbol, sizeBytes, offset, &to); e != hipSuccess) return record(e);
  if (hipError_t e = runtime().take_pending_fault(); e != hipSuccess) return record(e);
  return record(runtime().copy(to, src, sizeBytes, kind));
}

hipError_t hipMemcpyToSymbolAsync(const void* symbol, const void* src, size_t sizeBytes, size_t offset,
                                  hipMemcpyKind kind, hipStream_t stream) {
  if (hipError_t e = runtime().check_stream(stream); e != hipSuccess) return record(e);
  if (kind != hipMemcpyHostToDevice && kind != hipMemcpyDeviceToDevice && kind != hipMemcpyDefault)
    return record(hipErrorInvalidMemcpyDirection);
  char* to = nullptr;
  if (hipError_t e = symbol_range(symbol, sizeBytes, offset, &to); e != hipSuccess) return record(e);
  return record(runtime().copy(to, src, sizeBytes, kind));
}

hipError_t hipMemcpyFromSymbol(void* dst, const void* symbol, size_t sizeBytes, size_t offset, hipMemcpyKind kind) {
  if (kind != hipMemcpyDeviceToHost && kind != hipMemcpyDeviceToDevice && kind != hipMemcpyDefault)
    return record(hipErrorInvalidMemcpyDirection);
  char* from = nullptr;
  if (hipError_t e = symbol_range(symbol, sizeBytes, offset, &from); e != hipSuccess) return record(e);
  if (hipError_t e = runtime().take_pending_fault(); e != hipSuccess) return record(e);
  return record(runtime().copy(dst, from, sizeBytes, kind));
}

hipError_t hipMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t sizeBytes, size_t offset,
                                    hipMemcpyKind kind, hipStream_t stream) {
  if (hipError_t e = runtime().check_stream(stream); e != hipSuccess) return record(e);
  if (kind != hipMemcpyDeviceToHost && kind != hipMemcpyDeviceToDevice && kind != hipMemcpyDefault)
    return record(hipErrorInvalidMemcpyDirection);
  char* from = nullptr;
  if (hipError_t e = symbol_range(symbol, sizeBytes, offset, &from); e != hipSuccess) return record(e);
  return record(runtime().copy(dst, from, sizeBytes, kind));
}

}  // extern "C"
