#include "options.hpp"

#include "dppgemm/progression.hpp"
#include "model.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

namespace dppgemm::bench {

namespace {

std::string progression_target_names() {
    std::string names;
    for (const std::string& target : progression_targets()) names += (names.empty() ? "" : ", ") + target;
    return names;
}

[[noreturn]] void bad(const std::string& flag, const std::string& value, const std::string& why) {
    throw UsageError("dppgemm-bench: " + flag + " " + (value.empty() ? "''" : value) + ": " + why);
}

long long to_integer(const std::string& flag, const std::string& text, long long min, long long max) {
    std::size_t used = 0;
    long long v = 0;
    try {
        v = std::stoll(text, &used);
    } catch (...) {
        bad(flag, text, "not an integer");
    }
    if (used != text.size()) bad(flag, text, "not an integer");
    if (v < min || v > max) bad(flag, text, "must be in [" + std::to_string(min) + ", " + std::to_string(max) + "]");
    return v;
}

float to_float(const std::string& flag, const std::string& text) {
    std::size_t used = 0;
    float v = 0;
    try {
        v = std::stof(text, &used);
    } catch (const std::out_of_range&) {
        bad(flag, text, "out of range for a float (largest finite: 3.40282e+38, smallest normal: 1.17549e-38)");
    } catch (...) {
        bad(flag, text, "not a number");
    }
    if (used != text.size()) bad(flag, text, "not a number");
    if (!std::isfinite(v)) bad(flag, text, "must be finite");
    return v;
}

char to_trans(const std::string& flag, const std::string& text) {
    if (text == "N" || text == "n") return 'N';
    if (text == "T" || text == "t" || text == "C" || text == "c") return 'T';
    bad(flag, text, "must be N or T");
}

std::vector<std::string> split_list(const std::string& text) {
    std::vector<std::string> items;
    std::stringstream stream(text);
    for (std::string item; std::getline(stream, item, ',');) items.push_back(item);
    return items;
}

bool ends_with(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// "dpp0,dpp1,dpp2": the rows of the variant table.
std::string variant_names() {
    std::string names;
    for (const VariantInfo& row : variant_table()) names += std::string(names.empty() ? "" : ",") + row.name;
    return names;
}

}  // namespace

// A typo such as 1:100000:+1 should fail at once, not after hours.
constexpr std::size_t kMaxSweepSizes = 1000;

std::vector<int> parse_sweep(const std::string& text) {
    const std::string flag = "--sizes";
    const auto parts = split_list(text);
    std::vector<int> sizes;
    for (const std::string& part : parts) {
        std::vector<std::string> fields;
        std::stringstream stream(part);
        for (std::string f; std::getline(stream, f, ':');) fields.push_back(f);
        if (fields.size() == 1) {
            sizes.push_back(int(to_integer(flag, fields[0], 0, INT_MAX)));
            continue;
        }
        if (fields.size() != 3 || fields[2].size() < 2 || (fields[2][0] != 'x' && fields[2][0] != '+'))
            bad(flag, part, "expected START:END:xFACTOR or START:END:+STEP");
        const long long start = to_integer(flag, fields[0], 0, INT_MAX);
        const long long end = to_integer(flag, fields[1], 0, INT_MAX);
        if (end < start) bad(flag, part, "END " + fields[1] + " is below START " + fields[0]);
        const bool multiply = fields[2][0] == 'x';
        const long long by = to_integer(flag, fields[2].substr(1), multiply ? 2 : 1, INT_MAX);
        if (multiply && start == 0) bad(flag, part, "a multiplied sweep cannot start at 0");
        for (long long s = start; s <= end; s = multiply ? s * by : s + by) {
            if (sizes.size() == kMaxSweepSizes)
                bad(flag, text, "more than " + std::to_string(kMaxSweepSizes) + " sizes");
            sizes.push_back(int(s));
        }
    }
    if (sizes.empty()) bad(flag, text, "no sizes");
    return sizes;
}

std::optional<BenchOptions> parse_options(int argc, const char* const* argv) {
    CLI::App app{"dppgemm-bench: DPP vs non-DPP SGEMM kernels side by side (rocblas-bench style flags)",
                 "dppgemm-bench"};
    std::string m = "1024", n = "1024", k = "1024", lda = "0", ldb = "0", ldc = "0";
    std::string alpha = "1", beta = "0", trans_a = "N", trans_b = "N", iterations = "5", warmup = "0";
    std::string variant = "all", arch = default_emu_target, backend = "auto", sizes, seed = "1", verify = "1";
    std::string threads = "0";
    BenchOptions o;
    CLI::Option* size_m = app.add_option("-m,--sizem", m, "rows of op(A) and C (default 1024)")->type_name("INT");
    CLI::Option* size_n = app.add_option("-n,--sizen", n, "columns of op(B) and C (default 1024)")->type_name("INT");
    CLI::Option* size_k =
        app.add_option("-k,--sizek", k, "columns of op(A), rows of op(B) (default 1024)")->type_name("INT");
    app.add_option("--lda", lda, "leading dimension of A (0: smallest legal)")->type_name("INT");
    app.add_option("--ldb", ldb, "leading dimension of B (0: smallest legal)")->type_name("INT");
    app.add_option("--ldc", ldc, "leading dimension of C (0: smallest legal)")->type_name("INT");
    app.add_option("--alpha", alpha, "alpha (default 1)")->type_name("FLOAT");
    app.add_option("--beta", beta, "beta (default 0)")->type_name("FLOAT");
    app.add_option("--transposeA", trans_a, "N or T")->type_name("N|T");
    app.add_option("--transposeB", trans_b, "N or T")->type_name("N|T");
    app.add_option("-i,--iters", iterations, "timed rounds (OpenBLAS, then each variant), medians reported (default 5)")
        ->type_name("INT");
    app.add_option("-j,--cold_iters", warmup, "warm-up runs, not timed (default 0)")->type_name("INT");
    app.add_option("--variant", variant,
                   variant_names() +
                       ", best (the library's choice for the problem: docs/tuning.md) or all (default: every variant "
                       "the target has)")
        ->type_name("LIST");
    app.add_option("--arch", arch, "emu target(s): " + model_target_names(",") + " or all")->type_name("LIST");
    app.add_option("--backend", backend, "auto, hip or emu")->type_name("NAME");
    CLI::Option* sizes_option =
        app.add_option("--sizes", sizes, "square sweep M=N=K instead of -m/-n/-k: 128:1024:x2, 256:768:+256, 128,512")
            ->type_name("SWEEP");
    app.add_option("--seed", seed, "random seed for A, B, C")->type_name("INT");
    app.add_option("--verify", verify, "1 (default): bitwise vs the same-order reference, error bound vs OpenBLAS")
        ->type_name("0|1");
    app.add_option("--csv", o.csv, "write one row per (configuration, variant) to this file")->type_name("FILE");
    app.add_option("--json", o.json, "write everything to this JSON file")->type_name("FILE");
    app.add_option(
           "--plot", o.plot,
           "Pareto chart: LDS requests and LDS cycles per step vs VALU per step, and GFLOPS (.svg or .png, gnuplot)")
        ->type_name("FILE");
    app.add_option("--threads", threads, "host threads of the emulator and OpenBLAS (0: all cores)")->type_name("INT");
    app.add_flag("--model-only", o.model_only,
                 "emu: run only the workgroups the cycle model traces (first and last): modeled figures in seconds "
                 "at any size, no C and no verification");
    app.add_option("--model-params", o.model_params,
                   "emu: cycle-model parameters to override, NAME=VALUE[,NAME=VALUE...] (emu/timing/parameters.def), "
                   "or @FILE: a parameter file (dppgemm-calibrate writes them)")
        ->type_name("LIST");
    app.add_flag(
        "--model-grid", o.model_grid,
        "emu: also model every variant over the grid of the cycle model's unknown parameters and say, per "
        "variant, how its modeled time differs from the plain kernel of its tile (dpp0, dpp0_64) over the whole grid");
    app.add_flag("--progression", o.progression,
                 "the road to the DPP kernels instead of the variants: the HIP steps from naive to double-buffered, "
                 "dpp0 and best, then the transpositions, on the workgroups the cycle model traces "
                 "(docs/progression.md); targets: " +
                     progression_target_names());
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
        std::cout << app.help();
        return std::nullopt;
    } catch (const CLI::ParseError& e) {
        throw UsageError(std::string("dppgemm-bench: ") + e.what() + " (see --help)");
    }

    if (sizes_option->count() && sizes.empty()) bad("--sizes", "''", "no sizes");
    if (!sizes.empty()) {
        for (const CLI::Option* size : {size_m, size_n, size_k})
            if (size->count()) bad("--sizes", sizes, "cannot be combined with " + size->get_name(false, true));
        for (int s : parse_sweep(sizes)) o.shapes.push_back({s, s, s});
    } else {
        o.shapes.push_back({int(to_integer("-m", m, 0, INT_MAX)), int(to_integer("-n", n, 0, INT_MAX)),
                            int(to_integer("-k", k, 0, INT_MAX))});
    }
    o.lda = int(to_integer("--lda", lda, 0, INT_MAX));
    o.ldb = int(to_integer("--ldb", ldb, 0, INT_MAX));
    o.ldc = int(to_integer("--ldc", ldc, 0, INT_MAX));
    o.alpha = to_float("--alpha", alpha);
    o.beta = to_float("--beta", beta);
    o.trans_a = to_trans("--transposeA", trans_a);
    o.trans_b = to_trans("--transposeB", trans_b);
    o.iterations = int(to_integer("-i", iterations, 1, 1000000));
    o.warmup = int(to_integer("-j", warmup, 0, 1000000));
    o.seed = std::uint64_t(to_integer("--seed", seed, 0, LLONG_MAX));
    o.threads = unsigned(to_integer("--threads", threads, 0, 4096));
    const long long v = to_integer("--verify", verify, 0, 1);
    o.verify = v == 1 && !o.model_only;
    if (!o.model_params.empty() && o.model_params[0] == '@') {
        std::ifstream file(o.model_params.substr(1));
        if (!file) bad("--model-params", o.model_params, "cannot read '" + o.model_params.substr(1) + "'");
        const std::string given = o.model_params;
        o.model_params.assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
        if (const std::string why = model_parameters_error(o.model_params); !why.empty())
            bad("--model-params", given, why);
    } else if (const std::string why = model_parameters_error(o.model_params); !why.empty()) {
        bad("--model-params", o.model_params, why);
    }

    if (variant == "all") {
        for (const VariantInfo& row : variant_table()) o.variants.push_back(row.variant);
        o.every_variant = true;
    } else {
        for (const std::string& name : split_list(variant)) {
            auto parsed = parse_variant(name);
            if (!parsed) bad("--variant", name, "must be " + variant_names() + ", best or all");
            if (std::find(o.variants.begin(), o.variants.end(), *parsed) != o.variants.end())
                bad("--variant", variant, name + " is given twice");
            o.variants.push_back(*parsed);
        }
        if (o.variants.empty()) bad("--variant", variant, "no variant");
    }
    if (arch == "all" && o.progression) {
        o.archs = progression_targets();
    } else if (arch == "all") {
        for (const GpuSpec& g : gpu_specs()) o.archs.push_back(g.target);
    } else {
        for (const std::string& name : split_list(arch)) {
            if (!gpu_spec(name)) bad("--arch", name, "must be " + model_target_names(", ") + " or all");
            if (std::find(o.archs.begin(), o.archs.end(), name) != o.archs.end())
                bad("--arch", arch, name + " is given twice");
            o.archs.push_back(name);
        }
        if (o.archs.empty()) bad("--arch", arch, "no target");
    }
    auto parsed_backend = parse_backend(backend);
    if (!parsed_backend) bad("--backend", backend, "must be auto, hip or emu");
    o.backend = *parsed_backend;
    // An empty path would otherwise read as the flag not given: no file, silently.
    for (const auto& [flag, path] : {std::pair{"--csv", &o.csv}, {"--json", &o.json}, {"--plot", &o.plot}})
        if (app.get_option(flag)->count() && path->empty()) bad(flag, "", "expected a file name");
    if (!o.plot.empty() && !ends_with(o.plot, ".svg") && !ends_with(o.plot, ".png"))
        bad("--plot", o.plot, "must end in .svg or .png");
    if (o.progression) {
        const std::vector<std::string> built = progression_targets();
        for (const std::string& target : o.archs)
            if (std::find(built.begin(), built.end(), target) == built.end())
                bad("--arch", target, "--progression runs on " + progression_target_names());
        if (o.trans_a != 'N' || o.trans_b != 'N')
            bad(o.trans_a != 'N' ? "--transposeA" : "--transposeB",
                std::string(1, o.trans_a != 'N' ? o.trans_a : o.trans_b), "--progression computes NN only");
        if (o.shapes.size() != 1) bad("--sizes", sizes, "--progression takes one size (-m, -n, -k)");
        if (o.backend == Backend::hip) bad("--backend", backend, "--progression runs on the emulator");
        return o;
    }
    // On the emulator the targets are known now: a variant one of them lacks
    // is a usage error before anything runs, not a failed row after it.
    if (o.backend == Backend::emu && !o.every_variant)
        for (const std::string& target : o.archs)
            for (Variant v : o.variants)
                if (const std::string why = variant_unavailable_reason(v, target); !why.empty())
                    bad("--variant", to_string(v), why);
    return o;
}

}  // namespace dppgemm::bench
