// The real dppgemm-tune on a tiny grid (its table is what the reader loads)
// and dppgemm-bench --variant best running the table's choice.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include "dppgemm/dppgemm.hpp"
#include "test_toolchain.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct Outcome {
    int status = -1;
    std::string out, err;
};

std::string read(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

Outcome run(const std::string& command_line) {
    const fs::path dir = dppgemm::test_support::work_dir();
    Outcome o;
    o.status = dppgemm::test_support::exit_code(command_line + " >" + (dir / "stdout").string() + " 2>" +
                                                (dir / "stderr").string() + " </dev/null");
    o.out = read(dir / "stdout");
    o.err = read(dir / "stderr");
    return o;
}

}  // namespace

TEST_CASE("dppgemm-tune on a tiny grid writes a table the reader loads as written") {
    const fs::path file = fs::path(dppgemm::test_support::work_dir()) / "tiny.tune";
    const Outcome o =
        run(std::string(DPPGEMM_TUNE) + " --arch gfx906 --sizes 64 -k 8,16 --layouts NN,TT -o " + file.string());
    CAPTURE(o.out, o.err);
    REQUIRE(o.status == 0);
    // One launch per candidate (its workgroups at once on a CU), then per
    // layout, candidate and K the two counts of workgroups on the busiest CU
    // (1 and 2: the grid's 64 x 64 puts one there).
    const std::size_t candidates = dppgemm::best_candidates("gfx906").size();
    const std::string first = std::to_string(candidates), sweep = std::to_string(2 * candidates * 2 * 2);
    CHECK(o.err.find(first + "/" + first + " launches modeled") != std::string::npos);
    CHECK(o.err.find(sweep + "/" + sweep + " launches modeled") != std::string::npos);
    const std::string text = read(file);
    std::string error;
    const auto table = dppgemm::parse_tuning_table(text, file.string(), error);
    INFO(error);
    REQUIRE(table);
    CHECK(table->target == "gfx906");
    std::vector<std::string> comments;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line) && line.rfind("# ", 0) == 0;) comments.push_back(line.substr(2));
    CHECK(comments.front() == "Written by: dppgemm-tune --arch gfx906 --sizes 64 -k 8,16 --layouts NN,TT");
    CHECK(dppgemm::format_tuning_table(*table, comments) == text);
    CHECK(table->compute_units == 60);
    CHECK(table->tie == 0.02);
    REQUIRE(table->rows.size() == 2 * candidates * 2);
    for (const dppgemm::TuningRow& row : table->rows) {
        CHECK((row.layout == "NN" || row.layout == "TT"));
        CHECK((row.k == 8 || row.k == 16));
        REQUIRE(row.points.size() == 2);
        CHECK(row.points[0].workgroups == 1);
        CHECK(row.points[1].workgroups == 2);
        // Two workgroups on a CU take longer than one.
        CHECK(row.points[1].milliseconds > row.points[0].milliseconds);
    }
    CHECK(table->choose('N', 'N', 64, 64, 11));
    CHECK_FALSE(table->choose('N', 'T', 64, 64, 11));
}

TEST_CASE("dppgemm-bench --variant best runs the table's choice, or the fixed rule after one warning") {
    const fs::path dir = dppgemm::test_support::work_dir();
    const fs::path table = dir / "bench.tune";
    std::ofstream(table) << "dppgemm-tuning-table 2\ntarget gfx906\ncompute-units 60\ntie 0\ndpp1_denorm NT 8 1:1\n";
    const std::string bench = std::string(DPPGEMM_BENCH) +
                              " -m 64 -n 64 -k 8 --transposeB T --variant best --backend emu -i 1 --json " +
                              (dir / "b.json").string();
    Outcome o = run("DPPGEMM_TUNING_TABLE=" + table.string() + " " + bench);
    CAPTURE(o.out, o.err);
    REQUIRE(o.status == 0);
    CHECK(o.err.find("--variant best runs dpp1_denorm on gfx906 for this problem (tuning table; the fixed rule: "
                     "dpp2_denorm)") != std::string::npos);
    nlohmann::json row = nlohmann::json::parse(read(dir / "b.json"))["configs"][0]["variants"][0];
    CHECK(row["variant"] == "dpp1_denorm");
    CHECK(row["kernel"] == "dppgemm_sgemm_dpp1_denorm_NT");

    o = run("DPPGEMM_TUNING_TABLE=/nonexistent/x.tune " + bench);
    REQUIRE(o.status == 0);
    CHECK(o.err.find("dppgemm: tuning table '/nonexistent/x.tune' cannot be read; Variant::best runs the fixed rule "
                     "(best_variant) instead\n") != std::string::npos);
    row = nlohmann::json::parse(read(dir / "b.json"))["configs"][0]["variants"][0];
    CHECK(row["kernel"] == "dppgemm_sgemm_dpp2_denorm_NT");
}

TEST_CASE("dppgemm-tune --census counts the table's choice per kernel over the shapes it draws") {
    // A hand-made table for gfx906 (60 CUs): NN rows for dpp1_denorm (128x128
    // tile) and dpp2_64_denorm (64x64), a TT row for dpp2_64_denorm only, none
    // for NT (the fixed rule, dpp2_denorm). One K row: the times hold for every K.
    const fs::path table = fs::path(dppgemm::test_support::work_dir()) / "census.tune";
    std::ofstream(table) << "dppgemm-tuning-table 2\ntarget gfx906\ncompute-units 60\ntie 0\n"
                            "dpp1_denorm NN 8 1:1 2:10\ndpp2_64_denorm NN 8 1:2 2:3\ndpp2_64_denorm TT 8 1:5\n";
    const auto census = [&](const std::string& sizes) {
        const Outcome o = run(std::string(DPPGEMM_TUNE) + " --arch gfx906 --census 7 --seed 3 --census-sizes " + sizes +
                              " --layouts NN,NT,TT --table " + table.string());
        CAPTURE(o.err);
        CHECK(o.status == 0);
        return o.out;
    };
    const std::string header = "Variant::best on gfx906 (table: " + table.string() + "), 7 shapes: M, N and K ";
    // 7 shapes, the layouts in turn: NN 3, NT 2, TT 2. At 200^3 both NN
    // candidates put one workgroup on a CU (4 and 16 tiles): dpp1_denorm's
    // 1 ms beats 2 ms.
    CHECK(census("200:200") ==
          header +
              "log-uniform in [200, 200], none a multiple of 32, seed 3; layouts NN,NT,TT in turn\n"
              "dpp1_denorm              3   42.9 %\n"
              "dpp2_denorm              2   28.6 %\n"
              "dpp2_64_denorm           2   28.6 %\n");
    // At 1000^3: dpp1_denorm's 64 tiles put 2 on a CU (10 ms), dpp2_64_denorm's
    // 256 put 5 (3 ms at 2, extended by 1 ms a workgroup: 6 ms).
    CHECK(census("1000:1000") == header +
                                     "log-uniform in [1000, 1000], none a multiple of 32, seed 3; layouts NN,NT,TT in "
                                     "turn\n"
                                     "dpp2_64_denorm           5   71.4 %\n"
                                     "dpp2_denorm              2   28.6 %\n");
    const Outcome both = run(std::string(DPPGEMM_TUNE) + " --arch gfx906 --census 7 --check 7");
    CHECK(both.status == 2);
    CHECK(both.err == "dppgemm-tune: --check and --census: one at a time\n");
    const Outcome bad = run(std::string(DPPGEMM_TUNE) + " --arch gfx906 --census 7 --census-sizes 9:3");
    CHECK(bad.status == 2);
    CHECK(bad.err == "dppgemm-tune: --census-sizes 9:3: must be LOW:HIGH with 1 <= LOW <= HIGH\n");
}

TEST_CASE("dppgemm-tune --check says how far the table's estimates are from the full model's times") {
    // One row (dpp2_64_denorm, NN, one point): its estimate is 1 ms for every
    // problem, so the one kernel time compared is 1 ms against the modeled
    // time the check prints for the table's choice. Whether the check passes
    // (the one row's kernel being the best) does not matter here.
    const fs::path table = fs::path(dppgemm::test_support::work_dir()) / "check.tune";
    std::ofstream(table) << "dppgemm-tuning-table 2\ntarget gfx906\ncompute-units 60\ntie 0\n"
                            "dpp2_64_denorm NN 8 1:1\n";
    const Outcome o = run(std::string(DPPGEMM_TUNE) + " --arch gfx906 --check 1 --check-sizes 1000:1000 --layouts NN " +
                          "--table " + table.string());
    CAPTURE(o.out, o.err);
    CHECK((o.status == 0 || o.status == 1));
    std::istringstream lines(o.out);
    std::string header, shape_line, estimates;
    std::getline(lines, header);
    std::getline(lines, shape_line);
    std::getline(lines, estimates);
    std::istringstream fields(shape_line);
    std::string layout, dims, chosen;
    double modeled_ms = 0;
    fields >> layout >> dims >> chosen >> modeled_ms;
    CHECK(layout + " " + dims == "NN 1000x1000x1000");
    REQUIRE(chosen == "dpp2_64_denorm");
    REQUIRE(modeled_ms > 0);
    const std::string prefix = "estimates: 1 kernel times, median ";
    REQUIRE(estimates.rfind(prefix, 0) == 0);
    const double median = std::stod(estimates.substr(prefix.size()));
    // The printed time has 4 decimals: the percentage agrees to their precision.
    CHECK(median == Approx(100 * (1 / modeled_ms - 1)).epsilon(0.002));
    CHECK(estimates.find("(NN 1000x1000x1000 dpp2_64_denorm)") != std::string::npos);

    const Outcome missing =
        run(std::string(DPPGEMM_TUNE) +
            " --arch gfx906 --check 1 --check-sizes 40:40 --layouts NN --table /nonexistent/x.tune");
    CHECK(missing.out.find("estimates: not compared ('/nonexistent/x.tune' cannot be read)\n") != std::string::npos);
}
