// dppgemm's progression: HIP kernels from a naive SGEMM to 128x128 tiles with
// 8x8 register blocks and double buffering, and a naive / LDS-tiled /
// padded-tile matrix transposition, compiled by hipcc for gfx906 and gfx90a
// and embedded in libdppgemm beside the assembly kernels. They run on the
// emulator like the assembly kernels (counters, cycle model), for comparing
// each step's counts with the next one's and with the DPP kernels
// (`dppgemm-bench --progression`, docs/progression.md).
//
//   auto r = dppgemm::progression_sgemm("tile_2d", m, n, k, 1, A, m, B, k, 0, C, m);
//
// One row of dppgemm/progression.def per step.
#pragma once

#include "dppgemm/dppgemm.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace dppgemm {

struct SgemmStep {
    const char* name;       // "tile_2d"; the kernel is dppgemm_progression_<name>
    unsigned block;         // work-items per workgroup
    unsigned tile_m;        // C rows per workgroup
    unsigned tile_n;        // C columns per workgroup
    unsigned tile_k;        // K per LDS tile; 1: none, any M, N, K
    unsigned vector_width;  // floats per global load: lda and ldb must be multiples
    const char* idea;
};

struct TransposeStep {
    const char* name;  // "transpose_lds_padded"
    unsigned block;    // work-items per workgroup
    unsigned tile;     // tile x tile elements per workgroup
    bool padded;       // one float of padding per LDS tile row
    const char* idea;
};

// The rows of dppgemm/progression.def, in table order.
const std::vector<SgemmStep>& sgemm_steps();
const std::vector<TransposeStep>& transpose_steps();
const SgemmStep* find_sgemm_step(std::string_view name);  // nullptr if no such row
const TransposeStep* find_transpose_step(std::string_view name);
// The targets the steps are built for ("gfx906", "gfx90a").
std::vector<std::string> progression_targets();

// Why `step` cannot compute this NN problem, e.g. "tile_2d needs M, N and K
// to be multiples of 128, 128 and 8 (M = 100)"; empty when it can.
std::string sgemm_step_restriction(const SgemmStep& step, int m, int n, int k, int lda, int ldb);

// C = alpha A B + beta C (column-major, no transposes) with the kernel of
// `step`, on the emu backend (Options::emu_target, threads, progress, model,
// model_only, model_parameters, model_parameter_sets; Options::backend hip is
// unsupported). Arguments are checked as sgemm('N', 'N', ...) checks them,
// then against the step's restriction (Status::unsupported). The result is
// bitwise equal to reference_sgemm(MacKind::fmac_f32_denormals, 'N', 'N', ...)
// (with model_only: in the tiles of ModeledTime::traced_workgroups, C's
// other elements left as they were).
Result progression_sgemm(std::string_view step, int m, int n, int k, float alpha, const float* a, int lda,
                         const float* b, int ldb, float beta, float* c, int ldc, const Options& options = {});

// out = in^T: `in` is rows x cols (column-major, ld_in >= rows), `out` cols x
// rows (ld_out >= cols); on the emu backend as progression_sgemm.
Result progression_transpose(std::string_view step, int rows, int cols, const float* in, int ld_in, float* out,
                             int ld_out, const Options& options = {});

}  // namespace dppgemm
