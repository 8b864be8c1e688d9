#include "model.hpp"

#include <algorithm>
#include <cmath>

namespace dppgemm::bench {

const std::vector<GpuSpec>& gpu_specs() {
  // Vendor figures; peak fp32 = CUs x 64 lanes x 2 FLOP x clock. Resident
  // workgroups: 128 VGPRs allow 2 waves per SIMD with 256 VGPRs (gfx900..gfx908)
  // and 4 with 512 (gfx90a, gfx942), where 16.5 KiB of LDS out of 64 caps it at 3.
  static const std::vector<GpuSpec> specs = {
      {"gfx900", "Radeon RX Vega 64", 64, 1546, 484, 128, 2},
      {"gfx906", "Instinct MI50", 60, 1725, 1024, 128, 2},
      {"gfx908", "Instinct MI100", 120, 1502, 1229, 128, 2},
      {"gfx90a", "Instinct MI250X (one GCD)", 110, 1700, 1638, 128, 3},
      {"gfx942", "Instinct MI300X", 304, 2100, 5300, 128, 3},
  };
  return specs;
}

std::optional<GpuSpec> gpu_spec(const std::string& target) {
  for (const GpuSpec& g : gpu_specs())
    if (g.target == target) return g;
  return std::nullopt;
}

std::uint64_t wave_instructions(const Counters& c) {
  return c.salu + c.valu + c.smem + c.vmem_load + c.vmem_store + c.lds_read + c.lds_write + c.branch +
         c.waitcnt + c.barrier + c.nop + c.other;
}

double lds_busy_cycles(const GpuSpec& gpu, const Counters& c) {
  return double(c.lds_read_bytes + c.lds_write_bytes) / gpu.lds_bytes_per_clock + double(c.lds_bank_conflict_cycles);
}

Modeled model_launch(const GpuSpec& gpu, const Counters& c, double flops) {
  Modeled m;
  if (c.workgroups == 0 || c.waves == 0) return m;
  const double workgroups = double(c.workgroups);
  // Workgroups are alike: the busiest CU runs ceil(WG / CU) of them.
  m.busiest_cu_workgroups = std::ceil(workgroups / gpu.compute_units);
  const double busy = m.busiest_cu_workgroups;
  // A wave64 VALU instruction keeps a SIMD16 busy 4 clocks; 4 SIMDs per CU.
  m.valu_cycles = busy * double(c.valu) / workgroups;
  // LDS: bytes through a 128 B/clk port, plus the clocks bank conflicts add.
  m.lds_cycles = busy * lds_busy_cycles(gpu, c) / workgroups;
  // DRAM: every global byte once, whole GPU (no cache model).
  m.memory_cycles = double(c.global_read_bytes + c.global_write_bytes) /
                    (gpu.memory_gb_per_s * 1e9) * gpu.clock_mhz * 1e6;
  // A wave issues at most one instruction every 4 clocks; waves of resident
  // workgroups overlap, later rounds of workgroups wait.
  const double rounds = std::ceil(busy / std::max(1, gpu.resident_workgroups));
  m.issue_cycles = rounds * 4.0 * double(wave_instructions(c)) / double(c.waves);

  const std::pair<double, const char*> bounds[] = {
      {m.valu_cycles, "valu"}, {m.lds_cycles, "lds"}, {m.memory_cycles, "memory"}, {m.issue_cycles, "issue"}};
  const auto* worst = std::max_element(std::begin(bounds), std::end(bounds),
                                       [](auto& a, auto& b) { return a.first < b.first; });
  m.bound = worst->second;
  m.cycles = worst->first;
  m.milliseconds = m.cycles / (gpu.clock_mhz * 1e3);
  m.gflops = m.milliseconds > 0 ? flops / (m.milliseconds * 1e6) : 0;
  return m;
}

}  // namespace dppgemm::bench
