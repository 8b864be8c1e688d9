// libdppgemm-hipemu through the HIP API, as a HIP program linked against it
// sees it: status codes for every kind of bad argument, copies, streams,
// events, modules, and dppgemm kernels computing bitwise what the emulator
// computes when driven directly.
#include <catch2/catch.hpp>

#include <cstdlib>

#include <dlfcn.h>
#include <hip/hip_runtime_api.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "capture_stderr.hpp"
#include "dppgemm/code_objects.h"
#include "dppgemm/kernargs.h"
#include "emulator_run.hpp"

namespace {

// Many cases here return errors on purpose; what hipemu says about them is
// pinned alone, without API error findings (tests/hipemu tests those). Set
// before main, before hipemu first reads it.
const int api_errors_off = setenv("DPPGEMM_HIPEMU_API_ERRORS", "0", 1);

const dppgemm_code_object& code_object(const char* target, const char* variant, const char* layout) {
    const dppgemm_code_object* co = dppgemm_find_code_object(target, variant, layout);
    REQUIRE(co);
    return *co;
}

struct Gemm {
    int m, n, k;
    float alpha, beta;
    std::vector<float> a, b, c;  // NT layout: A is m x k (lda = m), B is n x k (ldb = n), C is m x n
};

Gemm random_gemm(int m, int n, int k, unsigned seed) {
    using dppgemm::test_support::random_matrix;
    std::mt19937 rng(seed);
    // A braced list is evaluated left to right: A, then B, then C.
    return Gemm{m,
                n,
                k,
                0.75f,
                -0.5f,
                random_matrix(std::size_t(m) * k, rng),
                random_matrix(std::size_t(n) * k, rng),
                random_matrix(std::size_t(m) * n, rng)};
}

dppgemm_sgemm_kernargs kernargs(const Gemm& g, std::uint64_t a, std::uint64_t b, std::uint64_t c) {
    dppgemm_sgemm_kernargs args = dppgemm::test_support::sgemm_kernargs(g.m, g.n, g.k, g.m, g.n, g.m, g.alpha, g.beta);
    args.a = a;
    args.b = b;
    args.c = c;
    return args;
}

// Device copies of a problem's operands, freed at the end.
struct DeviceGemm {
    float *a = nullptr, *b = nullptr, *c = nullptr;
    explicit DeviceGemm(const Gemm& g) {
        REQUIRE(hipMalloc(reinterpret_cast<void**>(&a), g.a.size() * 4) == hipSuccess);
        REQUIRE(hipMalloc(reinterpret_cast<void**>(&b), g.b.size() * 4) == hipSuccess);
        REQUIRE(hipMalloc(reinterpret_cast<void**>(&c), g.c.size() * 4) == hipSuccess);
        REQUIRE(hipMemcpy(a, g.a.data(), g.a.size() * 4, hipMemcpyHostToDevice) == hipSuccess);
        REQUIRE(hipMemcpyHtoD(b, const_cast<float*>(g.b.data()), g.b.size() * 4) == hipSuccess);
        REQUIRE(hipMemcpy(c, g.c.data(), g.c.size() * 4, hipMemcpyDefault) == hipSuccess);
    }
    ~DeviceGemm() {
        CHECK(hipFree(a) == hipSuccess);
        CHECK(hipFree(b) == hipSuccess);
        CHECK(hipFree(c) == hipSuccess);
    }
    dppgemm_sgemm_kernargs args(const Gemm& g) const {
        return kernargs(g, reinterpret_cast<std::uintptr_t>(a), reinterpret_cast<std::uintptr_t>(b),
                        reinterpret_cast<std::uintptr_t>(c));
    }
    std::vector<float> result(const Gemm& g) const {
        std::vector<float> out(g.c.size());
        REQUIRE(hipMemcpy(out.data(), c, out.size() * 4, hipMemcpyDeviceToHost) == hipSuccess);
        return out;
    }
};

struct LoadedKernel {
    hipModule_t module = nullptr;
    hipFunction_t function = nullptr;
    explicit LoadedKernel(const dppgemm_code_object& co) {
        REQUIRE(hipModuleLoadData(&module, co.data) == hipSuccess);
        REQUIRE(hipModuleGetFunction(&function, module, co.kernel_name) == hipSuccess);
    }
    ~LoadedKernel() { CHECK(hipModuleUnload(module) == hipSuccess); }
};

hipError_t launch_with_buffer(hipFunction_t f, const Gemm& g, dppgemm_sgemm_kernargs args,
                              hipStream_t stream = nullptr) {
    std::size_t size = sizeof args;
    void* extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &args, HIP_LAUNCH_PARAM_BUFFER_SIZE, &size, HIP_LAUNCH_PARAM_END};
    return hipModuleLaunchKernel(f, (g.m + 127) / 128, (g.n + 127) / 128, 1, DPPGEMM_SGEMM_BLOCK_SIZE, 1, 1, 0, stream,
                                 nullptr, extra);
}

bool bitwise_equal(const std::vector<float>& x, const std::vector<float>& y) {
    return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * 4) == 0;
}

}  // namespace

TEST_CASE("hipemu: one emulated gfx906 device with its properties") {
    int count = -1, device = -1, value = 0;
    CHECK(hipGetDeviceCount(&count) == hipSuccess);
    CHECK(count == 1);
    CHECK(hipGetDevice(&device) == hipSuccess);
    CHECK(device == 0);
    hipDeviceProp_t props;
    REQUIRE(hipGetDeviceProperties(&props, 0) == hipSuccess);
    CHECK(std::string(props.gcnArchName) == "gfx906:sramecc+:xnack-");
    CHECK(std::string(props.name) == "AMD Instinct MI50 (dppgemm-hipemu)");
    CHECK(props.gcnArch == 906);
    CHECK(props.warpSize == 64);
    CHECK(props.multiProcessorCount == 60);
    CHECK(props.maxThreadsPerBlock == 1024);
    CHECK(props.sharedMemPerBlock == 65536);
    CHECK(hipDeviceGetAttribute(&value, hipDeviceAttributeMultiprocessorCount, 0) == hipSuccess);
    CHECK(value == 60);
    CHECK(hipDeviceGetAttribute(&value, hipDeviceAttributeWarpSize, 0) == hipSuccess);
    CHECK(value == 64);

    CHECK(hipGetDeviceCount(nullptr) == hipErrorInvalidValue);
    CHECK(hipGetDeviceProperties(nullptr, 0) == hipErrorInvalidValue);
    CHECK(hipGetDeviceProperties(&props, 1) == hipErrorInvalidDevice);
    CHECK(hipGetDeviceProperties(&props, -1) == hipErrorInvalidDevice);
    CHECK(hipDeviceGetAttribute(&value, hipDeviceAttributeWarpSize, 1) == hipErrorInvalidDevice);
    CHECK(hipDeviceGetAttribute(&value, hipDeviceAttributeUuid, 0) == hipErrorInvalidValue);
    CHECK(hipSetDevice(0) == hipSuccess);
    CHECK(hipSetDevice(1) == hipErrorInvalidDevice);
    CHECK(hipDeviceSynchronize() == hipSuccess);
}

// The attributes ROCm 5.2's hipDeviceGetAttribute (hipamd
// src/hip_device_runtime.cpp, rocm-5.2.3) answers with hipErrorInvalidValue:
// the enum values of HIP 5.2's hip_runtime_api.h without a case there.
constexpr hipDeviceAttribute_t unanswered_by_rocm_5_2[] = {
    hipDeviceAttributeAccessPolicyMaxWindowSize,
    hipDeviceAttributeArch,
    hipDeviceAttributeAsyncEngineCount,
    hipDeviceAttributeCanUseHostPointerForRegisteredMem,
    hipDeviceAttributeClockInstructionRate,
    hipDeviceAttributeComputePreemptionSupported,
    hipDeviceAttributeDeviceOverlap,
    hipDeviceAttributeGcnArch,
    hipDeviceAttributeGcnArchName,
    hipDeviceAttributeGlobalL1CacheSupported,
    hipDeviceAttributeHostNativeAtomicSupported,
    hipDeviceAttributeIsLargeBar,
    hipDeviceAttributeLocalL1CacheSupported,
    hipDeviceAttributeLuid,
    hipDeviceAttributeLuidDeviceNodeMask,
    hipDeviceAttributeMaxBlocksPerMultiProcessor,
    hipDeviceAttributeMaxRegistersPerMultiprocessor,
    hipDeviceAttributeMaxSurface1D,
    hipDeviceAttributeMaxSurface1DLayered,
    hipDeviceAttributeMaxSurface2D,
    hipDeviceAttributeMaxSurface2DLayered,
    hipDeviceAttributeMaxSurface3D,
    hipDeviceAttributeMaxSurfaceCubemap,
    hipDeviceAttributeMaxSurfaceCubemapLayered,
    hipDeviceAttributeMaxTexture1DLayered,
    hipDeviceAttributeMaxTexture1DLinear,
    hipDeviceAttributeMaxTexture1DMipmap,
    hipDeviceAttributeMaxTexture2DGather,
    hipDeviceAttributeMaxTexture2DLayered,
    hipDeviceAttributeMaxTexture2DLinear,
    hipDeviceAttributeMaxTexture2DMipmap,
    hipDeviceAttributeMaxTexture3DAlt,
    hipDeviceAttributeMaxTextureCubemap,
    hipDeviceAttributeMaxTextureCubemapLayered,
    hipDeviceAttributeMaxThreadsDim,
    hipDeviceAttributeMultiGpuBoardGroupID,
    hipDeviceAttributeName,
    hipDeviceAttributePciDomainID,
    hipDeviceAttributePersistingL2CacheMaxSize,
    hipDeviceAttributeReservedSharedMemPerBlock,
    hipDeviceAttributeSharedMemPerBlockOptin,
    hipDeviceAttributeSharedMemPerMultiprocessor,
    hipDeviceAttributeSingleToDoublePrecisionPerfRatio,
    hipDeviceAttributeStreamPrioritiesSupported,
    hipDeviceAttributeSurfaceAlignment,
    hipDeviceAttributeTccDriver,
    hipDeviceAttributeTotalGlobalMem,
    hipDeviceAttributeUnifiedAddressing,
    hipDeviceAttributeUuid,
};

TEST_CASE("hipemu: hipDeviceGetAttribute answers every attribute ROCm 5.2 answers, and only those") {
    const auto unanswered = [](int attribute) {
        return std::find(std::begin(unanswered_by_rocm_5_2), std::end(unanswered_by_rocm_5_2), attribute) !=
               std::end(unanswered_by_rocm_5_2);
    };
    // Every value of the enum's CUDA-compatible and AMD-specific ranges; a
    // pointer-sized buffer, as ROCm writes the HDP registers' addresses.
    int answered = 0, refused = 0;
    for (const auto& [begin, end] :
         {std::pair{hipDeviceAttributeCudaCompatibleBegin, hipDeviceAttributeCudaCompatibleEnd},
          std::pair{hipDeviceAttributeAmdSpecificBegin, hipDeviceAttributeAmdSpecificEnd}})
        for (int attribute = begin; attribute < end; ++attribute) {
            void* value = nullptr;
            const hipError_t e =
                hipDeviceGetAttribute(reinterpret_cast<int*>(&value), hipDeviceAttribute_t(attribute), 0);
            INFO("attribute " << attribute);
            if (e == hipSuccess) {
                ++answered;
                CHECK_FALSE(unanswered(attribute));
            } else {
                CHECK(e == hipErrorInvalidValue);
                refused += unanswered(attribute);
            }
        }
    // 106 enum values: 57 answered by ROCm 5.2 and hipemu, 49 refused by both.
    CHECK(answered == 57);
    CHECK(refused == 49);
    CHECK(std::size(unanswered_by_rocm_5_2) == 49);
    int value = -1;
    CHECK(hipDeviceGetAttribute(&value, hipDeviceAttributeImageSupport, 0) == hipSuccess);
    CHECK(value == 1);  // arrays and texture objects (docs/textures.md)

    // The default device, gfx906: the MI50 row of targets.def (60 CUs,
    // 1725 MHz, 4 MiB L2, 64 KiB LDS), and ROCm's rules for the rest.
    const auto attribute = [](hipDeviceAttribute_t a) {
        int v = -1;
        REQUIRE(hipDeviceGetAttribute(&v, a, 0) == hipSuccess);
        return v;
    };
    CHECK(attribute(hipDeviceAttributePhysicalMultiProcessorCount) == 60);
    CHECK(attribute(hipDeviceAttributeClockRate) == 1725000);
    CHECK(attribute(hipDeviceAttributeL2CacheSize) == 4 << 20);
    CHECK(attribute(hipDeviceAttributeMaxSharedMemoryPerMultiprocessor) == 65536);
    CHECK(attribute(hipDeviceAttributeMemoryBusWidth) == 4096);
    CHECK(attribute(hipDeviceAttributeCanUseStreamWaitValue) == 0);  // gfx9.0 stepping 6
    CHECK(attribute(hipDeviceAttributeFineGrainSupport) == 1);
    CHECK(attribute(hipDeviceAttributeMemoryPoolsSupported) == 0);
    void* hdp = reinterpret_cast<void*>(1);
    CHECK(hipDeviceGetAttribute(reinterpret_cast<int*>(&hdp), hipDeviceAttributeHdpMemFlushCntl, 0) == hipSuccess);
    CHECK(hdp == nullptr);
}

TEST_CASE("hipemu: hipGetLastError returns the last failure once, hipPeekAtLastError keeps it") {
    (void)hipGetLastError();
    CHECK(hipGetLastError() == hipSuccess);
    CHECK(hipSetDevice(7) == hipErrorInvalidDevice);
    CHECK(hipSetDevice(0) == hipSuccess);  // a success does not hide the failure
    CHECK(hipPeekAtLastError() == hipErrorInvalidDevice);
    CHECK(hipGetLastError() == hipErrorInvalidDevice);
    CHECK(hipGetLastError() == hipSuccess);
}

TEST_CASE("hipemu: error names are libamdhip64's, every code has a description") {
    void* amdhip = dlopen("libamdhip64.so.5", RTLD_NOW | RTLD_LOCAL);
    REQUIRE(amdhip);
    using NameFunction = const char* (*)(hipError_t);
    const auto theirs = reinterpret_cast<NameFunction>(dlsym(amdhip, "hipGetErrorName"));
    REQUIRE(theirs);
    int named = 0;
    for (int code = 0; code <= 1100; ++code) {
        const hipError_t e = hipError_t(code);
        INFO("code " << code);
        CHECK(std::string(hipGetErrorName(e)) == theirs(e));
        CHECK(std::strlen(hipGetErrorString(e)) > 0);
        named += std::string(hipGetErrorName(e)) != "hipErrorUnknown";
    }
    CHECK(named == 73);
    CHECK(std::string(hipGetErrorString(hipErrorNoDevice)) == "no ROCm-capable device is detected");
    dlclose(amdhip);
}

TEST_CASE("hipemu: memory, copies and fills") {
    void* p = reinterpret_cast<void*>(1);
    CHECK(hipMalloc(nullptr, 16) == hipErrorInvalidValue);
    CHECK(hipMalloc(&p, 0) == hipSuccess);
    CHECK(p == nullptr);
    CHECK(hipMalloc(&p, std::size_t(1) << 40) == hipErrorOutOfMemory);  // more than the MI50's 16 GiB
    CHECK(hipFree(nullptr) == hipSuccess);

    std::vector<std::uint32_t> host(256), back(256, 0);
    for (std::size_t i = 0; i < host.size(); ++i) host[i] = std::uint32_t(i * 2654435761u);
    std::uint8_t *d1, *d2;
    REQUIRE(hipMalloc(reinterpret_cast<void**>(&d1), 1024) == hipSuccess);
    REQUIRE(hipMalloc(reinterpret_cast<void**>(&d2), 1024) == hipSuccess);
    CHECK(reinterpret_cast<std::uintptr_t>(d1) >= (std::uintptr_t(1) << 47));  // never a host address
    std::size_t free_bytes = 0, total = 0;
    CHECK(hipMemGetInfo(&free_bytes, &total) == hipSuccess);
    CHECK(total - free_bytes == 2048);

    CHECK(hipMemcpy(d1, host.data(), 1024, hipMemcpyHostToDevice) == hipSuccess);
    CHECK(hipMemcpyDtoD(d2 + 512, d1, 512) == hipSuccess);
    CHECK(hipMemcpy(d2, d1 + 512, 512, hipMemcpyDefault) == hipSuccess);
    CHECK(hipMemcpyDtoH(back.data(), d2, 1024) == hipSuccess);
    for (std::size_t i = 0; i < 128; ++i) {
        CHECK(back[i] == host[i + 128]);
        CHECK(back[i + 128] == host[i]);
    }

    SECTION("bad copies") {
        CHECK(hipMemcpy(d1, host.data(), 1028, hipMemcpyHostToDevice) == hipErrorInvalidValue);  // past the end
        CHECK(hipMemcpy(d1 + 4, host.data(), 1024, hipMemcpyHostToDevice) == hipErrorInvalidValue);
        CHECK(hipMemcpy(back.data(), host.data(), 16, hipMemcpyHostToDevice) == hipErrorInvalidValue);  // dst is host
        CHECK(hipMemcpy(back.data(), host.data(), 16, hipMemcpyDeviceToHost) == hipErrorInvalidValue);  // src is host
        CHECK(hipMemcpy(d1, host.data(), 16, hipMemcpyKind(7)) == hipErrorInvalidMemcpyDirection);
        CHECK(hipMemcpy(nullptr, host.data(), 16, hipMemcpyHostToDevice) == hipErrorInvalidValue);
        CHECK(hipMemcpy(d1, nullptr, 16, hipMemcpyHostToDevice) == hipErrorInvalidValue);
        CHECK(hipMemcpy(nullptr, nullptr, 0, hipMemcpyHostToDevice) == hipSuccess);  // nothing to copy
        CHECK(hipMemset(back.data(), 0, 16) == hipErrorInvalidValue);
        CHECK(hipMemsetD32(d1 + 1020, 0, 2) == hipErrorInvalidValue);
    }
    SECTION("fills") {
        CHECK(hipMemset(d1, 0xab, 1024) == hipSuccess);
        CHECK(hipMemsetD32(d1 + 4, int(0x12345678), 2) == hipSuccess);
        CHECK(hipMemsetD8(d1 + 1023, 0x01, 1) == hipSuccess);
        CHECK(hipMemcpy(back.data(), d1, 1024, hipMemcpyDeviceToHost) == hipSuccess);
        CHECK(back[0] == 0xababababu);
        CHECK(back[1] == 0x12345678u);
        CHECK(back[2] == 0x12345678u);
        CHECK(back[3] == 0xababababu);
        CHECK(back[255] == 0x01abababu);
    }
    SECTION("frees") {
        CHECK(hipFree(d1 + 4) == hipErrorInvalidValue);  // not the start of an allocation
        CHECK(hipFree(back.data()) == hipErrorInvalidValue);
    }
    CHECK(hipFree(d1) == hipSuccess);
    CHECK(hipFree(d1) == hipErrorInvalidValue);                                           // twice
    CHECK(hipMemcpy(back.data(), d1, 4, hipMemcpyDeviceToHost) == hipErrorInvalidValue);  // freed
    CHECK(hipFree(d2) == hipSuccess);
}

TEST_CASE("hipemu: hipDeviceReset frees every allocation, module, stream and event") {
    void* memory = nullptr;
    hipStream_t stream = nullptr;
    hipEvent_t event = nullptr;
    hipModule_t module = nullptr;
    REQUIRE(hipMalloc(&memory, 4096) == hipSuccess);
    REQUIRE(hipStreamCreate(&stream) == hipSuccess);
    REQUIRE(hipEventCreate(&event) == hipSuccess);
    REQUIRE(hipModuleLoadData(&module, code_object("gfx906", "dpp0", "NN").data) == hipSuccess);
    CHECK(hipDeviceReset() == hipSuccess);
    std::size_t free_bytes = 0, total = 0;
    CHECK(hipMemGetInfo(&free_bytes, &total) == hipSuccess);
    CHECK(free_bytes == total);
    CHECK(hipFree(memory) == hipErrorInvalidValue);
    CHECK(hipStreamDestroy(stream) == hipErrorInvalidHandle);
    CHECK(hipEventDestroy(event) == hipErrorInvalidHandle);
    CHECK(hipModuleUnload(module) == hipErrorInvalidHandle);
}

TEST_CASE("hipemu: streams and events") {
    hipStream_t stream;
    REQUIRE(hipStreamCreate(&stream) == hipSuccess);
    CHECK(hipStreamCreate(nullptr) == hipErrorInvalidValue);
    CHECK(hipStreamCreateWithFlags(&stream, 8) == hipErrorInvalidValue);
    CHECK(hipStreamQuery(stream) == hipSuccess);
    CHECK(hipStreamSynchronize(nullptr) == hipSuccess);

    hipEvent_t start, stop, untimed;
    REQUIRE(hipEventCreate(&start) == hipSuccess);
    REQUIRE(hipEventCreate(&stop) == hipSuccess);
    REQUIRE(hipEventCreateWithFlags(&untimed, hipEventDisableTiming) == hipSuccess);
    CHECK(hipEventCreateWithFlags(&start, 0x100) == hipErrorInvalidValue);
    float ms = -1;
    CHECK(hipEventElapsedTime(&ms, start, stop) == hipErrorInvalidHandle);  // not recorded yet
    CHECK(hipEventRecord(start, stream) == hipSuccess);
    CHECK(hipEventRecord(stop, stream) == hipSuccess);
    CHECK(hipEventRecord(untimed, stream) == hipSuccess);
    CHECK(hipEventSynchronize(stop) == hipSuccess);
    CHECK(hipEventQuery(stop) == hipSuccess);
    CHECK(hipEventElapsedTime(&ms, start, stop) == hipSuccess);
    CHECK(ms >= 0.0f);
    CHECK(hipEventElapsedTime(nullptr, start, stop) == hipErrorInvalidValue);
    CHECK(hipEventElapsedTime(&ms, start, untimed) == hipErrorInvalidHandle);
    CHECK(hipStreamWaitEvent(stream, stop, 0) == hipSuccess);
    CHECK(hipStreamWaitEvent(stream, stop, 1) == hipErrorInvalidValue);

    CHECK(hipEventDestroy(untimed) == hipSuccess);
    CHECK(hipEventDestroy(untimed) == hipErrorInvalidHandle);
    CHECK(hipEventRecord(untimed, nullptr) == hipErrorInvalidHandle);
    CHECK(hipEventSynchronize(nullptr) == hipErrorInvalidHandle);
    CHECK(hipEventDestroy(start) == hipSuccess);
    CHECK(hipEventDestroy(stop) == hipSuccess);

    CHECK(hipStreamDestroy(stream) == hipSuccess);
    CHECK(hipStreamDestroy(stream) == hipErrorInvalidHandle);
    CHECK(hipStreamSynchronize(stream) == hipErrorInvalidHandle);
    int x = 0;
    void* d = nullptr;
    REQUIRE(hipMalloc(&d, 4) == hipSuccess);
    CHECK(hipMemcpyAsync(d, &x, 4, hipMemcpyHostToDevice, stream) == hipErrorInvalidHandle);
    CHECK(hipMemsetAsync(d, 0, 4, stream) == hipErrorInvalidHandle);
    CHECK(hipFree(d) == hipSuccess);
}

TEST_CASE("hipemu: modules and functions") {
    hipModule_t module = nullptr;
    hipFunction_t function = nullptr;
    const std::vector<std::uint8_t> garbage(256, 0x5a);
    {
        CapturedStderr captured;
        CHECK(hipModuleLoadData(&module, garbage.data()) == hipErrorInvalidImage);
        CHECK(hipModuleLoadData(&module, code_object("gfx90a", "dpp1", "NN").data) == hipErrorNoBinaryForGpu);
        const std::string text = captured.text();
        CHECK(count_of(text,
                       "hipemu: hipModuleLoadData: the image is neither a 64-bit ELF code object nor a clang "
                       "offload bundle") == 1);
        CHECK(count_of(text, "is a code object for gfx90a") == 1);
    }
    CHECK(hipModuleLoadData(nullptr, garbage.data()) == hipErrorInvalidValue);
    CHECK(hipModuleLoadData(&module, nullptr) == hipErrorInvalidValue);
    CHECK(hipModuleLoad(&module, "/nonexistent/k.co") == hipErrorFileNotFound);

    const dppgemm_code_object& co = code_object("gfx906", "dpp2", "TN");
    REQUIRE(hipModuleLoadData(&module, co.data) == hipSuccess);
    CHECK(hipModuleGetFunction(&function, module, "no_such_kernel") == hipErrorNotFound);
    CHECK(hipModuleGetFunction(&function, nullptr, co.kernel_name) == hipErrorInvalidHandle);
    CHECK(hipModuleGetFunction(nullptr, module, co.kernel_name) == hipErrorInvalidValue);
    CHECK(hipModuleGetFunction(&function, module, nullptr) == hipErrorInvalidValue);
    REQUIRE(hipModuleGetFunction(&function, module, co.kernel_name) == hipSuccess);
    CHECK(hipModuleUnload(module) == hipSuccess);
    CHECK(hipModuleUnload(module) == hipErrorInvalidHandle);
    dppgemm_sgemm_kernargs args{};
    const Gemm g = random_gemm(8, 8, 8, 1);
    CHECK(launch_with_buffer(function, g, args) == hipErrorInvalidHandle);  // its module is gone
    CHECK(launch_with_buffer(nullptr, g, args) == hipErrorInvalidHandle);
}

TEST_CASE("hipemu: a launch computes bitwise what the emulator computes, by kernelParams or by buffer") {
    const Gemm g = random_gemm(200, 136, 77, 7);
    const dppgemm_code_object& co = code_object("gfx906", "dpp1", "NT");
    const std::vector<float> expected = run_on_emulator(co, g.a, g.b, g.c, kernargs(g, 0, 0, 0));
    LoadedKernel kernel(co);
    DeviceGemm by_params(g), by_buffer(g);

    dppgemm_sgemm_kernargs args = by_params.args(g);
    void* params[] = {&args.a,   &args.b,   &args.c,   &args.size_m, &args.size_n, &args.size_k,
                      &args.lda, &args.ldb, &args.ldc, &args.alpha,  &args.beta};
    CHECK(hipModuleLaunchKernel(kernel.function, 2, 2, 1, 256, 1, 1, 0, nullptr, params, nullptr) == hipSuccess);
    CHECK(launch_with_buffer(kernel.function, g, by_buffer.args(g)) == hipSuccess);
    CHECK(hipDeviceSynchronize() == hipSuccess);
    CHECK(bitwise_equal(by_params.result(g), expected));
    CHECK(bitwise_equal(by_buffer.result(g), expected));
}

TEST_CASE("hipemu: work on a stream runs in order") {
    const Gemm g = random_gemm(130, 40, 16, 11);
    const dppgemm_code_object& co = code_object("gfx906", "dpp0", "NT");
    LoadedKernel kernel(co);
    DeviceGemm d(g);
    hipStream_t stream;
    REQUIRE(hipStreamCreateWithFlags(&stream, hipStreamNonBlocking) == hipSuccess);
    std::vector<float> out(g.c.size(), 0.0f), twice_expected;
    {
        Gemm first = g;
        first.c = run_on_emulator(co, g.a, g.b, g.c, kernargs(g, 0, 0, 0));
        // C fed back in: the order of the two launches matters
        twice_expected = run_on_emulator(co, first.a, first.b, first.c, kernargs(first, 0, 0, 0));
    }
    CHECK(launch_with_buffer(kernel.function, g, d.args(g), stream) == hipSuccess);
    CHECK(launch_with_buffer(kernel.function, g, d.args(g), stream) == hipSuccess);
    CHECK(hipMemcpyAsync(out.data(), d.c, out.size() * 4, hipMemcpyDeviceToHost, stream) == hipSuccess);
    CHECK(hipStreamSynchronize(stream) == hipSuccess);
    CHECK(bitwise_equal(out, twice_expected));
    CHECK(hipStreamDestroy(stream) == hipSuccess);
}

TEST_CASE("hipemu: bad launches are refused before anything runs") {
    const Gemm g = random_gemm(64, 64, 8, 3);
    LoadedKernel kernel(code_object("gfx906", "dpp1", "NT"));
    DeviceGemm d(g);
    dppgemm_sgemm_kernargs args = d.args(g);
    std::size_t size = sizeof args;
    void* extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &args, HIP_LAUNCH_PARAM_BUFFER_SIZE, &size, HIP_LAUNCH_PARAM_END};
    void* params[] = {&args.a,   &args.b,   &args.c,   &args.size_m, &args.size_n, &args.size_k,
                      &args.lda, &args.ldb, &args.ldc, &args.alpha,  &args.beta};
    const auto launch = [&](unsigned gx, unsigned bx, void** kernel_params, void** launch_extra,
                            hipStream_t stream = nullptr, unsigned shared = 0) {
        return hipModuleLaunchKernel(kernel.function, gx, 1, 1, bx, 1, 1, shared, stream, kernel_params, launch_extra);
    };
    CHECK(launch(0, 256, nullptr, extra) == hipErrorInvalidValue);
    CHECK(launch(1, 0, nullptr, extra) == hipErrorInvalidValue);
    CHECK(launch(0xffffffffu, 256, nullptr, extra) == hipErrorInvalidValue);  // grid x block overflows 32 bits
    CHECK(launch(1, 256, params, extra) == hipErrorInvalidValue);             // both ways at once
    CHECK(launch(1, 256, nullptr, nullptr) == hipErrorInvalidValue);          // arguments missing
    CHECK(launch(1, 256, nullptr, extra, reinterpret_cast<hipStream_t>(0x1234)) == hipErrorInvalidHandle);
    void* missing_size[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &args, HIP_LAUNCH_PARAM_END};
    CHECK(launch(1, 256, nullptr, missing_size) == hipErrorInvalidValue);
    std::size_t too_big = 4096;
    void* oversized[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &args, HIP_LAUNCH_PARAM_BUFFER_SIZE, &too_big,
                         HIP_LAUNCH_PARAM_END};
    CHECK(launch(1, 256, nullptr, oversized) == hipErrorInvalidValue);
    {
        CapturedStderr captured;
        CHECK(launch(1, 1025, nullptr, extra) == hipErrorInvalidValue);
        CHECK(launch(1, 512, nullptr, extra) == hipErrorInvalidValue);                  // above the kernel's 256
        CHECK(launch(1, 256, nullptr, extra, nullptr, 65536) == hipErrorInvalidValue);  // LDS beyond 64 KiB
        const std::string text = captured.text();
        CHECK(count_of(text, "workgroup of 1025 work-items (at most 1024)") == 1);
        CHECK(count_of(text, "max_flat_workgroup_size 256") == 1);
        CHECK(count_of(text, "LDS of") == 1);
    }
    CHECK(hipDeviceSynchronize() == hipSuccess);  // nothing ran, nothing faulted
}

TEST_CASE("hipemu: a kernel fault is reported by the next synchronization, naming pc and instruction") {
    const Gemm g = random_gemm(64, 64, 8, 5);
    LoadedKernel kernel(code_object("gfx906", "dpp1", "NT"));
    DeviceGemm d(g);
    dppgemm_sgemm_kernargs args = d.args(g);
    args.a = (std::uint64_t(1) << 47) - 65536;  // below every allocation
    CapturedStderr captured;
    CHECK(launch_with_buffer(kernel.function, g, args) == hipSuccess);
    CHECK(hipDeviceSynchronize() == hipErrorIllegalAddress);
    CHECK(hipGetLastError() == hipErrorIllegalAddress);
    CHECK(hipDeviceSynchronize() == hipSuccess);  // reported once
    const std::string text = captured.text();
    INFO(text);
    CHECK(count_of(text, "hipemu: kernel fault: kernel 'dppgemm_sgemm_dpp1_NT': workgroup (0,0,0)") == 1);
    CHECK(count_of(text, " pc 0x") == 1);
    CHECK(count_of(text, "buffer_load_dword") == 1);
}

TEST_CASE("hipemu: hipcc --genco offload bundles load by file and from memory") {
    std::ifstream file(HIPEMU_TEST_BUNDLE, std::ios::binary);
    const std::vector<char> bundle((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    REQUIRE(bundle.size() > 4096);
    hipModule_t from_file = nullptr, from_memory = nullptr;
    REQUIRE(hipModuleLoad(&from_file, HIPEMU_TEST_BUNDLE) == hipSuccess);
    REQUIRE(hipModuleLoadData(&from_memory, bundle.data()) == hipSuccess);

    const int n = 1000;
    std::vector<float> x(n), y(n), out(n);
    for (int i = 0; i < n; ++i) {
        x[i] = float(i) * 0.25f;
        y[i] = float(n - i);
    }
    float *dx, *dy;
    REQUIRE(hipMalloc(reinterpret_cast<void**>(&dx), n * 4) == hipSuccess);
    REQUIRE(hipMalloc(reinterpret_cast<void**>(&dy), n * 4) == hipSuccess);
    for (hipModule_t module : {from_file, from_memory}) {
        hipFunction_t axpy;
        REQUIRE(hipModuleGetFunction(&axpy, module, "axpy") == hipSuccess);
        CHECK(hipMemcpy(dx, x.data(), n * 4, hipMemcpyHostToDevice) == hipSuccess);
        CHECK(hipMemcpy(dy, y.data(), n * 4, hipMemcpyHostToDevice) == hipSuccess);
        float a = 2.0f;
        int count = n;
        void* params[] = {&a, &dx, &dy, &count};
        CHECK(hipModuleLaunchKernel(axpy, (n + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr) == hipSuccess);
        CHECK(hipMemcpy(out.data(), dy, n * 4, hipMemcpyDeviceToHost) == hipSuccess);
        int wrong = 0;
        for (int i = 0; i < n; ++i) wrong += out[i] != 2.0f * x[i] + y[i];
        CHECK(wrong == 0);
        CHECK(hipModuleUnload(module) == hipSuccess);
    }
    CHECK(hipFree(dx) == hipSuccess);
    CHECK(hipFree(dy) == hipSuccess);

    // The same bundle with its gfx906 entry renamed: nothing for this device.
    std::vector<char> other = bundle;
    const std::string gfx906 = "--gfx906";
    auto at = std::search(other.begin(), other.begin() + 4096, gfx906.begin(), gfx906.end());
    REQUIRE(at != other.begin() + 4096);
    std::copy_n("--gfx999", 8, at);
    CapturedStderr captured;
    hipModule_t module = nullptr;
    CHECK(hipModuleLoadData(&module, other.data()) == hipErrorNoBinaryForGpu);
    CHECK(count_of(captured.text(),
                   "offload bundle has no code object for gfx906 (it has: host-x86_64-unknown-linux, "
                   "hipv4-amdgcn-amd-amdhsa--gfx999, hipv4-amdgcn-amd-amdhsa--gfx90a") == 1);
}

TEST_CASE("hipemu: a module's __device__ variable persists between launches, hipModuleGetGlobal reaches it") {
    hipModule_t module = nullptr;
    REQUIRE(hipModuleLoad(&module, HIPEMU_TEST_COUNTER_BUNDLE) == hipSuccess);
    hipFunction_t count = nullptr;
    REQUIRE(hipModuleGetFunction(&count, module, "count") == hipSuccess);
    hipDeviceptr_t launches = nullptr;
    size_t bytes = 0;
    REQUIRE(hipModuleGetGlobal(&launches, &bytes, module, "launches") == hipSuccess);
    CHECK(bytes == 4);
    unsigned value = 0;
    CHECK(hipMemcpyDtoH(&value, launches, 4) == hipSuccess);
    CHECK(value == 10);  // the initial value in the code object
    unsigned* out = nullptr;
    REQUIRE(hipMalloc(reinterpret_cast<void**>(&out), 4) == hipSuccess);
    void* params[] = {&out};
    for (unsigned expected : {11u, 12u}) {
        CHECK(hipModuleLaunchKernel(count, 1, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr) == hipSuccess);
        CHECK(hipMemcpyDtoH(&value, out, 4) == hipSuccess);
        CHECK(value == expected);
    }
    value = 100;
    CHECK(hipMemcpyHtoD(launches, &value, 4) == hipSuccess);
    CHECK(hipModuleLaunchKernel(count, 1, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr) == hipSuccess);
    CHECK(hipMemcpyDtoH(&value, launches, 4) == hipSuccess);
    CHECK(value == 101);
    CHECK(hipModuleGetGlobal(&launches, &bytes, module, "count.kd") == hipErrorNotFound);
    CHECK(hipModuleGetGlobal(&launches, &bytes, module, "nothing") == hipErrorNotFound);
    CHECK(hipModuleGetGlobal(&launches, &bytes, nullptr, "launches") == hipErrorInvalidHandle);
    // A module loaded again starts from the code object's values.
    CHECK(hipModuleUnload(module) == hipSuccess);
    REQUIRE(hipModuleLoad(&module, HIPEMU_TEST_COUNTER_BUNDLE) == hipSuccess);
    REQUIRE(hipModuleGetGlobal(&launches, nullptr, module, "launches") == hipSuccess);
    CHECK(hipMemcpyDtoH(&value, launches, 4) == hipSuccess);
    CHECK(value == 10);
    CHECK(hipModuleUnload(module) == hipSuccess);
    CHECK(hipFree(out) == hipSuccess);
    (void)hipGetLastError();
}
