// The hip backend: ROCm's HIP module API on a real AMD GPU.
#include "backend.hpp"

#include <hip/hip_runtime_api.h>

#include <map>
#include <mutex>
#include <utility>

namespace dppgemm::detail {

namespace {

std::string hip_error(const char* call, hipError_t error) {
    const std::string name = hipGetErrorName(error), text = hipGetErrorString(error);
    // ROCm 5.2's libamdhip64 returns the name again as the "string".
    return std::string("hip: ") + call + " failed: " + name + " (" + std::to_string(int(error)) + ")" +
           (text == name ? "" : ": " + text);
}

// One module per (device, code object), loaded on first use.
class ModuleCache {
public:
    hipError_t function(int device, const dppgemm_code_object* co, hipFunction_t* out) {
        std::lock_guard<std::mutex> lock(mutex_);
        auto key = std::make_pair(device, co);
        auto it = functions_.find(key);
        if (it == functions_.end()) {
            hipModule_t module;
            if (hipError_t e = hipModuleLoadData(&module, co->data); e != hipSuccess) return e;
            hipFunction_t f;
            if (hipError_t e = hipModuleGetFunction(&f, module, co->kernel_name); e != hipSuccess) {
                (void)hipModuleUnload(module);
                return e;
            }
            it = functions_.emplace(key, f).first;
        }
        *out = it->second;
        return hipSuccess;
    }

private:
    std::mutex mutex_;
    std::map<std::pair<int, const dppgemm_code_object*>, hipFunction_t> functions_;
};

ModuleCache& module_cache() {
    static ModuleCache cache;
    return cache;
}

// Device buffers freed on every path out.
struct DeviceBuffer {
    void* ptr = nullptr;
    ~DeviceBuffer() {
        if (ptr) (void)hipFree(ptr);
    }
};

// hipGetDeviceCount, asked once per process: the runtime enumerates its
// devices once, at initialisation, so a later call says the same. Without a
// GPU the failing call cost about 170 thousand host instructions (callgrind,
// libamdhip64 of ROCm 5.2), a tenth of a 16^3 SGEMM on the emulator, on every
// call of the automatic backend.
struct DeviceCount {
    hipError_t error = hipSuccess;
    int count = 0;
};
const DeviceCount& device_count() {
    static const DeviceCount probed = [] {
        DeviceCount d;
        d.error = hipGetDeviceCount(&d.count);
        return d;
    }();
    return probed;
}

}  // namespace

Result run_hip(const Problem& p, const Options& options) {
    Result r;
    r.backend = Backend::hip;
    const auto fail = [&r](Status status, std::string message) {
        r.status = status;
        r.message = std::move(message);
        return r;
    };

    const auto [count_error, count] = device_count();
    if (count_error != hipSuccess) return fail(Status::no_device, hip_error("hipGetDeviceCount", count_error));
    if (count == 0) return fail(Status::no_device, "hip: no AMD GPU (hipGetDeviceCount returned 0 devices)");
    int device = 0;
    if (hipError_t e = hipGetDevice(&device); e != hipSuccess)
        return fail(Status::no_device, hip_error("hipGetDevice", e));
    hipDeviceProp_t props;
    if (hipError_t e = hipGetDeviceProperties(&props, device); e != hipSuccess)
        return fail(Status::no_device, hip_error("hipGetDeviceProperties", e));
    r.target = base_arch(props.gcnArchName);
    const dppgemm_code_object* co = choose_code_object(r.target, options, p);
    if (!co) {
        const std::string why = variant_unavailable_reason(options.variant, r.target);
        return fail(
            Status::unsupported,
            "hip: " + (why.empty() ? "no dppgemm kernel for device '" + std::string(props.gcnArchName) + "'" : why));
    }
    r.kernel = co->kernel_name;

    hipFunction_t function;
    if (hipError_t e = module_cache().function(device, co, &function); e != hipSuccess)
        return fail(Status::launch_failure, hip_error("hipModuleLoadData/hipModuleGetFunction", e));

    DeviceBuffer a, b, c;
    const std::size_t a_bytes = p.a_elements() * 4, b_bytes = p.b_elements() * 4, c_bytes = p.c_elements() * 4;
    for (auto [buffer, bytes] : {std::pair{&a, a_bytes}, {&b, b_bytes}, {&c, c_bytes}})
        if (hipError_t e = hipMalloc(&buffer->ptr, bytes ? bytes : 4); e != hipSuccess)
            return fail(Status::launch_failure, hip_error("hipMalloc", e));
    // alpha = 0 or K = 0: A and B may be null (BLAS contract); the kernel reads
    // zeros instead, whose products add +0.
    const bool read_ab = p.reads_a_and_b();
    const std::pair<void*, const void*> uploads[] = {
        {a.ptr, read_ab ? p.a : nullptr}, {b.ptr, read_ab ? p.b : nullptr}, {c.ptr, p.c}};
    const std::size_t upload_bytes[] = {a_bytes, b_bytes, c_bytes};
    for (int i = 0; i < 3; ++i) {
        if (!upload_bytes[i]) continue;
        const hipError_t e =
            uploads[i].second ? hipMemcpy(uploads[i].first, uploads[i].second, upload_bytes[i], hipMemcpyHostToDevice)
                              : hipMemset(uploads[i].first, 0, upload_bytes[i]);
        if (e != hipSuccess)
            return fail(Status::launch_failure, hip_error(uploads[i].second ? "hipMemcpy" : "hipMemset", e));
    }

    dppgemm_sgemm_kernargs args =
        make_kernargs(p, reinterpret_cast<std::uintptr_t>(a.ptr), reinterpret_cast<std::uintptr_t>(b.ptr),
                      reinterpret_cast<std::uintptr_t>(c.ptr));
    std::size_t args_size = sizeof args;
    void* config[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &args, HIP_LAUNCH_PARAM_BUFFER_SIZE, &args_size,
                      HIP_LAUNCH_PARAM_END};
    hipEvent_t start = nullptr, stop = nullptr;
    if (hipError_t e = hipEventCreate(&start); e != hipSuccess)
        return fail(Status::launch_failure, hip_error("hipEventCreate", e));
    if (hipError_t e = hipEventCreate(&stop); e != hipSuccess) {
        (void)hipEventDestroy(start);
        return fail(Status::launch_failure, hip_error("hipEventCreate", e));
    }
    (void)hipEventRecord(start, nullptr);
    const unsigned grid_x = p.tiles_m(macro_tile_of(*co)), grid_y = p.tiles_n(macro_tile_of(*co));
    hipError_t launch =
        hipModuleLaunchKernel(function, grid_x, grid_y, 1, DPPGEMM_SGEMM_BLOCK_SIZE, 1, 1, 0, nullptr, nullptr, config);
    (void)hipEventRecord(stop, nullptr);
    hipError_t done = launch == hipSuccess ? hipEventSynchronize(stop) : launch;
    float ms = 0;
    if (done == hipSuccess) (void)hipEventElapsedTime(&ms, start, stop);
    (void)hipEventDestroy(start);
    (void)hipEventDestroy(stop);
    if (launch != hipSuccess) return fail(Status::launch_failure, hip_error("hipModuleLaunchKernel", launch));
    if (done != hipSuccess) return fail(Status::kernel_fault, hip_error("hipEventSynchronize", done));
    r.milliseconds = ms;
    if (hipError_t e = hipMemcpy(p.c, c.ptr, c_bytes, hipMemcpyDeviceToHost); e != hipSuccess)
        return fail(Status::launch_failure, hip_error("hipMemcpy", e));
    return r;
}

}  // namespace dppgemm::detail
