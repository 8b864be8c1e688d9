// dppgemm::sgemm end to end: illegal arguments and quick returns touch
// nothing; the emu backend matches the same-order reference and a direct
// emulator run bit for bit; the hip backend without a GPU says why.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "../support/sgemm_launch.hpp"
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

// The multiply-add of what Variant::best runs on gfx906 (the tests' default target).
dppgemm::MacKind best_mac() { return dppgemm::kernel_mac_kind(dppgemm::Variant::best, "gfx906"); }

std::vector<float> reference(dppgemm::MacKind mac, const Problem& p) {
    std::vector<float> c = p.c;
    dppgemm::reference_sgemm(mac, p.ta, p.tb, p.m, p.n, p.k, p.alpha, p.a.data(), p.lda, p.b.data(), p.ldb, p.beta,
                             c.data(), p.ldc);
    return c;
}

// sgemm with a 2x2 C of NaN sentinels and A and B far too small for the
// sizes: an illegal, unsupported or quick-return call must touch none of them.
struct UntouchedCall {
    std::vector<float> c = std::vector<float>(4, std::numeric_limits<float>::quiet_NaN());
    const float a_and_b[1] = {0.0f};
    Result operator()(char ta, char tb, int m, int n, int k, float alpha, int lda, int ldb, float beta, int ldc) {
        return dppgemm::sgemm(ta, tb, m, n, k, alpha, a_and_b, lda, a_and_b, ldb, beta, c.data(), ldc,
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

// An operand contiguous in M or N (A not transposed, B transposed) is read
// through a descriptor at its tile with 32-bit offsets up to (7 ld + 127) * 4
// bytes, and num_records clamped to 2^31 (docs/kernels.md): ld = 76695826 is
// the last that keeps them all inside. One more and the kernel reads zeros for
// the far k of the tile, silently; sgemm refuses it instead.
constexpr int kLargestContiguousLd = 76695826;

// A 128 x 128 x 8 SGEMM run directly on the emulator with the contiguous
// operand (A of NN or B of NT) spread over `ld`: only its 8 columns of 128
// are written, so the multi-GiB allocation costs no host memory. Returns
// whether C is bitwise the reference's.
bool contiguous_operand_run_correct(const char* layout, int ld) {
    using namespace dppgemm::emu;
    const int m = 128, n = 128, k = 8;
    const Problem dense = Problem::random(layout[0], layout[1], m, n, k, 0, 17);
    const bool spread_a = layout[0] == 'N';
    const std::vector<float>& spread = spread_a ? dense.a : dense.b;
    const int spread_rows = spread_a ? m : n;  // rows of the contiguous operand (mn), k columns
    const dppgemm_code_object* co = dppgemm_find_code_object("gfx906", "dpp1", layout);
    REQUIRE(co);
    const CodeObject object = load_code_object(co->data, co->size);
    const Program program = build_program(object, object.kernel(co->kernel_name));
    DeviceMemory memory;
    const std::uint64_t spread_bytes = (std::uint64_t(k - 1) * std::uint64_t(ld) + std::uint64_t(spread_rows)) * 4;
    const std::uint64_t a = spread_a ? memory.allocate(spread_bytes) : memory.allocate(dense.a.size() * 4);
    const std::uint64_t b = spread_a ? memory.allocate(dense.b.size() * 4) : memory.allocate(spread_bytes);
    const std::uint64_t c = memory.allocate(dense.c.size() * 4);
    const std::uint64_t spread_at = spread_a ? a : b;
    for (int kk = 0; kk < k; ++kk)
        memory.write(spread_at + std::uint64_t(kk) * std::uint64_t(ld) * 4, &spread[std::size_t(kk) * spread_rows],
                     std::size_t(spread_rows) * 4);
    if (spread_a) memory.write(b, dense.b.data(), dense.b.size() * 4);
    else memory.write(a, dense.a.data(), dense.a.size() * 4);
    memory.write(c, dense.c.data(), dense.c.size() * 4);
    dppgemm_sgemm_kernargs args = dppgemm::test_support::sgemm_kernargs(
        m, n, k, spread_a ? ld : dense.lda, spread_a ? dense.ldb : ld, dense.ldc, dense.alpha, dense.beta);
    args.a = a;
    args.b = b;
    args.c = c;
    LaunchConfig config;
    config.grid = {1, 1, 1};
    config.block = {DPPGEMM_SGEMM_BLOCK_SIZE, 1, 1};
    config.kernarg.assign(reinterpret_cast<const std::uint8_t*>(&args),
                          reinterpret_cast<const std::uint8_t*>(&args + 1));
    REQUIRE(launch(memory, program, config).ok());
    std::vector<float> out(dense.c.size());
    memory.read(c, out.data(), out.size() * 4);
    return bitwise_equal(out, reference(dppgemm::MacKind::mac_f32, dense));
}

TEST_CASE("sgemm: the largest leading dimension of an operand contiguous in M or N is exactly the kernels' reach") {
    for (const char* layout : {"NN", "NT"}) {
        INFO(layout);
        CHECK(contiguous_operand_run_correct(layout, kLargestContiguousLd));
        CHECK_FALSE(contiguous_operand_run_correct(layout, kLargestContiguousLd + 1));
    }
    UntouchedCall call;
    Result r = call('N', 'N', 2, 2, 2, 1.0f, kLargestContiguousLd + 1, 2, 0.0f, 2);
    CHECK(r.status == Status::unsupported);
    CHECK(r.invalid_argument == 8);
    CHECK(r.message == "sgemm: lda = 76695827 is legal but above the kernels' limit of 76695826 for this layout");
    r = call('T', 'T', 2, 2, 2, 1.0f, 2, kLargestContiguousLd + 1, 0.0f, 2);
    CHECK(r.status == Status::unsupported);
    CHECK(r.invalid_argument == 10);
    CHECK(r.message == "sgemm: ldb = 76695827 is legal but above the kernels' limit of 76695826 for this layout");
    CHECK(call.untouched());
    // At the limit the call is taken (alpha = 0: A is never read or copied).
    std::vector<float> c = {1.0f, 2.0f, 3.0f, 4.0f};
    r = dppgemm::sgemm('N', 'N', 2, 2, 2, 0.0f, nullptr, kLargestContiguousLd, nullptr, 2, 0.5f, c.data(), 2,
                       on(Backend::emu));
    CHECK(r);
    CHECK(c == std::vector<float>{0.5f, 1.0f, 1.5f, 2.0f});
}

TEST_CASE("sgemm: a null matrix the call reads or writes is refused at its position, named") {
    const float x[4] = {1, 2, 3, 4};
    float c[4] = {5, 6, 7, 8};
    const Options emu = on(Backend::emu);
    Result r = dppgemm::sgemm('N', 'N', 2, 2, 2, 1.0f, nullptr, 2, x, 2, 0.0f, c, 2, emu);
    CHECK(r.status == Status::invalid_argument);
    CHECK(r.invalid_argument == 7);
    CHECK(r.message == "sgemm: parameter 7 (A = null, read since alpha != 0 and K = 2) is illegal");
    r = dppgemm::sgemm('N', 'T', 2, 2, 2, -1.0f, x, 2, nullptr, 2, 1.0f, c, 2, emu);
    CHECK(r.invalid_argument == 9);
    CHECK(r.message == "sgemm: parameter 9 (B = null, read since alpha != 0 and K = 2) is illegal");
    r = dppgemm::sgemm('T', 'N', 2, 3, 2, 1.0f, x, 2, x, 2, 0.0f, nullptr, 2, emu);
    CHECK(r.invalid_argument == 12);
    CHECK(r.message == "sgemm: parameter 12 (C = null with M = 2, N = 3) is illegal");
    // alpha = 0 with a null C still writes C: refused too.
    r = dppgemm::sgemm('N', 'N', 2, 2, 2, 0.0f, nullptr, 2, nullptr, 2, 0.0f, nullptr, 2, emu);
    CHECK(r.invalid_argument == 12);
    CHECK(c[0] == 5.0f);
    // The reference-BLAS checks come first: an illegal lda wins over a null A.
    r = dppgemm::sgemm('N', 'N', 2, 2, 2, 1.0f, nullptr, 1, x, 2, 0.0f, c, 2, emu);
    CHECK(r.invalid_argument == 8);
    // Nothing to read or write: null is legal (quick returns).
    CHECK(dppgemm::sgemm('N', 'N', 0, 2, 2, 1.0f, nullptr, 1, nullptr, 2, 0.0f, nullptr, 1, emu));
    CHECK(dppgemm::sgemm('N', 'N', 2, 2, 2, 0.0f, nullptr, 2, nullptr, 2, 1.0f, nullptr, 2, emu));
    CHECK(dppgemm::check_sgemm_arguments('N', 'N', 2, 2, 2, 1.0f, nullptr, 2, x, 2, 0.0f, c, 2).invalid_argument == 7);
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
                // 130 x 67: 2 x 1 tiles of 128, 3 x 2 of 64, 5 x 3 of 32
                const unsigned tile = dppgemm::variant_info(variant)->macro_tile;
                CHECK(r.counters->workgroups == (tile == 128 ? 2u : tile == 64 ? 6u : 15u));
                const dppgemm_code_object* co =
                    dppgemm_find_code_object(target.name, dppgemm::to_string(variant), layout);
                REQUIRE(co);
                // the rows that set FMAC=1 are fused on every target: packed (v_pk_fma_f32
                // and a v_fmac_f32 blend) and mfma (the emulator's MFMA model, a fused
                // chain in k order, and a v_fmac_f32 blend); the rows that keep denormals
                // are fused and flush nothing
                const dppgemm::VariantInfo& row = *dppgemm::variant_info(variant);
                const bool fused = (" " + std::string(row.defines) + " ").find(" FMAC=1 ") != std::string::npos;
                const dppgemm::MacKind mac = row.keeps_denormals ? dppgemm::MacKind::fmac_f32_denormals
                                             : fused             ? dppgemm::MacKind::fmac_f32
                                                                 : target.mac;
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
    CHECK(emu.valu_dpp > 0);  // dpp1's macs take B through DPP
    // Every counter of counters.def, class or not, under the same name.
#define DPPGEMM_INSTRUCTION_CLASS(name, counts) CHECK(got.name == emu[InstClass::name]);
#define DPPGEMM_COUNTER(name, counts) CHECK(got.name == emu.name);
#include "dppgemm/counters.def"
    CHECK(got.valu_multiply_add <= got.valu);
    CHECK(got.valu_dpp <= got.valu);
    // The classes (valu once, valu_dpp inside it) add up to every wave instruction.
    CHECK(got.salu + got.valu + got.smem + got.vmem_load + got.vmem_store + got.vmem_atomic + got.lds_read +
              got.lds_write + got.branch + got.waitcnt + got.barrier + got.nop + got.other ==
          emu.wave_instructions());
    CHECK(got.wave_instructions() == emu.wave_instructions());
}

TEST_CASE("sgemm: a variant a target does not have is refused, named") {
    const Problem p = Problem::random('N', 'N', 8, 8, 8, 0, 1);
    std::vector<float> c;
    // gfx940 and gfx803 are emulated but have no kernels (the template needs
    // gfx9 instructions: v_add_u32 without carry, v_lshl_add_u32); rows that
    // need target features (row_newbcast, packed_fp32) are missing on gfx906 as well.
    for (const char* target : {"gfx940", "gfx803", "gfx906"})
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
    CHECK(dppgemm::available_variants("gfx803").empty());
    CHECK(dppgemm::variant_unavailable_reason(dppgemm::Variant::dpp0, "gfx803") ==
          "dpp0 is not available on gfx803 (built for gfx900, gfx906, gfx908, gfx90a, gfx942)");
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

TEST_CASE(
    "sgemm: best is the available denormal-keeping row of the largest tile with the least extra VALU, then the "
    "fewest LDS requests") {
    for (const char* target : {"gfx900", "gfx906", "gfx908", "gfx90a", "gfx942"}) {
        const std::optional<dppgemm::Variant> best = dppgemm::best_variant(target);
        REQUIRE(best);
        const dppgemm::VariantInfo* chosen = dppgemm::variant_info(*best);
        // gfx900 has no v_fmac_f32, so no row that keeps denormals
        CHECK(chosen->keeps_denormals == (std::string(target) != "gfx900"));
        CHECK(chosen->macro_tile == 128);
        for (dppgemm::Variant v : dppgemm::available_variants(target)) {
            const dppgemm::VariantInfo* row = dppgemm::variant_info(v);
            // per-step figures compare rows of one tile only
            if (row->keeps_denormals != chosen->keeps_denormals || row->macro_tile != chosen->macro_tile) continue;
            INFO(target << " best " << chosen->name << " vs " << row->name);
            CHECK(chosen->extra_valu_per_step <= row->extra_valu_per_step);
            if (chosen->extra_valu_per_step == row->extra_valu_per_step)
                CHECK(chosen->lds_read_requests_per_step <= row->lds_read_requests_per_step);
        }
        const Problem p = Problem::random('N', 'T', 8, 8, 8, 0, 2);
        std::vector<float> c;
        const Result r = p.run(c, on(Backend::emu, target));
        REQUIRE(r);
        // sgemm runs the problem's choice: the shipped tuning table's, else this one.
        const std::optional<dppgemm::Variant> for_problem = dppgemm::best_variant(target, 'N', 'T', 8, 8, 8);
        REQUIRE(for_problem);
        CHECK(r.kernel == std::string("dppgemm_sgemm_") + dppgemm::to_string(*for_problem) + "_NT");
    }
    CHECK_FALSE(dppgemm::best_variant("gfx940"));
    // With today's rows: dpp2 where there is no packed fp32, packed (half the VALU) where there is,
    // their denormal-keeping twins where v_fmac_f32 exists.
    CHECK(dppgemm::to_string(*dppgemm::best_variant("gfx900")) == std::string("dpp2"));
    CHECK(dppgemm::to_string(*dppgemm::best_variant("gfx906")) == std::string("dpp2_denorm"));
    CHECK(dppgemm::to_string(*dppgemm::best_variant("gfx90a")) == std::string("packed_denorm"));
    CHECK(dppgemm::to_string(*dppgemm::best_variant("gfx942:sramecc+:xnack-")) == std::string("packed_denorm"));
}

TEST_CASE("sgemm: beta = 0 never reads C, alpha = 0 never reads A and B") {
    Problem p = Problem::random('N', 'N', 40, 9, 5, 2, 3);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (int j = 0; j < p.n; ++j)
        for (int i = 0; i < p.m; ++i) p.c[i + std::size_t(j) * p.ldc] = nan;
    p.beta = 0.0f;
    std::vector<float> c;
    REQUIRE(p.run(c, on(Backend::emu)));
    CHECK(bitwise_equal(c, reference(best_mac(), p)));
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

TEST_CASE("sgemm: A and B in one array (the same matrix, or overlapping blocks) give the reference's bits") {
    // LAPACK passes blocks of one matrix as A and B; the emu backend reads
    // them where they are, as one range when they share bytes.
    struct Case {
        char ta, tb;
        std::size_t b_offset;  // elements from A's first
    };
    const int m = 37, n = 33, k = 20, ld = 45;
    std::vector<float> x(std::size_t(ld) * 40);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = float(int(i * 37 % 19) - 9) * 0.375f;
    const std::vector<float> x_before = x;
    for (const Case& t : {Case{'N', 'T', 0}, Case{'N', 'T', 3}, Case{'T', 'N', std::size_t(ld) * 2 + 1}}) {
        INFO(t.ta << t.tb << " B at A + " << t.b_offset);
        std::vector<float> c(std::size_t(m) * n, 0.5f), expected = c;
        REQUIRE(dppgemm::sgemm(t.ta, t.tb, m, n, k, 1.5f, x.data(), ld, x.data() + t.b_offset, ld, -1.0f, c.data(), m,
                               on(Backend::emu)));
        dppgemm::reference_sgemm(best_mac(), t.ta, t.tb, m, n, k, 1.5f, x.data(), ld, x.data() + t.b_offset, ld, -1.0f,
                                 expected.data(), m);
        CHECK(bitwise_equal(c, expected));
        CHECK(bitwise_equal(x, x_before));
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
    CHECK(bitwise_equal(first, reference(best_mac(), p)));
    CHECK(bitwise_equal(second, first));
    CHECK(text ==
          "dppgemm: hip: hipGetDeviceCount failed: hipErrorNoDevice (100); running on the emulator "
          "(emu backend) instead\n");
}

TEST_CASE(
    "sgemm: K = 0 with an infinite or NaN alpha is beta C with A as is, NaN with A transposed, as reference BLAS") {
    // Reference BLAS's column update (A as is) only scales C for K = 0; its
    // dot-product form (A transposed) computes alpha * 0 + beta C.
    for (const char ta : {'N', 'T'})
        for (const float alpha : {std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN()}) {
            Problem p = Problem::random(ta, 'N', 130, 3, 0, 2, 9);
            p.alpha = alpha;
            p.beta = -0.5f;
            std::vector<float> c;
            REQUIRE(p.run(c, on(Backend::emu)));
            const std::vector<float> expected = reference(best_mac(), p);
            for (int j = 0; j < p.n; ++j)
                for (int i = 0; i < p.m; ++i) {
                    const std::size_t at = i + std::size_t(j) * p.ldc;
                    INFO(ta << " alpha " << alpha << " C(" << i << ", " << j << ") = " << c[at]);
                    if (ta == 'N') {
                        CHECK(c[at] == -0.5f * p.c[at]);
                        CHECK(std::memcmp(&c[at], &expected[at], 4) == 0);
                    } else {
                        CHECK(std::isnan(c[at]));
                        CHECK(std::isnan(expected[at]));
                    }
                }
        }
}

TEST_CASE("sgemm: alpha = -0, or K = 0 with a negative alpha, and beta = 0 give C = +0, as reference BLAS") {
    // Reference BLAS sets C to zero there; alpha * (the empty sum) would be -0.
    for (const auto& [k, alpha] : {std::pair{16, -0.0f}, std::pair{0, -2.0f}, std::pair{0, -0.0f}}) {
        Problem p = Problem::random('N', 'T', 70, 9, k, 1, 5);
        p.alpha = alpha;
        p.beta = 0.0f;
        std::vector<float> c;
        REQUIRE(p.run(c, on(Backend::emu)));
        CHECK(bitwise_equal(c, reference(best_mac(), p)));
        std::size_t not_plus_zero = 0;
        for (int j = 0; j < p.n; ++j)
            for (int i = 0; i < p.m; ++i)
                not_plus_zero += std::signbit(c[i + std::size_t(j) * p.ldc]) || c[i + std::size_t(j) * p.ldc] != 0.0f;
        CHECK(not_plus_zero == 0);
    }
}

TEST_CASE("sgemm: a transpose that is no printable character is named by its code, bad Options values are refused") {
    UntouchedCall call;
    Result r = call('\0', 'N', 2, 2, 2, 1.0f, 2, 2, 0.0f, 2);
    CHECK(r.invalid_argument == 1);
    CHECK(r.message == "sgemm: parameter 1 (transA = 0x00) is illegal");
    r = call('N', char(0xe9), 2, 2, 2, 1.0f, 2, 2, 0.0f, 2);
    CHECK(r.message == "sgemm: parameter 2 (transB = 0xe9) is illegal");
    const float x[4] = {1, 2, 3, 4};
    float c[4] = {5, 6, 7, 8};
    Options options = on(Backend::emu);
    options.variant = static_cast<dppgemm::Variant>(99);
    r = dppgemm::sgemm('N', 'N', 2, 2, 2, 1.0f, x, 2, x, 2, 0.0f, c, 2, options);
    CHECK(r.status == Status::invalid_argument);
    CHECK(r.invalid_argument == 0);
    CHECK(r.message == "sgemm: Options::variant = 99 is neither a row of the variant table nor Variant::best");
    options = on(Backend::emu);
    options.backend = static_cast<Backend>(7);
    r = dppgemm::sgemm('N', 'N', 2, 2, 2, 1.0f, x, 2, x, 2, 0.0f, c, 2, options);
    CHECK(r.status == Status::invalid_argument);
    CHECK(r.message == "sgemm: Options::backend = 7 is not Backend::automatic, hip or emu");
    CHECK(c[0] == 5.0f);
    CHECK(call.untouched());
}

namespace dppgemm::detail {
std::uint64_t sgemm_wave_instruction_bound(int k);  // host/backend.hpp
}

// The emu backend's watchdog is the bound, not the 2^28 default, which a
// legal K of about 10^7 would reach (the run would end as an "endless loop").
// Checked against what the kernels really run: the instructions per wave at
// K = 64 and the growth per 8-k step up to K = 1024, for every variant.
TEST_CASE("sgemm: the emu backend's watchdog bound covers every kernel's instructions per wave at any K") {
    const auto per_wave = [](const dppgemm::Counters& c) { return double(c.wave_instructions()) / double(c.waves); };
    for (const char* target : {"gfx906", "gfx90a"})
        for (dppgemm::Variant variant : dppgemm::available_variants(target)) {
            INFO(target << " " << dppgemm::to_string(variant));
            double instructions[2];
            const int ks[2] = {64, 1024};
            for (int i = 0; i < 2; ++i) {
                const Problem p = Problem::random('N', 'T', 128, 128, ks[i], 0, 3);
                std::vector<float> c;
                const Result r = p.run(c, on(Backend::emu, target, variant));
                REQUIRE(r);
                instructions[i] = per_wave(*r.counters);
                CHECK(instructions[i] <= double(dppgemm::detail::sgemm_wave_instruction_bound(ks[i])));
            }
            const double per_step = (instructions[1] - instructions[0]) / double((ks[1] - ks[0]) / 8);
            const double bound_per_step = double(dppgemm::detail::sgemm_wave_instruction_bound(1024) -
                                                 dppgemm::detail::sgemm_wave_instruction_bound(64)) /
                                          double((ks[1] - ks[0]) / 8);
            CHECK(per_step <= bound_per_step / 2);  // room for variants to come
        }
    CHECK(dppgemm::detail::sgemm_wave_instruction_bound(std::numeric_limits<int>::max()) < (std::uint64_t{1} << 48));
}

// sgemm throws nothing, not even what the caller's progress callback throws.
TEST_CASE("sgemm: an exception from Options::progress ends the run as a launch failure, C unchanged") {
    const Problem p = Problem::random('N', 'N', 300, 260, 16, 0, 4);
    for (const bool standard : {true, false}) {
        Options options = on(Backend::emu);
        options.threads = 2;
        options.progress = [standard](std::uint64_t done, std::uint64_t) {
            if (done < 2) return;
            if (standard) throw std::runtime_error("stop here");
            throw 42;
        };
        std::vector<float> c;
        Result r = Result{};
        REQUIRE_NOTHROW(r = p.run(c, options));
        CHECK(r.status == Status::launch_failure);
        CHECK(r.message ==
              (standard ? "emu: stop here" : "emu: an exception that is no std::exception (from Options::progress?)"));
        CHECK(bitwise_equal(c, p.c));
    }
}

namespace {

// The kernels' order written out with std::fmaf, fp32 denormals kept, one
// element at a time (independent of reference_sgemm's vectorized packing):
// acc = +0, one fused multiply-add per k up to the next multiple of 8 (+0
// past K), then alpha * acc and one fused beta C.
std::vector<float> fused_same_order(const Problem& p) {
    std::vector<float> c = p.c;
    const int padded_k = (p.k + 7) / 8 * 8;
    for (int j = 0; j < p.n; ++j)
        for (int i = 0; i < p.m; ++i) {
            float acc = 0.0f;
            for (int l = 0; l < padded_k; ++l) {
                const float a =
                    l < p.k ? (p.ta == 'T' ? p.a[l + std::size_t(i) * p.lda] : p.a[i + std::size_t(l) * p.lda]) : 0.0f;
                const float b =
                    l < p.k ? (p.tb == 'T' ? p.b[j + std::size_t(l) * p.ldb] : p.b[l + std::size_t(j) * p.ldb]) : 0.0f;
                acc = std::fmaf(a, b, acc);
            }
            const volatile float scaled = p.alpha * acc;
            float& out = c[i + std::size_t(j) * p.ldc];
            out = std::fmaf(p.beta, out, scaled);
        }
    return c;
}

// A random problem scaled so that products, sums and C sit among the fp32
// denormals (below 2^-126): A by 2^-64, B by 2^-62, C by 2^-127.
Problem near_underflow(char ta, char tb, int m, int n, int k, unsigned seed) {
    Problem p = Problem::random(ta, tb, m, n, k, 1, seed);
    for (float& x : p.a) x = std::ldexp(x, -64);
    for (float& x : p.b) x = std::ldexp(x, -62);
    for (float& x : p.c) x = std::ldexp(x, -127);
    return p;
}

std::size_t denormals(const std::vector<float>& x) {
    return std::size_t(std::count_if(x.begin(), x.end(), [](float v) { return std::fpclassify(v) == FP_SUBNORMAL; }));
}

}  // namespace

TEST_CASE("sgemm: the kernels that keep denormals are bitwise the fused same-order reference near underflow") {
    struct Shape {
        int m, n, k;
    };
    for (const char* target : {"gfx906", "gfx90a", "gfx942"})
        for (const char* layout : {"NN", "NT", "TN", "TT"})
            for (const Shape s : {Shape{130, 67, 21}, Shape{1, 1, 1}, Shape{129, 4, 9}}) {
                const Problem p = near_underflow(layout[0], layout[1], s.m, s.n, s.k, unsigned(s.m + layout[0]));
                const std::vector<float> expected = fused_same_order(p);
                REQUIRE(bitwise_equal(reference(dppgemm::MacKind::fmac_f32_denormals, p), expected));
                const std::vector<float> flushed = reference(dppgemm::MacKind::fmac_f32, p);
                if (s.m * s.n > 1) {
                    CHECK(denormals(expected) > std::size_t(s.m * s.n / 2));
                    CHECK_FALSE(bitwise_equal(flushed, expected));
                }
                std::size_t kernels = 0;
                for (dppgemm::Variant variant : dppgemm::available_variants(target)) {
                    const dppgemm::VariantInfo* row = dppgemm::variant_info(variant);
                    std::vector<float> c;
                    const Result r = p.run(c, on(Backend::emu, target, variant));
                    INFO(target << " " << layout << " " << row->name << " " << s.m << "x" << s.n << "x" << s.k << ": "
                                << r.message);
                    REQUIRE(r);
                    if (row->keeps_denormals) {
                        ++kernels;
                        CHECK(bitwise_equal(c, expected));
                    } else if ((" " + std::string(row->defines) + " ").find(" MFMA=1 ") != std::string::npos) {
                        // The MFMA flushes its A and B inputs but never its C/D (the emulator's
                        // model, emu/exec/sem_mfma.cpp), so its denormal partial sums survive
                        // where every flushing reference flushes them: no MacKind is this
                        // kernel near underflow (docs/kernels.md, the mfma variant).
                        continue;
                    } else {
                        CHECK(bitwise_equal(c, reference(dppgemm::kernel_mac_kind(variant, target), p)));
                    }
                }
                CHECK(kernels >= 5);
            }
}

TEST_CASE("sgemm: best keeps denormals, and gfx900 (no v_fmac_f32) has no kernel that does") {
    const Problem p = near_underflow('N', 'N', 64, 8, 16, 3);
    std::vector<float> c;
    REQUIRE(p.run(c, on(Backend::emu)));
    CHECK(bitwise_equal(c, fused_same_order(p)));
    for (dppgemm::Variant variant : dppgemm::available_variants("gfx900"))
        CHECK_FALSE(dppgemm::variant_info(variant)->keeps_denormals);
    const Result r = p.run(c, on(Backend::emu, "gfx900", dppgemm::Variant::dpp1_denorm));
    CHECK(r.status == Status::unsupported);
    CHECK(r.message ==
          "emu: dpp1_denorm is not available on gfx900 (needs fmac_f32; built for gfx906, gfx908, gfx90a, gfx942)");
}

TEST_CASE("sgemm: model_only computes the traced workgroups' tiles, leaves the rest of C, and names them") {
    // 3 x 2 tiles, beta = 0: the untraced tiles keep C's values, not zeros.
    Problem p = Problem::random('T', 'N', 300, 200, 24, 2, 17);
    p.beta = 0.0f;
    Options options = on(Backend::emu, "gfx906", dppgemm::Variant::dpp1);
    std::vector<float> full;
    REQUIRE(p.run(full, options).message == "");
    options.model = true;
    options.model_only = true;
    std::vector<float> c;
    const Result r = p.run(c, options);
    REQUIRE(r.message == "");
    REQUIRE(r.modeled);
    CHECK(r.modeled->traced_workgroups == std::vector<std::array<std::uint32_t, 3>>{{0, 0, 0}, {2, 1, 0}});
    CHECK(r.counters->workgroups == 2);
    std::size_t wrong = 0;
    for (int j = 0; j < p.n; ++j)
        for (int i = 0; i < p.m; ++i) {
            const bool traced = (i < 128 && j < 128) || (i >= 256 && j >= 128);
            const std::size_t at = i + std::size_t(j) * p.ldc;
            wrong += std::memcmp(&c[at], traced ? &full[at] : &p.c[at], 4) != 0;
        }
    CHECK(wrong == 0);
}
