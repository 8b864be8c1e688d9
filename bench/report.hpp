// What dppgemm-bench shows and writes: the table, JSON, CSV and the chart.
// Modeled figures are labelled "modeled" in every one of them.
#pragma once

#include "model.hpp"
#include "problem.hpp"
#include "verify.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace dppgemm::bench {

struct Row {
    std::string variant, target;
    Result result;           // the last run's
    std::vector<double> ms;  // per timed run: emu wall time, or hip GPU time (events)
    // Per timed run: OpenBLAS's time on the same problem, measured right
    // before it (OpenBLAS and dppgemm take turns, round after round).
    std::vector<double> openblas_ms;
    // emu: wall time of the untimed run that records the cycle model's
    // traces and replays them (its figures are the modeled rows).
    double model_run_ms = 0;
    Verification check;
    std::optional<Modeled> modeled;  // emu only
    bool on_gpu() const { return result.backend == Backend::hip; }
};

struct ConfigReport {
    Problem problem;
    double openblas_ms = 0;
    std::vector<Row> rows;
};

// Emulation time / OpenBLAS time: the median of the rounds' ratios (both
// sides feel the same load), or with no rounds the ratio of the medians.
double emulation_over_openblas(const ConfigReport& report, const Row& row);

// One block per (configuration, target): a column per variant, a line per figure.
void print_table(std::ostream& out, const ConfigReport& report);

// --model-grid: per target, each variant's modeled time against dpp0's over
// the whole grid of model_grid(), and whether the sign of the difference holds.
void print_model_grid(std::ostream& out, const ConfigReport& report);

// Everything, with the options that produced it (to rerun the same thing).
nlohmann::json report_json(const BenchOptions& options, const std::vector<ConfigReport>& reports);

// rocblas-bench habit: a header row, then one row per configuration x variant.
void write_csv(std::ostream& out, const std::vector<ConfigReport>& reports);

// A gnuplot script drawing into `path` (.svg or .png) the Pareto chart of the
// variants (LDS read requests and LDS busy cycles per step against VALU
// instructions per step, one labelled point per variant and target) and
// GFLOPS per variant across sizes.
std::string plot_script(const std::string& path, const std::vector<ConfigReport>& reports);

}  // namespace dppgemm::bench
