// ISA fidelity where a kernel's float mode meets integer operands, fp64
// denormals, ds_swizzle's rotate/FFT modes and buffer range checks: each
// case from the ISA pseudo-code, run in every denorm mode it concerns.
//
// Denorm modes (MODE.FP_DENORM, .amdhsa_float_denorm_mode_*): 0 flush inputs
// and results, 1 flush results only ("allow input denormals"), 2 flush inputs
// only, 3 keep both.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "emu/decode/op_table.hpp"
#include "emu/exec/operand_types.hpp"
#include "emu/exec/program.hpp"
#include "kernel_builder.hpp"

using namespace exec_test;

namespace {

KernelOptions fp32_mode(const char* mcpu, unsigned mode) {
    KernelOptions o;
    o.mcpu = mcpu;
    o.denorm_mode_32 = mode;
    return o;
}

std::vector<u32> lane_ids() {
    std::vector<u32> v(64);
    for (u32 l = 0; l < 64; ++l) v[l] = l;
    return v;
}
// Integers whose bit patterns are fp32 denormals: 1 .. 0x7fffff.
std::vector<u32> integer_looking() {
    std::vector<u32> v = lane_ids();
    v[0] = 0x007fffff;
    v[63] = 0x00012345;
    return v;
}

}  // namespace

// ISA (MI200 / Vega "V_CVT_F32_U32: D.f = (float)S0.u", V_LDEXP_F32:
// "D.f = S0.f * (2 ** S1.i)"): integer sources are integers in every fp32 mode.
TEST_CASE("integer sources of fp32 ops are never flushed as denormals", "[alu][float][denorm][fidelity]") {
    const char* mcpu = GENERATE("gfx906", "gfx90a");
    const unsigned mode = GENERATE(0u, 1u, 2u, 3u);
    INFO(mcpu << " fp32 denorm mode " << mode);
    const KernelOptions o = fp32_mode(mcpu, mode);
    const std::vector<u32> n = integer_looking(), zero(64, 0);
    std::vector<u32> one_and_a_half(64, bits(1.5f));
    // One kernel: the ops on the integers in p1 (v2), 1.5 in p2 (v3).
    const auto results = run_three_each(
        {"  v_cvt_f32_u32 v5, v2", "  v_cvt_f32_u32_e64 v5, v2",
         "  v_cvt_f32_u32_sdwa v5, v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_0", "  v_cvt_f32_i32 v5, v2",
         "  v_cvt_f64_u32 v[6:7], v2\n  v_cvt_f32_f64 v5, v[6:7]", "  v_ldexp_f32 v5, v3, 3",
         "  s_mov_b32 s20, 5\n  v_ldexp_f32 v5, v3, s20", "  v_ldexp_f32 v5, v3, v2"},
        n, one_and_a_half, zero, o);
    const auto &cvt_u = results[0], &cvt_u_e64 = results[1], &cvt_u_sdwa = results[2], &cvt_i = results[3],
               &cvt_f64 = results[4], &ldexp_inline = results[5], &ldexp_sgpr = results[6], &ldexp_vgpr = results[7];
    for (unsigned l = 0; l < 64; ++l) {
        INFO("lane " << l << " value " << n[l]);
        CHECK(cvt_u[l] == bits(float(n[l])));
        CHECK(cvt_u_e64[l] == bits(float(n[l])));
        CHECK(cvt_u_sdwa[l] == bits(float(n[l] & 0xffff)));
        CHECK(cvt_i[l] == bits(float(int(n[l]))));
        CHECK(cvt_f64[l] == bits(float(n[l])));
        CHECK(ldexp_inline[l] == bits(12.0f));
        CHECK(ldexp_sgpr[l] == bits(48.0f));
        CHECK(ldexp_vgpr[l] == bits(std::ldexp(1.5f, int(n[l]))));
    }
}

// Float -> integer results (D.i = (int)S0.f ...) are integers, not fp32 results to flush.
TEST_CASE("integer results of fp32 ops are never flushed as denormals", "[alu][float][denorm][fidelity]") {
    const char* mcpu = GENERATE("gfx906", "gfx90a");
    const unsigned mode = GENERATE(0u, 1u, 2u, 3u);
    INFO(mcpu << " fp32 denorm mode " << mode);
    const KernelOptions o = fp32_mode(mcpu, mode);
    std::vector<u32> x(64), zero(64, 0);
    for (unsigned l = 0; l < 64; ++l) x[l] = bits(float(l) * 1000.25f);
    const auto results =
        run_three_each({"  v_cvt_i32_f32 v5, v2", "  v_cvt_u32_f32_e64 v5, v2", "  v_cvt_rpi_i32_f32 v5, v2",
                        "  v_cvt_flr_i32_f32 v5, v2", "  v_frexp_exp_i32_f32 v5, v2",
                        "  v_cvt_f64_f32 v[6:7], v2\n  v_cvt_i32_f64 v5, v[6:7]"},
                       x, zero, zero, o);
    const auto &to_i = results[0], &to_u = results[1], &rpi = results[2], &flr = results[3], &frexp_exp = results[4],
               &f64_to_i = results[5];
    for (unsigned l = 0; l < 64; ++l) {
        const float v = from_bits(x[l]);
        INFO("lane " << l << " value " << v);
        CHECK(to_i[l] == u32(int(v)));
        CHECK(to_u[l] == u32(v));
        CHECK(rpi[l] == u32(int(std::floor(v + 0.5f))));
        CHECK(flr[l] == u32(int(std::floor(v))));
        int e = 0;
        std::frexp(v, &e);
        CHECK(frexp_exp[l] == u32(e));
        CHECK(f64_to_i[l] == u32(int(v)));
    }
}

// The executor's flushes come from the op table's type columns (op_semantics.txt types=): every VALU op it
// implements must declare each operand field it uses, with the width the
// op table (from LLVM) gives that field.
TEST_CASE("every implemented VALU op declares the type of each operand", "[alu][float][denorm][fidelity]") {
    unsigned checked = 0;
    for (std::size_t i = 1; i < op_count; ++i) {
        const Op op = static_cast<Op>(i);
        const OpInfo& info = op_info(op);
        const bool valu = info.family == Family::VOP1 || info.family == Family::VOP2 || info.family == Family::VOP3 ||
                          info.family == Family::VOP3P || info.family == Family::VOPC;
        // MFMA operands are matrices in register tuples: their element types are
        // emu/exec/mfma.hpp's, and sem_mfma.cpp applies the denorm modes itself.
        if (!valu || !has_semantics(op) || info.has(OF_MFMA)) continue;
        const OperandTypes& types = operand_types(op);
        INFO(info.mnemonic);
        CHECK(types.declared());
        if (!types.declared()) continue;
        const OperandType fields[4] = {types.dst, types.src[0], types.src[1], types.src[2]};
        for (int f = 0; f < 4; ++f) {
            INFO("field " << f << " declared " << operand_type_name(fields[f]) << ", op table dwords "
                          << int(info.dwords[f]));
            CHECK(fields[f] != OperandType::undeclared);
            CHECK(operand_dwords(fields[f]) == info.dwords[f]);
        }
        ++checked;
    }
    CHECK(checked > 400);
}

// DS_SWIZZLE_B32 pseudo-code (Vega / MI200 ISA guides): FFT for offset >=
// 0xe000, rotate for 0xc000..0xdfff, each within 32 lanes ("j |= i & 0x20").
TEST_CASE("ds_swizzle_b32 rotate and FFT modes", "[lds][swizzle][fidelity]") {
    const char* mcpu = GENERATE("gfx906", "gfx90a");
    INFO(mcpu);
    const u32 offsets[] = {0xc020, 0xc420, 0xc0a0, 0xc5e0, 0xc041, 0xc7e3, 0xe000, 0xe001, 0xe003, 0xe01f, 0xe010};
    std::string body = "  v_add_u32 v2, 100, v0\n";
    for (unsigned k = 0; k < std::size(offsets); ++k)
        body += "  ds_swizzle_b32 v" + std::to_string(10 + k) + ", v2 offset:" + std::to_string(offsets[k]) + "\n";
    body += "  s_waitcnt lgkmcnt(0)\n";
    for (unsigned k = 0; k < std::size(offsets); ++k)
        body +=
            "  global_store_dword v1, v" + std::to_string(10 + k) + ", s[4:5] offset:" + std::to_string(256 * k) + "\n";
    KernelOptions o;
    o.mcpu = mcpu;
    const CodeObject co = assemble_kernel(body, o);
    const Program program = build_program(co, co.kernels.at(0));
    // The disassembly LLVM 15 gives these encodings (llvm-mc-15 -show-encoding / llvm-objdump-15): a decimal offset.
    unsigned swizzles = 0;
    for (std::uint32_t i = 0; i < program.insts.size(); ++i) {
        if (program.insts[i].op != Op::ds_swizzle_b32) continue;
        const u32 offset = offsets[swizzles];
        CHECK(program.disassemble(i) ==
              "ds_swizzle_b32 v" + std::to_string(10 + swizzles) + ", v2 offset:" + std::to_string(offset));
        ++swizzles;
    }
    CHECK(swizzles == std::size(offsets));
    TestRun run(64 * std::size(offsets));
    const DispatchResult r = run.run(program);
    INFO((r.fault ? r.fault->message : std::string()));
    REQUIRE(r.ok());
    const auto out = run.read(0, 64 * std::size(offsets));
    // The pseudo-code, lane index within the 32-lane half.
    const auto source = [](u32 offset, unsigned i) {
        const unsigned half = i & 32, lane = i & 31, mask = offset & 31;
        if (offset >= 0xe000) {
            unsigned reversed = 0;
            for (unsigned b = 0; b < 5; ++b)
                if (lane & (1u << b)) reversed |= 16u >> b;
            unsigned ones = 0;
            for (unsigned b = 0; b < 5; ++b) ones += (mask >> b) & 1;
            return half | (reversed >> ones) | (lane & mask);
        }
        const int rotate = (offset & 0x400) ? -int((offset >> 5) & 31) : int((offset >> 5) & 31);
        return half | (lane & mask) | (unsigned(int(lane) + rotate + 32) % 32 & ~mask);
    };
    for (unsigned k = 0; k < std::size(offsets); ++k)
        for (unsigned l = 0; l < 64; ++l) {
            INFO("offset " << std::hex << offsets[k] << std::dec << " lane " << l);
            CHECK(out[64 * k + l] == 100 + source(offsets[k], l));
        }
    // The two cases, spelled out.
    for (unsigned l = 0; l < 64; ++l) CHECK(out[l] == 100 + ((l & 32) | ((l + 1) % 32)));  // 0xc020
    CHECK(out[64 * 6 + 1] == 100 + 16);                                                    // 0xe000, lane 1
    CHECK(out[64 * 6 + 33] == 100 + 48);
}

namespace {

// Runs `body` with v[2:3] = a, v[4:5] = b, v[8:9] = c (f64 bits in every
// lane) and stores v[6:7] of lane 0's result.
u64 run_f64(const std::string& body, u64 a, u64 b, u64 c, const KernelOptions& options) {
    const auto set = [](const char* reg, u32 value) {
        return std::string("  v_mov_b32 ") + reg + ", " + std::to_string(value) + "\n";
    };
    const CodeObject co =
        assemble_kernel(set("v2", u32(a)) + set("v3", u32(a >> 32)) + set("v4", u32(b)) + set("v5", u32(b >> 32)) +
                            set("v8", u32(c)) + set("v9", u32(c >> 32)) + body +
                            "\n  v_lshlrev_b32 v10, 3, v0\n  global_store_dwordx2 v10, v[6:7], s[4:5]\n",
                        options);
    const Program program = build_program(co, co.kernels.at(0));
    TestRun run(128);
    const DispatchResult r = run.run(program);
    INFO((r.fault ? r.fault->message : std::string()));
    REQUIRE(r.ok());
    const auto out = run.read(0, 2);
    return out[0] | (u64(out[1]) << 32);
}
// Many run_f64 cases in one kernel, one assembly instead of one per case:
// case i sets its own inputs, runs its body and stores lane 0's v[6:7] to
// p0 + 8i; check() runs them all and CHECKs each result.
class F64Cases {
public:
    explicit F64Cases(const KernelOptions& options) : options_(options) {}
    void expect(const std::string& body, u64 a, u64 b, u64 c, u64 expected) {
        cases_.push_back({body, a, b, c, expected});
    }
    void check() const {
        const auto set = [](const char* reg, u32 value) {
            return std::string("  v_mov_b32 ") + reg + ", " + std::to_string(value) + "\n";
        };
        std::string source = "  v_mov_b32 v10, 0\n";
        for (std::size_t i = 0; i < cases_.size(); ++i) {
            const Case& k = cases_[i];
            source += set("v2", u32(k.a)) + set("v3", u32(k.a >> 32)) + set("v4", u32(k.b)) +
                      set("v5", u32(k.b >> 32)) + set("v8", u32(k.c)) + set("v9", u32(k.c >> 32)) + k.body +
                      "\n  global_store_dwordx2 v10, v[6:7], s[4:5] offset:" + std::to_string(8 * i) + "\n";
        }
        REQUIRE(8 * cases_.size() <= 4095);  // the store's offset field
        const CodeObject co = assemble_kernel(source, options_);
        const Program program = build_program(co, co.kernels.at(0));
        TestRun run(2 * cases_.size());
        const DispatchResult r = run.run(program);
        INFO((r.fault ? r.fault->message : std::string()));
        REQUIRE(r.ok());
        const auto out = run.read(0, 2 * cases_.size());
        for (std::size_t i = 0; i < cases_.size(); ++i) {
            INFO(cases_[i].body);
            CHECK((out[2 * i] | (u64(out[2 * i + 1]) << 32)) == cases_[i].expected);
        }
    }

private:
    struct Case {
        std::string body;
        u64 a, b, c, expected;
    };
    KernelOptions options_;
    std::vector<Case> cases_;
};

}  // namespace

// MODE.FP_DENORM [7:6] (.amdhsa_float_denorm_mode_16_64) governs f64 operands
// as [5:4] does f32 ones: 0 flush inputs and results, 1 results, 2 inputs, 3 none.
TEST_CASE("the fp16/fp64 denorm mode flushes f64 inputs and results", "[alu][float][denorm][f64][fidelity]") {
    const char* mcpu = GENERATE("gfx906", "gfx90a");
    const unsigned mode = GENERATE(0u, 1u, 2u, 3u);
    INFO(mcpu << " fp16/64 denorm mode " << mode);
    KernelOptions o;
    o.mcpu = mcpu;
    o.denorm_mode_16_64 = mode;
    const bool flush_in = mode == 0 || mode == 2, flush_out = mode == 0 || mode == 1;
    const u64 min_denormal = 1, zero = 0, negative_zero = bits64(-0.0);
    const double tiny = std::ldexp(1.0, -1074), small = std::ldexp(1.0, -1022);
    F64Cases cases(o);
    const auto expect = [&](const std::string& body, u64 a, u64 b, u64 c, u64 expected) {
        cases.expect(body, a, b, c, expected);
    };
    // A denormal input times 2^60 is normal: 0 only when the input is flushed.
    expect("  v_mul_f64 v[6:7], v[2:3], v[4:5]", min_denormal, bits64(0x1p60), 0,
           (flush_in ? zero : bits64(std::ldexp(1.0, -1014))));
    // Normal inputs, denormal product: 0 only when the result is flushed.
    expect("  v_mul_f64 v[6:7], v[2:3], v[4:5]", bits64(small), bits64(0x1p-10), 0,
           (flush_out ? zero : bits64(std::ldexp(1.0, -1032))));
    expect("  v_mul_f64 v[6:7], v[2:3], v[4:5]", bits64(-small), bits64(0x1p-10), 0,
           (flush_out ? negative_zero : bits64(-std::ldexp(1.0, -1032))));
    // An SGPR pair source is flushed as a VGPR one.
    expect("  s_mov_b32 s20, 1\n  s_mov_b32 s21, 0\n  v_mul_f64 v[6:7], s[20:21], v[4:5]", 0, bits64(0x1p60), 0,
           (flush_in ? zero : bits64(std::ldexp(1.0, -1014))));
    expect("  v_add_f64 v[6:7], v[2:3], v[4:5]", bits64(small * 1.5), bits64(-small), 0,
           (flush_out ? zero : bits64(small * 0.5)));
    expect("  v_fma_f64 v[6:7], v[2:3], v[4:5], v[8:9]", bits64(tiny), bits64(0x1p60), bits64(1.0),
           (flush_in ? bits64(1.0) : bits64(1.0 + std::ldexp(1.0, -1014))));
    // v_ldexp_f64's exponent is an integer: never flushed; its f64 input is.
    expect("  v_ldexp_f64 v[6:7], v[2:3], 60", min_denormal, 0, 0, (flush_in ? zero : bits64(std::ldexp(1.0, -1014))));
    expect("  s_mov_b32 s20, -60\n  v_ldexp_f64 v[6:7], v[2:3], s20", bits64(small), 0, 0,
           (flush_out ? zero : bits64(std::ldexp(1.0, -1082))));
    // Compares read flushed inputs: a denormal equals zero when flushed.
    expect("  v_cmp_eq_f64 vcc, v[2:3], v[4:5]\n  v_cndmask_b32 v6, 0, 1, vcc\n  v_mov_b32 v7, 0", min_denormal, zero,
           0, (flush_in ? 1u : 0u));
    // Conversions: each operand under its own precision's mode (the fp32 mode is 3: kept).
    expect("  v_cvt_f64_f32 v[6:7], v2", bits64(0) | bits(0x1p-140f), 0, 0, bits64(0x1p-140));
    expect("  v_cvt_f32_f64 v6, v[2:3]\n  v_mov_b32 v7, 0", bits64(0x1p-140), 0, 0, bits(0x1p-140f));
    expect("  v_cvt_i32_f64 v6, v[2:3]\n  v_mov_b32 v7, 0", bits64(12345.75), 0, 0, 12345u);
    // An inline float constant is an f64 where the operand is f64 (its type column), an integer elsewhere.
    expect("  v_add_f64 v[6:7], v[2:3], 0.5", bits64(2.0), 0, 0, bits64(2.5));
    expect("  v_ldexp_f64 v[6:7], 0.5, v2", 3, 0, 0, bits64(4.0));
    expect("  v_lshlrev_b64 v[6:7], 4, v[2:3]", 0x0123456789abcdefull, 0, 0, 0x123456789abcdef0ull);
    cases.check();
}

TEST_CASE("f32 conversions to and from f64 follow the fp32 mode on their f32 side",
          "[alu][float][denorm][f64][fidelity]") {
    const unsigned mode = GENERATE(0u, 1u, 2u, 3u);
    INFO("fp32 denorm mode " << mode);
    KernelOptions o;
    o.denorm_mode_32 = mode;
    const bool flush_in = mode == 0 || mode == 2, flush_out = mode == 0 || mode == 1;
    CHECK(run_f64("  v_cvt_f64_f32 v[6:7], v2", bits(0x1p-140f), 0, 0, o) == (flush_in ? 0 : bits64(0x1p-140)));
    CHECK(run_f64("  v_cvt_f32_f64 v6, v[2:3]\n  v_mov_b32 v7, 0", bits64(0x1p-140), 0, 0, o) ==
          (flush_out ? 0 : bits(0x1p-140f)));
}

namespace {

// Buffer loads through s[20:23] = V# over p1 (stride, num_records), the
// result of `load` (into v6) stored per lane to p0; p1[i] = 1000 + i.
std::vector<u32> buffer_load(const char* mcpu, u32 stride, u32 num_records, const std::string& load) {
    KernelOptions o;
    o.mcpu = mcpu;
    const CodeObject co = assemble_kernel(
        "  s_mov_b32 s20, s6\n  s_and_b32 s21, s7, 0xffff\n  s_or_b32 s21, s21, " + std::to_string(stride << 16) +
            "\n  s_mov_b32 s22, " + std::to_string(num_records) + "\n  s_mov_b32 s23, 0\n  v_mov_b32 v6, 0x5a5a\n" +
            load + "\n  s_waitcnt vmcnt(0)\n  global_store_dword v1, v6, s[4:5]\n",
        o);
    const Program program = build_program(co, co.kernels.at(0));
    TestRun run(256);
    std::vector<u32> data(256);
    for (u32 i = 0; i < 256; ++i) data[i] = 1000 + i;
    run.fill(1, data);
    const DispatchResult r = run.run(program);
    INFO((r.fault ? r.fault->message : std::string()));
    REQUIRE(r.ok());
    return run.read(0, 64);
}

}  // namespace

// Vega / MI200 ISA "Range Checking": raw buffer out of range iff
// InstOffset + (OffEN ? vgpr_offset : 0) >= NumRecords, per dword; structured
// (IdxEn) iff Index >= NumRecords.
TEST_CASE("buffer range checks follow the ISA's raw and structured rules", "[memory][buffer][fidelity]") {
    const char* mcpu = GENERATE("gfx906", "gfx90a");
    INFO(mcpu);
    // Raw, num_records 6: the dword at offset 4 starts inside, so it is read whole.
    const auto at4 = buffer_load(mcpu, 0, 6, "  buffer_load_dword v6, off, s[20:23], 0 offset:4");
    const auto at8 = buffer_load(mcpu, 0, 6, "  buffer_load_dword v6, off, s[20:23], 0 offset:8");
    // Per dword: of a dwordx2 at offset 4, dword 0 (offset 4) is in range, dword 1 (offset 8) is not.
    const auto pair = buffer_load(mcpu, 0, 6,
                                  "  buffer_load_dwordx2 v[6:7], off, s[20:23], 0 offset:4\n  s_waitcnt vmcnt(0)\n"
                                  "  v_add_u32 v6, v6, v7");
    // Per lane (offen): lanes whose offset 4*lane + 4 < 11 are in range (lanes 0 and 1).
    const auto lanes = buffer_load(mcpu, 0, 11, "  buffer_load_dword v6, v1, s[20:23], 0 offen offset:4");
    // Structured, stride 8: only the index is checked, not offset:12 against the stride.
    const auto structured = buffer_load(mcpu, 8, 32, "  buffer_load_dword v6, v0, s[20:23], 0 idxen offset:12");
    // A stride without idxen is a raw buffer: the offset is checked, the index (0) is not.
    const auto strided_raw = buffer_load(mcpu, 4, 256, "  buffer_load_dword v6, v1, s[20:23], 0 offen");
    // The SGPR offset is not part of the check.
    const auto soffset =
        buffer_load(mcpu, 0, 6, "  s_mov_b32 s24, 64\n  buffer_load_dword v6, off, s[20:23], s24 offset:4");
    for (unsigned l = 0; l < 64; ++l) {
        INFO("lane " << l);
        CHECK(at4[l] == 1001);
        CHECK(at8[l] == 0);
        CHECK(pair[l] == 1001);
        CHECK(lanes[l] == (4 * l + 4 < 11 ? 1000 + l + 1 : 0));
        CHECK(structured[l] == (l < 32 ? 1000 + 2 * l + 3 : 0));
        CHECK(strided_raw[l] == 1000 + l);
        CHECK(soffset[l] == 1017);
    }
}

// What hipcc -fgpu-flush-denormals-to-zero makes of integer division and
// int -> float: the host's answers in every lane.
TEST_CASE("hipcc -fgpu-flush-denormals-to-zero: integer division and int to float", "[hip][denorm][fidelity]") {
    const CodeObject co =
        compile_hip(hip_source("denormal_flush.hip"), "-fgpu-flush-denormals-to-zero --offload-arch=gfx906");
    const Program program = build_program(co, co.kernel("integer_math"));
    REQUIRE(program.descriptor.float_mode.denorm_32 == FloatDenormMode::flush_src_dst);
    const unsigned n = 1000, block = 256;
    std::vector<u32> in(n);
    for (u32 i = 0; i < n; ++i) in[i] = i % 3 == 0 ? i * 7919u : i % 3 == 1 ? 0xffffffffu - i * 104729u : i;
    DeviceMemory memory;
    const u64 d_in = memory.allocate(4 * n), d_quotient = memory.allocate(4 * n), d_half = memory.allocate(4 * n);
    memory.write(d_in, in.data(), 4 * n);
    run_1d(memory, program, n, block, 2, d_in, d_quotient, d_half, int(n));
    std::vector<u32> quotient(n);
    std::vector<float> half_id(n);
    memory.read(d_quotient, quotient.data(), 4 * n);
    memory.read(d_half, half_id.data(), 4 * n);
    for (u32 i = 0; i < n; ++i) {
        INFO("item " << i << " in " << in[i]);
        CHECK(quotient[i] == in[i] / (i + 1u));
        CHECK(half_id[i] == float(i % block) * 0.5f);
    }
}

// VOP3 output modifiers of float results (ISA: omod multiplies the result by
// 2, 4 or 0.5, then clamp limits it to [0, 1]; with DX10_CLAMP, the kernels'
// mode, a NaN clamps to 0). Integer results take no output modifier here: the
// run stops naming the instruction.
TEST_CASE("clamp and omod on f32 and f16 results", "[alu][float][clamp][fidelity]") {
    const KernelOptions o = fp32_mode("gfx906", 3);
    std::vector<u32> a(64), b(64, bits(1.0f)), zero(64, 0);
    const float values[] = {-2.0f, -0.0f, 0.25f, 0.75f, 1.5f, 3.0f, INFINITY, -INFINITY, NAN};
    for (unsigned l = 0; l < 64; ++l) a[l] = bits(values[l % std::size(values)]);
    const auto clamped = run_three("  v_mul_f32_e64 v5, v2, v3 clamp", a, b, zero, o);
    const auto doubled = run_three("  v_mul_f32_e64 v5, v2, v3 mul:2", a, b, zero, o);
    const auto quadrupled_clamped = run_three("  v_mul_f32_e64 v5, v2, v3 clamp mul:4", a, b, zero, o);
    const auto halved = run_three("  v_mul_f32_e64 v5, v2, v3 div:2", a, b, zero, o);
    std::vector<u32> a16(64), b16(64, 0x3c00);
    for (unsigned l = 0; l < 64; ++l)
        a16[l] = l % 4 == 0 ? 0xc000 : l % 4 == 1 ? 0x3400 : l % 4 == 2 ? 0x3e00 : 0x7e00;  // -2, 0.25, 1.5, NaN
    const auto clamped16 = run_three("  v_mul_f16_e64 v5, v2, v3 clamp", a16, b16, zero, o);
    const auto doubled16 = run_three("  v_mul_f16_e64 v5, v2, v3 mul:2", a16, b16, zero, o);
    const auto clamp01 = [](float x) { return std::isnan(x) ? 0.0f : x < 0 ? 0.0f : x > 1 ? 1.0f : x; };
    for (unsigned l = 0; l < 64; ++l) {
        const float x = from_bits(a[l]);
        INFO("lane " << l << " x " << x);
        CHECK(clamped[l] == bits(clamp01(x)));
        if (std::isnan(x)) CHECK(std::isnan(from_bits(doubled[l])));
        else CHECK(doubled[l] == bits(x * 2));
        CHECK(quadrupled_clamped[l] == bits(clamp01(x * 4)));
        if (std::isnan(x)) CHECK(std::isnan(from_bits(halved[l])));
        else CHECK(halved[l] == bits(x * 0.5f));
        const u32 want_clamped16[] = {0x0000, 0x3400, 0x3c00, 0x0000}, want_doubled16[] = {0xc400, 0x3800, 0x4200};
        CHECK(clamped16[l] == want_clamped16[l % 4]);
        if (l % 4 == 3) CHECK((doubled16[l] & 0x7fff) > 0x7c00);
        else CHECK(doubled16[l] == want_doubled16[l % 4]);
    }
    // Packed f32 (gfx90a): clamp per half.
    const CodeObject pk = assemble_kernel(
        "  v_mov_b32 v3, 0x40400000\n  v_mov_b32 v4, 0.5\n  v_mov_b32 v5, 0.5\n"
        "  v_pk_mul_f32 v[6:7], v[2:3], v[4:5] clamp\n"
        "  v_pk_fma_f32 v[8:9], v[2:3], v[4:5], v[4:5] clamp\n"
        "  v_add_f32 v5, v6, v7\n  v_add_f32 v5, v5, v8\n  v_add_f32 v5, v5, v9\n"
        "  global_store_dword v1, v5, s[4:5]",
        fp32_mode("gfx90a", 3));
    const Program pk_program = build_program(pk, pk.kernels.at(0));
    TestRun pk_run(64);
    REQUIRE(pk_run.run(pk_program).ok());
    // mul lo: v2 (0: registers start zeroed) * 0.5 = 0; hi: 3 * 0.5 = 1.5, clamped to 1.
    // fma lo: 0 * 0.5 + 0.5 = 0.5; hi: 3 * 0.5 + 0.5 = 2, clamped to 1. Sum 2.5.
    for (u32 x : pk_run.read(0, 64)) CHECK(x == bits(2.5f));
    // An integer result: clamp is saturation there, not modelled; the run stops.
    const CodeObject co = assemble_kernel("  v_cvt_i32_f32_e64 v5, v2 clamp", o);
    const Program program = build_program(co, co.kernels.at(0));
    TestRun run(64);
    const DispatchResult r = run.run(program);
    REQUIRE(r.fault);
    CHECK(r.fault->message.find("v_cvt_i32_f32") != std::string::npos);
    CHECK(r.fault->message.find("clamp/omod") != std::string::npos);
}

// Integer clamp: the adds and subtracts that "support saturation" in the ISA
// guides (VOP2 V_ADD_U32 ... V_SUBBREV_CO_U32 and V_ADD_U16 ... V_SUBREV_U16:
// "(unsigned 32/16-bit integer domain)"; VOP3 V_ADD_I32/V_SUB_I32/V_ADD_I16/
// V_SUB_I16 and VOP3P V_PK_ADD_I16/V_PK_SUB_I16 in the signed domain) give the
// exact result limited to the domain's range; the carry-out stays the
// unsaturated one. hipcc emits v_add_u32 clamp for __clzll (ffbh + 32,
// saturating at ~0) and the saturating-add builtins.
TEST_CASE("integer clamp saturates adds and subtracts in their domain", "[alu][clamp][fidelity]") {
    const std::vector<u32> edges = {0u,          1u,          2u,          0x7fffu,     0x8000u,     0xffffu,
                                    0x10000u,    0x7fffffffu, 0x80000000u, 0x80000001u, 0xfffffffeu, 0xffffffffu,
                                    0x12345678u, 0xfedcba98u, 0x00017fffu, 0xffff8000u};
    std::vector<u32> a(64), b(64), c(64);
    for (unsigned l = 0; l < 64; ++l) {
        a[l] = edges[l % 16];
        b[l] = edges[(l / 16 + l * 5) % 16];
        c[l] = l % 3 == 0;  // carry-in lanes
    }
    const std::vector<std::string> ops = {
        "  v_add_u32_e64 v5, v2, v3 clamp",
        "  v_sub_u32_e64 v5, v2, v3 clamp",
        "  v_subrev_u32_e64 v5, v2, v3 clamp",
        "  v_add_i32 v5, v2, v3 clamp",
        "  v_sub_i32 v5, v2, v3 clamp",
        "  v_add_co_u32_e64 v5, s[20:21], v2, v3 clamp",
        "  v_sub_co_u32_e64 v5, s[20:21], v2, v3 clamp",
        "  v_cmp_ne_u32 vcc, 0, v4\n  v_addc_co_u32_e64 v5, s[20:21], v2, v3, vcc clamp",
        "  v_cmp_ne_u32 vcc, 0, v4\n  v_subb_co_u32_e64 v5, s[20:21], v2, v3, vcc clamp",
        // the carry-out of a saturated add: lanes with carry get 1 in v5
        "  v_add_co_u32_e64 v6, s[20:21], v2, v3 clamp\n  v_cndmask_b32_e64 v5, 0, 1, s[20:21]",
        "  v_add_u16_e64 v5, v2, v3 clamp",
        "  v_sub_u16_e64 v5, v2, v3 clamp",
        "  v_subrev_u16_e64 v5, v2, v3 clamp",
        "  v_add_i16 v5, v2, v3 clamp",
        "  v_sub_i16 v5, v2, v3 clamp",
        "  v_pk_add_u16 v5, v2, v3 clamp",
        "  v_pk_sub_u16 v5, v2, v3 clamp",
        "  v_pk_add_i16 v5, v2, v3 clamp",
        "  v_pk_sub_i16 v5, v2, v3 clamp",
    };
    const auto r = run_three_each(ops, a, b, c);
    const auto u32_range = [](i64 x) { return u32(std::min<i64>(std::max<i64>(x, 0), 0xffffffffll)); };
    const auto i32_range = [](i64 x) { return u32(i32(std::min<i64>(std::max<i64>(x, INT32_MIN), INT32_MAX))); };
    const auto u16_range = [](i64 x) { return u32(std::min<i64>(std::max<i64>(x, 0), 0xffff)); };
    const auto i16_range = [](i64 x) { return u32(std::min<i64>(std::max<i64>(x, -32768), 32767)) & 0xffff; };
    const auto lo = [](u32 x, bool s) { return s ? i64(std::int16_t(x & 0xffff)) : i64(x & 0xffff); };
    const auto hi = [](u32 x, bool s) { return s ? i64(std::int16_t(x >> 16)) : i64(x >> 16); };
    for (unsigned l = 0; l < 64; ++l) {
        const u32 x = a[l], y = b[l], cin = c[l];
        const i64 ux = x, uy = y, sx = i32(x), sy = i32(y);
        INFO("lane " << l << ": " << hex(x) << ", " << hex(y) << ", carry " << cin);
        CHECK(r[0][l] == u32_range(ux + uy));
        CHECK(r[1][l] == u32_range(ux - uy));
        CHECK(r[2][l] == u32_range(uy - ux));
        CHECK(r[3][l] == i32_range(sx + sy));
        CHECK(r[4][l] == i32_range(sx - sy));
        CHECK(r[5][l] == u32_range(ux + uy));
        CHECK(r[6][l] == u32_range(ux - uy));
        CHECK(r[7][l] == u32_range(ux + uy + cin));
        CHECK(r[8][l] == u32_range(ux - uy - cin));
        CHECK(r[9][l] == u32(ux + uy > 0xffffffffll));
        // 16-bit VOP2/VOP3 forms: the low halves, high half of the result 0 (op_sel 0).
        CHECK(r[10][l] == u16_range(lo(x, false) + lo(y, false)));
        CHECK(r[11][l] == u16_range(lo(x, false) - lo(y, false)));
        CHECK(r[12][l] == u16_range(lo(y, false) - lo(x, false)));
        CHECK((r[13][l] & 0xffff) == i16_range(lo(x, true) + lo(y, true)));
        CHECK((r[14][l] & 0xffff) == i16_range(lo(x, true) - lo(y, true)));
        CHECK(r[15][l] == (u16_range(lo(x, false) + lo(y, false)) | u16_range(hi(x, false) + hi(y, false)) << 16));
        CHECK(r[16][l] == (u16_range(lo(x, false) - lo(y, false)) | u16_range(hi(x, false) - hi(y, false)) << 16));
        CHECK(r[17][l] == (i16_range(lo(x, true) + lo(y, true)) | i16_range(hi(x, true) + hi(y, true)) << 16));
        CHECK(r[18][l] == (i16_range(lo(x, true) - lo(y, true)) | i16_range(hi(x, true) - hi(y, true)) << 16));
    }
}
