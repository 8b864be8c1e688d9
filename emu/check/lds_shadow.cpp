#include "emu/check/lds_shadow.hpp"

#include <algorithm>

namespace dppgemm::emu::check {
namespace {

constexpr std::uint64_t bit_of(std::uint64_t unit) { return std::uint64_t{1} << (unit % 64); }

// inst_of[d] = inst for the units d of word w set in `bits`, a run of set
// bits at a time (bits are only set below the LDS size).
void store(std::vector<std::uint32_t>& inst_of, std::uint32_t w, std::uint64_t bits, std::uint32_t inst) {
    std::uint32_t* word_units = inst_of.data() + std::size_t(w) * 64;
    while (bits) {
        const unsigned first = static_cast<unsigned>(__builtin_ctzll(bits));
        const std::uint64_t from_first = bits >> first;
        const unsigned length = ~from_first == 0 ? 64 - first : static_cast<unsigned>(__builtin_ctzll(~from_first));
        std::fill_n(word_units + first, length, inst);
        bits = first + length >= 64 ? 0 : bits & (~0ull << (first + length));
    }
}

}  // namespace

void LdsShadow::reset(std::uint32_t bytes) {
    lds_bytes_ = bytes;
    units_ = (bytes + (1u << unit_shift_) - 1) >> unit_shift_;
    words_ = (units_ + 63) / 64;
    shared_.assign(words_, Shared{});
    access_.assign(words_, 0);
    written_.assign(std::size_t(waves_) * words_, 0);
    read_.assign(std::size_t(waves_) * words_, 0);
    // Valid only where a bitmap says so: no need to clear.
    write_inst_.resize(std::size_t(words_) * 64);
    read_inst_.resize(std::size_t(words_) * 64);
    epoch_range_.clear();
    write_range_.clear();
    access_range_.clear();
    drop_deferred();
    size_log();
}

// Room for log_limit words and one more access (at most words_ words, each
// its own entry at most): log_access writes the log out past log_limit.
void LdsShadow::size_log() {
    if (log_capacity_ < log_limit + words_) {
        log_capacity_ = log_limit + words_;
        log_.reset(new LoggedAccess[log_capacity_]);
        log_bits_.reset(new std::uint64_t[log_capacity_]);
    }
    log_size_ = log_bits_size_ = 0;
}

void LdsShadow::new_epoch() {
    if (!epoch_range_.empty()) {
        const std::uint32_t low = epoch_range_.low, high = std::min(epoch_range_.high, words_ - 1);
        for (std::uint32_t w = low; w <= high; ++w) shared_[w] = Shared{};
        for (std::uint32_t v = 0; v < waves_; ++v) {
            std::fill(&written(v, low), &written(v, high) + 1, 0);
            std::fill(&read(v, low), &read(v, high) + 1, 0);
        }
    }
    epoch_range_.clear();
    write_range_.clear();
    log_size_ = log_bits_size_ = 0;
    drop_deferred();
}

namespace {

// Each bit u of `from` (`from_words` words) as bits u * factor .. u * factor
// + factor - 1 of `to` (`to_words` words, cleared first).
void widen(const std::uint64_t* from, std::uint32_t from_words, std::uint64_t* to, std::uint32_t to_words,
           unsigned factor) {
    std::fill_n(to, to_words, 0);
    const std::uint64_t group = (std::uint64_t{1} << factor) - 1;
    for (std::uint32_t w = 0; w < from_words; ++w)
        for (std::uint64_t bits = from[w]; bits; bits &= bits - 1) {
            const std::uint64_t first = (std::uint64_t{w} * 64 + __builtin_ctzll(bits)) * factor;
            if (first / 64 < to_words) to[first / 64] |= group << (first % 64);
        }
}

}  // namespace

void LdsShadow::use_bytes() {
    record_deferred();  // in the units they were found in
    for (auto& p : patterns_)
        if (p) p->valid = false;
    if (unit_shift_ == 0) return;
    write_out_log();
    const unsigned factor = 1u << unit_shift_;
    const std::uint32_t old_words = words_, old_units = units_;
    unit_shift_ = 0;
    units_ = lds_bytes_;
    words_ = (units_ + 63) / 64;
    size_log();
    const auto widen_per_wave = [&](Words& state) {
        Words wide(std::size_t(waves_) * words_);
        for (std::uint32_t v = 0; v < waves_; ++v)
            widen(state.data() + std::size_t(v) * old_words, old_words, wide.data() + std::size_t(v) * words_, words_,
                  factor);
        state = std::move(wide);
    };
    widen_per_wave(written_);
    widen_per_wave(read_);
    std::vector<Shared> shared(words_);
    for (std::uint64_t Shared::*field : {&Shared::written_any, &Shared::read_any, &Shared::read_twice}) {
        Words from(old_words), to(words_);
        for (std::uint32_t w = 0; w < old_words; ++w) from[w] = shared_[w].*field;
        widen(from.data(), old_words, to.data(), words_, factor);
        for (std::uint32_t w = 0; w < words_; ++w) shared[w].*field = to[w];
    }
    shared_ = std::move(shared);
    for (std::vector<std::uint32_t>* inst_of : {&write_inst_, &read_inst_}) {
        std::vector<std::uint32_t> wide(std::size_t(words_) * 64);
        for (std::uint32_t u = 0; u < old_units; ++u)
            for (unsigned b = 0; b < factor && u * factor + b < wide.size(); ++b) wide[u * factor + b] = (*inst_of)[u];
        *inst_of = std::move(wide);
    }
    access_.assign(words_, 0);
    for (WordRange* range : {&epoch_range_, &write_range_})
        if (!range->empty()) {
            range->low *= factor;
            range->high = std::min(words_ - 1, range->high * factor + factor - 1);
        }
}

void LdsShadow::write_out_log() {
    for (std::size_t e = 0; e < log_size_; ++e) {
        const LoggedAccess& a = log_[e];
        for (std::uint32_t i = 0; i < a.words; ++i)
            store(a.write ? write_inst_ : read_inst_, a.first_word + i, log_bits_[a.bits_at + i], a.inst);
    }
    log_size_ = log_bits_size_ = 0;
}

void LdsShadow::add_waves(std::uint32_t wave) {
    waves_ = wave + 1;
    written_.resize(std::size_t(waves_) * words_, 0);
    read_.resize(std::size_t(waves_) * words_, 0);
}

// Clipped to the LDS (the executor faults on accesses past it before the
// observer sees them; flat-to-LDS lanes far past it become offsets past the
// end).
void LdsShadow::add(std::int64_t first, std::int64_t count) {
    if (first < 0 || first >= std::int64_t(units_)) return;
    const std::uint32_t end = static_cast<std::uint32_t>(std::min<std::int64_t>(first + count, units_));
    access_range_.add(static_cast<std::uint32_t>(first / 64), (end - 1) / 64);
    for (std::uint32_t d = static_cast<std::uint32_t>(first); d < end;) {
        const std::uint32_t take = std::min(64 - d % 64, end - d);
        access_[d / 64] |= (take == 64 ? ~0ull : ((std::uint64_t{1} << take) - 1)) << (d % 64);
        d += take;
    }
}

// Lanes in order, merging each lane's units into the run of units before
// when they continue it (consecutive elements: tile rows) or lie inside it
// (lanes sharing an address: broadcast reads), so that a typical access is
// one or a few ranges. Runs are relative to the origin's unit.
void LdsShadow::Pattern::collect(const MemoryAccess& a, unsigned unit_shift) {
    runs.clear();
    const unsigned lanes_to_merge = rows_repeat ? 16 : 64;
    const std::int64_t origin_unit = static_cast<std::int64_t>(origin >> unit_shift);
    std::int64_t run_first = 0, run_end = 0;  // empty
    for (unsigned l = 0; l < lanes_to_merge; ++l) {
        if (!((a.lanes >> l) & 1)) continue;
        for (unsigned el = 0; el < a.addresses_per_lane; ++el) {
            const std::int64_t first = static_cast<std::int64_t>(a.address_of(el, l) >> unit_shift) - origin_unit,
                               end = first + units;
            if (first == run_end) {
                run_end = end;
            } else if (first < run_first || end > run_end) {
                if (run_end > run_first) runs.push_back({run_first, run_end - run_first});
                run_first = first;
                run_end = end;
            }
        }
    }
    if (run_end > run_first) runs.push_back({run_first, run_end - run_first});
    span_first = runs.empty() ? 0 : runs[0].first;
    std::int64_t span_end = span_first;
    for (const Run& r : runs) {
        span_first = std::min(span_first, r.first);
        span_end = std::max(span_end, r.first + r.count);
    }
    span_units = static_cast<std::uint32_t>(span_end - span_first);
    span.assign((span_units + 63) / 64, 0);
    for (const Run& r : runs)
        for (std::int64_t d = r.first - span_first; d < r.first - span_first + r.count; ++d) span[d / 64] |= bit_of(d);
}

namespace {

std::uint64_t relative_address(const MemoryAccess& a, std::uint64_t origin, unsigned el, unsigned l) {
    return (a.address_of(el, l) - origin) & (0 - ((a.lanes >> l) & 1));
}

// Whether the active lanes' addresses relative to `origin` (0 for the
// others) are `relative`: for accesses without a pattern id (FLAT to LDS),
// or when the ids are not trusted (CheckOptions::compare_lds_patterns).
bool same_relative(const MemoryAccess& a, std::uint64_t origin, const std::uint64_t (*relative)[64]) {
    std::uint64_t differences = 0;
    for (unsigned el = 0; el < a.addresses_per_lane; ++el)
        for (unsigned l = 0; l < 64; ++l) differences |= relative_address(a, origin, el, l) ^ relative[el][l];
    return differences == 0;
}

}  // namespace

// Inline in check(): with the executor's pattern ids an access of a loop
// body repeats its instruction's pattern, and the test is a comparison.
[[gnu::always_inline]] inline LdsShadow::Pattern& LdsShadow::pattern(const MemoryAccess& a, std::uint32_t inst,
                                                                     bool use_pattern_id) {
    const std::uint64_t origin = a.lanes ? a.address_of(0, __builtin_ctzll(a.lanes)) : 0;
    // The executor's pattern id, where it gives one, says whether the access
    // repeats: comparing its 64 lanes' addresses was a third of the race
    // detector's time.
    if (use_pattern_id && a.pattern_id && inst < patterns_.size()) {
        Pattern* p = patterns_[inst].get();
        if (p && p->valid && p->pattern_id == a.pattern_id) {
            p->origin = origin;
            return *p;
        }
    }
    return new_pattern(a, inst, use_pattern_id, origin);
}

LdsShadow::Pattern& LdsShadow::new_pattern(const MemoryAccess& a, std::uint32_t inst, bool use_pattern_id,
                                           std::uint64_t origin) {
    if (patterns_.size() <= inst) patterns_.resize(inst + 1);
    if (!patterns_[inst]) patterns_[inst] = std::make_unique<Pattern>();
    Pattern& p = *patterns_[inst];
    // At least one: dword units stand for a smaller access only until the
    // caller sees it is one and asks for bytes.
    const std::uint32_t units = std::max<std::uint32_t>(1, a.bytes_per_lane >> unit_shift_);
    p.origin = origin;
    const bool same = use_pattern_id && a.pattern_id
                          ? p.valid && p.pattern_id == a.pattern_id
                          : p.valid && p.lanes == a.lanes && p.addresses_per_lane == a.addresses_per_lane &&
                                p.units == units && p.origin_byte_in_dword == origin % 4 &&
                                same_relative(a, origin, p.relative);
    if (same) return p;
    if (deferred_size_) record_deferred();  // they may use p
    p.valid = true;
    p.pattern_id = a.pattern_id;
    p.lanes = a.lanes;
    p.addresses_per_lane = a.addresses_per_lane;
    p.units = units;
    p.origin_byte_in_dword = origin % 4;
    p.relative_or = 0;
    for (unsigned el = 0; el < 2; ++el)
        for (unsigned l = 0; l < 64; ++l) {
            p.relative[el][l] = el < a.addresses_per_lane ? relative_address(a, origin, el, l) : 0;
            p.relative_or |= p.relative[el][l];
        }
    // A whole wave whose lanes 16..63 repeat lanes 0..15 (row broadcasts of
    // the micro kernels) has the outcome of its first 16 lanes.
    p.rows_repeat = a.lanes == ~0ull;
    for (unsigned el = 0; el < a.addresses_per_lane; ++el)
        for (unsigned l = 16; l < 64; ++l) p.rows_repeat &= a.address_of(el, l) == a.address_of(el, l % 16);
    p.collect(a, unit_shift_);
    return p;
}

// The conflict lane by lane, against the state before the access.
LdsConflict LdsShadow::describe(const MemoryAccess& a, unsigned lanes, std::uint32_t units, std::uint32_t wave) const {
    LdsConflict c;
    bool described = false;
    for (unsigned l = 0; l < lanes; ++l) {
        if (!((a.lanes >> l) & 1)) continue;
        for (unsigned el = 0; el < a.addresses_per_lane; ++el) {
            const std::uint64_t first = a.address_of(el, l) >> unit_shift_;
            for (std::uint64_t d = first; d < first + units && d < units_; ++d) {
                const std::uint32_t w = static_cast<std::uint32_t>(d / 64);
                if (!(conflicts(w, wave, a.write) & bit_of(d))) continue;
                c.lanes |= std::uint64_t{1} << l;
                if (described) continue;
                described = true;
                c.address = static_cast<std::uint32_t>(d << unit_shift_);
                c.other_wrote = (shared_[w].written_any & ~written(wave, w) & bit_of(d)) != 0;
                if (c.other_wrote) {
                    c.other_inst = write_inst_[d];
                    for (std::uint32_t v = 0; v < waves_; ++v)
                        if (written(v, w) & bit_of(d)) c.other_wave = v;
                } else {
                    c.other_inst = read_inst_[d];
                    c.other_wave = ~0u;
                    if (!(shared_[w].read_twice & bit_of(d)))
                        for (std::uint32_t v = 0; v < waves_; ++v)
                            if (read(v, w) & bit_of(d)) c.other_wave = v;
                }
            }
        }
    }
    return c;
}

void LdsShadow::record_write(std::uint32_t wave, std::uint32_t w, std::uint64_t bits, bool had_conflict) {
    // This wave is now the units' last writer. Other waves can only have
    // been before if the access conflicted.
    if (had_conflict)
        for (std::uint32_t v = 0; v < waves_; ++v)
            if (v != wave) written(v, w) &= ~bits;
    written(wave, w) |= bits;
    shared_[w].written_any |= bits;
    log_bits_[log_bits_size_++] = bits;
}

void LdsShadow::record_read(std::uint32_t wave, std::uint32_t w, std::uint64_t bits) {
    Shared& all = shared_[w];
    std::uint64_t& mine = read(wave, w);
    log_bits_[log_bits_size_++] = bits & ~all.read_any;  // the epoch's first reads
    all.read_twice |= bits & all.read_any & ~mine;
    mine |= bits;
    all.read_any |= bits;
}

[[gnu::always_inline]] inline void LdsShadow::log_access(std::uint32_t inst, bool write, std::uint32_t first_word,
                                                         std::uint32_t words) {
    // Bounds the log: long epochs write it out now and then.
    if (log_bits_size_ > log_limit) write_out_log();
    // Field by field: a braced temporary compiles to a wide load of
    // narrow stores, a store-forwarding stall that costs more than the rest.
    LoggedAccess& logged = log_[log_size_++];
    logged.inst = inst;
    logged.write = write;
    logged.first_word = first_word;
    logged.words = words;
    logged.bits_at = log_bits_size_;
    epoch_range_.add(first_word, first_word + words - 1);
    if (write) write_range_.add(first_word, first_word + words - 1);
}

void LdsShadow::record(std::uint32_t wave, std::uint32_t inst, bool write, bool had_conflict) {
    const WordRange r = access_range_;
    log_access(inst, write, r.low, r.high - r.low + 1);
    if (write)
        for (std::uint32_t w = r.low; w <= r.high; ++w) record_write(wave, w, access_[w], had_conflict);
    else
        for (std::uint32_t w = r.low; w <= r.high; ++w) record_read(wave, w, access_[w]);
}

// Word i takes the bits that word i - 1 shifts out (two steps: a shift by 64
// is undefined).
[[gnu::always_inline]] inline void LdsShadow::shift_span(const Pattern& p, std::uint32_t shift, std::uint32_t words,
                                                         std::uint64_t* bits) {
    std::uint64_t shifted_out = 0;
    const std::size_t span_words = p.span.size();
    for (std::uint32_t i = 0; i < words; ++i) {
        const std::uint64_t word = i < span_words ? p.span[i] : 0;
        bits[i] = word << shift | shifted_out;
        shifted_out = (word >> 1) >> (63 - shift);
    }
}

[[gnu::always_inline]] inline void LdsShadow::defer_read(const Pattern& p, std::uint32_t inst, std::uint32_t wave,
                                                         std::uint32_t first_word, std::uint32_t words,
                                                         std::uint32_t shift) {
    if (deferred_size_ == deferred_limit) record_deferred();
    DeferredRead& d = deferred_[deferred_size_++];
    d.pattern = &p;
    d.inst = inst;
    d.wave = wave;
    d.first_word = first_word;
    d.words = words;
    d.shift = shift;
    deferred_range_.add(first_word, first_word + words - 1);
}

// The common case (an access inside the LDS of at most local_words words,
// with no conflict) in one pass per step, on the stack: the access's words,
// their conflicts, and the record (a read's deferred). False, having changed
// nothing but recording the deferred reads, if the access is not that case.
[[gnu::always_inline]] inline bool LdsShadow::record_if_clean(const MemoryAccess& a, const Pattern& p,
                                                              std::uint32_t wave, std::uint32_t inst) {
    if (!a.lanes || wave >= waves_ || !p.span_units) return false;
    const std::int64_t start = static_cast<std::int64_t>(p.origin >> unit_shift_) + p.span_first;
    if (start < 0 || start + p.span_units > std::int64_t(units_)) return false;
    const std::uint32_t first_word = static_cast<std::uint32_t>(start) / 64,
                        shift = static_cast<std::uint32_t>(start) % 64;
    const std::uint32_t words = (static_cast<std::uint32_t>(start) + p.span_units - 1) / 64 - first_word + 1;
    if (words > local_words) return false;
    const std::uint32_t last_word = first_word + words - 1;
    std::uint64_t bits[local_words];
    // The span's bits (into `bits`) against what the other waves' accesses conflict with.
    const auto span_conflicts = [&](bool write) {
        shift_span(p, shift, words, bits);
        std::uint64_t conflicting = 0;
        for (std::uint32_t i = 0; i < words; ++i) conflicting |= bits[i] & conflicts(first_word + i, wave, write);
        return conflicting != 0;
    };
    if (!a.write) {
        // A read conflicts only with other waves' writes: none outside the
        // words written this epoch. Without a conflict it waits for a write.
        if (write_range_.overlaps(first_word, last_word) && span_conflicts(false)) return false;
        defer_read(p, inst, wave, first_word, words, shift);
        return true;
    }
    if (deferred_range_.overlaps(first_word, last_word)) record_deferred_before(first_word, last_word);
    if (span_conflicts(true)) return false;
    record_clean(wave, inst, true, first_word, words, bits);
    return true;
}

LdsConflict LdsShadow::access(const MemoryAccess& a, const Pattern& p, std::uint32_t wave, std::uint32_t inst) {
    LdsConflict c;
    if (!a.lanes) return c;
    ensure_wave(wave);
    const std::int64_t start = static_cast<std::int64_t>(p.origin >> unit_shift_) + p.span_first;
    if (start >= 0 && start + p.span_units <= std::int64_t(units_)) {  // inside the LDS: the span shifted in place
        const std::uint32_t first_word = static_cast<std::uint32_t>(start / 64), shift = start % 64;
        const std::uint32_t words = static_cast<std::uint32_t>((start + p.span_units - 1) / 64) - first_word + 1;
        for (std::size_t i = 0; i < p.span.size(); ++i) {
            access_[first_word + i] |= p.span[i] << shift;
            if (shift && first_word + i + 1 < access_.size()) access_[first_word + i + 1] |= p.span[i] >> (64 - shift);
        }
        access_range_ = WordRange{first_word, first_word + words - 1};
    } else {
        for (const Run& run : p.runs) add(static_cast<std::int64_t>(p.origin >> unit_shift_) + run.first, run.count);
    }
    const WordRange r = access_range_;
    if (r.empty()) return c;  // all past the LDS
    // Accesses of disjoint words commute: only the deferred reads of these
    // words must come first.
    if (deferred_range_.overlaps(r.low, r.high)) record_deferred_before(r.low, r.high);
    std::uint64_t conflicting = 0;
    for (std::uint32_t w = r.low; w <= r.high; ++w) conflicting |= access_[w] & conflicts(w, wave, a.write);
    if (conflicting) {
        write_out_log();
        c = describe(a, p.rows_repeat ? 16 : 64, p.units, wave);
        if (p.rows_repeat) c.lanes = (c.lanes & 0xffff) * 0x0001000100010001ull;
    }
    record(wave, inst, a.write, conflicting != 0);
    std::fill(access_.begin() + r.low, access_.begin() + r.high + 1, 0);
    access_range_.clear();
    return c;
}

// record() for an access without conflicts, its words given.
[[gnu::always_inline]] inline void LdsShadow::record_clean(std::uint32_t wave, std::uint32_t inst, bool write,
                                                           std::uint32_t first_word, std::uint32_t words,
                                                           const std::uint64_t* bits) {
    std::uint64_t* mine = (write ? written_.data() : read_.data()) + std::size_t(wave) * words_ + first_word;
    Shared* all = shared_.data() + first_word;
    if (write) {
        log_access(inst, write, first_word, words);
        // Without a conflict no other wave was the units' last writer.
        std::uint64_t* logged = log_bits_.get() + log_bits_size_;
        log_bits_size_ += words;
        for (std::uint32_t i = 0; i < words; ++i) {
            mine[i] |= bits[i];
            all[i].written_any |= bits[i];
            logged[i] = bits[i];
        }
        return;
    }
    std::uint64_t first_reads[local_words], any_first = 0;  // the epoch's first reads
    for (std::uint32_t i = 0; i < words; ++i) {
        first_reads[i] = bits[i] & ~all[i].read_any;
        any_first |= first_reads[i];
        all[i].read_twice |= bits[i] & all[i].read_any & ~mine[i];
        mine[i] |= bits[i];
        all[i].read_any |= bits[i];
    }
    // Without first reads there is nothing to log, and the epoch already
    // spans these words: an earlier access read every unit set here.
    if (!any_first) return;
    log_access(inst, write, first_word, words);
    std::uint64_t* logged = log_bits_.get() + log_bits_size_;
    log_bits_size_ += words;
    for (std::uint32_t i = 0; i < words; ++i) logged[i] = first_reads[i];
}

void LdsShadow::record_deferred() {
    for (std::size_t r = 0; r < deferred_size_; ++r) {
        const DeferredRead& d = deferred_[r];
        std::uint64_t bits[local_words];
        shift_span(*d.pattern, d.shift, d.words, bits);
        record_clean(d.wave, d.inst, false, d.first_word, d.words, bits);
    }
    drop_deferred();
}

void LdsShadow::record_deferred_before(std::uint32_t first_word, std::uint32_t last_word) {
    // Backward: a read must be recorded when it overlaps the access or a
    // later read that is (their words as one range: more, never fewer).
    std::uint64_t chosen[deferred_limit / 64] = {};
    WordRange after{first_word, last_word};
    for (std::size_t r = deferred_size_; r-- > 0;) {
        const DeferredRead& d = deferred_[r];
        const std::uint32_t last = d.first_word + d.words - 1;
        if (!after.overlaps(d.first_word, last)) continue;
        chosen[r / 64] |= std::uint64_t{1} << (r % 64);
        after.add(d.first_word, last);
    }
    // Forward: those recorded, the others kept in order.
    std::size_t kept = 0;
    WordRange kept_range;
    for (std::size_t r = 0; r < deferred_size_; ++r) {
        const DeferredRead d = deferred_[r];
        if ((chosen[r / 64] >> (r % 64)) & 1) {
            std::uint64_t bits[local_words];
            shift_span(*d.pattern, d.shift, d.words, bits);
            record_clean(d.wave, d.inst, false, d.first_word, d.words, bits);
        } else {
            deferred_[kept++] = d;
            kept_range.add(d.first_word, d.first_word + d.words - 1);
        }
    }
    deferred_size_ = kept;
    deferred_range_ = kept_range;
}

LdsConflict LdsShadow::check(const MemoryAccess& a, std::uint32_t inst, std::uint32_t wave, bool use_pattern_id) {
    const Pattern* p = &pattern(a, inst, use_pattern_id);
    if (!in_bytes() && !whole_dwords(a, p->origin, p->relative_or)) {
        use_bytes();
        p = &pattern(a, inst, use_pattern_id);
    }
    if (record_if_clean(a, *p, wave, inst)) return LdsConflict{};
    return access(a, *p, wave, inst);
}

}  // namespace dppgemm::emu::check
