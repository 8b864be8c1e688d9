// The real dppgemm-bench on small problems: what it writes (JSON, CSV, chart),
// that it verifies, and that bad flags stop it with exit status 2.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include "dppgemm/dppgemm.hpp"
#include "test_toolchain.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct Outcome {
    int status = -1;
    std::string out, err;
};

fs::path scratch_dir() { return dppgemm::test_support::work_dir(); }

std::string read(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string quoted(const std::string& arg) {
    std::string q = "'";
    for (char c : arg) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

Outcome bench(const std::vector<std::string>& args) {
    const fs::path dir = scratch_dir();
    std::string command = DPPGEMM_BENCH;
    for (const std::string& arg : args) command += " " + quoted(arg);
    command += " >" + (dir / "stdout").string() + " 2>" + (dir / "stderr").string() + " </dev/null";
    Outcome o;
    o.status = dppgemm::test_support::exit_code(command);
    o.out = read(dir / "stdout");
    o.err = read(dir / "stderr");
    return o;
}

bool contains(const std::string& text, const std::string& word) { return text.find(word) != std::string::npos; }

// Every key a row of the JSON report must have (emu backend).
const std::vector<std::string> kRowFields = {"variant",
                                             "backend",
                                             "target",
                                             "kernel",
                                             "status",
                                             "runs_ms",
                                             "counters",
                                             "lds_read_requests_per_step",
                                             "lds_bytes",
                                             "multiply_add_share_of_valu",
                                             "emulation_wall_ms",
                                             "wave_instructions_per_second",
                                             "emulation_over_openblas",
                                             "modeled",
                                             "verification",
                                             "valu_per_step",
                                             "lds_cycles_per_step",
                                             "lds_share_of_valu_cycles",
                                             "expected_lds_read_requests_per_step",
                                             "idea"};
// Every row of counters.def, and their sum.
std::vector<std::string> counter_fields() {
    std::vector<std::string> names = {"wave_instructions"};
    for (const dppgemm::CounterInfo& info : dppgemm::counter_table) names.push_back(info.name);
    return names;
}
const std::vector<std::string> kModeledFields = {"is_modeled", "label", "gpu", "gpu_ms", "gflops", "bound"};

}  // namespace

TEST_CASE("every variant gfx906 has on 256x256x64: JSON, CSV and chart") {
    const fs::path dir = scratch_dir();
    const fs::path json = dir / "r.json", csv = dir / "r.csv", svg = dir / "r.svg";
    const Outcome o = bench(
        {"-m", "256", "-n", "256",       "-k", "64",     "--variant",   "all",   "--backend",  "emu",    "-i",
         "3",  "-j",  "2",  "--threads", "2",  "--json", json.string(), "--csv", csv.string(), "--plot", svg.string()});
    CAPTURE(o.out, o.err);
    REQUIRE(o.status == 0);
    CHECK(contains(o.out, "modeled GPU time, ms"));
    CHECK(contains(o.out, "modeled GFLOPS"));
    CHECK(contains(o.out, "OpenBLAS sgemm on this machine"));

    const nlohmann::json report = nlohmann::json::parse(read(json));
    CHECK(report["options"]["iterations"] == 3);
    CHECK(report["options"]["warmup"] == 2);
    CHECK(report["options"]["threads"] == 2);
    REQUIRE(report["configs"].size() == 1);
    const nlohmann::json& config = report["configs"][0];
    CHECK(config["m"] == 256);
    CHECK(config["k"] == 64);
    CHECK(config["steps"] == 2 * 2 * 8);
    CHECK(config["openblas_ms"].get<double>() > 0);
    const nlohmann::json& rows = config["variants"];
    // --variant all: every row gfx906 has, in table order.
    const std::vector<dppgemm::Variant> available = dppgemm::available_variants("gfx906");
    REQUIRE(rows.size() == available.size());
    for (std::size_t v = 0; v < rows.size(); ++v) {
        const nlohmann::json& row = rows[v];
        const dppgemm::VariantInfo& info = *dppgemm::variant_info(available[v]);
        // per 128x128x8 of work: 4 workgroup steps of a 64x64 kernel
        const std::uint64_t tiles = (128 / info.macro_tile) * (128 / info.macro_tile);
        const std::uint64_t per_step[] = {info.lds_read_requests_per_step * tiles};
        CAPTURE(row.dump(1));
        CHECK(row["variant"] == info.name);
        for (const std::string& key : kRowFields) CHECK(row.contains(key));
        for (const std::string& key : counter_fields()) CHECK(row["counters"].contains(key));
        for (const std::string& key : kModeledFields) CHECK(row["modeled"].contains(key));
        CHECK(row["lds_read_requests_per_step"] == per_step[0]);
        CHECK(row["expected_lds_read_requests_per_step"] == per_step[0]);
        CHECK(row["idea"] == info.idea);
        CHECK(row["counters"]["lds_read_requests"] == per_step[0] * 32);
        // LDS busy cycles per step: bytes through the 128 B/clk port plus conflict cycles.
        const nlohmann::json& c = row["counters"];
        const double lds_cycles = (c["lds_read_bytes"].get<double>() + c["lds_write_bytes"].get<double>()) / 128 / 32 +
                                  c["lds_bank_conflict_cycles"].get<double>() / 32;
        CHECK(row["lds_cycles_per_step"].get<double>() == Approx(lds_cycles));
        CHECK(row["valu_per_step"].get<double>() == Approx(c["valu"].get<double>() / 32));
        CHECK(row["lds_share_of_valu_cycles"].get<double>() == Approx(lds_cycles / (c["valu"].get<double>() / 32)));
        CHECK(row["verification"]["passed"] == true);
        CHECK(row["verification"]["bitwise_same_order"] == true);
        CHECK(row["runs_ms"].size() == 3);  // -i 3; the 2 warm-ups are not timed
        // The cycle model rides on one untimed run of its own (the timed runs
        // emulate alone): its figures are there, and that run's wall time.
        CHECK(row["model_run_ms"].get<double>() > 0);
        CHECK(row["modeled"]["is_modeled"] == true);
        CHECK(contains(row["modeled"]["label"].get<std::string>(), "not measured"));
        CHECK(row["modeled"]["gpu_ms"].get<double>() > 0);
        // The cycle model: its breakdown sums to its cycles (within 0.5 %),
        // one component per name of the API, and the roofline bounds it below.
        const nlohmann::json& m = row["modeled"];
        double components = 0;
        for (const std::string& name : dppgemm::modeled_time_components())
            components += m["components"][name].get<double>();
        CHECK(m["components"].size() == dppgemm::modeled_time_components().size());
        CHECK(std::abs(components - m["cycles"].get<double>()) <= 0.005 * m["cycles"].get<double>());
        CHECK(m["roofline"]["gpu_ms"].get<double>() <= m["gpu_ms"].get<double>());
        CHECK(!row.contains("measured"));  // no GPU: nothing may look measured
        // 64 accumulators per workitem, one multiply-add each per k, 16 waves
        CHECK(row["counters"]["valu_multiply_add"] == 64 * 64 * 16);
        // over 90% macs, less the share of the row's extra VALU (dpp3's A movs);
        // 4x4 micro tiles: 16 macs per k against the same per-step bookkeeping
        // and a 16-accumulator epilogue per 64 k, over 80%; 2x2: 4 macs per k
        // (32 of a wave's 38 loop VALU per step in NN, with the set-up and a
        // 4-accumulator epilogue per 64 k), over 70%
        const double mac_share = info.micro_tile == 8 ? 0.9 : info.micro_tile == 4 ? 0.8 : 0.7;
        CHECK(row["multiply_add_share_of_valu"].get<double>() >
              mac_share * 2048.0 / (2048.0 + info.extra_valu_per_step));
        CHECK(row["multiply_add_share_of_valu"].get<double>() ==
              Approx(c["valu_multiply_add"].get<double>() / c["valu"].get<double>()));
    }
    // dpp0: 2 A and 2 B float4 per lane and k read, A and B tiles written once: 1024 + 64 clocks, no conflicts.
    CHECK(rows[0]["lds_cycles_per_step"] == 1088.0);
    const std::size_t lds_line = o.out.find("LDS cycles / step (bytes/128+conflicts)");
    REQUIRE(lds_line != std::string::npos);
    CHECK(o.out.substr(lds_line, o.out.find('\n', lds_line) - lds_line).find(" 1088.0 ") != std::string::npos);
    CHECK(contains(o.out, "LDS cycles / VALU cycles"));
    CHECK(rows[0]["counters"]["valu_dpp"] == 0);
    CHECK(rows[1]["counters"]["valu_dpp"] == 64 * 64 * 16);  // every mac of dpp1 and dpp2 takes b through DPP
    CHECK(rows[2]["counters"]["valu_dpp"] == 64 * 64 * 16);

    std::istringstream lines(read(csv));
    std::string header, line;
    std::getline(lines, header);
    CHECK(header.rfind("transA,transB,M,N,K,alpha,lda,ldb,beta,ldc,", 0) == 0);
    CHECK(contains(header, "modeled_gpu_ms"));
    CHECK(contains(header, ",multiply_add_share_of_valu,"));
    std::vector<std::string> body;
    while (std::getline(lines, line)) body.push_back(line);
    REQUIRE(body.size() == rows.size());
    const auto cells = [](const std::string& text) {
        std::vector<std::string> out;
        std::istringstream in(text);
        for (std::string cell; std::getline(in, cell, ',');) out.push_back(cell);
        return out;
    };
    // Every counter has its column, with the JSON's value; and its line in the table, by name.
    const std::vector<std::string> columns = cells(header);
    for (const std::string& name : counter_fields()) {
        INFO(name);
        const auto column = std::find(columns.begin(), columns.end(), name);
        REQUIRE(column != columns.end());
        for (std::size_t v = 0; v < rows.size(); ++v)
            CHECK(cells(body[v]).at(std::size_t(column - columns.begin())) == rows[v]["counters"][name].dump());
        CHECK(contains(o.out, "\n" + name + " ") != contains(o.out, "\n  " + name + " "));
    }
    CHECK(body[1].rfind("N,N,256,256,64,1,256,64,0,256,gfx906,dpp1,emu,success,6144,", 0) == 0);
    CHECK(contains(body[2], ",passed"));

    const std::string chart = read(svg);
    CHECK(contains(chart, "<svg"));
    CHECK(contains(chart, "GFLOPS (modeled, not measured)"));
    CHECK(contains(chart, "gfx906 dpp2"));
    // The Pareto panels: one labelled point per variant (and the targets it stands for).
    CHECK(contains(chart, "LDS read requests per step"));
    CHECK(contains(chart, "LDS busy cycles per step"));
    CHECK(contains(chart, "VALU instructions per step"));
    CHECK(contains(chart, "dpp0, dpp0_denorm (gfx906)"));  // twins at one place share a label
    fs::remove_all(dir);
}

TEST_CASE("a sweep over every emulated target, PNG chart") {
    const fs::path dir = scratch_dir();
    const fs::path json = dir / "s.json", png = dir / "s.png";
    const Outcome o =
        bench({"--sizes", "64:128:x2", "--arch", "all", "--variant", "dpp0,dpp2", "--backend", "emu", "--transposeA",
               "T", "--transposeB", "T", "--beta", "0.5", "--json", json.string(), "--plot", png.string()});
    CAPTURE(o.out, o.err);
    REQUIRE(o.status == 0);
    const nlohmann::json report = nlohmann::json::parse(read(json));
    REQUIRE(report["configs"].size() == 2);
    CHECK(report["configs"][1]["k"] == 128);
    std::set<std::string> targets;
    for (const auto& row : report["configs"][1]["variants"]) {
        targets.insert(row["target"].get<std::string>());
        CHECK(row["verification"]["passed"] == true);
    }
    CHECK(targets == std::set<std::string>{"gfx900", "gfx906", "gfx908", "gfx90a", "gfx942"});
    const std::string image = read(png);
    CHECK(image.substr(1, 3) == "PNG");
    fs::remove_all(dir);
}

TEST_CASE("the hip backend without a GPU falls back to the emulator and says so") {
    const fs::path dir = scratch_dir();
    const Outcome o = bench({"-m", "64", "-n", "64", "-k", "8", "--variant", "dpp1", "--backend", "hip", "--json",
                             (dir / "h.json").string()});
    CAPTURE(o.out, o.err);
    REQUIRE(o.status == 0);
    const nlohmann::json row = nlohmann::json::parse(read(dir / "h.json"))["configs"][0]["variants"][0];
    if (row["backend"] == "hip") {  // a machine with an AMD GPU: measured, not modeled
        CHECK(row["measured"]["gpu_ms"].get<double>() > 0);
        CHECK(!row.contains("modeled"));
    } else {
        CHECK(row["backend"] == "emu");
        CHECK(contains(o.err, "emulator"));
        CHECK(row["modeled"]["is_modeled"] == true);
    }
    fs::remove_all(dir);
}

TEST_CASE("bad flags stop the binary with exit status 2, naming the flag and the value") {
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"-m", "-1"}, "-m -1"},
        {{"--variant", "dpp9"}, "--variant dpp9"},
        {{"--arch", "gfx1030"}, "--arch gfx1030"},
        {{"--backend", "cuda"}, "--backend cuda"},
        {{"--sizes", "64:32:x2"}, "--sizes 64:32:x2"},
        {{"--verify", "yes"}, "--verify yes"},
        {{"--plot", "chart.jpg"}, "--plot chart.jpg"},
        {{"-m", "64", "--lda", "10"}, "--lda"},  // legal integer, illegal for BLAS (lda < M)
        {{"--csv", "/nonexistent-dir/x.csv"}, "--csv /nonexistent-dir/x.csv"},
        {{"--bogus"}, "--bogus"},
    };
    for (const auto& [args, words] : cases) {
        const Outcome o = bench(args);
        CAPTURE(args, o.err);
        CHECK(o.status == 2);
        CHECK(contains(o.err, words));
        CHECK(o.out.empty());  // rejected before anything ran
    }
}

// An output file that opens but cannot be written (a full disk) fails the run
// naming it, after the run: the tables on stdout are still there.
TEST_CASE("an output file that cannot be written fails the run with exit status 1, naming it") {
    for (const char* flag : {"--csv", "--json"}) {
        const Outcome o =
            bench({"-m", "16", "-n", "16", "-k", "8", "--backend", "emu", "--variant", "dpp0", flag, "/dev/full"});
        CAPTURE(flag, o.err);
        CHECK(o.status == 1);
        CHECK(contains(o.err, std::string("dppgemm-bench: ") + flag + " /dev/full: writing failed"));
        CHECK(contains(o.out, "dpp0"));
    }
}

// Sizes the machine cannot hold are refused before anything is allocated,
// with the estimate and the machine's figure.
TEST_CASE("a run larger than the machine's memory is refused with exit status 2 and the figures") {
    const std::vector<std::vector<std::string>> cases = {
        {"-m", "100000", "-n", "100000", "-k", "100000"},
        {"--sizes", "2147483647"},
        {"--sizes", "1:2147483647:x2"},
        {"-m", "64", "-n", "64", "-k", "64", "--lda", "2147483647"},
    };
    for (const auto& args : cases) {
        const Outcome o = bench(args);
        CAPTURE(args, o.err);
        CHECK(o.status == 2);
        CHECK(contains(o.err, "dppgemm-bench: the run needs about "));
        CHECK(contains(o.err, " GiB this machine has available (MemAvailable)"));
        CHECK(o.out.empty());
    }
}

TEST_CASE("the cycle model alone (--model-only) over its parameter grid (--model-grid), nothing verified") {
    const fs::path json = scratch_dir() / "grid.json";
    const Outcome o = bench({"-m", "256", "-n", "256", "-k", "64", "--variant", "dpp0,dpp1,dpp0_denorm", "--backend",
                             "emu", "--threads", "2", "--model-only", "--model-grid", "--json", json.string()});
    CAPTURE(o.out, o.err);
    REQUIRE(o.status == 0);
    CHECK(contains(o.out,
                   "gfx906: modeled time vs the plain kernel of the same tile over 32 sets of the cycle model's "
                   "unknown parameters"));
    CHECK(contains(o.out, "\n  dpp1            vs dpp0     "));
    // dpp0_denorm issues what dpp0 does (v_fmac_f32 for v_mac_f32): the same time at every point.
    CHECK(contains(o.out, "\n  dpp0_denorm     vs dpp0       +0.00% ..   +0.00%  the same on the whole grid\n"));
    CHECK(!contains(o.out, "modeled lower bound (roofline)"));  // partial counters: no roofline
    const nlohmann::json report = nlohmann::json::parse(read(json));
    for (const nlohmann::json& row : report["configs"][0]["variants"]) {
        CHECK(row["verification"]["enabled"] == false);
        CHECK(row["modeled"]["grid"].size() == 32);
        CHECK(row["modeled"]["gpu_ms"].get<double>() > 0);
        CHECK(!row["modeled"].contains("roofline"));
    }
}
