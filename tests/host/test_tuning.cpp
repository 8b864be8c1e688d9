// Tuning tables: the reader on hand-written tables (exact choices and exact
// errors), the writer read back, the shipped tables, and sgemm running the
// table's choice or, for a bad table, the fixed rule after one warning.
#include <catch2/catch.hpp>

#include "capture_stderr.hpp"
#include "dppgemm/dppgemm.hpp"
#include "dppgemm/reference.hpp"
#include "test_toolchain.hpp"

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

using dppgemm::Variant;

const char* kTable =
    "# a hand-written table\n"
    "dppgemm-tuning-table 1   # format\n"
    "target gfx906\n"
    "\n"
    "NN 1..100  *      8     dpp0_denorm\n"
    "NN 1..100  *      9..   dpp1_denorm\n"
    "*  *       1..64  *     dpp3_denorm\n"
    "TT 500..   500    *     dpp3half_denorm\n";

dppgemm::TuningTable parsed(const std::string& text) {
    std::string error;
    const auto table = dppgemm::parse_tuning_table(text, "t.tune", error);
    INFO(error);
    REQUIRE(table);
    CHECK(error.empty());
    return *table;
}

std::string error_of(const std::string& text) {
    std::string error;
    CHECK_FALSE(dppgemm::parse_tuning_table(text, "t.tune", error));
    return error;
}

std::string write_file(const std::string& name, const std::string& text) {
    const std::string path = dppgemm::test_support::work_dir() + "/" + name;
    std::ofstream(path) << text;
    return path;
}

const char* chosen(const dppgemm::TuningTable& t, char ta, char tb, std::int64_t m, std::int64_t n, std::int64_t k) {
    const dppgemm::TuningRule* rule = t.find(ta, tb, m, n, k);
    return rule ? dppgemm::to_string(rule->variant) : "none";
}

}  // namespace

TEST_CASE("a hand-written table: the first rule holding the problem, by layout and ranges") {
    const dppgemm::TuningTable t = parsed(kTable);
    CHECK(t.target == "gfx906");
    REQUIRE(t.rules.size() == 4);
    CHECK(t.rules[0].line == 5);
    CHECK(t.rules[3].line == 8);
    CHECK(std::string(chosen(t, 'N', 'N', 50, 7, 8)) == "dpp0_denorm");
    CHECK(std::string(chosen(t, 'n', 'n', 100, 1, 9)) == "dpp1_denorm");
    CHECK(std::string(chosen(t, 'N', 'N', 1, 2147483647, 2147483647)) == "dpp1_denorm");
    CHECK(std::string(chosen(t, 'N', 'N', 100, 1, 7)) == "dpp3_denorm");
    CHECK(std::string(chosen(t, 'T', 'N', 1, 64, 1)) == "dpp3_denorm");
    CHECK(std::string(chosen(t, 'N', 'N', 101, 65, 8)) == "none");
    CHECK(std::string(chosen(t, 'T', 'T', 500, 500, 3)) == "dpp3half_denorm");
    CHECK(std::string(chosen(t, 'C', 't', 2147483647, 500, 1)) == "dpp3half_denorm");
    CHECK(std::string(chosen(t, 'T', 'T', 499, 500, 3)) == "none");
    CHECK(std::string(chosen(t, 'T', 'T', 500, 501, 3)) == "none");
}

TEST_CASE("a malformed table is refused naming the origin, the line and the problem") {
    const std::string head = "dppgemm-tuning-table 1\ntarget gfx906\n";
    CHECK(error_of("") == "t.tune: no 'dppgemm-tuning-table 1' line");
    CHECK(error_of("# only a comment\n\n") == "t.tune: no 'dppgemm-tuning-table 1' line");
    CHECK(error_of("dppgemm-tuning-table 1\n") == "t.tune: no 'target <processor>' line");
    CHECK(error_of("dppgemm-tuning-table 2\n") == "t.tune:1: format version '2' is not 1");
    CHECK(error_of("target gfx906\n") == "t.tune:1: expected 'dppgemm-tuning-table 1' first, found 'target gfx906'");
    CHECK(error_of("dppgemm-tuning-table 1\ntarget gfx1100\n") ==
          "t.tune:2: target 'gfx1100' has no kernels in this library");
    CHECK(error_of("dppgemm-tuning-table 1\nNN * * * dpp0\n") ==
          "t.tune:2: expected 'target <processor>' second, found 'NN * * * dpp0'");
    CHECK(error_of(head + "NN * * * dpp9\n") == "t.tune:3: variant 'dpp9' is not a row of the variant table");
    CHECK(error_of(head + "NN * * * best\n") == "t.tune:3: variant 'best' is not a row of the variant table");
    CHECK(error_of(head + "NN * * * dpp0\n") ==
          "t.tune:3: variant 'dpp0' is not one Variant::best may run on gfx906 (dpp0_denorm, dpp1_denorm, "
          "dpp2_denorm, dpp3_denorm, dpp3half_denorm, dpp2_64_denorm, dpp0_32_denorm)");
    CHECK(error_of(head + "NN * * * bcast_denorm\n") ==
          "t.tune:3: variant 'bcast_denorm' is not one Variant::best may run on gfx906 (dpp0_denorm, dpp1_denorm, "
          "dpp2_denorm, dpp3_denorm, dpp3half_denorm, dpp2_64_denorm, dpp0_32_denorm)");
    CHECK(error_of(head + "\nNN * * dpp0_denorm\n") ==
          "t.tune:4: expected 5 fields (layout m n k variant), found 4: 'NN * * dpp0_denorm'");
    CHECK(error_of(head + "NC * * * dpp0_denorm\n") == "t.tune:3: layout 'NC' is not NN, NT, TN, TT or *");
    const std::string range = " is not *, A, A.. or A..B with 1 <= A <= B <= 2147483647";
    CHECK(error_of(head + "NN 0..5 * * dpp0_denorm\n") == "t.tune:3: m range '0..5'" + range);
    CHECK(error_of(head + "NN * 9..3 * dpp0_denorm\n") == "t.tune:3: n range '9..3'" + range);
    CHECK(error_of(head + "NN * * 2147483648 dpp0_denorm\n") == "t.tune:3: k range '2147483648'" + range);
    CHECK(error_of(head + "NN * * ..8 dpp0_denorm\n") == "t.tune:3: k range '..8'" + range);
    CHECK(error_of(head + "NN * * 1-8 dpp0_denorm\n") == "t.tune:3: k range '1-8'" + range);
}

TEST_CASE("format_tuning_table writes what parse_tuning_table reads back") {
    const dppgemm::TuningTable t = parsed(kTable);
    const std::string text = dppgemm::format_tuning_table(t, {"made by hand"});
    CHECK(text ==
          "# made by hand\n"
          "dppgemm-tuning-table 1\n"
          "target gfx906\n"
          "# layout  m            n            k            variant\n"
          "NN        1..100       *            8            dpp0_denorm\n"
          "NN        1..100       *            9..          dpp1_denorm\n"
          "*         *            1..64        *            dpp3_denorm\n"
          "TT        500..        500          *            dpp3half_denorm\n");
    const dppgemm::TuningTable back = parsed(text);
    REQUIRE(back.rules.size() == t.rules.size());
    for (std::size_t i = 0; i < t.rules.size(); ++i) {
        CHECK(back.rules[i].layout == t.rules[i].layout);
        CHECK(back.rules[i].variant == t.rules[i].variant);
        for (auto range : {&dppgemm::TuningRule::m, &dppgemm::TuningRule::n, &dppgemm::TuningRule::k}) {
            CHECK((back.rules[i].*range).low == (t.rules[i].*range).low);
            CHECK((back.rules[i].*range).high == (t.rules[i].*range).high);
        }
    }
}

TEST_CASE("best_variant per problem: the table's rule, else the fixed rule") {
    const std::string file = write_file("choices.tune", kTable);
    CHECK(dppgemm::best_variant("gfx906", 'N', 'N', 50, 7, 8, file) == Variant::dpp0_denorm);
    CHECK(dppgemm::best_variant("gfx906:sramecc+:xnack-", 'T', 'T', 500, 500, 3, file) == Variant::dpp3half_denorm);
    CHECK(dppgemm::best_variant("gfx906", 'N', 'N', 101, 65, 8, file) == dppgemm::best_variant("gfx906"));
    CHECK(dppgemm::best_variant("gfx906", 'N', 'N', 101, 65, 8, file) == Variant::dpp2_denorm);
    ::setenv("DPPGEMM_TUNING_TABLE", file.c_str(), 1);
    CHECK(dppgemm::best_variant("gfx906", 'N', 'N', 50, 7, 8) == Variant::dpp0_denorm);
    ::unsetenv("DPPGEMM_TUNING_TABLE");
}

TEST_CASE("sgemm with Variant::best runs the kernel the table names for the problem's region (a 64x64 one too)") {
    const std::string file = write_file("small.tune",
                                        "dppgemm-tuning-table 1\ntarget gfx906\n"
                                        "NN 1..64 1..64 * dpp2_64_denorm\n"
                                        "NN 65..100 * * dpp0_denorm\n");
    const auto run = [&](int m, int n, int k) {
        std::vector<float> a(std::size_t(m) * k), b(std::size_t(k) * n), c(std::size_t(m) * n), ref(c.size());
        for (std::size_t i = 0; i < a.size(); ++i) a[i] = float(int(i * 7 % 13) - 6) * 0.25f;
        for (std::size_t i = 0; i < b.size(); ++i) b[i] = float(int(i * 5 % 11) - 5) * 0.5f;
        dppgemm::Options options;
        options.backend = dppgemm::Backend::emu;
        options.emu_target = "gfx906";
        options.threads = 1;
        options.tuning_table = file;
        const dppgemm::Result r =
            dppgemm::sgemm('N', 'N', m, n, k, 1.0f, a.data(), m, b.data(), k, 0.0f, c.data(), m, options);
        INFO(r.message);
        REQUIRE(r);
        dppgemm::reference_sgemm(dppgemm::kernel_mac_kind(Variant::best, "gfx906"), 'N', 'N', m, n, k, 1.0f, a.data(),
                                 m, b.data(), k, 0.0f, ref.data(), m);
        CHECK(std::memcmp(c.data(), ref.data(), c.size() * sizeof(float)) == 0);
        return r.kernel;
    };
    CHECK(run(40, 64, 16) == "dppgemm_sgemm_dpp2_64_denorm_NN");
    CHECK(run(65, 64, 16) == "dppgemm_sgemm_dpp0_denorm_NN");
    CHECK(run(101, 64, 16) == "dppgemm_sgemm_dpp2_denorm_NN");
}

TEST_CASE("a malformed or missing table or one for another target: the fixed rule after one warning per process") {
    const std::string bad = write_file("bad.tune", "dppgemm-tuning-table 1\ntarget gfx906\nNN * * * dpp9\n");
    const std::string foreign =
        write_file("foreign.tune", "dppgemm-tuning-table 1\ntarget gfx90a\nNN * * * dpp0_denorm\n");
    CapturedStderr captured;
    CHECK(dppgemm::best_variant("gfx906", 'N', 'N', 8, 8, 8, bad) == Variant::dpp2_denorm);
    CHECK(dppgemm::best_variant("gfx906", 'N', 'N', 8, 8, 8, bad) == Variant::dpp2_denorm);
    CHECK(dppgemm::best_variant("gfx906", 'N', 'N', 8, 8, 8, "/nonexistent/x.tune") == Variant::dpp2_denorm);
    CHECK(dppgemm::best_variant("gfx906", 'N', 'N', 8, 8, 8, foreign) == Variant::dpp2_denorm);
    CHECK(captured.text() == "dppgemm: tuning table " + bad +
                                 ":3: variant 'dpp9' is not a row of the variant table; Variant::best runs the fixed "
                                 "rule (best_variant) instead\n");
}

TEST_CASE("the shipped tables: one per target with kernels that reads back for the current kernel table") {
    for (const char* target : {"gfx906", "gfx90a", "gfx942"}) {
        INFO(target);
        const std::string_view text = dppgemm::shipped_tuning_table(target);
        REQUIRE_FALSE(text.empty());
        const dppgemm::TuningTable t = parsed(std::string(text));
        CHECK(t.target == target);
        // Written for the candidates the library has now: else regenerate
        // them (cmake --build build --target dppgemm-tables).
        std::string candidates = "# candidates:";
        for (Variant v : dppgemm::best_candidates(target)) candidates += std::string(" ") + dppgemm::to_string(v);
        CHECK(std::string(text).find(candidates + "\n") != std::string::npos);
        // Variant::best without a table given reads this one.
        const dppgemm::TuningRule& last = t.rules.back();
        CHECK(dppgemm::best_variant(target, last.layout[0], last.layout[1], last.m.low, last.n.low, last.k.low) ==
              last.variant);
    }
}
