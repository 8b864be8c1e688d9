// The memory API: device and host allocations, copies and fills (1D, 2D and
// 3D, synchronous and on a stream), managed memory, host registration and
// mapping, pointer queries, and the `__device__` variables of hipcc-compiled
// programs (hipMemcpyToSymbol and friends).
//
// Managed and registered host memory are host bytes that kernels reach at
// the same address (DeviceMemory::map_host), as on a GPU with a unified
// address space: no copies, no migration.
#include <hip/hip_runtime_api.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <set>

#include "guard.hpp"
#include "runtime.hpp"

using dppgemm::hipemu::byte_count;
using dppgemm::hipemu::record;
using dppgemm::hipemu::Runtime;

namespace {

Runtime& runtime() { return Runtime::instance(); }

std::mutex managed_mutex;
std::set<void*> managed_blocks;

// Unmaps and frees a host block that `blocks` (guarded by `mutex`: the
// managed or the hipHostMalloc'd blocks) holds; false when it holds no
// block at `pointer`.
template <class Blocks>
bool free_mapped_block(std::mutex& mutex, Blocks& blocks, void* pointer) {
    std::lock_guard<std::mutex> lock(mutex);
    if (blocks.erase(pointer) != 1) return false;
    (void)runtime().unmap_host(pointer);
    std::free(pointer);
    return true;
}

constexpr size_t kPage = 4096;

// `size` rounded up to a multiple of `alignment`; nothing when that overflows.
std::optional<size_t> round_up(size_t size, size_t alignment) {
    return byte_count(size / alignment + (size % alignment != 0), alignment);
}

// The bytes a pitched region of `height` rows spans from its first byte:
// (height - 1) * pitch + width (height > 0), nothing when that overflows or
// the region would wrap around the address space. With width <= pitch it is
// at least width * height, so that product cannot overflow either.
std::optional<size_t> extent_2d(const void* base, size_t pitch, size_t width, size_t height) {
    const std::optional<size_t> rows = byte_count(height - 1, pitch);
    if (!rows || *rows > SIZE_MAX - width) return std::nullopt;
    const size_t extent = *rows + width;
    if (reinterpret_cast<std::uintptr_t>(base) > UINTPTR_MAX - extent) return std::nullopt;
    return extent;
}

// Whether a 2D copy may run: every size checked, each device side holding every row.
hipError_t check_2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                    hipMemcpyKind kind) {
    if (width == 0 || height == 0) return hipSuccess;
    if (width > dpitch || width > spitch) return hipErrorInvalidPitchValue;
    const std::optional<size_t> dst_extent = extent_2d(dst, dpitch, width, height);
    const std::optional<size_t> src_extent = extent_2d(src, spitch, width, height);
    if (!dst_extent || !src_extent) return hipErrorInvalidValue;
    // A device side (the rule of Runtime::copy) holds every row, or no row is copied.
    const auto device_side_fits = [](const void* base, size_t extent, bool device_kind) {
        const bool device =
            device_kind || reinterpret_cast<std::uintptr_t>(base) >= dppgemm::emu::DeviceMemory::first_address;
        return !device || runtime().is_mapped(base, extent);
    };
    if (!device_side_fits(dst, *dst_extent, kind == hipMemcpyHostToDevice || kind == hipMemcpyDeviceToDevice) ||
        !device_side_fits(src, *src_extent, kind == hipMemcpyDeviceToHost || kind == hipMemcpyDeviceToDevice))
        return hipErrorInvalidValue;
    return hipSuccess;
}

// Every size is checked before the first row moves: a refused copy writes nothing.
hipError_t copy_2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                   hipMemcpyKind kind) {
    if (width == 0 || height == 0) return hipSuccess;
    if (hipError_t e = check_2d(dst, dpitch, src, spitch, width, height, kind); e != hipSuccess) return e;
    for (size_t row = 0; row < height; ++row)
        if (hipError_t e = runtime().copy(static_cast<char*>(dst) + row * dpitch,
                                          static_cast<const char*>(src) + row * spitch, width, kind);
            e != hipSuccess)
            return e;
    return hipSuccess;
}

// Sets width bytes of each of height rows, pitch apart; every row is checked
// before the first is written.
hipError_t fill_2d(void* dst, size_t pitch, int value, size_t width, size_t height) {
    if (width == 0 || height == 0) return hipSuccess;
    if (width > pitch) return hipErrorInvalidPitchValue;
    const std::optional<size_t> extent = extent_2d(dst, pitch, width, height);
    if (!extent || !runtime().is_mapped(dst, *extent)) return hipErrorInvalidValue;
    for (size_t row = 0; row < height; ++row)
        if (hipError_t e = runtime().fill(static_cast<char*>(dst) + row * pitch, std::uint8_t(value), 1, width);
            e != hipSuccess)
            return e;
    return hipSuccess;
}

// The byte of a pitched 3D region at (x bytes, y rows, z slices), nothing when it overflows.
std::optional<std::uintptr_t> byte_3d(const hipPitchedPtr& p, const hipPos& pos) {
    const std::optional<size_t> slice = byte_count(p.pitch, p.ysize);
    const std::optional<size_t> z = slice ? byte_count(pos.z, *slice) : std::nullopt;
    const std::optional<size_t> y = byte_count(pos.y, p.pitch);
    if (!z || !y || *z > SIZE_MAX - *y || *z + *y > SIZE_MAX - pos.x) return std::nullopt;
    const size_t offset = *z + *y + pos.x;
    if (reinterpret_cast<std::uintptr_t>(p.ptr) > UINTPTR_MAX - offset) return std::nullopt;
    return reinterpret_cast<std::uintptr_t>(p.ptr) + offset;
}

// A 3D copy between pitched regions (hipMemcpy3D without arrays): slice by
// slice as 2D copies, every slice checked before the first byte moves.
hipError_t copy_3d(const hipMemcpy3DParms* p) {
    if (!p) return hipErrorInvalidValue;
    if (p->srcArray || p->dstArray) {
        std::fprintf(stderr, "hipemu: hipMemcpy3D with a hipArray is not provided (arrays are not)\n");
        return hipErrorNotSupported;
    }
    const hipExtent& e = p->extent;
    if (e.width == 0 || e.height == 0 || e.depth == 0) return hipSuccess;
    if (!p->srcPtr.ptr || !p->dstPtr.ptr || e.height > p->srcPtr.ysize || e.height > p->dstPtr.ysize)
        return hipErrorInvalidValue;
    const auto slice = [&](const hipPitchedPtr& ptr, const hipPos& pos, size_t z) -> std::optional<std::uintptr_t> {
        return z > SIZE_MAX - pos.z ? std::nullopt : byte_3d(ptr, hipPos{pos.x, pos.y, pos.z + z});
    };
    for (int pass = 0; pass < 2; ++pass)
        for (size_t z = 0; z < e.depth; ++z) {
            const std::optional<std::uintptr_t> to = slice(p->dstPtr, p->dstPos, z);
            const std::optional<std::uintptr_t> from = slice(p->srcPtr, p->srcPos, z);
            if (!to || !from) return hipErrorInvalidValue;
            void* dst = reinterpret_cast<void*>(*to);
            const void* src = reinterpret_cast<const void*>(*from);
            const hipError_t r = pass == 0
                                     ? check_2d(dst, p->dstPtr.pitch, src, p->srcPtr.pitch, e.width, e.height, p->kind)
                                     : copy_2d(dst, p->dstPtr.pitch, src, p->srcPtr.pitch, e.width, e.height, p->kind);
            if (r != hipSuccess) return r;
        }
    return hipSuccess;
}

hipError_t fill_3d(const hipPitchedPtr& p, int value, const hipExtent& e) {
    if (e.width == 0 || e.height == 0 || e.depth == 0) return hipSuccess;
    if (!p.ptr || e.height > p.ysize) return hipErrorInvalidValue;
    for (int pass = 0; pass < 2; ++pass)
        for (size_t z = 0; z < e.depth; ++z) {
            const std::optional<std::uintptr_t> at = byte_3d(p, hipPos{0, 0, z});
            if (!at) return hipErrorInvalidValue;
            void* slice = reinterpret_cast<void*>(*at);
            const std::optional<size_t> extent =
                e.width > p.pitch ? std::nullopt : extent_2d(slice, p.pitch, e.width, e.height);
            if (pass == 0 && (!extent || !runtime().is_mapped(slice, *extent)))
                return e.width > p.pitch ? hipErrorInvalidPitchValue : hipErrorInvalidValue;
            if (pass == 1)
                if (hipError_t r = fill_2d(slice, p.pitch, value, e.width, e.height); r != hipSuccess) return r;
        }
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

// A synchronous copy first reports what an earlier launch left behind.
hipError_t copy_synchronously(void* dst, const void* src, size_t bytes, hipMemcpyKind kind) {
    if (hipError_t e = runtime().take_pending_fault(); e != hipSuccess) return e;
    return runtime().copy(dst, src, bytes, kind);
}

// Work on a stream: done now, or kept as the next node of the graph the
// stream is capturing.
template <class Work>
hipError_t on_stream(hipStream_t stream, Work work) {
    if (hipError_t e = runtime().check_stream(stream); e != hipSuccess) return e;
    if (dppgemm::hipemu::capture(stream, work)) return hipSuccess;
    return work();
}
hipError_t copy_on_stream(void* dst, const void* src, size_t bytes, hipMemcpyKind kind, hipStream_t stream) {
    return on_stream(stream, [=] { return runtime().copy(dst, src, bytes, kind); });
}
hipError_t fill_on_stream(void* dst, std::uint32_t pattern, std::size_t pattern_bytes, std::size_t count,
                          hipStream_t stream) {
    return on_stream(stream, [=] { return runtime().fill(dst, pattern, pattern_bytes, count); });
}

// hipHostMalloc'd blocks: host memory kernels reach at the same address
// (mapped), with the flags they were allocated with (hipHostGetFlags).
std::mutex host_blocks_mutex;
std::map<void*, unsigned> host_blocks;

bool free_host_block(void* pointer) { return free_mapped_block(host_blocks_mutex, host_blocks, pointer); }

}  // namespace

namespace dppgemm::hipemu {

bool is_managed(const void* pointer) {
    std::lock_guard<std::mutex> lock(managed_mutex);
    return managed_blocks.count(const_cast<void*>(pointer)) == 1;
}

// hipFree of managed memory (api.cpp): true when `pointer` was one.
bool free_managed(void* pointer) { return free_mapped_block(managed_mutex, managed_blocks, pointer); }

}  // namespace dppgemm::hipemu

namespace dppgemm::hipemu {

bool host_block_flags(const void* pointer, unsigned* flags) {
    std::lock_guard<std::mutex> lock(host_blocks_mutex);
    auto it = host_blocks.find(const_cast<void*>(pointer));
    if (it == host_blocks.end()) return false;
    *flags = it->second;
    return true;
}

}  // namespace dppgemm::hipemu

extern "C" {

hipError_t hipMalloc(void** ptr, size_t size) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t { return record(runtime().allocate(ptr, size)); });
}
// ROCm's hipFree frees any block its runtime knows, hipHostMalloc'd ones too
// (hipamd src/hip_memory.cpp, ihipFree: the memory object of the pointer,
// then SvmBuffer::free), and HIP programs rely on it (the HIP-Examples
// applications free their hipHostMalloc'd buffers with hipFree).
hipError_t hipFree(void* ptr) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (dppgemm::hipemu::free_managed(ptr)) return hipSuccess;
        if (free_host_block(ptr)) return hipSuccess;
        return record(runtime().release(ptr));
    });
}
hipError_t hipMemGetInfo(size_t* free, size_t* total) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!free || !total) return record(hipErrorInvalidValue);
        if (!runtime().device()) return record(hipErrorNoDevice);
        *total = runtime().device()->properties.totalGlobalMem;
        *free = *total - runtime().bytes_allocated();
        return hipSuccess;
    });
}
hipError_t hipHostMalloc(void** ptr, size_t size, unsigned int flags) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!ptr) return record(hipErrorInvalidValue);
        // Pinning and coherence mean nothing to the emulator; every block is mapped, its flags kept.
        *ptr = nullptr;
        if (size == 0) return hipSuccess;
        constexpr size_t page = 4096;
        void* block = std::aligned_alloc(page, (size + page - 1) / page * page);
        if (!block) return record(hipErrorOutOfMemory);
        if (runtime().map_host(block, size, "hipHostMalloc") != hipSuccess) {
            std::free(block);
            return record(hipErrorOutOfMemory);
        }
        std::lock_guard<std::mutex> lock(host_blocks_mutex);
        host_blocks[block] = flags;
        *ptr = block;
        return hipSuccess;
    });
}
hipError_t hipHostFree(void* ptr) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!ptr) return hipSuccess;
        return free_host_block(ptr) ? hipSuccess : record(hipErrorInvalidValue);
    });
}
hipError_t hipMemcpy(void* dst, const void* src, size_t bytes, hipMemcpyKind kind) {
    return dppgemm::hipemu::guarded(__func__,
                                    [&]() -> hipError_t { return record(copy_synchronously(dst, src, bytes, kind)); });
}
hipError_t hipMemcpyHtoD(hipDeviceptr_t dst, void* src, size_t bytes) {
    return dppgemm::hipemu::guarded(
        __func__, [&]() -> hipError_t { return record(copy_synchronously(dst, src, bytes, hipMemcpyHostToDevice)); });
}
hipError_t hipMemcpyDtoH(void* dst, hipDeviceptr_t src, size_t bytes) {
    return dppgemm::hipemu::guarded(
        __func__, [&]() -> hipError_t { return record(copy_synchronously(dst, src, bytes, hipMemcpyDeviceToHost)); });
}
hipError_t hipMemcpyDtoD(hipDeviceptr_t dst, hipDeviceptr_t src, size_t bytes) {
    return dppgemm::hipemu::guarded(
        __func__, [&]() -> hipError_t { return record(copy_synchronously(dst, src, bytes, hipMemcpyDeviceToDevice)); });
}
hipError_t hipMemcpyAsync(void* dst, const void* src, size_t bytes, hipMemcpyKind kind, hipStream_t stream) {
    return dppgemm::hipemu::guarded(
        __func__, [&]() -> hipError_t { return record(copy_on_stream(dst, src, bytes, kind, stream)); });
}
hipError_t hipMemcpyHtoDAsync(hipDeviceptr_t dst, void* src, size_t bytes, hipStream_t stream) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        return record(copy_on_stream(dst, src, bytes, hipMemcpyHostToDevice, stream));
    });
}
hipError_t hipMemcpyDtoHAsync(void* dst, hipDeviceptr_t src, size_t bytes, hipStream_t stream) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        return record(copy_on_stream(dst, src, bytes, hipMemcpyDeviceToHost, stream));
    });
}
hipError_t hipMemcpyDtoDAsync(hipDeviceptr_t dst, hipDeviceptr_t src, size_t bytes, hipStream_t stream) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        return record(copy_on_stream(dst, src, bytes, hipMemcpyDeviceToDevice, stream));
    });
}
hipError_t hipMemset(void* dst, int value, size_t bytes) {
    return dppgemm::hipemu::guarded(
        __func__, [&]() -> hipError_t { return record(runtime().fill(dst, std::uint8_t(value), 1, bytes)); });
}
hipError_t hipMemsetAsync(void* dst, int value, size_t bytes, hipStream_t stream) {
    return dppgemm::hipemu::guarded(
        __func__, [&]() -> hipError_t { return record(fill_on_stream(dst, std::uint8_t(value), 1, bytes, stream)); });
}
hipError_t hipMemsetD8(hipDeviceptr_t dst, unsigned char value, size_t count) {
    return dppgemm::hipemu::guarded(__func__,
                                    [&]() -> hipError_t { return record(runtime().fill(dst, value, 1, count)); });
}
hipError_t hipMemsetD32(hipDeviceptr_t dst, int value, size_t count) {
    return dppgemm::hipemu::guarded(
        __func__, [&]() -> hipError_t { return record(runtime().fill(dst, std::uint32_t(value), 4, count)); });
}

hipError_t hipMallocManaged(void** dev_ptr, size_t size, unsigned int flags) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!dev_ptr || size == 0 || (flags != hipMemAttachGlobal && flags != hipMemAttachHost))
            return record(hipErrorInvalidValue);
        if (!runtime().device()) return record(hipErrorNoDevice);
        const std::optional<size_t> pages = round_up(size, kPage);
        if (!pages) return record(hipErrorInvalidValue);
        // Managed memory stands for device memory: no more than the device has.
        if (size > runtime().device()->properties.totalGlobalMem) return record(hipErrorOutOfMemory);
        void* block = std::aligned_alloc(kPage, *pages);
        if (!block) return record(hipErrorOutOfMemory);
        std::memset(block, 0, size);
        if (hipError_t e = runtime().map_host(block, size, "hipMallocManaged"); e != hipSuccess) {
            std::free(block);
            return record(hipErrorOutOfMemory);
        }
        try {
            std::lock_guard<std::mutex> lock(managed_mutex);
            managed_blocks.insert(block);
        } catch (...) {  // for the guard, without leaking the block
            (void)runtime().unmap_host(block);
            std::free(block);
            throw;
        }
        *dev_ptr = block;
        return hipSuccess;
    });
}

hipError_t hipHostRegister(void* hostPtr, size_t sizeBytes, unsigned int flags) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!hostPtr || sizeBytes == 0 ||
            (flags & ~unsigned(hipHostRegisterPortable | hipHostRegisterMapped | hipHostRegisterIoMemory)))
            return record(hipErrorInvalidValue);
        // The range may neither wrap nor reach the emulated device addresses.
        const std::uintptr_t first = reinterpret_cast<std::uintptr_t>(hostPtr);
        if (first >= dppgemm::emu::DeviceMemory::first_address ||
            sizeBytes > dppgemm::emu::DeviceMemory::first_address - first)
            return record(hipErrorInvalidValue);
        return record(runtime().map_host(hostPtr, sizeBytes, "hipHostRegister"));
    });
}

hipError_t hipHostUnregister(void* hostPtr) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!hostPtr) return record(hipErrorInvalidValue);
        return record(runtime().unmap_host(hostPtr));
    });
}

// Mapped host memory (hipHostMalloc, hipHostRegister, managed) is reached at
// its own address.
hipError_t hipHostGetDevicePointer(void** devPtr, void* hstPtr, unsigned int flags) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!devPtr || !hstPtr || flags != 0) return record(hipErrorInvalidValue);
        if (reinterpret_cast<std::uintptr_t>(hstPtr) >= dppgemm::emu::DeviceMemory::first_address ||
            !runtime().is_mapped(hstPtr))
            return record(hipErrorInvalidValue);
        *devPtr = hstPtr;
        return hipSuccess;
    });
}

// Rows padded to the device's texture pitch alignment, as ROCm does.
hipError_t hipMallocPitch(void** ptr, size_t* pitch, size_t width, size_t height) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!ptr || !pitch) return record(hipErrorInvalidValue);
        if (!runtime().device()) return record(hipErrorNoDevice);
        const std::optional<size_t> row = round_up(width, runtime().device()->properties.texturePitchAlignment);
        const std::optional<size_t> bytes = row ? byte_count(*row, height) : std::nullopt;
        if (!bytes) return record(hipErrorInvalidValue);
        if (hipError_t e = runtime().allocate(ptr, *bytes); e != hipSuccess) return record(e);
        *pitch = *row;
        return hipSuccess;
    });
}

hipError_t hipMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                       hipMemcpyKind kind) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (hipError_t e = runtime().take_pending_fault(); e != hipSuccess) return record(e);
        return record(copy_2d(dst, dpitch, src, spitch, width, height, kind));
    });
}

hipError_t hipMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                            hipMemcpyKind kind, hipStream_t stream) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        return record(on_stream(stream, [=] { return copy_2d(dst, dpitch, src, spitch, width, height, kind); }));
    });
}

hipError_t hipModuleGetGlobal(hipDeviceptr_t* dptr, size_t* bytes, hipModule_t hmod, const char* name) {
    return dppgemm::hipemu::guarded(
        __func__, [&]() -> hipError_t { return record(runtime().get_global(dptr, bytes, hmod, name)); });
}

hipError_t hipGetSymbolAddress(void** devPtr, const void* symbol) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!devPtr) return record(hipErrorInvalidValue);
        return record(dppgemm::hipemu::variable_of_shadow(symbol, devPtr, nullptr));
    });
}

hipError_t hipGetSymbolSize(size_t* size, const void* symbol) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!size) return record(hipErrorInvalidValue);
        return record(dppgemm::hipemu::variable_of_shadow(symbol, nullptr, size));
    });
}

hipError_t hipMemcpyToSymbol(const void* symbol, const void* src, size_t sizeBytes, size_t offset, hipMemcpyKind kind) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (kind != hipMemcpyHostToDevice && kind != hipMemcpyDeviceToDevice && kind != hipMemcpyDefault)
            return record(hipErrorInvalidMemcpyDirection);
        char* to = nullptr;
        if (hipError_t e = symbol_range(symbol, sizeBytes, offset, &to); e != hipSuccess) return record(e);
        if (hipError_t e = runtime().take_pending_fault(); e != hipSuccess) return record(e);
        return record(runtime().copy(to, src, sizeBytes, kind));
    });
}

hipError_t hipMemcpyToSymbolAsync(const void* symbol, const void* src, size_t sizeBytes, size_t offset,
                                  hipMemcpyKind kind, hipStream_t stream) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (hipError_t e = runtime().check_stream(stream); e != hipSuccess) return record(e);
        if (kind != hipMemcpyHostToDevice && kind != hipMemcpyDeviceToDevice && kind != hipMemcpyDefault)
            return record(hipErrorInvalidMemcpyDirection);
        char* to = nullptr;
        if (hipError_t e = symbol_range(symbol, sizeBytes, offset, &to); e != hipSuccess) return record(e);
        return record(runtime().copy(to, src, sizeBytes, kind));
    });
}

hipError_t hipMemcpyFromSymbol(void* dst, const void* symbol, size_t sizeBytes, size_t offset, hipMemcpyKind kind) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (kind != hipMemcpyDeviceToHost && kind != hipMemcpyDeviceToDevice && kind != hipMemcpyDefault)
            return record(hipErrorInvalidMemcpyDirection);
        char* from = nullptr;
        if (hipError_t e = symbol_range(symbol, sizeBytes, offset, &from); e != hipSuccess) return record(e);
        if (hipError_t e = runtime().take_pending_fault(); e != hipSuccess) return record(e);
        return record(runtime().copy(dst, from, sizeBytes, kind));
    });
}

hipError_t hipMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t sizeBytes, size_t offset, hipMemcpyKind kind,
                                    hipStream_t stream) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (hipError_t e = runtime().check_stream(stream); e != hipSuccess) return record(e);
        if (kind != hipMemcpyDeviceToHost && kind != hipMemcpyDeviceToDevice && kind != hipMemcpyDefault)
            return record(hipErrorInvalidMemcpyDirection);
        char* from = nullptr;
        if (hipError_t e = symbol_range(symbol, sizeBytes, offset, &from); e != hipSuccess) return record(e);
        return record(runtime().copy(dst, from, sizeBytes, kind));
    });
}

// ---- memsets of every width, sync and async ----

hipError_t hipMemsetD16(hipDeviceptr_t dst, unsigned short value, size_t count) {
    return dppgemm::hipemu::guarded(__func__,
                                    [&]() -> hipError_t { return record(runtime().fill(dst, value, 2, count)); });
}
hipError_t hipMemsetD8Async(hipDeviceptr_t dst, unsigned char value, size_t count, hipStream_t stream) {
    return dppgemm::hipemu::guarded(
        __func__, [&]() -> hipError_t { return record(fill_on_stream(dst, value, 1, count, stream)); });
}
hipError_t hipMemsetD16Async(hipDeviceptr_t dst, unsigned short value, size_t count, hipStream_t stream) {
    return dppgemm::hipemu::guarded(
        __func__, [&]() -> hipError_t { return record(fill_on_stream(dst, value, 2, count, stream)); });
}
hipError_t hipMemsetD32Async(hipDeviceptr_t dst, int value, size_t count, hipStream_t stream) {
    return dppgemm::hipemu::guarded(
        __func__, [&]() -> hipError_t { return record(fill_on_stream(dst, std::uint32_t(value), 4, count, stream)); });
}
hipError_t hipMemset2D(void* dst, size_t pitch, int value, size_t width, size_t height) {
    return dppgemm::hipemu::guarded(__func__,
                                    [&]() -> hipError_t { return record(fill_2d(dst, pitch, value, width, height)); });
}
hipError_t hipMemset2DAsync(void* dst, size_t pitch, int value, size_t width, size_t height, hipStream_t stream) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        return record(on_stream(stream, [=] { return fill_2d(dst, pitch, value, width, height); }));
    });
}

// ---- copies under other names ----

hipError_t hipMemcpyWithStream(void* dst, const void* src, size_t sizeBytes, hipMemcpyKind kind, hipStream_t stream) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (hipError_t e = runtime().check_stream(stream); e != hipSuccess) return record(e);
        if (hipError_t e = runtime().take_pending_fault(); e != hipSuccess) return record(e);
        return record(runtime().copy(dst, src, sizeBytes, kind));
    });
}
// One device: a peer copy is a copy within it; another device number is hipErrorInvalidDevice.
hipError_t hipMemcpyPeer(void* dst, int dstDeviceId, const void* src, int srcDeviceId, size_t sizeBytes) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (hipError_t e = runtime().check_device(dstDeviceId); e != hipSuccess) return record(e);
        if (hipError_t e = runtime().check_device(srcDeviceId); e != hipSuccess) return record(e);
        if (hipError_t e = runtime().take_pending_fault(); e != hipSuccess) return record(e);
        return record(runtime().copy(dst, src, sizeBytes, hipMemcpyDeviceToDevice));
    });
}
hipError_t hipMemcpyPeerAsync(void* dst, int dstDeviceId, const void* src, int srcDevice, size_t sizeBytes,
                              hipStream_t stream) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (hipError_t e = runtime().check_stream(stream); e != hipSuccess) return record(e);
        if (hipError_t e = runtime().check_device(dstDeviceId); e != hipSuccess) return record(e);
        if (hipError_t e = runtime().check_device(srcDevice); e != hipSuccess) return record(e);
        return record(runtime().copy(dst, src, sizeBytes, hipMemcpyDeviceToDevice));
    });
}

// ---- host allocations under their other names ----

hipError_t hipMallocHost(void** ptr, size_t size) { return hipHostMalloc(ptr, size, hipHostMallocDefault); }
hipError_t hipMemAllocHost(void** ptr, size_t size) { return hipHostMalloc(ptr, size, hipHostMallocDefault); }
hipError_t hipHostAlloc(void** ptr, size_t size, unsigned int flags) { return hipHostMalloc(ptr, size, flags); }
hipError_t hipFreeHost(void* ptr) { return hipHostFree(ptr); }
hipError_t hipMemAllocPitch(hipDeviceptr_t* dptr, size_t* pitch, size_t widthInBytes, size_t height,
                            unsigned int elementSizeBytes) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (elementSizeBytes != 4 && elementSizeBytes != 8 && elementSizeBytes != 16)
            return record(hipErrorInvalidValue);
        return hipMallocPitch(dptr, pitch, widthInBytes, height);
    });
}
hipError_t hipHostGetFlags(unsigned int* flagsPtr, void* hostPtr) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!flagsPtr || !hostPtr) return record(hipErrorInvalidValue);
        if (!dppgemm::hipemu::host_block_flags(hostPtr, flagsPtr)) return record(hipErrorInvalidValue);
        return hipSuccess;
    });
}

// ---- what a pointer is ----

// As ROCm 5.2 (ROCclr): hipMalloc'd memory is hipMemoryTypeDevice with only
// a device pointer; mapped host memory (hipHostMalloc, registered, managed) is
// hipMemoryTypeHost with both pointers, isManaged for hipMallocManaged; an
// address in neither is hipErrorInvalidValue.
hipError_t hipPointerGetAttributes(hipPointerAttribute_t* attributes, const void* ptr) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!attributes || !ptr) return record(hipErrorInvalidValue);
        Runtime::Range range;
        if (!runtime().range_of(ptr, &range)) return record(hipErrorInvalidValue);
        *attributes = hipPointerAttribute_t{};
        attributes->memoryType = range.device ? hipMemoryTypeDevice : hipMemoryTypeHost;
        attributes->device = 0;
        attributes->devicePointer = const_cast<void*>(ptr);
        if (!range.device) attributes->hostPointer = const_cast<void*>(ptr);
        attributes->isManaged = dppgemm::hipemu::is_managed(range.base) ? 1 : 0;
        unsigned flags = 0;
        if (dppgemm::hipemu::host_block_flags(range.base, &flags)) attributes->allocationFlags = flags;
        return hipSuccess;
    });
}
hipError_t hipMemGetAddressRange(hipDeviceptr_t* pbase, size_t* psize, hipDeviceptr_t dptr) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        Runtime::Range range;
        if (!runtime().range_of(dptr, &range)) return record(hipErrorNotFound);
        if (pbase) *pbase = range.base;
        if (psize) *psize = range.size;
        return hipSuccess;
    });
}
hipError_t hipMemPtrGetInfo(void* ptr, size_t* size) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!ptr || !size) return record(hipErrorInvalidValue);
        Runtime::Range range;
        if (!runtime().range_of(ptr, &range)) return record(hipErrorInvalidValue);
        *size = range.size;
        return hipSuccess;
    });
}

// ---- managed memory: one address space, nothing to migrate ----

// Advice and prefetches are checked and change nothing: managed memory is
// host memory the device reaches at its own address.
hipError_t hipMemAdvise(const void* dev_ptr, size_t count, hipMemoryAdvise advice, int device) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        const bool known = (advice >= hipMemAdviseSetReadMostly && advice <= hipMemAdviseUnsetAccessedBy) ||
                           advice == hipMemAdviseSetCoarseGrain || advice == hipMemAdviseUnsetCoarseGrain;
        if (!dev_ptr || count == 0 || !known) return record(hipErrorInvalidValue);
        if (device != hipCpuDeviceId)
            if (hipError_t e = runtime().check_device(device); e != hipSuccess) return record(e);
        if (!runtime().is_mapped(dev_ptr, count)) return record(hipErrorInvalidValue);
        return hipSuccess;
    });
}
hipError_t hipMemPrefetchAsync(const void* dev_ptr, size_t count, int device, hipStream_t stream) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!dev_ptr || count == 0) return record(hipErrorInvalidValue);
        if (hipError_t e = runtime().check_stream(stream); e != hipSuccess) return record(e);
        if (device != hipCpuDeviceId)
            if (hipError_t e = runtime().check_device(device); e != hipSuccess) return record(e);
        if (!runtime().is_mapped(dev_ptr, count)) return record(hipErrorInvalidValue);
        return hipSuccess;
    });
}
hipError_t hipStreamAttachMemAsync(hipStream_t stream, void* dev_ptr, size_t length, unsigned int flags) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (hipError_t e = runtime().check_stream(stream); e != hipSuccess) return record(e);
        if (!dev_ptr || (flags != hipMemAttachGlobal && flags != hipMemAttachHost && flags != hipMemAttachSingle))
            return record(hipErrorInvalidValue);
        if (!runtime().is_mapped(dev_ptr, length ? length : 1)) return record(hipErrorInvalidValue);
        return hipSuccess;
    });
}

// ---- the stream-ordered allocator: the stream is in order and done, so these are hipMalloc and hipFree ----

hipError_t hipMallocAsync(void** dev_ptr, size_t size, hipStream_t stream) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (hipError_t e = runtime().check_stream(stream); e != hipSuccess) return record(e);
        return record(runtime().allocate(dev_ptr, size));
    });
}
hipError_t hipFreeAsync(void* dev_ptr, hipStream_t stream) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (hipError_t e = runtime().check_stream(stream); e != hipSuccess) return record(e);
        return record(runtime().release(dev_ptr));
    });
}

// ---- 3D: pitched allocations, copies and memsets (no arrays) ----

// Rows padded as hipMallocPitch pads them; ysize is the height.
hipError_t hipMalloc3D(hipPitchedPtr* pitchedDevPtr, hipExtent extent) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!pitchedDevPtr) return record(hipErrorInvalidValue);
        if (!runtime().device()) return record(hipErrorNoDevice);
        const std::optional<size_t> row = round_up(extent.width, runtime().device()->properties.texturePitchAlignment);
        const std::optional<size_t> rows = byte_count(extent.height, extent.depth);
        const std::optional<size_t> bytes = row && rows ? byte_count(*row, *rows) : std::nullopt;
        if (!bytes) return record(hipErrorInvalidValue);
        void* ptr = nullptr;
        if (hipError_t e = runtime().allocate(&ptr, *bytes); e != hipSuccess) return record(e);
        *pitchedDevPtr = hipPitchedPtr{ptr, *row, extent.width, extent.height};
        return hipSuccess;
    });
}
hipError_t hipMemset3D(hipPitchedPtr pitchedDevPtr, int value, hipExtent extent) {
    return dppgemm::hipemu::guarded(__func__,
                                    [&]() -> hipError_t { return record(fill_3d(pitchedDevPtr, value, extent)); });
}
hipError_t hipMemset3DAsync(hipPitchedPtr pitchedDevPtr, int value, hipExtent extent, hipStream_t stream) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (hipError_t e = runtime().check_stream(stream); e != hipSuccess) return record(e);
        return record(fill_3d(pitchedDevPtr, value, extent));
    });
}
hipError_t hipMemcpy3D(const struct hipMemcpy3DParms* p) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (hipError_t e = runtime().take_pending_fault(); e != hipSuccess) return record(e);
        return record(copy_3d(p));
    });
}
hipError_t hipMemcpy3DAsync(const struct hipMemcpy3DParms* p, hipStream_t stream) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (hipError_t e = runtime().check_stream(stream); e != hipSuccess) return record(e);
        if (p && dppgemm::hipemu::capture(stream, [q = *p] { return copy_3d(&q); })) return hipSuccess;
        return record(copy_3d(p));
    });
}

}  // extern "C"
