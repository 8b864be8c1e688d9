// The transposition progression of the GPU performance lecture, one kernel per
// DPPGEMM_TRANSPOSE_STEP row of include/dppgemm/progression.def: out = in^T,
// column-major (in(r, c) = in[r + c ld_in], out(c, r) = out[c + r ld_out]),
// any size. A workgroup of 32x8 work-items moves a 32x32 tile, 4 values each.
#include <hip/hip_runtime.h>

#include <cstddef>

#define TRANSPOSE_PARAMETERS \
    const float *__restrict__ in, float *__restrict__ out, unsigned rows, unsigned cols, unsigned ld_in, unsigned ld_out

namespace {

constexpr unsigned tile = 32, tile_rows = 8;

// Through an LDS tile: read down columns of `in` (contiguous), write down
// columns of `out` (contiguous); the tile is read across, which with 32 floats
// per row puts a column in one bank, and with 33 spreads it over all 32.
template <unsigned pad>
__device__ void through_lds(TRANSPOSE_PARAMETERS) {
    __shared__ float t[tile][tile + pad];  // [c][r]
    const unsigned x = threadIdx.x % tile, y = threadIdx.x / tile;
    const unsigned r0 = blockIdx.x * tile, c0 = blockIdx.y * tile;
    for (unsigned i = y; i < tile; i += tile_rows)
        if (r0 + x < rows && c0 + i < cols) t[i][x] = in[r0 + x + std::size_t(c0 + i) * ld_in];
    __syncthreads();
    for (unsigned i = y; i < tile; i += tile_rows)
        if (c0 + x < cols && r0 + i < rows) out[c0 + x + std::size_t(r0 + i) * ld_out] = t[x][i];
}

}  // namespace

extern "C" __global__ void __launch_bounds__(256) dppgemm_progression_transpose_naive(TRANSPOSE_PARAMETERS) {
    const unsigned x = threadIdx.x % tile, y = threadIdx.x / tile;
    const unsigned r = blockIdx.x * tile + x;
    for (unsigned i = y; i < tile; i += tile_rows) {
        const unsigned col = blockIdx.y * tile + i;
        if (r < rows && col < cols) out[col + std::size_t(r) * ld_out] = in[r + std::size_t(col) * ld_in];
    }
}

extern "C" __global__ void __launch_bounds__(256) dppgemm_progression_transpose_lds(TRANSPOSE_PARAMETERS) {
    through_lds<0>(in, out, rows, cols, ld_in, ld_out);
}

extern "C" __global__ void __launch_bounds__(256) dppgemm_progression_transpose_lds_padded(TRANSPOSE_PARAMETERS) {
    through_lds<1>(in, out, rows, cols, ld_in, ld_out);
}
