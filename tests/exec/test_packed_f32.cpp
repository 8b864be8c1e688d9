// Packed fp32 VOP3P (gfx90a, gfx940, gfx942): v_pk_fma_f32, v_pk_mul_f32,
// v_pk_add_f32, v_pk_mov_b32 against the ISA's description.
//
// AMD "Instinct MI200" ISA, VOP3P: a packed op computes a low and a high
// result; OPSEL bit i picks which half of source i feeds the low result,
// OPSEL_HI bit i the half feeding the high result, NEG_LO / NEG_HI negate
// source i for that result. For the 32-bit packed ops a "half" is one dword
// of the 64-bit register pair. v_pk_fma_f32 is fused (one rounding: D = A*B+C
// as V_FMA_F32 per half); the fp32 denormal mode flushes inputs and results
// like every fp32 VALU op. The oracle below is std::fma on the halves the
// modifiers name; a few cases are worked out by hand as bit patterns.

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <random>
#include <sstream>

#include "kernel_builder.hpp"

using namespace exec_test;

namespace {

float f(u32 b) { return from_bits(b); }
bool is_nan(u32 b) { return (b & 0x7fffffffu) > 0x7f800000u; }
u32 flush(u32 b) { return (b & 0x7f800000u) ? b : (b & 0x80000000u); }

// One lane's three 64-bit operands (dword 0 = low half).
struct Lane {
    u64 a, b, c;
};
u32 half(u64 x, unsigned h) { return u32(x >> (32 * h)); }

// Loads p1/p2/p3[i] (64-bit) into v[2:3], v[4:5], v[6:7], runs `op`, stores
// v[8:9] to p0[i]. v[8:9] starts as 0x12345678_9abcdef0 so that an op that
// leaves a half unwritten shows.
std::string lane_kernel(const std::string& op) {
    return "  s_lshl_b32 s0, s2, 6\n  v_add_u32 v1, s0, v0\n  v_lshlrev_b32 v1, 3, v1\n"
           "  global_load_dwordx2 v[2:3], v1, s[6:7]\n  global_load_dwordx2 v[4:5], v1, s[8:9]\n"
           "  global_load_dwordx2 v[6:7], v1, s[10:11]\n  v_mov_b32 v8, 0x9abcdef0\n  v_mov_b32 v9, 0x12345678\n"
           "  s_waitcnt vmcnt(0)\n" +
           op + "\n  global_store_dwordx2 v1, v[8:9], s[4:5]\n";
}

// Runs a lane_kernel(op) program on the lanes.
std::vector<u64> run_program_lanes(const Program& program, const std::string& op, std::vector<Lane> lanes) {
    const std::size_t n = (lanes.size() + 63) / 64 * 64;
    lanes.resize(n, Lane{0, 0, 0});
    TestRun run(2 * n);
    run.grid = {static_cast<u32>(n / 64), 1, 1};
    std::vector<u32> a, b, c;
    for (const Lane& l : lanes) {
        for (unsigned h = 0; h < 2; ++h) {
            a.push_back(half(l.a, h));
            b.push_back(half(l.b, h));
            c.push_back(half(l.c, h));
        }
    }
    run.fill(1, a);
    run.fill(2, b);
    run.fill(3, c);
    INFO(op);
    run.run_to_end(program);
    const std::vector<u32> out = run.read(0, 2 * n);
    std::vector<u64> result(n);
    for (std::size_t i = 0; i < n; ++i) result[i] = u64{out[2 * i]} | (u64{out[2 * i + 1]} << 32);
    return result;
}

std::vector<u64> run_lanes(const std::string& op, std::vector<Lane> lanes, unsigned denorm_mode_32,
                           const std::string& mcpu = "gfx90a") {
    KernelOptions options;
    options.mcpu = mcpu;
    options.denorm_mode_32 = denorm_mode_32;
    const CodeObject co = assemble_kernel(lane_kernel(op), options);
    return run_program_lanes(build_program(co, co.kernels.at(0)), op, std::move(lanes));
}

// fp32 values worth meeting: zeros, denormals, the smallest normals, one and
// its neighbours, the largest finite, infinities, quiet and signaling NaNs.
const std::vector<u32> specials = {0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff,
                                   0x00800000, 0x80800000, 0x3f800000, 0xbf800000, 0x3f800001, 0x3f7fffff,
                                   0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0x7fa00000,
                                   0x40000000, 0x1f800000, 0x20000000, 0x5f800000};

std::vector<Lane> operand_lanes(u32 seed) {
    std::mt19937 rng(seed);
    std::vector<Lane> lanes;
    auto pair = [](u32 lo, u32 hi) { return u64{lo} | (u64{hi} << 32); };
    // Every (a, b) pair of specials in every half position; c from the list too.
    for (std::size_t i = 0; i < specials.size(); ++i)
        for (std::size_t j = 0; j < specials.size(); ++j) {
            const u32 x = specials[i], y = specials[j], z = specials[(i + 3 * j) % specials.size()];
            lanes.push_back({pair(x, rng()), pair(rng(), y), pair(z, specials[(i + j) % specials.size()])});
            lanes.push_back({pair(rng(), x), pair(y, rng()), pair(rng(), z)});
        }
    // Random values of similar magnitude (cancellation: where fused and unfused differ).
    std::uniform_real_distribution<float> dist(-2.0f, 2.0f);
    for (int i = 0; i < 1024; ++i) {
        const float x = dist(rng), y = dist(rng);
        lanes.push_back(
            {pair(bits(x), bits(dist(rng))), pair(bits(y), bits(dist(rng))), pair(bits(-x * y), bits(dist(rng)))});
    }
    // Random bit patterns (denormal products, overflow, NaN payloads).
    for (int i = 0; i < 1024; ++i) lanes.push_back({pair(rng(), rng()), pair(rng(), rng()), pair(rng(), rng())});
    return lanes;
}

// Modifier bits per source (bit i = source i), as written in the op text.
struct Modifiers {
    unsigned op_sel = 0, op_sel_hi = 7, neg_lo = 0, neg_hi = 0;
};

std::string modifier_text(const Modifiers& m, unsigned sources) {
    auto list = [&](const char* name, unsigned v, unsigned fallback) {
        if (v == fallback) return std::string();
        std::ostringstream s;
        s << " " << name << ":[";
        for (unsigned i = 0; i < sources; ++i) s << (i ? "," : "") << ((v >> i) & 1);
        s << "]";
        return s.str();
    };
    const unsigned all = (1u << sources) - 1;
    return list("op_sel", m.op_sel, 0) + list("op_sel_hi", m.op_sel_hi & all, all) + list("neg_lo", m.neg_lo, 0) +
           list("neg_hi", m.neg_hi, 0);
}

enum class Fp { fma, mul, add };

// The ISA's rule, applied to one lane: half h of the result from the halves
// the modifiers select, flushed in and out when fp32 denormals are flushed.
u64 oracle(Fp op, const Lane& l, const Modifiers& m, bool flush_denormals) {
    u64 result = 0;
    for (unsigned h = 0; h < 2; ++h) {
        const unsigned sel = h ? m.op_sel_hi : m.op_sel, neg = h ? m.neg_hi : m.neg_lo;
        const u64 src[3] = {l.a, l.b, l.c};
        float x[3];
        for (unsigned i = 0; i < 3; ++i) {
            u32 v = half(src[i], (sel >> i) & 1) ^ (((neg >> i) & 1) << 31);
            x[i] = f(flush_denormals ? flush(v) : v);
        }
        const float r = op == Fp::fma ? std::fma(x[0], x[1], x[2]) : op == Fp::mul ? x[0] * x[1] : x[0] + x[1];
        const u32 rb = flush_denormals ? flush(bits(r)) : bits(r);
        result |= u64{rb} << (32 * h);
    }
    return result;
}

std::string op_text(const std::string& op, Fp fp, const Modifiers& m) {
    const unsigned sources = fp == Fp::fma ? 3 : 2;
    return "  " + op + (sources == 3 ? " v[8:9], v[2:3], v[4:5], v[6:7]" : " v[8:9], v[2:3], v[4:5]") +
           modifier_text(m, sources);
}

// Checks op with modifiers m against the oracle on operand_lanes; runs
// `program` (lane_kernel(op_text(op, fp, m)) assembled for the mode) when
// given, else assembles it.
void check(const std::string& op, Fp fp, const Modifiers& m, unsigned denorm_mode_32,
           const std::string& mcpu = "gfx90a", const Program* program = nullptr) {
    const std::string text = op_text(op, fp, m);
    const std::vector<Lane> lanes = operand_lanes(7 + m.op_sel + 8 * m.op_sel_hi);
    const std::vector<u64> got =
        program ? run_program_lanes(*program, text, lanes) : run_lanes(text, lanes, denorm_mode_32, mcpu);
    unsigned bad = 0;
    for (std::size_t i = 0; i < lanes.size(); ++i) {
        const u64 want = oracle(fp, lanes[i], m, denorm_mode_32 == 0);
        for (unsigned h = 0; h < 2; ++h) {
            const u32 g = half(got[i], h), w = half(want, h);
            const bool same = is_nan(w) ? is_nan(g) : g == w;
            if (!same && bad++ < 5)
                FAIL_CHECK(text << " (denorm mode " << denorm_mode_32 << ") lane " << i << " half " << h << std::hex
                                << ": a " << lanes[i].a << " b " << lanes[i].b << " c " << lanes[i].c << " got " << g
                                << " want " << w);
        }
    }
    CHECK(bad == 0);
}

}  // namespace

TEST_CASE("v_pk_fma_f32: op_sel / op_sel_hi pick the dword of each source pair, one rounding per half",
          "[alu][packed_f32]") {
    // Every op_sel x op_sel_hi combination (64), fp32 denormals flushed (the
    // kernels' mode); the 64 kernels assembled at once.
    std::vector<Modifiers> combinations;
    std::vector<std::string> kernels;
    for (unsigned op_sel = 0; op_sel < 8; ++op_sel)
        for (unsigned op_sel_hi = 0; op_sel_hi < 8; ++op_sel_hi) {
            Modifiers m;
            m.op_sel = op_sel;
            m.op_sel_hi = op_sel_hi;
            combinations.push_back(m);
            kernels.push_back(lane_kernel(op_text("v_pk_fma_f32", Fp::fma, m)));
        }
    KernelOptions options;
    options.mcpu = "gfx90a";
    options.denorm_mode_32 = 0;
    const CodeObject co = assemble_kernels(kernels, options);
    for (std::size_t i = 0; i < combinations.size(); ++i) {
        const Program program = build_program(co, co.kernel("k" + std::to_string(i)));
        check("v_pk_fma_f32", Fp::fma, combinations[i], 0, "gfx90a", &program);
    }
}

TEST_CASE("v_pk_fma_f32: neg_lo / neg_hi, denormals kept or flushed, gfx942", "[alu][packed_f32]") {
    for (unsigned mode : {0u, 3u}) {
        check("v_pk_fma_f32", Fp::fma, Modifiers{0, 7, 0, 0}, mode);
        check("v_pk_fma_f32", Fp::fma, Modifiers{2, 5, 1, 4}, mode);
        check("v_pk_fma_f32", Fp::fma, Modifiers{5, 2, 6, 3}, mode);
    }
    // gfx942 assembles with LLVM 15 as gfx940: the same VOP3P encoding.
    check("v_pk_fma_f32", Fp::fma, Modifiers{0, 5, 0, 0}, 0, "gfx940");
}

TEST_CASE("v_pk_mul_f32 and v_pk_add_f32 with op_sel, op_sel_hi, neg", "[alu][packed_f32]") {
    for (unsigned mode : {0u, 3u})
        for (const Modifiers& m :
             {Modifiers{0, 3, 0, 0}, Modifiers{1, 0, 0, 0}, Modifiers{2, 1, 1, 2}, Modifiers{3, 3, 2, 1}}) {
            check("v_pk_mul_f32", Fp::mul, m, mode);
            check("v_pk_add_f32", Fp::add, m, mode);
        }
}

TEST_CASE("v_pk_fma_f32 worked out by hand: fused rounding, B broadcast, denormals, zeros, NaN", "[alu][packed_f32]") {
    auto pair = [](u32 lo, u32 hi) { return u64{lo} | (u64{hi} << 32); };
    const u32 one_up = 0x3f800001;    // 1 + 2^-23
    const u32 one_down = 0x3f7fffff;  // 1 - 2^-24
    // (1 + 2^-23)(1 - 2^-24) - 1 = 2^-23 - 2^-24 - 2^-47 = 2^-24 - 2^-47, exactly
    // representable: 0x337ffffe (unfused, the product rounds to 1 and the
    // result is +0).
    const std::vector<Lane> lanes = {
        // The kernel's two forms on the same pair B = {b.x = 2, b.y = 3}:
        {pair(bits(1.5f), bits(-4.0f)), pair(bits(2.0f), bits(3.0f)), pair(bits(0.25f), bits(1.0f))},
        {pair(one_up, one_up), pair(one_down, one_down), pair(0xbf800000, 0xbf800000)},
        // 2^-100 * 2^-30 = 2^-130: denormal 0x00080000 when kept, +0 when flushed;
        // a denormal input (2^-149) times 2^30 = 2^-119 (0x04000000) when kept.
        {pair(0x0d800000, 0x00000001), pair(0x30800000, 0x4e800000), pair(0, 0)},
        // -0 * 1 + -0 = -0; inf * 0 + 0 = NaN.
        {pair(0x80000000, 0x7f800000), pair(0x3f800000, 0x00000000), pair(0x80000000, 0x00000000)},
    };
    SECTION("op_sel_hi:[1,0,1]: b.x for both halves") {
        const auto got = run_lanes("  v_pk_fma_f32 v[8:9], v[2:3], v[4:5], v[6:7] op_sel_hi:[1,0,1]", lanes, 0);
        CHECK(got[0] == pair(bits(3.25f), bits(-7.0f)));  // 1.5*2+0.25, -4*2+1
    }
    SECTION("op_sel:[0,1,0]: b.y for both halves") {
        const auto got = run_lanes("  v_pk_fma_f32 v[8:9], v[2:3], v[4:5], v[6:7] op_sel:[0,1,0]", lanes, 0);
        CHECK(got[0] == pair(bits(4.75f), bits(-11.0f)));  // 1.5*3+0.25, -4*3+1
    }
    SECTION("default modifiers: fused, flushed") {
        const auto got = run_lanes("  v_pk_fma_f32 v[8:9], v[2:3], v[4:5], v[6:7]", lanes, 0);
        CHECK(got[0] == pair(bits(3.25f), bits(-11.0f)));
        CHECK(got[1] == pair(0x337ffffe, 0x337ffffe));
        CHECK(got[2] == pair(0, 0));
        CHECK(half(got[3], 0) == 0x80000000);
        CHECK(is_nan(half(got[3], 1)));
    }
    SECTION("default modifiers: denormals kept") {
        const auto got = run_lanes("  v_pk_fma_f32 v[8:9], v[2:3], v[4:5], v[6:7]", lanes, 3);
        CHECK(got[1] == pair(0x337ffffe, 0x337ffffe));
        CHECK(got[2] == pair(0x00080000, 0x04000000));
    }
}

TEST_CASE("v_pk_mov_b32: op_sel picks the dword of each source", "[alu][packed_f32]") {
    auto pair = [](u32 lo, u32 hi) { return u64{lo} | (u64{hi} << 32); };
    const std::vector<Lane> lanes = {{pair(0x11111111, 0x22222222), pair(0x33333333, 0x44444444), 0}};
    const std::pair<const char*, u64> cases[] = {
        {"", pair(0x11111111, 0x33333333)},
        {" op_sel:[1,0]", pair(0x22222222, 0x33333333)},
        {" op_sel:[0,1]", pair(0x11111111, 0x44444444)},
        {" op_sel:[1,1]", pair(0x22222222, 0x44444444)},
    };
    for (const auto& [modifiers, want] : cases) {
        const auto got = run_lanes(std::string("  v_pk_mov_b32 v[8:9], v[2:3], v[4:5]") + modifiers, lanes, 0);
        INFO(modifiers);
        CHECK(got[0] == want);
    }
}

TEST_CASE("v_pk_fma_f32 reads every source before writing: a destination overlapping a source", "[alu][packed_f32]") {
    // The high half selects the low dword of v[2:3], which the low half writes:
    // it must see the old value (ISA: sources are read, then the result written).
    const std::vector<Lane> lanes = operand_lanes(21);
    for (unsigned mode : {0u, 3u}) {
        const auto got = run_lanes(
            "  v_pk_fma_f32 v[2:3], v[2:3], v[4:5], v[6:7] op_sel_hi:[0,1,1]\n"
            "  v_mov_b32 v8, v2\n  v_mov_b32 v9, v3",
            lanes, mode);
        unsigned bad = 0;
        for (std::size_t i = 0; i < lanes.size(); ++i) {
            const u64 want = oracle(Fp::fma, lanes[i], Modifiers{0, 6, 0, 0}, mode == 0);
            for (unsigned h = 0; h < 2; ++h) {
                const u32 g = half(got[i], h), w = half(want, h);
                if (!(is_nan(w) ? is_nan(g) : g == w) && bad++ < 5)
                    FAIL_CHECK("lane " << i << " half " << h << std::hex << ": got " << g << " want " << w);
            }
        }
        CHECK(bad == 0);
    }
}
