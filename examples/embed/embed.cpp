// A plain HIP application that embeds dppgemm's code objects: it asks the
// library for the bytes that fit the device, loads them with
// hipModuleLoadData and launches the kernel with hipModuleLaunchKernel. It
// runs unchanged on a real AMD GPU (libamdhip64) and, with no GPU, on
// libdppgemm-hipemu.
#include <hip/hip_runtime_api.h>

#include "dppgemm/code_objects.h"
#include "dppgemm/kernargs.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK_HIP(call)                                                                                  \
    do {                                                                                                 \
        hipError_t e_ = (call);                                                                          \
        if (e_ != hipSuccess) {                                                                          \
            std::fprintf(stderr, "embed: %s failed: %s (%d): %s\n", #call, hipGetErrorName(e_), int(e_), \
                         hipGetErrorString(e_));                                                         \
            return 1;                                                                                    \
        }                                                                                                \
    } while (0)

int main(int argc, char** argv) {
    const int m = argc > 1 ? std::atoi(argv[1]) : 200, n = argc > 2 ? std::atoi(argv[2]) : 136,
              k = argc > 3 ? std::atoi(argv[3]) : 77;
    const char* variant = argc > 4 ? argv[4] : "dpp1";
    if (m < 1 || n < 1 || k < 0) {
        std::fprintf(stderr, "usage: embed [M >= 1] [N >= 1] [K >= 0] [dpp0|dpp1|dpp2]; got M=%d N=%d K=%d\n", m, n, k);
        return 2;
    }

    int device = 0;
    CHECK_HIP(hipGetDevice(&device));
    hipDeviceProp_t props;
    CHECK_HIP(hipGetDeviceProperties(&props, device));
    const dppgemm_code_object* co = dppgemm_find_code_object_for_arch(props.gcnArchName, variant, "NN");
    if (!co) {
        std::fprintf(stderr, "embed: no dppgemm %s kernel for %s\n", variant, props.gcnArchName);
        return 1;
    }
    hipModule_t module;
    hipFunction_t function;
    CHECK_HIP(hipModuleLoadData(&module, co->data));
    CHECK_HIP(hipModuleGetFunction(&function, module, co->kernel_name));

    std::vector<float> a(std::size_t(m) * k), b(std::size_t(k) * n), c(std::size_t(m) * n, 0.5f);
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = float(int(i * 7 % 13) - 6) / 8;
    for (std::size_t i = 0; i < b.size(); ++i) b[i] = float(int(i * 5 % 11) - 5) / 4;
    const std::vector<float> c0 = c;
    float *da, *db, *dc;
    CHECK_HIP(hipMalloc(&da, a.size() * 4));
    CHECK_HIP(hipMalloc(&db, b.size() * 4));
    CHECK_HIP(hipMalloc(&dc, c.size() * 4));
    CHECK_HIP(hipMemcpy(da, a.data(), a.size() * 4, hipMemcpyHostToDevice));
    CHECK_HIP(hipMemcpy(db, b.data(), b.size() * 4, hipMemcpyHostToDevice));
    CHECK_HIP(hipMemcpy(dc, c.data(), c.size() * 4, hipMemcpyHostToDevice));

    dppgemm_sgemm_kernargs args{};
    args.a = reinterpret_cast<std::uintptr_t>(da);
    args.b = reinterpret_cast<std::uintptr_t>(db);
    args.c = reinterpret_cast<std::uintptr_t>(dc);
    args.size_m = m;
    args.size_n = n;
    args.size_k = k;
    args.lda = m;
    args.ldb = k;
    args.ldc = m;
    args.alpha = 1.5f;
    args.beta = -1.0f;
    std::size_t size = sizeof args;
    void* config[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &args, HIP_LAUNCH_PARAM_BUFFER_SIZE, &size,
                      HIP_LAUNCH_PARAM_END};
    // One workgroup per tile of C; the tile is the variant's (128, or 64 for the 64x64 family).
    const unsigned tile = dppgemm_code_object_macro_tile(co);
    CHECK_HIP(hipModuleLaunchKernel(function, (m + tile - 1) / tile, (n + tile - 1) / tile, 1, DPPGEMM_SGEMM_BLOCK_SIZE,
                                    1, 1, 0, nullptr, nullptr, config));
    CHECK_HIP(hipDeviceSynchronize());
    CHECK_HIP(hipMemcpy(c.data(), dc, c.size() * 4, hipMemcpyDeviceToHost));

    // The inputs are small multiples of 1/32: every product and partial sum is
    // exact in fp32, so the GPU must match this loop exactly.
    int wrong = 0;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
            double sum = 0;
            for (int q = 0; q < k; ++q) sum += double(a[i + std::size_t(q) * m]) * b[q + std::size_t(j) * k];
            const double expected = 1.5 * sum - c0[i + std::size_t(j) * m];
            if (float(expected) != c[i + std::size_t(j) * m] && wrong++ < 5)
                std::fprintf(stderr, "embed: C(%d,%d) = %g, expected %g\n", i, j, c[i + std::size_t(j) * m], expected);
        }
    CHECK_HIP(hipFree(da));
    CHECK_HIP(hipFree(db));
    CHECK_HIP(hipFree(dc));
    CHECK_HIP(hipModuleUnload(module));
    std::printf("embed: %s (%s) on %s: C = 1.5 A B - C for M=%d N=%d K=%d: %s\n", co->kernel_name, co->target,
                props.gcnArchName, m, n, k, wrong ? "WRONG" : "correct");
    return wrong ? 1 : 0;
}
