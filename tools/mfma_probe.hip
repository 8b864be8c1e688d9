// Prints what a CDNA GPU's matrix cores do in the cases the ISA guides leave
// open, so that anyone with a gfx908/gfx90a/gfx940 GPU can produce a golden
// file for the emulator's MFMA model (emu/exec/sem_mfma.cpp):
//
//     hipcc --offload-arch=gfx90a -O2 tools/mfma_probe.hip -o mfma_probe
//     ./mfma_probe > mfma_probe.gfx90a.txt                     # on the GPU
//     LD_PRELOAD=build/host/hipemu/libdppgemm-hipemu.so \
//       DPPGEMM_HIPEMU_ARCH=gfx90a ./mfma_probe                # the emulator's answers
//
// One line per case: its name, then D's bits in lane 0, register 0.
#include <hip/hip_runtime.h>
#include <cstdint>
#include <cstdio>

typedef float float32v __attribute__((ext_vector_type(32)));
typedef float float16v __attribute__((ext_vector_type(16)));
typedef float float4v __attribute__((ext_vector_type(4)));
typedef _Float16 half4 __attribute__((ext_vector_type(4)));

enum Case { k2_order, k4_order, f32_denormal_input, c_denormal, nan_payload, negative_zero, f16_denormal_input, count };
const char* const names[count] = {
    "32x32x2f32 C=1, two products 2^-24 (fma chain: 0x3f800000; one rounding: 0x3f800002)",
    "16x16x4f32 C=1, four products 2^-24 (fma chain: 0x3f800000; one rounding: 0x3f800004)",
    "32x32x1f32 C=0, A=2^-128 (denormal) B=2^10 (kept: 0x04800000; flushed: 0)",
    "32x32x1f32 C=2^-140 (denormal), A=B=0 (kept: 0x00000800; flushed: 0)",
    "32x32x1f32 C=0, A=NaN 0x7fc00123, B=1 (payload kept: 0x7fc00123)",
    "32x32x1f32 C=-0, A=0, B=-1 (-0 + -0 = 0x80000000)",
    "32x32x8f16 C=0, two products of A=2^-24 (f16 denormal) and B=2^10 (kept: 0x39000000; flushed: 0)",
};

__global__ void probe(std::uint32_t* out) {
    const float tiny = 0x1p-12f;
    float16v c16;
    float4v c4;
    for (int r = 0; r < 16; ++r) c16[r] = 1.0f;
    for (int r = 0; r < 4; ++r) c4[r] = 1.0f;
    float16v d = __builtin_amdgcn_mfma_f32_32x32x2f32(tiny, tiny, c16, 0, 0, 0);
    if (threadIdx.x == 0) out[k2_order] = __float_as_uint(d[0]);
    float4v e = __builtin_amdgcn_mfma_f32_16x16x4f32(tiny, tiny, c4, 0, 0, 0);
    if (threadIdx.x == 0) out[k4_order] = __float_as_uint(e[0]);
    float32v zero = {0};
    float32v g = __builtin_amdgcn_mfma_f32_32x32x1f32(__uint_as_float(0x00200000u), 1024.0f, zero, 0, 0, 0);
    if (threadIdx.x == 0) out[f32_denormal_input] = __float_as_uint(g[0]);
    float32v cd;
    for (int r = 0; r < 32; ++r) cd[r] = __uint_as_float(0x00000800u);
    float32v h = __builtin_amdgcn_mfma_f32_32x32x1f32(0.0f, 0.0f, cd, 0, 0, 0);
    if (threadIdx.x == 0) out[c_denormal] = __float_as_uint(h[0]);
    float32v n = __builtin_amdgcn_mfma_f32_32x32x1f32(__uint_as_float(0x7fc00123u), 1.0f, zero, 0, 0, 0);
    if (threadIdx.x == 0) out[nan_payload] = __float_as_uint(n[0]);
    float32v cz;
    for (int r = 0; r < 32; ++r) cz[r] = -0.0f;
    float32v z = __builtin_amdgcn_mfma_f32_32x32x1f32(0.0f, -1.0f, cz, 0, 0, 0);
    if (threadIdx.x == 0) out[negative_zero] = __float_as_uint(z[0]);
    half4 a = {(_Float16)0x1p-24f, (_Float16)0x1p-24f, (_Float16)0x1p-24f, (_Float16)0x1p-24f};
    half4 b = {(_Float16)1024.0f, (_Float16)0.0f, (_Float16)0.0f, (_Float16)0.0f};
    float16v zero16 = {0};
    float16v q = __builtin_amdgcn_mfma_f32_32x32x8f16(a, b, zero16, 0, 0, 0);
    if (threadIdx.x == 0) out[f16_denormal_input] = __float_as_uint(q[0]);
}

int main() {
    std::uint32_t* out;
    if (hipMalloc(&out, count * 4) != hipSuccess) return 1;
    hipLaunchKernelGGL(probe, dim3(1), dim3(64), 0, 0, out);
    std::uint32_t host[count];
    if (hipMemcpy(host, out, sizeof host, hipMemcpyDeviceToHost) != hipSuccess) return 1;
    hipDeviceProp_t prop;
    if (hipGetDeviceProperties(&prop, 0) != hipSuccess) return 1;
    std::printf("mfma_probe on %s (%s)\n", prop.gcnArchName, prop.name);
    for (int i = 0; i < count; ++i) std::printf("0x%08x  %s\n", host[i], names[i]);
    return 0;
}
