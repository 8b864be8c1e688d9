#include "model.hpp"

#include <algorithm>
#include <cmath>

namespace dppgemm::bench {

const std::vector<GpuSpec>& gpu_specs() {
  // Vendor figures; peak fp32 = CUs x 64 lanes x 2 FLOP x clock.
  static const std::vector<GpuSpec> specs = {
      {"gfx900", "Radeon RX Vega 64", 64, 1546, 484, 128},
      {"gfx906", "Instinct MI50", 60, 1725, 1024, 128},
      {"gfx908", "Instinct MI100", 120, 1502, 1229, 128},
      {"gfx90a", "Instinct MI250X (one GCD)", 110, 1700, 1638, 128},
      {"gfx942", "Instinct MI300X", 304, 2100, 5300, 128},
  };
  return specs;
}

std::optional<GpuSpec> gpu_spec(const std::string& target) {
  for (const GpuSpec& g : gpu_specs())
    if (g.target == target) return g;
  return std::nullopt;
}

Modeled model_launch(const GpuSpec& gpu, const Counters& c, double flops, int workgroups_per_cu) {
  Modeled m;
  const double cus = gpu.compute_units;
  // A wave64 VALU instruction keeps one SIMD16 busy 4 clocks; 4 SIMDs per CU.
  m.valu_cycles = double(c.valu) / cus;
  // LDS: bytes through a 128 B/clk port, plus the clocks bank conflicts add.
  m.lds_cycles = (double(c.lds_read_bytes + c.lds_write_bytes) / gpu.lds_bytes_per_clock +
                  double(c.lds_bank_conflict_cycles)) / cus;
  // DRAM: every global byte once (no cache model: an upper bound on traffic).
  m.memory_cycles = double(c.global_bytes_read + c.global_bytes_written) /
                    (gpu.memory_gb_per_s * 1e9) * gpu.clock_mhz * 1e6;
  // Issue: at most one instruction per clock per SIMD.
  const double instructions = double(c.salu + c.valu + c.smem + c.vmem_load + c.vmem_store +
                                     c.lds_read + c.lds_write + c.branch + c.waitcnt + c.barrier +
                                     c.nop + c.other);
  m.issue_cycles = instructions / (4 * cus);

  const double slots = cus * std::max(1, workgroups_per_cu);
  const double rounds = std::ceil(double(c.workgroups) / slots);
  m.quantization = c.workgroups ? rounds * slots / double(c.workgroups) : 1;

  const std::pair<double, const char*> bounds[] = {
      {m.valu_cycles, "valu"}, {m.lds_cycles, "lds"}, {m.memory_cycles, "memory"}, {m.issue_cycles, "issue"}};
  const auto* worst = std::max_element(std::begin(bounds), std::end(bounds),
                                       [](auto& a, auto& b) { return a.first < b.first; });
  m.bound = worst->second;
  m.cycles = worst->first * m.quantization;
  m.milliseconds = m.cycles / (gpu.clock_mhz * 1e3);
  m.gflops = m.milliseconds > 0 ? flops / (m.milliseconds * 1e6) : 0;
  return m;
}

}  // namespace dppgemm::bench
