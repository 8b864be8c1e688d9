#pragma once
// The calibration kernels and what their clocks say about the cycle model's
// parameters (emu/timing/parameters.def). dppgemm-calibrate (calibrate.hip)
// runs them through HIP and times them with s_memtime: on a GPU that
// measures the parameters; on libdppgemm-hipemu s_memtime reads the host's
// clock, so it only exercises the path. The emulator's tests run the same
// code objects through the cycle model (tests/timing/test_calibration.cpp):
// what the model predicts for each kernel, beside the published figures.
//
// Every kernel is one wave alone on its compute unit, running its body
// `short` and `long` times between two s_memtime; the clocks of one
// repetition are the difference over the difference in repetitions, so the
// launch, the clock reads and the final wait cancel out.

#include <array>
#include <cmath>
#include <cstddef>
#include <sstream>
#include <string>
#include <vector>

namespace dppgemm::calibration {

// X(name, lanes, lane_stride, short, long, body, after, conflict_cycles, what):
// `body` repeated (operand %[a]: the lane's LDS or global byte offset, lane x
// lane_stride, updated by chains; %[base]: a zeroed global buffer), then
// `after` once before the clock is read. conflict_cycles: of one instruction
// of the body (rocprof's count on MI300X, F9 of docs/performance-model.md,
// and the emulator's bank model): with every lane of a pass on one bank, 31
// extra clocks per 32-lane b32 pass x 2, 15 per 16-lane b64 pass x 4, 7 per
// 8-lane b128 pass x 8.
#define DPPGEMM_CALIBRATION_KERNELS(X)                                                                     \
    X(valu_stream, 64, 0, 256, 512, "v_mov_b32 v1, v2", "", 0, "v_mov_b32: a pure VALU stream")            \
    X(nop_stream, 64, 0, 256, 512, "s_nop 0", "", 0, "s_nop 0: an internal-instruction stream")            \
    X(waitcnt_stream, 64, 0, 256, 512, "s_waitcnt lgkmcnt(0)\n v_mov_b32 v1, v2", "", 0,                   \
      "s_waitcnt with nothing outstanding, then v_mov_b32: does the wait take an issue turn?")             \
    X(lds_chain, 64, 0, 32, 64, "ds_read_b32 %[a], %[a]\n s_waitcnt lgkmcnt(0)", "", 0,                    \
      "ds_read_b32 of the address it read, all lanes one address: LDS latency")                            \
    DPPGEMM_CALIBRATION_LDS_READ(X, 32, "v16", 62, "bank 0")                                               \
    DPPGEMM_CALIBRATION_LDS_READ(X, 64, "v[16:17]", 60, "banks 0-1")                                       \
    DPPGEMM_CALIBRATION_LDS_READ(X, 128, "v[16:19]", 56, "banks 0-3")                                      \
    X(global_chain, 1, 0, 16, 32, "global_load_dword %[a], %[a], %[base] glc\n s_waitcnt vmcnt(0)", "", 0, \
      "global_load_dword (glc: past L1) of the offset it read, one lane: L2-hit latency")

// The two kernels of one ds_read width: independent reads of consecutive
// addresses (no bank conflict), and of addresses 128 bytes apart (every lane
// on the same banks, `conflict_cycles` per instruction).
#define DPPGEMM_CALIBRATION_LDS_READ(X, bits, data, conflict_cycles, banks)                                        \
    X(lds_read_b##bits, 64, bits / 8, 32, 64, "ds_read_b" #bits " " data ", %[a]", "s_waitcnt lgkmcnt(0)", 0,      \
      "independent ds_read_b" #bits ", consecutive addresses: no bank conflict")                                   \
    X(lds_read_b##bits##_conflicted, 64, 128, 32, 64, "ds_read_b" #bits " " data ", %[a]", "s_waitcnt lgkmcnt(0)", \
      conflict_cycles, "independent ds_read_b" #bits ", every lane in " banks)

enum class Kernel : std::size_t {
#define DPPGEMM_CALIBRATION_ENUM(name, lanes, stride, short_count, long_count, body, after, conflicts, what) name,
    DPPGEMM_CALIBRATION_KERNELS(DPPGEMM_CALIBRATION_ENUM)
#undef DPPGEMM_CALIBRATION_ENUM
        count
};
inline constexpr std::size_t kernel_count = static_cast<std::size_t>(Kernel::count);

struct KernelInfo {
    const char* name;
    unsigned lanes, lane_stride, short_count, long_count;
    double conflict_cycles;
    const char* what;
};
inline constexpr std::array<KernelInfo, kernel_count> kernels = {{
#define DPPGEMM_CALIBRATION_INFO(name, lanes, stride, short_count, long_count, body, after, conflicts, what) \
    {#name, lanes, stride, short_count, long_count, conflicts, what},
    DPPGEMM_CALIBRATION_KERNELS(DPPGEMM_CALIBRATION_INFO)
#undef DPPGEMM_CALIBRATION_INFO
}};
inline const KernelInfo& info(Kernel k) { return kernels[static_cast<std::size_t>(k)]; }

// The int words of LDS every kernel allocates and zeroes: 32 KiB, as in
// F9's harness (at most two such workgroups per compute unit).
inline constexpr unsigned lds_words = 8192;
// F1: a SIMD gets the issue once every 4 clocks, so an instruction that waits
// for a result issues on the next such turn.
inline constexpr double issue_turn_clocks = 4;

// Clocks per repetition of each kernel's body, in the table's order.
using Clocks = std::array<double, kernel_count>;
inline double clocks_per_repetition(Kernel k, double short_clocks, double long_clocks) {
    return (long_clocks - short_clocks) / double(info(k).long_count - info(k).short_count);
}

struct Derived {
    const char* name;  // a row of emu/timing/parameters.def
    double value;
    const char* from;  // how the clocks give it
    bool positive;     // the model needs it above 0 (a rate or a busy time), else at least 0
    // A value the model can run with; else the clocks do not follow the
    // model's rules and the file leaves the parameter at its table value.
    bool usable() const { return std::isfinite(value) && (positive ? value > 0 : value >= 0); }
};

// The parameters the clocks give, inverting the model's rules
// (docs/performance-model.md, "The compute unit"): an LDS instruction holds
// its port (lanes x address bytes + data bytes) / port bytes per clock plus
// conflict cost x conflict cycles, and completes lds_latency after; a load
// completes vmem_latency after it passes the memory path; a waited-for
// result is used on the next issue turn.
inline std::vector<Derived> derive(const Clocks& c) {
    auto at = [&c](Kernel k) { return c[static_cast<std::size_t>(k)]; };
    const double valu = at(Kernel::valu_stream);
    const double b32 = at(Kernel::lds_read_b32), b64 = at(Kernel::lds_read_b64), b128 = at(Kernel::lds_read_b128);
    // b128 moves 12 more bytes per lane than b32, 64 lanes.
    const double port_bytes = 64.0 * (16 - 4) / (b128 - b32);
    const double address_bytes = b32 * port_bytes / 64.0 - 4;
    double conflict = 0;
    const std::array<std::pair<Kernel, double>, 3> conflicted = {{{Kernel::lds_read_b32_conflicted, b32},
                                                                  {Kernel::lds_read_b64_conflicted, b64},
                                                                  {Kernel::lds_read_b128_conflicted, b128}}};
    for (const auto& [k, free] : conflicted) conflict += (at(k) - free) / info(k).conflict_cycles / 3;
    return {
        {"valu_cycles", valu, "valu_stream: clocks per v_mov_b32", true},
        {"internal_takes_turn", at(Kernel::waitcnt_stream) - valu >= valu / 2 ? 1.0 : 0.0,
         "waitcnt_stream - valu_stream: 1 when a satisfied s_waitcnt costs at least half a VALU instruction", false},
        {"lds_port_bytes_per_clock", port_bytes, "64 lanes x 12 bytes / (lds_read_b128 - lds_read_b32)", true},
        {"lds_address_bytes_per_lane", address_bytes, "lds_read_b32 x port bytes / 64 lanes - 4 data bytes", false},
        {"lds_conflict_cost", conflict, "lds_read_b*_conflicted - lds_read_b*, per conflict cycle, mean of 3 widths",
         false},
        {"lds_latency", at(Kernel::lds_chain) - b32 - issue_turn_clocks,
         "lds_chain - lds_read_b32 (port time) - one issue turn", false},
        {"vmem_latency", at(Kernel::global_chain) - 2 * issue_turn_clocks,
         "global_chain - two issue turns (the load's and the wait's)", false},
    };
}

// A parameter file (docs/performance-model.md, "Parameter files"): comment
// lines starting with '#', then one name=value line per usable parameter, the
// value with 17 significant digits (it reads back to the same double); an
// unusable one is a comment saying why.
inline std::string parameter_file(const std::vector<Derived>& parameters, const std::string& origin) {
    std::ostringstream out;
    out << "# dppgemm cycle-model parameters (emu/timing/parameters.def), calibrated by dppgemm-calibrate\n"
        << "# on " << origin << "\n";
    for (const Derived& d : parameters) out << "# " << d.name << ": " << d.from << "\n";
    out.precision(17);
    for (const Derived& d : parameters) {
        if (!d.usable()) out << "# not usable (" << (d.positive ? "needs > 0" : "needs >= 0") << "), left out: ";
        out << d.name << "=" << d.value << "\n";
    }
    return out.str();
}

}  // namespace dppgemm::calibration
