// Grid-wide synchronization with cooperative groups (grid_group::sync(),
// which hipcc compiles to ds_gws_barrier), launched with
// hipLaunchCooperativeKernel: a stencil whose every step reads what other
// workgroups wrote in the step before, and a reduction whose total every
// workgroup reads after the grid barrier. Results are integers, compared
// exactly with the host's. Two broken programs: "plain" launches the stencil
// with <<<>>>, where grid sync has no GWS resource; "half" is a cooperative
// kernel in which only the even workgroups reach the grid barrier, which
// then never opens. Both launches fail.
#define PROGRAM "grid_sync"
#include "hip_check.h"
#include <hip/hip_cooperative_groups.h>
#include <cstring>
#include <vector>
namespace cg = cooperative_groups;

constexpr int steps = 4;

// a <- a[i-1] + 2 a[i] + a[i+1] (cyclic), `steps` times; ping-pong between a and b.
__global__ void stencil(int* a, int* b, int n, unsigned* ranks) {
    cg::grid_group grid = cg::this_grid();
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    ranks[i] = grid.thread_rank() + (grid.size() << 16) + (grid.is_valid() ? 1u << 31 : 0);
    for (int s = 0; s < steps; ++s) {
        int* from = s % 2 ? b : a;
        int* to = s % 2 ? a : b;
        to[i] = from[(i + n - 1) % n] + 2 * from[i] + from[(i + 1) % n];
        grid.sync();
    }
}

// out[i] = in[i] * (sum of all in), the sum reduced per block, then by block 0.
__global__ void scale_by_total(const int* in, int* partial, int* total, int* out) {
    cg::grid_group grid = cg::this_grid();
    __shared__ int block_sum;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0) block_sum = 0;
    __syncthreads();
    atomicAdd(&block_sum, in[i]);
    __syncthreads();
    if (threadIdx.x == 0) partial[blockIdx.x] = block_sum;
    grid.sync();
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        int sum = 0;
        for (unsigned k = 0; k < gridDim.x; ++k) sum += partial[k];
        *total = sum;
    }
    grid.sync();
    out[i] = in[i] * *total;
}

__global__ void half_sync(int* a) {
    if (blockIdx.x % 2 == 0) cg::this_grid().sync();
    a[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

int main(int argc, char** argv) {
    const bool plain = argc > 1 && std::strcmp(argv[1], "plain") == 0;
    const bool half = argc > 1 && std::strcmp(argv[1], "half") == 0;
    int cooperative = 0;
    CHECK(hipDeviceGetAttribute(&cooperative, hipDeviceAttributeCooperativeLaunch, 0));
    const int blocks = 8, threads = 128, n = blocks * threads;
    std::vector<int> a(n), in(n);
    for (int i = 0; i < n; ++i) a[i] = (i * 7919) % 23 - 11, in[i] = (i * 31) % 9 - 4;
    int *da, *db, *din, *dpartial, *dtotal, *dout;
    unsigned* dranks;
    CHECK(hipMalloc(&da, n * 4)); CHECK(hipMalloc(&db, n * 4)); CHECK(hipMalloc(&dranks, n * 4));
    CHECK(hipMalloc(&din, n * 4)); CHECK(hipMalloc(&dpartial, blocks * 4)); CHECK(hipMalloc(&dtotal, 4));
    CHECK(hipMalloc(&dout, n * 4));
    CHECK(hipMemcpy(da, a.data(), n * 4, hipMemcpyHostToDevice));
    CHECK(hipMemcpy(din, in.data(), n * 4, hipMemcpyHostToDevice));
    int nn = n;
    if (plain) {
        hipLaunchKernelGGL(stencil, dim3(blocks), dim3(threads), 0, 0, da, db, nn, dranks);
        std::printf("grid_sync: plain launch: %s\n", hipGetErrorName(hipDeviceSynchronize()));
        return 0;
    }
    if (half) {
        void* half_args[] = {&da};
        hipError_t e = hipLaunchCooperativeKernel(reinterpret_cast<void*>(half_sync), dim3(blocks), dim3(threads),
                                                  half_args, 0, 0);
        if (e == hipSuccess) e = hipDeviceSynchronize();
        std::printf("grid_sync: half of the grid at the barrier: %s\n", hipGetErrorName(e));
        return 0;
    }
    void* stencil_args[] = {&da, &db, &nn, &dranks};
    CHECK(hipLaunchCooperativeKernel(reinterpret_cast<void*>(stencil), dim3(blocks), dim3(threads), stencil_args, 0, 0));
    void* scale_args[] = {&din, &dpartial, &dtotal, &dout};
    CHECK(hipLaunchCooperativeKernel(reinterpret_cast<void*>(scale_by_total), dim3(blocks), dim3(threads), scale_args,
                                     0, 0));
    std::vector<int> got(n), out(n);
    std::vector<unsigned> ranks(n);
    CHECK(hipMemcpy(got.data(), steps % 2 ? db : da, n * 4, hipMemcpyDeviceToHost));
    CHECK(hipMemcpy(out.data(), dout, n * 4, hipMemcpyDeviceToHost));
    CHECK(hipMemcpy(ranks.data(), dranks, n * 4, hipMemcpyDeviceToHost));

    std::vector<int> want = a, next(n);
    for (int s = 0; s < steps; ++s) {
        for (int i = 0; i < n; ++i) next[i] = want[(i + n - 1) % n] + 2 * want[i] + want[(i + 1) % n];
        want.swap(next);
    }
    int total = 0;
    for (int v : in) total += v;
    int bad = cooperative == 1 ? 0 : 1;
    if (bad) std::printf("grid_sync: hipDeviceAttributeCooperativeLaunch is %d\n", cooperative);
    int wrong = 0;
    for (int i = 0; i < n; ++i) {
        wrong += got[i] != want[i];
        wrong += out[i] != in[i] * total;
        wrong += ranks[i] != (unsigned(i) | unsigned(n) << 16 | 1u << 31);
    }
    if (wrong) std::printf("grid_sync: %d of %d wrong\n", wrong, 3 * n);
    bad += wrong;
    if (bad) return 1;
    std::printf("grid_sync: correct\n");
    return 0;
}
