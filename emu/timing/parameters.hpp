#pragma once
// The compute-unit model's parameters for a target (parameters.def: every
// value with its source) plus the board figures of include/dppgemm/targets.def.

#include <string>
#include <vector>

#include "emu/loader/target.hpp"

namespace dppgemm::emu::timing {

struct Parameters {
#define DPPGEMM_TIMING_PARAMETER(name, gfx803, gfx900, gfx906, gfx908, gfx90a, gfx940, gfx942, source) double name = 0;
#include "emu/timing/parameters.def"
#undef DPPGEMM_TIMING_PARAMETER
    // From the target's board row.
    double compute_units = 0, clock_mhz = 0, memory_gb_per_s = 0;
    double wave_slots_per_simd = 0, vgprs_per_simd_lane = 0, lds_bytes = 0;

    // The value of a parameter by its name; nullptr when no row has it.
    double* find(const std::string& name);
};

Parameters parameters(Target target);

// The table's rows: name, source (for docs and --model-params listings).
struct ParameterRow {
    const char* name;
    const char* source;
};
const std::vector<ParameterRow>& parameter_rows();

// Sets "name=value" pairs (comma or newline separated, '#' starts a comment
// that runs to the end of its line): what --model-params command lines and
// parameter files (@FILE; dppgemm-calibrate writes them) hold, names as in
// parameters.def, values finite numbers >= 0. Throws std::invalid_argument
// naming the unknown parameter or bad value.
void apply_overrides(Parameters& p, const std::string& text);

}  // namespace dppgemm::emu::timing
