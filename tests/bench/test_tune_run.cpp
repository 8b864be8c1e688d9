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
    // 2 layouts x 2 K x the candidates, each modeled once.
    const std::string launches = std::to_string(4 * dppgemm::best_candidates("gfx906").size());
    CHECK(o.err.find(launches + "/" + launches + " launches modeled") != std::string::npos);
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
    // Per layout, the one grid value cuts M and N into 1..64 and 65.. (open):
    // four boxes, each holding its corner of the problem space.
    for (const char* layout : {"NN", "TT"})
        for (const int m : {1, 2147483647})
            for (const int n : {1, 2147483647}) {
                const dppgemm::TuningRule* rule = table->find(layout[0], layout[1], m, n, 11);
                REQUIRE(rule);
                CHECK(rule->layout == layout);
                CHECK(rule->m.low == (m == 1 ? 1 : 65));
                CHECK(rule->m.high == (m == 1 ? 64 : 2147483647));
                CHECK(rule->n.low == (n == 1 ? 1 : 65));
                CHECK(rule->n.high == (n == 1 ? 64 : 2147483647));
            }
}

TEST_CASE("dppgemm-bench --variant best runs the table's choice, or the fixed rule after one warning") {
    const fs::path dir = dppgemm::test_support::work_dir();
    const fs::path table = dir / "bench.tune";
    std::ofstream(table) << "dppgemm-tuning-table 1\ntarget gfx906\nNT 1..64 * * dpp1_denorm\n";
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
