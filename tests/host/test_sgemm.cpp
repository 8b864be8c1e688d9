// dppgemm::sgemm end to end: illegal arguments and quick returns touch
// nothing; the emu backend matches the same-order reference and a direct
// emulator run bit for bit; the hip backend without a GPU says why.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

#include "capture_stderr.hpp"
#include "dppgemm/code_objects.h"
#include "dppgemm/dppgemm.hpp"
#include "dppgemm/kernargs.h"
#include "dppgemm/reference.hpp"
#include "emulator_run.hpp"
#include "sgemm_problems.hpp"

using dppgemm::Backend;
using dppgemm::Options;
using dppgemm::Result;
using dppgemm::Status;

namespace {

Options on(Backend backend, const char* target = "gfx906", dppgemm::Variant variant = dppgemm::Variant::best) {
    Options options;
    options.backend = backend;
    options.emu_target = target;
    options.variant = variant;
    options.allow_emu_fallback = false;
    return options;
}

std::vector<float> run_on_emulator(const dppgemm_code_object& co, const Problem& p,
                                   dppgemm::emu::Counters* counters = nullptr) {
    return run_on_emulator(co, p.a, p.b, p.c,
                           {0, 0, 0, std::uint32_t(p.m), std::uint32_t(p.n), std::uint32_t(p.k), std::uint32_t(p.lda),
                            std::uint32_t(p.ldb), std::uint32_t(p.ldc), p.alpha, p.beta},
                           counters);
}

std::vector<float> reference(dppgemm::MacKind mac, const Problem& p) {
    std::vector<float> c = p.c;
    dppgemm::reference_sgemm(mac, p.ta, p.tb, p.m, p.n, p.k, p.alpha, p.a.data(), p.lda, p.b.data(), p.ldb, p.beta,
                             c.data(), p.ldc);
    return c;
}

// sgemm with a 2x2 C of NaN sentinels and no A or B at all: an illegal or
// quick-return call must touch none of them.
struct UntouchedCall {
    std::vector<float> c = std::vector<float>(4, std::numeric_limits<float>::quiet_NaN());
    Result operator()(char ta, char tb, int m, int n, int k, float alpha, int lda, int ldb, float beta, int ldc) {
        return dppgemm::sgemm(ta, tb, m, n, k, alpha, nullptr, lda, nullptr, ldb, beta, c.data(), ldc,
                              on(Backend::emu));
    }
    bool untouched() const {
        for (float x : c)
            if (!std::isnan(x)) return false;
        return true;
    }
};

}  // namespace

TEST_CASE("sgemm: an illegal argument is refused at its BLAS position, named with its value") {
    struct Case {
        char ta, tb;
        int m, n, k, lda, ldb, ldc;
        int position;
        const char* message;
    };
    const Case cases[] = {
        {'X', 'N', 2, 2, 2, 2, 2, 2, 1, "sgemm: parameter 1 (transA = 'X') is illegal"},
        {'N', '?', 2, 2, 2, 2, 2, 2, 2, "sgemm: parameter 2 (transB = '?') is illegal"},
        {'N', 'N', -1, 2, 2, 2, 2, 2, 3, "sgemm: parameter 3 (M = -1) is illegal"},
        {'N', 'N', 2, -2, 2, 2, 2, 2, 4, "sgemm: parameter 4 (N = -2) is illegal"},
        {'N', 'N', 2, 2, -3, 2, 2, 2, 5, "sgemm: parameter 5 (K = -3) is illegal"},
        {'N', 'N', 2, 2, 2, 1, 2, 2, 8, "sgemm: parameter 8 (lda = 1 < max(1, 2)) is illegal"},
        {'T', 'N', 2, 2, 3, 2, 3, 2, 8, "sgemm: parameter 8 (lda = 2 < max(1, 3)) is illegal"},
        {'N', 'N', 2, 2, 3, 2, 2, 2, 10, "sgemm: parameter 10 (ldb = 2 < max(1, 3)) is illegal"},
        {'N', 'T', 2, 3, 2, 2, 2, 2, 10, "sgemm: parameter 10 (ldb = 2 < max(1, 3)) is illegal"},
        {'N', 'N', 2, 2, 2, 2, 2, 1, 13, "sgemm: parameter 13 (ldc = 1 < max(1, 2)) is illegal"},
        {'N', 'N', 0, 0, 0, 0, 1, 1, 8, "sgemm: parameter 8 (lda = 0 < max(1, 0)) is illegal"},
    };
    for (const Case& c : cases) {
        UntouchedCall call;
        const Result r = call(c.ta, c.tb, c.m, c.n, c.k, 1.0f, c.lda, c.ldb, 0.0f, c.ldc);
        INFO(c.message);
        CHECK(r.status == Status::invalid_argument);
        CHECK(r.invalid_argument == c.position);
        CHECK(r.message == c.message);
        CHECK_FALSE(r);
        CHECK(call.untouched());
    }
}

TEST_CASE("sgemm: leading dimensions beyond the kernels' reach are unsupported, named") {
    UntouchedCall call;
    const int big = 1 << 22;
    Result r = call('T', 'N', 2, 2, 2, 1.0f, big, 2, 0.0f, 2);
    CHECK(r.status == Status::unsupported);
    CHECK(r.invalid_argument == 8);
    CHECK(r.message == "sgemm: lda = 4194304 is legal but above the kernels' limit of 2^22 - 1 for this layout");
    r = call('N', 'N', 2, 2, 2, 1.0f, 2, big, 0.0f, 2);
    CHECK(r.invalid_argument == 10);
    CHECK(r.message.find("ldb = 4194304") != std::string::npos);
    r = call('N', 'N', 2, 2, 2, 1.0f, 2, 2, 0.0f, big);
    CHECK(r.invalid_argument == 13);
    CHECK(r.message.find("ldc = 4194304") != std::string::npos);
    CHECK(call.untouched());
}

TEST_CASE("sgemm: quick returns succeed without reading A and B or touching C") {
    struct Case {
        int m, n, k;
        float alpha, beta;
    };
    for (const Case& c : {Case{0, 2, 2, 1.0f, 0.0f}, Case{2, 0, 2, 1.0f, 0.0f}, Case{0, 0, 0, 1.0f, 0.0f},
                          Case{2, 2, 2, 0.0f, 1.0f}, Case{2, 2, 0, 3.0f, 1.0f}}) {
        UntouchedCall call;
        const Result r = call('N', 'N', c.m, c.n, c.k, c.alpha, 2, 2, c.beta, 2);
        INFO("M=" << c.m << " N=" << c.n << " K=" << c.k << " alpha=" << c.alpha << " beta=" << c.beta);
        CHECK(r.status == Status::success);
        CHECK(r.quick_return);
        CHECK(r.kernel.empty());
        CHECK(call.untouched());
    }
}

TEST_CASE("sgemm: the emu backend is bitwise the reference and the emulator run directly") {
    struct Target {
        const char* name;
        dppgemm::MacKind mac;  // of the non-packed kernels
    };
    for (const Target target :
         {Target{"gfx906", dppgemm::MacKind::mac_f32}, Target{"gfx90a", dppgemm::MacKind::mac_f32},
          Target{"gfx942", dppgemm::MacKind::fmac_f32}})
        for (const char* layout : {"NN", "NT", "TN", "TT"})
            for (dppgemm::Variant variant : dppgemm::available_variants(target.name)) {
                const Problem p =
                    Problem::random(layout[0], layout[1], 130, 67, 21, 3, unsigned(layout[0] * 7 + layout[1]));
                std::vector<float> c;
                const Result r = p.run(c, on(Backend::emu, target.name, variant));
                INFO(target.name << " " << layout << " " << dppgemm::to_string(variant) << ": " << r.message);
                REQUIRE(r);
                CHECK(r.backend == Backend::emu);
                CHECK(r.target == target.name);
                CHECK(r.kernel == std::string("dppgemm_sgemm_") + dppgemm::to_string(variant) + "_" + layout);
                REQUIRE(r.counters);
                CHECK(r.counters->workgroups == 2);
                const dppgemm_code_object* co =
                    dppgemm_find_code_object(target.name, dppgemm::to_string(variant), layout);
                REQUIRE(co);
                // packed (v_pk_fma_f32 and a v_fmac_f32 blend) is fused on every target
                const dppgemm::MacKind mac =
                    variant == dppgemm::Variant::packed ? dppgemm::MacKind::fmac_f32 : target.mac;
                CHECK(dppgemm::kernel_mac_kind(variant, target.name) == mac);
                CHECK(bitwise_equal(c, reference(mac, p)));
                CHECK(bitwise_equal(c, run_on_emulator(*co, p)));
            }
}

TEST_CASE("sgemm: the emu backend's counters are the emulator's, one name per quantity (docs/host.md)") {
    const Problem p = Problem::random('N', 'N', 130, 67, 21, 3, 5);
    std::vector<float> c;
    const Result r = p.run(c, on(Backend::emu, "gfx906", dppgemm::Variant::dpp1));
    REQUIRE(r);
    REQUIRE(r.counters);
    const dppgemm_code_object* co = dppgemm_find_code_object("gfx906", "dpp1", "NN");
    REQUIRE(co);
    dppgemm::emu::Counters emu;
    CHECK(bitwise_equal(c, run_on_emulator(*co, p, &emu)));
    using dppgemm::emu::InstClass;
    const dppgemm::Counters& got = *r.counters;
    CHECK(emu[InstClass::valu_dpp] > 0);                                             // dpp1's macs take B through DPP
    CHECK(got.valu == emu[InstClass::valu_without_dpp] + emu[InstClass::valu_dpp]);  // valu includes DPP
    CHECK(got.valu == emu.valu());
    CHECK(got.valu_dpp == emu[InstClass::valu_dpp]);
    CHECK(got.valu_multiply_add == emu.valu_multiply_add);
    CHECK(got.valu_multiply_add <= got.valu);
    CHECK(got.global_read_bytes == emu.global_read_bytes);
    CHECK(got.global_write_bytes == emu.global_write_bytes);
    CHECK(got.lds_read_requests == emu.lds_read_requests);
    // The classes (valu once, valu_dpp inside it) add up to every wave instruction.
    CHECK(got.salu + got.valu + got.smem + got.vmem_load + got.vmem_store + got.lds_read + got.lds_write + got.branch +
              got.waitcnt + got.barrier + got.nop + got.other ==
          emu.wave_instructions());
}

TEST_CASE("sgemm: a variant a target does not have is refused, named") {
    const Problem p = Problem::random('N', 'N', 8, 8, 8, 0, 1);
    std::vector<float> c;
    // gfx940 is emulated but has no kernels; rows that need target features
    // (row_newbcast, packed_fp32) are missing on gfx906 as well.
    for (const char* target : {"gfx940", "gfx906"})
        for (const dppgemm::VariantInfo& row : dppgemm::variant_table()) {
            const std::vector<dppgemm::Variant> available = dppgemm::available_variants(target);
            if (std::find(available.begin(), available.end(), row.variant) != available.end()) continue;
            const Result r = p.run(c, on(Backend::emu, target, row.variant));
            INFO(target << " " << row.name << ": " << r.message);
            CHECK(r.status == Status::unsupported);
            const std::string expected = std::string("emu: ") + row.name + " is not available on " + target + " (";
            CHECK(r.message.rfind(expected, 0) == 0);
            if (*row.features) CHECK(r.message.find(std::string("needs ") + row.features) != std::string::npos);
            CHECK(r.message == "emu: " + dppgemm::variant_unavailable_reason(row.variant, target));
        }
    CHECK(dppgemm::available_variants("gfx940").empty());
    CHECK(dppgemm::variant_unavailable_reason(dppgemm::Variant::dpp1, "gfx940") ==
          "dpp1 is not available on gfx940 (built for gfx900, gfx906, gfx908, gfx90a, gfx942)");
    CHECK(dppgemm::variant_unavailable_reason(dppgemm::Variant::dpp1, "gfx906:xnack-").empty());
}

TEST_CASE("sgemm: packed on gfx906 is refused with a clear message, and runs on gfx90a and gfx942") {
    const Problem p = Problem::random('N', 'N', 8, 8, 8, 0, 1);
    std::vector<float> c;
    for (const char* target : {"gfx900", "gfx906", "gfx908"}) {
        const Result r = p.run(c, on(Backend::emu, target, dppgemm::Variant::packed));
        CHECK(r.status == Status::unsupported);
        CHECK(r.message == std::string("emu: packed is not available on ") + target +
                               " (needs packed_fp32; built for gfx90a, gfx942)");
        CHECK(r.kernel.empty());
    }
    for (const char* target : {"gfx90a", "gfx942"}) {
        const Result r = p.run(c, on(Backend::emu, target, dppgemm::Variant::packed));
        INFO(target << ": " << r.message);
        CHECK(r);
        CHECK(r.kernel == "dppgemm_sgemm_packed_NN");
        CHECK(bitwise_equal(c, reference(dppgemm::MacKind::fmac_f32, p)));
    }
}

TEST_CASE("sgemm: best is the available row with the least extra VALU, then the fewest LDS requests") {
    for (const char* target : {"gfx900", "gfx906", "gfx908", "gfx90a", "gfx942"}) {
        const std::optional<dppgemm::Variant> best = dppgemm::best_variant(target);
        REQUIRE(best);
        const dppgemm::VariantInfo* chosen = dppgemm::variant_info(*best);
        for (dppgemm::Variant v : dppgemm::available_variants(target)) {
            const dppgemm::VariantInfo* row = dppgemm::variant_info(v);
            INFO(target << " best " << chosen->name << " vs " << row->name);
            CHECK(chosen->extra_valu_per_step <= row->extra_valu_per_step);
            if (chosen->extra_valu_per_step == row->extra_valu_per_step)
                CHECK(chosen->lds_read_requests_per_step <= row->lds_read_requests_per_step);
        }
        const Problem p = Problem::random('N', 'T', 8, 8, 8, 0, 2);
        std::vector<float> c;
        const Result r = p.run(c, on(Backend::emu, target));
        REQUIRE(r);
        CHECK(r.kernel == std::string("dppgemm_sgemm_") + chosen->name + "_NT");
    }
    CHECK_FALSE(dppgemm::best_variant("gfx940"));
    // With today's rows: dpp2 where there is no packed fp32, packed (half the VALU) where there is.
    CHECK(dppgemm::to_string(*dppgemm::best_variant("gfx906")) == std::string("dpp2"));
    CHECK(dppgemm::to_string(*dppgemm::best_variant("gfx90a")) == std::string("packed"));
    CHECK(dppgemm::to_string(*dppgemm::best_variant("gfx942:sramecc+:xnack-")) == std::string("packed"));
}

TEST_CASE("sgemm: beta = 0 never reads C, alpha = 0 never reads A and B") {
    Problem p = Problem::random('N', 'N', 40, 9, 5, 2, 3);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (int j = 0; j < p.n; ++j)
        for (int i = 0; i < p.m; ++i) p.c[i + std::size_t(j) * p.ldc] = nan;
    p.beta = 0.0f;
    std::vector<float> c;
    REQUIRE(p.run(c, on(Backend::emu)));
    CHECK(bitwise_equal(c, reference(dppgemm::MacKind::mac_f32, p)));
    for (float x : {c[0], c[std::size_t(p.ldc) * p.n - 3]}) CHECK_FALSE(std::isnan(x));
    CHECK(c[p.m] == p.c[p.m]);  // the padding rows are not part of C: left alone
    CHECK(c[p.m + 1] == p.c[p.m + 1]);

    p = Problem::random('T', 'T', 40, 9, 5, 0, 4);
    std::fill(p.a.begin(), p.a.end(), nan);
    std::fill(p.b.begin(), p.b.end(), nan);
    p.alpha = 0.0f;
    p.beta = 0.5f;
    REQUIRE(p.run(c, on(Backend::emu)));
    for (std::size_t i = 0; i < c.size(); ++i) CHECK(c[i] == p.c[i] * 0.5f);
}

TEST_CASE("sgemm: alpha = 0 with null A and B (legal BLAS) computes beta C without reading them") {
    for (const auto& [backend, fallback] : {std::pair{Backend::emu, false}, std::pair{Backend::hip, true}}) {
        Problem p = Problem::random('N', 'T', 300, 260, 280, 1, 5);
        Options options = on(backend);
        options.allow_emu_fallback = fallback;
        std::vector<float> c = p.c;
        CapturedStderr quiet;  // the fallback says once that it falls back
        const Result r = dppgemm::sgemm('N', 'T', p.m, p.n, p.k, 0.0f, nullptr, p.lda, nullptr, p.ldb, 0.5f, c.data(),
                                        p.ldc, options);
        REQUIRE(r);
        for (int j = 0; j < p.n; ++j)
            for (int i = 0; i < p.ldc; ++i) {
                const std::size_t at = i + std::size_t(j) * p.ldc;
                CHECK(c[at] == (i < p.m ? 0.5f * p.c[at] : p.c[at]));
            }
        // K = 0 likewise: A and B are empty, C = beta C.
        c = p.c;
        REQUIRE(
            dppgemm::sgemm('N', 'N', p.m, p.n, 0, 1.0f, nullptr, p.lda, nullptr, 1, -2.0f, c.data(), p.ldc, options));
        CHECK(c[0] == -2.0f * p.c[0]);
        CHECK(c[std::size_t(p.ldc) * (p.n - 1) + p.m - 1] == -2.0f * p.c[std::size_t(p.ldc) * (p.n - 1) + p.m - 1]);
    }
}

TEST_CASE("sgemm: the hip backend without a GPU and without fallback names the HIP error") {
    const Problem p = Problem::random('N', 'N', 8, 8, 8, 0, 1);
    std::vector<float> c;
    CapturedStderr captured;
    const Result r = p.run(c, on(Backend::hip));
    CHECK(r.status == Status::no_device);
    CHECK(r.backend == Backend::hip);
    CHECK(r.message == "hip: hipGetDeviceCount failed: hipErrorNoDevice (100)");
    CHECK(bitwise_equal(c, p.c));
    CHECK(captured.text().find("dppgemm:") == std::string::npos);
}

TEST_CASE("sgemm: without a GPU the hip backend falls back to emu and says so once") {
    const Problem p = Problem::random('N', 'T', 33, 20, 10, 1, 2);
    Options options = on(Backend::hip);
    options.allow_emu_fallback = true;
    std::vector<float> first, second;
    CapturedStderr captured;
    const Result r1 = p.run(first, options);
    const Result r2 = p.run(second, options);
    const std::string text = captured.text();
    REQUIRE(r1);
    REQUIRE(r2);
    CHECK(r1.backend == Backend::emu);
    CHECK(bitwise_equal(first, reference(dppgemm::MacKind::mac_f32, p)));
    CHECK(bitwise_equal(second, first));
    CHECK(text ==
          "dppgemm: hip: hipGetDeviceCount failed: hipErrorNoDevice (100); running on the emulator "
          "(emu backend) instead\n");
}
