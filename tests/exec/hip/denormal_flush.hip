// Built with -fgpu-flush-denormals-to-zero (fp32 denorm mode 0) by
// tests/exec/test_fidelity.cpp: integer division and int -> float
// conversions go through v_cvt_f32_u32 / v_cvt_u32_f32 with integer operands
// that look like fp32 denormals.
#include <hip/hip_runtime.h>

extern "C" __global__ void integer_math(const unsigned* in, unsigned* quotient, float* half_id, int n) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < unsigned(n)) {
        quotient[i] = in[i] / (i + 1u);
        half_id[i] = (float)threadIdx.x * 0.5f;
    }
}
