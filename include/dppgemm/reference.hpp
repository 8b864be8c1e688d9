// Host SGEMM that performs exactly the floating-point operations of the
// dppgemm kernels, in the same order, so results compare bit for bit:
//   no products (alpha = +-0, or K = 0 with op(A) = A):
//     C(m,n) = beta == 0 ? +0 : beta * C(m,n)
//   else:
//     acc = +0; for k in [0, ceil(K/8)*8): acc = mac(acc, op(A)(m,k), op(B)(k,n))
//       (elements past K are +0)
//     r = alpha * acc
//     beta == 0: C(m,n) = op(A) = A ? r + 0 : r
//     else:      C(m,n) = mac(r, beta, C(m,n))
// which gives reference BLAS's sign of zero where it forms beta C alone, and
// where it adds alpha-scaled products to C = +0 (op(A) = A; with op(A) = A^T
// it computes alpha * dot + beta C, as the kernels do).
// mac is the kernel's instruction: v_mac_f32 (round(a*b), then round(+c)) or
// v_fmac_f32 (fused, one rounding). Kernels with fp32 denormals flushed
// (mac_f32, fmac_f32) flush inputs and results, and so does the reference;
// fmac_f32_denormals computes IEEE binary32 (std::fma, denormals kept).
// When two NaNs meet, which one survives is the host's choice (x86 keeps the
// first operand, and compilers may swap the operands of + and *): compare NaN
// results as NaN, not by their bits.
#pragma once

#include <cstdint>
#include <string_view>

#include "dppgemm/dppgemm.hpp"

namespace dppgemm {

// mac_f32: v_mac_f32, denormals flushed; fmac_f32: v_fmac_f32 (fused),
// denormals flushed; fmac_f32_denormals: v_fmac_f32, denormals kept.
enum class MacKind : std::uint8_t { mac_f32, fmac_f32, fmac_f32_denormals };

// The multiply-add the kernel of `variant` performs on `target` ("gfx90a";
// target-id suffixes ignored; `best` is resolved for the target):
// fmac_f32_denormals when the row keeps fp32 denormals (FP32_DENORMALS=1);
// else fused when the row sets FMAC=1 (packed: v_pk_fma_f32 is fused, so its
// blend is too) or the target has no v_mac_f32 (gfx940+); else v_mac_f32.
MacKind kernel_mac_kind(Variant variant, std::string_view target);

// Column-major, BLAS argument meaning; trans_a/trans_b are 'N' or 'T'.
void reference_sgemm(MacKind mac, char trans_a, char trans_b, int m, int n, int k, float alpha, const float* a, int lda,
                     const float* b, int ldb, float beta, float* c, int ldc);

// The multiply-accumulate steps themselves (flush-to-zero), for tests.
float flush_denormal(float x);
float mac_f32_ftz(float acc, float a, float b);
float fmac_f32_ftz(float acc, float a, float b);
float mul_f32_ftz(float a, float b);

}  // namespace dppgemm
