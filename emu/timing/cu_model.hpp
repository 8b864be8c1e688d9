#pragma once
// A cycle-approximate model of one compute unit, driven by traces of
// representative workgroups (trace.hpp): modeled time, never a measurement.
//
// The busiest CU runs ceil(workgroups / CUs) workgroups (the dispatcher deals
// them round robin: assumed), as many at once as VGPRs, SGPRs, LDS, wave
// slots and the workgroup limit allow, later ones starting as earlier ones
// end. Its four SIMDs take issue turns in rotation (cycle c serves SIMD
// c mod 4); in its turn a SIMD issues at most one instruction per wave and
// one per unit (VALU, scalar, vector memory, LDS, branch), oldest wave
// first; internal instructions go to no unit. What each unit does, and every
// parameter's source: parameters.def and docs/performance-model.md.
//
// Output: the busiest CU's cycles and, per SIMD issue turn (4 clocks), what
// the SIMD did or waited for, averaged over the 4 SIMDs: the components sum
// to the cycles exactly.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "emu/exec/counters.hpp"
#include "emu/exec/program.hpp"
#include "emu/timing/parameters.hpp"
#include "emu/timing/trace.hpp"

namespace dppgemm::emu::timing {

// What a SIMD's issue turn went to, in priority order: a busy VALU, another
// issued instruction, else why its oldest wave could not issue.
#define DPPGEMM_STALL_COMPONENTS(X)                                                                        \
    X(valu, "the SIMD's VALU was busy")                                                                    \
    X(matrix, "the SIMD's matrix core ran MFMA passes while its VALU was free")                            \
    X(other_issue, "no VALU, but some other instruction issued (scalar, memory, LDS, branch, internal)")   \
    X(dependency, "the oldest wave waited for a register, its s_nop wait states, a busy unit or LDS port") \
    X(lgkm_wait, "the oldest wave waited in s_waitcnt lgkmcnt (LDS, scalar memory)")                       \
    X(vm_wait, "the oldest wave waited in s_waitcnt vmcnt (vector memory)")                                \
    X(barrier_wait, "the oldest wave waited at s_barrier")                                                 \
    X(idle, "no wave on the SIMD (before, between or after workgroups)")                                   \
    X(l2, "the whole GPU's global traffic through L2 takes longer than the busiest CU: the difference")

enum class Stall : std::uint8_t {
#define DPPGEMM_STALL(name, meaning) name,
    DPPGEMM_STALL_COMPONENTS(DPPGEMM_STALL)
#undef DPPGEMM_STALL
        count
};
inline constexpr std::size_t stall_count = static_cast<std::size_t>(Stall::count);
const char* stall_name(Stall s);
const char* stall_meaning(Stall s);

struct LaunchShape {
    std::array<std::uint32_t, 3> grid{1, 1, 1};  // workgroups
    unsigned waves_per_workgroup = 1;
    std::uint32_t lds_bytes = 0;    // per workgroup, fixed + dynamic
    unsigned vgprs = 0, sgprs = 0;  // allocated per wave (0: no limit from them)
};
// The shape of a launch of `program` (the descriptor's registers and LDS).
LaunchShape launch_shape(const Program& program, const std::array<std::uint32_t, 3>& grid,
                         const std::array<std::uint32_t, 3>& block, std::uint32_t dynamic_lds = 0);

struct CuModelResult {
    double cycles = 0;  // the modeled kernel time, in core clocks
    double milliseconds = 0;
    std::array<double, stall_count> components{};  // cycles; they sum to `cycles`
    double lds_port_utilisation = 0;               // busy clocks of the 2 pair ports / (2 x the CU's cycles)
    double lds_port_busy_clocks = 0;               // summed over the 2 pair ports
    double cu_cycles = 0, l2_cycles = 0;           // the busiest CU's time; the grid's global bytes / L2 bandwidth
    unsigned resident_workgroups = 0;              // at once on a CU
    std::string occupancy_limit;                   // "vgprs", "sgprs", "lds", "wave slots", "workgroups"
    std::uint64_t workgroups_on_cu = 0;
    std::array<std::uint64_t, inst_class_count> issued{};  // instructions the busiest CU issued, by class

    double component(Stall s) const { return components[static_cast<std::size_t>(s)]; }
};

// traces[trace_for(grid, id)] stands for workgroup `id`; a single trace
// stands for every workgroup. Throws std::invalid_argument when a trace is
// missing or a workgroup does not fit on a CU.
CuModelResult model_cu(const std::vector<StaticInst>& instructions, const LaunchShape& shape,
                       const std::vector<WorkgroupTrace>& traces, const Parameters& parameters);
CuModelResult model_cu(const Program& program, const LaunchShape& shape, const std::vector<WorkgroupTrace>& traces,
                       const Parameters& parameters);

// One JSON object (stable key order) and a few lines of text.
std::string to_json(const CuModelResult& result);
std::string to_text(const CuModelResult& result);

}  // namespace dppgemm::emu::timing
