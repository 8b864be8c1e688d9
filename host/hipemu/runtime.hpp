// The state behind libdppgemm-hipemu's HIP entry points: one emulated device,
// its memory, loaded modules, streams and events.
//
// Execution model: work runs on the calling thread when it is enqueued, so
// every stream is trivially in order and nothing is ever pending. Errors a
// real GPU reports later (a kernel's memory fault) are kept and returned by
// the next synchronizing call (hipDeviceSynchronize, hipStreamSynchronize,
// hipEventSynchronize, a synchronous hipMemcpy*), as the HIP documentation
// allows for asynchronous errors; the launch itself returns hipSuccess.
#pragma once

#include <hip/hip_runtime_api.h>

#include <array>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "device.hpp"
#include "emu/check/checker.hpp"
#include "emu/exec/dispatch.hpp"
#include "emu/loader/code_object.hpp"

// The opaque handle types hip_runtime_api.h declares.
struct ihipModule_t;
struct ihipModuleSymbol_t {
    std::string name;
    dppgemm::emu::Program program;
    ihipModule_t* module = nullptr;
    // The checkers of `program` (their per-program analysis made once),
    // built on the first checked launch and cleared before each.
    std::unique_ptr<dppgemm::emu::check::Checker> checker;
};
struct ihipModule_t {
    dppgemm::emu::CodeObject object;
    // The image with relocations applied, mapped once at load for the module's
    // lifetime: its __device__ variables keep their values between launches.
    std::uint64_t image_address = 0;
    std::map<std::string, std::unique_ptr<ihipModuleSymbol_t>> functions;  // built on first request
};
struct ihipStream_t {
    unsigned flags = 0;
    int priority = 0;  // hipStreamCreateWithPriority's, clamped to [stream_priority_high, stream_priority_low]
};
struct ihipEvent_t {
    unsigned flags = 0;
    std::optional<std::chrono::steady_clock::time_point> recorded;  // when the work before it completed
};

namespace dppgemm::hipemu {

struct LaunchRequest {
    hipFunction_t function;
    std::array<unsigned, 3> grid, block;  // grid in workgroups, as hipModuleLaunchKernel
    unsigned shared_bytes;
    hipStream_t stream;
    void** kernel_params;
    void** extra;
};

// Remembers a failure for hipGetLastError and returns it (api.cpp).
hipError_t record(hipError_t error);

// Work a graph runs when it is launched (graphs.cpp).
using Work = std::function<hipError_t()>;
// While `stream` is being captured into a graph: keeps `work` as the
// capture's next node and returns true; otherwise false (run the work now).
bool capture(hipStream_t stream, Work work);
// Whether `stream` is being captured now.
bool is_capturing(hipStream_t stream);

// count elements of element_bytes each, in bytes; nullopt when the product
// does not fit in size_t. Every size computed from a caller's counts (fills,
// 2D copies, pitches) goes through this, never through a bare multiply.
inline std::optional<std::size_t> byte_count(std::size_t count, std::size_t element_bytes) {
    std::size_t bytes = 0;
    if (__builtin_mul_overflow(count, element_bytes, &bytes)) return std::nullopt;
    return bytes;
}

// Live objects behind opaque handles: a handle is valid while it is in here.
template <class T>
class Handles {
public:
    T* add(std::unique_ptr<T> object) {
        T* handle = object.get();
        objects_.emplace(handle, std::move(object));
        return handle;
    }
    // Streams and events: a new object with these flags.
    T* create(unsigned flags) {
        auto object = std::make_unique<T>();
        object->flags = flags;
        return add(std::move(object));
    }
    T* find(const T* handle) const {
        auto it = objects_.find(const_cast<T*>(handle));
        return it == objects_.end() ? nullptr : it->second.get();
    }
    bool remove(const T* handle) { return objects_.erase(const_cast<T*>(handle)) == 1; }
    void clear() { objects_.clear(); }
    const std::map<T*, std::unique_ptr<T>>& all() const { return objects_; }

private:
    std::map<T*, std::unique_ptr<T>> objects_;
};

class Runtime {
public:
    static Runtime& instance();

    // The emulated device, or nullptr when DPPGEMM_HIPEMU_ARCH names none (said once on stderr).
    const EmulatedDevice* device() const { return device_ ? &*device_ : nullptr; }
    hipError_t check_device(int ordinal) const;

    hipError_t allocate(void** out, std::size_t size);
    hipError_t release(void* pointer);
    hipError_t copy(void* dst, const void* src, std::size_t bytes, hipMemcpyKind kind);
    // Repeats the pattern (1 or 4 bytes) count times from dst, which must be device memory.
    hipError_t fill(void* dst, std::uint32_t pattern, std::size_t pattern_bytes, std::size_t count);
    std::size_t bytes_allocated() const;

    hipError_t check_stream(hipStream_t stream) const;
    hipError_t create_stream(hipStream_t* out, unsigned flags, int priority = 0);
    // A stream's flags and priority (the null stream's: default, 0).
    hipError_t stream_flags(hipStream_t stream, unsigned* flags, int* priority) const;
    // Stream priorities as ROCm 5.2 numbers them: lower is greater.
    static constexpr int stream_priority_high = -1, stream_priority_low = 1;
    hipError_t destroy_stream(hipStream_t stream);

    hipError_t check_event(hipEvent_t event) const;
    hipError_t create_event(hipEvent_t* out, unsigned flags);
    hipError_t destroy_event(hipEvent_t event);
    hipError_t record_event(hipEvent_t event, hipStream_t stream);
    hipError_t elapsed_milliseconds(float* out, hipEvent_t start, hipEvent_t stop) const;

    // hipDeviceReset: frees every allocation, module, stream and event; returns a pending fault.
    hipError_t reset();

    // The fault of an earlier launch, once; hipSuccess when there is none.
    hipError_t take_pending_fault();
    // The same without taking it (a stream callback's status).
    hipError_t peek_pending_fault() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return pending_fault_;
    }

    hipError_t load_module(hipModule_t* out, const void* image, std::size_t size, const std::string& source);
    // An image in memory without its size (hipModuleLoadData): an ELF code object or an offload bundle.
    // source names the image in messages.
    hipError_t load_module_image(hipModule_t* out, const void* image,
                                 const std::string& source = "hipModuleLoadData image");
    hipError_t load_module_file(hipModule_t* out, const char* path);
    hipError_t unload_module(hipModule_t module);
    bool has_module(hipModule_t module) const {
        std::lock_guard<std::mutex> lock(mutex_);
        return modules_.find(module) != nullptr;
    }
    hipError_t get_function(hipFunction_t* out, hipModule_t module, const char* name);
    // hipModuleGetGlobal: a variable's device address and size in the module's image.
    hipError_t get_global(hipDeviceptr_t* address, std::size_t* bytes, hipModule_t module, const char* name);
    // cooperative: hipLaunchCooperativeKernel's launch (emu::LaunchConfig::cooperative).
    hipError_t launch(const LaunchRequest& request, bool cooperative = false);
    // The launch as work to run later (a graph node): its arguments copied now.
    hipError_t deferred_launch(const LaunchRequest& request, Work* out);
    // The module a function belongs to; nullptr for an unknown handle.
    const ihipModule_t* module_of(hipFunction_t f) const;

    // Host memory kernels may access at its own address (hipHostMalloc,
    // hipHostRegister, hipMallocManaged): mapped into the device address space.
    hipError_t map_host(void* host, std::size_t size, const char* what);
    hipError_t unmap_host(void* host);
    // Whether [pointer, pointer + bytes) is device or mapped host memory.
    bool is_mapped(const void* pointer, std::size_t bytes = 1) const;
    // The hipMalloc'd allocation (device = true) or mapped host block holding
    // pointer: its first byte and size; false when pointer is in neither.
    struct Range {
        void* base = nullptr;
        std::size_t size = 0;
        bool device = false;
    };
    bool range_of(const void* pointer, Range* out) const;

private:
    Runtime();
    bool is_function(hipFunction_t f) const;
    // The host bytes of a device range; nullptr when not entirely inside one allocation.
    std::uint8_t* device_bytes(const void* pointer, std::size_t bytes) const;
    template <class T>
    hipError_t destroy(Handles<T>& handles, const T* handle) {
        std::lock_guard<std::mutex> lock(mutex_);
        return handle && handles.remove(handle) ? hipSuccess : hipErrorInvalidHandle;
    }
    hipError_t kernel_arguments(const LaunchRequest& request, std::vector<std::uint8_t>& out) const;

    mutable std::mutex mutex_;
    std::optional<EmulatedDevice> device_;
    unsigned emulator_threads_ = 0;
    // DPPGEMM_EMU_SCHEDULE; random: launch n runs with seed + n, so that the
    // printed seed replays the program's whole sequence of launches.
    emu::Schedule schedule_;
    std::uint64_t launches_ = 0;
    emu::DeviceMemory memory_;
    std::map<std::uint64_t, std::size_t> allocation_sizes_;  // hipMalloc'd addresses
    std::map<std::uint64_t, std::size_t> host_mappings_;     // map_host'd addresses
    std::size_t bytes_allocated_ = 0;
    Handles<ihipModule_t> modules_;
    Handles<ihipStream_t> streams_;
    Handles<ihipEvent_t> events_;
    hipError_t pending_fault_ = hipSuccess;
};

// The kernel behind a host-side stub registered by __hipRegisterFunction
// (kernels_in_program.cpp): its module is loaded on first use.
hipError_t function_of_stub(const void* stub, hipFunction_t* out);
// A `__device__` variable registered by __hipRegisterVar, by the address of
// its host-side shadow: device address and size (hipErrorInvalidSymbol when unknown).
// hipFree of hipMallocManaged memory (memory.cpp): true when it was.
bool free_managed(void* pointer);
// Whether pointer is the start of a hipMallocManaged block (memory.cpp).
bool is_managed(const void* pointer);
// The flags a hipHostMalloc'd block was allocated with; false when pointer is not one (api.cpp).
bool host_block_flags(const void* pointer, unsigned* flags);
hipError_t variable_of_shadow(const void* shadow, void** address, std::size_t* bytes);

}  // namespace dppgemm::hipemu
