#pragma once
// Local data share of one workgroup, and the bank-conflict model.
//
// Bank model (gfx9, 32 banks of 4 bytes; bank = (byte address / 4) % 32):
// the LDS serves 32 dwords per cycle. A ds instruction is split into passes
// of 32 dwords: 32 lanes per pass for b32, 16 lanes for b64 and the
// two-address b32 forms (read2/write2), 8 lanes for b96/b128 and the
// two-address b64 forms. Which lanes share a pass is a property of the target
// and of the direction (LdsLaneGrouping in emu/loader/target.hpp: consecutive
// lanes, except gfx940/gfx942 ds_read_b128, measured on MI300X). Within a pass
// each bank serves one distinct dword address per cycle; lanes reading the
// same dword address share it (broadcast, no conflict). A pass therefore
// takes as many cycles as the largest number of distinct dword addresses that
// map to one bank, and its conflict cycles are that number minus one. Passes
// whose lanes are all inactive cost nothing. The counter sums conflict cycles
// over passes.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "emu/loader/target.hpp"

namespace dppgemm::emu {

// Per-lane dword addresses of one ds instruction: lane i touches
// dwords[i][0..per_lane-1] (dword addresses = byte address / 4).
struct LdsLaneDwords {
    std::uint32_t dwords[64][4];
    unsigned per_lane = 1;  // 1, 2, 3 or 4
};

// Conflict cycles of one instruction under the model above, with the given
// lane grouping (lanes_per_pass x dwords per lane = 32; b96 passes like
// b128), or with gfx900's (consecutive lanes per pass) when none is given.
std::uint64_t lds_bank_conflict_cycles(const LdsLaneDwords& access, std::uint64_t active_lanes,
                                       const LdsLaneGrouping& passes);
std::uint64_t lds_bank_conflict_cycles(const LdsLaneDwords& access, std::uint64_t active_lanes);

// Per-lane byte addresses of one ds instruction as the semantics compute
// them: element el of lane l starts at byte[el][l] and covers
// dwords_per_element consecutive dwords (read2/write2 have two elements).
struct LdsLaneAddresses {
    std::uint32_t byte[2][64];
    unsigned elements = 1;            // 1, or 2 for read2/write2
    unsigned dwords_per_element = 1;  // 1..4 (sub-dword accesses count as 1); elements x this <= 4
    std::uint32_t highest = 0;        // the largest byte[el][l] over every lane, active or not

    LdsLaneDwords dwords() const;
};

// The count depends only on where the lanes' dwords lie relative to each
// other (adding one constant to every dword address permutes the banks), and
// a loop body's ds instruction usually repeats its relative pattern: each
// instruction keeps its last pattern (byte addresses relative to the first
// active lane's, and that lane's byte within its dword) and count, and
// recomputes only when the pattern changes. Exact, not a hash. Each pattern
// it keeps gets a new id (unique in the process), which observers receive
// (MemoryAccess::pattern_id) so that they need not compare it again.
// Laid out by use: the first cache line (the struct is aligned to one)
// holds what sem_lds.cpp's repeated whole access reads and writes, and what
// it reads of its verifier's memo; the pattern itself follows. Why: the
// waves of a workgroup run one after another to each barrier and evict the
// memos between two visits; with these fields spread over three lines a
// 32x32 ds_read_b64 took about 6 L1 read misses (cachegrind, 256^3 dpp0_32).
struct alignas(64) LdsConflictMemo {
    // ---- first line: the repeated whole access
    const LdsLaneGrouping* passes = nullptr;
    std::uint64_t pattern_id = 0;
    std::uint64_t cycles = 0;
    // What the instruction's last access found (sem_lds.cpp): the wave that
    // made it, and the pattern id when every lane's address VGPR had this
    // pattern (one address per lane, all lanes active), else 0.
    const void* verified_wave = nullptr;
    std::uint64_t verified_pattern = 0;
    // The id of another instruction's pattern found equal to this one
    // (ids are never reused, so it stays true while pattern_id stays); 0: none.
    std::uint64_t same_as = 0;
    // The largest relative[el][l] (unsigned) plus 4 x whole_access_dwords,
    // at most 2^32 - 1: lane 0's address plus this ends every lane's element,
    // one addition for sem_lds.cpp's bounds (2 host instructions fewer a
    // ds_read, callgrind 256^3 dpp0_32).
    std::uint32_t highest_end = 0;
    // dwords_per_element when every lane is active and reads one element
    // (the shape of sem_lds.cpp's repeated whole access), else 0: one
    // comparison instead of four on that path.
    std::uint8_t whole_access_dwords = 0;
    std::uint8_t origin_byte_in_dword = 0;
    // Every lane active, one element per lane: whether each quad of lanes
    // (4q..4q+3) reads consecutive elements (relative[0][4q+i] =
    // relative[0][4q] + i x 4 x dwords_per_element) or all one element, so
    // that a gather can move a quad's lanes at once (sem_lds.cpp).
    enum class Quads : std::uint8_t { any, consecutive, same };
    Quads quads = Quads::any;
    // The same case: whether each row of 16 lanes reads one element
    // (relative[0][16r + i] = relative[0][16r]), or every row reads what
    // row 0 reads, lane for lane (relative[0][16r + i] = relative[0][i]).
    enum class Rows : std::uint8_t { any, broadcast, repeat };
    Rows rows = Rows::any;
    // The two shapes above that sem_lds.cpp's vector gathers take, with the
    // width, as one index (one load instead of two comparisons and an index
    // computation: about 8 host instructions a 32x32 ds_read_b64, callgrind
    // 256^3 dpp0_32): 0 neither; else 1 + 3 x (0: Rows::broadcast, 1:
    // Rows::repeat with Quads::consecutive) + dwords_per_element / 2 (1, 2
    // or 4 dwords; b96 takes neither).
    std::uint8_t vector_gather = 0;
    // How sem_lds.cpp's ds_write_b32 of the repeated whole access stores
    // (every lane active, one dword each): lane by lane; by quads of lanes
    // writing consecutive dwords (Quads::consecutive); or by runs of eight:
    // lanes j, j + 8, ..., j + 56 write eight consecutive dwords from
    // relative[0][j] (relative[0][l] = relative[0][l % 8] + 4 x (l / 8)),
    // and the eight runs share no byte, so that writing run after run
    // leaves what lane order leaves (the 32x32 kernels' transposing B write).
    enum class WriteScatter : std::uint8_t { lanes, consecutive_quads, runs_of_eight };
    WriteScatter write_scatter = WriteScatter::lanes;
    bool valid = false;
    // ---- second line: the pattern's row key, all that
    // lds_pattern_repeats_all_lanes reads of the memo when the rows have a
    // shape (Rows::repeat: relative[0][0..15]; Rows::broadcast:
    // relative[0][16 r] at r = 0..3; 0 elsewhere). Why: the whole pattern
    // is five lines, which the waves' turns to each barrier evict between
    // two visits: the test reading them was 3.9% of a 1024^3 dpp0_32
    // launch (perf); with the key the launch took 0.90x and 0.98x the time
    // in two ab.sh runs (11 and 15 rounds, 1 thread, a shared host), for
    // 0.25% more host instructions (callgrind, 256^3).
    alignas(64) std::uint32_t row_key[16] = {};
    // ---- the rest of the shape and the pattern
    std::uint64_t active_lanes = 0;
    unsigned elements = 0, dwords_per_element = 0;
    std::uint32_t relative[2][64] = {};
};
static_assert(offsetof(LdsConflictMemo, valid) < 64 && offsetof(LdsConflictMemo, row_key) == 64,
              "LdsConflictMemo: the repeated access's fields in one line, the row key in the next");
std::uint64_t lds_bank_conflict_cycles(const LdsLaneAddresses& access, std::uint64_t active_lanes,
                                       const LdsLaneGrouping& passes, LdsConflictMemo& memo);

// Whether lanes whose byte addresses are base[l] + a common offset form the
// memo's pattern for every lane active (memo.relative[0][l] = base[l] -
// base[0]): the memo's test without forming the addresses. With the rows'
// shape (memo.rows) it compares the lanes' rows with each other and then
// one row, or the rows' first lanes, with memo.row_key.
bool lds_pattern_repeats_all_lanes(const std::uint32_t* base, const LdsConflictMemo& memo);
// Whether two memos' relative[0] (64 lanes) are equal.
bool lds_patterns_equal(const std::uint32_t* a, const std::uint32_t* b);

// The instruction sets sem_lds.cpp's gathers for the repeated whole access
// (rows that each read one element, rows that repeat row 0's consecutive
// quads) and its scatter of runs of eight may use: the host's best
// (host_cpu) unless a test picks a lower one, so that every level is
// compared with the general path on one host.
enum class LdsGatherIsa : std::uint8_t { baseline, avx2, avx512 };
// The set in use, host_lds_gather_isa() until a test assigns another. A
// function's static, not a global variable: a test program that links the
// emulator both statically and through libdppgemm would otherwise hold two
// definitions of one global (ASan's odr-violation).
LdsGatherIsa& lds_gather_isa();
LdsGatherIsa host_lds_gather_isa();

class Lds {
public:
    void reset(std::uint32_t size) {
        bytes_.assign(size, 0);
        data_ = bytes_.data();
        size_ = size;
    }
    // Makes this the same LDS as `owner` (until either is reset): the views
    // of one workgroup that dispatch.cpp gives waves running on other threads.
    void share(Lds& owner) {
        bytes_.clear();
        data_ = owner.data_;
        size_ = owner.size_;
    }
    std::uint32_t size() const { return size_; }
    // nullptr when [address, address + width) is not inside the allocation.
    std::uint8_t* at(std::uint64_t address, std::uint32_t width) {
        if (address > size_ || width > size_ - address) return nullptr;
        return data_ + address;
    }

private:
    std::vector<std::uint8_t> bytes_;
    std::uint8_t* data_ = nullptr;
    std::uint32_t size_ = 0;
};

}  // namespace dppgemm::emu
