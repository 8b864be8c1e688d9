// dppgemm-bench --progression: the HIP steps of dppgemm/progression.def, then
// the assembly kernels dpp0 and best, on one NN problem per target, and the
// transposition steps on an M x N matrix (docs/progression.md).
//
// Every step runs only the workgroups the cycle model traces
// (Options::model_only): the modeled time covers the whole launch, the counts
// are the traced workgroups' scaled to the grid (exact when every workgroup
// does the same work: M and N multiples of the step's tile), and C is checked
// bit for bit against the same-order reference in the traced tiles.
#pragma once

#include "dppgemm/dppgemm.hpp"
#include "options.hpp"
#include "problem.hpp"

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace dppgemm::bench {

struct StepCheck {
    std::uint64_t checked = 0;     // elements compared
    std::uint64_t mismatches = 0;  // not bitwise equal to the same-order reference
    std::string first_mismatch;    // "C(3,17) = ... but the reference gives ..."
    bool passed() const { return checked > 0 && mismatches == 0; }
};

struct StepRow {
    std::string step;  // "tile_2d", or the assembly variant ("dpp0")
    std::string idea;  // one line
    bool assembly = false;
    Result result;
    std::uint64_t grid_workgroups = 0;  // of the whole launch
    bool exact_counts = false;          // every workgroup does the same work
    StepCheck check;
    // The traced workgroups' counter scaled to the grid.
    double scaled(std::uint64_t Counters::*counter) const;
};

struct TargetProgression {
    std::string target;
    std::vector<StepRow> sgemm, transpose;
};

struct ProgressionReport {
    Problem problem;
    std::vector<TargetProgression> targets;
    bool passed() const;
};

// Runs everything for the first shape of `options` on each of its targets.
ProgressionReport run_progression(const BenchOptions& options);
void print_progression(std::ostream& out, const ProgressionReport& report);
nlohmann::json progression_json(const ProgressionReport& report);
void write_progression_csv(std::ostream& out, const ProgressionReport& report);
// gnuplot script: modeled GFLOPS per SGEMM step, one bar group per target.
std::string progression_plot_script(const std::string& path, const ProgressionReport& report);

}  // namespace dppgemm::bench
