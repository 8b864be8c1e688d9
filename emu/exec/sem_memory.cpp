// Vector memory: MUBUF (buffer), GLOBAL and FLAT loads, stores and atomics.
// The data format (width, sign extension, d16 halves) comes from the op
// table's columns (op_semantics.txt); the addressing from the encoding. Loads read
// memory at issue and land in registers at the s_waitcnt that retires them
// (see counter_queue.cpp); stores write at issue. Each lane's access is one
// single-copy access of its bytes (single_copy.hpp): other workgroups, on
// other host threads, never see half of a lane's dwordx2.

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <type_traits>

#include "emu/exec/apertures.hpp"
#include "emu/exec/image_descriptors.hpp"
#include "emu/exec/memory_model.hpp"
#include "emu/exec/semantics.hpp"
#include "emu/exec/single_copy.hpp"
#include "emu/exec/weak_memory.hpp"
#include "emu/util.hpp"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace dppgemm::emu::sem {
namespace {

// How the bytes of one lane map to registers.
struct Format {
    std::uint8_t bytes = 4;   // per dword slot: 1, 2 or 4
    std::uint8_t dwords = 1;  // register count
    bool sign = false;        // sign-extend sub-dword loads
    bool hi = false;          // d16_hi: the high half of the register
    bool d16 = false;         // d16: only one half of the register changes
};

std::array<Format, op_count>& formats() {
    static std::array<Format, op_count> table{};
    return table;
}

Format format_of(const OpInfo& info) {
    Format f;
    f.bytes = std::uint8_t(std::min<unsigned>(info.access_bytes, 4));
    f.dwords = std::uint8_t(info.access_bytes <= 4 ? 1 : info.access_bytes / 4);
    f.sign = info.has(OF_SIGN);
    f.d16 = info.has(OF_D16);
    f.hi = info.has(OF_HIGH_HALF);
    return f;
}

// Where one lane's access goes.
struct LaneTarget {
    std::uint8_t* host = nullptr;  // nullptr: out of range (buffer) -> read 0 / drop
};

struct BufferAddressing {
    BufferResource resource;
    u32 soffset;
};

// Per-lane base address (global/flat), (index, offset) (buffer) or private
// offset (scratch), then per-dword translation. Faults outside any allocation.
class LaneAddresser {
public:
    LaneAddresser(Wave& w, const ExecInst& e) : w_(w), e_(e) {
        const Family family = e.inst->info().family;
        buffer_ = family == Family::MUBUF;
        flat_ = family == Family::FLAT;
        scratch_ = family == Family::SCRATCH;
        if (buffer_) {
            u32 words[4];
            for (unsigned i = 0; i < 4; ++i) words[i] = w.sreg[e.src[2].index + i];
            resource_ = BufferResource::from_sgprs(words);
            soffset_ = read32(w, e.soffset);
        } else if (scratch_) {
            // gfx9: one of vaddr and saddr (a 32-bit offset); gfx940: their sum.
            if (e.soffset.kind != Src::Kind::none) soffset_ = read32(w, e.soffset);
        } else if (e.soffset.kind != Src::Kind::none) {
            saddr_ = read64(w, e.soffset);
            has_saddr_ = true;
        }
    }

    // Host bytes of `width` bytes at byte `byte_offset` of lane l's access;
    // nullptr when a buffer range check drops it.
    std::uint8_t* at(unsigned l, u32 byte_offset, u32 width, u64* address_out) {
        const Inst& inst = *e_.inst;
        u64 address;
        last_shared_ = false;
        bool private_segment = scratch_ || (buffer_ && resource_.add_tid);
        if (buffer_) {
            u64 index = 0, offset = u64(inst.offset) + byte_offset;
            const u32* vaddr = e_.src[0].kind == Src::Kind::vgpr ? w_.v[e_.src[0].index] : nullptr;
            if (inst.idxen) index = vaddr[l];
            if (inst.offen) offset += inst.idxen ? w_.v[e_.src[0].index + 1][l] : vaddr[l];
            if (resource_.add_tid) index += l;
            *address_out = resource_.address(index, offset, soffset_);
            if (resource_.range_checked(inst.idxen) && !resource_.in_range(inst.idxen, index, offset)) return nullptr;
            address = *address_out;
        } else if (scratch_) {
            u32 offset = soffset_ + u32(inst.offset) + byte_offset;
            if (e_.src[0].kind == Src::Kind::vgpr) offset += w_.v[e_.src[0].index][l];
            address = private_address(l, offset, width);
            *address_out = address;
        } else {
            if (has_saddr_) address = saddr_ + w_.v[e_.src[0].index][l];
            else address = u64(w_.v[e_.src[0].index][l]) | (u64(w_.v[e_.src[0].index + 1][l]) << 32);
            address += u64(i64(inst.offset)) + byte_offset;
            *address_out = address;
            if (flat_ && address - shared_aperture_base < aperture_size) {
                std::uint8_t* lds = w_.group->lds.at(address - shared_aperture_base, width);
                if (!lds)
                    fault_at(FaultKind::lds_out_of_range, "flat access to LDS outside the workgroup's allocation",
                             address);
                return lds;
            }
            if (flat_ && address - private_aperture_base < aperture_size) {
                address = private_address(l, u32(address - private_aperture_base), width);
                *address_out = address;
                private_segment = true;
            }
        }
        std::uint8_t* host = w_.group->translator.translate(address, width);
        if (!host) fault_at(FaultKind::global_out_of_bounds, "memory access outside any allocation", address);
        last_shared_ = !private_segment;
        return host;
    }
    // Whether the last at() reached memory other workgroups share (global
    // memory; not LDS, not the work-item's private segment).
    bool last_shared() const { return last_shared_; }

private:
    // Where byte `offset` of lane l's private segment lives: FLAT_SCRATCH
    // (the wave's scratch base, which a gfx9 prologue sets from flat scratch
    // init + the wave offset and gfx940 hardware sets itself; on GCN3 the
    // hidden private base + FLAT_SCRATCH_HI * 256, the prologue's wave offset) plus the
    // swizzle of the private segment buffer (dispatch.cpp), so that buffer,
    // scratch and flat accesses to one private address meet.
    u64 private_address(unsigned l, u32 offset, u32 width) const {
        const u32 size = w_.group->env->private_segment_size;
        if (size == 0)
            fail(FaultKind::scratch_without_allocation,
                 "scratch access, but the kernel has no private segment (private_segment_fixed_size 0)");
        const DispatchEnv& env = *w_.group->env;
        const u64 wave_base = has(env.program->target, Feature::gfx9_insts)
                                  ? w_.read64(sreg_flat_scratch)
                                  : env.hidden_private_base + (u64(w_.sreg[sreg_flat_scratch + 1]) << 8);
        const u64 address =
            wave_base + swizzled_offset(l, offset, 0, private_index_stride, BufferResource::element_size);
        if (u64(offset) + width > size)
            fault_at(FaultKind::scratch_out_of_segment,
                     "scratch access past the work-item's " + std::to_string(size) + "-byte private segment", address);
        return address;
    }

    Wave& w_;
    const ExecInst& e_;
    bool buffer_ = false, flat_ = false, scratch_ = false, has_saddr_ = false, last_shared_ = false;
    BufferResource resource_;
    u32 soffset_ = 0;
    u64 saddr_ = 0;
};

u32 load_value(const std::uint8_t* host, const Format& f) {
    if (!host) return 0;
    if (f.bytes == 4) {
        u32 v;
        load_single_copy(&v, host, 4);
        return v;
    }
    if (f.bytes == 2) {
        std::uint16_t v;
        load_single_copy(&v, host, 2);
        return f.sign ? u32(std::int32_t(std::int16_t(v))) : v;
    }
    std::uint8_t v;
    load_single_copy(&v, host, 1);
    return f.sign ? u32(std::int32_t(std::int8_t(v))) : v;
}

// Host bytes of lane l's whole access when its dwords are contiguous in one
// allocation and all in range (then one single-copy access carries them, as
// the GPU carries an aligned dwordx2 in one piece); nullptr otherwise.
std::uint8_t* whole_lane(std::uint8_t* const host[4], unsigned dwords) {
    if (dwords < 2 || !host[0]) return nullptr;
    for (unsigned d = 1; d < dwords; ++d)
        if (host[d] != host[0] + 4 * d) return nullptr;
    return host[0];
}

// The workgroup's MemoryAccess, reset for a global access, when an observer
// wants global accesses; nullptr otherwise.
MemoryAccess* observed_global_access(Wave& w, bool write, u64 lanes, u32 bytes_per_lane) {
    if (!w.group->observe_global_memory) return nullptr;
    MemoryAccess& access = w.group->observed_access;
    access.begin(MemoryAccess::Space::global, write, lanes, bytes_per_lane);
    return &access;
}

// FLAT lanes whose address lies in the shared aperture reach LDS (this is how
// -O0 code accesses __shared__ variables): an observer sees them as an LDS
// access of those lanes at their LDS offsets, as it sees ds_* accesses.
class FlatLdsLanes {
public:
    FlatLdsLanes(const Wave& w, const ExecInst& e)
        : enabled_(w.group->observer && e.inst->info().family == Family::FLAT) {}
    void note(unsigned l, u64 address) {
        if (!enabled_ || address - shared_aperture_base >= aperture_size) return;
        lanes_ |= u64{1} << l;
        offset_[l] = address - shared_aperture_base;
    }
    void report(Wave& w, const ExecInst& e, bool write, u32 bytes_per_lane) const {
        if (!lanes_) return;
        MemoryAccess& a = w.group->observed_access;
        a.begin(MemoryAccess::Space::lds, write, lanes_, bytes_per_lane);
        for (unsigned l = 0; l < 64; ++l) {
            a.address[0][l] = ((lanes_ >> l) & 1) ? offset_[l] : 0;
            a.address[1][l] = 0;
        }
        w.group->observer->memory_access(w, e, a);
    }

private:
    bool enabled_;
    u64 lanes_ = 0;
    u64 offset_[64];
};

// ---- the fast path: dword accesses of raw buffers and global memory -------
//
// The forms compiled GEMM and HIP code use, resolved for 64 lanes at once:
// one address per lane, the buffer range rule as a lane mask per dword, and
// one allocation lookup for the whole span. Anything else, an observer of
// global memory, or a span that is not inside one allocation takes the
// lane-by-lane path (which also produces the faults), so both give the same
// results.
//
// A raw buffer's lanes keep their 32-bit offsets (address first + offsets[l])
// instead of 64 formed addresses: the host byte of a lane is then one add
// from a base. Forming the addresses, and testing every lane where all are
// in range, was about a quarter of a buffer_load_dword (callgrind, 256^3
// dpp0_32_denorm).
struct DwordLanes {
    u64 address[64];               // each lane's first dword, without offsets
    const u32* offsets = nullptr;  // or first + offsets[l]
    u64 first = 0;
    u64 in_range[4] = {};             // per dword: the lanes the buffer range rule keeps
    u64 lowest = ~0ull, highest = 0;  // of the addresses, over every lane
    u64 any_bits = 0;                 // the addresses ORed over every lane: their common alignment
    // With offsets: those of LaneOffsetSpread.
    u64 runs_of_four = 0;
    u32 run_start_bits = 0;
    AccessMemo* memo = nullptr;  // of this instruction and wave

    void set(unsigned lane, u64 value) {
        address[lane] = value;
        lowest = std::min(lowest, value);
        highest = std::max(highest, value);
        any_bits |= value;
    }
    u64 at(unsigned lane) const { return offsets ? first + offsets[lane] : address[lane]; }
    // Host bytes of each lane's first dword, given those of address `lowest`:
    // F(lane, bytes) for the lanes of `lanes`, the loop without a test when
    // all are set (the usual case).
    template <class Byte, class F>
    void each_lane(Byte* host, u64 lowest, u64 lanes, F f) const {
        if (offsets) {
            Byte* const base = host + (first - lowest);
            const u32* const v = offsets;
            if (lanes == ~0ull)
                for (unsigned l = 0; l < 64; ++l) f(l, base + v[l]);
            else
                for (unsigned l = 0; l < 64; ++l)
                    if ((lanes >> l) & 1) f(l, base + v[l]);
        } else {
            if (lanes == ~0ull)
                for (unsigned l = 0; l < 64; ++l) f(l, host + (address[l] - lowest));
            else
                for (unsigned l = 0; l < 64; ++l)
                    if ((lanes >> l) & 1) f(l, host + (address[l] - lowest));
        }
    }
};

inline unsigned lane_count(u64 lanes) { return lanes == ~0ull ? 64 : unsigned(__builtin_popcountll(lanes)); }

// The lanes whose 32-bit value is below `limit` (0 .. 2^32), as a mask.
u64 lanes_below(const u32* v, u64 limit) {
    if (limit > 0xffffffffull) return ~0ull;
    u64 mask = 0;
#if defined(__SSE2__)
    // Unsigned compare as signed after flipping the sign bits, 4 lanes a step.
    const __m128i flip = _mm_set1_epi32(int(0x80000000u));
    const __m128i bound = _mm_xor_si128(_mm_set1_epi32(int(u32(limit))), flip);
    for (unsigned l = 0; l < 64; l += 4) {
        const __m128i x = _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(v + l)), flip);
        mask |= u64(unsigned(_mm_movemask_ps(_mm_castsi128_ps(_mm_cmplt_epi32(x, bound))))) << l;
    }
#else
    for (unsigned l = 0; l < 64; ++l) mask |= u64(v[l] < limit) << l;
#endif
    return mask;
}

// Bit 4q set when bits 4q .. 4q+3 of `lanes` all are.
inline u64 whole_fours(u64 lanes) { return lanes & (lanes >> 1) & (lanes >> 2) & (lanes >> 3) & 0x1111111111111111ull; }

LaneOffsetSpread offset_spread_plain(const u32* v) {
    LaneOffsetSpread s;
    u64 consecutive = 0;
#if defined(__SSE2__)
    // 4 lanes a step (the scalar loop, unrolled, costs about 620 host
    // instructions per access; callgrind, 16^3 SGEMM through the BLAS).
    // Unsigned min and max as signed ones after flipping the sign bits.
    const __m128i flip = _mm_set1_epi32(int(0x80000000u)), zero = _mm_setzero_si128();
    const __m128i run = _mm_setr_epi32(0, 4, 8, 12);
    __m128i low4 = _mm_set1_epi32(0x7fffffff), high4 = flip, bits4 = zero;  // flipped ~0u, flipped 0
    for (unsigned l = 0; l < 64; l += 4) {
        const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(v + l));
        const __m128i f = _mm_xor_si128(x, flip);
        const __m128i below = _mm_cmplt_epi32(f, low4), above = _mm_cmpgt_epi32(f, high4);
        low4 = _mm_or_si128(_mm_and_si128(below, f), _mm_andnot_si128(below, low4));
        high4 = _mm_or_si128(_mm_and_si128(above, f), _mm_andnot_si128(above, high4));
        bits4 = _mm_or_si128(bits4, x);
        s.run_start_bits |= v[l];
        const __m128i next = _mm_cmpeq_epi32(x, _mm_add_epi32(_mm_shuffle_epi32(x, 0), run));
        consecutive |= u64(unsigned(_mm_movemask_ps(_mm_castsi128_ps(next)))) << l;
    }
    alignas(16) u32 lows[4], highs[4], ors[4];
    _mm_store_si128(reinterpret_cast<__m128i*>(lows), _mm_xor_si128(low4, flip));
    _mm_store_si128(reinterpret_cast<__m128i*>(highs), _mm_xor_si128(high4, flip));
    _mm_store_si128(reinterpret_cast<__m128i*>(ors), bits4);
    for (unsigned i = 0; i < 4; ++i) {
        s.low = std::min(s.low, lows[i]);
        s.high = std::max(s.high, highs[i]);
        s.bits |= ors[i];
    }
#else
    for (unsigned l = 0; l < 64; ++l) {
        s.low = std::min(s.low, v[l]);
        s.high = std::max(s.high, v[l]);
        s.bits |= v[l];
        if (l % 4 == 0) s.run_start_bits |= v[l];
        consecutive |= u64(v[l] == v[l & ~3u] + 4 * (l & 3)) << l;
    }
#endif
    s.runs_of_four = whole_fours(consecutive);
    return s;
}

#if defined(__x86_64__) && defined(__GNUC__)
// The same, 8 lanes a step with unsigned min and max (about a sixth of the
// SSE2 loop's host instructions).
__attribute__((target("avx2"))) LaneOffsetSpread offset_spread_avx2(const u32* v) {
    __m256i low = _mm256_set1_epi32(-1), high = _mm256_setzero_si256(), bits = _mm256_setzero_si256();
    __m256i starts = _mm256_setzero_si256();
    const __m256i run = _mm256_setr_epi32(0, 4, 8, 12, 0, 4, 8, 12);
    const __m256i run_start = _mm256_setr_epi32(-1, 0, 0, 0, -1, 0, 0, 0);
    u64 consecutive = 0;
    for (unsigned l = 0; l < 64; l += 8) {
        const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(v + l));
        low = _mm256_min_epu32(low, x);
        high = _mm256_max_epu32(high, x);
        bits = _mm256_or_si256(bits, x);
        starts = _mm256_or_si256(starts, _mm256_and_si256(x, run_start));
        const __m256i next = _mm256_cmpeq_epi32(x, _mm256_add_epi32(_mm256_shuffle_epi32(x, 0), run));
        consecutive |= u64(unsigned(_mm256_movemask_ps(_mm256_castsi256_ps(next)))) << l;
    }
    __m128i low4 = _mm_min_epu32(_mm256_castsi256_si128(low), _mm256_extracti128_si256(low, 1));
    __m128i high4 = _mm_max_epu32(_mm256_castsi256_si128(high), _mm256_extracti128_si256(high, 1));
    __m128i bits4 = _mm_or_si128(_mm256_castsi256_si128(bits), _mm256_extracti128_si256(bits, 1));
    low4 = _mm_min_epu32(low4, _mm_shuffle_epi32(low4, 0x4e));
    high4 = _mm_max_epu32(high4, _mm_shuffle_epi32(high4, 0x4e));
    bits4 = _mm_or_si128(bits4, _mm_shuffle_epi32(bits4, 0x4e));
    low4 = _mm_min_epu32(low4, _mm_shuffle_epi32(low4, 0xb1));
    high4 = _mm_max_epu32(high4, _mm_shuffle_epi32(high4, 0xb1));
    bits4 = _mm_or_si128(bits4, _mm_shuffle_epi32(bits4, 0xb1));
    // Only elements 0 and 4 of `starts` are set.
    const __m128i starts4 = _mm_or_si128(_mm256_castsi256_si128(starts), _mm256_extracti128_si256(starts, 1));
    LaneOffsetSpread s;
    s.run_start_bits = u32(_mm_cvtsi128_si32(starts4));
    s.low = u32(_mm_cvtsi128_si32(low4));
    s.high = u32(_mm_cvtsi128_si32(high4));
    s.bits = u32(_mm_cvtsi128_si32(bits4));
    s.runs_of_four = whole_fours(consecutive);
    return s;
}

// offset_spread_avx2 of offsets `v`, or the memo's spread when it holds the
// same offsets: a GEMM kernel's load loop reads its operands at offsets that
// stay the same from trip to trip (the descriptor's base moves instead).
// 256^3 dpp0_32 (callgrind): 43 host instructions per buffer access instead
// of the spread's 127 (6% of the accesses miss), 679 -> 607 per buffer_load_dword.
__attribute__((target("avx2"))) LaneOffsetSpread memo_spread_avx2(const u32* v, AccessMemo& memo) {
    if (memo.has_offsets) {
        __m256i differ = _mm256_setzero_si256();
        for (unsigned l = 0; l < 64; l += 8)
            differ = _mm256_or_si256(
                differ, _mm256_xor_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(v + l)),
                                         _mm256_load_si256(reinterpret_cast<const __m256i*>(memo.offsets + l))));
        if (_mm256_testz_si256(differ, differ)) return memo.spread;
    }
    memo.spread = offset_spread_avx2(v);
    for (unsigned l = 0; l < 64; l += 8)
        _mm256_store_si256(reinterpret_cast<__m256i*>(memo.offsets + l),
                           _mm256_loadu_si256(reinterpret_cast<const __m256i*>(v + l)));
    memo.has_offsets = true;
    return memo.spread;
}
#endif

LaneOffsetSpread memo_spread(const u32* v, AccessMemo& memo) {
#if defined(__x86_64__) && defined(__GNUC__)
    if (host_cpu().avx2) return memo_spread_avx2(v, memo);
#endif
    if (!memo.has_offsets || std::memcmp(v, memo.offsets, sizeof memo.offsets) != 0) {
        memo.spread = offset_spread_plain(v);
        std::memcpy(memo.offsets, v, sizeof memo.offsets);
        memo.has_offsets = true;
    }
    return memo.spread;
}

bool raw_buffer_lanes(const Wave& w, const ExecInst& e, unsigned dwords, DwordLanes& out, AccessMemo& memo) {
    const Inst& inst = *e.inst;
    u32 words[4];
    for (unsigned i = 0; i < 4; ++i) words[i] = w.sreg[e.src[2].index + i];
    const BufferResource r = BufferResource::from_sgprs(words);
    if (r.stride || r.swizzle || r.add_tid || inst.idxen || (inst.offen && e.src[0].kind != Src::Kind::vgpr))
        return false;
    const u64 base = r.base + read32(w, e.soffset);
    const u64 offset = u64(u32(inst.offset));
    const u64 first = base + offset;
    // Lane l's buffer offset is offset + v[l] (v: the VGPR with offen, else
    // 0). BufferResource::in_range for a raw buffer: dword d is in range iff
    // its buffer offset < num_records.
    static constexpr u32 zeros[64] = {};
    const u32* v = inst.offen ? w.v[e.src[0].index] : zeros;
    // The spread from the 32-bit values (min, max and OR), cheaper than from
    // the 64-bit addresses; any_bits then over-states the low bits of
    // first + v at worst (aligned_lanes then says no).
    const LaneOffsetSpread spread = inst.offen ? memo_spread(v, memo) : LaneOffsetSpread{0, 0, 0, 0, 0};
    const u32 low = spread.low, high = spread.high, bits = spread.bits;
    out.runs_of_four = spread.runs_of_four;
    out.run_start_bits = spread.run_start_bits;
    out.offsets = v;
    out.first = first;
    out.lowest = first + low;
    out.highest = first + high;
    out.any_bits = first | bits;
    const u64 records = r.num_records;
    // The offsets below which all of a lane's dwords, and its first, are in range.
    const u64 last_dword = 4 * (dwords - 1);
    const u64 whole_below = records > offset + last_dword ? records - offset - last_dword : 0;
    if (high < whole_below) {  // every lane in range: the usual case
        // All four, whatever `dwords`: a loop to `dwords` compiled to a `rep stos`.
        out.in_range[0] = out.in_range[1] = out.in_range[2] = out.in_range[3] = ~0ull;
        return true;
    }
    const u64 whole = lanes_below(v, whole_below);
    const u64 some = lanes_below(v, records > offset ? records - offset : 0);
    for (unsigned d = 0; d < dwords; ++d) out.in_range[d] = whole;
    for (u64 lanes = some & ~whole; lanes; lanes &= lanes - 1) {
        const unsigned l = unsigned(__builtin_ctzll(lanes));
        for (unsigned d = 0; d < dwords; ++d) out.in_range[d] |= u64(offset + v[l] + 4 * d < records) << l;
    }
    return true;
}

void global_lanes(const Wave& w, const ExecInst& e, DwordLanes& out) {
    const u64 offset = u64(i64(e.inst->offset));
    const u32* low = w.v[e.src[0].index];
    if (e.soffset.kind != Src::Kind::none) {
        const u64 base = read64(w, e.soffset) + offset;
        for (unsigned l = 0; l < 64; ++l) out.set(l, base + low[l]);
    } else {
        const u32* high = w.v[e.src[0].index + 1];
        for (unsigned l = 0; l < 64; ++l) out.set(l, ((u64(high[l]) << 32) | low[l]) + offset);
    }
    out.in_range[0] = out.in_range[1] = out.in_range[2] = out.in_range[3] = ~0ull;  // any `dwords`
}

// Host bytes of address `lowest` when one allocation holds every lane's
// access (lanes with at least one dword in range); nullptr otherwise.
std::uint8_t* whole_span(Wave& w, const DwordLanes& a, u64 lanes, unsigned dwords, u64& lowest) {
    if (!lanes) return nullptr;
    lowest = a.lowest;
    u64 highest = a.highest;
    if (lanes != ~0ull) {
        lowest = ~0ull;
        highest = 0;
        // Over the set lanes only: at the edge of a matrix often a few (the
        // unrolled 64-lane loop was about 620 host instructions per access;
        // callgrind, 16^3 SGEMM through the BLAS).
        for (u64 rest = lanes; rest; rest &= rest - 1) {
            const unsigned l = unsigned(__builtin_ctzll(rest));
            lowest = std::min(lowest, a.at(l));
            highest = std::max(highest, a.at(l));
        }
    }
    if (highest > ~0ull - 4 * dwords) return nullptr;
    return w.group->translator.translate(lowest, highest + 4 * dwords - lowest);
}

// The fast path's lanes and span, or false for the lane-by-lane path.
bool direct_access(Wave& w, const ExecInst& e, const Format& f, u64 exec, DwordLanes& a, std::uint8_t*& host,
                   u64& lowest) {
    if (w.group->observe_global_memory || w.group->weak || f.bytes != 4 || f.d16) return false;
    const Family family = e.inst->info().family;
    a.memo = &w.group->translator.memo(&e, &w);
    if (family == Family::MUBUF) {
        if (!raw_buffer_lanes(w, e, f.dwords, a, *a.memo)) return false;
    } else if (family == Family::GLOBAL) {
        global_lanes(w, e, a);
    } else {
        return false;
    }
    u64 touched = 0;
    for (unsigned d = 0; d < f.dwords; ++d) touched |= a.in_range[d];
    host = whole_span(w, a, exec & touched, f.dwords, lowest);
    return host || !(exec & touched);
}

// Whether every lane's access of `dwords` dwords (1, 2 or 4) starts on a
// host address aligned to its single-copy pieces: 4 bytes for one dword, 8
// for two or four (then load_single_copy would cut each lane's access into
// exactly the 4- or 8-byte words the aligned loops below move).
bool aligned_lanes(const DwordLanes& a, const std::uint8_t* host, u64 lowest, unsigned dwords) {
    if (dwords != 1 && dwords != 2 && dwords != 4) return false;
    const u64 mask = dwords == 1 ? 3 : 7;
    return ((reinterpret_cast<std::uintptr_t>(host) | a.any_bits | lowest) & mask) == 0;
}

// The aligned loops: one relaxed word access per piece, found once for all
// lanes instead of per lane (piece_size). A 16^3 SGEMM through the BLAS
// spent about 3,300 host instructions per global load or store on the
// general loop (callgrind), most of them finding pieces.
// Whether an aligned 16-byte SSE load is one single-copy access: on CPUs
// with AVX (Intel SDM vol. 3A, 9.1.1 "Guaranteed Atomic Operations"; AMD APM
// vol. 2, 7.3.2 "Access Atomicity"), so four lanes' aligned dwords can move
// in one. C++ has no 16-byte relaxed atomic load that compiles to one
// instruction, so this one is the intrinsic: the guarantee is the CPU's.
bool atomic_16_byte_loads() {
#if defined(__SSE2__) && defined(__GNUC__)
    return host_cpu().avx;
#else
    return false;
#endif
}

// Every lane of a raw buffer's dword load: runs of four consecutive lanes
// at a 16-byte aligned host address in one 16-byte load (about a third of
// the host instructions of four lane loads), the others lane by lane.
// Each lane still reads its dword in one piece.
void load_runs_of_four(const DwordLanes& a, const std::uint8_t* host, u64 lowest, u32* data) {
#if defined(__SSE2__)
    const std::uint8_t* const base = host + (a.first - lowest);
    const u32* const v = a.offsets;
    // Every lane in a run, every run at a 16-byte aligned host address (the
    // base and every run's offset are) and no run's offsets wrapping past
    // 2^32 (none is above 2^32 - 16): the 16 loads without a test each
    // (the GEMM kernels' usual case).
    if (a.runs_of_four == 0x1111111111111111ull && a.highest - a.first <= 0xffffffffu - 12 &&
        ((reinterpret_cast<std::uintptr_t>(base) | a.run_start_bits) & 15) == 0) {
#pragma GCC unroll 16
        for (unsigned l = 0; l < 64; l += 4)
            _mm_storeu_si128(reinterpret_cast<__m128i*>(data + l),
                             _mm_load_si128(reinterpret_cast<const __m128i*>(base + v[l])));
        return;
    }
    // Unrolled: the loop's count, shifts and branch were about a third of
    // its host instructions (callgrind, 256^3 dpp0_32_denorm).
#pragma GCC unroll 16
    for (unsigned q = 0; q < 16; ++q) {
        const unsigned l = 4 * q;
        const std::uint8_t* const p = base + v[l];
        // The run's offsets were compared in 32 bits: one that wraps past
        // 2^32 (v, v + 4 - 2^32, ...) is not consecutive in memory.
        const bool no_wrap = v[l] <= 0xffffffffu - 12;
        if (((a.runs_of_four >> l) & 1) && no_wrap && (reinterpret_cast<std::uintptr_t>(p) & 15) == 0) {
            _mm_storeu_si128(reinterpret_cast<__m128i*>(data + l), _mm_load_si128(reinterpret_cast<const __m128i*>(p)));
        } else {
            for (unsigned i = 0; i < 4; ++i)
                data[l + i] = __atomic_load_n(reinterpret_cast<const u32*>(base + v[l + i]), __ATOMIC_RELAXED);
        }
    }
#else
    (void)a, (void)host, (void)lowest, (void)data;
#endif
}

template <unsigned Dwords>
void load_aligned(const DwordLanes& a, const std::uint8_t* host, u64 lowest, u64 lanes, u32* data) {
    if (Dwords == 1 && lanes == ~0ull && a.offsets && a.runs_of_four && atomic_16_byte_loads()) {
        load_runs_of_four(a, host, lowest, data);
        return;
    }
    if (lanes != ~0ull)
        for (unsigned d = 0; d < Dwords; ++d) std::memset(data + 64 * d, 0, 64 * sizeof(u32));
    a.each_lane(host, lowest, lanes, [data](unsigned l, const std::uint8_t* p) {
        if constexpr (Dwords == 1) {
            data[l] = __atomic_load_n(reinterpret_cast<const u32*>(p), __ATOMIC_RELAXED);
        } else {
            for (unsigned d = 0; d < Dwords; d += 2) {
                const u64 v = __atomic_load_n(reinterpret_cast<const u64*>(p + 4 * d), __ATOMIC_RELAXED);
                data[64 * d + l] = u32(v);
                data[64 * (d + 1) + l] = u32(v >> 32);
            }
        }
    });
}

template <unsigned Dwords>
void store_aligned(const DwordLanes& a, std::uint8_t* host, u64 lowest, u64 lanes, const u32* const* values) {
    a.each_lane(host, lowest, lanes, [values](unsigned l, std::uint8_t* p) {
        if constexpr (Dwords == 1) {
            __atomic_store_n(reinterpret_cast<u32*>(p), values[0][l], __ATOMIC_RELAXED);
        } else {
            for (unsigned d = 0; d < Dwords; d += 2)
                __atomic_store_n(reinterpret_cast<u64*>(p + 4 * d), u64(values[d][l]) | (u64(values[d + 1][l]) << 32),
                                 __ATOMIC_RELAXED);
        }
    });
}

// Host prefetches of where this load will likely read on its next run (the
// loop's next trip: the same lanes one step further, the step being how far
// its start moved since the previous run). A GEMM kernel's operand loads
// read lanes at the leading dimension's stride (4 KiB at 1024^3), lines the
// host's caches rarely still hold; asking for them a trip ahead hides their
// latency. Only lines inside the allocation the access hit are asked for;
// the hint changes nothing the kernel sees. Every fourth lane: its line
// covers the lanes around it when they are contiguous.
void prefetch_next_run(Wave& w, const DwordLanes& a) {
    Translator& t = w.group->translator;
    const u64 step = a.memo->step_to(a.lowest);
    if (!step) return;
    const std::uint8_t* next = t.cached(a.lowest + step, a.highest - a.lowest + 4);
    if (!next) return;
    if (a.offsets) {
        const std::uint8_t* const base = next + (a.first - a.lowest);
        for (unsigned l = 0; l < 64; l += 4) __builtin_prefetch(base + a.offsets[l]);
    } else {
        for (unsigned l = 0; l < 64; l += 4) __builtin_prefetch(next + (a.address[l] - a.lowest));
    }
}

// Lane-major: each lane's dwords are read (written) together, in one
// single-copy access when all are in range, so that a lane's dwordx2 is never
// seen half old, half new by another workgroup.
u64 direct_load(const DwordLanes& a, const std::uint8_t* host, u64 lowest, u64 exec, unsigned dwords, u32* data) {
    u64 all_in_range = exec, bytes = 0;
    for (unsigned d = 0; d < dwords; ++d) {
        all_in_range &= a.in_range[d];
        bytes += 4ull * lane_count(exec & a.in_range[d]);
    }
    // Every active lane has all its dwords or none of them: the aligned loops.
    bool whole_lanes = true;
    for (unsigned d = 0; d < dwords; ++d) whole_lanes = whole_lanes && (exec & a.in_range[d]) == all_in_range;
    if (whole_lanes && aligned_lanes(a, host, lowest, dwords)) {
        switch (dwords) {
        case 1: load_aligned<1>(a, host, lowest, all_in_range, data); return bytes;
        case 2: load_aligned<2>(a, host, lowest, all_in_range, data); return bytes;
        default: load_aligned<4>(a, host, lowest, all_in_range, data); return bytes;
        }
    }
    for (unsigned l = 0; l < 64; ++l) {
        u32 value[4] = {};
        if ((all_in_range >> l) & 1) {
            load_single_copy(value, host + (a.at(l) - lowest), 4 * dwords);
        } else if ((exec >> l) & 1) {
            for (unsigned d = 0; d < dwords; ++d)
                if ((a.in_range[d] >> l) & 1) load_single_copy(&value[d], host + (a.at(l) - lowest) + 4 * d, 4);
        }
        for (unsigned d = 0; d < dwords; ++d) data[64 * d + l] = value[d];
    }
    return bytes;
}

u64 direct_store(const DwordLanes& a, std::uint8_t* host, u64 lowest, u64 exec, unsigned dwords, Wave& w,
                 const Src& data) {
    u64 all_in_range = exec, bytes = 0;
    const u32* values[4];
    for (unsigned d = 0; d < dwords; ++d) {
        all_in_range &= a.in_range[d];
        bytes += 4ull * lane_count(exec & a.in_range[d]);
        values[d] = vreg(w, data, d);
    }
    bool whole_lanes = true;
    for (unsigned d = 0; d < dwords; ++d) whole_lanes = whole_lanes && (exec & a.in_range[d]) == all_in_range;
    if (whole_lanes && aligned_lanes(a, host, lowest, dwords)) {
        switch (dwords) {
        case 1: store_aligned<1>(a, host, lowest, all_in_range, values); return bytes;
        case 2: store_aligned<2>(a, host, lowest, all_in_range, values); return bytes;
        default: store_aligned<4>(a, host, lowest, all_in_range, values); return bytes;
        }
    }
    for (unsigned l = 0; l < 64; ++l) {
        if (!((exec >> l) & 1)) continue;
        u32 value[4];
        for (unsigned d = 0; d < dwords; ++d) value[d] = values[d][l];
        if ((all_in_range >> l) & 1) {
            store_single_copy(host + (a.at(l) - lowest), value, 4 * dwords);
        } else {
            for (unsigned d = 0; d < dwords; ++d)
                if ((a.in_range[d] >> l) & 1) store_single_copy(host + (a.at(l) - lowest) + 4 * d, &value[d], 4);
        }
    }
    return bytes;
}

// ---- the lane-by-lane path --------------------------------------------
//
// One lane's dwords: each one's host bytes (null: the buffer range rule drops
// it), address and whether it is in global memory (not the LDS aperture). The
// first dword goes to the observed access and the FLAT-to-LDS lanes.
struct LaneDwords {
    std::uint8_t* host[4] = {};
    u64 address[4];
    bool shared[4];
    u64 bytes = 0;  // of the dwords in range

    LaneDwords(LaneAddresser& addr, unsigned l, const Format& f, MemoryAccess* access, FlatLdsLanes& flat_lds) {
        for (unsigned d = 0; d < f.dwords; ++d) {
            host[d] = addr.at(l, 4 * d, f.bytes, &address[d]);
            shared[d] = addr.last_shared();
            if (host[d]) bytes += f.bytes;
        }
        if (access) access->address[0][l] = address[0];
        if (access && !shared[0]) access->lanes &= ~(u64{1} << l);
        flat_lds.note(l, address[0]);
    }
};

// A store's vmcnt entry: it writes memory and returns nothing.
void issue_store(Wave& w, const ExecInst& e) {
    InFlightMemoryOp entry;
    entry.counter = WaitCounter::vm;
    entry.writes_memory = true;
    issue(w, e, entry);
}

// The end of a store on the lane-by-lane path, once its lanes are written.
void finish_store(Wave& w, const ExecInst& e, u64 bytes, MemoryAccess* access) {
    if (w.group->weak) w.group->weak->store_issued(w);
    w.group->counters.global_write_bytes += bytes;
    issue_store(w, e);
    if (access) w.group->observer->memory_access(w, e, *access);
}

// Every load but buffer_load_dword's common case. Out of line: vmem_load
// tail-calls it.
__attribute__((noinline)) void vmem_load_general(Wave& w, const ExecInst& e) {
    const Format& f = formats()[static_cast<std::size_t>(e.inst->op)];
    const u64 exec = w.exec();
    InFlightMemoryOp entry;
    entry.counter = WaitCounter::vm;
    entry.dest = e.dst.kind == Src::Kind::agpr ? InFlightMemoryOp::Dest::agpr : InFlightMemoryOp::Dest::vgpr;
    entry.dwords = f.dwords;
    entry.reg = e.dst.index;
    entry.lanes = exec;
    entry.keep_mask = f.d16 ? (f.hi ? 0x0000ffffu : 0xffff0000u) : 0u;
    DwordLanes direct;
    std::uint8_t* span = nullptr;
    u64 lowest = 0;
    const bool fast = direct_access(w, e, f, exec, direct, span, lowest);
    InFlightMemoryOp& p = issue(w, e, entry);
    u32* data = w.pending.data(p);
    if (fast) {
        if (span) prefetch_next_run(w, direct);
        w.group->counters.global_read_bytes += direct_load(direct, span, lowest, exec, f.dwords, data);
        return;
    }
    LaneAddresser addr(w, e);
    MemoryAccess* access = observed_global_access(w, false, exec, u32(f.bytes) * f.dwords);
    FlatLdsLanes flat_lds(w, e);
    WeakMemory* weak = w.group->weak;
    const bool bypass_l1 = load_bypasses_l1(w.group->env->program->target, *e.inst);
    u64 bytes = 0;
    for (unsigned l = 0; l < 64; ++l) {
        if (!((exec >> l) & 1)) continue;
        const LaneDwords lane_dwords(addr, l, f, access, flat_lds);
        bytes += lane_dwords.bytes;
        const std::uint8_t* lane = weak ? nullptr : whole_lane(lane_dwords.host, f.dwords);
        if (lane) {
            u32 value[4];
            load_single_copy(value, lane, 4u * f.dwords);
            for (unsigned d = 0; d < f.dwords; ++d) data[64 * d + l] = value[d];
            continue;
        }
        for (unsigned d = 0; d < f.dwords; ++d) {
            u32 seen = 0;
            const std::uint8_t* source = lane_dwords.host[d];
            if (weak && lane_dwords.host[d] && lane_dwords.shared[d]) {
                weak->load(w, lane_dwords.address[d], lane_dwords.host[d], f.bytes, bypass_l1, &seen);
                source = reinterpret_cast<const std::uint8_t*>(&seen);
            }
            u32 value = load_value(source, f);
            if (f.d16 && f.hi) value <<= 16;
            data[64 * d + l] = value;
        }
    }
    w.group->counters.global_read_bytes += bytes;
    if (access) w.group->observer->memory_access(w, e, *access);
    flat_lds.report(w, e, false, u32(f.bytes) * f.dwords);
}

#if defined(__x86_64__) && defined(__GNUC__)
// host_cpu().avx2, read once: host_cpu()'s guard was a load and a test on every call.
const bool host_has_avx2 = host_cpu().avx2;

// buffer_load_dword's common case, the SGEMM kernels' global loads
// (ExecInst::buffer_dword_offen): a raw buffer (no stride, swizzle or
// add_tid), every lane active and in range at 4-byte aligned host
// addresses (best: runs of four consecutive lanes at 16-byte aligned ones,
// moved 16 bytes at a time), unobserved global memory and no weak memory; otherwise, having done nothing,
// vmem_load_general. The work of direct_access, direct_load and issue in one function, without DwordLanes (a 600-byte
// local) or a copy of the entry; the allocation comes from the access memo,
// which keeps the one this instruction hit last (the translator's own
// cache swaps A and B on every load). With ExecInst::vmem_lands_at_issue
// and no observer, or one that reads only operands, the data goes straight
// into the destination VGPR, and the retiring s_waitcnt has nothing to land. The 16-byte loads are single
// copies on CPUs with AVX (atomic_16_byte_loads), which AVX2 implies.
__attribute__((target("avx2"))) void buffer_load_dword_avx2(Wave& w, const ExecInst& e) {
    Workgroup& g = *w.group;
    const u32* const d = &w.sreg[e.src[2].index];
    // V# word1 bits 16-29 stride, 30-31 cache swizzle and swizzle; word3 bit 23 add_tid.
    if (w.exec() != ~0ull || g.observe_global_memory || g.weak || (d[1] >> 16) || (d[3] & (1u << 23)))
        return vmem_load_general(w, e);
    const u64 offset = u32(e.inst->offset);
    const u64 first = (d[0] | (u64(d[1] & 0xffffu) << 32)) + read32(w, e.soffset) + offset;
    AccessMemo& memo = g.translator.memo(&e, &w);
    const u32* const v = w.v[e.src[0].index];
    const LaneOffsetSpread s = memo_spread_avx2(v, memo);
    // In range: every lane's offset + v < num_records (BufferResource::in_range).
    if (u64(s.high) + offset >= d[2]) return vmem_load_general(w, e);
    const u64 lowest = first + s.low, span = u64(s.high - s.low) + 4;
    const Allocation* a = memo.allocation;
    if (!a || !a->contains(lowest, span)) {
        a = g.translator.allocation_of(lowest, span);
        if (!a) return vmem_load_general(w, e);
        memo.allocation = a;
    }
    const std::uint8_t* const base = a->at(lowest) - s.low;  // host byte of offset v = 0
    const std::uintptr_t base_bits = reinterpret_cast<std::uintptr_t>(base);
    // Runs of four at 16-byte aligned host addresses whose offsets do not
    // wrap past 2^32 (the highest run starts at most 12 below high); else
    // every lane's dword at a 4-byte aligned host address, one by one.
    const bool runs = s.runs_of_four == 0x1111111111111111ull && ((base_bits | s.run_start_bits) & 15) == 0 &&
                      s.high <= 0xffffffffu - 12;
    if (!runs && ((base_bits | s.bits) & 3)) return vmem_load_general(w, e);

    // The entry: nothing to land when the data lands now.
    // At the counter's limit the oldest entry retires first, as sem::issue does it.
    if (__builtin_expect(w.pending.vmcnt() >= InFlightQueue::max_vm, 0))
        wait(w, InFlightQueue::max_vm - 1, InFlightQueue::max_lgkm);
    // Under an observer that reads only operands (the checkers) the data
    // lands now as well, and the entry is the one it would see otherwise,
    // marked landed (as sem_lds.cpp's issue_landed_read): the landing copy
    // at the wait was about 3% of a checked dpp0_32 launch (perf, 1024^3).
    const bool lands_now = e.vmem_lands_at_issue && (!g.observer || g.observer_reads_only_operands);
    InFlightMemoryOp& p = lands_now ? w.pending.push_without_data<WaitCounter::vm>(e.index)
                                    : w.pending.push_in_place<WaitCounter::vm>(e.index);
    if (!lands_now || g.observer) {
        p.dest = InFlightMemoryOp::Dest::vgpr;
        p.dwords = 1;
        p.reg = e.dst.index;
        p.lanes = ~0ull;
        p.landed = lands_now;
    }
    if (WorkgroupObserver* o = g.observer) o->issued(w, e, p);
    u32* const out = lands_now ? w.v[e.dst.index] : w.pending.data(p);
    g.counters.global_read_bytes += 256;

    // The 16 runs, and a host prefetch of each run's line one step ahead
    // (prefetch_next_run's guess: the loop's next trip) with locality 2
    // (prefetcht1): the 16 lines lie at the leading dimension's stride,
    // 4 KiB at 1024^3, all in one set of the host's L1, where a prefetch
    // for the next trip evicts lines this trip still uses. 1024^3 one
    // thread, alternating rounds: dpp0_32 about 3% faster than prefetcht0
    // (minimum 0.380 -> 0.369 s), dpp0_64 minimum 0.200 -> 0.183 s;
    // prefetchnta 2% slower than prefetcht1.
    const u64 step = memo.step_to(lowest);
    if (!runs) {
        // The SGEMM epilogue's loads of C (lanes two or four dwords apart):
        // about 900 host instructions each on the general path (callgrind,
        // 256^3 dpp0_64, 2% of the launch).
        for (unsigned l = 0; l < 64; ++l)
            out[l] = __atomic_load_n(reinterpret_cast<const u32*>(base + v[l]), __ATOMIC_RELAXED);
        return;
    }
    if (step && a->contains(lowest + step, span)) {
        // Each run's offset read once, before the store (`out` may be `v`,
        // whose next runs it does not reach), and `next` kept in a register
        // of its own: each run is then a load of its offset, a load, a store
        // and a prefetch, both addressed as register + offset, instead of
        // seven instructions (the offset reloaded after the store, and the
        // step added to it): 295 -> 267 host instructions per load besides
        // memo_spread_avx2's 45 (callgrind, 256^3 dpp0_32).
        const std::uint8_t* next = base + step;
        asm("" : "+r"(next));
#pragma GCC unroll 16
        for (unsigned l = 0; l < 64; l += 4) {
            const u32 o = v[l];
            _mm_storeu_si128(reinterpret_cast<__m128i*>(out + l),
                             _mm_load_si128(reinterpret_cast<const __m128i*>(base + o)));
            __builtin_prefetch(next + o, 0, 2);
        }
    } else {
#pragma GCC unroll 16
        for (unsigned l = 0; l < 64; l += 4)
            _mm_storeu_si128(reinterpret_cast<__m128i*>(out + l),
                             _mm_load_si128(reinterpret_cast<const __m128i*>(base + v[l])));
    }
}
#endif

// Both calls are tail calls: this function has no frame (its register
// saves and a call were 25 host instructions a load; callgrind, 256^3 dpp0_32).
void vmem_load(Wave& w, const ExecInst& e) {
#if defined(__x86_64__) && defined(__GNUC__)
    if (e.buffer_dword_offen && host_has_avx2) return buffer_load_dword_avx2(w, e);
#endif
    return vmem_load_general(w, e);
}

void vmem_store(Wave& w, const ExecInst& e) {
    const Format& f = formats()[static_cast<std::size_t>(e.inst->op)];
    const u64 exec = w.exec();
    // Store data: vdata (MUBUF keeps it in dst) or data (FLAT/GLOBAL src1).
    const Src& data = e.inst->info().family == Family::MUBUF ? e.dst : e.src[1];
    DwordLanes direct;
    std::uint8_t* span = nullptr;
    u64 lowest = 0;
    if (direct_access(w, e, f, exec, direct, span, lowest)) {
        w.group->counters.global_write_bytes += direct_store(direct, span, lowest, exec, f.dwords, w, data);
        issue_store(w, e);
        return;
    }
    LaneAddresser addr(w, e);
    MemoryAccess* access = observed_global_access(w, true, exec, u32(f.bytes) * f.dwords);
    FlatLdsLanes flat_lds(w, e);
    WeakMemory* weak = w.group->weak;
    u64 bytes = 0;
    for (unsigned l = 0; l < 64; ++l) {
        if (!((exec >> l) & 1)) continue;
        const LaneDwords lane_dwords(addr, l, f, access, flat_lds);
        bytes += lane_dwords.bytes;
        std::uint8_t* lane = weak ? nullptr : whole_lane(lane_dwords.host, f.dwords);
        if (lane) {
            u32 value[4];
            for (unsigned d = 0; d < f.dwords; ++d) value[d] = vreg(w, data, d)[l];
            store_single_copy(lane, value, 4u * f.dwords);
            continue;
        }
        for (unsigned d = 0; d < f.dwords; ++d) {
            if (!lane_dwords.host[d]) continue;
            u32 value = vreg(w, data, d)[l];
            if (f.hi) value >>= 16;
            if (weak && lane_dwords.shared[d])
                weak->store(w, lane_dwords.address[d], lane_dwords.host[d], f.bytes, &value);
            else store_single_copy(lane_dwords.host[d], &value, f.bytes);  // little-endian: the low bytes
        }
    }
    finish_store(w, e, bytes, access);
    flat_lds.report(w, e, true, u32(f.bytes) * f.dwords);
}

// ---- typed buffer accesses: buffer_load/store_format_* --------------------
//
// The memory format comes from the buffer resource, not the opcode (Vega ISA
// "Buffer Instructions": "The format of the data in memory is specified by
// the buffer resource's DATA_FORMAT and NUM_FORMAT"; V# word3 NUM_FORMAT
// bits 14:12, DATA_FORMAT bits 18:15). The opcode gives how many components
// reach the registers (x, xy, xyz, xyzw) and d16 packs them two 16-bit
// values per register, low half first ("D16 Instructions"). Components the
// format lacks load as (0, 0, 0, 1) per x/y/z/w; a store writes only the
// components both the opcode and the format have. Each component is range
// checked at its own offset, as the dwords of buffer_load_dwordx4.
// Implemented: the formats whose components all have one width (8, 16,
// 8_8, 32, 16_16, 8_8_8_8, 32_32, 16_16_16_16, 32_32_32, 32_32_32_32) with
// NUM_FORMAT UNORM, SNORM, UINT, SINT or FLOAT (16 and 32 bits); anything else
// stops the run naming the format. Conversions follow the D3D rules the guide
// refers to for typed formats: UNORM n bits loads as u / (2^n - 1) and stores
// as round_to_nearest_even(clamp(f, 0, 1) * (2^n - 1)) with NaN as 0; SNORM
// loads as max(s / (2^(n-1) - 1), -1) and stores as
// round_to_nearest_even(clamp(f, -1, 1) * (2^(n-1) - 1)), NaN as 0; integer
// formats load zero/sign-extended and store their low n bits; f16 <-> f32
// round to nearest even. DST_SEL of the resource is not applied (compute
// resources use the identity).

struct TypedOp {
    std::uint8_t count = 1;  // components in registers
    bool d16 = false;
    bool hi = false;  // d16_hi_x: the high half of the register
};

std::array<TypedOp, op_count>& typed_ops() {
    static std::array<TypedOp, op_count> table{};
    return table;
}

enum class NumFormat : std::uint8_t { unorm = 0, snorm = 1, uscaled = 2, sscaled = 3, uint = 4, sint = 5, float_ = 7 };

struct TypedFormat {
    unsigned components = 0;
    unsigned bits = 0;
    NumFormat num = NumFormat::uint;
};

// DATA_FORMAT `data` and NUM_FORMAT `num` of a buffer (V#) or image (T#) resource.
TypedFormat typed_format(u32 data, u32 num, const char* what) {
    static constexpr const char* data_names[16] = {
        "INVALID",    "8",          "16",      "8_8",   "32",          "16_16",    "10_11_11",    "11_11_10",
        "10_10_10_2", "2_10_10_10", "8_8_8_8", "32_32", "16_16_16_16", "32_32_32", "32_32_32_32", "RESERVED_15"};
    static constexpr const char* num_names[8] = {"UNORM", "SNORM", "USCALED",    "SSCALED",
                                                 "UINT",  "SINT",  "RESERVED_6", "FLOAT"};
    static constexpr std::uint8_t shape[16][2] = {{0, 0}, {1, 8}, {1, 16}, {2, 8},  {1, 32}, {2, 16}, {0, 0},  {0, 0},
                                                  {0, 0}, {0, 0}, {4, 8},  {2, 32}, {4, 16}, {3, 32}, {4, 32}, {0, 0}};
    TypedFormat f{data < 16 ? shape[data][0] : 0u, data < 16 ? shape[data][1] : 0u, NumFormat(num & 7u)};
    const bool num_ok = f.num == NumFormat::uint || f.num == NumFormat::sint ||
                        ((f.num == NumFormat::unorm || f.num == NumFormat::snorm) && f.bits < 32) ||
                        (f.num == NumFormat::float_ && f.bits >= 16);
    if (!f.components || !num_ok || num > 7)
        fail(FaultKind::not_implemented, std::string(what) + " format access with DATA_FORMAT " + std::to_string(data) +
                                             " (" + (data < 16 ? data_names[data] : "RESERVED") + ") and NUM_FORMAT " +
                                             std::to_string(num) + " (" + (num < 8 ? num_names[num] : "RESERVED") +
                                             "): not implemented");
    return f;
}

// Component `raw` (its `bits` low bits) as the 32-bit (or d16: 16-bit) register value.
u32 typed_to_register(u32 raw, const TypedFormat& f, bool d16) {
    switch (f.num) {
    case NumFormat::uint: return d16 ? raw & 0xffffu : raw;
    case NumFormat::sint: {
        const u32 value = f.bits == 32 ? raw : u32(std::int32_t(raw << (32 - f.bits)) >> (32 - f.bits));
        return d16 ? value & 0xffffu : value;
    }
    case NumFormat::unorm: {
        const float value = float(double(raw) / double((1u << f.bits) - 1));
        return d16 ? float_as_half(value) : fp::as_bits(value);
    }
    case NumFormat::snorm: {
        const std::int32_t s = std::int32_t(raw << (32 - f.bits)) >> (32 - f.bits);
        const float value = float(std::max(double(s) / double((1u << (f.bits - 1)) - 1), -1.0));
        return d16 ? float_as_half(value) : fp::as_bits(value);
    }
    default:  // float: 16 or 32 bits
        if (f.bits == 16) return d16 ? raw : fp::as_bits(half_as_float(raw));
        return d16 ? float_as_half(fp::as_float(raw)) : raw;
    }
}

u32 typed_default(unsigned component, const TypedFormat& f, bool d16) {
    if (component != 3) return 0;
    if (f.num == NumFormat::uint || f.num == NumFormat::sint) return 1;
    return d16 ? 0x3c00u : 0x3f800000u;
}

// Register value `value` (d16: its low 16 bits) as the format's `bits` bits.
u32 typed_from_register(u32 value, const TypedFormat& f, bool d16) {
    const u32 mask = f.bits == 32 ? ~0u : (1u << f.bits) - 1;
    switch (f.num) {
    case NumFormat::uint:
    case NumFormat::sint: return (d16 ? value & 0xffffu : value) & mask;
    case NumFormat::unorm: {
        const float x = d16 ? half_as_float(value & 0xffffu) : fp::as_float(value);
        if (std::isnan(x)) return 0;
        return u32(std::nearbyint(double(std::clamp(x, 0.0f, 1.0f)) * double(mask)));
    }
    case NumFormat::snorm: {
        const float x = d16 ? half_as_float(value & 0xffffu) : fp::as_float(value);
        if (std::isnan(x)) return 0;
        const double scaled = std::nearbyint(double(std::clamp(x, -1.0f, 1.0f)) * double((1u << (f.bits - 1)) - 1));
        return u32(std::int32_t(scaled)) & mask;
    }
    default:
        if (f.bits == 16) return d16 ? value & 0xffffu : float_as_half(fp::as_float(value));
        return d16 ? fp::as_bits(half_as_float(value & 0xffffu)) : value;
    }
}

TypedFormat resource_format(const Wave& w, const ExecInst& e) {
    const u32 word3 = w.sreg[e.src[2].index + 3];
    return typed_format((word3 >> 15) & 15u, (word3 >> 12) & 7u, "buffer");
}

// GCN3 keeps d16 format components one per register (unpacked): not emulated.
void refuse_unpacked_d16(const Wave& w, const TypedOp& t) {
    if (t.d16 && t.count > 1 && !has(w.group->env->program->target, Feature::gfx9_insts))
        fail(FaultKind::not_implemented, "d16 format access with unpacked components (GCN3) is not implemented");
}

void typed_load(Wave& w, const ExecInst& e) {
    const TypedOp& t = typed_ops()[static_cast<std::size_t>(e.inst->op)];
    refuse_unpacked_d16(w, t);
    const TypedFormat f = resource_format(w, e);
    const u64 exec = w.exec();
    LaneAddresser addr(w, e);
    const unsigned bytes = f.bits / 8;
    InFlightMemoryOp entry;
    entry.counter = WaitCounter::vm;
    entry.dest = e.dst.kind == Src::Kind::agpr ? InFlightMemoryOp::Dest::agpr : InFlightMemoryOp::Dest::vgpr;
    entry.dwords = std::uint8_t(t.d16 ? (t.count + 1) / 2 : t.count);
    entry.reg = e.dst.index;
    entry.lanes = exec;
    entry.keep_mask = t.d16 && t.count == 1 ? (t.hi ? 0x0000ffffu : 0xffff0000u) : 0u;
    InFlightMemoryOp& p = issue(w, e, entry);
    u32* data = w.pending.data(p);
    MemoryAccess* access = observed_global_access(w, false, exec, bytes * std::min<unsigned>(t.count, f.components));
    u64 total = 0;
    for (unsigned l = 0; l < 64; ++l) {
        if (!((exec >> l) & 1)) continue;
        for (unsigned d = 0; d < entry.dwords; ++d) data[64 * d + l] = 0;
        for (unsigned c = 0; c < t.count; ++c) {
            u32 value = typed_default(c, f, t.d16);
            if (c < f.components) {
                u64 address;
                const std::uint8_t* host = addr.at(l, c * bytes, bytes, &address);
                if (c == 0 && access) access->address[0][l] = address;
                if (c == 0 && access && !addr.last_shared()) access->lanes &= ~(u64{1} << l);
                u32 raw = 0;
                if (host && w.group->weak && addr.last_shared())
                    w.group->weak->load(w, address, host, bytes,
                                        load_bypasses_l1(w.group->env->program->target, *e.inst), &raw);
                else if (host) load_single_copy(&raw, host, bytes);
                if (host) total += bytes;
                value = host ? typed_to_register(raw, f, t.d16) : 0;
            }
            if (!t.d16) data[64 * c + l] = value;
            else data[64 * (c / 2) + l] |= value << (((c & 1) || t.hi) ? 16 : 0);
        }
    }
    w.group->counters.global_read_bytes += total;
    if (access) w.group->observer->memory_access(w, e, *access);
}

void typed_store(Wave& w, const ExecInst& e) {
    const TypedOp& t = typed_ops()[static_cast<std::size_t>(e.inst->op)];
    refuse_unpacked_d16(w, t);
    const TypedFormat f = resource_format(w, e);
    const u64 exec = w.exec();
    LaneAddresser addr(w, e);
    const unsigned bytes = f.bits / 8, components = std::min<unsigned>(t.count, f.components);
    MemoryAccess* access = observed_global_access(w, true, exec, bytes * components);
    u64 total = 0;
    for (unsigned l = 0; l < 64; ++l) {
        if (!((exec >> l) & 1)) continue;
        for (unsigned c = 0; c < components; ++c) {
            u64 address;
            std::uint8_t* host = addr.at(l, c * bytes, bytes, &address);
            if (c == 0 && access) access->address[0][l] = address;
            if (c == 0 && access && !addr.last_shared()) access->lanes &= ~(u64{1} << l);
            if (!host) continue;  // out of range: dropped
            u32 value = t.d16 ? vreg(w, e.dst, c / 2)[l] >> (((c & 1) || t.hi) ? 16 : 0) : vreg(w, e.dst, c)[l];
            const u32 raw = typed_from_register(value, f, t.d16);
            if (w.group->weak && addr.last_shared()) w.group->weak->store(w, address, host, bytes, &raw);
            else store_single_copy(host, &raw, bytes);  // little-endian: the low bytes
            total += bytes;
        }
    }
    finish_store(w, e, total, access);
}

// ---- image loads and samples ----------------------------------------------
//
// The T# (image resource) and S# (sampler) come from SGPRs
// (image_descriptors.hpp, "Vega" 7nm ISA guide, "Image Resource" and "Image
// Sampler"); the address VGPRs hold x [, y] [, slice] [, lod or mip] as the
// T#'s TYPE and the op say ("Image Opcodes with a Sampler": lod follows the
// coordinates). Emulated: image_load, image_load_mip (mip 0), image_sample
// (one mip level, one filter), image_sample_lz, image_sample_l; linear (SW_MODE 0) 1-D, 2-D, 1-D array and 2-D
// array images of one mip level; the typed formats of buffer_*_format_*;
// DST_SEL; dmask (the enabled components land in consecutive VGPRs); tfe
// (its extra dword reads 0: no fault is ever reported). Sampling: normalized
// coordinates (u * width) unless unorm or FORCE_UNNORMALIZED; the array
// slice rounds to nearest even and clamps to the slices; CLAMP_X/Y wrap,
// mirror, clamp to last texel, mirror once, clamp to border; point or
// bilinear filter (the magnification filter at lod <= 0, else the
// minification one). Texel-space coordinates are taken to 8 fractional bits
// (round to nearest); point picks the texel floor(u), bilinear blends the
// four texels around u - 0.5 with the fractions as weights. The guide does
// not give the filter's arithmetic: this is a model (docs/textures.md).
// Anything else (other tiling, a16, d16, mip levels, border colour from the
// palette, half-border clamps, anisotropy, depth compare, min/max filter
// modes) stops the run naming the field and its value.

enum class ImageOp : std::uint8_t { none, load, load_mip, sample, sample_lz, sample_l };

std::array<ImageOp, op_count>& image_ops() {
    static std::array<ImageOp, op_count> table{};
    return table;
}

[[noreturn]] void image_unsupported(const std::string& field, u32 value) {
    fail(FaultKind::not_implemented,
         "image access with " + field + " = " + std::to_string(value) + ": not implemented");
}

struct ImageView {
    image::ImageResource r;
    TypedFormat format;
    unsigned texel_bytes = 0;
    unsigned dims = 0;  // 1 or 2
    bool array = false;
};

ImageView image_view(const Wave& w, const ExecInst& e) {
    const u32* t = &w.sreg[e.src[2].index];
    ImageView v;
    v.r = image::decode_image(t);
    if (v.r.sw_mode != 0) image_unsupported("T# SW_MODE (tiling; only 0, linear, is emulated)", v.r.sw_mode);
    if (v.r.base_level != 0 || v.r.last_level != 0) image_unsupported("T# LAST_LEVEL (mip levels)", v.r.last_level);
    switch (v.r.type) {
    case image::type_1d: v.dims = 1; break;
    case image::type_2d: v.dims = 2; break;
    case image::type_1d_array: v.dims = 1, v.array = true; break;
    case image::type_2d_array: v.dims = 2, v.array = true; break;
    default: image_unsupported("T# TYPE", v.r.type);
    }
    v.format = typed_format(v.r.data_format, v.r.num_format, "image");
    v.texel_bytes = v.format.components * v.format.bits / 8;
    if (e.inst->a16) image_unsupported("a16 (16-bit addresses)", 1);
    if (e.inst->d16) image_unsupported("d16 (16-bit data)", 1);
    if (e.inst->da != v.array) image_unsupported("da (the T# TYPE is " + std::to_string(v.r.type) + ")", e.inst->da);
    return v;
}

// One texel's four components, as 32-bit register values, DST_SEL applied.
std::array<u32, 4> read_texel(Wave& w, const ImageView& v, u32 x, u32 y, u32 slice, u64& bytes_read) {
    const u64 texel = (u64(slice) * v.r.height + y) * v.r.pitch + x;
    const u64 address = v.r.base + texel * v.texel_bytes;
    const std::uint8_t* host = w.group->translator.translate(address, v.texel_bytes);
    if (!host) fault_at(FaultKind::global_out_of_bounds, "image texel outside any allocation", address);
    bytes_read += v.texel_bytes;
    std::array<u32, 4> c{};
    const unsigned bytes = v.format.bits / 8;
    for (unsigned k = 0; k < 4; ++k) {
        if (k >= v.format.components) {
            c[k] = typed_default(k, v.format, false);
            continue;
        }
        u32 raw = 0;
        load_single_copy(&raw, host + k * bytes, bytes);
        c[k] = typed_to_register(raw, v.format, false);
    }
    std::array<u32, 4> out{};
    const bool integer = v.format.num == NumFormat::uint || v.format.num == NumFormat::sint;
    for (unsigned k = 0; k < 4; ++k) {
        const u32 sel = (v.r.dst_sel >> (3 * k)) & 7u;
        if (sel >= 4) out[k] = c[sel - 4];
        else if (sel == 1) out[k] = integer ? 1u : 0x3f800000u;
        else if (sel == 0) out[k] = 0;
        else image_unsupported("T# DST_SEL", sel);
    }
    return out;
}

// Texel index i of a row of n under a clamp mode; -1: the border.
i64 address_texel(i64 i, i64 n, u32 mode) {
    switch (mode) {
    case image::clamp_wrap: return ((i % n) + n) % n;
    case image::clamp_mirror: {
        const i64 m = ((i % (2 * n)) + 2 * n) % (2 * n);
        return m < n ? m : 2 * n - 1 - m;
    }
    case image::clamp_last_texel: return std::clamp<i64>(i, 0, n - 1);
    case image::clamp_mirror_once_last_texel: return std::clamp<i64>(i < 0 ? -i - 1 : i, 0, n - 1);
    case image::clamp_border: return i < 0 || i >= n ? -1 : i;
    case image::clamp_mirror_once_border: {
        const i64 m = i < 0 ? -i - 1 : i;
        return m >= n ? -1 : m;
    }
    default: image_unsupported("S# CLAMP", mode);
    }
}

std::array<u32, 4> border_texel(const image::Sampler& s, bool integer) {
    const u32 one = integer ? 1u : 0x3f800000u;
    switch (s.border_color) {
    case image::border_transparent_black: return {0, 0, 0, 0};
    case image::border_opaque_black: return {0, 0, 0, one};
    case image::border_opaque_white: return {one, one, one, one};
    default: image_unsupported("S# BORDER_COLOR_TYPE", s.border_color);
    }
}

// A texel-space coordinate in the model's fixed point: 8 fractional bits,
// rounded to nearest; NaN as 0, the magnitude bounded so that texel indices
// stay integers.
double texel_coordinate(double x) {
    if (std::isnan(x)) return 0.0;
    return std::nearbyint(std::clamp(x, -double(1 << 24), double(1 << 24)) * 256.0) / 256.0;
}

// The sample at (u, v) in texel units on one slice.
std::array<u32, 4> sample(Wave& w, const ImageView& v, const image::Sampler& s, bool bilinear, double u, double t,
                          u32 slice, u64& bytes_read) {
    const bool integer = v.format.num == NumFormat::uint || v.format.num == NumFormat::sint;
    const i64 width = v.r.width, height = v.dims == 2 ? v.r.height : 1;
    auto fetch = [&](i64 x, i64 y) {
        const i64 ax = address_texel(x, width, s.clamp[0]);
        const i64 ay = v.dims == 2 ? address_texel(y, height, s.clamp[1]) : 0;
        if (ax < 0 || ay < 0) return border_texel(s, integer);
        return read_texel(w, v, u32(ax), u32(ay), slice, bytes_read);
    };
    u = texel_coordinate(u);
    t = texel_coordinate(t);
    if (!bilinear) return fetch(i64(std::floor(u)), i64(std::floor(t)));
    if (integer) image_unsupported("bilinear filter on the integer NUM_FORMAT", u32(v.format.num));
    const double us = u - 0.5, ts = t - 0.5;
    const i64 x0 = i64(std::floor(us)), y0 = v.dims == 2 ? i64(std::floor(ts)) : 0;
    const float a = float(us - double(x0));  // multiples of 1/256: exact
    const float b = v.dims == 2 ? float(ts - double(y0)) : 0.0f;
    const std::array<u32, 4> t00 = fetch(x0, y0), t10 = fetch(x0 + 1, y0);
    std::array<u32, 4> t01 = t00, t11 = t10;
    if (v.dims == 2) t01 = fetch(x0, y0 + 1), t11 = fetch(x0 + 1, y0 + 1);
    std::array<u32, 4> out{};
    for (unsigned k = 0; k < 4; ++k) {
        const float top = (1.0f - a) * fp::as_float(t00[k]) + a * fp::as_float(t10[k]);
        const float bottom = (1.0f - a) * fp::as_float(t01[k]) + a * fp::as_float(t11[k]);
        out[k] = fp::as_bits((1.0f - b) * top + b * bottom);
    }
    return out;
}

void image_access(Wave& w, const ExecInst& e) {
    const ImageOp kind = image_ops()[static_cast<std::size_t>(e.inst->op)];
    const ImageView v = image_view(w, e);
    const bool samples = kind == ImageOp::sample || kind == ImageOp::sample_lz || kind == ImageOp::sample_l;
    image::Sampler s;
    if (samples) {
        s = image::decode_sampler(&w.sreg[e.src[1].index]);
        if (s.max_aniso) image_unsupported("S# MAX_ANISO_RATIO", s.max_aniso);
        if (s.depth_compare) image_unsupported("S# DEPTH_COMPARE_FUNC", s.depth_compare);
        if (s.filter_mode) image_unsupported("S# FILTER_MODE (min/max reduction)", s.filter_mode);
        for (u32 f : {s.mag_filter, s.min_filter})
            if (f > image::filter_bilinear) image_unsupported("S# XY_MAG/MIN_FILTER (anisotropic)", f);
        // image_sample's LOD comes from the quad's derivatives; with one mip
        // level it only picks the magnification or minification filter.
        if (kind == ImageOp::sample && s.mag_filter != s.min_filter)
            image_unsupported("S# XY_MIN_FILTER differing from XY_MAG_FILTER under image_sample (implicit LOD)",
                              s.min_filter);
    }
    const bool normalized = samples && !e.inst->unorm && !s.force_unnormalized;
    const unsigned coords = v.dims + (v.array ? 1 : 0);
    const u64 exec = w.exec();
    InFlightMemoryOp entry;
    entry.counter = WaitCounter::vm;
    entry.dest = e.dst.kind == Src::Kind::agpr ? InFlightMemoryOp::Dest::agpr : InFlightMemoryOp::Dest::vgpr;
    entry.dwords = std::uint8_t(e.dst.dwords);
    entry.reg = e.dst.index;
    entry.lanes = exec;
    InFlightMemoryOp& p = issue(w, e, entry);
    u32* data = w.pending.data(p);
    u64 bytes_read = 0;
    for (unsigned l = 0; l < 64; ++l) {
        if (!((exec >> l) & 1)) continue;
        u32 address[4] = {};
        for (unsigned a = 0; a < coords + 1 && a < 4; ++a) address[a] = w.v[e.src[0].index + a][l];
        std::array<u32, 4> texel;
        if (samples) {
            const double u = double(fp::as_float(address[0])) * (normalized ? double(v.r.width) : 1.0);
            const double t =
                v.dims == 2 ? double(fp::as_float(address[1])) * (normalized ? double(v.r.height) : 1.0) : 0.0;
            u32 slice = 0;
            if (v.array) {
                const double z = std::nearbyint(double(fp::as_float(address[v.dims])));
                slice = u32(std::clamp(std::isnan(z) ? 0.0 : z, 0.0, double(v.r.depth - 1)));
            }
            const float lod = kind == ImageOp::sample_l ? fp::as_float(address[coords]) : 0.0f;
            const u32 filter = lod > 0.0f ? s.min_filter : s.mag_filter;
            texel = sample(w, v, s, filter == image::filter_bilinear, u, t, slice, bytes_read);
        } else {
            if (kind == ImageOp::load_mip && address[coords] != 0) image_unsupported("mip level", address[coords]);
            const u32 x = address[0], y = v.dims == 2 ? address[1] : 0, slice = v.array ? address[v.dims] : 0;
            const bool inside = x < v.r.width && (v.dims == 1 || y < v.r.height) && (!v.array || slice < v.r.depth);
            // Out of range: zero ("Image Load": reads outside the image return 0).
            texel = inside ? read_texel(w, v, x, y, slice, bytes_read) : std::array<u32, 4>{};
        }
        unsigned d = 0;
        for (unsigned k = 0; k < 4; ++k)
            if ((e.inst->dmask >> k) & 1) data[64 * d++ + l] = texel[k];
        for (; d < e.dst.dwords; ++d) data[64 * d + l] = 0;  // tfe: no fault status
    }
    w.group->counters.global_read_bytes += bytes_read;
}

// ---- atomics -------------------------------------------------------------
//
// 32-bit and 64-bit (_x2, f64) read-modify-writes. The 64-bit forms take
// their data in a VGPR pair and cmpswap_x2 its compare value in the next
// pair (Vega ISA "FLAT_ATOMIC_CMPSWAP_X2": src = DATA[0:1], cmp =
// DATA[2:3]); the f64 min/max follow the CDNA2 pseudocode ("MEM[ADDR] =
// (src < tmp) ? src : tmp", and > for max), so a NaN never replaces memory.

// f16 a + b, rounded once to nearest even (the sum of two f16 is exact in a
// double); NaN operands come back quieted, inf - inf is the default NaN.
u32 add_half(u32 a, u32 b) {
    auto is_nan = [](u32 h) { return (h & 0x7fffu) > 0x7c00u; };
    auto value = [](u32 h) {
        const int exponent = int((h >> 10) & 0x1f), mantissa = int(h & 0x3ff);
        const double magnitude =
            exponent ? std::ldexp(double(mantissa | 0x400), exponent - 25) : std::ldexp(double(mantissa), -24);
        return (h & 0x8000u) ? -magnitude : magnitude;
    };
    if (is_nan(a)) return a | 0x200u;
    if (is_nan(b)) return b | 0x200u;
    const bool a_inf = (a & 0x7fffu) == 0x7c00u, b_inf = (b & 0x7fffu) == 0x7c00u;
    if (a_inf && b_inf && ((a ^ b) & 0x8000u)) return 0x7e00u;
    if (a_inf || b_inf) return a_inf ? a : b;
    const double sum = value(a) + value(b);
    if (sum == 0) return (a & b & 0x8000u);  // -0 only for -0 + -0
    const u32 sign = sum < 0 ? 0x8000u : 0u;
    int e;
    std::frexp(std::fabs(sum), &e);  // |sum| in [2^(e-1), 2^e)
    const int ulp_exponent = std::max(e - 11, -24);
    const double units = std::nearbyint(std::ldexp(std::fabs(sum), -ulp_exponent));  // the significand in ulps
    const double rounded = std::ldexp(units, ulp_exponent);
    if (rounded >= 65536.0 || (rounded > 65504.0)) return sign | 0x7c00u;
    if (rounded < 0x1p-14) return sign | u32(units);  // denormal: the ulp is 2^-24
    int re;
    std::frexp(rounded, &re);
    const u32 mantissa = u32(std::ldexp(rounded, 11 - re)) - 0x400u;
    return sign | u32(re - 1 + 15) << 10 | mantissa;
}

// Applies op to *host atomically and returns the old value (U: u32 or u64).
template <class U>
U atomic_apply(std::uint8_t* host, AtomicKind op, U data, U compare) {
    using S = std::make_signed_t<U>;
    U* p = reinterpret_cast<U*>(host);
    U old = __atomic_load_n(p, __ATOMIC_RELAXED);
    while (true) {
        U value = old;
        switch (op) {
        case AtomicKind::none: break;
        case AtomicKind::swap: value = data; break;
        case AtomicKind::cmpswap: value = old == compare ? data : old; break;
        case AtomicKind::add: value = old + data; break;
        case AtomicKind::sub: value = old - data; break;
        case AtomicKind::rsub: value = data - old; break;
        case AtomicKind::smin: value = S(old) < S(data) ? old : data; break;
        case AtomicKind::umin: value = old < data ? old : data; break;
        case AtomicKind::smax: value = S(old) > S(data) ? old : data; break;
        case AtomicKind::umax: value = old > data ? old : data; break;
        case AtomicKind::and_: value = old & data; break;
        case AtomicKind::or_: value = old | data; break;
        case AtomicKind::xor_: value = old ^ data; break;
        case AtomicKind::inc: value = old >= data ? 0 : old + 1; break;
        case AtomicKind::dec: value = (old == 0 || old > data) ? data : old - 1; break;
        case AtomicKind::add_f32: value = U(fp::as_bits(fp::as_float(u32(old)) + fp::as_float(u32(data)))); break;
        case AtomicKind::add_f64: value = U(fp::double_bits(fp::as_double(old) + fp::as_double(data))); break;
        case AtomicKind::min_f64: value = fp::as_double(data) < fp::as_double(old) ? data : old; break;
        case AtomicKind::max_f64: value = fp::as_double(data) > fp::as_double(old) ? data : old; break;
        case AtomicKind::pk_add_f16:
            value =
                U(add_half(u32(old) & 0xffff, u32(data) & 0xffff) | add_half(u32(old) >> 16, u32(data) >> 16) << 16);
            break;
        }
        if (__atomic_compare_exchange_n(p, &old, value, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return old;
    }
}

void vmem_atomic(Wave& w, const ExecInst& e) {
    const AtomicKind op = e.inst->info().atomic;
    const unsigned dwords = e.inst->info().access_bytes / 4;
    const u64 exec = w.exec();
    LaneAddresser addr(w, e);
    const bool buffer = e.inst->info().family == Family::MUBUF;
    const Src& data = buffer ? e.dst : e.src[1];
    const bool returns = e.inst->glc;
    InFlightMemoryOp entry;
    entry.counter = WaitCounter::vm;
    entry.writes_memory = true;
    if (returns) {
        entry.dest = InFlightMemoryOp::Dest::vgpr;
        entry.dwords = std::uint8_t(dwords);
        entry.reg = e.dst.index;  // MUBUF: vdata itself; FLAT/GLOBAL: vdst
        entry.lanes = exec;
    }
    InFlightMemoryOp& p = issue(w, e, entry);
    u32* out = w.pending.data(p);
    MemoryAccess* access = observed_global_access(w, true, exec, 4 * dwords);
    if (access) access->read = true;
    for (unsigned l = 0; l < 64; ++l) {
        if (!((exec >> l) & 1)) continue;
        u64 address;
        std::uint8_t* host = addr.at(l, 0, 4 * dwords, &address);
        if (access) access->address[0][l] = address;
        if (access && !addr.last_shared()) access->lanes &= ~(u64{1} << l);
        if (!host) {
            for (unsigned d = 0; d < dwords; ++d) out[64 * d + l] = 0;
            continue;
        }
        if (address & (4 * dwords - 1)) fault_at(FaultKind::misaligned, "misaligned atomic", address);
        if (w.group->weak && addr.last_shared()) w.group->weak->before_atomic(w, address, 4 * dwords);
        if (dwords == 1) {
            const u32 value = vreg(w, data, 0)[l];
            const u32 compare = op == AtomicKind::cmpswap ? vreg(w, data, 1)[l] : 0;
            out[l] = atomic_apply<u32>(host, op, value, compare);
        } else {
            auto pair = [&](unsigned first) {
                return u64(vreg(w, data, first)[l]) | u64(vreg(w, data, first + 1)[l]) << 32;
            };
            const u64 old = atomic_apply<u64>(host, op, pair(0), op == AtomicKind::cmpswap ? pair(2) : 0);
            out[l] = u32(old);
            out[64 + l] = u32(old >> 32);
        }
        w.group->counters.global_read_bytes += 4 * dwords;
        w.group->counters.global_write_bytes += 4 * dwords;
    }
    if (w.group->weak) w.group->weak->store_issued(w);
    if (access) w.group->observer->memory_access(w, e, *access);
}

void invalidate_l1(Wave& w, const ExecInst&) {
    if (w.group->weak) w.group->weak->invalidate(w, WeakMemory::Cache::vector_l1);
}

}  // namespace

std::uint32_t atomic_apply32(std::uint8_t* host, AtomicKind op, std::uint32_t data, std::uint32_t compare) {
    return atomic_apply<u32>(host, op, data, compare);
}
std::uint64_t atomic_apply64(std::uint8_t* host, AtomicKind op, std::uint64_t data, std::uint64_t compare) {
    return atomic_apply<u64>(host, op, data, compare);
}

void register_memory(Table& t) {
    for (std::size_t i = 1; i < op_count; ++i) {
        const Op op = static_cast<Op>(i);
        const OpInfo& info = op_info(op);
        const bool vmem = info.family == Family::MUBUF || info.family == Family::GLOBAL ||
                          info.family == Family::FLAT || info.family == Family::SCRATCH;
        if (!vmem) continue;
        if (info.components) {  // typed buffer access (buffer_*_format_*)
            TypedOp& typed = typed_ops()[i];
            typed.d16 = info.has(OF_D16);
            typed.hi = info.has(OF_HIGH_HALF);
            typed.count = info.components;
            if (info.has(OF_LOAD)) set(t, op, typed_load, InstClass::vmem_load);
            else if (info.has(OF_STORE)) set(t, op, typed_store, InstClass::vmem_store);
        } else if (info.atomic != AtomicKind::none) {  // 32-bit and 64-bit atomics, the packed f16 add
            set(t, op, vmem_atomic, InstClass::vmem_atomic);
        } else if (info.access_bytes && info.has(OF_LOAD)) {
            formats()[i] = format_of(info);
            set(t, op, vmem_load, InstClass::vmem_load);
        } else if (info.access_bytes && info.has(OF_STORE)) {
            formats()[i] = format_of(info);
            set(t, op, vmem_store, InstClass::vmem_store);
        }
    }
    static constexpr std::pair<Op, ImageOp> images[] = {{Op::image_load, ImageOp::load},
                                                        {Op::image_sample, ImageOp::sample},
                                                        {Op::image_load_mip, ImageOp::load_mip},
                                                        {Op::image_sample_lz, ImageOp::sample_lz},
                                                        {Op::image_sample_l, ImageOp::sample_l}};
    for (const auto& [op, kind] : images) {
        image_ops()[static_cast<std::size_t>(op)] = kind;
        set(t, op, image_access, InstClass::vmem_load);
    }
    // Cache control: the caches exist only in the random schedule's weak
    // memory, which has the vector L1 alone (the L2 is coherent for one agent).
    for (Op op : {Op::buffer_wbinvl1, Op::buffer_wbinvl1_vol, Op::buffer_wbl2, Op::buffer_inv, Op::buffer_invl2})
        set(t, op, invalidates_l1(op) ? invalidate_l1 : no_effect, InstClass::other);
}

}  // namespace dppgemm::emu::sem
