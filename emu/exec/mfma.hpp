#pragma once
// The dense matrix-core (MFMA) instructions: each op's shape, input type and
// issue passes, declared once here; the executor (sem_mfma.cpp), the counters
// and the checkers read them.
//
// Shapes and layouts: AMD's matrix instruction calculator (ROCm/
// amd_matrix_instruction_calculator, matrix_calculator.py, InstCalcGfx9) as
// /work/shared/design/mfma.md section 1 restates it. Passes (one pass = 4
// cycles): LLVM's SISchedule.td (gfx908/gfx90a: 4x4 = 2, 16x16 = 8, 32x32 = 16;
// gfx940: per instruction), section 2 there.

#include <cstdint>

#include "emu/decode/op_table.hpp"
#include "emu/loader/target.hpp"

namespace dppgemm::emu {

enum class MfmaInput : std::uint8_t {
    f32,   // one f32 per element
    xf32,  // f32 registers, read as tf32 (gfx940+)
    f16,   // two f16 per dword
    bf16,  // two bf16 per dword (the _bf16 forms of gfx908 and the _1k forms)
    i8,    // four int8 per dword; i32 accumulators
    f64,   // one f64 per register pair; f64 accumulators (DGEMM)
};

struct MfmaShape {
    std::uint8_t m = 0, n = 0, k = 0, blocks = 0;
    MfmaInput input = MfmaInput::f32;
    std::uint8_t passes_cdna12 = 0;  // gfx908, gfx90a
    std::uint8_t passes_cdna3 = 0;   // gfx940, gfx942
    bool blgp_cdna3 = true;          // BLGP accepted on gfx940+ ([CALC] dict_insts)
    bool blgp_cdna12 = true;         // BLGP accepted on gfx908/gfx90a ([CALC] dict_insts)
    bool broadcast = true;           // CBSZ/ABID accepted on a multi-block op ([CALC] cbsz_abid)

    bool valid() const { return m != 0; }
    unsigned passes(Target t) const { return has(t, Feature::gfx940_insts) ? passes_cdna3 : passes_cdna12; }
    // Whether VALU instructions may issue while this op's passes run: yes on
    // CDNA1/2; on CDNA3 only for the XDL ops (xf32, f16, bf16, int8), not for
    // f32 and f64 ([CALC] coexec_delay and is_gfx940_xdl, mfma.md section 2).
    bool coexecutes_with_valu(Target t) const {
        return !has(t, Feature::gfx940_insts) || (input != MfmaInput::f32 && input != MfmaInput::f64);
    }
    // Multiplies and adds of one wave instruction: 2 * M * N * K * blocks.
    std::uint64_t flops() const { return 2ull * m * n * k * blocks; }
    unsigned input_bits() const {
        return input == MfmaInput::i8                                  ? 8
               : input == MfmaInput::f64                               ? 64
               : (input == MfmaInput::f16 || input == MfmaInput::bf16) ? 16
                                                                       : 32;
    }
    // C/D elements are f64 (two dwords each) for the DGEMM ops, 32-bit otherwise.
    unsigned output_bits() const { return input == MfmaInput::f64 ? 64 : 32; }
    unsigned cd_dwords() const { return m * n * blocks * (output_bits() / 32) / 64; }
    // Dwords per lane of A (rows = m) or B (rows = n): K*rows*blocks/64
    // values per lane, 32/bits of them to a dword, 64-bit inputs in pairs.
    unsigned input_dwords(unsigned rows) const {
        const unsigned per_lane = unsigned(k) * rows * blocks / 64, bits = input_bits();
        const unsigned per_dword = bits >= 32 ? 1 : 32 / bits, dwords_per_value = bits > 32 ? bits / 32 : 1;
        return (per_lane + per_dword - 1) / per_dword * dwords_per_value;
    }
    unsigned a_dwords() const { return input_dwords(m); }
    unsigned b_dwords() const { return input_dwords(n); }
};

// The shape of a dense MFMA op; !valid() for every other op (sparse
// v_smfmac and fp8/bf8 MFMAs included: not executed).
const MfmaShape& mfma_shape(Op op);

}  // namespace dppgemm::emu
