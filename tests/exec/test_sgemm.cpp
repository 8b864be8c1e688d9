// The dppgemm kernels on the emulator: C bitwise equal to the same-order
// host reference for every row of the variant table.

#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <limits>
#include <optional>
#include <random>

#include "dppgemm/dppgemm.hpp"
#include "dppgemm/reference.hpp"
#include "kernel_builder.hpp"
#include "sgemm_run.hpp"

using namespace exec_test;

namespace {

std::string code_object_path(const std::string& target, const std::string& variant, const std::string& layout) {
    return code_object_dir() + "/" + target + "/dppgemm_sgemm_" + variant + "_" + layout + ".co";
}

// The variant table's row of a variant.
const dppgemm::VariantInfo& row_of(const std::string& variant) {
    const std::optional<dppgemm::Variant> v = dppgemm::parse_variant(variant);
    REQUIRE(v);
    return *dppgemm::variant_info(*v);
}

// The multiply-add the kernel performs (the library's answer, from the variant table).
dppgemm::MacKind mac_of(const std::string& target, const std::string& variant) {
    const std::optional<dppgemm::Variant> v = dppgemm::parse_variant(variant);
    REQUIRE(v);
    return dppgemm::kernel_mac_kind(*v, target);
}

struct Operands {
    std::vector<float> a, b, c0;
};

Operands random_operands(const Gemm& g, std::mt19937& rng) {
    const int cols_a = g.ta == 'N' ? g.k : g.m, cols_b = g.tb == 'N' ? g.n : g.k;
    Operands o;
    o.a = random_matrix(std::size_t(g.lda) * std::max(cols_a, 1), rng);
    o.b = random_matrix(std::size_t(g.ldb) * std::max(cols_b, 1), rng);
    o.c0 = random_matrix(std::size_t(g.ldc) * g.n, rng);
    return o;
}

// Runs the kernel on `o`; returns C bitwise compared with the reference of `mac`
// (the number of elements that differ).
std::size_t mismatches_against(const std::string& target, const std::string& variant, const std::string& layout,
                               const Gemm& g, const Operands& o, dppgemm::MacKind mac, unsigned threads = 2) {
    const std::string path = code_object_path(target, variant, layout);
    REQUIRE(std::filesystem::exists(path));
    const CodeObject co = load_code_object(path);
    const Program program = build_program(co, co.kernels.at(0));
    GemmResult r = run_gemm(program, row_of(variant).macro_tile, g, o.a, o.b, o.c0, threads);
    INFO(path << " m=" << g.m << " n=" << g.n << " k=" << g.k << " alpha=" << g.alpha << " beta=" << g.beta);
    REQUIRE_FALSE(r.dispatch.fault.has_value());
    std::vector<float> expected = o.c0;
    dppgemm::reference_sgemm(mac, g.ta, g.tb, g.m, g.n, g.k, g.alpha, o.a.data(), g.lda, o.b.data(), g.ldb, g.beta,
                             expected.data(), g.ldc);
    std::size_t mismatches = 0;
    for (std::size_t i = 0; i < expected.size(); ++i)
        if (std::memcmp(&expected[i], &r.c[i], 4) != 0) ++mismatches;
    return mismatches;
}

void check_bitwise(const std::string& target, const std::string& variant, const std::string& layout, const Gemm& g,
                   std::mt19937& rng, unsigned threads = 2) {
    const Operands o = random_operands(g, rng);
    INFO(target << " " << variant << " " << layout);
    CHECK(mismatches_against(target, variant, layout, g, o, mac_of(target, variant), threads) == 0);
}

}  // namespace

TEST_CASE("sgemm dpp0/dpp1/dpp2 and their 64x64 twins NN on gfx906 are bitwise equal to the same-order reference",
          "[sgemm]") {
    std::mt19937 rng(1234);
    for (const char* variant : {"dpp0", "dpp1", "dpp2", "dpp0_64", "dpp1_64", "dpp2_64"}) {
        Gemm g;
        g.m = 200, g.n = 150, g.k = 37, g.lda = 211, g.ldb = 40, g.ldc = 203, g.alpha = 1.5f, g.beta = -0.5f;
        check_bitwise("gfx906", variant, "NN", g, rng);
    }
}

TEST_CASE("sgemm layouts and edge shapes are bitwise equal to the reference", "[sgemm]") {
    std::mt19937 rng(99);
    for (const char* layout : {"NT", "TN", "TT"}) {
        Gemm g;
        g.ta = layout[0], g.tb = layout[1];
        g.m = 130, g.n = 129, g.k = 17, g.alpha = 0.75f, g.beta = 2.0f;
        g.lda = (g.ta == 'N' ? g.m : g.k) + 3;
        g.ldb = (g.tb == 'N' ? g.k : g.n) + 1;
        g.ldc = g.m + 5;
        check_bitwise("gfx906", "dpp1", layout, g, rng);
    }
    Gemm zero_k;
    zero_k.m = 64, zero_k.n = 33, zero_k.k = 0, zero_k.lda = 64, zero_k.ldb = 1, zero_k.ldc = 64, zero_k.beta = 1.0f;
    check_bitwise("gfx906", "dpp2", "NN", zero_k, rng);
    Gemm beta_zero;
    beta_zero.m = 8, beta_zero.n = 300, beta_zero.k = 9, beta_zero.lda = 8, beta_zero.ldb = 9, beta_zero.ldc = 8;
    beta_zero.beta = 0.0f;
    check_bitwise("gfx906", "dpp0", "NN", beta_zero, rng);
}

TEST_CASE("every target, variant and layout is bitwise equal to the reference", "[sgemm][every-kernel]") {
    std::mt19937 rng(7);
    unsigned checked = 0;
    for (const char* target : {"gfx900", "gfx906", "gfx908", "gfx90a", "gfx940", "gfx942"})
        for (const dppgemm::VariantInfo& row : dppgemm::variant_table())
            for (const char* layout : {"NN", "NT", "TN", "TT"}) {
                const char* variant = row.name;
                if (!std::filesystem::exists(code_object_path(target, variant, layout))) continue;
                Gemm g;
                g.ta = layout[0], g.tb = layout[1];
                g.m = 70 + int(rng() % 100), g.n = 1 + int(rng() % 150), g.k = int(rng() % 30);
                g.lda = (g.ta == 'N' ? g.m : std::max(g.k, 1)) + int(rng() % 3);
                g.ldb = (g.tb == 'N' ? std::max(g.k, 1) : g.n) + int(rng() % 3);
                g.ldc = g.m + int(rng() % 3);
                g.alpha = (rng() % 4 == 0) ? 0.0f : 1.25f;
                g.beta = (rng() % 3 == 0) ? 0.0f : -0.75f;
                check_bitwise(target, variant, layout, g, rng);
                ++checked;
            }
    CHECK(checked >= 48);  // gfx900/906/908/90a at least; gfx940/942 when built
}

TEST_CASE("every variant row and layout at the edges, with padded leading dimensions and alpha/beta special cases",
          "[sgemm][every-kernel]") {
    std::mt19937 rng(19);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    // M, N around the 128 macro tile, K around the 8-deep step (odd tails, one
    // and several steps, K = 0); gfx906 (v_mac_f32) and gfx942 (v_fmac_f32,
    // measured b128 lane grouping, row_newbcast and packed rows).
    const int shapes[][3] = {{1, 1, 1}, {129, 130, 9}, {127, 257, 17}, {64, 1, 33}, {200, 70, 0}};
    unsigned checked = 0;
    for (const char* target : {"gfx906", "gfx942"})
        for (const dppgemm::VariantInfo& row : dppgemm::variant_table())
            for (const char* layout : {"NN", "NT", "TN", "TT"}) {
                if (!std::filesystem::exists(code_object_path(target, row.name, layout))) continue;
                const dppgemm::MacKind mac = mac_of(target, row.name);
                INFO(target << " " << row.name << " " << layout);
                Gemm g;
                g.ta = layout[0], g.tb = layout[1];
                for (const auto& [m, n, k] : shapes) {
                    g.m = m, g.n = n, g.k = k, g.alpha = 1.25f, g.beta = -0.75f;
                    g.lda = (g.ta == 'N' ? g.m : std::max(g.k, 1)) + 3;
                    g.ldb = (g.tb == 'N' ? std::max(g.k, 1) : g.n) + 1;
                    g.ldc = g.m + 2;
                    CHECK(mismatches_against(target, row.name, layout, g, random_operands(g, rng), mac) == 0);
                }
                g.m = 131, g.n = 67, g.k = 13;
                g.lda = g.ta == 'N' ? g.m : g.k, g.ldb = g.tb == 'N' ? g.k : g.n, g.ldc = g.m;
                // beta = 0: C holds NaN, which must not reach the result.
                Operands o = random_operands(g, rng);
                std::fill(o.c0.begin(), o.c0.end(), nan);
                g.alpha = 2.0f, g.beta = 0.0f;
                CHECK(mismatches_against(target, row.name, layout, g, o, mac) == 0);
                // alpha = 0: A and B hold NaN and are not referenced; C = beta * C.
                o = random_operands(g, rng);
                std::fill(o.a.begin(), o.a.end(), nan);
                std::fill(o.b.begin(), o.b.end(), nan);
                g.alpha = 0.0f, g.beta = 3.0f;
                CHECK(mismatches_against(target, row.name, layout, g, o, mac) == 0);
                // alpha = 1, beta = 1: no shortcut may change the rounding.
                g.alpha = 1.0f, g.beta = 1.0f;
                CHECK(mismatches_against(target, row.name, layout, g, random_operands(g, rng), mac) == 0);
                ++checked;
            }
    CHECK(checked >= 5 * 4 * 2);  // dpp0..dpp3, dpp3half on both targets at least
}

TEST_CASE("packed (v_pk_fma_f32) on gfx90a and gfx942: every layout at the edges, bitwise vs the fused reference",
          "[sgemm][packed]") {
    std::mt19937 rng(14);
    // M, N around the 128 macro tile and K around the 8-deep step, including 1 and K = 0.
    const int shapes[][3] = {{1, 1, 1}, {128, 128, 8}, {129, 130, 9}, {127, 257, 17}, {64, 1, 33}, {200, 70, 0}};
    for (const char* target : {"gfx90a", "gfx942"})
        for (const char* layout : {"NN", "NT", "TN", "TT"})
            for (const auto& [m, n, k] : shapes) {
                Gemm g;
                g.ta = layout[0], g.tb = layout[1];
                g.m = m, g.n = n, g.k = k, g.alpha = 1.25f, g.beta = -0.75f;
                g.lda = (g.ta == 'N' ? g.m : std::max(g.k, 1)) + 3;
                g.ldb = (g.tb == 'N' ? std::max(g.k, 1) : g.n) + 1;
                g.ldc = g.m + 2;
                check_bitwise(target, "packed", layout, g, rng);
            }
}

TEST_CASE("packed is fused: v_mac_f32's reference differs, the fused one does not", "[sgemm][packed]") {
    std::mt19937 rng(15);
    Gemm g;
    g.m = 130, g.n = 129, g.k = 40, g.lda = 130, g.ldb = 40, g.ldc = 130, g.alpha = 1.0f, g.beta = 0.5f;
    const Operands o = random_operands(g, rng);
    CHECK(mismatches_against("gfx90a", "packed", "NN", g, o, dppgemm::MacKind::fmac_f32) == 0);
    CHECK(mismatches_against("gfx90a", "packed", "NN", g, o, dppgemm::MacKind::mac_f32) > 0);
}

TEST_CASE("packed: LDS conflict-free under both lane groupings (gfx90a consecutive, gfx942 measured phases)",
          "[sgemm][packed][counters]") {
    std::mt19937 rng(17);
    for (const char* target : {"gfx90a", "gfx942"}) {
        const CodeObject co = load_code_object(code_object_path(target, "packed", "NN"));
        const Program program = build_program(co, co.kernels.at(0));
        Gemm g;
        g.m = 128, g.n = 128, g.k = 64, g.lda = 128, g.ldb = 64, g.ldc = 128;
        const std::vector<float> a = random_matrix(128 * 64, rng), b = random_matrix(64 * 128, rng), c(128 * 128, 0.0f);
        const GemmResult r = run_gemm(program, row_of("packed").macro_tile, g, a, b, c, 1);
        REQUIRE(r.dispatch.ok());
        INFO(target);
        CHECK(r.dispatch.counters.lds_bank_conflict_cycles == 0);
        CHECK(r.dispatch.counters.lds_read_requests == 8192 * 8);  // 8 steps of 8192
    }
}

TEST_CASE("packed: alpha and beta special cases (beta = 0 never reads C, alpha = 0 never reads A, B)",
          "[sgemm][packed]") {
    std::mt19937 rng(16);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (const char* target : {"gfx90a", "gfx942"})
        for (const char* layout : {"NN", "TT"}) {
            Gemm g;
            g.ta = layout[0], g.tb = layout[1];
            g.m = 131, g.n = 67, g.k = 13;
            g.lda = g.ta == 'N' ? g.m : g.k, g.ldb = g.tb == 'N' ? g.k : g.n, g.ldc = g.m;
            INFO(target << " " << layout);
            // beta = 0: C holds NaN, which must not reach the result.
            Operands o = random_operands(g, rng);
            std::fill(o.c0.begin(), o.c0.end(), nan);
            g.alpha = 2.0f, g.beta = 0.0f;
            CHECK(mismatches_against(target, "packed", layout, g, o, dppgemm::MacKind::fmac_f32) == 0);
            g.beta = -0.0f;
            CHECK(mismatches_against(target, "packed", layout, g, o, dppgemm::MacKind::fmac_f32) == 0);
            // alpha = 0: A and B hold NaN and are not referenced; C = beta * C.
            o = random_operands(g, rng);
            std::fill(o.a.begin(), o.a.end(), nan);
            std::fill(o.b.begin(), o.b.end(), nan);
            g.alpha = 0.0f, g.beta = 3.0f;
            CHECK(mismatches_against(target, "packed", layout, g, o, dppgemm::MacKind::fmac_f32) == 0);
            // alpha = 1, beta = 1 and alpha = -1, beta = 0.5 (no shortcut may change the rounding).
            o = random_operands(g, rng);
            g.alpha = 1.0f, g.beta = 1.0f;
            CHECK(mismatches_against(target, "packed", layout, g, o, dppgemm::MacKind::fmac_f32) == 0);
            g.alpha = -1.0f, g.beta = 0.5f;
            CHECK(mismatches_against(target, "packed", layout, g, o, dppgemm::MacKind::fmac_f32) == 0);
        }
}

// LDS read requests and extra VALU per step of every variant: test_variant_table.cpp.

TEST_CASE("every variant, layout and target: LDS requests as in the table and no bank conflicts",
          "[sgemm][counters][every-kernel]") {
    std::mt19937 rng(5);
    unsigned checked = 0;
    for (const char* target : {"gfx900", "gfx906", "gfx908", "gfx90a", "gfx942"})
        for (const dppgemm::VariantInfo& row : dppgemm::variant_table())
            for (const char* layout : {"NN", "NT", "TN", "TT"}) {
                const std::string path = code_object_path(target, row.name, layout);
                if (!std::filesystem::exists(path)) continue;  // which exist: test_variant_table.cpp
                const CodeObject co = load_code_object(path);
                const Program program = build_program(co, co.kernels.at(0));
                Gemm g;
                g.ta = layout[0], g.tb = layout[1];
                g.m = 256, g.n = 128, g.k = 64;
                g.lda = g.ta == 'N' ? 256 : 64, g.ldb = g.tb == 'N' ? 64 : 128, g.ldc = 256;
                const std::vector<float> a = random_matrix(256 * 64, rng), b = random_matrix(64 * 128, rng),
                                         c(256 * 128, 0.0f);
                const GemmResult r = run_gemm(program, row.macro_tile, g, a, b, c, 2);
                REQUIRE(r.dispatch.ok());
                const std::uint64_t workgroups = (256 / row.macro_tile) * (128 / row.macro_tile),
                                    steps = workgroups * (64 / 8);
                INFO(target << " " << row.name << " " << layout);
                CHECK(r.dispatch.counters.lds_read_requests == row.lds_read_requests_per_step * steps);
                CHECK(r.dispatch.counters.lds_bank_conflict_cycles == 0);
                CHECK(r.dispatch.counters.workgroups == workgroups);
                CHECK(r.dispatch.counters.waves == 4 * workgroups);
                ++checked;
            }
    CHECK(checked >= 3 * 4 * 5);  // dpp0..dpp2 on gfx900..gfx942 at least
}

TEST_CASE("results and counters do not depend on the thread count", "[sgemm][threads]") {
    std::mt19937 rng(11);
    const CodeObject co = load_code_object(code_object_path("gfx906", "dpp1", "NN"));
    const Program program = build_program(co, co.kernels.at(0));
    Gemm g;
    g.m = 300, g.n = 260, g.k = 20, g.lda = 300, g.ldb = 20, g.ldc = 300, g.beta = 0.5f;
    const std::vector<float> a = random_matrix(300 * 20, rng), b = random_matrix(20 * 260, rng),
                             c = random_matrix(300 * 260, rng);
    const GemmResult one = run_gemm(program, row_of("dpp1").macro_tile, g, a, b, c, 1);
    const GemmResult four = run_gemm(program, row_of("dpp1").macro_tile, g, a, b, c, 4);
    REQUIRE(one.dispatch.ok());
    CHECK(one.dispatch.counters == four.dispatch.counters);
    CHECK(std::memcmp(one.c.data(), four.c.data(), 4 * one.c.size()) == 0);
}

TEST_CASE("the random schedule gives a race-free kernel's results and counters, seed by seed", "[sgemm][schedule]") {
    std::mt19937 rng(12);
    const CodeObject co = load_code_object(code_object_path("gfx906", "dpp2", "NT"));
    const Program program = build_program(co, co.kernels.at(0));
    Gemm g;
    g.tb = 'T';
    g.m = 300, g.n = 260, g.k = 24, g.lda = 300, g.ldb = 260, g.ldc = 300, g.beta = 0.5f;
    const std::vector<float> a = random_matrix(300 * 24, rng), b = random_matrix(24 * 260, rng),
                             c = random_matrix(300 * 260, rng);
    const unsigned macro_tile = row_of("dpp2").macro_tile;
    const GemmResult parallel = run_gemm(program, macro_tile, g, a, b, c, 2);
    REQUIRE(parallel.dispatch.ok());
    for (std::uint64_t seed : {1u, 2u, 3u}) {
        Schedule random;
        random.kind = Schedule::Kind::random;
        random.seed = seed;
        random.resident = 4;  // fewer than the 6 workgroups: slots are reused
        const GemmResult r = run_gemm(program, macro_tile, g, a, b, c, 2, random);
        REQUIRE(r.dispatch.ok());
        CHECK(r.dispatch.counters == parallel.dispatch.counters);
        CHECK(std::memcmp(r.c.data(), parallel.c.data(), 4 * r.c.size()) == 0);
    }
}
