// Matrix cores from HIP: one wave computes a 32x32 tile of A x B with
// __builtin_amdgcn_mfma_f32_32x32x2f32 and a 16x16 tile with
// __builtin_amdgcn_mfma_f32_16x16x4f32, K = 16, on small-integer data (every
// sum exact in any order), and compares bitwise with the host. Built for
// gfx908 (hipcc keeps C/D in AGPRs there), gfx90a and gfx940. Register layouts:
// AMD's matrix instruction calculator (32x32x2: A[i][k] lane 32k+i, D[i][j] in
// vgpr 4*(i/8)+i%4 of lane 32*((i/4)%2)+j; 16x16x4: A[i][k] lane 16k+i,
// D[i][j] in vgpr i%4 of lane 16*(i/4)+j).
#define PROGRAM "mfma"
#include "hip_check.h"
#include <vector>

constexpr int K = 16;
typedef float float16v __attribute__((ext_vector_type(16)));
typedef float float4v __attribute__((ext_vector_type(4)));

// a: M x K row-major, b: K x N row-major, d: M x N row-major.
__global__ void tile32(const float* a, const float* b, float* d) {
    const int l = threadIdx.x;
    float16v acc = {0};
    for (int k = 0; k < K; k += 2) {
        const int kk = k + l / 32;
        acc = __builtin_amdgcn_mfma_f32_32x32x2f32(a[(l % 32) * K + kk], b[kk * 32 + l % 32], acc, 0, 0, 0);
    }
    for (int r = 0; r < 16; ++r) d[(8 * (r / 4) + 4 * (l / 32) + r % 4) * 32 + l % 32] = acc[r];
}

__global__ void tile16(const float* a, const float* b, float* d) {
    const int l = threadIdx.x;
    float4v acc = {0};
    for (int k = 0; k < K; k += 4) {
        const int kk = k + l / 16;
        acc = __builtin_amdgcn_mfma_f32_16x16x4f32(a[(l % 16) * K + kk], b[kk * 16 + l % 16], acc, 0, 0, 0);
    }
    for (int r = 0; r < 4; ++r) d[(4 * (l / 16) + r) * 16 + l % 16] = acc[r];
}

int check(int n, void (*kernel)(const float*, const float*, float*)) {
    std::vector<float> a(n * K), b(K * n), d(n * n);
    for (int i = 0; i < n * K; ++i) a[i] = float((i * 7) % 9 - 4);
    for (int i = 0; i < K * n; ++i) b[i] = float((i * 5) % 7 - 3);
    float *da, *db, *dd;
    CHECK(hipMalloc(&da, a.size() * 4));
    CHECK(hipMalloc(&db, b.size() * 4));
    CHECK(hipMalloc(&dd, d.size() * 4));
    CHECK(hipMemcpy(da, a.data(), a.size() * 4, hipMemcpyHostToDevice));
    CHECK(hipMemcpy(db, b.data(), b.size() * 4, hipMemcpyHostToDevice));
    hipLaunchKernelGGL(kernel, dim3(1), dim3(64), 0, 0, da, db, dd);
    CHECK(hipGetLastError());
    CHECK(hipMemcpy(d.data(), dd, d.size() * 4, hipMemcpyDeviceToHost));
    int wrong = 0;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            float s = 0;
            for (int k = 0; k < K; ++k) s += a[i * K + k] * b[k * n + j];
            wrong += d[i * n + j] != s;
        }
    CHECK(hipFree(da));
    CHECK(hipFree(db));
    CHECK(hipFree(dd));
    return wrong;
}

int main() {
    const int wrong = check(32, tile32) + check(16, tile16);
    if (wrong) std::printf("mfma: %d wrong\n", wrong);
    else std::printf("mfma: correct\n");
    return wrong != 0;
}
