// Host SGEMM that performs exactly the floating-point operations of the
// dppgemm kernels, in the same order, so results compare bit for bit:
//   acc = +0; for k in [0, ceil(K/8)*8): acc = mac(acc, op(A)(m,k), op(B)(k,n))
//     (elements past K are +0; no k loop at all when alpha == 0)
//   r = alpha * acc;  if beta != 0: r = mac(r, beta, C(m,n));  C(m,n) = r
//   (K = 0 with an infinite or NaN alpha: alpha = 0, as dppgemm::sgemm runs it,
//   so that C = beta C as in reference BLAS, not NaN)
// mac is the target's instruction: v_mac_f32 (round(a*b), then round(+c)) or
// v_fmac_f32 (fused, one rounding). The kernels run with fp32 denormals
// flushed (inputs and results), so the reference flushes them too.
// When two NaNs meet, which one survives is the host's choice (x86 keeps the
// first operand, and compilers may swap the operands of + and *): compare NaN
// results as NaN, not by their bits.
#pragma once

#include <cstdint>
#include <string_view>

#include "dppgemm/dppgemm.hpp"

namespace dppgemm {

enum class MacKind : std::uint8_t { mac_f32, fmac_f32 };

// The multiply-add the kernel of `variant` performs on `target` ("gfx90a";
// target-id suffixes ignored; `best` is resolved for the target): fused when
// the variant's row sets FMAC=1 (packed: v_pk_fma_f32 is fused, so its blend
// is too) or the target has no v_mac_f32 (gfx940+), else v_mac_f32.
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
