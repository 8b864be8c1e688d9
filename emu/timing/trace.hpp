#pragma once
// Dynamic instruction traces of chosen workgroups, recorded by observing the
// executor (emu/exec/observer.hpp): what the compute-unit model (cu_model.hpp)
// replays. One record per instruction a wave issues, in program order; what
// does not change from one execution of an instruction to the next (its
// class, registers, counter waits, s_nop count) is kept once per instruction
// of the Program (StaticInst), what does (active lanes, bytes moved, the LDS
// bank-conflict cycles the executor counted) in the record.
//
// Works for any code object the executor runs: nothing here knows SGEMM.

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "emu/exec/counters.hpp"
#include "emu/exec/observer.hpp"
#include "emu/exec/program.hpp"

namespace dppgemm::emu::timing {

// Where an instruction goes when it issues (the scheduler's categories,
// docs/performance-model.md): at most one per category per SIMD and cycle,
// internal ones (s_nop, s_waitcnt, s_barrier, s_endpgm...) go to no unit.
enum class Unit : std::uint8_t { valu, scalar, vmem, lds, branch, internal, count };
inline constexpr std::size_t unit_count = static_cast<std::size_t>(Unit::count);
const char* unit_name(Unit unit);

// Registers in one numbering: VGPR r -> r, AGPR r -> 256 + r, scalar
// operand code c -> 512 + c.
inline constexpr unsigned reg_agpr = 256, reg_sreg = 512, reg_count = 768;
struct RegSpan {
    std::uint16_t first = 0;
    std::uint8_t count = 0;  // 0: none
};

struct StaticInst {
    InstClass cls = InstClass::other;
    Unit unit = Unit::internal;
    bool valu64 = false;  // an FP64 VALU op (half rate on some targets)
    // An MFMA: the clocks its passes hold the SIMD's matrix core (0: not an
    // MFMA), and whether the VALU may issue meanwhile (MfmaShape).
    std::uint8_t mfma_cycles = 0;
    bool mfma_coexecutes = false;
    bool returns = false;  // a load or returning atomic: writes `writes` when it completes
    bool scalar_memory = false;
    bool barrier = false, ends = false;
    std::uint8_t nop_wait_states = 0;               // s_nop N: N + 1
    std::uint8_t wait_vm = 0xff, wait_lgkm = 0xff;  // s_waitcnt fields; 0xff: not waited on
    std::uint8_t addresses_per_lane = 1;            // 2 for ds_read2/write2
    std::array<RegSpan, 6> reads{};
    std::array<RegSpan, 3> writes{};
};
std::vector<StaticInst> static_instructions(const Program& program);

struct TraceRecord {
    std::uint32_t inst = 0;             // index into Program::code
    std::uint8_t lanes = 0;             // active lanes (EXEC) when it issued, 0..64
    std::uint16_t conflict_cycles = 0;  // LDS bank-conflict cycles (emu/exec/lds.hpp)
    std::uint32_t bytes = 0;            // LDS, vector or scalar memory bytes moved
};

struct WaveTrace {
    std::vector<TraceRecord> records;
};

struct WorkgroupTrace {
    std::uint64_t linear_id = 0;
    std::vector<WaveTrace> waves;
    Counters counters;  // the instructions by class the records hold, per the executor's classes
};

// The workgroups a model of this grid traces: the first (an interior tile
// when the grid has more than one workgroup per dimension) and the last (the
// corner: an edge in every dimension). Ascending, distinct.
std::vector<std::uint64_t> representative_workgroups(const std::array<std::uint32_t, 3>& grid);

// Which traced workgroup stands for workgroup `id`: the edge trace for a
// workgroup in the last row of any dimension the grid has more than one
// workgroup in, else the first.
std::size_t trace_for(const std::array<std::uint32_t, 3>& grid, std::uint64_t linear_id);

// A DispatchObserver that records the listed workgroups and leaves the others
// unobserved (they keep the executor's fast paths).
class TraceRecorder : public DispatchObserver {
public:
    explicit TraceRecorder(std::vector<std::uint64_t> workgroups) : wanted_(std::move(workgroups)) {}
    std::unique_ptr<WorkgroupObserver> start(std::uint64_t workgroup_linear_id) override;
    void finish(std::uint64_t workgroup_linear_id, std::unique_ptr<WorkgroupObserver> observer) override;
    // By linear id (after the launch).
    std::vector<WorkgroupTrace> traces() const;

private:
    std::vector<std::uint64_t> wanted_;
    mutable std::mutex mutex_;
    std::map<std::uint64_t, WorkgroupTrace> done_;
};

}  // namespace dppgemm::emu::timing
