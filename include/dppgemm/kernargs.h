/* Kernel arguments of every dppgemm SGEMM code object, in the order and at the
 * offsets its code-object metadata declares (tests/kernels checks both).
 *
 * Launch: block (256, 1, 1); grid in workgroups (ceil(M/128), ceil(N/128), 1),
 * i.e. hipModuleLaunchKernel(f, ceil(M/128), ceil(N/128), 1, 256, 1, 1, ...).
 * Column-major BLAS semantics: C = alpha * op(A) * op(B) + beta * C, where the
 * transposes are part of the kernel (layout NN, NT, TN or TT). M, N >= 1 (do
 * not launch an empty grid); K >= 0; lda/ldb/ldc as reference BLAS requires.
 * beta == 0 never reads C; alpha == 0 never reads A or B. Leading dimensions
 * of k-contiguous operands (A of TN/TT, B of NN/TN) and ldc must be < 2^22,
 * those of M/N-contiguous ones (A of NN/NT, B of NT/TT) <= 76695826: tile
 * offsets are 32-bit and below 2^31 bytes (docs/kernels.md).
 */
#ifndef DPPGEMM_KERNARGS_H
#define DPPGEMM_KERNARGS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dppgemm_sgemm_kernargs {
    uint64_t a;      /* device address of A */
    uint64_t b;      /* device address of B */
    uint64_t c;      /* device address of C */
    uint32_t size_m; /* rows of op(A) and C */
    uint32_t size_n; /* columns of op(B) and C */
    uint32_t size_k; /* columns of op(A), rows of op(B) */
    uint32_t lda;
    uint32_t ldb;
    uint32_t ldc;
    float alpha;
    float beta;
} dppgemm_sgemm_kernargs;

enum {
    DPPGEMM_SGEMM_BLOCK_SIZE = 256,
    DPPGEMM_SGEMM_MACRO_TILE = 128,
    DPPGEMM_SGEMM_UNROLL = 8,
    DPPGEMM_SGEMM_KERNARGS_SIZE = 56
};

#ifdef __cplusplus
}
static_assert(sizeof(dppgemm_sgemm_kernargs) == DPPGEMM_SGEMM_KERNARGS_SIZE, "kernarg layout");
#endif

#endif
