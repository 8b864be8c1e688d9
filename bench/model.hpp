// A documented, deliberately simple performance model (docs/performance-model.md):
// it turns the emulator's counters for one launch into a *modeled* GPU time.
// Every figure derived from it is labelled "modeled" wherever it is shown.
#pragma once

#include "dppgemm/dppgemm.hpp"

#include <optional>
#include <string>
#include <vector>

namespace dppgemm::bench {

struct GpuSpec {
    std::string target;   // gfx906
    std::string product;  // "Instinct MI50"
    int compute_units;
    double clock_mhz;
    double memory_gb_per_s;      // HBM/GDDR bandwidth
    double lds_bytes_per_clock;  // per CU
    int resident_workgroups;     // of a 128x128 dppgemm kernel per CU (VGPR and LDS limits)
};

// The boards of include/dppgemm/targets.def whose targets have kernels, in table order.
const std::vector<GpuSpec>& gpu_specs();
// Their targets, joined by `separator` ("gfx900, gfx906, ...").
std::string model_target_names(const char* separator);
std::optional<GpuSpec> gpu_spec(const std::string& target);

struct Modeled {
    double busiest_cu_workgroups = 0;  // ceil(workgroups / CUs)
    double valu_cycles = 0, mfma_cycles = 0, lds_cycles = 0, memory_cycles = 0, issue_cycles = 0;
    double cycles = 0;  // the largest of the five
    double milliseconds = 0;
    double gflops = 0;
    std::string bound;  // "valu", "mfma", "lds", "memory" or "issue"
};

// LDS busy clocks of a launch, summed over its workgroups: the bytes read and
// written through the CU's LDS port plus the bank-conflict cycles.
double lds_busy_cycles(const GpuSpec& gpu, const Counters& counters);

// The cycle model's parameters nobody has published (docs/performance-model.md,
// "Sensitivity"), each at two values: every combination as an override
// string for Options::model_parameter_sets.
const std::vector<std::string>& model_grid();

// flops = 2 M N K. resident_workgroups: of the launched kernel per CU (the
// cycle model's occupancy of its own VGPRs and LDS); 0 takes the GpuSpec's,
// a 128x128 kernel's, which is too few for the smaller tiles (64x64: 56
// VGPRs, 32x32: 32).
Modeled model_launch(const GpuSpec& gpu, const Counters& counters, double flops, int resident_workgroups = 0);

}  // namespace dppgemm::bench
