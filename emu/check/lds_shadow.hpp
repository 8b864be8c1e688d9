#pragma once
// Per-workgroup LDS shadow for the race detector. Within one barrier
// interval ("epoch": between two s_barrier releases), two waves touching the
// same dword, at least one of them writing, is a race: nothing orders them.
// Granularity is the dword (sub-dword accesses of different waves to
// different bytes of one dword are reported too); atomics are not races.
//
// The state is bitmaps over the LDS dwords, per wave and epoch: the dwords
// the wave wrote last and those it read, and their unions. Why bitmaps: the
// per-dword, per-lane shadow this replaces was a quarter of a checked
// SGEMM's time; an instruction's lanes usually cover a contiguous range
// (16 or 64 lanes of consecutive elements), which is a few 64-bit words
// here, tested and updated word by word. Only an access that conflicts
// goes through its lanes one by one, to report them as before: the lanes
// whose dwords conflict with what other waves did earlier in the epoch, and
// the first such dword (lanes in order, then elements) with the other wave
// and instruction.

#include <cstdint>
#include <memory>
#include <vector>

#include "emu/exec/observer.hpp"

namespace dppgemm::emu::check {

struct LdsConflict {
    std::uint64_t lanes = 0;       // lanes of the current access that conflict
    std::uint32_t address = 0;     // first conflicting dword's byte address
    std::uint32_t other_inst = 0;  // the other wave's instruction
    std::uint32_t other_wave = 0;  // ~0u: several other waves (read by two or more)
    bool other_wrote = false;
    bool any() const { return lanes != 0; }
};

class LdsShadow {
public:
    void reset(std::uint32_t bytes);
    // An s_barrier released every wave: a new epoch.
    void new_epoch();
    // An access's lane addresses relative to its first active lane's (the
    // origin), and the dwords they cover, kept per instruction. Why: a loop
    // body's ds instruction repeats its pattern at another base (the next k,
    // the other stage), and comparing it is one vectorized pass where
    // merging lanes into dword ranges goes lane by lane.
    struct Run {
        std::int64_t first;  // dwords from the origin's
        std::int64_t count;
    };
    struct Pattern {
        bool valid = false;
        std::uint64_t pattern_id = 0;  // MemoryAccess::pattern_id of the access it was made from
        std::uint64_t lanes = 0;
        unsigned addresses_per_lane = 0;
        std::uint32_t dwords = 0, origin_byte_in_dword = 0;
        std::uint64_t relative[2][64] = {};
        bool rows_repeat = false;       // lanes 16..63 repeat lanes 0..15
        std::uint64_t relative_or = 0;  // of every relative address
        std::vector<Run> runs;
        // The runs as a bitmap: bit i is dword span_first + i from the origin's.
        std::int64_t span_first = 0;
        std::uint32_t span_dwords = 0;
        std::vector<std::uint64_t> span;
        std::uint64_t origin = 0;  // of the access the pattern was last asked for
        void collect(const MemoryAccess& a, std::uint32_t dwords);
    };
    // The access's pattern (the instruction's last one when it repeats).
    // Whether it repeats: the executor's MemoryAccess::pattern_id says so if
    // it gives one and use_pattern_id; else the lanes' addresses are compared.
    const Pattern& pattern(const MemoryAccess& a, std::uint32_t inst, bool use_pattern_id);
    // Records an access of `wave` by instruction `inst`; returns its conflicts.
    LdsConflict access(const MemoryAccess& a, const Pattern& p, std::uint32_t wave, std::uint32_t inst);

private:
    using Words = std::vector<std::uint64_t>;
    std::uint32_t dwords_ = 0, words_ = 0, waves_ = 0;
    // This epoch. Per wave (word w of wave v at v * words_ + w): the dwords
    // whose last writer it is, and the dwords it read. The writers' sets are
    // disjoint. Per word, for all waves: their unions, and the dwords read
    // by two waves or more.
    Words written_, read_;
    struct Shared {
        std::uint64_t written_any = 0, read_any = 0, read_twice = 0;
    };
    std::vector<Shared> shared_;
    std::uint64_t& written(std::uint32_t wave, std::uint32_t w) { return written_[std::size_t(wave) * words_ + w]; }
    std::uint64_t& read(std::uint32_t wave, std::uint32_t w) { return read_[std::size_t(wave) * words_ + w]; }
    std::uint64_t written(std::uint32_t wave, std::uint32_t w) const {
        return written_[std::size_t(wave) * words_ + w];
    }
    std::uint64_t read(std::uint32_t wave, std::uint32_t w) const { return read_[std::size_t(wave) * words_ + w]; }
    // Per dword: the epoch's last write and first read, for describing a
    // conflict. Kept lazily: an access appends the instruction and its words
    // (for a read, only the dwords the epoch had not read) to a log, written
    // out to these only before a conflict is described or when the log grows
    // long. Why: most epochs end without a conflict, and writing an
    // instruction per dword was a third of the race detector's time.
    std::vector<std::uint32_t> write_inst_, read_inst_;
    struct LoggedAccess {
        std::uint32_t inst;
        bool write;
        std::uint32_t first_word, words;  // the words are log_bits_[bits_at .. bits_at + words)
        std::size_t bits_at;
    };
    std::vector<LoggedAccess> log_;
    Words log_bits_;
    std::uint32_t epoch_low_ = ~0u, epoch_high_ = 0;  // words touched this epoch
    // The current access's dwords, words [low_, high_].
    Words access_;
    std::uint32_t low_ = ~0u, high_ = 0;

    std::vector<std::unique_ptr<Pattern>> patterns_;  // by instruction, kept across workgroups

    void ensure_wave(std::uint32_t wave);
    void add(std::int64_t first_dword, std::int64_t count);
    // Dwords of word w another wave makes this access conflict with.
    std::uint64_t conflicts(std::uint32_t w, std::uint32_t wave, bool write) const {
        const Shared& all = shared_[w];
        const std::uint64_t others_wrote = all.written_any & ~written(wave, w);
        if (!write) return others_wrote;
        return others_wrote | (all.read_any & ~read(wave, w)) | all.read_twice;
    }
    LdsConflict describe(const MemoryAccess& a, unsigned lanes, std::uint32_t dwords, std::uint32_t wave) const;
    void record(std::uint32_t wave, std::uint32_t inst, bool write, bool had_conflict);
    void record_read(std::uint32_t wave, std::uint32_t w, std::uint64_t bits);
    void record_write(std::uint32_t wave, std::uint32_t w, std::uint64_t bits, bool had_conflict);
    void write_out_log();
};

}  // namespace dppgemm::emu::check
