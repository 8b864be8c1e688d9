#pragma once
// Per-workgroup LDS shadow for the race detector. Within one barrier
// interval ("epoch": between two s_barrier releases), two waves touching the
// same byte, at least one of them writing, is a race: nothing orders them.
// Atomics are not races.
//
// The state is bitmaps over LDS units, per wave and epoch: the units the
// wave wrote last and those it read, and their unions. A unit is a dword
// while every access so far covered whole, aligned dwords (then a dword
// stands for its four bytes exactly), and a byte from the first access that
// does not (use_bytes() widens the state). Why not bytes always: a 64-lane
// ds_read_b128 is 16 bitmap words in bytes, 4 in dwords, and bytes
// throughout made a checked SGEMM about 25 % slower (docs/checkers.md). Why
// bitmaps: a per-dword, per-lane shadow costs a quarter of a checked SGEMM's
// time; an instruction's lanes usually cover a contiguous range (16 or 64
// lanes of consecutive elements), which is a few 64-bit words here, tested
// and updated word by word. Only an access that conflicts
// goes through its lanes one by one, to report them: the lanes whose units
// conflict with what other waves did earlier in the epoch, and the first
// such unit (lanes in order, then elements) with the other wave and
// instruction.

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "emu/exec/observer.hpp"

namespace dppgemm::emu::check {

struct LdsConflict {
    std::uint64_t lanes = 0;       // lanes of the current access that conflict
    std::uint32_t address = 0;     // first conflicting unit's byte address
    std::uint32_t other_inst = 0;  // the other wave's instruction
    std::uint32_t other_wave = 0;  // ~0u: several other waves (read by two or more)
    bool other_wrote = false;
    bool any() const { return lanes != 0; }
};

// Words [low, high] of the LDS bitmaps; empty while low > high. Why one
// type: the epoch's, the writes' and the deferred reads' ranges (and the
// current access's) grow and are tested alike.
struct WordRange {
    std::uint32_t low = ~0u, high = 0;
    bool empty() const { return low > high; }
    // Widened to cover words [first, last].
    void add(std::uint32_t first, std::uint32_t last) {
        low = std::min(low, first);
        high = std::max(high, last);
    }
    // Whether words [first, last] (first <= last) share one with the range.
    bool overlaps(std::uint32_t first, std::uint32_t last) const { return first <= high && last >= low; }
    void clear() { *this = WordRange{}; }
};

class LdsShadow {
public:
    void reset(std::uint32_t bytes);
    // Units are bytes from now on (kept by later reset()s); the state of
    // the epoch so far is widened. The patterns must be asked for again.
    void use_bytes();
    bool in_bytes() const { return unit_shift_ == 0; }
    // Whether dword units describe the access exactly: whole dwords, aligned.
    static bool whole_dwords(const MemoryAccess& a, std::uint64_t origin, std::uint64_t relative_or) {
        return a.bytes_per_lane % 4 == 0 && ((origin | relative_or) & 3) == 0;
    }
    // An s_barrier released every wave: a new epoch.
    void new_epoch();
    // An access's lane addresses relative to its first active lane's (the
    // origin), and the units they cover, kept per instruction. Why: a loop
    // body's ds instruction repeats its pattern at another base (the next k,
    // the other stage), and comparing it is one vectorized pass where
    // merging lanes into unit ranges goes lane by lane.
    struct Run {
        std::int64_t first;  // units from the origin's
        std::int64_t count;
    };
    struct Pattern {
        bool valid = false;
        std::uint64_t pattern_id = 0;  // MemoryAccess::pattern_id of the access it was made from
        std::uint64_t lanes = 0;
        unsigned addresses_per_lane = 0;
        std::uint32_t units = 0, origin_byte_in_dword = 0;  // units per lane and element
        std::uint64_t relative[2][64] = {};
        bool rows_repeat = false;       // lanes 16..63 repeat lanes 0..15
        std::uint64_t relative_or = 0;  // of every relative address
        std::vector<Run> runs;
        // The runs as a bitmap: bit i is unit span_first + i from the origin's.
        std::int64_t span_first = 0;
        std::uint32_t span_units = 0;
        std::vector<std::uint64_t> span;
        std::uint64_t origin = 0;  // of the access the pattern was last asked for
        void collect(const MemoryAccess& a, unsigned unit_shift);
    };
    // Checks and records an access of `wave` by instruction `inst` (its
    // pattern, widening the units to bytes first if dwords do not describe
    // it); returns its conflicts. Whether the pattern repeats: the
    // executor's MemoryAccess::pattern_id says so if it gives one and
    // use_pattern_id; else the lanes' addresses are compared.
    LdsConflict check(const MemoryAccess& a, std::uint32_t inst, std::uint32_t wave, bool use_pattern_id);

private:
    using Words = std::vector<std::uint64_t>;
    unsigned unit_shift_ = 2;  // log2 of a unit's bytes
    std::uint32_t lds_bytes_ = 0, units_ = 0, words_ = 0, waves_ = 0;
    // This epoch. Per wave (word w of wave v at v * words_ + w): the units
    // whose last writer it is, and the units it read. The writers' sets are
    // disjoint. Per word, for all waves: their unions, and the units read
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
    // Per unit: the epoch's last write and first read, for describing a
    // conflict. Kept lazily: an access appends the instruction and its words
    // (for a read, only the units the epoch had not read) to a log, written
    // out to these only before a conflict is described or when the log grows
    // long. Why: most epochs end without a conflict, and writing an
    // instruction per unit was a third of the race detector's time.
    std::vector<std::uint32_t> write_inst_, read_inst_;
    struct LoggedAccess {
        std::uint32_t inst;
        bool write;
        std::uint32_t first_word, words;  // the words are log_bits_[bits_at .. bits_at + words)
        std::size_t bits_at;
    };
    // Sized once (size_log), filled up to log_size_ and log_bits_size_.
    static constexpr std::size_t log_limit = 1 << 14;
    // Uninitialized arrays: only what the sizes cover is read.
    std::unique_ptr<LoggedAccess[]> log_;
    std::unique_ptr<std::uint64_t[]> log_bits_;
    std::size_t log_capacity_ = 0, log_size_ = 0, log_bits_size_ = 0;
    void size_log();
    WordRange epoch_range_;  // words touched this epoch
    WordRange write_range_;  // words written this epoch
    // The current access's units, words access_range_.
    Words access_;
    WordRange access_range_;

    std::vector<std::unique_ptr<Pattern>> patterns_;  // by instruction, kept across workgroups

    // The access's pattern (the instruction's last one when it repeats).
    Pattern& pattern(const MemoryAccess& a, std::uint32_t inst, bool use_pattern_id);
    Pattern& new_pattern(const MemoryAccess& a, std::uint32_t inst, bool use_pattern_id, std::uint64_t origin);
    bool record_if_clean(const MemoryAccess& a, const Pattern& p, std::uint32_t wave, std::uint32_t inst);
    LdsConflict access(const MemoryAccess& a, const Pattern& p, std::uint32_t wave, std::uint32_t inst);

    void ensure_wave(std::uint32_t wave) {
        if (wave >= waves_) add_waves(wave);
    }
    void add_waves(std::uint32_t wave);
    void add(std::int64_t first_unit, std::int64_t count);
    // Units of word w another wave makes this access conflict with.
    std::uint64_t conflicts(std::uint32_t w, std::uint32_t wave, bool write) const {
        const Shared& all = shared_[w];
        const std::uint64_t others_wrote = all.written_any & ~written(wave, w);
        if (!write) return others_wrote;
        return others_wrote | (all.read_any & ~read(wave, w)) | all.read_twice;
    }
    LdsConflict describe(const MemoryAccess& a, unsigned lanes, std::uint32_t units, std::uint32_t wave) const;
    // Opens the log entry of an access of words [first_word, first_word +
    // words) and widens the epoch's range to them; record and record_clean
    // then log the access's bits.
    void log_access(std::uint32_t inst, bool write, std::uint32_t first_word, std::uint32_t words);
    void record(std::uint32_t wave, std::uint32_t inst, bool write, bool had_conflict);
    // Accesses of at most this many words go through access() in one pass on
    // the stack (a 64-lane ds_read_b128 in dwords is 4 or 5).
    static constexpr std::uint32_t local_words = 16;
    void record_clean(std::uint32_t wave, std::uint32_t inst, bool write, std::uint32_t first_word, std::uint32_t words,
                      const std::uint64_t* bits);
    void record_read(std::uint32_t wave, std::uint32_t w, std::uint64_t bits);
    // The span of pattern p shifted left by `shift` into bits[0 .. words).
    static void shift_span(const Pattern& p, std::uint32_t shift, std::uint32_t words, std::uint64_t* bits);
    // Clean reads not recorded yet, in order. A read matters to later
    // accesses only through a write that overlaps it (a read conflicts only
    // with other waves' writes, tested at once), and an epoch of reads only
    // (the SGEMM kernels' compute phase) ends without one: its reads are
    // dropped unrecorded. Recorded, in order, before a write (or a read
    // that goes the general way) touching their words (those and the
    // earlier ones overlapping them: record_deferred_before), and all
    // before a pattern changes; accesses of disjoint words commute, so
    // the state any test or description reads is the one recording each
    // read at once would give.
    struct DeferredRead {
        const Pattern* pattern;
        std::uint32_t inst, wave, first_word, words, shift;
    };
    static constexpr std::size_t deferred_limit = 1024;
    std::unique_ptr<DeferredRead[]> deferred_{new DeferredRead[deferred_limit]};
    std::size_t deferred_size_ = 0;
    WordRange deferred_range_;  // words the deferred reads touch
    void defer_read(const Pattern& p, std::uint32_t inst, std::uint32_t wave, std::uint32_t first_word,
                    std::uint32_t words, std::uint32_t shift);
    void record_deferred();
    // Records the deferred reads an access of words [first_word, last_word]
    // must come after: those of these words, and each earlier one of words
    // such a read touches (reads of one unit in another order would log
    // another first reader); the others stay deferred, in order. Why not
    // all: a dpp2_64_denorm write overlaps one of the ten or so reads
    // deferred before it, and recording all of them was 1.4 M of its
    // checked launch's 72 M host instructions (callgrind 256^3).
    void record_deferred_before(std::uint32_t first_word, std::uint32_t last_word);
    void drop_deferred() {
        deferred_size_ = 0;
        deferred_range_.clear();
    }
    void record_write(std::uint32_t wave, std::uint32_t w, std::uint64_t bits, bool had_conflict);
    void write_out_log();
};

}  // namespace dppgemm::emu::check
