#pragma once
// What the checkers need to know of each instruction, worked out once per
// Program from the decoded operands (emu/decode) and the executor's resolved
// ones (ExecInst): which registers it reads and writes right away, which
// unit runs it and how many wait states it provides.
//
// Registers are numbered in one space of "slots": VGPR r -> r, AGPR r ->
// 256 + r, scalar operand code c (s0..s101, vcc 106-107, m0 124, exec
// 126-127, ...) -> 512 + c.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "emu/check/finding.hpp"
#include "emu/exec/program.hpp"

namespace dppgemm::emu::check {

inline constexpr unsigned slot_agpr = 256, slot_sreg = 512, slot_count = 768;
inline constexpr unsigned slot_vcc = slot_sreg + 106, slot_m0 = slot_sreg + 124, slot_exec = slot_sreg + 126;

struct RegRange {
    std::uint16_t slot = 0;
    std::uint8_t count = 0;
    bool contains(unsigned s) const { return s >= slot && s < slot + count; }
    bool overlaps(const RegRange& o) const { return slot < o.slot + o.count && o.slot < slot + count; }
};

// The slots of a register operand (count 0: not a register).
RegRange range_of(const Src& operand);

// "v12", "v[4:7]", "s[20:23]", "vcc", "exec_lo", "m0".
std::string range_name(const RegRange& range);

// Some bits of the slot bitset (word `word` of slot_count / 64).
struct SlotBits {
    std::uint16_t word = 0;
    std::uint64_t bits = 0;
};

struct InstFacts {
    std::array<RegRange, 8> reads{};
    std::array<RegRange, 4> writes{};  // written when the instruction executes (load results are not)
    std::uint8_t read_count = 0, write_count = 0;
    std::uint8_t wait_states = 1;  // s_nop N: N + 1
    bool valu = false, salu = false, dpp = false;
    bool mfma = false;  // a matrix-core op (also valu: it writes VGPRs/AGPRs when it issues)
    // The MFMA rules' facts (rules.def): passes (0: an f64 MFMA or no MFMA,
    // which those rules leave alone), the rule column on this target, A/B,
    // C and D; v_accvgpr_read/write.
    std::uint8_t mfma_passes = 0;
    MfmaColumn mfma_column = MfmaColumn::gfx908;
    RegRange mfma_a, mfma_b, mfma_c, mfma_d;
    bool accvgpr_read = false, accvgpr_write = false;
    bool vmem = false, flat = false, smem = false, ds = false;
    bool atomic = false;  // LDS atomics are meant to be shared: no race
    bool waitcnt = false, barrier = false, scratch = false, end_of_code = false;
    bool movrel = false, m0_message = false, setreg = false, getreg = false, div_fmas = false, trans = false;
    bool lane_select = false;      // v_readlane/v_writelane: src1 selects the lane
    bool reads_lane_vgpr = false;  // v_readlane/v_readfirstlane: src0 is read as a scalar
    bool rwlane = false;           // v_readlane/v_readfirstlane/v_writelane
    bool reads_execz_vccz = false;
    std::uint8_t hwreg = 0;    // s_setreg/s_getreg register id
    RegRange store_data;       // >64-bit store data exposed to the next VALU write (count 0: none)
    RegRange lane_select_reg;  // the lane-select SGPR of v_readlane/v_writelane
    // Every slot read or written, as the few bitset words they fall in (a
    // one-AND test against the registers loads are pending for).
    std::array<SlotBits, 8> touched{};
    std::uint8_t touched_words = 0;
    // Reads something only a hazard rule looks at (the VALU store-data rule
    // is tested separately, it depends on the wave's last store).
    bool hazard_reader = false;
};

std::vector<InstFacts> inst_facts(const Program& program);

}  // namespace dppgemm::emu::check
