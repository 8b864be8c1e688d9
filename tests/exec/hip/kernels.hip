// Kernels compiled by hipcc at test time (test_hip.cpp) and run on the emulator.
#include <hip/hip_runtime.h>
extern "C" __global__ void vadd(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
extern "C" __global__ void naive_sgemm(const float* a, const float* b, float* c, int m, int n, int k) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < m && col < n) {
        float acc = 0.0f;
        for (int i = 0; i < k; ++i) acc += a[row + i * m] * b[i + col * k];
        c[row + col * m] = acc;
    }
}
extern "C" __global__ void reduce(const float* in, float* out, int n) {
    __shared__ float s[256];
    int t = threadIdx.x;
    int i = blockIdx.x * 256 + t;
    s[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int stride = 128; stride > 0; stride >>= 1) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}
extern "C" __global__ void shuffle(const int* in, int* out) {
    int t = threadIdx.x;
    int v = in[t];
    v += __shfl_xor(v, 1);
    v += __shfl_down(v, 2);
    v += __shfl(v, 5);
    out[t] = v;
}
// Private memory (scratch): a local array indexed at run time.
extern "C" __global__ void local_array(const int* index, float* out, int n) {
    float t[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int j = 0; j < 32; ++j) t[j] = j * 1.5f + i;
    if (i < n) out[i] = t[index[i] & 31];
}
// Forty live values in at most 16 VGPRs: the compiler spills to scratch.
extern "C" __global__ __attribute__((amdgpu_num_vgpr(16))) void spill(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned v[40];
#pragma unroll
    for (int j = 0; j < 40; ++j) v[j] = in[i * 40 + j];
    unsigned acc = 0;
#pragma unroll
    for (int j = 0; j < 40; ++j) acc = acc * 3u + (v[j] ^ v[39 - j]);
    out[i] = acc;
}
// IEEE division and square root: hipcc expands a / b into v_div_scale,
// v_rcp, fma refinement, v_div_fmas and v_div_fixup (correctly rounded,
// denormal results included), sqrtf into v_sqrt with a one-ulp correction.
extern "C" __global__ void divide(const float* a, const float* b, float* quotient, float* root, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    quotient[i] = a[i] / b[i];
    root[i] = sqrtf(a[i]);
}
extern "C" __global__ void divide_f64(const double* a, const double* b, double* quotient, double* root, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    quotient[i] = a[i] / b[i];
    root[i] = sqrt(a[i]);
}
// fp16: a * 2 + a contracts to v_fma_f16 (hipcc fuses by default).
extern "C" __global__ void halfs(const _Float16* a, _Float16* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] * (_Float16)2.0f + a[i];
}
typedef _Float16 half2_t __attribute__((ext_vector_type(2)));
// fp16 scalar and packed arithmetic, conversions and a compare, contraction
// off so that the host can repeat it operation by operation; 8 halves per work-item.
extern "C" __global__ void half_math(const _Float16* a, const _Float16* b, _Float16* out, int n) {
#pragma clang fp contract(off)
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    _Float16 x = a[i], y = b[i];
    half2_t v = {x, y}, w = {y, x};
    half2_t pv = v * w + v;
    out[8 * i + 0] = x + y;
    out[8 * i + 1] = x * y - x;
    out[8 * i + 2] = __builtin_fmaf16(x, y, (_Float16)0.75f);
    out[8 * i + 3] = x > y ? x : y;
    out[8 * i + 4] = (_Float16)((float)x * 3.0f);
    out[8 * i + 5] = (_Float16)(short)x;
    out[8 * i + 6] = pv.x;
    out[8 * i + 7] = pv.y;
}
// Mixed precision: hipcc fuses the f16 products into f32 sums as v_fma_mix_f32.
extern "C" __global__ void half_dot(const _Float16* a, const _Float16* b, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float acc = 0.0f;
    for (int k = 0; k < 8; ++k) acc += (float)a[8 * i + k] * (float)b[8 * i + k];
    out[i] = acc;
}
// Calls: a non-inlined function (s_getpc-relative address, s_swappc_b64,
// return by s_setpc_b64) and a recursive one, whose frames live on the stack in scratch.
__attribute__((noinline)) __device__ float twice_plus_one(float x) { return 2.0f * x + 1.0f; }
__device__ int fibonacci(int n) { return n < 2 ? n : fibonacci(n - 1) + fibonacci(n - 2); }
extern "C" __global__ void calls(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = twice_plus_one(in[i]) + (float)fibonacci(i % 10);
}
