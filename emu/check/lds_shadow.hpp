#pragma once
// Per-workgroup LDS shadow for the race detector: for every dword, the last
// writer and the reader(s) of the current barrier interval ("epoch": the
// number of s_barrier releases so far). Two waves touching the same dword in
// one epoch, at least one of them writing, is a race: nothing orders them.
// Granularity is the dword (sub-dword accesses of different waves to
// different bytes of one dword are reported too); atomics are not races.

#include <array>
#include <cstdint>
#include <vector>

#include "emu/exec/observer.hpp"

namespace dppgemm::emu::check {

struct LdsConflict {
    std::uint64_t lanes = 0;      // lanes of the current access that conflict
    std::uint32_t address = 0;    // first conflicting byte address
    std::uint32_t other_inst = 0; // the other wave's instruction
    std::uint32_t other_wave = 0;
    bool other_wrote = false;
    bool recorded = false;        // the fields above describe the first conflict
    bool any() const { return lanes != 0; }
};

class LdsShadow {
public:
    void reset(std::uint32_t bytes);
    void set_epoch(std::uint32_t epoch) { epoch_ = epoch; }
    // Records an access of `wave` by instruction `inst`; returns the first conflict.
    LdsConflict access(const MemoryAccess& a, std::uint32_t wave, std::uint32_t inst);

private:
    // Tags: epoch << 5 | (wave + 1); readers: `multiple` when two waves read.
    static constexpr std::uint32_t wave_bits = 5, wave_mask = (1u << wave_bits) - 1, multiple = wave_mask;
    std::uint32_t epoch_ = 0;
    // One 16-byte cell per dword: an access reads and writes one cache line per
    // dword instead of one in each of four arrays.
    struct Cell {
        std::uint32_t write_tag = 0, read_tag = 0, write_inst = 0, read_inst = 0;
    };
    std::vector<Cell> cells_;
    // Lanes that share an address (broadcast reads) share the outcome: a
    // direct-mapped memo of the current access's addresses skips the repeats.
    // An entry belongs to the current access when its generation matches.
    struct Memo {
        std::uint64_t address = 0;
        std::uint32_t generation = 0;
        bool conflict = false;
    };
    std::array<Memo, 64> memo_{};
    std::uint32_t generation_ = 0;

    std::uint32_t tag(std::uint32_t wave) const { return (epoch_ << wave_bits) | (wave + 1); }
    bool this_epoch(std::uint32_t t) const { return t != 0 && (t >> wave_bits) == epoch_; }
    bool record_read_conflict(std::uint32_t d, LdsConflict& c);
    bool conflicts_write(std::uint32_t d, std::uint32_t me, LdsConflict& c);
    // Checks and records one element (dwords from `address`); true on a conflict.
    static bool disjoint_in_order(const MemoryAccess& a, unsigned lanes, std::uint32_t dwords);
    bool element(std::uint64_t address, std::uint32_t dwords, bool write, std::uint32_t me, std::uint32_t inst, LdsConflict& c);
};

}  // namespace dppgemm::emu::check
