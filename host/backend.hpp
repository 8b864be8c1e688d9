// What the dispatcher (sgemm.cpp) hands a backend, and what backends share.
#pragma once

#include "dppgemm/code_objects.h"
#include "dppgemm/dppgemm.hpp"
#include "dppgemm/kernargs.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace dppgemm::detail {

// A checked SGEMM call with host pointers.
struct Problem : SgemmCall {
    bool a_transposed() const { return trans_a != 'N' && trans_a != 'n'; }
    bool b_transposed() const { return trans_b != 'N' && trans_b != 'n'; }
    std::string layout() const { return std::string(1, a_transposed() ? 'T' : 'N') + (b_transposed() ? 'T' : 'N'); }
    // Elements a column-major matrix of this shape spans: (cols - 1) * ld + rows.
    static std::size_t extent(int rows, int cols, int ld) {
        return rows == 0 || cols == 0 ? 0 : std::size_t(cols - 1) * std::size_t(ld) + std::size_t(rows);
    }
    std::size_t a_elements() const { return a_transposed() ? extent(k, m, lda) : extent(m, k, lda); }
    std::size_t b_elements() const { return b_transposed() ? extent(n, k, ldb) : extent(k, n, ldb); }
    std::size_t c_elements() const { return extent(m, n, ldc); }
    // Workgroups: one per macro_tile x macro_tile tile of C (the kernel's row
    // of the variant table; in 64 bits: N + 127 overflows an int for N near 2^31).
    std::uint32_t tiles_m(unsigned macro_tile) const {
        return std::uint32_t((std::int64_t(m) + macro_tile - 1) / macro_tile);
    }
    std::uint32_t tiles_n(unsigned macro_tile) const {
        return std::uint32_t((std::int64_t(n) + macro_tile - 1) / macro_tile);
    }
    // Reference BLAS reads A and B only when alpha != 0 and K > 0 (docs/host.md).
    bool reads_a_and_b() const { return alpha != 0.0f && k > 0; }
};

dppgemm_sgemm_kernargs make_kernargs(const Problem& p, std::uint64_t a, std::uint64_t b, std::uint64_t c);

// An upper bound of the instructions one wave of a dppgemm SGEMM kernel runs
// for K: the emulator's watchdog for the launch, which the default (2^28,
// about K = 3.6 million) would otherwise stop as an endless loop. The kernels
// run about 600 instructions per 8-k step (tests/host checks the bound).
std::uint64_t sgemm_wave_instruction_bound(int k);

// gfx90a:sramecc+:xnack- -> gfx90a
std::string base_arch(const std::string& gcn_arch_name);

// The embedded code object for a target, Options::variant (`best`: per
// problem, by tuning table or fixed rule) and the problem's layout.
const dppgemm_code_object* choose_code_object(const std::string& target, const Options& options, const Problem& p);
// The macro tile of a code object's kernel (its variant table row).
unsigned macro_tile_of(const dppgemm_code_object& co);

// Backends fill status, message, target, kernel, counters and timing.
Result run_hip(const Problem& p, const Options& options);
Result run_emu(const Problem& p, const Options& options);

}  // namespace dppgemm::detail
