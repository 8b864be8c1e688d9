#include "runtime.hpp"

#include "checks.hpp"
#include "emu/check/checker.hpp"
#include "emu/loader/offload_bundle.hpp"
#include "emu/loader/read_file.hpp"
#include "hostcall.hpp"
#include "image.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <utility>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace dppgemm::hipemu {

namespace {

const char* kArchVariable = "DPPGEMM_HIPEMU_ARCH";
const char* kThreadsVariable = "DPPGEMM_HIPEMU_THREADS";
const char* kScheduleVariable = "DPPGEMM_EMU_SCHEDULE";

std::uint64_t address_of(const void* pointer) { return reinterpret_cast<std::uintptr_t>(pointer); }

// More emulator threads than this is a typo, not a machine.
constexpr unsigned kMaxThreads = 1024;

// 0 (the default) lets the emulator use every core.
unsigned threads_from_environment() {
    const char* text = std::getenv(kThreadsVariable);
    if (!text) return 0;
    const std::string value = text;
    if (!value.empty() && value.size() <= 4 && value.find_first_not_of("0123456789") == std::string::npos &&
        std::stoul(value) <= kMaxThreads)
        return unsigned(std::stoul(value));
    say(std::string("ignoring ") + kThreadsVariable + "='" + value + "' (expected 0..1024; 0: every core)");
    return 0;
}

emu::Schedule schedule_from_environment() {
    const char* text = std::getenv(kScheduleVariable);
    if (!text || !*text) return {};
    try {
        emu::Schedule schedule = emu::Schedule::parse(text);
        if (schedule.kind == emu::Schedule::Kind::random)
            say("random schedule, seed " + std::to_string(schedule.seed) + " (replay: " + kScheduleVariable + "=" +
                schedule.name() + ")");
        return schedule;
    } catch (const std::invalid_argument& e) {
        say(std::string("ignoring ") + kScheduleVariable + ": " + e.what());
        return {};
    }
}

bool uses_hostcall(const emu::Program& program) {
    for (const emu::KernelArgument& arg : program.metadata.args)
        if (arg.value_kind == emu::ValueKind::hidden_hostcall_buffer) return true;
    return false;
}

// Device printf and the other host calls; one buffer for the process.
HostcallService& hostcalls() {
    static HostcallService* service = new HostcallService;
    return *service;
}

std::vector<const emu::KernelArgument*> explicit_arguments(const emu::Program& program) {
    std::vector<const emu::KernelArgument*> out;
    for (const emu::KernelArgument& arg : program.metadata.args)
        if (!emu::is_hidden(arg.value_kind)) out.push_back(&arg);
    return out;
}

// The emulated targets the running executable's own fat binary (its
// .hip_fatbin section) has code objects for, in bundle order. The file is
// mapped, not read: only the ELF headers and the bundle table are touched.
std::vector<emu::Target> program_targets() {
    std::vector<emu::Target> targets;
    const int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return targets;
    struct stat st;
    void* map = fstat(fd, &st) == 0 && st.st_size > 0
                    ? mmap(nullptr, std::size_t(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0)
                    : MAP_FAILED;
    close(fd);
    if (map == MAP_FAILED) return targets;
    const auto* bytes = static_cast<const std::uint8_t*>(map);
    const auto section = emu::hip_fatbin_section(bytes, std::size_t(st.st_size));
    const auto entries = section ? emu::offload_bundle_entries(bytes + section->first, section->second) : std::nullopt;
    for (const emu::BundleEntry& entry : entries ? *entries : std::vector<emu::BundleEntry>{})
        if (const auto target = emu::target_from_name(entry.processor()))
            if (std::find(targets.begin(), targets.end(), *target) == targets.end()) targets.push_back(*target);
    munmap(map, std::size_t(st.st_size));
    return targets;
}

// The device played when DPPGEMM_HIPEMU_ARCH is unset: the default target,
// unless the program was built without code for it but with code for another
// emulated target (plain `hipcc`, no --offload-arch, builds for gfx803 only):
// then the first of those, so that the program runs as it was built.
std::string unnamed_device() {
    const std::vector<emu::Target> built = program_targets();
    if (built.empty() || std::find(built.begin(), built.end(), emu::default_target) != built.end())
        return emu::target_name(emu::default_target);
    return emu::target_name(built.front());
}

}  // namespace

Runtime& Runtime::instance() {
    // Never destroyed: programs free device memory from their own static
    // destructors, which may run after ours would have.
    static Runtime* runtime = new Runtime;
    return *runtime;
}

Runtime::Runtime() : emulator_threads_(threads_from_environment()), schedule_(schedule_from_environment()) {
    const char* arch = std::getenv(kArchVariable);
    const std::string wanted = arch && *arch ? arch : unnamed_device();
    device_ = emulated_device(wanted);
    if (!device_)
        say(std::string(kArchVariable) + "='" + wanted + "' is not an emulated target (" + emu::target_names() +
            "): no device");
}

hipError_t Runtime::check_device(int ordinal) const {
    if (!device_) return hipErrorNoDevice;
    return ordinal == 0 ? hipSuccess : hipErrorInvalidDevice;
}

// ---- memory ----

std::uint8_t* Runtime::device_bytes(const void* pointer, std::size_t bytes) const {
    return memory_.translate(address_of(pointer), bytes);
}

std::size_t Runtime::bytes_allocated() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return bytes_allocated_;
}

hipError_t Runtime::allocate(void** out, std::size_t size) {
    if (!device_) return hipErrorNoDevice;
    if (!out) return hipErrorInvalidValue;
    *out = nullptr;
    if (size == 0) return hipSuccess;
    std::lock_guard<std::mutex> lock(mutex_);
    if (size > device_->properties.totalGlobalMem - bytes_allocated_) return hipErrorOutOfMemory;
    try {
        const std::uint64_t address = memory_.allocate(size, "hipMalloc");
        allocation_sizes_[address] = size;
        bytes_allocated_ += size;
        *out = reinterpret_cast<void*>(address);
    } catch (const std::bad_alloc&) {
        return hipErrorOutOfMemory;
    } catch (const emu::MemoryFault&) {  // the host could not provide the bytes
        return hipErrorOutOfMemory;
    }
    return hipSuccess;
}

hipError_t Runtime::release(void* pointer) {
    if (!pointer) return hipSuccess;
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = allocation_sizes_.find(address_of(pointer));
    if (it == allocation_sizes_.end()) return hipErrorInvalidValue;
    memory_.release(it->first);
    bytes_allocated_ -= it->second;
    allocation_sizes_.erase(it);
    return hipSuccess;
}

hipError_t Runtime::map_host(void* host, std::size_t size, const char* what) {
    if (!host || size == 0) return hipErrorInvalidValue;
    std::lock_guard<std::mutex> lock(mutex_);
    try {
        memory_.map_host(host, size, what);
    } catch (const emu::MemoryFault&) {
        return hipErrorHostMemoryAlreadyRegistered;
    }
    host_mappings_[address_of(host)] = size;
    return hipSuccess;
}

hipError_t Runtime::unmap_host(void* host) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = host_mappings_.find(address_of(host));
    if (it == host_mappings_.end()) return hipErrorHostMemoryNotRegistered;
    memory_.release(it->first);
    host_mappings_.erase(it);
    return hipSuccess;
}

bool Runtime::is_mapped(const void* pointer, std::size_t bytes) const {
    std::lock_guard<std::mutex> lock(mutex_);
    return memory_.find(address_of(pointer), bytes) != nullptr;
}

bool Runtime::range_of(const void* pointer, Range* out) const {
    const std::uint64_t address = address_of(pointer);
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto* table : {&allocation_sizes_, &host_mappings_}) {
        auto it = table->upper_bound(address);
        if (it == table->begin()) continue;
        --it;
        if (address - it->first < it->second) {
            *out = Range{reinterpret_cast<void*>(it->first), it->second, table == &allocation_sizes_};
            return true;
        }
    }
    return false;
}

hipError_t Runtime::copy(void* dst, const void* src, std::size_t bytes, hipMemcpyKind kind) {
    if (kind < hipMemcpyHostToHost || kind > hipMemcpyDefault) return hipErrorInvalidMemcpyDirection;
    if (bytes == 0) return hipSuccess;
    if (!dst || !src) return hipErrorInvalidValue;
    std::lock_guard<std::mutex> lock(mutex_);
    // A side is device memory when its address says so, whatever the kind
    // claims (as ROCm does); a side the kind calls device memory must be, and
    // no address of the emulated range is ever dereferenced on the host.
    const bool dst_device_kind = kind == hipMemcpyHostToDevice || kind == hipMemcpyDeviceToDevice;
    const bool src_device_kind = kind == hipMemcpyDeviceToHost || kind == hipMemcpyDeviceToDevice;
    const auto side = [&](const void* pointer, bool device_kind) -> std::uint8_t* {
        if (device_kind || address_of(pointer) >= emu::DeviceMemory::first_address) return device_bytes(pointer, bytes);
        return static_cast<std::uint8_t*>(const_cast<void*>(pointer));
    };
    std::uint8_t* to = side(dst, dst_device_kind);
    const std::uint8_t* from = side(src, src_device_kind);
    if (!to || !from) return hipErrorInvalidValue;
    std::memmove(to, from, bytes);
    return hipSuccess;
}

hipError_t Runtime::fill(void* dst, std::uint32_t pattern, std::size_t pattern_bytes, std::size_t count) {
    if (count == 0) return hipSuccess;
    // count * pattern_bytes must not wrap: 2^62 four-byte words would be 0 bytes.
    const std::optional<std::size_t> bytes = byte_count(count, pattern_bytes);
    if (!bytes) return hipErrorInvalidValue;
    std::lock_guard<std::mutex> lock(mutex_);
    std::uint8_t* to = dst ? device_bytes(dst, *bytes) : nullptr;
    if (!to) return hipErrorInvalidValue;
    for (std::size_t i = 0; i < count; ++i) std::memcpy(to + i * pattern_bytes, &pattern, pattern_bytes);
    return hipSuccess;
}

// ---- streams and events ----

hipError_t Runtime::check_stream(hipStream_t stream) const {
    std::lock_guard<std::mutex> lock(mutex_);
    return stream == nullptr || stream == hipStreamPerThread || streams_.find(stream) ? hipSuccess
                                                                                      : hipErrorInvalidHandle;
}

hipError_t Runtime::create_stream(hipStream_t* out, unsigned flags, int priority) {
    if (!out || (flags != hipStreamDefault && flags != hipStreamNonBlocking)) return hipErrorInvalidValue;
    std::lock_guard<std::mutex> lock(mutex_);
    *out = streams_.create(flags);
    (*out)->priority = std::clamp(priority, stream_priority_high, stream_priority_low);
    return hipSuccess;
}

hipError_t Runtime::stream_flags(hipStream_t stream, unsigned* flags, int* priority) const {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stream == nullptr || stream == hipStreamPerThread) {
        if (flags) *flags = hipStreamDefault;
        if (priority) *priority = 0;
        return hipSuccess;
    }
    const ihipStream_t* s = streams_.find(stream);
    if (!s) return hipErrorInvalidHandle;
    if (flags) *flags = s->flags;
    if (priority) *priority = s->priority;
    return hipSuccess;
}

hipError_t Runtime::destroy_stream(hipStream_t stream) { return destroy(streams_, stream); }

hipError_t Runtime::check_event(hipEvent_t event) const {
    std::lock_guard<std::mutex> lock(mutex_);
    return event && events_.find(event) ? hipSuccess : hipErrorInvalidHandle;
}

hipError_t Runtime::create_event(hipEvent_t* out, unsigned flags) {
    constexpr unsigned known = hipEventBlockingSync | hipEventDisableTiming | hipEventInterprocess |
                               hipEventReleaseToDevice | hipEventReleaseToSystem;
    if (!out || (flags & ~known)) return hipErrorInvalidValue;
    std::lock_guard<std::mutex> lock(mutex_);
    *out = events_.create(flags);
    return hipSuccess;
}

hipError_t Runtime::destroy_event(hipEvent_t event) { return destroy(events_, event); }

hipError_t Runtime::record_event(hipEvent_t event, hipStream_t stream) {
    if (hipError_t e = check_stream(stream); e != hipSuccess) return e;
    std::lock_guard<std::mutex> lock(mutex_);
    ihipEvent_t* live = event ? events_.find(event) : nullptr;
    if (!live) return hipErrorInvalidHandle;
    live->recorded = std::chrono::steady_clock::now();
    return hipSuccess;
}

hipError_t Runtime::elapsed_milliseconds(float* out, hipEvent_t start, hipEvent_t stop) const {
    if (!out) return hipErrorInvalidValue;
    std::lock_guard<std::mutex> lock(mutex_);
    const ihipEvent_t* first = start ? events_.find(start) : nullptr;
    const ihipEvent_t* second = stop ? events_.find(stop) : nullptr;
    if (!first || !second || !first->recorded || !second->recorded) return hipErrorInvalidHandle;
    if ((first->flags | second->flags) & hipEventDisableTiming) return hipErrorInvalidHandle;
    *out = std::chrono::duration<float, std::milli>(*second->recorded - *first->recorded).count();
    return hipSuccess;
}

hipError_t Runtime::take_pending_fault() {
    std::lock_guard<std::mutex> lock(mutex_);
    return std::exchange(pending_fault_, hipSuccess);
}

hipError_t Runtime::reset() {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [address, size] : allocation_sizes_) memory_.release(address);
    allocation_sizes_.clear();
    bytes_allocated_ = 0;
    for (const auto& [handle, module] : modules_.all())
        if (module->image_address) memory_.release(module->image_address);
    modules_.clear();
    streams_.clear();
    events_.clear();
    return std::exchange(pending_fault_, hipSuccess);
}

// ---- modules and launches ----

hipError_t Runtime::load_module(hipModule_t* out, const void* image, std::size_t size, const std::string& source) {
    if (!device_) return hipErrorNoDevice;
    if (!out || !image) return hipErrorInvalidValue;
    if (size == 0) {
        say(source + ": empty, not a code object");
        return hipErrorInvalidImage;
    }
    const ExtractedCodeObject extracted = extract_code_object(image, size, emu::target_name(device_->target));
    if (!extracted.data) {
        say(source + ": " + extracted.why);
        return extracted.error;
    }
    auto module = std::make_unique<ihipModule_t>();
    try {
        module->object = emu::load_code_object(extracted.data, extracted.size, source);
    } catch (const emu::CodeObjectError& e) {
        say(source + ": " + e.problem());
        return hipErrorInvalidImage;
    }
    if (module->object.target.processor != device_->target) {
        say(source + " is a code object for " + module->object.target.str() + "; the emulated device is " +
            device_->properties.gcnArchName + " (" + kArchVariable + ")");
        return hipErrorNoBinaryForGpu;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    if (const std::uint64_t bytes = module->object.image_size()) {
        try {
            module->image_address = memory_.allocate(bytes, "code object image: " + source);
            const std::vector<std::uint8_t> image = emu::loaded_image(module->object, module->image_address);
            memory_.write(module->image_address, image.data(), image.size());
        } catch (const emu::MemoryFault&) {
            return hipErrorOutOfMemory;
        }
    }
    *out = modules_.add(std::move(module));
    return hipSuccess;
}

hipError_t Runtime::load_module_file(hipModule_t* out, const char* path) {
    if (!out || !path) return hipErrorInvalidValue;
    std::vector<char> bytes;
    try {
        bytes = emu::read_whole_file(path, emu::max_code_object_bytes);
    } catch (const emu::FileReadError& e) {
        const bool unopened = e.kind() == emu::FileReadError::Kind::cannot_open;
        say(std::string("hipModuleLoad '") + path + "': " + (unopened ? "cannot open: " : "") + e.what());
        // A path that names no readable file (missing, a directory, no
        // permission) is FileNotFound, as in ROCm; bytes that cannot be a code
        // object are an invalid image.
        const bool no_file =
            e.kind() == emu::FileReadError::Kind::cannot_open || e.kind() == emu::FileReadError::Kind::not_a_file;
        return no_file ? hipErrorFileNotFound : hipErrorInvalidImage;
    }
    return load_module(out, bytes.data(), bytes.size(), path);
}

hipError_t Runtime::load_module_image(hipModule_t* out, const void* image, const std::string& source) {
    if (!out || !image) return hipErrorInvalidValue;
    const std::optional<std::size_t> size = image_size(image);
    if (!size) {
        // hipModuleLoadData's own image is named after the call, as its other errors are.
        const bool from_call = source == "hipModuleLoadData image";
        say((from_call ? std::string("hipModuleLoadData") : source) +
            ": the image is neither a 64-bit ELF code object nor a clang offload bundle");
        return hipErrorInvalidImage;
    }
    return load_module(out, image, *size, source);
}

hipError_t Runtime::unload_module(hipModule_t module) {
    std::lock_guard<std::mutex> lock(mutex_);
    ihipModule_t* live = module ? modules_.find(module) : nullptr;
    if (!live) return hipErrorInvalidHandle;
    if (live->image_address) memory_.release(live->image_address);
    modules_.remove(module);
    return hipSuccess;
}

hipError_t Runtime::get_global(hipDeviceptr_t* address, std::size_t* bytes, hipModule_t module, const char* name) {
    if (!name || (!address && !bytes)) return hipErrorInvalidValue;
    std::lock_guard<std::mutex> lock(mutex_);
    const ihipModule_t* live = module ? modules_.find(module) : nullptr;
    if (!live) return hipErrorInvalidHandle;
    const emu::Variable* variable = live->object.find_variable(name);
    if (!variable) return hipErrorNotFound;
    if (address) *address = reinterpret_cast<hipDeviceptr_t>(live->image_address + variable->address);
    if (bytes) *bytes = variable->size;
    return hipSuccess;
}

const ihipModule_t* Runtime::module_of(hipFunction_t f) const {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [handle, module] : modules_.all())
        for (const auto& [name, function] : module->functions)
            if (function.get() == f) return module.get();
    return nullptr;
}

hipError_t Runtime::get_function(hipFunction_t* out, hipModule_t module, const char* name) {
    if (!out || !name) return hipErrorInvalidValue;
    std::lock_guard<std::mutex> lock(mutex_);
    ihipModule_t* live = module ? modules_.find(module) : nullptr;
    if (!live) return hipErrorInvalidHandle;
    std::unique_ptr<ihipModuleSymbol_t>& slot = live->functions[name];
    if (!slot) {
        const emu::Kernel* kernel = live->object.find_kernel(name);
        if (!kernel) {
            live->functions.erase(name);
            return hipErrorNotFound;
        }
        try {
            slot = std::make_unique<ihipModuleSymbol_t>(
                ihipModuleSymbol_t{name, emu::build_program(live->object, *kernel), live, nullptr});
        } catch (const std::invalid_argument& e) {  // code the emulator cannot prepare (emu/exec/program.cpp)
            live->functions.erase(name);
            say(std::string("hipModuleGetFunction '") + name + "': " + e.what());
            return hipErrorInvalidImage;
        }
    }
    *out = slot.get();
    return hipSuccess;
}

bool Runtime::is_function(hipFunction_t f) const {
    for (const auto& [handle, module] : modules_.all())
        for (const auto& [name, function] : module->functions)
            if (function.get() == f) return true;
    return false;
}

// The kernarg bytes from either kernelParams (one pointer per explicit
// argument, in order) or extra (HIP_LAUNCH_PARAM_BUFFER_POINTER/SIZE).
hipError_t Runtime::kernel_arguments(const LaunchRequest& request, std::vector<std::uint8_t>& out) const {
    const emu::Program& program = request.function->program;
    const std::size_t segment =
        std::max<std::size_t>(program.metadata.kernarg_segment_size, program.descriptor.kernarg_size);
    const std::vector<const emu::KernelArgument*> args = explicit_arguments(program);
    if (request.kernel_params && request.extra) return hipErrorInvalidValue;
    if (request.kernel_params) {
        out.assign(segment, 0);
        for (std::size_t i = 0; i < args.size(); ++i) {
            if (!request.kernel_params[i]) return hipErrorInvalidValue;
            // Metadata is input too: an argument past the segment is refused, not copied.
            if (args[i]->offset > segment || args[i]->size > segment - args[i]->offset) {
                say("kernel '" + program.kernel_name + "': argument " + std::to_string(i) + " lies outside its " +
                    std::to_string(segment) + "-byte kernarg segment");
                return hipErrorInvalidImage;
            }
            std::memcpy(out.data() + args[i]->offset, request.kernel_params[i], args[i]->size);
        }
        return hipSuccess;
    }
    if (!request.extra) return args.empty() ? hipSuccess : hipErrorInvalidValue;
    const void* buffer = nullptr;
    const std::size_t* size = nullptr;
    for (void** item = request.extra; *item != HIP_LAUNCH_PARAM_END; item += 2) {
        if (item[0] == HIP_LAUNCH_PARAM_BUFFER_POINTER) buffer = item[1];
        else if (item[0] == HIP_LAUNCH_PARAM_BUFFER_SIZE) size = static_cast<const std::size_t*>(item[1]);
        else return hipErrorInvalidValue;
    }
    if (!buffer || !size || *size > segment) return hipErrorInvalidValue;
    const auto* bytes = static_cast<const std::uint8_t*>(buffer);
    out.assign(bytes, bytes + *size);
    return hipSuccess;
}

hipError_t Runtime::deferred_launch(const LaunchRequest& request, Work* out) {
    auto bytes = std::make_shared<std::vector<std::uint8_t>>();
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!request.function || !is_function(request.function)) return hipErrorInvalidHandle;
        if (hipError_t e = kernel_arguments(request, *bytes); e != hipSuccess) return e;
    }
    LaunchRequest later = request;
    later.kernel_params = nullptr;
    later.stream = nullptr;
    *out = [this, later, bytes]() {
        std::size_t size = bytes->size();
        void* extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, bytes->data(), HIP_LAUNCH_PARAM_BUFFER_SIZE, &size,
                         HIP_LAUNCH_PARAM_END};
        LaunchRequest now = later;
        now.extra = extra;
        return launch(now);
    };
    return hipSuccess;
}

hipError_t Runtime::launch(const LaunchRequest& request, bool cooperative) {
    if (hipError_t e = check_stream(request.stream); e != hipSuccess) return e;
    if (request.stream && is_capturing(request.stream)) {  // the null stream is never captured
        if (cooperative) return hipErrorStreamCaptureUnsupported;
        Work work;
        if (hipError_t e = deferred_launch(request, &work); e != hipSuccess) return e;
        if (capture(request.stream, std::move(work))) return hipSuccess;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    if (!request.function || !is_function(request.function)) return hipErrorInvalidHandle;
    emu::LaunchConfig config;
    for (int i = 0; i < 3; ++i) {
        if (request.grid[i] == 0 || request.block[i] == 0) return hipErrorInvalidValue;
        if (std::uint64_t(request.grid[i]) * request.block[i] > 0xffffffffu) return hipErrorInvalidValue;
        config.grid[i] = request.grid[i];
        config.block[i] = request.block[i];
    }
    if (hipError_t e = kernel_arguments(request, config.kernarg); e != hipSuccess) return e;
    config.dynamic_lds = request.shared_bytes;
    config.threads = emulator_threads_;
    config.schedule = schedule_;
    config.schedule.seed += launches_++;
    config.cooperative = cooperative;
    const emu::Program& program = request.function->program;
    config.image_address = request.function->module ? request.function->module->image_address : 0;
    emu::check::Checker* checker = nullptr;
    if (checks_enabled()) {
        std::unique_ptr<emu::check::Checker>& kept = request.function->checker;
        if (!kept) kept = std::make_unique<emu::check::Checker>(program);
        kept->clear();
        checker = kept.get();
        config.observer = checker;
    }
    emu::DispatchResult result;
    try {
        if (uses_hostcall(program)) {
            config.hostcall_buffer = hostcalls().buffer(memory_);
            HostcallService::Session serving(hostcalls());
            result = emu::launch(memory_, program, config);
        } else {
            result = emu::launch(memory_, program, config);
        }
    } catch (const emu::LaunchError& e) {
        say("hipModuleLaunchKernel '" + program.kernel_name + "': " + e.what());
        return hipErrorInvalidValue;
    } catch (const emu::MemoryFault& e) {  // the host could not provide the dispatch's memory
        say("hipModuleLaunchKernel '" + program.kernel_name + "': " + e.what());
        return hipErrorOutOfMemory;
    }
    // The checkers' own findings; the fault (which the checker also turns
    // into a finding) is said as such.
    if (checker) report_findings(checker->findings(emu::DispatchResult{}));
    if (result.fault) {
        report_fault(result.fault->message);
        pending_fault_ = result.fault->has_address ? hipErrorIllegalAddress : hipErrorLaunchFailure;
    }
    return hipSuccess;
}

}  // namespace dppgemm::hipemu
