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
  std::string target;         // gfx906
  std::string product;        // "MI50"
  int compute_units;
  double clock_mhz;
  double memory_gb_per_s;     // HBM/GDDR bandwidth
  double lds_bytes_per_clock; // per CU
};

const std::vector<GpuSpec>& gpu_specs();
std::optional<GpuSpec> gpu_spec(const std::string& target);

struct Modeled {
  double valu_cycles = 0, lds_cycles = 0, memory_cycles = 0, issue_cycles = 0;
  double cycles = 0;        // the largest, times the wave-quantization factor
  double quantization = 1;  // (rounds of workgroups x slots) / workgroups
  double milliseconds = 0;
  double gflops = 0;
  std::string bound;        // "valu", "lds", "memory" or "issue"
};

// flops = 2 M N K. Workgroups resident per CU from the kernel's LDS and VGPRs.
Modeled model_launch(const GpuSpec& gpu, const Counters& counters, double flops,
                     int workgroups_per_cu);

}  // namespace dppgemm::bench
