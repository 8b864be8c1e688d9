// Kernels compiled into the program itself (hipcc, `kernel<<<...>>>` and
// hipLaunchKernelGGL): the entry points clang's generated code calls.
// Each translation unit registers its fat binary (an offload bundle) and its
// kernels' host-side stubs before main; a launch finds the stub's kernel,
// loads the bundle as a module on first use and launches it like
// hipModuleLaunchKernel with kernelParams.
#include <dlfcn.h>
#include <hip/hip_runtime_api.h>

#include <array>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "guard.hpp"
#include "runtime.hpp"

namespace dppgemm::hipemu {

namespace {

// What clang puts in .hipFatBinSegment for each translation unit.
struct FatBinaryWrapper {
    std::int32_t magic;  // "HIPF"
    std::int32_t version;
    const void* bundle;
    const void* unused;
};
constexpr std::int32_t kFatBinaryMagic = 0x48495046;

// "<file> (hipcc fat binary)": the executable or shared library whose device
// code it is (where its wrapper lies), so that a library's missing target is
// not blamed on the program.
std::string device_code_of(const FatBinaryWrapper* fat_binary) {
    Dl_info info{};
    std::string file;
    if (dladdr(fat_binary, &info) && info.dli_fname && *info.dli_fname) file = info.dli_fname;
    std::error_code error;
    if (file.empty()) file = std::filesystem::read_symlink("/proc/self/exe", error).string();
    return (file.empty() ? std::string("the program") : file) + " (hipcc fat binary)";
}

struct RegisteredKernel {
    const FatBinaryWrapper* fat_binary;
    std::string name;
};
using RegisteredVariable = RegisteredKernel;

class ProgramKernels {
public:
    void add(const void* stub, const FatBinaryWrapper* fat_binary, const char* name) {
        std::lock_guard<std::mutex> lock(mutex_);
        kernels_[stub] = {fat_binary, name};
    }

    void add_variable(const void* shadow, const FatBinaryWrapper* fat_binary, const char* name) {
        std::lock_guard<std::mutex> lock(mutex_);
        variables_[shadow] = {fat_binary, name};
    }

    // A `__managed__` variable: its managed block, whose address the device
    // variable `name` (a pointer) gets when the fat binary's module loads.
    void add_managed(const FatBinaryWrapper* fat_binary, const char* name, void* block) {
        std::lock_guard<std::mutex> lock(mutex_);
        managed_.push_back({fat_binary, name, block});
    }

    hipError_t function(const void* stub, hipFunction_t* out) {
        std::lock_guard<std::mutex> lock(mutex_);
        auto kernel = kernels_.find(stub);
        if (kernel == kernels_.end()) return hipErrorInvalidDeviceFunction;
        hipModule_t module = nullptr;
        if (hipError_t e = module_of(kernel->second.fat_binary, &module); e != hipSuccess) return e;
        return Runtime::instance().get_function(out, module, kernel->second.name.c_str());
    }

    hipError_t variable(const void* shadow, void** address, std::size_t* bytes) {
        std::lock_guard<std::mutex> lock(mutex_);
        auto variable = variables_.find(shadow);
        if (variable == variables_.end()) return hipErrorInvalidSymbol;
        hipModule_t module = nullptr;
        if (hipError_t e = module_of(variable->second.fat_binary, &module); e != hipSuccess) return e;
        hipDeviceptr_t device = nullptr;
        const hipError_t e = Runtime::instance().get_global(&device, bytes, module, variable->second.name.c_str());
        if (address) *address = device;
        return e == hipErrorNotFound ? hipErrorInvalidSymbol : e;
    }

private:
    std::mutex mutex_;
    std::map<const void*, RegisteredKernel> kernels_;
    std::map<const void*, RegisteredVariable> variables_;
    std::map<const FatBinaryWrapper*, hipModule_t> modules_;  // loaded on first use
    struct ManagedVariable {
        const FatBinaryWrapper* fat_binary;
        std::string name;
        void* block;
    };
    std::vector<ManagedVariable> managed_;

    // The fat binary's module, loaded on first use (its variables' memory
    // lives as long as the module: the process, or until hipDeviceReset).
    hipError_t module_of(const FatBinaryWrapper* fat_binary, hipModule_t* out) {
        hipModule_t& module = modules_[fat_binary];
        if (module && !Runtime::instance().has_module(module)) module = nullptr;  // hipDeviceReset unloaded it
        if (!module) {
            if (hipError_t e =
                    Runtime::instance().load_module_image(&module, fat_binary->bundle, device_code_of(fat_binary));
                e != hipSuccess) {
                module = nullptr;
                return e;
            }
            if (hipError_t e = point_managed_variables(fat_binary, module); e != hipSuccess) return e;
        }
        *out = module;
        return hipSuccess;
    }

    // Clang compiles a `__managed__ T x` into a device pointer `x` that the
    // runtime points at the managed copy (ROCm's __hipRegisterManagedVar).
    hipError_t point_managed_variables(const FatBinaryWrapper* fat_binary, hipModule_t module) {
        for (const ManagedVariable& m : managed_) {
            if (m.fat_binary != fat_binary) continue;
            hipDeviceptr_t device = nullptr;
            std::size_t bytes = 0;
            if (hipError_t e = Runtime::instance().get_global(&device, &bytes, module, m.name.c_str());
                e != hipSuccess) {
                std::fprintf(stderr, "hipemu: __managed__ variable '%s' is not in the program's code object\n",
                             m.name.c_str());
                return e;
            }
            if (bytes != sizeof(void*)) {
                std::fprintf(stderr, "hipemu: __managed__ variable '%s' is %zu bytes on the device, not a pointer\n",
                             m.name.c_str(), bytes);
                return hipErrorInvalidSymbol;
            }
            if (hipError_t e = Runtime::instance().copy(device, &m.block, sizeof(void*), hipMemcpyHostToDevice);
                e != hipSuccess)
                return e;
        }
        return hipSuccess;
    }
};

ProgramKernels& program_kernels() {
    static ProgramKernels* kernels = new ProgramKernels;  // used from static constructors and destructors
    return *kernels;
}

struct CallConfiguration {
    dim3 grid, block;
    size_t shared_bytes;
    hipStream_t stream;
};
thread_local std::vector<CallConfiguration> call_configurations;

}  // namespace

hipError_t function_of_stub(const void* stub, hipFunction_t* out) { return program_kernels().function(stub, out); }
hipError_t variable_of_shadow(const void* shadow, void** address, std::size_t* bytes) {
    return program_kernels().variable(shadow, address, bytes);
}

}  // namespace dppgemm::hipemu

using dppgemm::hipemu::call_configurations;
using dppgemm::hipemu::program_kernels;

extern "C" {

void** __hipRegisterFatBinary(const void* data) {
    return dppgemm::hipemu::guarded_value(__func__, static_cast<void**>(nullptr), [&]() -> void** {
        const auto* wrapper = static_cast<const dppgemm::hipemu::FatBinaryWrapper*>(data);
        if (!wrapper || wrapper->magic != dppgemm::hipemu::kFatBinaryMagic)
            std::fprintf(stderr, "hipemu: __hipRegisterFatBinary: not a HIP fat binary wrapper\n");
        return const_cast<void**>(reinterpret_cast<void* const*>(wrapper));
    });
}

void __hipRegisterFunction(void** handle, const void* stub, char* device_function, const char* device_name,
                           unsigned int thread_limit, void* tid, void* bid, dim3* block, dim3* grid, int* warp_size) {
    dppgemm::hipemu::guarded_void(__func__, [&] {
        (void)device_function, (void)thread_limit, (void)tid, (void)bid, (void)block, (void)grid, (void)warp_size;
        program_kernels().add(stub, reinterpret_cast<const dppgemm::hipemu::FatBinaryWrapper*>(handle), device_name);
    });
}

void __hipRegisterVar(void** handle, void* shadow, char* host_name, char* device_name, int external, size_t size,
                      int constant, int global) {
    dppgemm::hipemu::guarded_void(__func__, [&] {
        (void)host_name, (void)external, (void)size, (void)constant, (void)global;  // the code object knows them
        program_kernels().add_variable(shadow, reinterpret_cast<const dppgemm::hipemu::FatBinaryWrapper*>(handle),
                                       device_name);
    });
}

void __hipUnregisterFatBinary(void** handle) { (void)handle; }  // modules live as long as the process

// pointer: the host's shadow (where host code finds the managed block);
// init_value: the variable's initializer, size bytes.
void __hipRegisterManagedVar(void* handle, void** pointer, void* init_value, const char* name, size_t size,
                             unsigned align) {
    dppgemm::hipemu::guarded_void(__func__, [&] {
        if (!pointer || !name || size == 0 || align > 4096) {
            std::fprintf(stderr, "hipemu: __hipRegisterManagedVar: bad registration of '%s'\n", name ? name : "");
            return;
        }
        void* block = nullptr;
        if (hipMallocManaged(&block, size, hipMemAttachGlobal) != hipSuccess) {
            std::fprintf(stderr, "hipemu: __hipRegisterManagedVar: no managed memory for '%s' (%zu bytes)\n", name,
                         size);
            return;
        }
        if (init_value) std::memcpy(block, init_value, size);
        *pointer = block;
        program_kernels().add_managed(reinterpret_cast<const dppgemm::hipemu::FatBinaryWrapper*>(handle), name, block);
    });
}

hipError_t __hipPushCallConfiguration(dim3 grid, dim3 block, size_t shared_bytes, hipStream_t stream) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        call_configurations.push_back({grid, block, shared_bytes, stream});
        return hipSuccess;
    });
}

hipError_t __hipPopCallConfiguration(dim3* grid, dim3* block, size_t* shared_bytes, hipStream_t* stream) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (call_configurations.empty()) return dppgemm::hipemu::record(hipErrorMissingConfiguration);
        const dppgemm::hipemu::CallConfiguration c = call_configurations.back();
        call_configurations.pop_back();
        *grid = c.grid;
        *block = c.block;
        *shared_bytes = c.shared_bytes;
        *stream = c.stream;
        return hipSuccess;
    });
}

hipError_t hipLaunchKernel(const void* stub, dim3 grid, dim3 block, void** args, size_t shared_bytes,
                           hipStream_t stream) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        hipFunction_t function = nullptr;
        if (hipError_t e = program_kernels().function(stub, &function); e != hipSuccess)
            return dppgemm::hipemu::record(e);
        if (shared_bytes > 0xffffffffu) return dppgemm::hipemu::record(hipErrorInvalidValue);
        return dppgemm::hipemu::record(dppgemm::hipemu::Runtime::instance().launch({function,
                                                                                    {grid.x, grid.y, grid.z},
                                                                                    {block.x, block.y, block.z},
                                                                                    unsigned(shared_bytes),
                                                                                    stream,
                                                                                    args,
                                                                                    nullptr}));
    });
}

// hipExtLaunchKernelGGL: a launch between two optional events, recorded on
// the stream before and after it. flags (ROCm: hipExtAnyOrderLaunch) change
// nothing here, where work runs in order when enqueued.
hipError_t hipExtLaunchKernel(const void* function_address, dim3 numBlocks, dim3 dimBlocks, void** args,
                              size_t sharedMemBytes, hipStream_t stream, hipEvent_t startEvent, hipEvent_t stopEvent,
                              int flags) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        (void)flags;
        dppgemm::hipemu::Runtime& runtime = dppgemm::hipemu::Runtime::instance();
        if (startEvent)
            if (hipError_t e = runtime.record_event(startEvent, stream); e != hipSuccess)
                return dppgemm::hipemu::record(e);
        if (hipError_t e = hipLaunchKernel(function_address, numBlocks, dimBlocks, args, sharedMemBytes, stream);
            e != hipSuccess)
            return e;
        if (stopEvent) return dppgemm::hipemu::record(runtime.record_event(stopEvent, stream));
        return hipSuccess;
    });
}

}  // extern "C"

namespace {

// hipExtModuleLaunchKernel's sizes are work-items, not workgroups: the grid
// must be whole workgroups here (the emulator has no partial workgroups).
hipError_t launch_work_items(hipFunction_t f, uint32_t globalWorkSizeX, uint32_t globalWorkSizeY,
                             uint32_t globalWorkSizeZ, uint32_t localWorkSizeX, uint32_t localWorkSizeY,
                             uint32_t localWorkSizeZ, size_t sharedMemBytes, hipStream_t hStream, void** kernelParams,
                             void** extra, hipEvent_t startEvent, hipEvent_t stopEvent, const char* entry) {
    const uint32_t global[3] = {globalWorkSizeX, globalWorkSizeY, globalWorkSizeZ};
    const uint32_t local[3] = {localWorkSizeX, localWorkSizeY, localWorkSizeZ};
    std::array<unsigned, 3> grid{};
    for (int d = 0; d < 3; ++d) {
        if (local[d] == 0 || global[d] == 0) return dppgemm::hipemu::record(hipErrorInvalidValue);
        if (global[d] % local[d] != 0) {
            std::fprintf(stderr,
                         "hipemu: %s: global work size %u is not a multiple of the local size %u in dimension %d "
                         "(partial workgroups are not provided)\n",
                         entry, global[d], local[d], d);
            return dppgemm::hipemu::record(hipErrorNotSupported);
        }
        grid[size_t(d)] = global[d] / local[d];
    }
    if (sharedMemBytes > 0xffffffffu) return dppgemm::hipemu::record(hipErrorInvalidValue);
    dppgemm::hipemu::Runtime& runtime = dppgemm::hipemu::Runtime::instance();
    if (startEvent)
        if (hipError_t e = runtime.record_event(startEvent, hStream); e != hipSuccess)
            return dppgemm::hipemu::record(e);
    if (hipError_t e = runtime.launch(
            {f, grid, {local[0], local[1], local[2]}, unsigned(sharedMemBytes), hStream, kernelParams, extra});
        e != hipSuccess)
        return dppgemm::hipemu::record(e);
    if (stopEvent) return dppgemm::hipemu::record(runtime.record_event(stopEvent, hStream));
    return hipSuccess;
}

}  // namespace

// C++ linkage, as ROCm 5.2 exports them (hip_ext.h).
hipError_t hipExtModuleLaunchKernel(hipFunction_t f, uint32_t globalWorkSizeX, uint32_t globalWorkSizeY,
                                    uint32_t globalWorkSizeZ, uint32_t localWorkSizeX, uint32_t localWorkSizeY,
                                    uint32_t localWorkSizeZ, size_t sharedMemBytes, hipStream_t hStream,
                                    void** kernelParams, void** extra, hipEvent_t startEvent, hipEvent_t stopEvent,
                                    uint32_t flags) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        (void)flags;
        return launch_work_items(f, globalWorkSizeX, globalWorkSizeY, globalWorkSizeZ, localWorkSizeX, localWorkSizeY,
                                 localWorkSizeZ, sharedMemBytes, hStream, kernelParams, extra, startEvent, stopEvent,
                                 "hipExtModuleLaunchKernel");
    });
}
hipError_t hipHccModuleLaunchKernel(hipFunction_t f, uint32_t globalWorkSizeX, uint32_t globalWorkSizeY,
                                    uint32_t globalWorkSizeZ, uint32_t localWorkSizeX, uint32_t localWorkSizeY,
                                    uint32_t localWorkSizeZ, size_t sharedMemBytes, hipStream_t hStream,
                                    void** kernelParams, void** extra, hipEvent_t startEvent, hipEvent_t stopEvent) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        return launch_work_items(f, globalWorkSizeX, globalWorkSizeY, globalWorkSizeZ, localWorkSizeX, localWorkSizeY,
                                 localWorkSizeZ, sharedMemBytes, hStream, kernelParams, extra, startEvent, stopEvent,
                                 "hipHccModuleLaunchKernel");
    });
}
