// Every row of the variant table (include/dppgemm/variants.def) against what
// the emulator counts when its kernels run: LDS read requests and extra VALU
// instructions per 128x128x8 workgroup step, on every target it is built for.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

#include "dppgemm/dppgemm.hpp"
#include "dppgemm/kernargs.h"
#include "kernel_builder.hpp"
#include "sgemm_launch.hpp"

using namespace exec_test;

namespace {

std::string code_object_path(const std::string& target, const std::string& variant) {
    return code_object_dir() + "/" + target + "/dppgemm_sgemm_" + variant + "_NN.co";
}

// One 128x128 workgroup, K = 8 * steps. Per-step figures come from the
// difference of two runs (kSteps more steps), which cancels the setup and the
// epilogue exactly (dpp3 and bcast spend some 10-60 more VALU there per wave).
constexpr int kSteps = 32;

Counters run_one_workgroup(const std::string& path, std::uint32_t steps) {
    const CodeObject co = load_code_object(path);
    const Program program = build_program(co, co.kernels.at(0));
    const std::uint32_t m = 128, n = 128, k = 8 * steps;
    using dppgemm::test_support::sgemm_kernargs;
    dppgemm::test_support::SgemmLaunch run(std::vector<float>(m * k, 0.5f), std::vector<float>(k * n, 0.25f),
                                           std::vector<float>(m * n, 0.0f),
                                           sgemm_kernargs(m, n, k, m, k, m, 1.0f, 0.0f));
    run.config.threads = 1;
    const DispatchResult r = launch(run.memory, program, run.config);
    REQUIRE(r.ok());
    const std::vector<float> c = run.c();
    CHECK(c[0] == 0.125f * float(k));  // exact: k products of 1/8, a power of two
    return r.counters;
}

}  // namespace

TEST_CASE("every variant row: counted LDS read requests and extra VALU per step match the table", "[sgemm][counters]") {
    unsigned rows_checked = 0;
    for (const char* target : {"gfx900", "gfx906", "gfx908", "gfx90a", "gfx942"}) {
        if (!std::filesystem::exists(code_object_path(target, "dpp0"))) continue;
        // VALU and counters of kSteps steps: the run of 2 kSteps less the run of kSteps
        const auto steady = [](const std::string& path, Counters& c) {
            const Counters one = run_one_workgroup(path, kSteps), two = run_one_workgroup(path, 2 * kSteps);
            c = two;
            c.lds_read_requests = two.lds_read_requests - one.lds_read_requests;
            c.valu_multiply_add = two.valu_multiply_add - one.valu_multiply_add;
            return std::int64_t(two[InstClass::valu]) - std::int64_t(one[InstClass::valu]);
        };
        Counters dpp0;
        const std::int64_t dpp0_valu = steady(code_object_path(target, "dpp0"), dpp0);
        for (const dppgemm::VariantInfo& row : dppgemm::variant_table()) {
            const std::string path = code_object_path(target, row.name);
            INFO(target << " " << row.name);
            // A row is built exactly for the targets with its features.
            const std::vector<dppgemm::Variant> available = dppgemm::available_variants(target);
            const bool built = std::filesystem::exists(path);
            CHECK(built == (std::find(available.begin(), available.end(), row.variant) != available.end()));
            if (!*row.features) CHECK(built);
            if (!built) continue;
            Counters c;
            const std::int64_t valu = steady(path, c);
            CHECK(c.lds_read_requests == row.lds_read_requests_per_step * kSteps);
            CHECK(valu - dpp0_valu == row.extra_valu_per_step * kSteps);  // exact
            // Same useful work: the emulator counts multiply-add instructions, and
            // with the template parameter PACKED=1 every one is a v_pk_fma_f32 (two).
            const bool packed = (" " + std::string(row.defines) + " ").find(" PACKED=1 ") != std::string::npos;
            CHECK(c.valu_multiply_add * (packed ? 2 : 1) == dpp0.valu_multiply_add);
            ++rows_checked;
        }
    }
    CHECK(rows_checked >= 3 * 4);  // today's three rows on gfx900..gfx90a at least
}
