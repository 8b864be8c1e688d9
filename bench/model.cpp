#include "model.hpp"

#include <algorithm>
#include <cmath>

namespace dppgemm::bench {

namespace {

// A 128x128 dppgemm kernel's footprint: 128 VGPRs per lane and 16.5 KiB of
// LDS per workgroup of 4 waves (one per SIMD); model_launch takes a kernel's
// own occupancy where the cycle model gives it.
constexpr int kKernelVgprs = 128;
constexpr int kKernelLdsBytes = 16896;

struct TargetRow {
    const char* name;
    bool kernels;
};
constexpr TargetRow kTargets[] = {
#define DPPGEMM_TARGET(name, mach, llvm, kernels, features, lds_banks) {#name, kernels != 0},
#include "dppgemm/targets.def"
};

bool has_kernels(const std::string& target) {
    for (const TargetRow& row : kTargets)
        if (target == row.name) return row.kernels;
    return false;
}

}  // namespace

const std::vector<GpuSpec>& gpu_specs() {
    // The board rows of dppgemm/targets.def for the targets with kernels; peak
    // fp32 = CUs x 64 lanes x 2 FLOP x clock. Resident workgroups: the kernels'
    // VGPRs allow 2 waves per SIMD with 256 VGPRs (gfx900..gfx908) and 4 with 512
    // (gfx90a, gfx942), where their LDS out of 64 KiB caps it at 3.
    static const std::vector<GpuSpec> specs = [] {
        std::vector<GpuSpec> all;
#define DPPGEMM_BOARD(name, device_name, model_label, gcn_arch, compute_units, clock_mhz, memory_clock_mhz,      \
                      memory_bus_bits, memory_gb_per_s, l2_mib, memory_gib, waves_per_simd, vgprs_per_simd_lane, \
                      lds_kib)                                                                                   \
    if (has_kernels(#name))                                                                                      \
        all.push_back({#name, model_label, compute_units, clock_mhz, memory_gb_per_s, 128,                       \
                       std::min(vgprs_per_simd_lane / kKernelVgprs, lds_kib * 1024 / kKernelLdsBytes)});
#include "dppgemm/targets.def"
        return all;
    }();
    return specs;
}

std::string model_target_names(const char* separator) {
    std::string names;
    for (const GpuSpec& g : gpu_specs()) names += (names.empty() ? "" : separator) + g.target;
    return names;
}

std::optional<GpuSpec> gpu_spec(const std::string& target) {
    for (const GpuSpec& g : gpu_specs())
        if (g.target == target) return g;
    return std::nullopt;
}

const std::vector<std::string>& model_grid() {
    // LDS latency; b128 read port time 16 or 21.6 clocks (address bytes per
    // lane 0 or 5.6); barrier latency; whether internal instructions take an
    // issue turn; whether an LDS instruction waits for a free port to issue.
    static const std::vector<std::string> grid = [] {
        const std::vector<std::vector<std::string>> axes = {
            {"lds_latency=64", "lds_latency=128"},
            {"lds_address_bytes_per_lane=0", "lds_address_bytes_per_lane=5.6"},
            {"barrier_latency=0", "barrier_latency=64"},
            {"internal_takes_turn=0", "internal_takes_turn=1"},
            {"lds_issue_waits_for_port=0", "lds_issue_waits_for_port=1"}};
        std::vector<std::string> all = {""};
        for (const auto& axis : axes) {
            std::vector<std::string> next;
            for (const std::string& prefix : all)
                for (const std::string& value : axis) next.push_back(prefix.empty() ? value : prefix + "," + value);
            all = next;
        }
        return all;
    }();
    return grid;
}

double lds_busy_cycles(const GpuSpec& gpu, const Counters& c) {
    return double(c.lds_read_bytes + c.lds_write_bytes) / gpu.lds_bytes_per_clock + double(c.lds_bank_conflict_cycles);
}

Modeled model_launch(const GpuSpec& gpu, const Counters& c, double flops, int resident_workgroups) {
    Modeled m;
    if (c.workgroups == 0 || c.waves == 0) return m;
    const double workgroups = double(c.workgroups);
    // Workgroups are alike: the busiest CU runs ceil(WG / CU) of them.
    m.busiest_cu_workgroups = std::ceil(workgroups / gpu.compute_units);
    const double busy = m.busiest_cu_workgroups;
    // A wave64 VALU instruction keeps a SIMD16 busy 4 clocks; 4 SIMDs per CU.
    m.valu_cycles = busy * double(c.valu) / workgroups;
    // A matrix-core pass keeps its SIMD busy 4 clocks (mfma.md section 2: [CALC],
    // LLVM SISchedule.td). MFMA and VALU overlap: they co-execute on CDNA1/2;
    // CDNA3's fp32 MFMAs do not, which this bound leaves out (an MFMA kernel's
    // few VALU instructions add to its time there).
    m.mfma_cycles = busy * double(c.mfma_passes) / workgroups;
    // LDS: bytes through a 128 B/clk port, plus the clocks bank conflicts add.
    m.lds_cycles = busy * lds_busy_cycles(gpu, c) / workgroups;
    // DRAM: every global byte once, whole GPU (no cache model).
    m.memory_cycles =
        double(c.global_read_bytes + c.global_write_bytes) / (gpu.memory_gb_per_s * 1e9) * gpu.clock_mhz * 1e6;
    // A wave issues at most one instruction every 4 clocks; waves of resident
    // workgroups overlap, later rounds of workgroups wait.
    const int resident = resident_workgroups > 0 ? resident_workgroups : gpu.resident_workgroups;
    const double rounds = std::ceil(busy / std::max(1, resident));
    m.issue_cycles = rounds * 4.0 * double(c.wave_instructions()) / double(c.waves);

    const std::pair<double, const char*> bounds[] = {{m.valu_cycles, "valu"},
                                                     {m.mfma_cycles, "mfma"},
                                                     {m.lds_cycles, "lds"},
                                                     {m.memory_cycles, "memory"},
                                                     {m.issue_cycles, "issue"}};
    const auto* worst =
        std::max_element(std::begin(bounds), std::end(bounds), [](auto& a, auto& b) { return a.first < b.first; });
    m.bound = worst->second;
    m.cycles = worst->first;
    m.milliseconds = m.cycles / (gpu.clock_mhz * 1e3);
    m.gflops = m.milliseconds > 0 ? flops / (m.milliseconds * 1e6) : 0;
    return m;
}

}  // namespace dppgemm::bench
