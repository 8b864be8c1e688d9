// dppgemm-bench: the dppgemm variants side by side on one SGEMM problem (or a
// sweep): LDS requests, instruction mix, time, verification. Uses only the
// public API (include/dppgemm) and OpenBLAS.
#include "dppgemm/dppgemm.hpp"
#include "dppgemm/reference.hpp"
#include "model.hpp"
#include "openblas.hpp"
#include "options.hpp"
#include "problem.hpp"
#include "progression.hpp"
#include "report.hpp"
#include "verify.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>

namespace dppgemm::bench {
namespace {

using Clock = std::chrono::steady_clock;

// Which flag a BLAS argument position came from, for usage errors.
const char* flag_of_position(int position) {
    switch (position) {
    case 1: return "--transposeA";
    case 2: return "--transposeB";
    case 3: return "-m";
    case 4: return "-n";
    case 5: return "-k";
    case 8: return "--lda";
    case 10: return "--ldb";
    case 13: return "--ldc";
    }
    return "an argument";
}

// Progress on stderr for runs longer than a second, only on a terminal.
class ProgressBar {
public:
    explicit ProgressBar(std::string label) : label_(std::move(label)), start_(Clock::now()) {}
    ~ProgressBar() {
        if (shown_) std::fprintf(stderr, "\r%*s\r", 78, "");
    }
    void update(std::uint64_t done, std::uint64_t total) {
        if (!isatty(STDERR_FILENO) || total == 0) return;
        const double seconds = std::chrono::duration<double>(Clock::now() - start_).count();
        if (seconds < 1.0) return;
        const int width = 30, filled = int(width * done / total);
        std::fprintf(stderr, "\r%-28s [%.*s%*s] %3d%% %6.1fs", label_.c_str(), filled, "##############################",
                     width - filled, "", int(100 * done / total), seconds);
        std::fflush(stderr);
        shown_ = true;
    }

private:
    std::string label_;
    Clock::time_point start_;
    bool shown_ = false;
};

// Output files and gnuplot are checked before the run, not after minutes of it.
void check_outputs(const BenchOptions& o) {
    const std::pair<const char*, const std::string*> files[] = {
        {"--csv", &o.csv}, {"--json", &o.json}, {"--plot", &o.plot}};
    for (const auto& [flag, path] : files)
        if (!path->empty() && !std::ofstream(*path, std::ios::app))
            throw UsageError(std::string("dppgemm-bench: ") + flag + " " + *path + ": cannot write this file");
    if (!o.plot.empty() && std::system("gnuplot --version >/dev/null 2>&1") != 0)
        throw UsageError("dppgemm-bench: --plot " + o.plot +
                         ": gnuplot is not installed (apt-get install gnuplot-nox)");
}

Problem checked_problem(const BenchOptions& o, const Shape& shape) {
    const Problem p = make_problem(o, shape);
    const Result checked = check_sgemm_arguments(p.ta, p.tb, p.m, p.n, p.k, p.alpha, p.lda, p.ldb, p.beta, p.ldc);
    if (checked.status == Status::invalid_argument)
        throw UsageError(std::string("dppgemm-bench: ") + flag_of_position(checked.invalid_argument) + ": " +
                         checked.message);
    return p;
}

// -j untimed runs, then -i timed ones; C of the last run stays in `c`.
Row run_variant(const BenchOptions& o, const Problem& p, Variant variant, const std::string& arch,
                std::vector<float>& c) {
    Row row;
    row.variant = to_string(variant);
    // best: the row the library picks for this problem (tuning table, else
    // the fixed rule), shown under its own name.
    if (variant == Variant::best)
        if (const auto chosen = best_variant(arch, p.ta, p.tb, p.m, p.n, p.k)) {
            row.variant = to_string(*chosen);
            const Variant fixed = *best_variant(arch);
            std::cerr << "dppgemm-bench: --variant best runs " << row.variant << " on " << arch << " for this problem"
                      << (*chosen == fixed ? std::string(" (the fixed rule's kernel too)")
                                           : " (tuning table; the fixed rule: " + std::string(to_string(fixed)) + ")")
                      << "\n";
        }
    Options options;
    options.variant = variant;
    options.backend = o.backend;
    options.emu_target = arch;
    options.threads = o.threads;
    options.model = true;
    options.model_only = o.model_only;
    options.model_parameters = o.model_params;
    if (o.model_grid) options.model_parameter_sets = model_grid();
    ProgressBar bar(arch + " " + row.variant);
    options.progress = [&bar](std::uint64_t done, std::uint64_t total) { bar.update(done, total); };
    // The cycle model's traces and replay cost as much as a quarter of a
    // launch: they get a run of their own, untimed, before the warm-up runs,
    // so the timed rounds measure the emulation alone. --model-only runs are
    // the model and nothing else: each one is timed as it is.
    const bool separate_model_run = !o.model_only;
    std::optional<ModeledTime> modeled;
    std::vector<ModeledTime> modeled_sets;
    for (int run = separate_model_run ? -1 : 0; run < o.warmup + o.iterations; ++run) {
        options.model = run < 0 || !separate_model_run;
        // The round's OpenBLAS run, right before dppgemm's: the ratio of the
        // two is what the table reports (emulation_over_openblas).
        double openblas_ms = 0;
        if (run >= o.warmup) openblas_sgemm(p, 0, 1, openblas_ms);
        c = p.c0;
        const auto start = Clock::now();
        row.result = sgemm(p.ta, p.tb, p.m, p.n, p.k, p.alpha, p.a.data(), p.lda, p.b.data(), p.ldb, p.beta, c.data(),
                           p.ldc, options);
        const double wall = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
        if (!row.result) break;
        if (run < 0) {
            modeled = row.result.modeled;
            modeled_sets = row.result.modeled_sets;
            row.model_run_ms = wall;
        }
        if (run >= o.warmup) row.ms.push_back(row.on_gpu() ? row.result.milliseconds : wall);
        if (run >= o.warmup) row.openblas_ms.push_back(openblas_ms);
    }
    if (separate_model_run && row.result) {
        row.result.modeled = modeled;
        row.result.modeled_sets = modeled_sets;
    }
    row.target = row.result.target.empty() ? arch : row.result.target;
    if (row.result && row.result.counters && !o.model_only)
        if (const auto gpu = gpu_spec(row.target))
            row.modeled = model_launch(*gpu, *row.result.counters, p.flops(),
                                       row.result.modeled ? int(row.result.modeled->resident_workgroups) : 0);
    return row;
}

// What the variants are checked against, computed once per configuration (and MAC flavour).
class References {
public:
    References(const Problem& p, std::vector<float> c_openblas) : p_(p), c_openblas_(std::move(c_openblas)) {}
    Verification check(const std::vector<float>& c, MacKind mac) {
        if (scales_.empty()) scales_ = error_scales(p_);
        auto [entry, fresh] = same_order_.try_emplace(mac, p_.c0);
        if (fresh)
            reference_sgemm(entry->first, p_.ta, p_.tb, p_.m, p_.n, p_.k, p_.alpha, p_.a.data(), p_.lda, p_.b.data(),
                            p_.ldb, p_.beta, entry->second.data(), p_.ldc);
        return verify_result(p_, c, entry->second, c_openblas_, scales_);
    }

private:
    const Problem& p_;
    std::vector<float> c_openblas_;
    std::vector<double> scales_;
    std::map<MacKind, std::vector<float>> same_order_;
};

ConfigReport run_config(const BenchOptions& o, const Shape& shape, std::uint64_t seed) {
    ConfigReport report{checked_problem(o, shape), 0, {}};
    Problem& p = report.problem;
    fill_random(p, seed);
    // At least one untimed OpenBLAS call: the first one starts its thread pool.
    // --model-only computes no C: nothing to compare, no OpenBLAS run.
    References references(p, o.model_only ? std::vector<float>()
                                          : openblas_sgemm(p, std::max(o.warmup, 1), o.iterations, report.openblas_ms));
    std::vector<float> c;
    for (const std::string& arch : o.archs) {
        for (Variant variant : o.variants) {
            Row row = run_variant(o, p, variant, arch, c);
            // --variant all: a row the target does not have is left out, not failed.
            if (o.every_variant && row.result.status == Status::unsupported &&
                !variant_unavailable_reason(variant, row.target).empty())
                continue;
            if (row.result && o.verify) row.check = references.check(c, kernel_mac_kind(variant, row.target));
            report.rows.push_back(std::move(row));
        }
        if (report.rows.back().on_gpu()) break;  // --arch picks emulated targets; a real GPU is one target
    }
    return report;
}

// A file that could be opened but not written (a full disk, /dev/full) fails
// the run instead of leaving a truncated file behind in silence.
bool written(std::ofstream& out, const char* flag, const std::string& path) {
    out.close();
    if (out) return true;
    std::cerr << "dppgemm-bench: " << flag << " " << path << ": writing failed (" << std::strerror(errno) << ")\n";
    return false;
}

bool write_outputs(const BenchOptions& o, const std::vector<ConfigReport>& reports) {
    bool ok = true;
    if (!o.csv.empty()) {
        std::ofstream out(o.csv);
        write_csv(out, reports);
        ok &= written(out, "--csv", o.csv);
    }
    if (!o.json.empty()) {
        std::ofstream out(o.json);
        out << report_json(o, reports).dump(2) << "\n";
        ok &= written(out, "--json", o.json);
    }
    if (o.plot.empty()) return ok;
    const std::string script = plot_script(o.plot, reports);
    FILE* gnuplot = popen("gnuplot", "w");
    if (gnuplot) std::fwrite(script.data(), 1, script.size(), gnuplot);
    if (!gnuplot || pclose(gnuplot) != 0) {
        std::cerr << "dppgemm-bench: --plot " << o.plot << ": gnuplot failed\n";
        return false;
    }
    return ok;
}

std::string gibibytes(double bytes) {
    char text[64];
    std::snprintf(text, sizeof text, "%.1f GiB", bytes / double(1ull << 30));
    return text;
}

// The whole run's memory against the machine's, before anything is
// allocated: a sweep keeps every configuration's A, B and C for the report,
// and the largest one's working set comes on top.
void check_memory(const BenchOptions& o) {
    double kept = 0, during = 0;
    const Shape* largest = nullptr;
    for (const Shape& shape : o.shapes) {
        const MemoryNeed need = memory_need(make_problem(o, shape));
        kept += need.kept;
        if (need.during >= during) during = need.during, largest = &shape;
    }
    const std::optional<std::uint64_t> available = available_host_memory();
    if (!available || kept + during <= double(*available)) return;
    throw UsageError("dppgemm-bench: the run needs about " + gibibytes(kept + during) +
                     " of memory (A, B and C of every configuration, and for the largest, " +
                     std::to_string(largest->m) + "x" + std::to_string(largest->n) + "x" + std::to_string(largest->k) +
                     ", the emulator's copies and the reference results), more than the " +
                     gibibytes(double(*available)) + " this machine has available (MemAvailable); choose smaller " +
                     "sizes or leading dimensions");
}

// --progression: one table per target, its own JSON, CSV and chart.
int run_progression_table(const BenchOptions& o) {
    const ProgressionReport report = run_progression(o);
    print_progression(std::cout, report);
    bool passed = report.passed();
    for (const TargetProgression& t : report.targets)
        for (const auto* rows : {&t.sgemm, &t.transpose})
            for (const StepRow& row : *rows)
                if (row.result && !row.check.passed())
                    std::cerr << "dppgemm-bench: verification failed: " << row.step << " on " << t.target << ": "
                              << (row.check.first_mismatch.empty() ? "nothing checked" : row.check.first_mismatch)
                              << "\n";
    if (!o.csv.empty()) {
        std::ofstream out(o.csv);
        write_progression_csv(out, report);
        passed &= written(out, "--csv", o.csv);
    }
    if (!o.json.empty()) {
        std::ofstream out(o.json);
        out << progression_json(report).dump(2) << "\n";
        passed &= written(out, "--json", o.json);
    }
    if (!o.plot.empty()) {
        const std::string script = progression_plot_script(o.plot, report);
        FILE* gnuplot = popen("gnuplot", "w");
        if (gnuplot) std::fwrite(script.data(), 1, script.size(), gnuplot);
        if (!gnuplot || pclose(gnuplot) != 0) {
            std::cerr << "dppgemm-bench: --plot " << o.plot << ": gnuplot failed\n";
            passed = false;
        }
    }
    return passed ? 0 : 1;
}

int run(const BenchOptions& o) {
    check_outputs(o);
    if (o.progression) {
        check_memory(o);
        return run_progression_table(o);
    }
    if (o.threads) openblas().set_num_threads(int(o.threads));
    for (const Shape& shape : o.shapes) checked_problem(o, shape);  // every bad size before the first run
    check_memory(o);
    std::vector<ConfigReport> reports;
    bool passed = true;
    std::uint64_t seed = o.seed;
    for (const Shape& shape : o.shapes) {
        reports.push_back(run_config(o, shape, seed++));
        print_table(std::cout, reports.back());
        if (o.model_grid) print_model_grid(std::cout, reports.back());
        std::cout.flush();
        for (const Row& row : reports.back().rows) {
            if (!row.result)
                std::cerr << "dppgemm-bench: " << row.variant << " on " << row.target
                          << " failed: " << row.result.message << "\n";
            const std::string why = failure_message(row.variant, row.target, row.check);
            if (!why.empty()) std::cerr << "dppgemm-bench: verification failed: " << why << "\n";
            passed &= row.result && row.check.passed();
        }
    }
    passed &= write_outputs(o, reports);
    return passed ? 0 : 1;
}

}  // namespace
}  // namespace dppgemm::bench

int main(int argc, char** argv) {
    using namespace dppgemm::bench;
    try {
        auto options = parse_options(argc, argv);
        if (!options) return 0;
        return run(*options);
    } catch (const UsageError& e) {
        std::cerr << e.what() << "\n";
        return 2;
    } catch (const std::bad_alloc&) {  // check_memory's estimate was not enough after all
        std::cerr << "dppgemm-bench: out of host memory\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "dppgemm-bench: " << e.what() << "\n";
        return 2;
    }
}
