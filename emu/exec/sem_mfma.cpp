// Dense MFMA (matrix fused multiply-add) on gfx908+: D = A x B + C per block,
// with the CBSZ/ABID broadcast of A blocks and the BLGP lane swizzle of B.
//
// Layouts ([CALC]: AMD's matrix instruction calculator, InstCalcGfx9; formulas
// as /work/shared/design/mfma.md section 1 gives them), for an M x N x K op
// with B blocks and `bits`-wide inputs:
//   A[b][i][k]: kpl = K*M*B/64 values per lane; slot = k % kpl;
//     dword slot / (32/bits), element slot % (32/bits) (low bits first),
//     lane b*M + (k/kpl)*M*B + i.  B[b][k][j]: the same with N and j.
//   C/D[b][i][j]: R = 64/N, BpR = ceil(64/(M*N/4));
//     dword b*(M*N/64) + (i/(4R))*4 + i%4, lane (b%BpR)*N + ((i/4)%R)*BpR*N + j.
//   CBSZ/ABID: block b takes A from block (b >> cbsz << cbsz) + abid.
//   BLGP: B's lane l is read from lane [l, l%32, 32+l%32, (l+16)%64, l%16,
//     16+l%16, 32+l%16, 48+l%16][blgp].
//
// Numerics (a model: no CDNA hardware was measured). Per the CDNA ISA guides
// ([CDNA4] section 7.1.2 for all MFMAs but F8F6F4): round to nearest even,
// EXEC ignored (every lane computes and is written), C and D never flushed.
//   - K = 1 f32 ops: D = fma(a, b, c) per element, one rounding.
//   - K > 1: a chain of fused multiply-adds in k order starting from C,
//     acc = fma(a_k, b_k, acc) rounded to f32 at every step (the order
//     AMD's rocjitsu uses; the guides do not publish it).
//   - f32 A/B inputs follow MODE's fp32 input flush (Tensile PR #1475:
//     "SGEMM MFMA follows the MODE FTZ flags"); f16/bf16 products are exact in
//     f32, so the fma chain rounds only the sums; on targets with the
//     mfma_f16_flush feature (MI200) f16/bf16 denormal inputs and results are
//     flushed to zero (MIOpen, "MI200 alternate implementation").
//   - xf32 inputs are f32 truncated to tf32 (10 stored mantissa bits, round
//     toward zero: ROCm/rocm-libraries PR #9176).
//   - int8: exact products, sums wrap modulo 2^32.
//   - f64 (mfma_f64 below): the same fma chain in f64, nothing flushed.
// All of A, B and C are read before D is written (D may overlap them).
//
// Faults (FaultKind::invalid_operand): CBSZ above log2(blocks) or ABID not
// below 2^CBSZ, CBSZ/ABID on an op without them (f64), BLGP where the op has
// none (gfx940+ double-rate ops, f64 on gfx90a), a register tuple past
// register 255. Tuples past the allocation or misaligned on gfx90a+ fault
// before (register_operand_error, program.hpp).

#include "emu/exec/mfma.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "emu/exec/semantics.hpp"
#include "emu/util.hpp"

namespace dppgemm::emu {
namespace {

using I = MfmaInput;

struct ShapeRow {
    Op op;
    MfmaShape shape;
};

// clang-format off
constexpr ShapeRow shape_rows[] = {
    // f32
    {Op::v_mfma_f32_32x32x1f32,      {32, 32, 1, 2, I::f32, 16, 16}},
    {Op::v_mfma_f32_32x32x1_2b_f32,  {32, 32, 1, 2, I::f32, 16, 16}},
    {Op::v_mfma_f32_16x16x1f32,      {16, 16, 1, 4, I::f32, 8, 8}},
    {Op::v_mfma_f32_16x16x1_4b_f32,  {16, 16, 1, 4, I::f32, 8, 8}},
    {Op::v_mfma_f32_4x4x1f32,        {4, 4, 1, 16, I::f32, 2, 2}},
    {Op::v_mfma_f32_4x4x1_16b_f32,   {4, 4, 1, 16, I::f32, 2, 2}},
    {Op::v_mfma_f32_32x32x2f32,      {32, 32, 2, 1, I::f32, 16, 16}},
    {Op::v_mfma_f32_32x32x2_f32,     {32, 32, 2, 1, I::f32, 16, 16}},
    {Op::v_mfma_f32_16x16x4f32,      {16, 16, 4, 1, I::f32, 8, 8}},
    {Op::v_mfma_f32_16x16x4_f32,     {16, 16, 4, 1, I::f32, 8, 8}},
    // xf32 (gfx940+)
    {Op::v_mfma_f32_16x16x8_xf32,    {16, 16, 8, 1, I::xf32, 0, 4, false}},
    {Op::v_mfma_f32_32x32x4_xf32,    {32, 32, 4, 1, I::xf32, 0, 8, false}},
    // f16
    {Op::v_mfma_f32_32x32x4f16,      {32, 32, 4, 2, I::f16, 16, 16}},
    {Op::v_mfma_f32_32x32x4_2b_f16,  {32, 32, 4, 2, I::f16, 16, 16}},
    {Op::v_mfma_f32_16x16x4f16,      {16, 16, 4, 4, I::f16, 8, 8}},
    {Op::v_mfma_f32_16x16x4_4b_f16,  {16, 16, 4, 4, I::f16, 8, 8}},
    {Op::v_mfma_f32_4x4x4f16,        {4, 4, 4, 16, I::f16, 2, 2}},
    {Op::v_mfma_f32_4x4x4_16b_f16,   {4, 4, 4, 16, I::f16, 2, 2}},
    {Op::v_mfma_f32_32x32x8f16,      {32, 32, 8, 1, I::f16, 16, 8}},
    {Op::v_mfma_f32_32x32x8_f16,     {32, 32, 8, 1, I::f16, 16, 8, false}},
    {Op::v_mfma_f32_16x16x16f16,     {16, 16, 16, 1, I::f16, 8, 4}},
    {Op::v_mfma_f32_16x16x16_f16,    {16, 16, 16, 1, I::f16, 8, 4, false}},
    // bf16: two per dword (gfx908/gfx90a), and the _1k forms (gfx90a; renamed on gfx940)
    {Op::v_mfma_f32_32x32x2bf16,     {32, 32, 2, 2, I::bf16, 16, 16}},
    {Op::v_mfma_f32_16x16x2bf16,     {16, 16, 2, 4, I::bf16, 8, 8}},
    {Op::v_mfma_f32_4x4x2bf16,       {4, 4, 2, 16, I::bf16, 2, 2}},
    {Op::v_mfma_f32_32x32x4bf16,     {32, 32, 4, 1, I::bf16, 16, 16}},
    {Op::v_mfma_f32_16x16x8bf16,     {16, 16, 8, 1, I::bf16, 8, 8}},
    {Op::v_mfma_f32_32x32x4bf16_1k,  {32, 32, 4, 2, I::bf16, 16, 16}},
    {Op::v_mfma_f32_32x32x4_2b_bf16, {32, 32, 4, 2, I::bf16, 16, 16}},
    {Op::v_mfma_f32_16x16x4bf16_1k,  {16, 16, 4, 4, I::bf16, 8, 8}},
    {Op::v_mfma_f32_16x16x4_4b_bf16, {16, 16, 4, 4, I::bf16, 8, 8}},
    {Op::v_mfma_f32_4x4x4bf16_1k,    {4, 4, 4, 16, I::bf16, 2, 2}},
    {Op::v_mfma_f32_4x4x4_16b_bf16,  {4, 4, 4, 16, I::bf16, 2, 2}},
    {Op::v_mfma_f32_32x32x8bf16_1k,  {32, 32, 8, 1, I::bf16, 16, 8}},
    {Op::v_mfma_f32_32x32x8_bf16,    {32, 32, 8, 1, I::bf16, 16, 8, false}},
    {Op::v_mfma_f32_16x16x16bf16_1k, {16, 16, 16, 1, I::bf16, 8, 4}},
    {Op::v_mfma_f32_16x16x16_bf16,   {16, 16, 16, 1, I::bf16, 8, 4, false}},
    // int8 (gfx940 passes of the double-K forms: by analogy with f16, assumed)
    {Op::v_mfma_i32_32x32x4i8,       {32, 32, 4, 2, I::i8, 16, 16}},
    {Op::v_mfma_i32_32x32x4_2b_i8,   {32, 32, 4, 2, I::i8, 16, 16}},
    {Op::v_mfma_i32_16x16x4i8,       {16, 16, 4, 4, I::i8, 8, 8}},
    {Op::v_mfma_i32_16x16x4_4b_i8,   {16, 16, 4, 4, I::i8, 8, 8}},
    {Op::v_mfma_i32_4x4x4i8,         {4, 4, 4, 16, I::i8, 2, 2}},
    {Op::v_mfma_i32_4x4x4_16b_i8,    {4, 4, 4, 16, I::i8, 2, 2}},
    {Op::v_mfma_i32_32x32x8i8,       {32, 32, 8, 1, I::i8, 16, 16}},
    {Op::v_mfma_i32_16x16x16i8,      {16, 16, 16, 1, I::i8, 8, 8}},
    {Op::v_mfma_i32_32x32x16_i8,     {32, 32, 16, 1, I::i8, 0, 8}},
    {Op::v_mfma_i32_16x16x32_i8,     {16, 16, 32, 1, I::i8, 0, 4}},
    // f64 (gfx90a+): 8 and 4 passes ([CALC] 32 and 16 cycles; SISchedule.td Write8PassDGEMM,
    // Write4PassDGEMM); no CBSZ/ABID, no BLGP on gfx90a; on gfx940+ the BLGP bits negate A, B, C.
    {Op::v_mfma_f64_16x16x4f64,      {16, 16, 4, 1, I::f64, 8, 8, true, false, false}},
    {Op::v_mfma_f64_16x16x4_f64,     {16, 16, 4, 1, I::f64, 8, 8, true, false, false}},
    {Op::v_mfma_f64_4x4x4f64,        {4, 4, 4, 4, I::f64, 4, 4, true, false, false}},
    {Op::v_mfma_f64_4x4x4_4b_f64,    {4, 4, 4, 4, I::f64, 4, 4, true, false, false}},
};
// clang-format on

const std::array<MfmaShape, op_count>& shape_table() {
    static const std::array<MfmaShape, op_count> table = [] {
        std::array<MfmaShape, op_count> t{};
        for (const ShapeRow& r : shape_rows) t[static_cast<std::size_t>(r.op)] = r.shape;
        return t;
    }();
    return table;
}

}  // namespace

const MfmaShape& mfma_shape(Op op) { return shape_table()[static_cast<std::size_t>(op)]; }

namespace sem {
namespace {

constexpr unsigned blgp_lane(unsigned blgp, unsigned l) {
    switch (blgp) {
    case 0: return l;
    case 1: return l % 32;
    case 2: return 32 + l % 32;
    case 3: return (l + 16) % 64;
    case 4: return l % 16;
    case 5: return 16 + l % 16;
    case 6: return 32 + l % 16;
    default: return 48 + l % 16;
    }
}

// One dword of an operand in one lane: a register, or a scalar / constant
// the same in every lane (a scalar C is one dword, splat: decode.cpp).
u32 operand_dword(const Wave& w, const Src& s, unsigned dword, unsigned lane) {
    switch (s.kind) {
    case Src::Kind::vgpr: return w.v[s.index + dword][lane];
    case Src::Kind::agpr: return w.a[s.index + dword][lane];
    case Src::Kind::sreg: return w.sreg[s.index + (dword < s.dwords ? dword : 0)];
    default: return read32(w, s);
    }
}

void check_tuple(const Src& s, unsigned dwords, const char* what) {
    if (!s.is_vector()) return;
    const char file = s.kind == Src::Kind::agpr ? 'a' : 'v';
    if (s.index + dwords > 256)
        fail(FaultKind::invalid_operand, std::string("MFMA ") + what + " " + file + "[" + std::to_string(s.index) +
                                             ":" + std::to_string(s.index + dwords - 1) + "] runs past register 255");
}

float f16_to_float(u32 h) {
    const u32 sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
    if (exp == 0x1f) return fp::as_float(sign | 0x7f800000u | (mant << 13));
    if (exp) return fp::as_float(sign | ((exp + 112) << 23) | (mant << 13));
    const float magnitude = std::ldexp(static_cast<float>(mant), -24);
    return sign ? -magnitude : magnitude;
}

u32 flush_f16(u32 h) { return (h & 0x7c00u) ? h : (h & 0x8000u); }

// One input element as a float (or integer, for i8) of the multiply.
struct Element {
    float f;
    std::int32_t i;
};

Element input_element(MfmaInput in, u32 dword, unsigned sub, bool flush_f32, bool flush_half) {
    switch (in) {
    case MfmaInput::f32: return {fp::as_float(flush_f32 ? fp::flush(dword) : dword), 0};
    case MfmaInput::xf32: {
        const u32 bits = flush_f32 ? fp::flush(dword) : dword;
        const bool nan = (bits & 0x7f800000u) == 0x7f800000u && (bits & 0x7fffffu);
        return {fp::as_float(nan ? bits : bits & 0xffffe000u), 0};
    }
    case MfmaInput::f16: {
        const u32 h = (dword >> (16 * sub)) & 0xffffu;
        return {f16_to_float(flush_half ? flush_f16(h) : h), 0};
    }
    case MfmaInput::bf16: {
        const u32 bits = ((dword >> (16 * sub)) & 0xffffu) << 16;
        return {fp::as_float(flush_half ? fp::flush(bits) : bits), 0};
    }
    case MfmaInput::i8: return {0.0f, static_cast<std::int8_t>((dword >> (8 * sub)) & 0xffu)};
    case MfmaInput::f64: break;  // mfma_f64 reads register pairs itself
    }
    return {0.0f, 0};
}

// Faults on modifiers the op does not take and on register tuples it
// cannot use, naming them.
void check_operands(const Inst& inst, const ExecInst& e, const MfmaShape& s, Target target) {
    const unsigned B = s.blocks;
    unsigned log2_blocks = 0;
    while ((1u << log2_blocks) < B) ++log2_blocks;
    if (!s.broadcast && (inst.cbsz || inst.abid))
        fail(FaultKind::invalid_operand, "MFMA cbsz:" + std::to_string(inst.cbsz) + " abid:" +
                                             std::to_string(inst.abid) + ": this instruction has no CBSZ/ABID");
    if (inst.cbsz > log2_blocks)
        fail(FaultKind::invalid_operand, "MFMA cbsz:" + std::to_string(inst.cbsz) +
                                             " is out of range: " + std::to_string(B) +
                                             " block(s) allow at most cbsz:" + std::to_string(log2_blocks));
    if (inst.abid >= (1u << inst.cbsz))
        fail(FaultKind::invalid_operand, "MFMA abid:" + std::to_string(inst.abid) +
                                             " is out of range for cbsz:" + std::to_string(inst.cbsz) + " (at most " +
                                             std::to_string((1u << inst.cbsz) - 1) + ")");
    const bool cdna3 = has(target, Feature::gfx940_insts);
    if (inst.blgp && !(cdna3 ? s.blgp_cdna3 : s.blgp_cdna12))
        fail(FaultKind::invalid_operand,
             "MFMA blgp:" + std::to_string(inst.blgp) + ": this instruction has no BLGP on " + target_name(target));
    check_tuple(e.src[0], s.a_dwords(), "A");
    check_tuple(e.src[1], s.b_dwords(), "B");
    check_tuple(e.src[2], s.cd_dwords(), "C");
    check_tuple(e.dst, s.cd_dwords(), "D");
}

// Dense f32/xf32/f16/bf16/int8 MFMA.
void mfma(Wave& w, const ExecInst& e) {
    const Inst& inst = *e.inst;
    const MfmaShape& s = mfma_shape(inst.op);
    const Target target = w.group->env->program->target;
    check_operands(inst, e, s, target);
    const unsigned M = s.m, N = s.n, K = s.k, B = s.blocks, bits = s.input_bits();
    const unsigned per_dword = 32 / bits;
    const unsigned kpl_a = K * M * B / 64, kpl_b = K * N * B / 64;
    const unsigned cd_dwords = s.cd_dwords();

    const bool flush_f32 = flushes_inputs(denorm_32(w));
    const bool flush_half = has(target, Feature::mfma_f16_flush);
    const bool integer = s.input == MfmaInput::i8;

    // Everything is read before D is written.
    alignas(64) u32 out[32][64];
    for (unsigned b = 0; b < B; ++b) {
        const unsigned a_block = ((b >> inst.cbsz) << inst.cbsz) + inst.abid;
        for (unsigned i = 0; i < M; ++i) {
            const unsigned R = 64 / N, blocks_per_row = (64 + M * N / 4 - 1) / (M * N / 4);
            const unsigned d_dword = b * (M * N / 64) + (i / (4 * R)) * 4 + i % 4;
            for (unsigned j = 0; j < N; ++j) {
                const unsigned d_lane = (b % blocks_per_row) * N + ((i / 4) % R) * blocks_per_row * N + j;
                const u32 c = operand_dword(w, e.src[2], d_dword, d_lane);
                float acc = fp::as_float(c);
                u32 acc_i = c;
                for (unsigned k = 0; k < K; ++k) {
                    const unsigned slot_a = k % kpl_a, slot_b = k % kpl_b;
                    const unsigned a_lane = a_block * M + (k / kpl_a) * M * B + i;
                    const unsigned b_lane = blgp_lane(inst.blgp, b * N + (k / kpl_b) * N * B + j);
                    const Element x = input_element(s.input, operand_dword(w, e.src[0], slot_a / per_dword, a_lane),
                                                    slot_a % per_dword, flush_f32, flush_half);
                    const Element y = input_element(s.input, operand_dword(w, e.src[1], slot_b / per_dword, b_lane),
                                                    slot_b % per_dword, flush_f32, flush_half);
                    if (integer) acc_i += static_cast<u32>(x.i) * static_cast<u32>(y.i);
                    else acc = std::fma(x.f, y.f, acc);
                }
                u32 result = integer ? acc_i : fp::as_bits(acc);
                if (flush_half && (s.input == MfmaInput::f16 || s.input == MfmaInput::bf16)) result = fp::flush(result);
                out[d_dword][d_lane] = result;
            }
        }
    }
    for (unsigned d = 0; d < cd_dwords; ++d) std::memcpy(vreg(w, e.dst, d), out[d], sizeof out[d]);
    w.group->counters.mfma_passes += s.passes(target);
    w.group->counters.mfma_flops += s.flops();
}

// One f64 of an operand: register pair `pair` in one lane, or the constant.
// An inline float constant of a 64-bit operand is that value as a double
// (program.cpp resolves constants for 2-dword operands only; C/D are wider).
double operand_f64(const Wave& w, const ExecInst& e, unsigned src, unsigned pair, unsigned lane) {
    const Src& s = e.src[src];
    u64 bits;
    if (s.is_vector()) {
        bits = u64(operand_dword(w, s, 2 * pair, lane)) | u64(operand_dword(w, s, 2 * pair + 1, lane)) << 32;
    } else {
        if (s.kind == Src::Kind::imm) {
            const Operand& op = src == 0 ? e.inst->src0 : src == 1 ? e.inst->src1 : e.inst->src2;
            if (op.kind == OperandKind::inline_float)
                return static_cast<double>(fp::as_float(static_cast<u32>(op.value)));
        }
        bits = read64(w, s);
    }
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
}

// Dense f64 MFMA (DGEMM). Layouts ([CALC] InstCalcGfx9 with 64-bit
// elements): A[b][i][k] in the register pair of lane b*M + k*M*B + i (one
// k per lane); B likewise with N and j; C/D[b][i][j] with R = 64/N rows per
// pair and BpR = ceil(64/(M*N)) blocks per pair: pair b*(M*N/64) + i/R,
// lane (b%BpR)*N + (i%R)*BpR*N + j. Numerics (a model, as for f32): a chain
// of f64 fused multiply-adds in k order from C, round to nearest even, no
// denormal flush ([CDNA4] 7.1.2: MFMA keeps input and output denormals).
// gfx940+: the BLGP field is NEG, bit 0 negating A, bit 1 B, bit 2 C ([CALC]
// README, "BLGP modifier to negate FP64 input matrices").
void mfma_f64(Wave& w, const ExecInst& e) {
    const Inst& inst = *e.inst;
    const MfmaShape& s = mfma_shape(inst.op);
    const Target target = w.group->env->program->target;
    check_operands(inst, e, s, target);
    const unsigned M = s.m, N = s.n, K = s.k, B = s.blocks;
    const unsigned R = 64 / N, blocks_per_pair = (64 + M * N - 1) / (M * N);
    const bool neg_a = inst.mods.neg & 1, neg_b = inst.mods.neg & 2, neg_c = inst.mods.neg & 4;

    alignas(64) u64 out[4][64];
    for (unsigned b = 0; b < B; ++b)
        for (unsigned i = 0; i < M; ++i) {
            const unsigned pair = b * (M * N / 64) + i / R;
            for (unsigned j = 0; j < N; ++j) {
                const unsigned lane = (b % blocks_per_pair) * N + (i % R) * blocks_per_pair * N + j;
                double acc = operand_f64(w, e, 2, pair, lane);
                if (neg_c) acc = -acc;
                for (unsigned k = 0; k < K; ++k) {
                    const double x = operand_f64(w, e, 0, 0, b * M + k * M * B + i);
                    const double y = operand_f64(w, e, 1, 0, b * N + k * N * B + j);
                    acc = std::fma(neg_a ? -x : x, neg_b ? -y : y, acc);
                }
                std::memcpy(&out[pair][lane], &acc, 8);
            }
        }
    for (unsigned p = 0; p < s.cd_dwords() / 2; ++p) {
        u32* lo = vreg(w, e.dst, 2 * p);
        u32* hi = vreg(w, e.dst, 2 * p + 1);
        for (unsigned l = 0; l < 64; ++l) {
            lo[l] = static_cast<u32>(out[p][l]);
            hi[l] = static_cast<u32>(out[p][l] >> 32);
        }
    }
    w.group->counters.mfma_passes += s.passes(target);
    w.group->counters.mfma_flops += s.flops();
}

}  // namespace

void register_mfma(Table& t) {
    for (const ShapeRow& r : shape_rows)
        set(t, r.op, r.shape.input == MfmaInput::f64 ? mfma_f64 : mfma, InstClass::mfma);
}

}  // namespace sem
}  // namespace dppgemm::emu
