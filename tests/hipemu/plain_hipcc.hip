// Built with plain `hipcc` (no --offload-arch): on a machine without a GPU
// hipcc 5.2 compiles the device code for gfx803 (GCN3) alone, and hipemu,
// with no DPPGEMM_HIPEMU_ARCH, plays the program's own target. Vector add,
// a block reduction through LDS with a barrier, wave shuffles (ds_bpermute)
// and DPP row shifts, each checked exactly against the host.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

#define PROGRAM "plain_hipcc"
#include "hip_check.h"

__global__ void vector_add(const float* a, const float* b, float* c, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

// One sum per block: each wave folds its 64 values with __shfl_down, wave
// leaders meet in LDS, the first wave adds their sums.
__global__ void block_sum(const int* in, int* out, int n) {
    __shared__ int wave_sums[16];
    const int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    int v = i < n ? in[i] : 0;
    for (int offset = 32; offset > 0; offset >>= 1) v += __shfl_down(v, offset);
    if (t % 64 == 0) wave_sums[t / 64] = v;
    __syncthreads();
    if (t == 0) {
        int sum = 0;
        for (int w = 0; w < int(blockDim.x) / 64; ++w) sum += wave_sums[w];
        out[blockIdx.x] = sum;
    }
}

// DPP: row_shr:1 (0x111) moves each lane's value to the next lane of its
// 16-lane row; the first lane of a row keeps `old` (bound_ctrl off).
__global__ void row_shift(const int* in, int* out) {
    const int t = threadIdx.x;
    out[t] = __builtin_amdgcn_update_dpp(-1, in[t], 0x111, 0xf, 0xf, false);
}

int main() {
    hipDeviceProp_t props;
    CHECK(hipGetDeviceProperties(&props, 0));
    const int n = 1000, block = 256, blocks = (n + block - 1) / block;
    std::vector<float> a(n), b(n), c(n);
    std::vector<int> in(n), sums(blocks), shifted(64);
    for (int i = 0; i < n; ++i) {
        a[i] = 0.5f * float(i);
        b[i] = 3.0f - float(i);
        in[i] = 7 * i - 300;
    }
    float *da, *db, *dc;
    int *din, *dsums, *dshifted;
    CHECK(hipMalloc(&da, n * sizeof(float)));
    CHECK(hipMalloc(&db, n * sizeof(float)));
    CHECK(hipMalloc(&dc, n * sizeof(float)));
    CHECK(hipMalloc(&din, n * sizeof(int)));
    CHECK(hipMalloc(&dsums, blocks * sizeof(int)));
    CHECK(hipMalloc(&dshifted, 64 * sizeof(int)));
    CHECK(hipMemcpy(da, a.data(), n * sizeof(float), hipMemcpyHostToDevice));
    CHECK(hipMemcpy(db, b.data(), n * sizeof(float), hipMemcpyHostToDevice));
    CHECK(hipMemcpy(din, in.data(), n * sizeof(int), hipMemcpyHostToDevice));
    hipLaunchKernelGGL(vector_add, dim3(blocks), dim3(block), 0, 0, da, db, dc, n);
    hipLaunchKernelGGL(block_sum, dim3(blocks), dim3(block), 0, 0, din, dsums, n);
    hipLaunchKernelGGL(row_shift, dim3(1), dim3(64), 0, 0, din, dshifted);
    CHECK(hipGetLastError());
    CHECK(hipMemcpy(c.data(), dc, n * sizeof(float), hipMemcpyDeviceToHost));
    CHECK(hipMemcpy(sums.data(), dsums, blocks * sizeof(int), hipMemcpyDeviceToHost));
    CHECK(hipMemcpy(shifted.data(), dshifted, 64 * sizeof(int), hipMemcpyDeviceToHost));

    int wrong = 0;
    for (int i = 0; i < n; ++i) wrong += c[i] != a[i] + b[i];
    for (int blk = 0; blk < blocks; ++blk) {
        int expected = 0;
        for (int i = blk * block; i < n && i < (blk + 1) * block; ++i) expected += in[i];
        wrong += sums[blk] != expected;
    }
    for (int lane = 0; lane < 64; ++lane) wrong += shifted[lane] != (lane % 16 == 0 ? -1 : in[lane - 1]);
    CHECK(hipFree(da));
    CHECK(hipFree(db));
    CHECK(hipFree(dc));
    CHECK(hipFree(din));
    CHECK(hipFree(dsums));
    CHECK(hipFree(dshifted));
    if (wrong) {
        std::printf("plain_hipcc: %d wrong on %s\n", wrong, props.gcnArchName);
        return 1;
    }
    std::printf("plain_hipcc: correct on %s\n", props.gcnArchName);
    return 0;
}
