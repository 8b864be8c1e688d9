#pragma once
// Synthetic traces: a handful of instruction kinds with the facts the model
// reads, and workgroups of identical waves built from them.

#include <cstdint>
#include <vector>

#include "emu/timing/cu_model.hpp"

namespace timing_test {

using namespace dppgemm::emu;
using namespace dppgemm::emu::timing;

enum Kind : std::uint32_t {
    v_mac,           // VALU, reads v96 v97 v0, writes v0 (operands loaded earlier, waited for)
    v_mov,           // VALU, writes v1
    s_nop0,          // s_nop 0
    ds_read_b32,     // writes v64
    ds_read_b64,     // writes v[64:65]
    ds_read_b128,    // writes v[64:67]
    ds_read2_b64,    // two addresses per lane, writes v[64:67]
    ds_write_b32,    // reads v2
    ds_write_b128,   // reads v[4:7]
    waitcnt_lgkm0,   // s_waitcnt lgkmcnt(0)
    waitcnt_vm0,     // s_waitcnt vmcnt(0)
    barrier,         // s_barrier
    salu,            // s_add_u32 s2, s2, s3
    branch_back,     // s_cbranch_scc1 to the loop head (taken when the next record is not the next instruction)
    buffer_load_x4,  // buffer_load_dwordx4 v[8:11]
    endpgm,          // s_endpgm
    kind_count
};

// facts[kind]; the loop head is instruction 0 (branch_back + 1 is not the next one).
const std::vector<StaticInst>& facts();

struct Waves {
    std::vector<TraceRecord> records;
    Waves& add(Kind kind, unsigned count = 1, std::uint16_t conflict_cycles = 0);
};

// A workgroup of `waves` identical waves, ending in s_endpgm.
WorkgroupTrace workgroup(const Waves& body, unsigned waves);

// The model of `groups_per_cu` such workgroups per CU on the busiest CU, all
// CUs alike: grid = CUs x groups_per_cu, no register or LDS limit unless given.
CuModelResult model(const Parameters& p, const WorkgroupTrace& trace, unsigned groups_per_cu,
                    std::uint32_t lds_bytes = 0, unsigned vgprs = 0);

}  // namespace timing_test
