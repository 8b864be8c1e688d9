// The SGEMM progression: from one work-item per C element to 128x128 tiles
// with 8x8 register blocks and double buffering, one kernel per row of
// include/dppgemm/progression.def (the geometry and restrictions are there).
//
// C = alpha A B + beta C, column-major (A(m,k) = a[m + k lda]), layout NN.
// Every work-item accumulates each of its C values over k = 0, 1, ..., K-1 in
// one fused multiply-add chain starting at +0, then forms alpha acc (+0 when
// beta = 0, else fma(beta, C, alpha acc)): the order of dppgemm's same-order
// reference (dppgemm/reference.hpp, fmac_f32_denormals), so every step is
// bitwise equal to it. Tiling changes where the operands come from, never the
// order of the sums.
#include <hip/hip_runtime.h>

#include <cstddef>

#define SGEMM_PARAMETERS                                                                                     \
    const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c, unsigned m, unsigned n, \
        unsigned k, unsigned lda, unsigned ldb, unsigned ldc, float alpha, float beta

namespace {

using std::size_t;

__device__ inline void store_c(float* c, size_t index, float acc, float alpha, float beta) {
    const float scaled = alpha * acc;
    c[index] = beta == 0.0f ? scaled + 0.0f : __builtin_fmaf(beta, c[index], scaled);
}

// One work-item per C element of a 16x16 tile; `lanes_walk_m` picks which
// index consecutive lanes take.
template <bool lanes_walk_m>
__device__ void one_per_element(SGEMM_PARAMETERS) {
    const unsigned fast = threadIdx.x % 16, slow = threadIdx.x / 16;
    const unsigned row = blockIdx.x * 16 + (lanes_walk_m ? fast : slow);
    const unsigned col = blockIdx.y * 16 + (lanes_walk_m ? slow : fast);
    if (row >= m || col >= n) return;
    float acc = 0.0f;
    for (unsigned p = 0; p < k; ++p) acc = __builtin_fmaf(a[row + size_t(p) * lda], b[p + size_t(col) * ldb], acc);
    store_c(c, row + size_t(col) * ldc, acc, alpha, beta);
}

}  // namespace

extern "C" __global__ void __launch_bounds__(256) dppgemm_progression_naive(SGEMM_PARAMETERS) {
    one_per_element<false>(a, b, c, m, n, k, lda, ldb, ldc, alpha, beta);
}

extern "C" __global__ void __launch_bounds__(256) dppgemm_progression_coalesced(SGEMM_PARAMETERS) {
    one_per_element<true>(a, b, c, m, n, k, lda, ldb, ldc, alpha, beta);
}

// 16x16 tiles of A (m-major, as in memory) and B (k-major, as in memory) in
// LDS: each work-item loads one value of each per tile, 16 k per barrier pair.
extern "C" __global__ void __launch_bounds__(256) dppgemm_progression_lds_tile(SGEMM_PARAMETERS) {
    constexpr unsigned tile = 16;
    (void)m, (void)n;                 // multiples of the tile (the host refuses other sizes)
    __shared__ float as[tile][tile];  // [k][m]
    __shared__ float bs[tile][tile];  // [n][k]
    const unsigned tx = threadIdx.x % tile, ty = threadIdx.x / tile;
    const unsigned m0 = blockIdx.x * tile, n0 = blockIdx.y * tile;
    float acc = 0.0f;
    for (unsigned k0 = 0; k0 < k; k0 += tile) {
        as[ty][tx] = a[m0 + tx + size_t(k0 + ty) * lda];
        bs[ty][tx] = b[k0 + tx + size_t(n0 + ty) * ldb];
        __syncthreads();
        for (unsigned p = 0; p < tile; ++p) acc = __builtin_fmaf(as[p][tx], bs[ty][p], acc);
        __syncthreads();
    }
    store_c(c, m0 + tx + size_t(n0 + ty) * ldc, acc, alpha, beta);
}

// 64x64 tile, 8 k per LDS tile; work-item (tx, ty) computes C(m0 + tx,
// n0 + 16 ty + j), j < 16: the A value it reads from LDS serves 16 FMAs, the B
// values are the same address for the whole wave (an LDS broadcast).
extern "C" __global__ void __launch_bounds__(256) dppgemm_progression_tile_1d(SGEMM_PARAMETERS) {
    constexpr unsigned tile = 64, depth = 8, per_item = 16;
    (void)m, (void)n;                  // multiples of the tile (the host refuses other sizes)
    __shared__ float as[depth][tile];  // [k][m]
    __shared__ float bs[tile][depth];  // [n][k]
    const unsigned t = threadIdx.x, tx = t % tile, ty = t / tile;
    const unsigned m0 = blockIdx.x * tile, n0 = blockIdx.y * tile;
    float acc[per_item] = {};
    for (unsigned k0 = 0; k0 < k; k0 += depth) {
        for (unsigned e = t; e < tile * depth; e += 256) {
            as[e / tile][e % tile] = a[m0 + e % tile + size_t(k0 + e / tile) * lda];
            bs[e / depth][e % depth] = b[k0 + e % depth + size_t(n0 + e / depth) * ldb];
        }
        __syncthreads();
        for (unsigned p = 0; p < depth; ++p) {
            const float av = as[p][tx];
            for (unsigned j = 0; j < per_item; ++j) acc[j] = __builtin_fmaf(av, bs[ty * per_item + j][p], acc[j]);
        }
        __syncthreads();
    }
    for (unsigned j = 0; j < per_item; ++j)
        store_c(c, m0 + tx + size_t(n0 + ty * per_item + j) * ldc, acc[j], alpha, beta);
}

namespace {

// The 128x128 steps share one body; each flag is one step of the progression.
struct Tile2dSteps {
    bool vector_loads;     // float4 global loads, A stored to LDS as one float4, A read from LDS as float4
    bool b_k_major;        // B stored [k][n] in LDS (transposed while stored), read as float4
    unsigned b_pad;        // floats of padding per [k] row of B
    bool split_blocks;     // a work-item's 8 rows (columns) are two runs of 4, 64 apart
    bool double_buffered;  // two LDS buffers, next tile's loads before this tile's FMAs
};

constexpr unsigned big_tile = 128, big_depth = 8, block_items = 8;

// Row (or column) within the tile of item i < 8 of the work-item at position
// `lane16` < 16: 8 consecutive ones, or two runs of 4 that are 64 apart, so
// that 16 lanes reading their first (second) 4 read 256 contiguous bytes.
template <Tile2dSteps s>
__device__ inline unsigned block_index(unsigned lane16, unsigned i) {
    return s.split_blocks ? (i / 4) * 64 + lane16 * 4 + i % 4 : lane16 * block_items + i;
}

template <Tile2dSteps s>
struct Tile2dLds {
    static constexpr unsigned a_row = big_tile;  // floats per k of A ([k][m])
    static constexpr unsigned b_row = s.b_k_major ? big_tile + s.b_pad : big_depth;
    static constexpr unsigned b_rows = s.b_k_major ? big_depth : big_tile;
    static constexpr unsigned buffers = s.double_buffered ? 2 : 1;
};

// What one work-item loads of one 128x8 A and 8x128 B tile: 4 floats of each.
struct TileLoad {
    float a[4], b[4];
};

template <Tile2dSteps s>
__device__ inline TileLoad load_tile(const float* a, const float* b, unsigned lda, unsigned ldb, unsigned m0,
                                     unsigned n0, unsigned k0) {
    const unsigned t = threadIdx.x;
    TileLoad v;
    if (s.vector_loads) {
        // A: lanes 0..31 take 4 consecutive m each at one k; B: lane pairs take 8 consecutive k of one n.
        const float4 av = *reinterpret_cast<const float4*>(a + m0 + 4 * (t % 32) + size_t(k0 + t / 32) * lda);
        const float4 bv = *reinterpret_cast<const float4*>(b + k0 + 4 * (t % 2) + size_t(n0 + t / 2) * ldb);
        v = {{av.x, av.y, av.z, av.w}, {bv.x, bv.y, bv.z, bv.w}};
    } else {
        for (unsigned i = 0; i < 4; ++i) {
            const unsigned e = t + 256 * i;
            v.a[i] = a[m0 + e % big_tile + size_t(k0 + e / big_tile) * lda];
            v.b[i] = b[k0 + e % big_depth + size_t(n0 + e / big_depth) * ldb];
        }
    }
    return v;
}

template <Tile2dSteps s>
__device__ inline void store_tile(const TileLoad& v, float* as, float* bs) {
    using L = Tile2dLds<s>;
    const unsigned t = threadIdx.x;
    if (s.vector_loads) {
        // A's 4 values are consecutive in m: one float4 store at (k = t / 32, m = 4 (t % 32)).
        *reinterpret_cast<float4*>(as + (t / 32) * L::a_row + 4 * (t % 32)) = {v.a[0], v.a[1], v.a[2], v.a[3]};
        // B's 4 values are consecutive in k: one float4 as loaded, or 4 stores a row apart when transposed.
        const unsigned bk = 4 * (t % 2), bn = t / 2;
        if (s.b_k_major) {
            for (unsigned i = 0; i < 4; ++i) bs[(bk + i) * L::b_row + bn] = v.b[i];
        } else {
            *reinterpret_cast<float4*>(bs + bn * L::b_row + bk) = {v.b[0], v.b[1], v.b[2], v.b[3]};
        }
        return;
    }
    for (unsigned i = 0; i < 4; ++i) {
        const unsigned e = t + 256 * i;
        as[(e / big_tile) * L::a_row + e % big_tile] = v.a[i];
        bs[s.b_k_major ? (e % big_depth) * L::b_row + e / big_depth : (e / big_depth) * L::b_row + e % big_depth] =
            v.b[i];
    }
}

template <Tile2dSteps s>
__device__ inline void multiply_tile(const float* as, const float* bs, float (&acc)[block_items][block_items]) {
    using L = Tile2dLds<s>;
    const unsigned tx = threadIdx.x % 16, ty = threadIdx.x / 16;
    for (unsigned p = 0; p < big_depth; ++p) {
        float av[block_items], bv[block_items];
        const float* arow = as + p * L::a_row;
        if (s.vector_loads) {
            const float4 lo = *reinterpret_cast<const float4*>(arow + block_index<s>(tx, 0));
            const float4 hi = *reinterpret_cast<const float4*>(arow + block_index<s>(tx, 4));
            av[0] = lo.x, av[1] = lo.y, av[2] = lo.z, av[3] = lo.w, av[4] = hi.x, av[5] = hi.y, av[6] = hi.z,
            av[7] = hi.w;
        } else {
            for (unsigned i = 0; i < block_items; ++i) av[i] = arow[block_index<s>(tx, i)];
        }
        if (s.b_k_major) {
            const float* brow = bs + p * L::b_row;
            const float4 lo = *reinterpret_cast<const float4*>(brow + block_index<s>(ty, 0));
            const float4 hi = *reinterpret_cast<const float4*>(brow + block_index<s>(ty, 4));
            bv[0] = lo.x, bv[1] = lo.y, bv[2] = lo.z, bv[3] = lo.w, bv[4] = hi.x, bv[5] = hi.y, bv[6] = hi.z,
            bv[7] = hi.w;
        } else {
            for (unsigned j = 0; j < block_items; ++j) bv[j] = bs[block_index<s>(ty, j) * L::b_row + p];
        }
        for (unsigned i = 0; i < block_items; ++i)
            for (unsigned j = 0; j < block_items; ++j) acc[i][j] = __builtin_fmaf(av[i], bv[j], acc[i][j]);
    }
}

// 128x128 tile, 8 k per LDS tile, 256 work-items as 16x16; work-item (tx, ty)
// computes the 8x8 block C(m0 + block_index(tx, i), n0 + block_index(ty, j)).
template <Tile2dSteps s>
__device__ void tile_2d(SGEMM_PARAMETERS) {
    using L = Tile2dLds<s>;
    (void)m, (void)n;  // multiples of the tile (the host refuses other sizes)
    __shared__ __attribute__((aligned(16))) float as[L::buffers][big_depth * L::a_row];
    __shared__ __attribute__((aligned(16))) float bs[L::buffers][L::b_rows * L::b_row];
    const unsigned m0 = blockIdx.x * big_tile, n0 = blockIdx.y * big_tile;
    float acc[block_items][block_items] = {};
    if (s.double_buffered) {
        unsigned current = 0;
        if (k > 0) store_tile<s>(load_tile<s>(a, b, lda, ldb, m0, n0, 0), as[0], bs[0]);
        __syncthreads();
        for (unsigned k0 = 0; k0 < k; k0 += big_depth) {
            const bool more = k0 + big_depth < k;
            TileLoad next{};
            if (more) next = load_tile<s>(a, b, lda, ldb, m0, n0, k0 + big_depth);
            multiply_tile<s>(as[current], bs[current], acc);
            if (more) store_tile<s>(next, as[current ^ 1], bs[current ^ 1]);
            __syncthreads();
            current ^= 1;
        }
    } else {
        for (unsigned k0 = 0; k0 < k; k0 += big_depth) {
            store_tile<s>(load_tile<s>(a, b, lda, ldb, m0, n0, k0), as[0], bs[0]);
            __syncthreads();
            multiply_tile<s>(as[0], bs[0], acc);
            __syncthreads();
        }
    }
    const unsigned tx = threadIdx.x % 16, ty = threadIdx.x / 16;
    for (unsigned j = 0; j < block_items; ++j)
        for (unsigned i = 0; i < block_items; ++i)
            store_c(c, m0 + block_index<s>(tx, i) + size_t(n0 + block_index<s>(ty, j)) * ldc, acc[i][j], alpha, beta);
}

}  // namespace

extern "C" __global__ void __launch_bounds__(256) dppgemm_progression_tile_2d(SGEMM_PARAMETERS) {
    tile_2d<Tile2dSteps{false, false, 0, false, false}>(a, b, c, m, n, k, lda, ldb, ldc, alpha, beta);
}

extern "C" __global__ void __launch_bounds__(256) dppgemm_progression_vector_loads(SGEMM_PARAMETERS) {
    tile_2d<Tile2dSteps{true, false, 0, false, false}>(a, b, c, m, n, k, lda, ldb, ldc, alpha, beta);
}

extern "C" __global__ void __launch_bounds__(256) dppgemm_progression_b_transposed(SGEMM_PARAMETERS) {
    tile_2d<Tile2dSteps{true, true, 0, false, false}>(a, b, c, m, n, k, lda, ldb, ldc, alpha, beta);
}

extern "C" __global__ void __launch_bounds__(256) dppgemm_progression_b_padded(SGEMM_PARAMETERS) {
    tile_2d<Tile2dSteps{true, true, 4, false, false}>(a, b, c, m, n, k, lda, ldb, ldc, alpha, beta);
}

extern "C" __global__ void __launch_bounds__(256) dppgemm_progression_split_blocks(SGEMM_PARAMETERS) {
    tile_2d<Tile2dSteps{true, true, 4, true, false}>(a, b, c, m, n, k, lda, ldb, ldc, alpha, beta);
}

extern "C" __global__ void __launch_bounds__(256) dppgemm_progression_double_buffered(SGEMM_PARAMETERS) {
    tile_2d<Tile2dSteps{true, true, 4, true, true}>(a, b, c, m, n, k, lda, ldb, ldc, alpha, beta);
}
