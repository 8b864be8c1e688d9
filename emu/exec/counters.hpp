#pragma once
// What a dispatch did, counted the way the hardware would see it. Plain
// integers: each workgroup counts into its own copy and the dispatch sums
// them, so the totals do not depend on the number of host threads.

#include <array>
#include <cstdint>
#include <string>

namespace dppgemm::emu {

// Wave-level instruction classes (one count per instruction a wave issues,
// whatever EXEC is).
enum class InstClass : std::uint8_t {
    salu,              // scalar ALU (SOP1/SOP2/SOPK/SOPC, s_getpc...)
    valu_without_dpp,  // vector ALU without DPP (VOP1/VOP2/VOPC/VOP3/VOP3P, v_readlane...)
    valu_dpp,          // vector ALU with a DPP source (with valu_without_dpp: Counters::valu())
    smem,              // s_load/s_buffer_load/s_store/s_dcache/s_memtime
    vmem_load,         // buffer/global/flat/scratch loads (and returning atomics)
    vmem_store,        // ... stores and non-returning atomics
    lds_read,          // ds_read*, ds_bpermute/permute/swizzle, returning LDS atomics
    lds_write,         // ds_write*, non-returning LDS atomics
    branch,            // s_branch, s_cbranch_*, s_setpc/s_swappc
    waitcnt,           // s_waitcnt
    barrier,           // s_barrier
    nop,               // s_nop
    other,             // s_endpgm, s_sleep, s_setprio, ...
    count
};
inline constexpr std::size_t inst_class_count = static_cast<std::size_t>(InstClass::count);
// "salu", "valu_without_dpp", "valu_dpp", ...
const char* inst_class_name(InstClass c);

struct Counters {
    std::array<std::uint64_t, inst_class_count> instructions{};
    // LDS: lane requests = active lanes x ds instructions; bytes = active
    // lanes x bytes each lane moves. Bank-conflict cycles: see lds.hpp.
    std::uint64_t lds_read_requests = 0, lds_read_bytes = 0;
    std::uint64_t lds_write_requests = 0, lds_write_bytes = 0;
    std::uint64_t lds_bank_conflict_cycles = 0;
    // Vector memory (global, flat to global, buffer) bytes moved by active,
    // in-range lanes; scalar memory separately.
    std::uint64_t global_read_bytes = 0, global_write_bytes = 0;
    std::uint64_t scalar_read_bytes = 0;
    std::uint64_t waves = 0, workgroups = 0;
    // VALU instructions (DPP or not) that are fp32 multiply-adds: v_mac,
    // v_fmac, v_mad, v_fma, v_pk_fma (the useful work of a GEMM).
    std::uint64_t valu_multiply_add = 0;

    std::uint64_t& operator[](InstClass c) { return instructions[static_cast<std::size_t>(c)]; }
    std::uint64_t operator[](InstClass c) const { return instructions[static_cast<std::size_t>(c)]; }
    // Every VALU instruction, DPP or not: the "valu" of the JSON, the public
    // dppgemm::Counters and the bench (docs/host.md, "Counters").
    std::uint64_t valu() const { return (*this)[InstClass::valu_without_dpp] + (*this)[InstClass::valu_dpp]; }
    // Every instruction a wave issued, once: the sum over the InstClass partition.
    std::uint64_t wave_instructions() const;
    Counters& operator+=(const Counters& other);
    bool operator==(const Counters& other) const;
    bool operator!=(const Counters& other) const { return !(*this == other); }
    // One JSON object with every counter (stable key order): "instructions"
    // has "valu" (= valu()) and its subset "valu_dpp", not valu_without_dpp.
    std::string to_json() const;
};

}  // namespace dppgemm::emu
