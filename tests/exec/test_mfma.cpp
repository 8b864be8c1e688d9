// Dense MFMA against a matrix-level reference: the test builds the A, B and C
// matrices of every block, places them into registers by the layouts AMD's
// matrix instruction calculator gives (ROCm/amd_matrix_instruction_calculator,
// InstCalcGfx9 register/lane formulas, restated in /work/shared/design/mfma.md
// section 1), runs the instruction, and compares D with C + A x B computed
// as matrices. Inputs are small integers, so every sum is exact in any order
// and the check is bitwise. CBSZ/ABID (A-block broadcast) and BLGP (B lane
// groups) are swept where the instruction has them.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <sstream>

#include "emu/decode/op_table.hpp"
#include "emu/exec/dispatch.hpp"
#include "emu/exec/program.hpp"
#include "kernel_builder.hpp"

using namespace exec_test;

namespace {

enum class In { f32, xf32, f16, bf16, i8 };

struct Form {
    const char* name;  // LLVM's mnemonic
    unsigned m, n, k, blocks;
    In in;
};

// From the instruction names and [CALC] dict_insts (blocks).
const Form forms[] = {
    {"v_mfma_f32_32x32x1f32", 32, 32, 1, 2, In::f32},       {"v_mfma_f32_32x32x1_2b_f32", 32, 32, 1, 2, In::f32},
    {"v_mfma_f32_16x16x1f32", 16, 16, 1, 4, In::f32},       {"v_mfma_f32_16x16x1_4b_f32", 16, 16, 1, 4, In::f32},
    {"v_mfma_f32_4x4x1f32", 4, 4, 1, 16, In::f32},          {"v_mfma_f32_4x4x1_16b_f32", 4, 4, 1, 16, In::f32},
    {"v_mfma_f32_32x32x2f32", 32, 32, 2, 1, In::f32},       {"v_mfma_f32_32x32x2_f32", 32, 32, 2, 1, In::f32},
    {"v_mfma_f32_16x16x4f32", 16, 16, 4, 1, In::f32},       {"v_mfma_f32_16x16x4_f32", 16, 16, 4, 1, In::f32},
    {"v_mfma_f32_16x16x8_xf32", 16, 16, 8, 1, In::xf32},    {"v_mfma_f32_32x32x4_xf32", 32, 32, 4, 1, In::xf32},
    {"v_mfma_f32_32x32x4f16", 32, 32, 4, 2, In::f16},       {"v_mfma_f32_32x32x4_2b_f16", 32, 32, 4, 2, In::f16},
    {"v_mfma_f32_16x16x4f16", 16, 16, 4, 4, In::f16},       {"v_mfma_f32_16x16x4_4b_f16", 16, 16, 4, 4, In::f16},
    {"v_mfma_f32_4x4x4f16", 4, 4, 4, 16, In::f16},          {"v_mfma_f32_4x4x4_16b_f16", 4, 4, 4, 16, In::f16},
    {"v_mfma_f32_32x32x8f16", 32, 32, 8, 1, In::f16},       {"v_mfma_f32_32x32x8_f16", 32, 32, 8, 1, In::f16},
    {"v_mfma_f32_16x16x16f16", 16, 16, 16, 1, In::f16},     {"v_mfma_f32_16x16x16_f16", 16, 16, 16, 1, In::f16},
    {"v_mfma_f32_32x32x2bf16", 32, 32, 2, 2, In::bf16},     {"v_mfma_f32_16x16x2bf16", 16, 16, 2, 4, In::bf16},
    {"v_mfma_f32_4x4x2bf16", 4, 4, 2, 16, In::bf16},        {"v_mfma_f32_32x32x4bf16", 32, 32, 4, 1, In::bf16},
    {"v_mfma_f32_16x16x8bf16", 16, 16, 8, 1, In::bf16},     {"v_mfma_f32_32x32x4bf16_1k", 32, 32, 4, 2, In::bf16},
    {"v_mfma_f32_32x32x4_2b_bf16", 32, 32, 4, 2, In::bf16}, {"v_mfma_f32_16x16x4bf16_1k", 16, 16, 4, 4, In::bf16},
    {"v_mfma_f32_16x16x4_4b_bf16", 16, 16, 4, 4, In::bf16}, {"v_mfma_f32_4x4x4bf16_1k", 4, 4, 4, 16, In::bf16},
    {"v_mfma_f32_4x4x4_16b_bf16", 4, 4, 4, 16, In::bf16},   {"v_mfma_f32_32x32x8bf16_1k", 32, 32, 8, 1, In::bf16},
    {"v_mfma_f32_32x32x8_bf16", 32, 32, 8, 1, In::bf16},    {"v_mfma_f32_16x16x16bf16_1k", 16, 16, 16, 1, In::bf16},
    {"v_mfma_f32_16x16x16_bf16", 16, 16, 16, 1, In::bf16},  {"v_mfma_i32_32x32x4i8", 32, 32, 4, 2, In::i8},
    {"v_mfma_i32_32x32x4_2b_i8", 32, 32, 4, 2, In::i8},     {"v_mfma_i32_16x16x4i8", 16, 16, 4, 4, In::i8},
    {"v_mfma_i32_16x16x4_4b_i8", 16, 16, 4, 4, In::i8},     {"v_mfma_i32_4x4x4i8", 4, 4, 4, 16, In::i8},
    {"v_mfma_i32_4x4x4_16b_i8", 4, 4, 4, 16, In::i8},       {"v_mfma_i32_32x32x8i8", 32, 32, 8, 1, In::i8},
    {"v_mfma_i32_16x16x16i8", 16, 16, 16, 1, In::i8},       {"v_mfma_i32_32x32x16_i8", 32, 32, 16, 1, In::i8},
    {"v_mfma_i32_16x16x32_i8", 16, 16, 32, 1, In::i8},
};

unsigned bits_of(In in) { return in == In::i8 ? 8 : (in == In::f16 || in == In::bf16) ? 16 : 32; }

// Element encodings of a small integer.
u32 encode(In in, int v) {
    switch (in) {
    case In::f32:
    case In::xf32: return bits(static_cast<float>(v));
    case In::bf16: return bits(static_cast<float>(v)) >> 16;
    case In::f16: {
        if (v == 0) return 0;
        const u32 f = bits(static_cast<float>(v));  // |v| < 2^11: exact, normal in f16
        return ((f >> 16) & 0x8000u) | ((((f >> 23) & 0xff) - 112) << 10) | ((f >> 13) & 0x3ff);
    }
    case In::i8: return static_cast<u32>(v) & 0xffu;
    }
    return 0;
}

// [CALC] placements: dword and lane of A[b][i][k] (x = i, D = M) or B[b][k][j] (x = j, D = N).
struct Place {
    unsigned dword, shift, lane;
};
Place input_place(unsigned D, unsigned K, unsigned B, unsigned x, unsigned k, unsigned b, unsigned bits) {
    const unsigned kpl = K * D * B / 64, slot = k % kpl, per = 32 / bits;
    return {slot / per, bits * (slot % per), b * D + (k / kpl) * D * B + x};
}
Place output_place(unsigned M, unsigned N, unsigned i, unsigned j, unsigned b) {
    const unsigned R = 64 / N, bpr = (64 + M * N / 4 - 1) / (M * N / 4);
    return {b * (M * N / 64) + (i / (4 * R)) * 4 + i % 4, 0, (b % bpr) * N + ((i / 4) % R) * bpr * N + j};
}
unsigned blgp_source_lane(unsigned blgp, unsigned l) {
    const unsigned map[8] = {l, l % 32, 32 + l % 32, (l + 16) % 64, l % 16, 16 + l % 16, 32 + l % 16, 48 + l % 16};
    return map[blgp];
}

struct Modifiers {
    unsigned cbsz = 0, abid = 0, blgp = 0;
};

// The kernel: A, B, C dwords from p1, p2, p3 (dword d of lane l at d*64 + l),
// the MFMA, D to p0. C/D in AGPRs on gfx908 (written and read through
// v_accvgpr_write/read), in VGPRs elsewhere.
std::string kernel_body(const Form& f, const std::string& mcpu, unsigned a_dwords, unsigned b_dwords,
                        unsigned cd_dwords, const Modifiers& mods) {
    std::ostringstream s;
    auto load_from = [&](unsigned sbase, unsigned reg, unsigned d) {
        s << "  s_add_u32 s16, s" << sbase << ", " << d * 256 << "\n  s_addc_u32 s17, s" << sbase + 1 << ", 0\n"
          << "  global_load_dword v" << reg + d << ", v1, s[16:17]\n";
    };
    for (unsigned d = 0; d < a_dwords; ++d) load_from(6, 2, d);
    for (unsigned d = 0; d < b_dwords; ++d) load_from(8, 4, d);
    for (unsigned d = 0; d < cd_dwords; ++d) load_from(10, 32, d);
    s << "  s_waitcnt vmcnt(0)\n";
    const bool agpr = mcpu == "gfx908";
    auto range = [](char file, unsigned first, unsigned count) {
        return count == 1
                   ? file + std::to_string(first)
                   : file + std::string("[") + std::to_string(first) + ":" + std::to_string(first + count - 1) + "]";
    };
    if (agpr)
        for (unsigned d = 0; d < cd_dwords; ++d) s << "  v_accvgpr_write_b32 a" << d << ", v" << 32 + d << "\n";
    s << "  s_nop 4\n  " << f.name << " " << (agpr ? range('a', 0, cd_dwords) : range('v', 64, cd_dwords)) << ", "
      << range('v', 2, a_dwords) << ", " << range('v', 4, b_dwords) << ", "
      << (agpr ? range('a', 0, cd_dwords) : range('v', 32, cd_dwords));
    if (mods.cbsz) s << " cbsz:" << mods.cbsz;
    if (mods.abid) s << " abid:" << mods.abid;
    if (mods.blgp) s << " blgp:" << mods.blgp;
    s << "\n  s_nop 15\n  s_nop 15\n";
    if (agpr)
        for (unsigned d = 0; d < cd_dwords; ++d) s << "  v_accvgpr_read_b32 v" << 64 + d << ", a" << d << "\n";
    s << "  s_nop 4\n";
    for (unsigned d = 0; d < cd_dwords; ++d)
        s << "  s_add_u32 s16, s4, " << d * 256 << "\n  s_addc_u32 s17, s5, 0\n  global_store_dword v1, v" << 64 + d
          << ", s[16:17]\n";
    return s.str();
}

bool on_target(const char* name, const std::string& mcpu) {
    const Target t = *target_from_name(mcpu);
    for (std::size_t i = 1; i < op_count; ++i)
        if (mnemonic(static_cast<Op>(i)) == name) return op_info(static_cast<Op>(i)).on(t);
    return false;
}

// Runs every modifier combination of one form on one target; returns the number of cases checked.
unsigned check_form(const Form& f, const std::string& mcpu, const std::vector<Modifiers>& combos, std::mt19937& rng) {
    const unsigned M = f.m, N = f.n, K = f.k, B = f.blocks, width = bits_of(f.in);
    const unsigned a_dwords = std::max(1u, K * M * B / 64 * width / 32),
                   b_dwords = std::max(1u, K * N * B / 64 * width / 32);
    const unsigned cd_dwords = M * N * B / 64;
    std::vector<std::string> bodies;
    for (const Modifiers& m : combos) bodies.push_back(kernel_body(f, mcpu, a_dwords, b_dwords, cd_dwords, m));
    KernelOptions options;
    options.mcpu = mcpu;
    options.vgprs = 128;
    const CodeObject co = assemble_kernels(bodies, options);
    std::uniform_int_distribution<int> small(-3, 3), small_c(-20, 20);
    for (std::size_t c = 0; c < combos.size(); ++c) {
        const Modifiers& mods = combos[c];
        INFO(f.name << " on " << mcpu << " cbsz:" << mods.cbsz << " abid:" << mods.abid << " blgp:" << mods.blgp);
        // The matrices, per block.
        std::vector<int> A(B * M * K), Bm(B * K * N), C(B * M * N);
        for (int& v : A) v = small(rng);
        for (int& v : Bm) v = small(rng);
        for (int& v : C) v = small_c(rng);
        std::vector<u32> a_regs(2048, 0), b_regs(2048, 0), c_regs(2048, 0);
        // B's lane l is read from lane blgp_source_lane(l): B[b][k][j] lives where
        // that swizzle reads it, i.e. at the source lane of its nominal lane.
        for (unsigned b = 0; b < B; ++b)
            for (unsigned k = 0; k < K; ++k) {
                for (unsigned i = 0; i < M; ++i) {
                    const Place p = input_place(M, K, B, i, k, b, width);
                    a_regs[p.dword * 64 + p.lane] |= encode(f.in, A[(b * M + i) * K + k]) << p.shift;
                }
                for (unsigned j = 0; j < N; ++j) {
                    const Place p = input_place(N, K, B, j, k, b, width);
                    const unsigned lane = blgp_source_lane(mods.blgp, p.lane);
                    // A swizzle reading one lane for two nominal lanes needs them equal: write
                    // the value of the lowest nominal lane only and take it for all readers.
                    u32& slot = b_regs[p.dword * 64 + lane];
                    const u32 mask = (width == 32 ? 0xffffffffu : ((1u << width) - 1)) << p.shift;
                    slot = (slot & ~mask) | (encode(f.in, Bm[(b * K + k) * N + j]) << p.shift);
                }
            }
        // With a swizzle that reads a lane more than once the B actually used
        // is what the registers hold: read it back.
        for (unsigned b = 0; b < B; ++b)
            for (unsigned k = 0; k < K; ++k)
                for (unsigned j = 0; j < N; ++j) {
                    const Place p = input_place(N, K, B, j, k, b, width);
                    const u32 raw = (b_regs[p.dword * 64 + blgp_source_lane(mods.blgp, p.lane)] >> p.shift) &
                                    (width == 32 ? 0xffffffffu : ((1u << width) - 1));
                    int v = 0;
                    if (f.in == In::i8) v = static_cast<std::int8_t>(raw);
                    else if (f.in == In::f16 || f.in == In::bf16) {
                        for (int t = -3; t <= 3; ++t)
                            if (encode(f.in, t) == raw) v = t;
                    } else v = static_cast<int>(from_bits(raw));
                    Bm[(b * K + k) * N + j] = v;
                }
        const bool integer = f.in == In::i8;
        for (unsigned b = 0; b < B; ++b)
            for (unsigned i = 0; i < M; ++i)
                for (unsigned j = 0; j < N; ++j) {
                    const Place p = output_place(M, N, i, j, b);
                    const int cv = C[(b * M + i) * N + j];
                    c_regs[p.dword * 64 + p.lane] = integer ? static_cast<u32>(cv) : bits(static_cast<float>(cv));
                }
        TestRun run(2048);
        run.fill(1, a_regs);
        run.fill(2, b_regs);
        run.fill(3, c_regs);
        run.run_to_end(build_program(co, co.kernel("k" + std::to_string(c))));
        const std::vector<u32> out = run.read(0, 2048);
        unsigned bad = 0;
        for (unsigned b = 0; b < B; ++b) {
            const unsigned a_block = (b >> mods.cbsz << mods.cbsz) + mods.abid;
            for (unsigned i = 0; i < M; ++i)
                for (unsigned j = 0; j < N; ++j) {
                    long sum = C[(b * M + i) * N + j];
                    for (unsigned k = 0; k < K; ++k)
                        sum += long(A[(a_block * M + i) * K + k]) * Bm[(b * K + k) * N + j];
                    const Place p = output_place(M, N, i, j, b);
                    const u32 want = integer ? static_cast<u32>(sum) : bits(static_cast<float>(sum));
                    if (out[p.dword * 64 + p.lane] != want && ++bad <= 3)
                        UNSCOPED_INFO("D[" << b << "][" << i << "][" << j << "] = " << out[p.dword * 64 + p.lane]
                                           << ", want " << want);
                }
        }
        CHECK(bad == 0);
    }
    return static_cast<unsigned>(combos.size());
}

// A few: no modifier, the last block broadcast, one BLGP.
std::vector<Modifiers> modifier_sample(const Form& f, bool blgp) {
    std::vector<Modifiers> out{{}};
    unsigned cbsz = 0;
    while ((2u << cbsz) <= f.blocks) ++cbsz;
    if (cbsz) out.push_back({cbsz, (1u << cbsz) - 1, 0});
    if (blgp) out.push_back({0, 0, 3});
    return out;
}

std::vector<Modifiers> modifier_sweep(const Form& f, bool blgp) {
    std::vector<Modifiers> out{{}};
    for (unsigned cbsz = 1; (1u << cbsz) <= f.blocks; ++cbsz)
        for (unsigned abid = 0; abid < (1u << cbsz); ++abid) out.push_back({cbsz, abid, 0});
    if (blgp)
        for (unsigned g = 1; g < 8; ++g) out.push_back({0, 0, g});
    return out;
}

// The message of the invalid-operand fault that stops `body`'s kernel.
std::string invalid_operand_fault(const std::string& body, const KernelOptions& options) {
    const CodeObject co = assemble_kernel(body, options);
    TestRun run;
    const DispatchResult r = run.run(build_program(co, co.kernel("k")));
    REQUIRE(r.fault);
    CHECK(r.fault->kind == FaultKind::invalid_operand);
    return r.fault->message;
}

}  // namespace

TEST_CASE("MFMA layouts, blocks, CBSZ/ABID and BLGP against the matrix product", "[exec][mfma]") {
    std::mt19937 rng(29);
    for (const char* mcpu : {"gfx908", "gfx90a", "gfx942"}) {
        SECTION(mcpu) {
            unsigned forms_run = 0, cases = 0;
            for (const Form& f : forms) {
                if (!on_target(f.name, mcpu)) continue;
                // gfx940+ has no BLGP on its double-rate ops (xf32, K=8/16 f16/bf16): [CALC] dict_insts.
                const bool cdna3 = std::string(mcpu) == "gfx942";
                const bool double_rate =
                    cdna3 && (f.in == In::xf32 || ((f.in == In::f16 || f.in == In::bf16) && f.blocks == 1 && f.k >= 8));
                // Every legal CBSZ/ABID and BLGP on gfx90a; gfx908 (the same ops, C/D in
                // AGPRs) unmodified; gfx942 (renamed ops, its own BLGP rule) a sample.
                const std::string target(mcpu);
                const std::vector<Modifiers> combos = target == "gfx90a"   ? modifier_sweep(f, !double_rate)
                                                      : target == "gfx942" ? modifier_sample(f, !double_rate)
                                                                           : std::vector<Modifiers>{{}};
                cases += check_form(f, mcpu, combos, rng);
                ++forms_run;
            }
            WARN(mcpu << ": " << forms_run << " MFMA forms, " << cases << " modifier cases");
            CHECK(forms_run >= 15);
        }
    }
}

TEST_CASE("MFMA counts as its own class with its passes and FLOPs", "[exec][mfma]") {
    // Two v_mfma_f32_32x32x2f32 per wave: 16 passes each on gfx90a (LLVM
    // SISchedule.td), 2*32*32*2 = 4096 FLOPs each.
    KernelOptions options;
    options.mcpu = "gfx90a";
    options.vgprs = 128;
    const CodeObject co = assemble_kernel(
        "  v_mfma_f32_32x32x2f32 v[32:47], v2, v3, 0\n  v_mfma_f32_32x32x2f32 v[32:47], v2, v3, v[32:47]\n", options);
    TestRun run;
    run.block = {128, 1, 1};
    const DispatchResult r = run.run_to_end(build_program(co, co.kernel("k")));
    CHECK(r.counters[InstClass::mfma] == 4);
    CHECK(r.counters.mfma_passes == 4 * 16);
    CHECK(r.counters.mfma_flops == 4 * 4096);
}

TEST_CASE("MFMA faults on out-of-range modifiers and misaligned tuples, naming them", "[exec][mfma]") {
    KernelOptions options;
    options.mcpu = "gfx90a";
    options.vgprs = 128;
    auto fault_of = [&](const std::string& body) { return invalid_operand_fault(body, options); };
    // One block: llvm-mc accepts cbsz:1 abid:1, the hardware has no second block to broadcast.
    CHECK_THAT(fault_of("  v_mfma_f32_32x32x2f32 v[32:47], v2, v3, 0 cbsz:1 abid:1\n"),
               Catch::Contains("cbsz:1 is out of range: 1 block(s) allow at most cbsz:0"));
    CHECK_THAT(fault_of("  v_mfma_f32_16x16x1f32 v[32:47], v2, v3, 0 cbsz:1 abid:2\n"),
               Catch::Contains("abid:2 is out of range for cbsz:1"));
    // v_mfma_f32_32x32x2f32 v[1:16], v2, v3, 0 (the assembler refuses the odd tuple; the words do not).
    CHECK_THAT(fault_of("  .long 0xD3C40001, 0x02020702\n"), Catch::Contains("v[1:16] is not 64-bit aligned"));
}

namespace {

// The f64 (DGEMM) ops: one f64 per register pair, 64-bit C/D. [CALC]
// dict_insts: no CBSZ/ABID, no BLGP on CDNA2; on CDNA3 the BLGP bits are
// NEG (bit 0 A, bit 1 B, bit 2 C: [CALC] README).
struct F64Form {
    const char* name;
    unsigned m, n, k, blocks;
};
const F64Form f64_forms[] = {
    {"v_mfma_f64_16x16x4f64", 16, 16, 4, 1},
    {"v_mfma_f64_4x4x4f64", 4, 4, 4, 4},
    {"v_mfma_f64_16x16x4_f64", 16, 16, 4, 1},
    {"v_mfma_f64_4x4x4_4b_f64", 4, 4, 4, 4},
};

// [CALC] InstCalcGfx9 with 64-bit elements: A[b][i][k] (x = i) or B[b][k][j]
// (x = j) in the pair of lane b*D + k*D*B + x; C/D[b][i][j] in pair
// b*(M*N/64) + i/R, lane (b%BpR)*N + (i%R)*BpR*N + j, R = 64/N, BpR = ceil(64/(M*N)).
unsigned f64_input_lane(unsigned D, unsigned B, unsigned x, unsigned k, unsigned b) { return b * D + k * D * B + x; }
Place f64_output_place(unsigned M, unsigned N, unsigned i, unsigned j, unsigned b) {
    const unsigned R = 64 / N, bpr = (64 + M * N - 1) / (M * N);
    return {b * (M * N / 64) + i / R, 0, (b % bpr) * N + (i % R) * bpr * N + j};
}

void put_f64(std::vector<u32>& regs, unsigned pair, unsigned lane, double v) {
    u64 b;
    std::memcpy(&b, &v, 8);
    regs[2 * pair * 64 + lane] = static_cast<u32>(b);
    regs[(2 * pair + 1) * 64 + lane] = static_cast<u32>(b >> 32);
}
double get_f64(const std::vector<u32>& regs, unsigned pair, unsigned lane) {
    const u64 b = u64(regs[2 * pair * 64 + lane]) | u64(regs[(2 * pair + 1) * 64 + lane]) << 32;
    double v;
    std::memcpy(&v, &b, 8);
    return v;
}

std::string f64_kernel_body(const F64Form& f, unsigned neg) {
    const unsigned cd = f.m * f.n * f.blocks * 2 / 64;
    std::ostringstream s;
    auto load_from = [&](unsigned sbase, unsigned reg, unsigned d) {
        s << "  s_add_u32 s16, s" << sbase << ", " << d * 256 << "\n  s_addc_u32 s17, s" << sbase + 1 << ", 0\n"
          << "  global_load_dword v" << reg + d << ", v1, s[16:17]\n";
    };
    for (unsigned d = 0; d < 2; ++d) load_from(6, 2, d);
    for (unsigned d = 0; d < 2; ++d) load_from(8, 4, d);
    for (unsigned d = 0; d < cd; ++d) load_from(10, 32, d);
    s << "  s_waitcnt vmcnt(0)\n  s_nop 4\n  " << f.name << " v[64:" << 63 + cd << "], v[2:3], v[4:5], v[32:" << 31 + cd
      << "]";
    if (neg) s << " neg:[" << (neg & 1) << "," << (neg >> 1 & 1) << "," << (neg >> 2 & 1) << "]";
    s << "\n  s_nop 15\n  s_nop 15\n";
    for (unsigned d = 0; d < cd; ++d)
        s << "  s_add_u32 s16, s4, " << d * 256 << "\n  s_addc_u32 s17, s5, 0\n  global_store_dword v1, v" << 64 + d
          << ", s[16:17]\n";
    return s.str();
}

// One case: the matrices' values (small integers, or a one-hot A), the
// negation bits; D compared bitwise with C + A x B computed as matrices.
void check_f64_case(const F64Form& f, const CodeObject& co, const std::string& kernel, unsigned neg, int one_hot,
                    std::mt19937& rng) {
    const unsigned M = f.m, N = f.n, K = f.k, B = f.blocks;
    INFO(f.name << " neg:" << neg << " one-hot A element " << one_hot);
    std::uniform_int_distribution<int> small(-3, 3), small_c(-20, 20);
    std::vector<int> A(B * M * K), Bm(B * K * N), C(B * M * N);
    for (std::size_t x = 0; x < A.size(); ++x) A[x] = one_hot < 0 ? small(rng) : int(x) == one_hot;
    for (int& v : Bm) v = small(rng);
    for (int& v : C) v = small_c(rng);
    std::vector<u32> a_regs(2048, 0), b_regs(2048, 0), c_regs(2048, 0);
    for (unsigned b = 0; b < B; ++b)
        for (unsigned k = 0; k < K; ++k) {
            for (unsigned i = 0; i < M; ++i) put_f64(a_regs, 0, f64_input_lane(M, B, i, k, b), A[(b * M + i) * K + k]);
            for (unsigned j = 0; j < N; ++j) put_f64(b_regs, 0, f64_input_lane(N, B, j, k, b), Bm[(b * K + k) * N + j]);
        }
    for (unsigned b = 0; b < B; ++b)
        for (unsigned i = 0; i < M; ++i)
            for (unsigned j = 0; j < N; ++j) {
                const Place p = f64_output_place(M, N, i, j, b);
                put_f64(c_regs, p.dword, p.lane, C[(b * M + i) * N + j]);
            }
    TestRun run(2048);
    run.fill(1, a_regs);
    run.fill(2, b_regs);
    run.fill(3, c_regs);
    run.run_to_end(build_program(co, co.kernel(kernel)));
    const std::vector<u32> out = run.read(0, 2048);
    const int sa = (neg & 1) ? -1 : 1, sb = (neg & 2) ? -1 : 1, sc = (neg & 4) ? -1 : 1;
    unsigned bad = 0;
    for (unsigned b = 0; b < B; ++b)
        for (unsigned i = 0; i < M; ++i)
            for (unsigned j = 0; j < N; ++j) {
                long sum = sc * C[(b * M + i) * N + j];
                for (unsigned k = 0; k < K; ++k)
                    sum += long(sa * A[(b * M + i) * K + k]) * sb * Bm[(b * K + k) * N + j];
                const Place p = f64_output_place(M, N, i, j, b);
                const double got = get_f64(out, p.dword, p.lane), want = static_cast<double>(sum);
                if (std::memcmp(&got, &want, 8) != 0 && ++bad <= 3)
                    UNSCOPED_INFO("D[" << b << "][" << i << "][" << j << "] = " << got << ", want " << want);
            }
    CHECK(bad == 0);
}

}  // namespace

TEST_CASE("f64 MFMA layouts, blocks and (gfx940+) negation against the matrix product", "[exec][mfma]") {
    std::mt19937 rng(64);
    for (const char* mcpu : {"gfx90a", "gfx942"}) {
        SECTION(mcpu) {
            const bool cdna3 = std::string(mcpu) == "gfx942";
            unsigned forms_run = 0;
            for (const F64Form& f : f64_forms) {
                if (!on_target(f.name, mcpu)) continue;
                // All eight NEG values on gfx942; gfx90a has no modifier for these ops.
                std::vector<std::string> bodies;
                const unsigned negs = cdna3 ? 8 : 1;
                for (unsigned neg = 0; neg < negs; ++neg) bodies.push_back(f64_kernel_body(f, neg));
                KernelOptions options;
                options.mcpu = mcpu;
                options.vgprs = 128;
                const CodeObject co = assemble_kernels(bodies, options);
                for (unsigned neg = 0; neg < negs; ++neg)
                    check_f64_case(f, co, "k" + std::to_string(neg), neg, -1, rng);
                // One-hot A: every element of block 0's first row and of the last block's last row.
                const int row = int(f.k), last = int((f.blocks * f.m - 1) * f.k);
                for (int x = 0; x < row; ++x) {
                    check_f64_case(f, co, "k0", 0, x, rng);
                    check_f64_case(f, co, "k0", 0, last + x, rng);
                }
                ++forms_run;
            }
            CHECK(forms_run == 2);
        }
    }
}

TEST_CASE("f64 MFMA: an inline constant C is a double, and modifiers the op lacks fault", "[exec][mfma]") {
    KernelOptions options;
    options.mcpu = "gfx90a";
    options.vgprs = 128;
    {
        // A = B = 0 (the prologue leaves v2..v5 zero), C = 1.0: every D element is 1.0.
        const CodeObject co = assemble_kernel(
            "  v_mov_b32 v2, 0\n  v_mov_b32 v3, 0\n  v_mov_b32 v4, 0\n  v_mov_b32 v5, 0\n  s_nop 4\n"
            "  v_mfma_f64_4x4x4f64 v[64:65], v[2:3], v[4:5], 1.0\n  s_nop 15\n"
            "  global_store_dword v1, v64, s[4:5]\n  s_add_u32 s16, s4, 256\n  s_addc_u32 s17, s5, 0\n"
            "  global_store_dword v1, v65, s[16:17]\n",
            options);
        TestRun run(128);
        run.run_to_end(build_program(co, co.kernel("k")));
        const std::vector<u32> out = run.read(0, 128);
        CHECK(std::vector<u32>(out.begin(), out.begin() + 64) == std::vector<u32>(64, 0u));
        CHECK(std::vector<u32>(out.begin() + 64, out.end()) == std::vector<u32>(64, 0x3ff00000u));
    }
    auto fault_of = [&](const std::string& body) { return invalid_operand_fault(body, options); };
    // llvm-mc-15 accepts both; [CALC] dict_insts: cdna2 f64 has neither BLGP nor CBSZ/ABID.
    CHECK_THAT(fault_of("  v_mfma_f64_16x16x4f64 v[64:71], v[2:3], v[4:5], 0 blgp:3\n"),
               Catch::Contains("blgp:3: this instruction has no BLGP on gfx90a"));
    CHECK_THAT(fault_of("  v_mfma_f64_4x4x4f64 v[64:65], v[2:3], v[4:5], 0 cbsz:1 abid:1\n"),
               Catch::Contains("cbsz:1 abid:1: this instruction has no CBSZ/ABID"));
}

TEST_CASE("every implemented matrix op has a row of the layout test", "[exec][mfma][coverage]") {
    std::vector<std::string> missing;
    unsigned implemented = 0;
    for (std::size_t i = 1; i < op_count; ++i) {
        const Op op = static_cast<Op>(i);
        if (!op_info(op).has(OF_MFMA) || !has_semantics(op)) continue;
        ++implemented;
        const std::string name(mnemonic(op));
        if (std::none_of(std::begin(forms), std::end(forms), [&](const Form& f) { return name == f.name; }) &&
            std::none_of(std::begin(f64_forms), std::end(f64_forms), [&](const F64Form& f) { return name == f.name; }))
            missing.push_back(name);
    }
    std::ostringstream names;
    for (const std::string& name : missing) names << name << " ";
    INFO("implemented without a row in forms[] or f64_forms[]: " << names.str());
    CHECK(missing.empty());
    CHECK(implemented >= 40);
}

namespace {

// Lane l of two results: v[accum_offset + 3] after v_accvgpr_write a3, and a2
// after v_mov_b32 v[accum_offset + 2] (p0: dwords 0..63, 64..127).
std::vector<u32> agpr_alias_run(const std::string& mcpu, unsigned vgprs, unsigned agprs) {
    KernelOptions options;
    options.mcpu = mcpu;
    options.vgprs = vgprs;
    options.agprs = agprs;
    const std::string body =
        "  v_add_u32 v2, 1000, v0\n  v_add_u32 v3, 2000, v0\n  s_nop 1\n"
        "  v_accvgpr_write_b32 a3, v2\n  v_mov_b32 v" +
        std::to_string(64 + 2) + ", v3\n  s_nop 4\n  v_mov_b32 v10, v" + std::to_string(64 + 3) +
        "\n  v_accvgpr_read_b32 v11, a2\n  s_nop 1\n"
        "  global_store_dword v1, v10, s[4:5]\n  s_add_u32 s16, s4, 256\n  s_addc_u32 s17, s5, 0\n"
        "  global_store_dword v1, v11, s[16:17]\n";
    const CodeObject co = assemble_kernel(body, options);
    TestRun run(128);
    run.run_to_end(build_program(co, co.kernel("k")));
    return run.read(0, 128);
}

std::vector<u32> lanes_plus(u32 base) {
    std::vector<u32> v(64);
    for (u32 l = 0; l < 64; ++l) v[l] = base + l;
    return v;
}

}  // namespace

TEST_CASE("AGPRs: one file with the VGPRs from accum_offset on gfx90a+, a separate file on gfx908", "[exec][mfma]") {
    for (const char* mcpu : {"gfx90a", "gfx942"}) {
        INFO(mcpu);
        // accum_offset 64: a3 is v67, a2 is v66.
        const std::vector<u32> out = agpr_alias_run(mcpu, 64, 8);
        CHECK(std::vector<u32>(out.begin(), out.begin() + 64) == lanes_plus(1000));
        CHECK(std::vector<u32>(out.begin() + 64, out.end()) == lanes_plus(2000));
    }
    // gfx908: v66/v67 are ArchVGPRs of a 72-VGPR kernel, apart from a2/a3 (a2 never written: 0).
    const std::vector<u32> out = agpr_alias_run("gfx908", 72, 8);
    CHECK(std::vector<u32>(out.begin(), out.begin() + 64) == std::vector<u32>(64, 0u));
    CHECK(std::vector<u32>(out.begin() + 64, out.end()) == std::vector<u32>(64, 0u));
}

TEST_CASE("registers past the kernel's allocation fault naming the register and the limit", "[exec][mfma]") {
    auto fault_of = [](const std::string& mcpu, unsigned vgprs, unsigned agprs, const std::string& body) {
        KernelOptions options;
        options.mcpu = mcpu;
        options.vgprs = vgprs;
        options.agprs = agprs;
        return invalid_operand_fault(body, options);
    };
    CHECK_THAT(fault_of("gfx90a", 64, 8, "  v_accvgpr_write_b32 a8, v2\n"),
               Catch::Contains("a8 is past the kernel's 8 AGPRs (accum_offset 64 of 72 allocated VGPRs)"));
    CHECK_THAT(fault_of("gfx90a", 64, 8, "  v_mov_b32 v72, v2\n"),
               Catch::Contains("v72 is past the kernel's 72 allocated VGPRs"));
    CHECK_THAT(fault_of("gfx908", 64, 16, "  v_accvgpr_read_b32 v2, a64\n"),
               Catch::Contains("a64 is past the kernel's 64 allocated AGPRs"));
    CHECK_THAT(fault_of("gfx906", 32, 0, "  global_load_dwordx2 v[40:41], v1, s[4:5]\n  s_waitcnt vmcnt(0)\n"),
               Catch::Contains("v[40:41] is past the kernel's 32 allocated VGPRs"));
    // v_add_f64 v[3:4], v[2:3], v[6:7]: llvm-mc refuses the odd tuple on gfx90a, the words do not.
    CHECK_THAT(fault_of("gfx90a", 64, 0, "  .long 0xD2800003, 0x00020D02\n"),
               Catch::Contains("v[3:4] is not 64-bit aligned (gfx90a needs an even first register)"));
}
