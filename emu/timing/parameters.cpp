#include "emu/timing/parameters.hpp"

#include <array>
#include <cmath>
#include <iterator>
#include <sstream>
#include <stdexcept>

namespace dppgemm::emu::timing {

static_assert(std::size(all_targets) == 7, "parameters.def has one column per targets.def row");

Parameters parameters(Target target) {
    const std::size_t t = static_cast<std::size_t>(target);
    Parameters p;
#define DPPGEMM_TIMING_PARAMETER(name, gfx803, gfx900, gfx906, gfx908, gfx90a, gfx940, gfx942, source) \
    p.name = std::array<double, 7>{gfx803, gfx900, gfx906, gfx908, gfx90a, gfx940, gfx942}[t];
#include "emu/timing/parameters.def"
#undef DPPGEMM_TIMING_PARAMETER
    const Board& b = board(target);
    p.compute_units = b.compute_units;
    p.clock_mhz = b.clock_mhz;
    p.memory_gb_per_s = b.memory_gb_per_s;
    p.wave_slots_per_simd = b.waves_per_simd;
    p.vgprs_per_simd_lane = b.vgprs_per_simd_lane;
    p.lds_bytes = lds_bytes(target);
    return p;
}

double* Parameters::find(const std::string& name) {
#define DPPGEMM_TIMING_PARAMETER(row, gfx803, gfx900, gfx906, gfx908, gfx90a, gfx940, gfx942, source) \
    if (name == #row) return &row;
#include "emu/timing/parameters.def"
#undef DPPGEMM_TIMING_PARAMETER
    return nullptr;
}

const std::vector<ParameterRow>& parameter_rows() {
    static const std::vector<ParameterRow> rows = {
#define DPPGEMM_TIMING_PARAMETER(name, gfx803, gfx900, gfx906, gfx908, gfx90a, gfx940, gfx942, source) {#name, source},
#include "emu/timing/parameters.def"
#undef DPPGEMM_TIMING_PARAMETER
    };
    return rows;
}

void apply_overrides(Parameters& p, const std::string& text) {
    std::string item;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        line = line.substr(0, line.find('#'));
        std::istringstream parts(line);
        while (std::getline(parts, item, ',')) {
            const std::size_t begin = item.find_first_not_of(" \t\r");
            if (begin == std::string::npos) continue;
            item = item.substr(begin, item.find_last_not_of(" \t\r") + 1 - begin);
            const std::size_t equals = item.find('=');
            if (equals == std::string::npos)
                throw std::invalid_argument("model parameter '" + item + "': expected name=value");
            const std::string name = item.substr(0, equals), value = item.substr(equals + 1);
            double* slot = p.find(name);
            if (!slot) throw std::invalid_argument("unknown model parameter '" + name + "'");
            std::size_t used = 0;
            double parsed = 0;
            try {
                parsed = std::stod(value, &used);
            } catch (const std::exception&) {
                used = 0;
            }
            if (used == 0 || used != value.size())
                throw std::invalid_argument("model parameter '" + name + "': '" + value + "' is not a number");
            if (!std::isfinite(parsed) || parsed < 0)
                throw std::invalid_argument("model parameter '" + name + "': '" + value +
                                            "' is not a finite number >= 0");
            *slot = parsed;
        }
    }
}

}  // namespace dppgemm::emu::timing
