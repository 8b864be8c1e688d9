// The progression steps as users call them (dppgemm/progression.hpp): every
// step bit for bit against the same-order reference, the counted facts
// docs/progression.md states, model_only's tiles, and the refusals.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "dppgemm/progression.hpp"
#include "dppgemm/reference.hpp"

using namespace dppgemm;

namespace {

struct Nn {
    int m, n, k, lda, ldb, ldc;
    float alpha, beta;
    std::vector<float> a, b, c;
    Nn(int m_, int n_, int k_, float alpha_ = 1.0f, float beta_ = 0.0f, int pad = 0)
        : m(m_), n(n_), k(k_), lda(m_ + pad), ldb(k_ + pad), ldc(m_ + pad), alpha(alpha_), beta(beta_) {
        std::mt19937 random(std::uint32_t(m * 131 + n * 7 + k));
        std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
        a.resize(std::size_t(lda) * k);
        b.resize(std::size_t(ldb) * n);
        c.resize(std::size_t(ldc) * n);
        for (auto* v : {&a, &b, &c})
            for (float& x : *v) x = uniform(random);
    }
    std::vector<float> reference() const {
        std::vector<float> out = c;
        reference_sgemm(MacKind::fmac_f32_denormals, 'N', 'N', m, n, k, alpha, a.data(), lda, b.data(), ldb, beta,
                        out.data(), ldc);
        return out;
    }
    Result run(const char* step, std::vector<float>& out, const Options& options) const {
        out = c;
        return progression_sgemm(step, m, n, k, alpha, a.data(), lda, b.data(), ldb, beta, out.data(), ldc, options);
    }
};

Options emu(const std::string& target) {
    Options options;
    options.backend = Backend::emu;
    options.emu_target = target;
    return options;
}

bool bitwise_equal(const std::vector<float>& x, const std::vector<float>& y) {
    return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * 4) == 0;
}

}  // namespace

TEST_CASE("every SGEMM step is bitwise equal to the same-order reference, on gfx906 and gfx90a") {
    // 128 x 128 x 32 with alpha, beta and padded leading dimensions (multiples
    // of 4 for the float4 steps).
    const Nn p(128, 128, 32, -0.75f, 0.5f, 4);
    const std::vector<float> expected = p.reference();
    for (const std::string target : {"gfx906", "gfx90a"})
        for (const SgemmStep& step : sgemm_steps()) {
            INFO(step.name << " on " << target);
            std::vector<float> c;
            const Result r = p.run(step.name, c, emu(target));
            REQUIRE(r.message == "");
            CHECK(r.kernel == std::string("dppgemm_progression_") + step.name);
            CHECK(bitwise_equal(c, expected));
        }
}

TEST_CASE("the steps without LDS tiles take any size, and beta = 0 writes alpha A B") {
    const Nn p(37, 21, 19, 2.0f, 0.0f, 3);
    const std::vector<float> expected = p.reference();
    for (const char* step : {"naive", "coalesced"}) {
        INFO(step);
        std::vector<float> c;
        REQUIRE(p.run(step, c, emu("gfx906")).message == "");
        CHECK(bitwise_equal(c, expected));
    }
}

TEST_CASE("the counted facts of docs/progression.md (128 x 128 x 32, beta = 0)") {
    const Nn p(128, 128, 32);
    const double mnk = 128.0 * 128 * 32;
    // Global bytes read: 2 floats per multiply-add for naive; each LDS tile
    // divides that by how many work-items share a loaded value.
    const std::map<std::string, double> global_read_divisor = {
        {"naive", 1},          {"coalesced", 1},        {"lds_tile", 16},      {"tile_1d", 64},
        {"tile_2d", 128},      {"vector_loads", 128},   {"b_transposed", 128}, {"b_padded", 128},
        {"split_blocks", 128}, {"double_buffered", 128}};
    // Bank-conflict cycles as counted: the strided 8x8 blocks conflict until
    // split_blocks spreads them.
    const std::map<std::string, std::uint64_t> conflicts_gfx906 = {
        {"naive", 0},          {"coalesced", 0},        {"lds_tile", 0},        {"tile_1d", 1024},
        {"tile_2d", 2816},     {"vector_loads", 2560},  {"b_transposed", 2432}, {"b_padded", 2176},
        {"split_blocks", 128}, {"double_buffered", 128}};
    const std::vector<std::string> k_major_b = {"b_transposed", "b_padded", "split_blocks", "double_buffered"};
    const std::uint64_t workgroup_steps = 32 / 8;  // one 128 x 128 workgroup, 8 k per step
    REQUIRE(sgemm_steps().size() == global_read_divisor.size());
    const std::uint64_t dpp0_requests_per_step = variant_info(Variant::dpp0)->lds_read_requests_per_step;
    for (const std::string target : {"gfx906", "gfx90a"})
        for (std::size_t i = 0; i < sgemm_steps().size(); ++i) {
            const SgemmStep& step = sgemm_steps()[i];
            INFO(step.name << " on " << target);
            std::vector<float> c;
            const Result r = p.run(step.name, c, emu(target));
            REQUIRE(r.counters);
            CHECK(r.counters->global_read_bytes == std::uint64_t(8 * mnk / global_read_divisor.at(step.name)));
            CHECK(r.counters->global_write_bytes == 128u * 128 * 4);
            // One fp32 FMA per lane and instruction (64 per wave); hipcc packs
            // two per lane (v_pk_fma_f32) on gfx90a once a work-item has a
            // register block.
            const bool packed = target == "gfx90a" && step.tile_k == 8;
            CHECK(r.counters->valu_multiply_add == std::uint64_t(mnk / 64 / (packed ? 2 : 1)));
            // B read k-major as float4: as many LDS read requests per
            // 128x128x8 step as dpp0.
            if (std::find(k_major_b.begin(), k_major_b.end(), step.name) != k_major_b.end())
                CHECK(r.counters->lds_read_requests == dpp0_requests_per_step * workgroup_steps);
            if (target == "gfx906") CHECK(r.counters->lds_bank_conflict_cycles == conflicts_gfx906.at(step.name));
        }
}

TEST_CASE("the transpositions: padding the LDS tile removes its bank conflicts") {
    const int rows = 64, cols = 64;
    std::vector<float> in(rows * cols);
    for (std::size_t i = 0; i < in.size(); ++i) in[i] = float(i) * 0.5f;
    const std::map<std::string, std::uint64_t> conflicts = {
        {"transpose_naive", 0}, {"transpose_lds", 4 * 992}, {"transpose_lds_padded", 0}};
    for (const std::string target : {"gfx906", "gfx90a"})
        for (const TransposeStep& step : transpose_steps()) {
            INFO(step.name << " on " << target);
            std::vector<float> out(rows * cols, -1.0f);
            const Result r =
                progression_transpose(step.name, rows, cols, in.data(), rows, out.data(), cols, emu(target));
            REQUIRE(r.message == "");
            bool transposed = true;
            for (int i = 0; i < rows; ++i)
                for (int j = 0; j < cols; ++j) transposed &= out[j + i * cols] == in[i + j * rows];
            CHECK(transposed);
            CHECK(r.counters->lds_bank_conflict_cycles == conflicts.at(step.name));
            // Through LDS: every value written to and read from the tile once.
            const std::uint64_t lds = step.name == std::string("transpose_naive") ? 0 : rows * cols;
            CHECK(r.counters->lds_write_requests == lds);
            CHECK(r.counters->lds_read_requests == lds);
        }
    // Any size: a ragged edge and leading dimensions above the minimum.
    const int r2 = 45, c2 = 70, ld_in = 47, ld_out = 71;
    std::vector<float> in2(std::size_t(ld_in) * c2), out2(std::size_t(ld_out) * r2, 7.0f);
    for (std::size_t i = 0; i < in2.size(); ++i) in2[i] = float(i);
    REQUIRE(progression_transpose("transpose_lds_padded", r2, c2, in2.data(), ld_in, out2.data(), ld_out, emu("gfx906"))
                .message == "");
    bool transposed = true;
    for (int i = 0; i < r2; ++i) {
        for (int j = 0; j < c2; ++j) transposed &= out2[j + i * ld_out] == in2[i + j * ld_in];
        transposed &= out2[c2 + i * ld_out] == 7.0f;  // the padding row is left alone
    }
    CHECK(transposed);
}

TEST_CASE("model_only computes the traced workgroups' tiles and leaves the rest of C as it was") {
    const Nn p(384, 256, 16);
    const std::vector<float> expected = p.reference();
    Options options = emu("gfx906");
    options.model = true;
    options.model_only = true;
    std::vector<float> c;
    const Result r = p.run("double_buffered", c, options);
    REQUIRE(r.message == "");
    REQUIRE(r.modeled);
    REQUIRE(r.modeled->traced_workgroups.size() == 2);
    std::vector<bool> traced(c.size(), false);
    for (const auto& wg : r.modeled->traced_workgroups)
        for (unsigned j = wg[1] * 128; j < wg[1] * 128 + 128; ++j)
            for (unsigned i = wg[0] * 128; i < wg[0] * 128 + 128; ++i) traced[i + j * p.ldc] = true;
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < c.size(); ++i) wrong += std::memcmp(&c[i], traced[i] ? &expected[i] : &p.c[i], 4) != 0;
    CHECK(wrong == 0);
    CHECK(r.counters->workgroups == 2);
}

TEST_CASE("steps refuse what they cannot compute, with a message naming the value") {
    std::vector<float> a(200 * 200), b(200 * 200), c(200 * 200);
    const auto run = [&](const char* step, int m, int n, int k, int lda, int ldb, const Options& options) {
        return progression_sgemm(step, m, n, k, 1.0f, a.data(), lda, b.data(), ldb, 0.0f, c.data(), m, options);
    };
    Result r = run("tile_2d", 100, 128, 8, 100, 8, emu("gfx906"));
    CHECK(r.status == Status::unsupported);
    CHECK(r.message ==
          "progression: tile_2d needs M, N and K to be multiples of 128, 128 and 8 (M = 100, N = 128, K = 8)");
    r = run("vector_loads", 128, 128, 8, 130, 8, emu("gfx906"));
    CHECK(r.status == Status::unsupported);
    CHECK(r.message ==
          "progression: vector_loads loads 4 floats at once: lda and ldb must be multiples of 4 (lda = 130, ldb = 8)");
    r = run("tiled", 16, 16, 16, 16, 16, emu("gfx906"));
    CHECK(r.status == Status::invalid_argument);
    CHECK(r.message == "progression: no SGEMM step 'tiled'");
    r = run("naive", 16, 16, 16, 8, 16, emu("gfx906"));
    CHECK(r.status == Status::invalid_argument);
    CHECK(r.invalid_argument == 8);
    r = run("naive", 16, 16, 16, 16, 16, emu("gfx942"));
    CHECK(r.status == Status::unsupported);
    CHECK(r.message == "progression: built for gfx906, gfx90a, not for 'gfx942'");
    Options hip = emu("gfx906");
    hip.backend = Backend::hip;
    r = run("naive", 16, 16, 16, 16, 16, hip);
    CHECK(r.status == Status::unsupported);
    CHECK(r.message == "progression: naive runs on the emu backend only (Options::backend = hip)");
    r = progression_transpose("transpose_lds", 16, 16, a.data(), 15, c.data(), 16, emu("gfx906"));
    CHECK(r.status == Status::invalid_argument);
    CHECK(r.message == "progression: ld_in = 15 < max(1, rows = 16)");
}

TEST_CASE("the step tables") {
    CHECK(progression_targets() == std::vector<std::string>{"gfx906", "gfx90a"});
    CHECK(sgemm_steps().size() >= 8);
    CHECK(find_sgemm_step("naive") == &sgemm_steps().front());
    CHECK(find_sgemm_step("nope") == nullptr);
    CHECK(find_transpose_step("transpose_lds_padded")->padded);
    CHECK_FALSE(find_transpose_step("transpose_lds")->padded);
}
