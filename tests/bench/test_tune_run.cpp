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
