// Ordinary HIP kernels using what hipcc emits beyond plain arithmetic:
// 64-bit and double atomics, atomics on __shared__, clock64/wall_clock64,
// dot-product builtins, and (at -O0 -g) the stack. Built for gfx906 and
// gfx90a at -O2 and -O0 -g by test_hip_builtins.cpp.
#include <hip/hip_runtime.h>

// Every work-item adds to, and takes the min/max of, 64-bit counters; CAS
// increments a second counter in a retry loop.
extern "C" __global__ void atomics64(const unsigned long long* in, unsigned long long* counters, double* sum,
                                     int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const unsigned long long v = in[i];
    atomicAdd(&counters[0], v);
    atomicMin(&counters[1], v);
    atomicMax(&counters[2], v);
    unsigned long long old = counters[3], seen;
    do {
        seen = old;
        old = atomicCAS(&counters[3], seen, seen + 2 * v);
    } while (old != seen);
    atomicAdd(sum, double(v & 0xffff) * 0.25);
}

// Workgroup min/max through __shared__ atomics; the returned old values are
// used (ds_*_rtn), and the workgroup's result is written once.
extern "C" __global__ void shared_minmax(const int* in, int* out, unsigned* first_seen, int n) {
    __shared__ int low, high;
    __shared__ unsigned long long total;
    if (threadIdx.x == 0) {
        low = 0x7fffffff;
        high = -0x7fffffff - 1;
        total = 0;
    }
    __syncthreads();
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int v = i < n ? in[i] : 0;
    const int before = atomicMin(&low, v);
    atomicMax(&high, v);
    atomicAdd(&total, (unsigned long long)(unsigned)v);
    if (i < n) first_seen[i] = before >= v ? 1u : 0u;  // the old value was at least ours: ours became the min
    __syncthreads();
    if (threadIdx.x == 0) {
        out[3 * blockIdx.x] = low;
        out[3 * blockIdx.x + 1] = high;
        out[3 * blockIdx.x + 2] = int(total);
    }
}

// clock64 (s_memtime) and wall_clock64 (s_memrealtime) never go backwards.
extern "C" __global__ void clocks(unsigned long long* out) {
    const unsigned long long t0 = clock64(), w0 = wall_clock64();
    float x = threadIdx.x;
    for (int k = 0; k < 100; ++k) x = x * 1.0001f + 1.0f;
    const unsigned long long t1 = clock64(), w1 = wall_clock64();
    const int i = threadIdx.x;
    out[4 * i] = t0;
    out[4 * i + 1] = t1;
    out[4 * i + 2] = w0;
    out[4 * i + 3] = w1 + (x < 0 ? 1 : 0);
}

// Dot-product builtins: sdot2 (i16 pairs), udot4 (u8), sdot8 (i4), fdot2 (f16 pairs).
typedef short short2_t __attribute__((ext_vector_type(2)));
typedef _Float16 half2_t __attribute__((ext_vector_type(2)));
extern "C" __global__ void dots(const int* a, const int* b, const int* c, int* out, float* fout, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    short2_t a2, b2;
    __builtin_memcpy(&a2, &a[i], 4);
    __builtin_memcpy(&b2, &b[i], 4);
    out[3 * i] = __builtin_amdgcn_sdot2(a2, b2, c[i], false);
    out[3 * i + 1] = int(__builtin_amdgcn_udot4(unsigned(a[i]), unsigned(b[i]), unsigned(c[i]), false));
    out[3 * i + 2] = __builtin_amdgcn_sdot8(a[i], b[i], c[i], false);
    half2_t ha = {_Float16(float(a[i] % 7) * 0.5f), _Float16(float(b[i] % 5) * 0.25f)};
    half2_t hb = {_Float16(float(c[i] % 3)), _Float16(-1.5f)};
    fout[i] = __builtin_amdgcn_fdot2(ha, hb, float(i), false);
}

// A local array indexed at run time and a non-inlined call: the stack (at -O0
// everything lives there, and the private base comes from SH_MEM_BASES).
__device__ __attribute__((noinline)) int weighted(const int* values, int count) {
    int sum = 0;
    for (int k = 0; k < count; ++k) sum += values[k] * (k + 1);
    return sum;
}
extern "C" __global__ void stack(const int* in, int* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int local[16];
    for (int k = 0; k < 16; ++k) local[k] = in[(i + k) % n];
    local[in[i] & 15] += 1000;
    out[i] = weighted(local, 16);
}

// Double sin/cos of large arguments: the device library reduces them with v_trig_preop_f64.
extern "C" __global__ void sines(const double* x, double* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[2 * i] = sin(x[i]);
    out[2 * i + 1] = cos(x[i]);
}
