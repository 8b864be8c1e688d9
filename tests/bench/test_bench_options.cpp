// dppgemm-bench flags: good ones parse to the right values, every bad one is
// rejected with a message naming the flag and the value.
#include <catch2/catch.hpp>

#include "model.hpp"
#include "options.hpp"

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

using namespace dppgemm;
using namespace dppgemm::bench;

namespace {

std::optional<BenchOptions> parse(std::vector<std::string> args) {
    args.insert(args.begin(), "dppgemm-bench");
    std::vector<const char*> argv;
    for (const auto& a : args) argv.push_back(a.c_str());
    return parse_options(int(argv.size()), argv.data());
}

}  // namespace

TEST_CASE("rocblas-bench style flags parse to their values") {
    auto o = parse({"-m",           "300",       "-n",           "200",
                    "-k",           "17",        "--lda",        "301",
                    "--ldb",        "40",        "--ldc",        "305",
                    "--alpha",      "0.5",       "--beta",       "-1",
                    "--transposeA", "T",         "--transposeB", "N",
                    "-i",           "3",         "-j",           "2",
                    "--variant",    "dpp2,dpp0", "--arch",       "gfx90a,gfx942",
                    "--backend",    "emu",       "--seed",       "7",
                    "--verify",     "0",         "--threads",    "2",
                    "--plot",       "x.svg"});
    REQUIRE(o);
    REQUIRE(o->shapes.size() == 1);
    CHECK(o->shapes[0].m == 300);
    CHECK(o->shapes[0].n == 200);
    CHECK(o->shapes[0].k == 17);
    CHECK(o->lda == 301);
    CHECK(o->ldb == 40);
    CHECK(o->ldc == 305);
    CHECK(o->alpha == 0.5f);
    CHECK(o->beta == -1.0f);
    CHECK(o->trans_a == 'T');
    CHECK(o->trans_b == 'N');
    CHECK(o->iterations == 3);
    CHECK(o->warmup == 2);
    CHECK(o->variants == std::vector<Variant>{Variant::dpp2, Variant::dpp0});
    CHECK(o->archs == std::vector<std::string>{"gfx90a", "gfx942"});
    CHECK(o->backend == Backend::emu);
    CHECK(o->seed == 7);
    CHECK(!o->verify);
    CHECK(o->threads == 2);

    auto all = parse({"--variant", "all", "--arch", "all"});
    REQUIRE(all);
    CHECK(all->variants.size() == dppgemm::variant_table().size());
    CHECK(all->every_variant);
    CHECK(all->archs.size() == gpu_specs().size());
}

TEST_CASE("the progression runs on the targets its steps are built for") {
    const auto o = parse({"--progression", "--arch", "all", "-m", "256"});
    REQUIRE(o);
    CHECK(o->progression);
    CHECK(o->archs == std::vector<std::string>{"gfx906", "gfx90a"});
    CHECK(o->shapes.size() == 1);
    CHECK_FALSE(parse({"-m", "256"})->progression);
}

TEST_CASE("size sweeps") {
    CHECK(parse_sweep("128:1024:x2") == std::vector<int>{128, 256, 512, 1024});
    CHECK(parse_sweep("100:400:+150") == std::vector<int>{100, 250, 400});
    CHECK(parse_sweep("64,1,0") == std::vector<int>{64, 1, 0});
    auto o = parse({"--sizes", "128:512:x2"});
    REQUIRE(o);
    REQUIRE(o->shapes.size() == 3);
    CHECK(o->shapes[2].m == 512);
    CHECK(o->shapes[2].n == 512);
    CHECK(o->shapes[2].k == 512);
}

TEST_CASE("every bad flag value is rejected naming the flag and the value") {
    const std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> cases = {
        {{"-m", "-3"}, {"-m", "-3"}},
        {{"-n", "abc"}, {"-n", "abc"}},
        {{"-k", "1.5"}, {"-k", "1.5"}},
        {{"--lda", "-1"}, {"--lda", "-1"}},
        {{"--ldb", "x"}, {"--ldb", "x"}},
        {{"--ldc", "9999999999999"}, {"--ldc", "9999999999999"}},
        {{"--alpha", "one"}, {"--alpha", "one"}},
        {{"--beta", "2x"}, {"--beta", "2x"}},
        {{"--transposeA", "X"}, {"--transposeA", "X"}},
        {{"--transposeB", "conj"}, {"--transposeB", "conj"}},
        {{"-i", "0"}, {"-i", "0"}},
        {{"-j", "-1"}, {"-j", "-1"}},
        {{"--variant", "dpp9"}, {"--variant", "dpp9"}},
        {{"--variant", "best,best"}, {"--variant", "best is given twice"}},
        {{"--arch", "gfx1100"}, {"--arch", "gfx1100"}},
        {{"--backend", "cuda"}, {"--backend", "cuda"}},
        {{"--sizes", "128:64:x2"}, {"--sizes", "128:64:x2"}},
        {{"--sizes", "128:1024:y2"}, {"--sizes", "128:1024:y2"}},
        {{"--sizes", "0:1024:x2"}, {"--sizes", "0:1024:x2"}},
        {{"--seed", "-5"}, {"--seed", "-5"}},
        {{"--verify", "2"}, {"--verify", "2"}},
        {{"--plot", "chart.pdf"}, {"--plot", "chart.pdf"}},
        {{"--threads", "many"}, {"--threads", "many"}},
        {{"--model-params", "lds_speed=1"}, {"--model-params", "lds_speed=1", "unknown model parameter 'lds_speed'"}},
        {{"--model-params", "lds_latency=fast"}, {"--model-params", "'fast' is not a number"}},
        {{"--model-params", "lds_latency=-5"}, {"--model-params", "'-5' is not a finite number >= 0"}},
        {{"--model-params", "@/nonexistent/x.params"}, {"--model-params", "cannot read '/nonexistent/x.params'"}},
        {{"--no-such-flag", "1"}, {"--no-such-flag"}},
        {{"--alpha", "nan"}, {"--alpha", "nan"}},
        {{"--beta", "inf"}, {"--beta", "inf"}},
        {{"--sizes", "1:100000:+1"}, {"--sizes", "1:100000:+1"}},
        {{"--sizes", "128:512:x2", "-k", "64"}, {"--sizes", "128:512:x2", "-k"}},
        {{"--arch", ""}, {"--arch"}},
        {{"--variant", "dpp0,,dpp1"}, {"--variant"}},
        {{"--sizes", ""}, {"--sizes", "no sizes"}},
        {{"--progression", "--arch", "gfx942"}, {"--arch", "gfx942", "--progression runs on gfx906, gfx90a"}},
        {{"--progression", "--transposeA", "T"}, {"--transposeA", "T", "--progression computes NN only"}},
        {{"--progression", "--sizes", "128,256"}, {"--sizes", "128,256", "--progression takes one size"}},
        {{"--alpha", "1e39"}, {"--alpha", "1e39", "out of range for a float"}},
        {{"--beta", "-1e39"}, {"--beta", "-1e39", "out of range for a float"}},
        {{"--json", ""}, {"--json ''", "expected a file name"}},
        {{"--csv", ""}, {"--csv ''", "expected a file name"}},
        {{"--variant", "dpp1,dpp0,dpp1"}, {"--variant dpp1,dpp0,dpp1", "dpp1 is given twice"}},
        {{"--arch", "gfx906,gfx90a,gfx906"}, {"--arch", "gfx906 is given twice"}},
        {{"--backend", "emu", "--variant", "bcast", "--arch", "gfx90a,gfx906"},
         {"--variant bcast: bcast is not available on gfx906"}},
    };
    for (const auto& [args, expected_words] : cases) {
        CAPTURE(args);
        try {
            parse(args);
            FAIL("accepted");
        } catch (const UsageError& e) {
            const std::string message = e.what();
            for (const std::string& word : expected_words) CHECK(message.find(word) != std::string::npos);
        }
    }
}

TEST_CASE("a parameter file given as --model-params @FILE is read") {
    const std::string path = "test_bench_options_model.params";
    {
        std::ofstream file(path);
        file << "# calibrated\nlds_latency=77\nvmem_latency=300\n";
    }
    const auto o = parse({"--model-params", "@" + path});
    REQUIRE(o);
    CHECK(o->model_params == "# calibrated\nlds_latency=77\nvmem_latency=300\n");
    {
        std::ofstream file(path);
        file << "lds_latency=77\nlds_speed=2\n";
    }
    try {
        parse({"--model-params", "@" + path});
        FAIL("accepted");
    } catch (const UsageError& e) {
        CHECK(std::string(e.what()).find("--model-params @" + path) != std::string::npos);
        CHECK(std::string(e.what()).find("unknown model parameter 'lds_speed'") != std::string::npos);
    }
    std::remove(path.c_str());
}
