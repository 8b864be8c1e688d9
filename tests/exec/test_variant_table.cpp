// Every row of the variant table (include/dppgemm/variants.def) against what
// the emulator counts when its kernels run: LDS read requests and extra VALU
// instructions per workgroup step (macro tile x 8 k), on every target it is built for.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
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

// One macro_tile x macro_tile workgroup, K = 8 * steps. Per-step figures come from the
// difference of two runs (kSteps more steps), which cancels the setup and the
// epilogue exactly (dpp3 and bcast spend some 10-60 more VALU there per wave).
constexpr int kSteps = 32;

// Bytes of one LDS read request: the MFMA kernel (template parameter MFMA=1)
// reads its operands with ds_read_b32, the 2x2 micro tile with ds_read_b64,
// every other row with ds_read_b128 (asm/sgemm.s); the counted bytes check it.
unsigned lds_read_request_bytes(const dppgemm::VariantInfo& row) {
    if ((" " + std::string(row.defines) + " ").find(" MFMA=1 ") != std::string::npos) return 4;
    return row.micro_tile == 2 ? 8 : 16;
}

Counters run_one_workgroup(const std::string& path, std::uint32_t macro_tile, std::uint32_t steps) {
    const CodeObject co = load_code_object(path);
    const Program program = build_program(co, co.kernels.at(0));
    const std::uint32_t m = macro_tile, n = macro_tile, k = 8 * steps;
    using dppgemm::test_support::sgemm_kernargs;
    dppgemm::test_support::SgemmLaunch run(std::vector<float>(m * k, 0.5f), std::vector<float>(k * n, 0.25f),
                                           std::vector<float>(m * n, 0.0f),
                                           sgemm_kernargs(m, n, k, m, k, m, 1.0f, 0.0f), macro_tile);
    run.config.threads = 1;
    const DispatchResult r = launch(run.memory, program, run.config);
    REQUIRE(r.ok());
    const std::vector<float> c = run.c();
    CHECK(c[0] == 0.125f * float(k));  // exact: k products of 1/8, a power of two
    return r.counters;
}

}  // namespace

TEST_CASE("every variant row: counted LDS read requests and extra VALU per step match the table",
          "[sgemm][counters][every-kernel]") {
    unsigned rows_checked = 0;
    for (const char* target : {"gfx900", "gfx906", "gfx908", "gfx90a", "gfx942"}) {
        if (!std::filesystem::exists(code_object_path(target, "dpp0"))) continue;
        // VALU and counters of kSteps steps: the run of 2 kSteps less the run of kSteps
        const auto steady = [](const std::string& path, std::uint32_t macro_tile, Counters& c) {
            const Counters one = run_one_workgroup(path, macro_tile, kSteps),
                           two = run_one_workgroup(path, macro_tile, 2 * kSteps);
            c = two;
            c.lds_read_requests = two.lds_read_requests - one.lds_read_requests;
            c.lds_read_bytes = two.lds_read_bytes - one.lds_read_bytes;
            c.valu_multiply_add = two.valu_multiply_add - one.valu_multiply_add;
            c.mfma_flops = two.mfma_flops - one.mfma_flops;
            return std::int64_t(two[InstClass::valu]) - std::int64_t(one[InstClass::valu]);
        };
        // Extra VALU counts from the first row of the same macro and micro tile
        // (its plain kernel), which the target must have.
        struct Plain {
            Counters counters;
            std::int64_t valu;
        };
        std::map<std::pair<unsigned, unsigned>, Plain> plain;
        for (const dppgemm::VariantInfo& row : dppgemm::variant_table()) {
            const auto tile = std::make_pair(row.macro_tile, row.micro_tile);
            if (plain.count(tile)) continue;
            INFO(target << " " << row.name << ": the first row of its tile");
            CHECK(row.extra_valu_per_step == 0);
            REQUIRE(std::filesystem::exists(code_object_path(target, row.name)));
            Plain& p = plain[tile];
            p.valu = steady(code_object_path(target, row.name), row.macro_tile, p.counters);
        }
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
            const std::int64_t valu = steady(path, row.macro_tile, c);
            const Plain& twin = plain.at(std::make_pair(row.macro_tile, row.micro_tile));
            CHECK(c.lds_read_requests == row.lds_read_requests_per_step * kSteps);
            CHECK(c.lds_read_bytes == c.lds_read_requests * lds_read_request_bytes(row));
            CHECK(valu - twin.valu == row.extra_valu_per_step * kSteps);  // exact
            // Same useful work, in lane FMAs: the emulator counts multiply-add
            // instructions (64 lanes; with the template parameter PACKED=1 every one
            // is a v_pk_fma_f32, two) and the MFMAs' operations (2 per FMA).
            const bool packed = (" " + std::string(row.defines) + " ").find(" PACKED=1 ") != std::string::npos;
            CHECK(64 * c.valu_multiply_add * (packed ? 2 : 1) + c.mfma_flops / 2 ==
                  64 * twin.counters.valu_multiply_add);
            ++rows_checked;
        }
    }
    CHECK(rows_checked >= 3 * 4);  // today's three rows on gfx900..gfx90a at least
}

namespace {

// A row of docs/kernels.md's kernel-family table as the variant table gives it:
// name, tiles, requests per step, LDS bytes per FMA, extra VALU, targets.
std::string family_line(const dppgemm::VariantInfo& row) {
    const unsigned t = row.macro_tile, u = row.micro_tile;
    char bytes_per_fma[32];
    std::snprintf(bytes_per_fma, sizeof bytes_per_fma, "%.3f",
                  double(row.lds_read_requests_per_step) * lds_read_request_bytes(row) / (double(t) * t * 8));
    std::string targets;
    for (const char* target : {"gfx900", "gfx906", "gfx908", "gfx90a", "gfx942"}) {
        const std::vector<dppgemm::Variant> available = dppgemm::available_variants(target);
        if (std::find(available.begin(), available.end(), row.variant) != available.end())
            targets += std::string(targets.empty() ? "" : ", ") + target;
    }
    return "| `" + std::string(row.name) + "` | " + std::to_string(t) + "x" + std::to_string(t) + " | " +
           std::to_string(u) + "x" + std::to_string(u) + " | " + std::to_string(row.lds_read_requests_per_step) +
           " | " + bytes_per_fma + " | " + std::to_string(row.extra_valu_per_step) + " | " + targets + " |";
}

}  // namespace

TEST_CASE("docs/kernels.md's kernel-family table is the variant table, row by row", "[sgemm][docs]") {
    std::ifstream in(dppgemm::test_support::source_path("docs/kernels.md"));
    REQUIRE(in);
    std::vector<std::string> lines;
    bool inside = false;
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("## ", 0) == 0) inside = line == "## The kernel family";
        if (inside && line.rfind("| `", 0) == 0) lines.push_back(line);
    }
    const auto& table = dppgemm::variant_table();
    REQUIRE(lines.size() == table.size());
    for (std::size_t i = 0; i < table.size(); ++i) CHECK(lines[i] == family_line(table[i]));
}
