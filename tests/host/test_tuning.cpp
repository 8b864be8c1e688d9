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

// Four compute units: a 128x128 tile's 1..4 tiles put one workgroup on the
// busiest, 5..8 two; a 64x64 tile's 1..4 tiles one, 5..8 two.
const char* kTable =
    "# a hand-written table\n"
    "dppgemm-tuning-table 2   # format\n"
    "target gfx906\n"
    "compute-units 4\n"
    "tie 0.02\n"
    "\n"
    "dpp2_denorm    NN 100  1:1   2:2   4:3\n"
    "dpp2_denorm    NN 200  1:2   2:4   4:6\n"
    "dpp2_64_denorm NN 100  1:0.5 2:1.5 3:1.6\n"
    "dpp2_64_denorm NN 200  1:1   2:3   3:3.2\n"
    "dpp0_denorm    TT 100  1:1\n"
    "dpp2_64_denorm TT 100  1:1.01\n"
    "dpp1_denorm    TN 100  1:1\n"
    "dpp2_denorm    TN 100  1:1.015\n";

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

double estimate(const dppgemm::TuningTable& t, Variant v, char ta, char tb, std::int64_t m, std::int64_t n,
                std::int64_t k) {
    const auto e = t.estimate(v, ta, tb, m, n, k);
    REQUIRE(e);
    return *e;
}

const char* chosen(const dppgemm::TuningTable& t, char ta, char tb, std::int64_t m, std::int64_t n, std::int64_t k) {
    const auto v = t.choose(ta, tb, m, n, k);
    return v ? dppgemm::to_string(*v) : "none";
}

}  // namespace

TEST_CASE("a hand-written table: estimates from the tile counts, interpolated in workgroups and K") {
    const dppgemm::TuningTable t = parsed(kTable);
    CHECK(t.target == "gfx906");
    CHECK(t.compute_units == 4);
    CHECK(t.tie == 0.02);
    REQUIRE(t.rows.size() == 8);
    CHECK(t.rows[0].line == 7);
    CHECK(t.rows[3].points.size() == 3);
    CHECK(t.rows[3].points[2].workgroups == 3);
    CHECK(t.rows[3].points[2].milliseconds == 3.2);
    const Variant big = Variant::dpp2_denorm, small = Variant::dpp2_64_denorm;
    // 128x128: 1..4 tiles one workgroup per CU, 5..8 two, 9..12 three (between
    // the points 2 and 4), 17..20 five (beyond the last point, extended).
    CHECK(estimate(t, big, 'N', 'N', 1, 1, 100) == 1);
    CHECK(estimate(t, big, 'N', 'N', 256, 256, 100) == 1);
    CHECK(estimate(t, big, 'n', 'n', 257, 256, 100) == 2);
    CHECK(estimate(t, big, 'N', 'N', 384, 384, 100) == 2.5);
    CHECK(estimate(t, big, 'N', 'N', 128 * 20, 128, 100) == 3.5);
    // K between rows and beyond them, extended from the nearest two.
    CHECK(estimate(t, big, 'N', 'N', 1, 1, 150) == 1.5);
    CHECK(estimate(t, big, 'N', 'N', 257, 256, 400) == 8);
    CHECK(estimate(t, big, 'N', 'N', 1, 1, 50) == 0.5);
    CHECK(estimate(t, big, 'N', 'N', 1, 1, 1) == Approx(0.01).epsilon(1e-12));
    // 64x64: 1..4 tiles one workgroup, 5..8 two, 9..12 three.
    CHECK(estimate(t, small, 'N', 'N', 128, 128, 100) == 0.5);
    CHECK(estimate(t, small, 'N', 'N', 192, 128, 100) == 1.5);
    CHECK(estimate(t, small, 'N', 'N', 192, 192, 100) == 1.6);
    CHECK_FALSE(t.estimate(small, 'N', 'T', 1, 1, 1));
    CHECK_FALSE(t.estimate(Variant::dpp3_denorm, 'N', 'N', 1, 1, 1));
}

TEST_CASE(
    "a hand-written table: the least estimate for the problem's tile counts, ties to the fixed rule, else the "
    "least work") {
    const dppgemm::TuningTable t = parsed(kTable);
    // The 64x64 tile wins at one workgroup per CU and loses where its tile
    // count crosses a multiple of the CUs while the 128x128 one's does not.
    CHECK(std::string(chosen(t, 'N', 'N', 128, 128, 100)) == "dpp2_64_denorm");  // 0.5 against 1
    CHECK(std::string(chosen(t, 'N', 'N', 320, 64, 100)) == "dpp2_denorm");      // 1.5 against 1
    CHECK(std::string(chosen(t, 'N', 'N', 384, 128, 100)) == "dpp2_denorm");     // 1.6 against 1
    CHECK(std::string(chosen(t, 'N', 'N', 640, 128, 100)) == "dpp2_64_denorm");  // 1.6 + 0.2 against 2
    CHECK(std::string(chosen(t, 'N', 'N', 40, 64, 16)) == "dpp2_64_denorm");
    // Within 2 %: the least multiply-adds (64x64 over 128x128), unless the
    // fixed rule's dpp2_denorm is one of them.
    CHECK(std::string(chosen(t, 'T', 'T', 64, 64, 100)) == "dpp2_64_denorm");
    CHECK(std::string(chosen(t, 'T', 'N', 64, 64, 100)) == "dpp2_denorm");
    CHECK(std::string(chosen(t, 'N', 'T', 64, 64, 100)) == "none");
}

TEST_CASE("a malformed table is refused naming the origin, the line and the problem") {
    const std::string head = "dppgemm-tuning-table 2\ntarget gfx906\ncompute-units 60\ntie 0\n";
    CHECK(error_of("") == "t.tune: no 'dppgemm-tuning-table 2' line");
    CHECK(error_of("# only a comment\n\n") == "t.tune: no 'dppgemm-tuning-table 2' line");
    CHECK(error_of("dppgemm-tuning-table 2\n") == "t.tune: no 'target <processor>' line");
    CHECK(error_of("dppgemm-tuning-table 2\ntarget gfx906\ncompute-units 60\n") == "t.tune: no 'tie <share>' line");
    CHECK(error_of("dppgemm-tuning-table 1\n") == "t.tune:1: format version '1' is not 2");
    CHECK(error_of("target gfx906\n") == "t.tune:1: expected 'dppgemm-tuning-table 2' first, found 'target gfx906'");
    CHECK(error_of("dppgemm-tuning-table 2\ntarget gfx1100\n") ==
          "t.tune:2: target 'gfx1100' has no kernels in this library");
    CHECK(error_of("dppgemm-tuning-table 2\ndpp0 NN 8 1:1\n") ==
          "t.tune:2: expected 'target <processor>' second, found 'dpp0 NN 8 1:1'");
    CHECK(error_of("dppgemm-tuning-table 2\ntarget gfx906\ntie 0\n") ==
          "t.tune:3: expected 'compute-units <count>' third, found 'tie 0'");
    CHECK(error_of("dppgemm-tuning-table 2\ntarget gfx906\ncompute-units 0\n") ==
          "t.tune:3: compute-units '0' is not a count 1..2147483647");
    CHECK(error_of("dppgemm-tuning-table 2\ntarget gfx906\ncompute-units 60\ntie 1\n") ==
          "t.tune:4: tie '1' is not a share 0 <= x < 1");
    CHECK(error_of(head + "dpp9 NN 8 1:1\n") == "t.tune:5: variant 'dpp9' is not a row of the variant table");
    CHECK(error_of(head + "best NN 8 1:1\n") == "t.tune:5: variant 'best' is not a row of the variant table");
    CHECK(error_of(head + "dpp0 NN 8 1:1\n") ==
          "t.tune:5: variant 'dpp0' is not one Variant::best may run on gfx906 (dpp0_denorm, dpp1_denorm, "
          "dpp2_denorm, dpp3_denorm, dpp3half_denorm, dpp2_64_denorm, dpp0_32_denorm)");
    CHECK(error_of(head + "bcast_denorm NN 8 1:1\n") ==
          "t.tune:5: variant 'bcast_denorm' is not one Variant::best may run on gfx906 (dpp0_denorm, dpp1_denorm, "
          "dpp2_denorm, dpp3_denorm, dpp3half_denorm, dpp2_64_denorm, dpp0_32_denorm)");
    CHECK(error_of(head + "\ndpp0_denorm NN 8\n") ==
          "t.tune:6: expected a row 'variant layout k workgroups:ms ...', found 3 fields: 'dpp0_denorm NN 8'");
    CHECK(error_of(head + "dpp0_denorm NC 8 1:1\n") == "t.tune:5: layout 'NC' is not NN, NT, TN or TT");
    CHECK(error_of(head + "dpp0_denorm NN 0 1:1\n") == "t.tune:5: k '0' is not a count 1..2147483647");
    CHECK(error_of(head + "dpp0_denorm NN 2147483648 1:1\n") ==
          "t.tune:5: k '2147483648' is not a count 1..2147483647");
    const std::string point = "' is not workgroups:ms (a count 1..2147483647, a number >= 0)";
    CHECK(error_of(head + "dpp0_denorm NN 8 1:1 2\n") == "t.tune:5: point '2" + point);
    CHECK(error_of(head + "dpp0_denorm NN 8 0:1\n") == "t.tune:5: point '0:1" + point);
    CHECK(error_of(head + "dpp0_denorm NN 8 1:-1\n") == "t.tune:5: point '1:-1" + point);
    CHECK(error_of(head + "dpp0_denorm NN 8 1:nan\n") == "t.tune:5: point '1:nan" + point);
    CHECK(error_of(head + "dpp0_denorm NN 8 1:1x\n") == "t.tune:5: point '1:1x" + point);
    CHECK(error_of(head + "dpp0_denorm NN 8 2:1 2:3\n") == "t.tune:5: point '2:3': workgroups must ascend (after 2)");
    CHECK(error_of(head + "dpp0_denorm NN 8 1:1\ndpp0_denorm NN 8 1:2\n") ==
          "t.tune:6: a second row for dpp0_denorm NN k 8 (the first is line 5)");
}

TEST_CASE("format_tuning_table writes what parse_tuning_table reads back") {
    const dppgemm::TuningTable t = parsed(kTable);
    const std::string text = dppgemm::format_tuning_table(t, {"made by hand"});
    CHECK(text ==
          "# made by hand\n"
          "dppgemm-tuning-table 2\n"
          "target gfx906\n"
          "compute-units 4\n"
          "tie 0.02\n"
          "# variant         layout k      workgroups:ms\n"
          "dpp2_denorm       NN     100    1:1 2:2 4:3\n"
          "dpp2_denorm       NN     200    1:2 2:4 4:6\n"
          "dpp2_64_denorm    NN     100    1:0.5 2:1.5 3:1.6\n"
          "dpp2_64_denorm    NN     200    1:1 2:3 3:3.2\n"
          "dpp0_denorm       TT     100    1:1\n"
          "dpp2_64_denorm    TT     100    1:1.01\n"
          "dpp1_denorm       TN     100    1:1\n"
          "dpp2_denorm       TN     100    1:1.015\n");
    CHECK(dppgemm::format_tuning_table(parsed(text), {"made by hand"}) == text);
}

TEST_CASE("best_variant per problem: the table's choice, else the fixed rule") {
    const std::string file = write_file("choices.tune", kTable);
    CHECK(dppgemm::best_variant("gfx906", 'N', 'N', 128, 128, 100, file) == Variant::dpp2_64_denorm);
    CHECK(dppgemm::best_variant("gfx906:sramecc+:xnack-", 'N', 'N', 320, 64, 100, file) == Variant::dpp2_denorm);
    CHECK(dppgemm::best_variant("gfx906", 'T', 'T', 64, 64, 100, file) == Variant::dpp2_64_denorm);
    // No row for the layout: the fixed rule.
    CHECK(dppgemm::best_variant("gfx906", 'N', 'T', 128, 128, 100, file) == dppgemm::best_variant("gfx906"));
    CHECK(dppgemm::best_variant("gfx906", 'N', 'T', 128, 128, 100, file) == Variant::dpp2_denorm);
    ::setenv("DPPGEMM_TUNING_TABLE", file.c_str(), 1);
    CHECK(dppgemm::best_variant("gfx906", 'N', 'N', 128, 128, 100) == Variant::dpp2_64_denorm);
    ::unsetenv("DPPGEMM_TUNING_TABLE");
    // Choices are remembered per table: one problem asked of two tables in
    // turn gets each table's own answer.
    const std::string other = write_file("other.tune",
                                         "dppgemm-tuning-table 2\ntarget gfx906\ncompute-units 4\ntie 0.02\n"
                                         "dpp2_denorm    NN 100  1:0.25 2:0.5 4:1\n"
                                         "dpp2_64_denorm NN 100  1:1    2:2   3:3\n");
    for (int round = 0; round < 2; ++round) {
        CHECK(dppgemm::best_variant("gfx906", 'N', 'N', 128, 128, 100, other) == Variant::dpp2_denorm);
        CHECK(dppgemm::best_variant("gfx906", 'N', 'N', 128, 128, 100, file) == Variant::dpp2_64_denorm);
    }
}

TEST_CASE(
    "sgemm with Variant::best runs the kernel the table chooses for the problem's tile counts (a 64x64 one "
    "too)") {
    const std::string file = write_file("small.tune", kTable);
    const auto run = [&](char ta, int m, int n, int k) {
        const int lda = ta == 'N' ? m : k;
        std::vector<float> a(std::size_t(m) * k), b(std::size_t(k) * n), c(std::size_t(m) * n), ref(c.size());
        for (std::size_t i = 0; i < a.size(); ++i) a[i] = float(int(i * 7 % 13) - 6) * 0.25f;
        for (std::size_t i = 0; i < b.size(); ++i) b[i] = float(int(i * 5 % 11) - 5) * 0.5f;
        dppgemm::Options options;
        options.backend = dppgemm::Backend::emu;
        options.emu_target = "gfx906";
        options.threads = 1;
        options.tuning_table = file;
        const dppgemm::Result r =
            dppgemm::sgemm(ta, 'N', m, n, k, 1.0f, a.data(), lda, b.data(), k, 0.0f, c.data(), m, options);
        INFO(r.message);
        REQUIRE(r);
        dppgemm::reference_sgemm(dppgemm::kernel_mac_kind(Variant::best, "gfx906"), ta, 'N', m, n, k, 1.0f, a.data(),
                                 lda, b.data(), k, 0.0f, ref.data(), m);
        CHECK(std::memcmp(c.data(), ref.data(), c.size() * sizeof(float)) == 0);
        return r.kernel;
    };
    // At K = 16 (extended from the rows at 100 and 200): 64x64 0.08 ms at one
    // workgroup per CU, 0.24 at two; 128x128 0.16 at one.
    CHECK(run('N', 40, 64, 16) == "dppgemm_sgemm_dpp2_64_denorm_NN");
    CHECK(run('N', 320, 64, 16) == "dppgemm_sgemm_dpp2_denorm_NN");
    CHECK(run('T', 40, 64, 16) == "dppgemm_sgemm_dpp2_denorm_TN");
}

TEST_CASE("a malformed or missing table or one for another target: the fixed rule after one warning per process") {
    const std::string bad =
        write_file("bad.tune", "dppgemm-tuning-table 2\ntarget gfx906\ncompute-units 60\ntie 0\ndpp9 NN 8 1:1\n");
    const std::string foreign = write_file(
        "foreign.tune", "dppgemm-tuning-table 2\ntarget gfx90a\ncompute-units 110\ntie 0\ndpp0_denorm NN 8 1:1\n");
    CapturedStderr captured;
    CHECK(dppgemm::best_variant("gfx906", 'N', 'N', 8, 8, 8, bad) == Variant::dpp2_denorm);
    CHECK(dppgemm::best_variant("gfx906", 'N', 'N', 8, 8, 8, bad) == Variant::dpp2_denorm);
    CHECK(dppgemm::best_variant("gfx906", 'N', 'N', 8, 8, 8, "/nonexistent/x.tune") == Variant::dpp2_denorm);
    CHECK(dppgemm::best_variant("gfx906", 'N', 'N', 8, 8, 8, foreign) == Variant::dpp2_denorm);
    CHECK(captured.text() == "dppgemm: tuning table " + bad +
                                 ":5: variant 'dpp9' is not a row of the variant table; Variant::best runs the fixed "
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
        // Every candidate has a row per layout, and Variant::best without a
        // table given reads this one.
        for (Variant v : dppgemm::best_candidates(target))
            for (const char* layout : {"NN", "NT", "TN", "TT"}) CHECK(t.estimate(v, layout[0], layout[1], 1, 1, 1));
        for (const int size : {1, 16, 128, 1000, 4096})
            CHECK(dppgemm::best_variant(target, 'N', 'T', size, size, size) == t.choose('N', 'T', size, size, size));
    }
}
