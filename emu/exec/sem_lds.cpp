// LDS (ds_*) instructions. Widths and address forms come from the mnemonic
// (ds_read2st64_b64: two addresses, offsets scaled by 64 elements of 8
// bytes). Every access is bounds-checked against the workgroup's LDS size;
// reads land at s_waitcnt lgkmcnt like other loads. Counters: one lane
// request per active lane, bytes moved, bank-conflict cycles (lds.hpp).

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define DPPGEMM_LDS_VECTOR_GATHERS 1
#endif

#include "emu/exec/semantics.hpp"
#include "emu/util.hpp"

namespace dppgemm::emu::sem {

namespace {

struct DsFormat {
    std::uint8_t bytes = 4;      // element width in bytes (1, 2, 4, 8, 12, 16)
    bool two_addresses = false;  // read2/write2
    bool st64 = false;           // offsets in units of 64 elements
    bool sign = false;
    bool d16 = false, hi = false;
    unsigned dwords_per_element() const { return bytes <= 4 ? 1u : bytes / 4u; }
    unsigned result_dwords() const { return dwords_per_element() * (two_addresses ? 2u : 1u); }
};

std::array<DsFormat, op_count>& formats() {
    static std::array<DsFormat, op_count> table{};
    return table;
}

DsFormat format_of(const OpInfo& info) {
    DsFormat f;
    f.bytes = info.access_bytes;
    f.two_addresses = info.has(OF_PAIR);
    f.st64 = info.has(OF_ST64);
    f.sign = info.has(OF_SIGN);
    f.d16 = info.has(OF_D16);
    f.hi = info.has(OF_HIGH_HALF);
    return f;
}

// Full EXEC without libgcc's __popcountdi2 (the baseline x86-64 build has no popcnt).
u32 popcount(u64 x) { return x == ~0ull ? 64u : u32(__builtin_popcountll(x)); }

// All lanes' byte addresses (inactive lanes too: the loops stay branch-free)
// and the largest of them.
DPPGEMM_AVX2_CLONES void lane_addresses(const Wave& w, const ExecInst& e, const DsFormat& f, LdsLaneAddresses& out) {
    const u32* base = w.v[e.src[0].index];
    out.elements = f.two_addresses ? 2 : 1;
    out.dwords_per_element = f.dwords_per_element();
    u32 highest = 0;
    if (!f.two_addresses) {
        const u32 offset = u32(e.inst->offset & 0xffff);
        for (unsigned l = 0; l < 64; ++l) {
            out.byte[0][l] = base[l] + offset;
            highest = std::max(highest, out.byte[0][l]);
        }
    } else {
        const u32 scale = u32(f.bytes) * (f.st64 ? 64u : 1u);
        const u32 offset0 = scale * e.inst->offset0, offset1 = scale * e.inst->offset1;
        for (unsigned l = 0; l < 64; ++l) {
            out.byte[0][l] = base[l] + offset0;
            out.byte[1][l] = base[l] + offset1;
            highest = std::max({highest, out.byte[0][l], out.byte[1][l]});
        }
    }
    out.highest = highest;
}

std::uint8_t* lds_at(Wave& w, u32 address, u32 width) {
    std::uint8_t* host = w.group->lds.at(address, width);
    if (!host)
        fault_at(FaultKind::lds_out_of_range,
                 "LDS access outside the workgroup's " + std::to_string(w.group->lds.size()) + " bytes", address);
    return host;
}

// The largest address of the active lanes.
u32 highest_active(const LdsLaneAddresses& a, u64 exec) {
    if (exec == ~0ull) return a.highest;
    u32 highest = 0;
    for (unsigned el = 0; el < a.elements; ++el)
        for (unsigned l = 0; l < 64; ++l) highest = std::max(highest, a.byte[el][l] & (0u - u32((exec >> l) & 1)));
    return highest;
}

// Faults naming the first active lane's address (lane by lane, element by
// element) whose `width` bytes leave the workgroup's LDS.
void check_bounds(Wave& w, const LdsLaneAddresses& a, u64 exec, u32 width) {
    const u32 highest = highest_active(a, exec);
    if (!exec || u64(highest) + width <= w.group->lds.size()) return;
    for (unsigned l = 0; l < 64; ++l)
        if ((exec >> l) & 1)
            for (unsigned el = 0; el < a.elements; ++el) lds_at(w, a.byte[el][l], width);
}

// Dwords of each active lane into the lane-contiguous planes out[0], out[64], ...
// (a fixed size per instantiation: a variable-length memcpy per lane costs more than the rest).
template <unsigned Dwords>
void gather(const std::uint8_t* lds, const u32* address, u64 exec, u32* out) {
    for (unsigned l = 0; l < 64; ++l) {
        if (!((exec >> l) & 1)) continue;
        u32 value[Dwords];
        std::memcpy(value, lds + address[l], 4 * Dwords);
        for (unsigned d = 0; d < Dwords; ++d) out[64 * d + l] = value[d];
    }
}
template <unsigned Dwords>
void scatter(std::uint8_t* lds, const u32* address, u64 exec, const u32* const* planes) {
    for (unsigned l = 0; l < 64; ++l) {
        if (!((exec >> l) & 1)) continue;
        u32 value[Dwords];
        for (unsigned d = 0; d < Dwords; ++d) value[d] = planes[d][l];
        std::memcpy(lds + address[l], value, 4 * Dwords);
    }
}

// ds_read_b128 with every lane active, the GEMM's LDS read: four lanes' rows
// at a time, transposed into the four dword planes (moves only, bits intact).
#if defined(__SSE2__)
// Lanes l..l+3's four dwords (one row each) into the four dword planes.
inline void store_transposed_quad(__m128 row0, __m128 row1, __m128 row2, __m128 row3, u32* out, unsigned l) {
    _MM_TRANSPOSE4_PS(row0, row1, row2, row3);
    _mm_storeu_ps(reinterpret_cast<float*>(out + l), row0);
    _mm_storeu_ps(reinterpret_cast<float*>(out + 64 + l), row1);
    _mm_storeu_ps(reinterpret_cast<float*>(out + 128 + l), row2);
    _mm_storeu_ps(reinterpret_cast<float*>(out + 192 + l), row3);
}
#endif

void gather_all_lanes_x4(const std::uint8_t* lds, const u32* address, u32* out, unsigned lanes = 64) {
#if defined(__SSE2__)
    for (unsigned l = 0; l < lanes; l += 4)
        store_transposed_quad(_mm_loadu_ps(reinterpret_cast<const float*>(lds + address[l])),
                              _mm_loadu_ps(reinterpret_cast<const float*>(lds + address[l + 1])),
                              _mm_loadu_ps(reinterpret_cast<const float*>(lds + address[l + 2])),
                              _mm_loadu_ps(reinterpret_cast<const float*>(lds + address[l + 3])), out, l);
#else
    gather<4>(lds, address, lanes == 64 ? ~0ull : (1ull << lanes) - 1, out);
#endif
}

// ds_read_b64 with every lane active, the 32x32 kernels' LDS read (2x2 per
// lane): four lanes' pairs at a time into the two dword planes (lane by lane
// the gather is a fifth of a 64^3 call's host instructions, callgrind); moves
// only.
void gather_all_lanes_x2(const std::uint8_t* lds, const u32* address, u32* out, unsigned lanes = 64) {
#if defined(__SSE2__)
    for (unsigned l = 0; l < lanes; l += 4) {
        const __m128i lane0 = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(lds + address[l]));
        const __m128i lane1 = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(lds + address[l + 1]));
        const __m128i lane2 = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(lds + address[l + 2]));
        const __m128i lane3 = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(lds + address[l + 3]));
        const __m128i lanes01 = _mm_unpacklo_epi32(lane0, lane1);  // 0.lo 1.lo 0.hi 1.hi
        const __m128i lanes23 = _mm_unpacklo_epi32(lane2, lane3);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + l), _mm_unpacklo_epi64(lanes01, lanes23));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 64 + l), _mm_unpackhi_epi64(lanes01, lanes23));
    }
#else
    gather<2>(lds, address, lanes == 64 ? ~0ull : (1ull << lanes) - 1, out);
#endif
}

// ds_read_b32 with every lane active (the MFMA kernels' LDS read).
void gather_all_lanes_x1(const std::uint8_t* lds, const u32* address, u32* out, unsigned lanes = 64) {
    for (unsigned l = 0; l < lanes; ++l) std::memcpy(out + l, lds + address[l], 4);
}

// Quads of lanes reading consecutive elements (LdsConflictMemo::quads): the
// row-major A tile's reads, 4 lanes in one or two 16-byte loads per dword
// plane pair. Moves and shuffles only, bits intact. With Rows 4 (rows that
// read what row 0 reads: the 32x32 kernels' A reads) the first 16 lanes are
// gathered and each vector is stored into all four rows: copying row 0
// afterwards took about 70 host instructions a ds_read_b64 (callgrind,
// 256^3 dpp0_32_denorm).
#if defined(__SSE2__)
template <unsigned Rows>
inline void store_rows(u32* out, unsigned l, __m128 v) {
    for (unsigned r = 0; r < Rows; ++r) _mm_storeu_ps(reinterpret_cast<float*>(out + l + 16 * r), v);
}
#endif
template <unsigned Rows>
void gather_consecutive_quads(unsigned dwords, const std::uint8_t* lds, const u32* address, u32* out, unsigned lanes) {
#if defined(__SSE2__)
    for (unsigned l = 0; l < lanes; l += 4) {
        const float* quad = reinterpret_cast<const float*>(lds + address[l]);
        if (dwords == 1) {
            store_rows<Rows>(out, l, _mm_loadu_ps(quad));
        } else if (dwords == 2) {
            const __m128 lanes01 = _mm_loadu_ps(quad), lanes23 = _mm_loadu_ps(quad + 4);
            store_rows<Rows>(out, l, _mm_shuffle_ps(lanes01, lanes23, _MM_SHUFFLE(2, 0, 2, 0)));
            store_rows<Rows>(out + 64, l, _mm_shuffle_ps(lanes01, lanes23, _MM_SHUFFLE(3, 1, 3, 1)));
        } else {
            __m128 row0 = _mm_loadu_ps(quad), row1 = _mm_loadu_ps(quad + 4), row2 = _mm_loadu_ps(quad + 8),
                   row3 = _mm_loadu_ps(quad + 12);
            _MM_TRANSPOSE4_PS(row0, row1, row2, row3);
            store_rows<Rows>(out, l, row0);
            store_rows<Rows>(out + 64, l, row1);
            store_rows<Rows>(out + 128, l, row2);
            store_rows<Rows>(out + 192, l, row3);
        }
    }
#else
    const u64 exec = lanes == 64 ? ~0ull : (1ull << lanes) - 1;
    if (dwords == 1) gather<1>(lds, address, exec, out);
    else if (dwords == 2) gather<2>(lds, address, exec, out);
    else gather<4>(lds, address, exec, out);
    for (unsigned d = 0; d < dwords; ++d)
        for (unsigned l = 16; l < 16 * Rows; l += 16) std::memcpy(out + 64 * d + l, out + 64 * d, 16 * sizeof(u32));
#endif
}

// Quads of lanes reading one element (the B tile's broadcast reads): one
// load per quad, each dword spread over the quad's 4 lanes.
template <unsigned Dwords>
void gather_same_quads(const std::uint8_t* lds, const u32* address, u32* out, unsigned lanes) {
    for (unsigned l = 0; l < lanes; l += 4) {
        u32 element[Dwords];
        std::memcpy(element, lds + address[l], 4 * Dwords);
        for (unsigned d = 0; d < Dwords; ++d) {
#if defined(__SSE2__)
            _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 64 * d + l), _mm_set1_epi32(int(element[d])));
#else
            for (unsigned i = 0; i < 4; ++i) out[64 * d + l + i] = element[d];
#endif
        }
    }
}

// The first `lanes` lanes' dwords into the planes by the memo's quad shape.
void gather_quads(unsigned dwords, LdsConflictMemo::Quads quads, const std::uint8_t* lds, const u32* address, u32* out,
                  unsigned lanes) {
    if (quads == LdsConflictMemo::Quads::consecutive) gather_consecutive_quads<1>(dwords, lds, address, out, lanes);
    else if (quads == LdsConflictMemo::Quads::same && dwords == 1) gather_same_quads<1>(lds, address, out, lanes);
    else if (quads == LdsConflictMemo::Quads::same && dwords == 2) gather_same_quads<2>(lds, address, out, lanes);
    else if (quads == LdsConflictMemo::Quads::same) gather_same_quads<4>(lds, address, out, lanes);
    else if (dwords == 1) gather_all_lanes_x1(lds, address, out, lanes);
    else if (dwords == 2) gather_all_lanes_x2(lds, address, out, lanes);
    else gather_all_lanes_x4(lds, address, out, lanes);
}

// Rows of 16 lanes that read one element each (LdsConflictMemo::rows, the
// 32x32 kernels' B reads): one load per row, each dword spread over the
// row's 16 lanes.
template <unsigned Dwords>
void gather_broadcast_rows(const std::uint8_t* lds, const u32* address, u32* out) {
    for (unsigned l = 0; l < 64; l += 16) {
        u32 element[Dwords];
        std::memcpy(element, lds + address[l], 4 * Dwords);
        for (unsigned d = 0; d < Dwords; ++d) {
#if defined(__SSE2__)
            const __m128i value = _mm_set1_epi32(int(element[d]));
            for (unsigned i = 0; i < 16; i += 4)
                _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 64 * d + l + i), value);
#else
            for (unsigned i = 0; i < 16; ++i) out[64 * d + l + i] = element[d];
#endif
        }
    }
}

#if defined(DPPGEMM_LDS_VECTOR_GATHERS)
// The SGEMM kernels' two read shapes with 32- and 64-byte vectors: rows
// that each read one element (B), and rows repeating row 0's 16 lanes whose
// quads read consecutive elements (A). Stores are most of the work (a
// ds_read_b128 writes 1 KiB of planes: 64 16-byte stores with SSE2).
// Moves, shuffles and permutes only, bits intact. With AVX2 (callgrind,
// 256^3; valgrind hides AVX-512) a ds_read took 185 host instructions
// instead of 212 in dpp0_32 (b64), 220 instead of 280 in dpp0_64 (b128).
// lds_gather_isa picks the set; tests/exec/test_fast_paths.cpp compares
// each with the general path.

inline __attribute__((target("avx2"))) __m256i load256(const std::uint8_t* p) {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
}
inline __attribute__((target("avx2"))) __m128i load128(const std::uint8_t* p) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
}
inline u32 load32(const std::uint8_t* p) {
    u32 v;
    std::memcpy(&v, p, 4);
    return v;
}

template <unsigned Dwords>
__attribute__((target("avx2"))) void broadcast_rows_avx2(const std::uint8_t* lds, const u32* address, u32* out,
                                                         const LdsConflictMemo&) {
    for (unsigned r = 0; r < 4; ++r) {
        const std::uint8_t* element = lds + address[16 * r];
        for (unsigned d = 0; d < Dwords; ++d) {
            const __m256i v = _mm256_set1_epi32(int(load32(element + 4 * d)));
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 64 * d + 16 * r), v);
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 64 * d + 16 * r + 8), v);
        }
    }
}

// Lanes 8h..8h+7 of each plane (lanes 4q..4q+3 read 4 x Dwords dwords
// from address[4q] on), stored into every row.
template <unsigned Dwords>
__attribute__((target("avx2"))) void repeated_quads_avx2(const std::uint8_t* lds, const u32* address, u32* out,
                                                         const LdsConflictMemo&) {
    for (unsigned h = 0; h < 2; ++h) {
        const std::uint8_t* quad0 = lds + address[8 * h];
        const std::uint8_t* quad1 = lds + address[8 * h + 4];
        __m256i plane[Dwords];
        if constexpr (Dwords == 1) {
            plane[0] = _mm256_inserti128_si256(_mm256_castsi128_si256(load128(quad0)), load128(quad1), 1);
        } else if constexpr (Dwords == 2) {
            // Per 128 bits: lanes 0 1 4 5 | 2 3 6 7, then the 64-bit halves in order.
            const __m256 q0 = _mm256_castsi256_ps(load256(quad0)), q1 = _mm256_castsi256_ps(load256(quad1));
            plane[0] = _mm256_permute4x64_epi64(_mm256_castps_si256(_mm256_shuffle_ps(q0, q1, 0x88)), 0xd8);
            plane[1] = _mm256_permute4x64_epi64(_mm256_castps_si256(_mm256_shuffle_ps(q0, q1, 0xdd)), 0xd8);
        } else {
            // Lane pairs (i, i + 4) into one register each, then a 4x4
            // transpose per 128 bits.
            const __m256i a0 = load256(quad0), a1 = load256(quad0 + 32);                     // lanes 0|1, 2|3
            const __m256i b0 = load256(quad1), b1 = load256(quad1 + 32);                     // lanes 4|5, 6|7
            const __m256 r0 = _mm256_castsi256_ps(_mm256_permute2x128_si256(a0, b0, 0x20));  // 0|4
            const __m256 r1 = _mm256_castsi256_ps(_mm256_permute2x128_si256(a0, b0, 0x31));  // 1|5
            const __m256 r2 = _mm256_castsi256_ps(_mm256_permute2x128_si256(a1, b1, 0x20));  // 2|6
            const __m256 r3 = _mm256_castsi256_ps(_mm256_permute2x128_si256(a1, b1, 0x31));  // 3|7
            const __m256d t0 = _mm256_castps_pd(_mm256_unpacklo_ps(r0, r1));
            const __m256d t1 = _mm256_castps_pd(_mm256_unpacklo_ps(r2, r3));
            const __m256d t2 = _mm256_castps_pd(_mm256_unpackhi_ps(r0, r1));
            const __m256d t3 = _mm256_castps_pd(_mm256_unpackhi_ps(r2, r3));
            plane[0] = _mm256_castpd_si256(_mm256_unpacklo_pd(t0, t1));
            plane[1] = _mm256_castpd_si256(_mm256_unpackhi_pd(t0, t1));
            plane[2] = _mm256_castpd_si256(_mm256_unpacklo_pd(t2, t3));
            plane[3] = _mm256_castpd_si256(_mm256_unpackhi_pd(t2, t3));
        }
        for (unsigned d = 0; d < Dwords; ++d)
            for (unsigned r = 0; r < 4; ++r)
                _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 64 * d + 16 * r + 8 * h), plane[d]);
    }
}

template <unsigned Dwords>
__attribute__((target("avx512f"))) void broadcast_rows_avx512(const std::uint8_t* lds, const u32* address, u32* out,
                                                              const LdsConflictMemo&) {
    for (unsigned r = 0; r < 4; ++r) {
        const std::uint8_t* element = lds + address[16 * r];
        for (unsigned d = 0; d < Dwords; ++d)
            _mm512_storeu_si512(out + 64 * d + 16 * r, _mm512_set1_epi32(int(load32(element + 4 * d))));
    }
}

// Two quads' 32 bytes each, one in each half, by masked broadcasts (GCC 12
// warns of an uninitialized value inside _mm512_inserti64x4 and the casts).
inline __attribute__((target("avx512f"))) __m512i two_quads_avx512(const std::uint8_t* first,
                                                                   const std::uint8_t* second) {
    return _mm512_mask_broadcast_i64x4(
        _mm512_maskz_broadcast_i64x4(0x0f, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(first))), 0xf0,
        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(second)));
}

template <unsigned Dwords>
__attribute__((target("avx512f"))) void repeated_quads_avx512(const std::uint8_t* lds, const u32* address, u32* out,
                                                              const LdsConflictMemo&) {
    const std::uint8_t* quad[4] = {lds + address[0], lds + address[4], lds + address[8], lds + address[12]};
    __m512i plane[Dwords];
    if constexpr (Dwords == 1) {
        __m512i v = _mm512_maskz_broadcast_i32x4(0x000f, _mm_loadu_si128(reinterpret_cast<const __m128i*>(quad[0])));
        v = _mm512_inserti32x4(v, _mm_loadu_si128(reinterpret_cast<const __m128i*>(quad[1])), 1);
        v = _mm512_inserti32x4(v, _mm_loadu_si128(reinterpret_cast<const __m128i*>(quad[2])), 2);
        plane[0] = _mm512_inserti32x4(v, _mm_loadu_si128(reinterpret_cast<const __m128i*>(quad[3])), 3);
    } else if constexpr (Dwords == 2) {
        // Lanes 0-7 and 8-15 (two dwords each), lane j's dword d at 2j + d of the pair.
        const __m512i low = two_quads_avx512(quad[0], quad[1]), high = two_quads_avx512(quad[2], quad[3]);
        const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
        plane[0] = _mm512_permutex2var_epi32(low, even, high);
        plane[1] = _mm512_permutex2var_epi32(low, _mm512_add_epi32(even, _mm512_set1_epi32(1)), high);
    } else {
        // One quad (four lanes' four dwords) per register: lanes 0-7 from
        // the first two, lanes 8-15 from the last two, then a blend.
        __m512i q[4];
        for (unsigned i = 0; i < 4; ++i) q[i] = _mm512_loadu_si512(quad[i]);
        const __m512i stride = _mm512_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28, 0, 4, 8, 12, 16, 20, 24, 28);
        for (unsigned d = 0; d < 4; ++d) {
            const __m512i index = _mm512_add_epi32(stride, _mm512_set1_epi32(int(d)));
            plane[d] = _mm512_mask_blend_epi32(0xff00, _mm512_permutex2var_epi32(q[0], index, q[1]),
                                               _mm512_permutex2var_epi32(q[2], index, q[3]));
        }
    }
    for (unsigned d = 0; d < Dwords; ++d)
        for (unsigned r = 0; r < 4; ++r) _mm512_storeu_si512(out + 64 * d + 16 * r, plane[d]);
}

#endif

// Every lane's dwords into the planes, at addresses below the LDS size (the
// repeated whole access: 1, 2, 3 or 4 dwords a lane, the memo's
// whole_access_dwords), by the memo's row and quad shapes without the vector
// gathers: rows that read what the first row reads (the 32x32 kernels' A
// reads) get copies of its lanes.
void gather_all_lanes(const std::uint8_t* lds, const u32* address, u32* out, const LdsConflictMemo& memo) {
    const unsigned dwords = memo.whole_access_dwords;
    if (dwords == 3) {
        gather<3>(lds, address, ~0ull, out);
    } else if (memo.rows == LdsConflictMemo::Rows::broadcast) {
        if (dwords == 1) gather_broadcast_rows<1>(lds, address, out);
        else if (dwords == 2) gather_broadcast_rows<2>(lds, address, out);
        else gather_broadcast_rows<4>(lds, address, out);
    } else if (memo.rows == LdsConflictMemo::Rows::repeat && memo.quads == LdsConflictMemo::Quads::consecutive) {
        gather_consecutive_quads<4>(dwords, lds, address, out, 16);
    } else if (memo.rows == LdsConflictMemo::Rows::repeat) {
        gather_quads(dwords, memo.quads, lds, address, out, 16);
        for (unsigned d = 0; d < dwords; ++d)
            for (unsigned l = 16; l < 64; l += 16) std::memcpy(out + 64 * d + l, out + 64 * d, 16 * sizeof(u32));
    } else {
        gather_quads(dwords, memo.quads, lds, address, out, 64);
    }
}

// The repeated whole access's gathers by LdsGatherIsa and
// LdsConflictMemo::vector_gather (0: gather_all_lanes), one signature, so
// that ds_read ends in one indirect tail call: lds_gather_isa()'s call
// and the branches around it were about 20 host instructions a ds_read
// (callgrind, 256^3 dpp0_32).
using WholeGatherFn = void (*)(const std::uint8_t*, const u32*, u32*, const LdsConflictMemo&);
#if defined(DPPGEMM_LDS_VECTOR_GATHERS)
constexpr WholeGatherFn whole_gathers[3][7] = {
    {gather_all_lanes, gather_all_lanes, gather_all_lanes, gather_all_lanes, gather_all_lanes, gather_all_lanes,
     gather_all_lanes},
    {gather_all_lanes, broadcast_rows_avx2<1>, broadcast_rows_avx2<2>, broadcast_rows_avx2<4>, repeated_quads_avx2<1>,
     repeated_quads_avx2<2>, repeated_quads_avx2<4>},
    {gather_all_lanes, broadcast_rows_avx512<1>, broadcast_rows_avx512<2>, broadcast_rows_avx512<4>,
     repeated_quads_avx512<1>, repeated_quads_avx512<2>, repeated_quads_avx512<4>},
};
// lds_gather_isa() read without its call (a function's static: lds.hpp).
LdsGatherIsa& gather_isa = lds_gather_isa();
inline WholeGatherFn whole_gather(const LdsConflictMemo& memo) {
    return whole_gathers[unsigned(gather_isa)][memo.vector_gather];
}
#else
inline WholeGatherFn whole_gather(const LdsConflictMemo&) { return gather_all_lanes; }
#endif

// ds_write_b32 with every lane active (the SGEMM kernels' LDS write), in
// lane order. Unrolled: the loop's own count, compare and branch were half
// of its 6 host instructions a lane (callgrind, 256^3 dpp0_32_denorm, whose
// transposing write takes this loop).
void scatter_all_lanes_x1(std::uint8_t* lds, const u32* address, const u32* data) {
#pragma GCC unroll 16
    for (unsigned l = 0; l < 64; ++l) std::memcpy(lds + address[l], data + l, 4);
}
// The same where each quad of lanes writes four consecutive dwords
// (LdsConflictMemo::quads): one 16-byte store per quad. The dwords of a
// quad are distinct and the quads are stored in lane order, so where lanes
// of different quads write the same dword the later lane's value stays, as
// lane by lane.
void scatter_consecutive_quads_x1(std::uint8_t* lds, const u32* address, const u32* data) {
    for (unsigned l = 0; l < 64; l += 4) std::memcpy(lds + address[l], data + l, 16);
}

// ds_write_b32 of runs of eight (LdsConflictMemo::WriteScatter::runs_of_eight,
// the 32x32 kernels' transposing B write): lanes j, j + 8, ..., j + 56
// write the eight dwords from address[j] on. The data's 64 dwords as an
// 8x8 matrix (row i: lanes 8i..8i+7) transposed, and column j stored at
// address[j]: eight 32-byte stores instead of 64 of 4 bytes. The runs share
// no byte (the memo's condition), so their order does not matter; moves
// and shuffles only, bits intact. Lane by lane (scatter_all_lanes_x1) this
// write took about 100 host instructions more: dpp0_32's two ds_write_b32
// (this and a write by quads) averaged 291, now 239 (AVX2; callgrind,
// 256^3). tests/exec/test_fast_paths.cpp compares each
// instruction set with the general path.
#if defined(__SSE2__)
// Two 4x4 blocks of the matrix per run half: columns 4c..4c+3 of rows 4r..4r+3.
void scatter_runs_of_eight_sse2(std::uint8_t* lds, const u32* address, const u32* data) {
    for (unsigned c = 0; c < 2; ++c)
        for (unsigned r = 0; r < 2; ++r) {
            __m128 row0 = _mm_loadu_ps(reinterpret_cast<const float*>(data + 8 * (4 * r) + 4 * c));
            __m128 row1 = _mm_loadu_ps(reinterpret_cast<const float*>(data + 8 * (4 * r + 1) + 4 * c));
            __m128 row2 = _mm_loadu_ps(reinterpret_cast<const float*>(data + 8 * (4 * r + 2) + 4 * c));
            __m128 row3 = _mm_loadu_ps(reinterpret_cast<const float*>(data + 8 * (4 * r + 3) + 4 * c));
            _MM_TRANSPOSE4_PS(row0, row1, row2, row3);
            _mm_storeu_ps(reinterpret_cast<float*>(lds + address[4 * c] + 16 * r), row0);
            _mm_storeu_ps(reinterpret_cast<float*>(lds + address[4 * c + 1] + 16 * r), row1);
            _mm_storeu_ps(reinterpret_cast<float*>(lds + address[4 * c + 2] + 16 * r), row2);
            _mm_storeu_ps(reinterpret_cast<float*>(lds + address[4 * c + 3] + 16 * r), row3);
        }
}
#endif
#if defined(DPPGEMM_LDS_VECTOR_GATHERS)
__attribute__((target("avx2"))) void scatter_runs_of_eight_avx2(std::uint8_t* lds, const u32* address,
                                                                const u32* data) {
    __m256 row[8];
    for (unsigned i = 0; i < 8; ++i) row[i] = _mm256_loadu_ps(reinterpret_cast<const float*>(data + 8 * i));
    // Per 128 bits: pairs, then quads, then the halves across.
    __m256 t[8], q[8];
    for (unsigned i = 0; i < 8; i += 2) {
        t[i] = _mm256_unpacklo_ps(row[i], row[i + 1]);      // a0 b0 a1 b1 | a4 b4 a5 b5
        t[i + 1] = _mm256_unpackhi_ps(row[i], row[i + 1]);  // a2 b2 a3 b3 | a6 b6 a7 b7
    }
    for (unsigned i = 0; i < 8; i += 4)
        for (unsigned h = 0; h < 2; ++h) {
            q[i + 2 * h] = _mm256_shuffle_ps(t[i + h], t[i + 2 + h], _MM_SHUFFLE(1, 0, 1, 0));  // columns 2h, 2h + 4
            q[i + 2 * h + 1] = _mm256_shuffle_ps(t[i + h], t[i + 2 + h], _MM_SHUFFLE(3, 2, 3, 2));  // 2h + 1, 2h + 5
        }
    // q[4k + c] holds rows 4k..4k+3 of columns c (low half) and c + 4 (high half).
    for (unsigned c = 0; c < 4; ++c) {
        _mm256_storeu_ps(reinterpret_cast<float*>(lds + address[c]), _mm256_permute2f128_ps(q[c], q[4 + c], 0x20));
        _mm256_storeu_ps(reinterpret_cast<float*>(lds + address[c + 4]), _mm256_permute2f128_ps(q[c], q[4 + c], 0x31));
    }
}
#endif
void scatter_runs_of_eight(std::uint8_t* lds, const u32* address, const u32* data) {
#if defined(DPPGEMM_LDS_VECTOR_GATHERS)
    if (gather_isa != LdsGatherIsa::baseline) return scatter_runs_of_eight_avx2(lds, address, data);
#endif
#if defined(__SSE2__)
    scatter_runs_of_eight_sse2(lds, address, data);
#else
    for (unsigned l = 0; l < 64; ++l) std::memcpy(lds + address[l % 8] + 4 * (l / 8), data + l, 4);
#endif
}

using GatherFn = void (*)(const std::uint8_t*, const u32*, u64, u32*);
using ScatterFn = void (*)(std::uint8_t*, const u32*, u64, const u32* const*);
constexpr GatherFn gathers[] = {nullptr, gather<1>, gather<2>, gather<3>, gather<4>};
constexpr ScatterFn scatters[] = {nullptr, scatter<1>, scatter<2>, scatter<3>, scatter<4>};

// 8- and 16-bit reads: zero- or sign-extended, or into the high half (d16_hi).
void gather_sub_dword(const std::uint8_t* lds, const DsFormat& f, const u32* address, u64 exec, u32* out) {
    for (unsigned l = 0; l < 64; ++l) {
        if (!((exec >> l) & 1)) continue;
        const std::uint8_t* host = lds + address[l];
        u32 value = f.bytes == 2 ? u32(host[0] | (host[1] << 8)) : host[0];
        if (f.sign)
            value = f.bytes == 2 ? u32(std::int32_t(std::int16_t(value))) : u32(std::int32_t(std::int8_t(value)));
        if (f.hi) value <<= 16;
        out[l] = value;
    }
}
void scatter_sub_dword(std::uint8_t* lds, const DsFormat& f, const u32* address, u64 exec, const u32* data) {
    for (unsigned l = 0; l < 64; ++l) {
        if (!((exec >> l) & 1)) continue;
        const u32 value = f.hi ? data[l] >> 16 : data[l];
        std::memcpy(lds + address[l], &value, f.bytes);  // little-endian: the low bytes
    }
}

// Counters, the bank model and the observer.
// Requests and bytes of an LDS access: `active` lanes, `bytes` in all.
void count_requests(Counters& c, bool write, u64 active, u64 bytes) {
    if (write) {
        c.lds_write_requests += active;
        c.lds_write_bytes += bytes;
    } else {
        c.lds_read_requests += active;
        c.lds_read_bytes += bytes;
    }
}

// What an observer is told of an LDS access (the lanes' offsets are lent,
// element-major, for the call only).
void observe(Wave& w, const ExecInst& e, bool write, u64 exec, unsigned bytes, unsigned elements,
             std::uint64_t pattern_id, const std::uint32_t (*offsets)[64], u32 offset_added = 0) {
    WorkgroupObserver* o = w.group->observer;
    MemoryAccess& access = w.group->observed_access;
    access.begin(MemoryAccess::Space::lds, write, exec, bytes, elements);
    access.pattern_id = pattern_id;
    access.lds_offsets = offsets;
    access.lds_offset_added = offset_added;
    o->memory_access(w, e, access);
    access.lds_offsets = nullptr;
}

// What an access through an address VGPR with a slot found
// (ExecInst::lds_verifier_slot(), Wave::lds_verified): the pattern its VGPR
// had, or 0. The accesses the slot verifies read it (address_repeats).
inline void record_verified(Wave& w, const ExecInst& e, std::uint64_t pattern) {
    if (const unsigned slot = e.lds_verifier_slot()) w.lds_verified[slot - 1] = pattern;
}

void account(Wave& w, const ExecInst& e, const DsFormat& f, u64 exec, bool write, const LdsLaneAddresses& a) {
    Counters& c = w.group->counters;
    const u64 active = popcount(exec);
    count_requests(c, write, active, active * f.bytes * a.elements);
    const LdsLaneGrouping& passes = w.group->lds_banks->passes(write, a.elements * a.dwords_per_element);
    LdsConflictMemo& memo = w.group->memo(e.index);
    const std::uint64_t pattern_before = memo.pattern_id;
    c.lds_bank_conflict_cycles += lds_bank_conflict_cycles(a, exec, passes, memo);
    if (memo.pattern_id != pattern_before) ++w.group->lds_memo_changes;
    // With every lane active and one address per lane, the memo now holds
    // the address VGPR's pattern (lane l's base minus lane 0's).
    memo.verified_wave = &w;
    memo.verified_pattern = exec == ~0ull && a.elements == 1 ? memo.pattern_id : 0;
    record_verified(w, e, memo.verified_pattern);
    if (w.group->observer) observe(w, e, write, exec, f.bytes, a.elements, exec ? memo.pattern_id : 0, a.byte);
}

// The common access of a loop body, in one pass (the SGEMM kernels' LDS
// reads and writes): one address per lane, whole dwords, every lane active,
// and the lane pattern the instruction's conflict memo holds (lds.hpp), as a
// loop's access at a new base has. The memo then gives the bank conflicts,
// and one comparison gives the bounds for all 64 lanes: when lane 0's base +
// offset does not pass 2^32 and the memo's largest relative address (lane
// l's address minus lane 0's) ends inside the LDS, every lane's base +
// offset is lane 0's address plus its relative one, inside the LDS and
// without wrapping. The counter queue must also be below its limit, so that
// issuing retires nothing (a landing could change the address or data VGPRs
// the general path reads before it). Anything else takes the general path
// (every lane's address and bounds, the memo's comparison and update),
// which faults where an access leaves the LDS. An observer (the checkers,
// the cycle model's trace recorder) sees the same access on either path
// (account_repeated). tests/exec/test_fast_paths.cpp compares the two
// (use_general_paths forces the general path), with and without an
// observer. Returns the memo, or null for the general path.
// Whether every lane's address VGPR has the memo's pattern. Known without
// looking when the instruction's verifier (ExecInst::lds_address_verifier:
// the access just before through the same VGPR, which nothing wrote since)
// found that VGPR in a pattern equal to the memo's; this wave made that
// access on this thread (a wave's thread changes only at a barrier, which
// the verifier's code does not pass), so the verifier's memo tells what it
// found then. Otherwise one pass over the lanes.
// With ExecInst::lds_loop_slot(), the wave's slot holds what its last
// access through the VGPR found (Wave::lds_verified, record_verified), and
// only uniform adds changed the VGPR since (program.cpp,
// lds_loop_verifiers): the lanes' relative pattern is still that one.
// lds_address_verifier's memo, if it still holds that pattern, tells
// whether it is this memo's.
bool address_repeats(const Wave& w, const ExecInst& e, LdsConflictMemo& memo) {
    if (const unsigned slot = e.lds_loop_slot()) {
        if (const std::uint64_t found = w.lds_verified[slot - 1]) {
            if (memo.same_as == found) return true;
            const LdsConflictMemo* by = w.group->lds_memo[e.lds_address_verifier - 1].get();
            if (by && by->pattern_id == found) {
                if (!lds_patterns_equal(by->relative[0], memo.relative[0])) return false;
                memo.same_as = found;
                ++w.group->lds_memo_changes;
                return true;
            }
        }
    } else if (e.lds_address_verifier) {
        const LdsConflictMemo* by = w.group->lds_memo[e.lds_address_verifier - 1].get();
        if (by && by->verified_wave == &w && by->verified_pattern) {
            if (memo.same_as == by->verified_pattern) return true;
            if (!lds_patterns_equal(by->relative[0], memo.relative[0])) return false;
            memo.same_as = by->verified_pattern;
            ++w.group->lds_memo_changes;
            return true;
        }
    }
    return lds_pattern_repeats_all_lanes(w.v[e.src[0].index], memo);
}

// Inlined into ds_read and ds_write, as are account_repeated and
// read_destination: the calls' register saves were about 40 host
// instructions of a 32x32 ds_read_b64's 400 (callgrind, 256^3 dpp0_32_denorm).
// Reads the instruction's second line (ExecInst::lds_whole_dwords,
// lds_offset) and the memo's first, not the decoded Inst or the format table.
// whole_access_memo: every condition but the address VGPR's pattern;
// repeated_whole_access: all of them.
__attribute__((always_inline)) inline LdsConflictMemo* whole_access_memo(Wave& w, const ExecInst& e, bool write) {
    const unsigned dwords = e.lds_whole_dwords;
    if (!dwords || w.exec() != ~0ull) return nullptr;
    Workgroup& g = *w.group;
    LdsConflictMemo* memo = g.lds_memo[e.index].get();
    if (!memo || memo->whole_access_dwords != dwords) return nullptr;
    if (w.pending.lgkmcnt() >= InFlightQueue::max_lgkm) return nullptr;
    // In 64 bits: an origin past 2^32 also ends outside the LDS.
    const u64 origin = u64(w.v[e.src[0].index][0]) + e.lds_offset;
    if (origin + memo->highest_end > g.lds.size()) return nullptr;  // highest_end saturates: past any LDS
    if (memo->origin_byte_in_dword != origin % 4) return nullptr;
    if (memo->passes != &g.lds_banks->passes(write, dwords)) return nullptr;
    return memo;
}
__attribute__((always_inline)) inline LdsConflictMemo* repeated_whole_access(Wave& w, const ExecInst& e, bool write) {
    LdsConflictMemo* memo = whole_access_memo(w, e, write);
    return memo && address_repeats(w, e, *memo) ? memo : nullptr;
}
// address_repeats' answer when the verifier's memo gives it without a call
// (the verifier found the pattern this memo was found equal to), else false.
__attribute__((always_inline)) inline bool address_verified(const Wave& w, const ExecInst& e,
                                                            const LdsConflictMemo& memo) {
    if (!e.lds_address_verifier) return false;
    if (const unsigned slot = e.lds_loop_slot()) {
        const std::uint64_t found = w.lds_verified[slot - 1];
        return found && memo.same_as == found;
    }
    const LdsConflictMemo* by = w.group->lds_memo[e.lds_address_verifier - 1].get();
    return by && by->verified_wave == &w && by->verified_pattern && memo.same_as == by->verified_pattern;
}

// account_repeated's report to an observer: the same access the general
// path gives it; lane l's offset is base[l] + offset (no wrap:
// repeated_whole_access), lent as the address VGPR and the offset to add
// (building the 64 sums was about 85 host instructions an access, checked
// 256^3 dpp0, callgrind), and the memo's pattern id. Out of line: the
// observed path stays out of the unobserved one's frame.
__attribute__((noinline)) void observe_repeated(Wave& w, const ExecInst& e, bool write, const LdsConflictMemo& memo) {
    observe(w, e, write, ~0ull, 4 * e.lds_whole_dwords, 1, memo.pattern_id, &w.v[e.src[0].index], e.lds_offset);
}

// account() for a repeated whole access: 64 lanes, the memo's conflicts,
// and an observer's report (observe_repeated).
// count_repeated: all but the observer's report.
__attribute__((always_inline)) inline void count_repeated(Wave& w, const ExecInst& e, bool write,
                                                          LdsConflictMemo& memo) {
    Counters& c = w.group->counters;
    count_requests(c, write, 64, 256ull * e.lds_whole_dwords);
    c.lds_bank_conflict_cycles += memo.cycles;
    memo.verified_wave = &w;
    memo.verified_pattern = memo.pattern_id;
    record_verified(w, e, memo.pattern_id);
}
__attribute__((always_inline)) inline void account_repeated(Wave& w, const ExecInst& e, bool write,
                                                            LdsConflictMemo& memo) {
    count_repeated(w, e, write, memo);
    if (__builtin_expect(!w.group->observer, 1)) return;
    observe_repeated(w, e, write, memo);
}

// Issues an LDS entry with nothing to land (a write's, or a read's that
// lands at issue). Below the counter's limit issue() would only push it
// and tell the observer: pushed here, in place, without the call and the
// entry's copy (about 70 host instructions a ds instruction unobserved,
// callgrind, 256^3 dpp0_32_denorm). BelowLimit: the caller knows the
// counter is below it (repeated_whole_access looked).
template <bool BelowLimit = false>
inline void issue_without_data(Wave& w, const ExecInst& e) {
    if (BelowLimit || __builtin_expect(w.pending.lgkmcnt() < InFlightQueue::max_lgkm, 1)) {
        InFlightMemoryOp& p = w.pending.push_without_data<WaitCounter::lgkm_lds>(e.index);
        if (WorkgroupObserver* o = w.group->observer) o->issued(w, e, p);
        return;
    }
    InFlightMemoryOp entry;
    entry.counter = WaitCounter::lgkm_lds;
    issue(w, e, entry);
}

void describe_read(InFlightMemoryOp& entry, const ExecInst& e, unsigned dwords, u32 keep_mask, u64 lanes) {
    entry.dest = e.dst.kind == Src::Kind::agpr ? InFlightMemoryOp::Dest::agpr : InFlightMemoryOp::Dest::vgpr;
    entry.dwords = static_cast<std::uint8_t>(dwords);
    entry.reg = e.dst.index;
    entry.keep_mask = keep_mask;
    entry.lanes = lanes;
}

InFlightMemoryOp& issue_read(Wave& w, const ExecInst& e, unsigned dwords, u32 keep_mask, u64 lanes,
                             bool landed = false) {
    InFlightMemoryOp entry;
    entry.counter = WaitCounter::lgkm_lds;
    entry.landed = landed;
    describe_read(entry, e, dwords, keep_mask, lanes);
    return issue(w, e, entry);
}

// A read that landed at issue under an observer that reads only operands
// (the checkers): its entry is the same as otherwise, marked landed, and
// pushed in place as issue_without_data's (checked 256^3 dpp0: about 1 M
// host instructions fewer, callgrind).
void issue_landed_read(Wave& w, const ExecInst& e, unsigned dwords, u32 keep_mask, u64 lanes) {
    if (__builtin_expect(w.pending.lgkmcnt() >= InFlightQueue::max_lgkm, 0)) {
        issue_read(w, e, dwords, keep_mask, lanes, true);
        return;
    }
    InFlightMemoryOp& p = w.pending.push_without_data<WaitCounter::lgkm_lds>(e.index);
    p.landed = true;
    describe_read(p, e, dwords, keep_mask, lanes);
    w.group->observer->issued(w, e, p);
}

// The end of an LDS atomic: a returning one lands `old` (`dwords` planes of
// 64 lanes) in its destination at lgkmcnt; one that returns nothing holds
// lgkmcnt until it is done.
void finish_atomic(Wave& w, const ExecInst& e, const DsFormat& f, u64 exec, bool returns, const LdsLaneAddresses& a,
                   const u32* old, unsigned dwords) {
    if (returns) {
        InFlightMemoryOp& p = issue_read(w, e, dwords, 0, exec);
        std::memcpy(w.pending.data(p), old, 4 * 64 * dwords);
    } else {
        InFlightMemoryOp entry;
        entry.counter = WaitCounter::lgkm_lds;
        issue(w, e, entry);
    }
    account(w, e, f, exec, !returns, a);
}

// Where a read's data goes once its entry is issued: the destination
// registers when the read may land at issue (ExecInst::lds_lands_at_issue),
// the entry (with nothing to land) still holding lgkmcnt; under an observer
// that reads only operands, the entry the same as otherwise but marked
// landed; else the entry's block, which the s_waitcnt that retires it lands.
template <bool BelowLimit = false>
__attribute__((always_inline)) inline u32* read_destination(Wave& w, const ExecInst& e, unsigned dwords, u32 keep_mask,
                                                            u64 lanes) {
    if (e.lds_lands_at_issue && !w.group->observer) {
        issue_without_data<BelowLimit>(w, e);
        return vreg(w, e.dst);
    }
    if (e.lds_lands_at_issue && w.group->observer_reads_only_operands) {
        issue_landed_read(w, e, dwords, keep_mask, lanes);
        return vreg(w, e.dst);
    }
    return w.pending.data(issue_read(w, e, dwords, keep_mask, lanes));
}

// Every ds_read but the repeated whole access. Out of line and cold, as
// ds_write_general: inside ds_read its locals (the lane addresses) gave
// the fast path a 0x268-byte frame and six register saves (callgrind,
// 256^3 dpp0_32).
// The format is copied: as a reference into the table, every store to the
// registers or the counters may alias it, and its fields were read again
// after each one.
__attribute__((noinline, cold)) void ds_read_general(Wave& w, const ExecInst& e) {
    const DsFormat f = formats()[static_cast<std::size_t>(e.inst->op)];
    const u64 exec = w.exec();
    LdsLaneAddresses a;
    lane_addresses(w, e, f, a);
    check_bounds(w, a, exec, f.bytes);
    u32* data = read_destination(w, e, f.result_dwords(), f.d16 ? (f.hi ? 0x0000ffffu : 0xffff0000u) : 0u, exec);
    const std::uint8_t* lds = w.group->lds.at(0, 0);
    for (unsigned el = 0; el < a.elements; ++el) {
        u32* out = data + 64 * el * a.dwords_per_element;
        if (f.bytes >= 4 && a.dwords_per_element == 4 && exec == ~0ull) gather_all_lanes_x4(lds, a.byte[el], out);
        else if (f.bytes >= 4 && a.dwords_per_element == 2 && exec == ~0ull) gather_all_lanes_x2(lds, a.byte[el], out);
        else if (f.bytes >= 4) gathers[a.dwords_per_element](lds, a.byte[el], exec, out);
        else gather_sub_dword(lds, f, a.byte[el], exec, out);
    }
    account(w, e, f, exec, false, a);
}

// The repeated whole access (repeated_whole_access holds) under any
// observer and destination.
__attribute__((noinline)) void ds_read_repeated(Wave& w, const ExecInst& e, LdsConflictMemo& memo) {
    // lds + offset + base[l] is lane l's address (repeated_whole_access).
    const unsigned dwords = e.lds_whole_dwords;
    const std::uint8_t* lds = w.group->lds.at(0, 0) + e.lds_offset;
    const u32* base = w.v[e.src[0].index];
    u32* out = read_destination<true>(w, e, dwords, 0, ~0ull);
    whole_gather(memo)(lds, base, out, memo);
    account_repeated(w, e, false, memo);
}

// The common case of ds_read_repeated: unobserved, landing at issue
// (the caller looked). Ends in a tail call: no frame of its own.
// read_repeated_unobserved but for the entry: the counts and the rows.
// `out`: the destination VGPRs, or an LDS-fed block's rows (LdsBlockPlan).
__attribute__((always_inline)) inline void read_repeated_rows(Wave& w, const ExecInst& e, LdsConflictMemo& memo,
                                                              u32* out) {
    count_repeated(w, e, false, memo);
    const std::uint8_t* lds = w.group->lds.at(0, 0) + e.lds_offset;
    const u32* base = w.v[e.src[0].index];
    return whole_gather(memo)(lds, base, out, memo);
}
__attribute__((always_inline)) inline void read_repeated_unobserved(Wave& w, const ExecInst& e, LdsConflictMemo& memo,
                                                                    u32* out) {
    w.pending.push_without_data<WaitCounter::lgkm_lds>(e.index);  // below the limit: whole_access_memo
    return read_repeated_rows(w, e, memo, out);
}

// whole_access_memo holds, and the address VGPR's pattern is to be looked at.
__attribute__((noinline)) void ds_read_looking(Wave& w, const ExecInst& e, LdsConflictMemo& memo) {
    if (!address_repeats(w, e, memo)) return ds_read_general(w, e);
    if (!e.lds_lands_at_issue || w.group->observer) return ds_read_repeated(w, e, memo);
    read_repeated_unobserved(w, e, memo, vreg(w, e.dst));
}

// The SGEMM kernels' LDS reads: the repeated whole access whose address
// the verifier vouches for, unobserved, landing at issue. Every call here
// is a tail call (but InFlightQueue's first allocation of a data block),
// so that this path saves 4 registers, not 6, in a smaller frame; the rest
// goes to ds_read_looking, ds_read_repeated or ds_read_general. A ds_read
// took 174 host instructions instead of 185 in dpp0_32, 210 instead of 220
// in dpp0_64 (callgrind, 256^3, AVX2 gathers).
void ds_read(Wave& w, const ExecInst& e) {
    LdsConflictMemo* memo = whole_access_memo(w, e, false);
    if (__builtin_expect(!memo, 0)) return ds_read_general(w, e);
    if (!address_verified(w, e, *memo)) return ds_read_looking(w, e, *memo);
    if (!e.lds_lands_at_issue || w.group->observer) return ds_read_repeated(w, e, *memo);
    read_repeated_unobserved(w, e, *memo, vreg(w, e.dst));
}

// The reads of an LDS-fed multiply-add block (lds_multiply_add_block): the
// repeated whole access whose address the verifier vouches for, in an
// unobserved wave (the block's caller looked), landing at issue (the block
// holds only such reads). False, having done nothing, for any other.
// `out`: as in read_repeated_unobserved.
__attribute__((always_inline)) inline bool block_read(Wave& w, const ExecInst& e, u32* out) {
    LdsConflictMemo* memo = whole_access_memo(w, e, false);
    if (!memo || !address_verified(w, e, *memo)) return false;
    read_repeated_unobserved(w, e, *memo, out);
    return true;
}

__attribute__((noinline, cold)) void ds_write_general(Wave& w, const ExecInst& e) {
    const DsFormat f = formats()[static_cast<std::size_t>(e.inst->op)];  // a copy, as in ds_read_general
    const u64 exec = w.exec();
    LdsLaneAddresses a;
    lane_addresses(w, e, f, a);
    check_bounds(w, a, exec, f.bytes);
    std::uint8_t* lds = w.group->lds.at(0, 0);
    for (unsigned el = 0; el < a.elements; ++el) {
        const Src& data = el == 0 ? e.src[1] : e.src[2];
        if (f.bytes < 4) {
            scatter_sub_dword(lds, f, a.byte[el], exec, vreg(w, data, 0));
            continue;
        }
        const u32* planes[4];
        for (unsigned d = 0; d < a.dwords_per_element; ++d) planes[d] = vreg(w, data, d);
        scatters[a.dwords_per_element](lds, a.byte[el], exec, planes);
    }
    InFlightMemoryOp entry;
    entry.counter = WaitCounter::lgkm_lds;
    issue(w, e, entry);
    account(w, e, f, exec, true, a);
}

void ds_write(Wave& w, const ExecInst& e) {
    LdsConflictMemo* memo = repeated_whole_access(w, e, true);
    if (__builtin_expect(!memo, 0)) return ds_write_general(w, e);
    const unsigned dwords = e.lds_whole_dwords;
    std::uint8_t* lds = w.group->lds.at(0, 0) + e.lds_offset;
    const u32* base = w.v[e.src[0].index];
    if (dwords == 1 && memo->write_scatter == LdsConflictMemo::WriteScatter::consecutive_quads) {
        scatter_consecutive_quads_x1(lds, base, vreg(w, e.src[1], 0));
    } else if (dwords == 1 && memo->write_scatter == LdsConflictMemo::WriteScatter::runs_of_eight) {
        scatter_runs_of_eight(lds, base, vreg(w, e.src[1], 0));
    } else if (dwords == 1) {
        scatter_all_lanes_x1(lds, base, vreg(w, e.src[1], 0));
    } else {
        const u32* planes[4];
        for (unsigned d = 0; d < dwords; ++d) planes[d] = vreg(w, e.src[1], d);
        scatters[dwords](lds, base, ~0ull, planes);
    }
    issue_without_data<true>(w, e);
    account_repeated(w, e, true, *memo);
}

// 32-bit LDS atomics; the _rtn forms return the old value. ds_cmpst: data0
// is the compare value, data1 the new one. 4-byte aligned addresses (the
// unaligned mode covers loads and stores, not atomics: docs/checkers.md).
template <bool Returns>
void ds_atomic(Wave& w, const ExecInst& e) {
    const u64 exec = w.exec();
    const AtomicKind op = e.inst->info().atomic;
    const bool cmpst = op == AtomicKind::cmpswap;
    const DsFormat f;
    LdsLaneAddresses a;
    lane_addresses(w, e, f, a);
    u32 old[64] = {};
    for (unsigned l = 0; l < 64; ++l) {
        if (!((exec >> l) & 1)) continue;
        if (a.byte[0][l] & 3) fault_at(FaultKind::lds_misaligned, "misaligned LDS atomic", a.byte[0][l]);
        std::uint8_t* host = lds_at(w, a.byte[0][l], 4);
        const u32 data0 = vreg(w, e.src[1])[l];
        const u32 data1 = e.src[2].kind != Src::Kind::none ? vreg(w, e.src[2])[l] : 0;
        old[l] = cmpst ? atomic_apply32(host, op, data1, data0) : atomic_apply32(host, op, data0, 0);
    }
    finish_atomic(w, e, f, exec, Returns, a, old, 1);
}

// 64-bit LDS atomics (data in VGPR pairs; ds_cmpst_b64: data0 the compare
// value, data1 the new one, as for 32 bits). 8-byte aligned addresses.
template <bool Returns>
void ds_atomic64(Wave& w, const ExecInst& e) {
    const u64 exec = w.exec();
    const AtomicKind op = e.inst->info().atomic;
    const bool cmpst = op == AtomicKind::cmpswap;
    DsFormat f;
    f.bytes = 8;
    LdsLaneAddresses a;
    lane_addresses(w, e, f, a);
    u32 old[2][64] = {};
    auto pair = [&](const Src& s, unsigned l) { return u64(vreg(w, s, 0)[l]) | u64(vreg(w, s, 1)[l]) << 32; };
    for (unsigned l = 0; l < 64; ++l) {
        if (!((exec >> l) & 1)) continue;
        if (a.byte[0][l] & 7) fault_at(FaultKind::lds_misaligned, "misaligned 64-bit LDS atomic", a.byte[0][l]);
        std::uint8_t* host = lds_at(w, a.byte[0][l], 8);
        const u64 data0 = pair(e.src[1], l);
        const u64 result =
            cmpst ? atomic_apply64(host, op, pair(e.src[2], l), data0) : atomic_apply64(host, op, data0, 0);
        old[0][l] = u32(result);
        old[1][l] = u32(result >> 32);
    }
    finish_atomic(w, e, f, exec, Returns, a, old[0], 2);
}

// Read-modify-writes of one T per lane with their own rule F(old, DATA,
// DATA2) (Vega ISA "DS" opcode pseudocode). A workgroup's waves run in turn,
// so the LDS needs no host atomics.
template <class T, T (*F)(T, T, T), bool Returns>
void ds_rmw(Wave& w, const ExecInst& e) {
    const u64 exec = w.exec();
    DsFormat f;
    f.bytes = sizeof(T);
    LdsLaneAddresses a;
    lane_addresses(w, e, f, a);
    constexpr unsigned dwords = sizeof(T) / 4;
    u32 old[dwords][64] = {};
    auto value = [&](const Src& s, unsigned l) {
        if (s.kind == Src::Kind::none) return T(0);
        u64 v = vreg(w, s, 0)[l];
        if (dwords == 2) v |= u64(vreg(w, s, 1)[l]) << 32;
        return T(v);
    };
    for (unsigned l = 0; l < 64; ++l) {
        if (!((exec >> l) & 1)) continue;
        if (a.byte[0][l] % sizeof(T)) fault_at(FaultKind::lds_misaligned, "misaligned LDS atomic", a.byte[0][l]);
        std::uint8_t* host = lds_at(w, a.byte[0][l], sizeof(T));
        T before;
        std::memcpy(&before, host, sizeof(T));
        const T after = F(before, value(e.src[1], l), value(e.src[2], l));
        std::memcpy(host, &after, sizeof(T));
        for (unsigned d = 0; d < dwords; ++d) old[d][l] = u32(u64(before) >> (32 * d));
    }
    finish_atomic(w, e, f, exec, Returns, a, old[0], dwords);
}
float f32_of(u32 b) { return fp::as_float(b); }
double f64_of(u64 b) {
    double d;
    std::memcpy(&d, &b, 8);
    return d;
}
// DS_MIN/MAX_F32/F64: "MEM = (DATA < MEM) ? DATA : MEM" (> for max); DS_CMPST_F32/F64:
// "MEM = (MEM == DATA) ? DATA2 : MEM" as floats (-0 == +0, NaN never equal);
// DS_MSKOR: "MEM = (MEM & ~DATA) | DATA2"; DS_WRAP_RTN_B32: "MEM = (MEM >= DATA) ? MEM - DATA : MEM + DATA2".
u32 min_f32(u32 old, u32 d, u32) { return f32_of(d) < f32_of(old) ? d : old; }
u32 max_f32(u32 old, u32 d, u32) { return f32_of(d) > f32_of(old) ? d : old; }
u32 cmpst_f32(u32 old, u32 cmp, u32 src) { return f32_of(old) == f32_of(cmp) ? src : old; }
u64 min_f64(u64 old, u64 d, u64) { return f64_of(d) < f64_of(old) ? d : old; }
u64 max_f64(u64 old, u64 d, u64) { return f64_of(d) > f64_of(old) ? d : old; }
u64 cmpst_f64(u64 old, u64 cmp, u64 src) { return f64_of(old) == f64_of(cmp) ? src : old; }
template <class T>
T mskor(T old, T mask, T bits) {
    return (old & ~mask) | bits;
}
u32 wrap(u32 old, u32 d, u32 d2) { return old >= d ? old - d : old + d2; }
// DS_CONDXCHG32_RTN_B64, "conditional write exchange" (Vega ISA); the RDNA
// guides spell out its pseudocode: each dword of the 8-byte-aligned element
// is written with the matching DATA dword, its bit 31 cleared, iff that bit is
// set ("if DATA[31] then LDS[ADDR0] = {1'0, DATA[30:0]}", likewise DATA[63]
// for ADDR0 + 4); both old dwords return.
u64 condxchg32(u64 old, u64 d, u64) {
    u64 result = old;
    for (unsigned half = 0; half < 2; ++half) {
        const u64 mask = 0xffffffffull << (32 * half), flag = 0x80000000ull << (32 * half);
        if (d & flag) result = (result & ~mask) | (d & mask & ~flag);
    }
    return result;
}

// DS_WRXCHG2(ST64)_RTN_B32/B64: exchange at two addresses (offset0/offset1 in
// elements, times 64 for st64) with DATA and DATA2, returning both old values.
template <class T, bool St64>
void ds_wrxchg2(Wave& w, const ExecInst& e) {
    const u64 exec = w.exec();
    DsFormat f;
    f.bytes = sizeof(T);
    f.two_addresses = true;
    f.st64 = St64;
    LdsLaneAddresses a;
    lane_addresses(w, e, f, a);
    check_bounds(w, a, exec, sizeof(T));
    constexpr unsigned dwords = sizeof(T) / 4;
    u32 old[2 * dwords][64] = {};
    for (unsigned l = 0; l < 64; ++l) {
        if (!((exec >> l) & 1)) continue;
        for (unsigned el = 0; el < 2; ++el) {
            std::uint8_t* host = lds_at(w, a.byte[el][l], sizeof(T));
            const Src& data = el == 0 ? e.src[1] : e.src[2];
            for (unsigned d = 0; d < dwords; ++d) {
                u32 before;
                std::memcpy(&before, host + 4 * d, 4);
                std::memcpy(host + 4 * d, &vreg(w, data, d)[l], 4);
                old[el * dwords + d][l] = before;
            }
        }
    }
    InFlightMemoryOp& p = issue_read(w, e, 2 * dwords, 0, exec);
    std::memcpy(w.pending.data(p), old, sizeof old);
    account(w, e, f, exec, false, a);
}

// DS_*_SRC2_* (gfx900-gfx908): both operands in LDS (Vega ISA: "A =
// ADDR_BASE; B = A + 4 * (offset1[7] ? {A[31], A[31:17]} : {offset1[6],
// offset1[6:0], offset0}); MEM[A] = MEM[A] op MEM[B]", 8 * for the 64-bit
// forms; write_src2: MEM[A] = MEM[B]). No data VGPRs, no return.
template <class T, T (*F)(T, T, T)>
void ds_src2(Wave& w, const ExecInst& e) {
    const u64 exec = w.exec();
    const u32 offset16 = u32(e.inst->offset) & 0xffff;
    const u32* base = w.v[e.src[0].index];
    for (unsigned l = 0; l < 64; ++l) {
        if (!((exec >> l) & 1)) continue;
        const u32 a = base[l];
        const u32 from_address = (a >> 31) << 15 | a >> 17;  // {A[31], A[31:17]}
        const std::int32_t elements = (offset16 & 0x8000) ? std::int32_t(std::int16_t(from_address))
                                                          : std::int32_t(offset16 << 17) >> 17;  // 15-bit signed
        const u32 b = a + u32(elements) * u32(sizeof(T));
        std::uint8_t* host_a = lds_at(w, a, sizeof(T));
        const std::uint8_t* host_b = lds_at(w, b, sizeof(T));
        T x, y;
        std::memcpy(&x, host_a, sizeof(T));
        std::memcpy(&y, host_b, sizeof(T));
        const T result = F(x, y, 0);
        std::memcpy(host_a, &result, sizeof(T));
    }
    InFlightMemoryOp entry;
    entry.counter = WaitCounter::lgkm_lds;
    issue(w, e, entry);
    Counters& c = w.group->counters;
    c.lds_read_requests += 2 * popcount(exec);
    c.lds_read_bytes += 2ull * sizeof(T) * popcount(exec);
    c.lds_write_requests += popcount(exec);
    c.lds_write_bytes += sizeof(T) * popcount(exec);
}
// The integer rules of the src2 forms, as the atomics define them.
template <class T>
T src2_add(T a, T b, T) {
    return a + b;
}
template <class T>
T src2_sub(T a, T b, T) {
    return a - b;
}
template <class T>
T src2_rsub(T a, T b, T) {
    return b - a;
}
template <class T>
T src2_inc(T a, T b, T) {
    return a >= b ? 0 : a + 1;
}
template <class T>
T src2_dec(T a, T b, T) {
    return (a == 0 || a > b) ? b : a - 1;
}
template <class T>
T src2_min_i(T a, T b, T) {
    return std::make_signed_t<T>(b) < std::make_signed_t<T>(a) ? b : a;
}
template <class T>
T src2_max_i(T a, T b, T) {
    return std::make_signed_t<T>(b) > std::make_signed_t<T>(a) ? b : a;
}
template <class T>
T src2_min_u(T a, T b, T) {
    return b < a ? b : a;
}
template <class T>
T src2_max_u(T a, T b, T) {
    return b > a ? b : a;
}
template <class T>
T src2_and(T a, T b, T) {
    return a & b;
}
template <class T>
T src2_or(T a, T b, T) {
    return a | b;
}
template <class T>
T src2_xor(T a, T b, T) {
    return a ^ b;
}
template <class T>
T src2_write(T, T b, T) {
    return b;
}
u32 src2_add_f32(u32 a, u32 b, u32) { return fp::as_bits(fp::as_float(a) + fp::as_float(b)); }

// ds_append / ds_consume on LDS (gds=0): one counter at M0[15:0] + offset
// (Vega ISA "LDS/GDS": M0 gives the base, the instruction's offset adds to
// it) goes up (append) or down (consume) by the number of active lanes,
// once for the wave; every active lane gets the value before the change.
template <bool Append>
void ds_append_consume(Wave& w, const ExecInst& e) {
    if (e.inst->gds)
        fail(FaultKind::not_implemented,
             "ds_append/ds_consume on GDS (gds:1) is not modelled: the emulator has no GDS");
    const u64 exec = w.exec();
    const u32 address = (w.sreg[sreg_m0] & 0xffff) + u32(e.inst->offset & 0xffff);
    u32 before = 0;
    if (exec) {
        std::uint8_t* host = lds_at(w, address, 4);
        std::memcpy(&before, host, 4);
        const u32 count = popcount(exec), after = Append ? before + count : before - count;
        std::memcpy(host, &after, 4);
    }
    u32 out[64];
    for (unsigned l = 0; l < 64; ++l) out[l] = before;
    InFlightMemoryOp& p = issue_read(w, e, 1, 0, exec);
    std::memcpy(w.pending.data(p), out, sizeof out);
    Counters& c = w.group->counters;
    c.lds_read_requests += exec ? 1 : 0;
    c.lds_read_bytes += exec ? 4 : 0;
    c.lds_write_requests += exec ? 1 : 0;
    c.lds_write_bytes += exec ? 4 : 0;
}

// Lane exchanges through the LDS crossbar (no LDS memory). A lane whose
// source lane is inactive reads 0.
void finish_exchange(Wave& w, const ExecInst& e, const u32* value, u64 exec) {
    InFlightMemoryOp& p = issue_read(w, e, 1, 0, exec);
    std::memcpy(w.pending.data(p), value, 64 * sizeof(u32));
    Counters& c = w.group->counters;
    c.lds_read_requests += popcount(exec);
    c.lds_read_bytes += 4ull * popcount(exec);
}

void ds_bpermute(Wave& w, const ExecInst& e) {
    const u64 exec = w.exec();
    const u32* address = w.v[e.src[0].index];
    const u32* data = vreg(w, e.src[1]);
    u32 out[64];
    for (unsigned l = 0; l < 64; ++l) {
        const unsigned from = ((address[l] + u32(e.inst->offset & 0xffff)) >> 2) & 63;
        out[l] = ((exec >> from) & 1) ? data[from] : 0;
    }
    finish_exchange(w, e, out, exec);
}

void ds_permute(Wave& w, const ExecInst& e) {
    const u64 exec = w.exec();
    const u32* address = w.v[e.src[0].index];
    const u32* data = vreg(w, e.src[1]);
    u32 out[64] = {};
    for (unsigned l = 0; l < 64; ++l) {
        if (!((exec >> l) & 1)) continue;
        out[((address[l] + u32(e.inst->offset & 0xffff)) >> 2) & 63] = data[l];
    }
    finish_exchange(w, e, out, exec);
}

// The source lane of ds_swizzle_b32, per the DS_SWIZZLE_B32 pseudo-code of
// the ISA guides (Vega, MI100/MI200: "offset = offset1:offset0; if (offset >=
// 0xe000) FFT ... elsif (offset >= 0xc000) rotate ... elsif (offset[15]) quad
// ... else bitmask"). Every mode works within 32 lanes ("j |= i & 0x20"), so
// the rotate's lane arithmetic is on 5 bits (offset:0xc020 gives lane 31
// lane 0's value, as the wrap within 32 lanes intends):
// - FFT (offset >= 0xe000), mask = offset[4:0]:
//   j = (reverse_bits5(i) >> count_ones(mask)) | (i & mask)
// - rotate (0xc000..0xdfff), rotate = offset[9:5], negated when offset[10],
//   mask = offset[4:0]: j = (i & mask) | ((i + rotate) & ~mask)
// - quad permute (offset[15]): lane i & 3 takes offset[2(i&3)+1 : 2(i&3)]
// - bitmask: j = ((i & offset[4:0]) | offset[9:5]) ^ offset[14:10]
unsigned swizzle_source(u32 pattern, unsigned l) {
    const unsigned i = l & 31u, half = l & 32u;
    if (pattern >= 0xe000) {
        const unsigned mask = pattern & 0x1f;
        unsigned reversed = 0;
        for (unsigned b = 0; b < 5; ++b) reversed |= ((i >> b) & 1u) << (4 - b);
        return half | (((reversed >> __builtin_popcount(mask)) | (i & mask)) & 31u);
    }
    if (pattern >= 0xc000) {
        const unsigned mask = pattern & 0x1f, amount = (pattern >> 5) & 0x1f;
        const unsigned rotated = (pattern & 0x400) ? i - amount : i + amount;
        return half | (((i & mask) | (rotated & ~mask)) & 31u);
    }
    if (pattern & 0x8000) return (l & ~3u) | ((pattern >> (2 * (l & 3))) & 3);
    const unsigned and_mask = pattern & 0x1f, or_mask = (pattern >> 5) & 0x1f, xor_mask = (pattern >> 10) & 0x1f;
    return half | (((i & and_mask) | or_mask) ^ xor_mask);
}

void ds_swizzle(Wave& w, const ExecInst& e) {
    const u64 exec = w.exec();
    const u32 pattern = u32(e.inst->offset) & 0xffff;
    const u32* data = vreg(w, e.src[0]);
    u32 out[64];
    for (unsigned l = 0; l < 64; ++l) {
        const unsigned from = swizzle_source(pattern, l);
        out[l] = ((exec >> from) & 1) ? data[from] : 0;
    }
    finish_exchange(w, e, out, exec);
}

// The rows of an LDS-fed block with a plan (LdsBlockPlan): one set per
// host thread, used within one call.
alignas(64) thread_local u32 block_rows[LdsBlockPlan::max_rows][64];

// Each VGPR's value from the last of a planned block's first `reads` reads
// that wrote it, where that one went to the block's rows (a block that
// ended early: the plan's copies are for the whole block).
__attribute__((noinline, cold)) void copy_rows_of_reads(Wave& w, const ExecInst& head, const LdsBlockPlan& plan,
                                                        unsigned reads) {
    std::array<int, 256> row;  // -1: no read wrote it, or the last one went into the VGPRs
    row.fill(-1);
    unsigned read = 0;
    for (const ExecInst* e = &head; read < reads; ++e) {
        if (e->cls != InstClass::lds_read) continue;
        const LdsBlockPlan::Read& r = plan.reads[read++];
        for (unsigned d = 0; d < e->lds_whole_dwords; ++d) row[e->dst.index + d] = r.into_vgprs ? -1 : r.row + d;
    }
    for (unsigned v = 0; v < 256; ++v)
        if (row[v] >= 0) std::memcpy(w.v[v], block_rows[row[v]], sizeof block_rows[0]);
}

// The entries on lgkmcnt of a planned block's reads, held by the block
// while the wave's queue has none (`own`): its waits then retire only
// these, oldest first, as sem::wait would, so that those outstanding are
// always the block's reads `retired` .. `issued` - 1; the block hands them
// to the queue at its end. They have nothing to land, and nothing reads the
// queue in between but the reads' room test (whole_access_memo), made here
// on the block's count.
struct BlockEntries {
    bool own = false;
    unsigned issued = 0, retired = 0;
    unsigned count() const { return issued - retired; }
    void wait(unsigned lgkm) {
        if (count() > lgkm) retired = issued - lgkm;
    }
    void hand_over(InFlightQueue& q, const ExecInst& head) const {
        unsigned read = 0;
        for (const ExecInst* e = &head; read < issued; ++e)
            if (e->cls == InstClass::lds_read && read++ >= retired)
                q.push_without_data<WaitCounter::lgkm_lds>(e->index);
    }
};

// block_read with the block's entries: the same checks (the room on the
// block's count), the same counts and rows, the entry in `entries`.
__attribute__((always_inline)) inline bool block_read_own_entry(Wave& w, const ExecInst& e, u32* out,
                                                                BlockEntries& entries) {
    if (entries.count() >= InFlightQueue::max_lgkm) return false;
    LdsConflictMemo* memo = whole_access_memo(w, e, false);
    if (!memo || !address_verified(w, e, *memo)) return false;
    ++entries.issued;
    read_repeated_rows(w, e, *memo, out);
    return true;
}

// A planned block's counts once its `reads` reads (the head included),
// `waits` waits and `runs` runs of four have run, and the wave at `next`.
void count_planned_block(Wave& w, unsigned reads, unsigned waits, unsigned runs, std::uint32_t next) {
    const unsigned steps = 4 * runs;
    Counters& c = w.group->counters;
    c[InstClass::lds_read] += reads - 1;  // the run loop counted the head
    c[InstClass::waitcnt] += waits;
    c[InstClass::valu] += steps;
    c.valu_multiply_add += steps;
    w.executed += reads - 1 + waits + steps;
    w.pc = next;
}

// The checks of block_with_reads_checked_first, made for every read with
// no effect, into `checked` (kept there when the plan's checks_kept holds
// and every read through one address VGPR asks the same of its lane 0);
// false where a read would not take the repeated whole access's path.
bool check_block_reads(Wave& w, const ExecInst& head, const LdsBlockPlan& plan, Wave::CheckedBlock& checked) {
    Workgroup& g = *w.group;
    const unsigned reads = static_cast<unsigned>(plan.reads.size());
    const std::unique_ptr<LdsConflictMemo>* const memo_of = g.lds_memo.data();
    const u64 lds_size = g.lds.size();
    std::array<std::uint64_t, Wave::lds_verifier_slots> found = w.lds_verified;
    std::uint64_t conflict_cycles = 0, bytes = 0;
    for (unsigned i = 0; i < reads; ++i) {
        const LdsBlockPlan::Read& r = plan.reads[i];
        const ExecInst& e = (&head)[r.at];
        const unsigned dwords = e.lds_whole_dwords;
        LdsConflictMemo* const memo = memo_of[e.index].get();
        if (!dwords || !memo || memo->whole_access_dwords != dwords) return false;
        const u64 origin = u64(w.v[e.src[0].index][0]) + e.lds_offset;  // as in whole_access_memo
        if (origin + memo->highest_end > lds_size || memo->origin_byte_in_dword != origin % 4 ||
            memo->passes != &g.lds_banks->passes(false, dwords))
            return false;
        std::uint64_t verified;  // address_verified's finding
        if (const unsigned slot = e.lds_loop_slot()) {
            verified = found[slot - 1];
        } else if (r.verified_by >= 0) {
            verified = checked.memos[r.verified_by]->pattern_id;
        } else {
            const LdsConflictMemo* by = memo_of[e.lds_address_verifier - 1].get();
            verified = by && by->verified_wave == &w ? by->verified_pattern : 0;
        }
        if (!verified || memo->same_as != verified) return false;
        if (const unsigned slot = e.lds_verifier_slot()) found[slot - 1] = memo->pattern_id;
        checked.memos[i] = memo;
        conflict_cycles += memo->cycles;
        bytes += 256ull * dwords;
    }
    checked.rows = nullptr;  // the gathers and the multiplicands: of the plan and the memos
    checked.conflict_cycles = conflict_cycles;
    checked.bytes = bytes;
    checked.found_before = w.lds_verified;
    checked.found_after = found;
    checked.memo_changes = g.lds_memo_changes;
    // Kept where every read through one address VGPR asks the same of its
    // lane 0 mod 4, for at most max_addresses VGPRs.
    checked.plan = nullptr;
    checked.address_count = 0;
    if (!plan.checks_kept) return true;
    for (unsigned i = 0; i < reads; ++i) {
        const ExecInst& e = (&head)[plan.reads[i].at];
        const LdsConflictMemo& memo = *checked.memos[i];
        const std::uint8_t low_bits = (memo.origin_byte_in_dword - e.lds_offset) & 3u;
        const u64 end = u64(e.lds_offset) + memo.highest_end;
        Wave::CheckedBlock::Address* a = checked.addresses.data();
        Wave::CheckedBlock::Address* const last = a + checked.address_count;
        while (a != last && a->vgpr != e.src[0].index) ++a;
        if (a == last) {
            if (checked.address_count == Wave::CheckedBlock::max_addresses) return true;
            ++checked.address_count;
            *a = {e.src[0].index, low_bits, end};
        } else if (a->low_bits != low_bits) {
            return true;
        } else {
            a->end = std::max(a->end, end);
        }
    }
    checked.plan = &plan;
    return true;
}

// Whether what `checked` keeps holds for this trip (Wave::CheckedBlock).
bool checks_hold(const Wave& w, const LdsBlockPlan& plan, const Wave::CheckedBlock& checked) {
    if (checked.plan != &plan || checked.memo_changes != w.group->lds_memo_changes ||
        checked.found_before != w.lds_verified)
        return false;
    const u64 lds_size = w.group->lds.size();
    for (unsigned i = 0; i < checked.address_count; ++i) {
        const Wave::CheckedBlock::Address& a = checked.addresses[i];
        const u64 origin = w.v[a.vgpr][0];
        if (origin % 4 != a.low_bits || origin + a.end > lds_size) return false;
    }
    return true;
}

// planned_block when the plan's checks_first holds and every read takes
// the repeated whole access's path, as block_read_own_entry finds it: all
// of those checks first, with no effect, each with its verifier's finding
// as the reads before it leave it (a loop slot's latest pattern, a
// straight-line verifier's pattern id); then the reads' counts at once,
// the memos' and the slots' findings, the gathers, the runs. What the
// checks found is kept in the wave (Wave::CheckedBlock, with the plan's
// checks_kept) and holds on the next trip while nothing it rests on has
// changed: then only each address VGPR's lane 0 is looked at. Why: read
// by read, each read's checks began with a chain of loads (the workgroup,
// its memos, the memo, its fields) that waited for the read before it,
// about 130 host instructions a read in all (callgrind, 256^3 dpp0_32).
// False, having done nothing, where a read would not take that path or
// the wave's state is not the one the plan's counts assume: an LDS entry
// outstanding (the reads' room on lgkmcnt), a wait that would wait on
// vmcnt, an inactive lane. tests/exec/test_fast_paths.cpp runs the blocks
// both ways.
bool block_with_reads_checked_first(Wave& w, const ExecInst& head, const LdsBlockPlan& plan) {
    if (w.exec() != ~0ull || w.pending.lgkmcnt() != 0 || w.pending.vmcnt() > plan.lowest_wait_vm) return false;
    Wave::CheckedBlock& checked = w.checked_block;
    if (!checks_hold(w, plan, checked) && !check_block_reads(w, head, plan, checked)) {
        checked.plan = nullptr;  // its memos are partly this block's
        return false;
    }
    const unsigned reads = static_cast<unsigned>(plan.reads.size());
    Workgroup& g = *w.group;
    Counters& c = g.counters;
    count_requests(c, false, 64ull * reads, checked.bytes);
    c.lds_bank_conflict_cycles += checked.conflict_cycles;
    w.lds_verified = checked.found_after;
    u32(*const rows)[64] = block_rows;
    if (checked.rows != rows) {  // the LDS, the wave's VGPRs and the thread's rows stay where they are
        const std::uint8_t* const lds = g.lds.at(0, 0);
        for (unsigned i = 0; i < reads; ++i) {
            const LdsBlockPlan::Read& r = plan.reads[i];
            const ExecInst& e = (&head)[r.at];
            checked.gathers[i] = {whole_gather(*checked.memos[i]), lds + e.lds_offset, w.v[e.src[0].index],
                                  r.into_vgprs ? vreg(w, e.dst) : rows[r.row]};
        }
        block_multiplicands(w, plan, rows, plan.runs, checked.multiplicands.data());
        checked.rows = rows;
    }
    for (unsigned i = 0; i < reads; ++i) {
        LdsConflictMemo& memo = *checked.memos[i];
        memo.verified_wave = &w;
        memo.verified_pattern = memo.pattern_id;
        const Wave::CheckedBlock::Gather& x = checked.gathers[i];
        x.gather(x.lds, x.addresses, x.out, memo);
    }
    if (plan.outstanding_at_end) {
        BlockEntries entries;
        entries.own = true;
        entries.issued = reads;
        entries.retired = reads - plan.outstanding_at_end;
        entries.hand_over(w.pending, head);
    }
    block_multiply_adds(w, (&head)[plan.first_run], plan, checked.multiplicands.data(), plan.runs);
    for (const auto& [v, row] : plan.copies) std::memcpy(w.v[v], rows[row], sizeof rows[0]);
    count_planned_block(w, reads, plan.waits, plan.runs, (&head)[head.lds_block].index);
    return true;
}

// lds_multiply_add_block with the block's plan: the reads and waits in
// order, each read into its rows or its VGPRs (LdsBlockPlan::Read), then
// every run (block_multiply_adds), then the VGPRs' values from the rows. A
// read that cannot take the repeated access's path ends the block there,
// after the runs and the rows before it.
void planned_block(Wave& w, const ExecInst& head, const LdsBlockPlan& plan) {
    if (plan.checks_first && block_with_reads_checked_first(w, head, plan)) return;
    const ExecInst* e = &head;
    const ExecInst* const end = &head + head.lds_block;
    const ExecInst* first_run = nullptr;
    unsigned reads = 0, waits = 0, runs = 0;  // the head included
    BlockEntries entries;
    entries.own = w.pending.lgkmcnt() == 0;
    u32(*const rows)[64] = block_rows;  // one look-up of the thread's rows (in a shared library, a call)
    while (e != end) {
        if (e->cls == InstClass::lds_read) {
            const LdsBlockPlan::Read& r = plan.reads[reads];
            u32* const out = r.into_vgprs ? vreg(w, e->dst) : rows[r.row];
            if (!(entries.own ? block_read_own_entry(w, *e, out, entries) : block_read(w, *e, out))) break;
            ++reads;
            ++e;
        } else if (e->cls == InstClass::waitcnt) {
            if (!entries.own) {
                wait(w, e->wait_vm, e->wait_lgkm);
            } else {
                if (e->wait_vm < w.pending.vmcnt()) wait(w, e->wait_vm, InFlightQueue::max_lgkm);
                entries.wait(e->wait_lgkm);
            }
            ++waits;
            ++e;
        } else {
            if (!first_run) first_run = e;
            ++runs;
            e += e->multiply_add_run;
        }
    }
    if (reads == 0) return ds_read(w, head);  // nothing done
    if (entries.count()) entries.hand_over(w.pending, head);
    if (runs) block_multiply_adds(w, *first_run, plan, rows, runs);
    if (e == end) {
        for (const auto& [v, row] : plan.copies) std::memcpy(w.v[v], rows[row], sizeof rows[0]);
    } else {
        copy_rows_of_reads(w, head, plan, reads);
    }
    count_planned_block(w, reads, waits, runs, e->index);
}

}  // namespace

// What the run loop would do instruction by instruction, without its
// dispatch: each read on the repeated whole access's path, each s_waitcnt,
// each multiply-add run by its own function. The block counts its
// instructions after the head as finish_run counts a run's (the run loop
// counts the head) and moves the wave past them; a read that cannot take
// that path ends the block there, and the run loop goes on from it.
// Nothing here can fault (program.cpp, lds_multiply_add_blocks), so a fault
// never falls inside a block. A block with a plan (LdsBlockPlan) runs as
// planned_block does where the host has the instructions it needs.
void lds_multiply_add_block(Wave& w, const ExecInst& head) {
    if (w.group->observer || w.stretch_first == Wave::no_stretch) return ds_read(w, head);
    if (head.lds_block_plan && block_multiply_adds_available())
        return planned_block(w, head, w.group->env->program->lds_block_plans[head.lds_block_plan - 1]);
    if (!block_read(w, head, vreg(w, head.dst))) return ds_read(w, head);
    const ExecInst* e = &head + 1;
    const ExecInst* const end = &head + head.lds_block;
    unsigned reads = 0, waits = 0, multiply_adds = 0, valu_dpp = 0;  // after the head
    while (e != end) {
        if (e->cls == InstClass::lds_read) {
            if (!block_read(w, *e, vreg(w, e->dst))) break;
            ++reads;
            ++e;
        } else if (e->cls == InstClass::waitcnt) {
            wait(w, e->wait_vm, e->wait_lgkm);
            ++waits;
            ++e;
        } else {
            e->fn(w, *e);  // counts the run's steps after its first
            ++multiply_adds;
            valu_dpp += e->valu_dpp;
            e += e->multiply_add_run;
        }
    }
    Counters& c = w.group->counters;
    c[InstClass::lds_read] += reads;
    c[InstClass::waitcnt] += waits;
    c[InstClass::valu] += multiply_adds;
    c.valu_multiply_add += multiply_adds;
    c.valu_dpp += valu_dpp;
    w.executed += reads + waits + multiply_adds;
    w.pc = e->index;
}

void register_lds(Table& t) {
    for (std::size_t i = 1; i < op_count; ++i) {
        const Op op = static_cast<Op>(i);
        const OpInfo& info = op_info(op);
        if (info.family != Family::DS || !info.access_bytes) continue;
        if (info.atomic != AtomicKind::none) {  // 32-bit and 64-bit atomics; the _rtn forms return the old value
            const bool returns = info.has(OF_RETURNS);
            const InstClass cls = returns ? InstClass::lds_read : InstClass::lds_write;
            if (info.access_bytes == 8) set(t, op, returns ? ds_atomic64<true> : ds_atomic64<false>, cls);
            else set(t, op, returns ? ds_atomic<true> : ds_atomic<false>, cls);
        } else if (info.has(OF_LOAD)) {
            formats()[i] = format_of(info);
            set(t, op, ds_read, InstClass::lds_read);
        } else if (info.has(OF_STORE)) {
            formats()[i] = format_of(info);
            set(t, op, ds_write, InstClass::lds_write);
        }
    }
    const InstClass R = InstClass::lds_read, W = InstClass::lds_write;
    set(t, Op::ds_min_f32, ds_rmw<u32, min_f32, false>, W);
    set(t, Op::ds_max_f32, ds_rmw<u32, max_f32, false>, W);
    set(t, Op::ds_cmpst_f32, ds_rmw<u32, cmpst_f32, false>, W);
    set(t, Op::ds_min_rtn_f32, ds_rmw<u32, min_f32, true>, R);
    set(t, Op::ds_max_rtn_f32, ds_rmw<u32, max_f32, true>, R);
    set(t, Op::ds_cmpst_rtn_f32, ds_rmw<u32, cmpst_f32, true>, R);
    set(t, Op::ds_min_f64, ds_rmw<u64, min_f64, false>, W);
    set(t, Op::ds_max_f64, ds_rmw<u64, max_f64, false>, W);
    set(t, Op::ds_cmpst_f64, ds_rmw<u64, cmpst_f64, false>, W);
    set(t, Op::ds_min_rtn_f64, ds_rmw<u64, min_f64, true>, R);
    set(t, Op::ds_max_rtn_f64, ds_rmw<u64, max_f64, true>, R);
    set(t, Op::ds_cmpst_rtn_f64, ds_rmw<u64, cmpst_f64, true>, R);
    set(t, Op::ds_mskor_b32, ds_rmw<u32, mskor<u32>, false>, W);
    set(t, Op::ds_mskor_rtn_b32, ds_rmw<u32, mskor<u32>, true>, R);
    set(t, Op::ds_mskor_b64, ds_rmw<u64, mskor<u64>, false>, W);
    set(t, Op::ds_mskor_rtn_b64, ds_rmw<u64, mskor<u64>, true>, R);
    set(t, Op::ds_wrap_rtn_b32, ds_rmw<u32, wrap, true>, R);
    set(t, Op::ds_condxchg32_rtn_b64, ds_rmw<u64, condxchg32, true>, R);
    set(t, Op::ds_wrxchg2_rtn_b32, ds_wrxchg2<u32, false>, R);
    set(t, Op::ds_wrxchg2st64_rtn_b32, ds_wrxchg2<u32, true>, R);
    set(t, Op::ds_wrxchg2_rtn_b64, ds_wrxchg2<u64, false>, R);
    set(t, Op::ds_wrxchg2st64_rtn_b64, ds_wrxchg2<u64, true>, R);
    set(t, Op::ds_add_src2_u32, ds_src2<u32, src2_add<u32>>, W);
    set(t, Op::ds_sub_src2_u32, ds_src2<u32, src2_sub<u32>>, W);
    set(t, Op::ds_rsub_src2_u32, ds_src2<u32, src2_rsub<u32>>, W);
    set(t, Op::ds_inc_src2_u32, ds_src2<u32, src2_inc<u32>>, W);
    set(t, Op::ds_dec_src2_u32, ds_src2<u32, src2_dec<u32>>, W);
    set(t, Op::ds_min_src2_i32, ds_src2<u32, src2_min_i<u32>>, W);
    set(t, Op::ds_max_src2_i32, ds_src2<u32, src2_max_i<u32>>, W);
    set(t, Op::ds_min_src2_u32, ds_src2<u32, src2_min_u<u32>>, W);
    set(t, Op::ds_max_src2_u32, ds_src2<u32, src2_max_u<u32>>, W);
    set(t, Op::ds_and_src2_b32, ds_src2<u32, src2_and<u32>>, W);
    set(t, Op::ds_or_src2_b32, ds_src2<u32, src2_or<u32>>, W);
    set(t, Op::ds_xor_src2_b32, ds_src2<u32, src2_xor<u32>>, W);
    set(t, Op::ds_write_src2_b32, ds_src2<u32, src2_write<u32>>, W);
    set(t, Op::ds_min_src2_f32, ds_src2<u32, min_f32>, W);
    set(t, Op::ds_max_src2_f32, ds_src2<u32, max_f32>, W);
    set(t, Op::ds_add_src2_f32, ds_src2<u32, src2_add_f32>, W);
    set(t, Op::ds_add_src2_u64, ds_src2<u64, src2_add<u64>>, W);
    set(t, Op::ds_sub_src2_u64, ds_src2<u64, src2_sub<u64>>, W);
    set(t, Op::ds_rsub_src2_u64, ds_src2<u64, src2_rsub<u64>>, W);
    set(t, Op::ds_inc_src2_u64, ds_src2<u64, src2_inc<u64>>, W);
    set(t, Op::ds_dec_src2_u64, ds_src2<u64, src2_dec<u64>>, W);
    set(t, Op::ds_min_src2_i64, ds_src2<u64, src2_min_i<u64>>, W);
    set(t, Op::ds_max_src2_i64, ds_src2<u64, src2_max_i<u64>>, W);
    set(t, Op::ds_min_src2_u64, ds_src2<u64, src2_min_u<u64>>, W);
    set(t, Op::ds_max_src2_u64, ds_src2<u64, src2_max_u<u64>>, W);
    set(t, Op::ds_and_src2_b64, ds_src2<u64, src2_and<u64>>, W);
    set(t, Op::ds_or_src2_b64, ds_src2<u64, src2_or<u64>>, W);
    set(t, Op::ds_xor_src2_b64, ds_src2<u64, src2_xor<u64>>, W);
    set(t, Op::ds_write_src2_b64, ds_src2<u64, src2_write<u64>>, W);
    set(t, Op::ds_min_src2_f64, ds_src2<u64, min_f64>, W);
    set(t, Op::ds_max_src2_f64, ds_src2<u64, max_f64>, W);
    set(t, Op::ds_append, ds_append_consume<true>, InstClass::lds_read);
    set(t, Op::ds_consume, ds_append_consume<false>, InstClass::lds_read);
    set(t, Op::ds_bpermute_b32, ds_bpermute, InstClass::lds_read);
    set(t, Op::ds_permute_b32, ds_permute, InstClass::lds_read);
    set(t, Op::ds_swizzle_b32, ds_swizzle, InstClass::lds_read);
    set(t, Op::ds_nop, no_effect, InstClass::other);
}

}  // namespace dppgemm::emu::sem
