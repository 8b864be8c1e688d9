// The LDS race detector on planted races, finding by finding: which wave,
// lanes, instruction, earlier instruction, other wave(s) and address.
// Waves of a workgroup run in order between barriers (wave 0 up to its
// s_barrier or end, then wave 1, ...), so within one barrier interval every
// access of wave k comes after those of waves 0..k-1.
//
// Kernel builder prologue: v0 = work-item id, v1 = 4 * v0.

#include <catch2/catch.hpp>

#include "check_support.hpp"

using namespace check_test;

namespace {

PlantOptions waves(unsigned count, unsigned lds_bytes = 1024) {
    PlantOptions o;
    o.kernel.lds_bytes = lds_bytes;
    o.block = {64 * count, 1, 1};
    return o;
}

// s20 = the wave's number (work-item id of its lane 0 / 64).
const std::string wave_number = "  v_readfirstlane_b32 s20, v0\n  s_lshr_b32 s20, s20, 6\n";
// v2 = 4 * lane: the same dword offsets in every wave.
const std::string lane_offset = "  v_and_b32 v2, 63, v0\n  v_lshlrev_b32 v2, 2, v2\n";

struct Expected {
    unsigned wave;
    std::uint64_t lanes;
    const char* at;
    const char* earlier;
    const char* where;
    std::string message;
    std::uint64_t occurrences = 1;
};

void check_races(const Planted& p, const std::vector<Expected>& expected) {
    INFO(p.checked.text());
    CHECK(p.checked.result.ok());
    REQUIRE(p.checked.findings.size() == expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const Finding& f = p.checked.findings[i];
        const Expected& e = expected[i];
        INFO("finding " << i);
        CHECK(f.rule == Rule::lds_race);
        CHECK(f.wave == e.wave);
        CHECK(f.lanes == e.lanes);
        CHECK(f.pc == p.pc(e.at));
        CHECK(f.earlier_pc == p.pc(e.earlier));
        CHECK(f.earlier_where == e.where);
        CHECK(f.message == e.message);
        CHECK(f.occurrences == e.occurrences);
    }
}

constexpr std::uint64_t all_lanes = ~0ull;

}  // namespace

TEST_CASE("LDS race: two waves write the same dwords", "[check][lds]") {
    const Planted p = check_body(lane_offset + "  ds_write_b32 v2, v0\n  s_waitcnt lgkmcnt(0)", waves(2));
    check_races(p, {{1, all_lanes, "ds_write_b32", "ds_write_b32", "wave 0",
                     "writes LDS 0x0, written by wave 0 with no s_barrier between"}});
}

TEST_CASE("LDS race: only the lanes whose dwords overlap", "[check][lds]") {
    // Wave w writes dwords 56 w .. 56 w + 63: wave 1's lanes 0-7 hit wave 0's 56..63.
    const Planted p = check_body(wave_number +
                                     "  s_mul_i32 s21, s20, 32\n  v_subrev_u32 v2, s21, v1\n"
                                     "  ds_write_b32 v2, v0\n  s_waitcnt lgkmcnt(0)",
                                 waves(2));
    check_races(p, {{1, 0xff, "ds_write_b32", "ds_write_b32", "wave 0",
                     "writes LDS 0xe0, written by wave 0 with no s_barrier between"}});
}

TEST_CASE("LDS race: a wave reading its own writes, or disjoint dwords, is no race", "[check][lds]") {
    const Planted p = check_body(
        "  ds_write_b32 v1, v0\n  ds_read_b32 v3, v1\n  s_waitcnt lgkmcnt(0)\n"
        "  ds_write_b32 v1, v3 offset:4\n  s_waitcnt lgkmcnt(0)",
        waves(2, 1024));
    // Wave 0 writes dwords 0..63 and then 1..64; wave 1 writes 64..127 first:
    // dword 64 was written by wave 0 (its second write, lane 63).
    check_races(p, {{1, 1, "ds_write_b32 v1, v0", "ds_write_b32 v1, v3", "wave 0",
                     "writes LDS 0x100, written by wave 0 with no s_barrier between"}});
    const Planted apart = check_body("  ds_write_b32 v1, v0\n  ds_read_b32 v3, v1\n  s_waitcnt lgkmcnt(0)", waves(2));
    INFO(apart.checked.text());
    CHECK(apart.checked.findings.empty());
}

TEST_CASE("LDS race: an s_barrier between write and read separates them", "[check][lds]") {
    const std::string read_other = "  v_xor_b32 v3, 0x100, v1\n  ds_read_b32 v2, v3\n  s_waitcnt lgkmcnt(0)";
    const Planted racy = check_body("  ds_write_b32 v1, v0\n  s_waitcnt lgkmcnt(0)\n" + read_other, waves(2, 512));
    check_races(racy, {{1, all_lanes, "ds_write_b32", "ds_read_b32", "wave 0",
                        "writes LDS 0x100, read by wave 0 with no s_barrier between"},
                       {1, all_lanes, "ds_read_b32", "ds_write_b32", "wave 0",
                        "reads LDS 0x0, written by wave 0 with no s_barrier between"}});
    const Planted fenced =
        check_body("  ds_write_b32 v1, v0\n  s_waitcnt lgkmcnt(0)\n  s_barrier\n" + read_other, waves(2, 512));
    INFO(fenced.checked.text());
    CHECK(fenced.checked.findings.empty());
}

TEST_CASE("LDS race: a write after two waves read names the other waves", "[check][lds]") {
    // Every lane of waves 0 and 1 reads dword 0; then wave 2 reads it and writes it.
    const Planted p = check_body(wave_number +
                                     "  v_mov_b32 v4, 0\n  ds_read_b32 v3, v4\n  s_waitcnt lgkmcnt(0)\n"
                                     "  s_cmp_eq_u32 s20, 2\n  s_cbranch_scc0 .Ldone\n"
                                     "  ds_write_b32 v4, v0\n  s_waitcnt lgkmcnt(0)\n.Ldone:",
                                 waves(3));
    check_races(p, {{2, all_lanes, "ds_write_b32", "ds_read_b32", "other waves",
                     "writes LDS 0x0, read by other waves with no s_barrier between"}});
}

TEST_CASE("LDS race: a read names the last writer", "[check][lds]") {
    // Waves 0 and 1 write dword 0 (all lanes), wave 2 reads it.
    const Planted p = check_body(wave_number +
                                     "  v_mov_b32 v4, 0\n  s_cmp_eq_u32 s20, 2\n  s_cbranch_scc1 .Lread\n"
                                     "  ds_write_b32 v4, v0\n  s_waitcnt lgkmcnt(0)\n  s_branch .Ldone\n"
                                     ".Lread:\n  ds_read_b32 v3, v4\n  s_waitcnt lgkmcnt(0)\n.Ldone:",
                                 waves(3));
    check_races(p, {{1, all_lanes, "ds_write_b32", "ds_write_b32", "wave 0",
                     "writes LDS 0x0, written by wave 0 with no s_barrier between"},
                    {2, all_lanes, "ds_read_b32", "ds_write_b32", "wave 1",
                     "reads LDS 0x0, written by wave 1 with no s_barrier between"}});
}

// The shadow records a clean read only when a write touches its words, a
// pattern it uses changes, or an access goes the general way
// (lds_shadow.hpp, DeferredRead); the findings are those of recording it
// at once.
TEST_CASE("LDS race: reads recorded late still name the first reader", "[check][lds]") {
    // Round 0: each wave's ds_write writes its own dwords (a wave's first
    // access goes the general way, and the instruction gets its pattern).
    // Round 1, after a barrier: waves 0 and 1 read dwords 0..63, and wave
    // 2's ds_write, with the same pattern, writes them: only the overlap
    // records the reads.
    const Planted p = check_body(wave_number + lane_offset +
                                     "  v_mov_b32 v8, v1\n  s_mov_b32 s21, 0\n"
                                     ".Lround:\n  s_cmp_eq_u32 s21, 1\n  s_cbranch_scc0 .Lwrite\n"
                                     "  s_cmp_eq_u32 s20, 2\n  s_cbranch_scc1 .Lwrite\n"
                                     "  ds_read_b32 v3, v2\n  s_waitcnt lgkmcnt(0)\n  s_branch .Lend\n"
                                     ".Lwrite:\n  ds_write_b32 v8, v5\n  s_waitcnt lgkmcnt(0)\n"
                                     ".Lend:\n  v_mov_b32 v8, v2\n  s_add_u32 s21, s21, 1\n  s_cmp_lt_u32 s21, 2\n"
                                     "  s_cbranch_scc0 .Ldone\n  s_barrier\n  s_branch .Lround\n.Ldone:",
                                 waves(3));
    check_races(p, {{2, all_lanes, "ds_write_b32 v8, v5", "ds_read_b32 v3", "other waves",
                     "writes LDS 0x0, read by other waves with no s_barrier between"}});
}

TEST_CASE("LDS race: a write records the late reads of its words, and the earlier reads of theirs first",
          "[check][lds]") {
    // Round 0: every wave runs every part on its own 2 KiB (the
    // instructions get their patterns). Round 1, after a barrier, the
    // reads wait to be recorded: wave 0 reads dwords 320..383 (K), then
    // 0..63; wave 1 reads 288..351 (R) and writes 0..63: a race with wave
    // 0's read of 0..63, which alone is recorded. Wave 2 writes 256..319: a
    // race with R, recorded now, and K before it (K shares dwords with R,
    // though not with the write); then wave 2 writes 320..383: a race with
    // K and R, whose first reader is K.
    const Planted p = check_body(
        wave_number + lane_offset +
            "  s_mov_b32 s21, 0\n  s_add_u32 s22, s20, 1\n  s_lshl_b32 s22, s22, 11\n  v_add_u32 v8, s22, v2\n"
            ".Lround:\n  s_cmp_eq_u32 s21, 0\n  s_cbranch_scc1 .Lpart0\n  s_cmp_eq_u32 s20, 0\n"
            "  s_cbranch_scc0 .Lskip0\n"
            ".Lpart0:\n  ds_read_b32 v3, v8 offset:1280\n  ds_read_b32 v4, v8\n  s_waitcnt lgkmcnt(0)\n"
            ".Lskip0:\n  s_cmp_eq_u32 s21, 0\n  s_cbranch_scc1 .Lpart1\n  s_cmp_eq_u32 s20, 1\n"
            "  s_cbranch_scc0 .Lskip1\n"
            ".Lpart1:\n  ds_read_b32 v6, v8 offset:1152\n  ds_write_b32 v8, v5\n  s_waitcnt lgkmcnt(0)\n"
            ".Lskip1:\n  s_cmp_eq_u32 s21, 0\n  s_cbranch_scc1 .Lpart2\n  s_cmp_eq_u32 s20, 2\n"
            "  s_cbranch_scc0 .Lskip2\n"
            ".Lpart2:\n  ds_write_b32 v8, v5 offset:1024\n  ds_write_b32 v8, v5 offset:1280\n"
            "  s_waitcnt lgkmcnt(0)\n"
            ".Lskip2:\n  v_mov_b32 v8, v2\n  s_add_u32 s21, s21, 1\n  s_cmp_lt_u32 s21, 2\n"
            "  s_cbranch_scc0 .Ldone\n  s_barrier\n  s_branch .Lround\n.Ldone:",
        waves(3, 8192));
    check_races(p, {{1, all_lanes, "ds_write_b32 v8, v5", "ds_read_b32 v4", "wave 0",
                     "writes LDS 0x0, read by wave 0 with no s_barrier between"},
                    {2, 0xffffffff00000000ull, "ds_write_b32 v8, v5 offset:1024", "ds_read_b32 v6", "wave 1",
                     "writes LDS 0x480, read by wave 1 with no s_barrier between"},
                    {2, all_lanes, "ds_write_b32 v8, v5 offset:1280", "ds_read_b32 v3", "other waves",
                     "writes LDS 0x500, read by other waves with no s_barrier between"}});
}

TEST_CASE("LDS race: a read recorded late after its instruction's pattern changed", "[check][lds]") {
    // Wave 0 writes dwords 384..447 (its first access goes the general
    // way), then its ds_read reads dwords 0..63, then every other dword of
    // 256..383: the first read keeps its own lanes. Wave 1 writes 0..63.
    const Planted p = check_body(wave_number + lane_offset +
                                     "  s_cmp_eq_u32 s20, 0\n  s_cbranch_scc0 .Lsecond\n"
                                     "  ds_write_b32 v2, v0 offset:1536\n  v_mov_b32 v8, v2\n  s_mov_b32 s21, 0\n"
                                     ".Lloop:\n  ds_read_b32 v3, v8\n  s_waitcnt lgkmcnt(0)\n"
                                     "  v_lshlrev_b32 v8, 1, v2\n  v_add_u32 v8, 0x400, v8\n"
                                     "  s_add_u32 s21, s21, 1\n  s_cmp_lt_u32 s21, 2\n  s_cbranch_scc1 .Lloop\n"
                                     "  s_branch .Ldone\n"
                                     ".Lsecond:\n  ds_write_b32 v2, v5\n  s_waitcnt lgkmcnt(0)\n.Ldone:",
                                 waves(2, 2048));
    check_races(p, {{1, all_lanes, "ds_write_b32 v2, v5", "ds_read_b32 v3", "wave 0",
                     "writes LDS 0x0, read by wave 0 with no s_barrier between"}});
}

TEST_CASE("LDS race: ds_read2 conflicting in its second element only", "[check][lds]") {
    // Wave 0 writes 64 bits at 8 * lane for lanes 0-15 (dwords 0..31); wave 1
    // reads dword lane + 64 and dword lane: lanes 0-31 conflict.
    const Planted p =
        check_body(wave_number +
                       "  s_cmp_eq_u32 s20, 0\n  s_cbranch_scc0 .Lread\n"
                       "  v_lshlrev_b32 v6, 3, v0\n  v_mov_b32 v7, v0\n  v_mov_b32 v8, v0\n"
                       "  v_cmp_gt_u32 vcc, 16, v0\n  s_and_saveexec_b64 s[22:23], vcc\n"
                       "  ds_write_b64 v6, v[7:8]\n  s_waitcnt lgkmcnt(0)\n  s_branch .Ldone\n"
                       ".Lread:\n" +
                       lane_offset + "  ds_read2_b32 v[3:4], v2 offset0:64 offset1:0\n  s_waitcnt lgkmcnt(0)\n.Ldone:",
                   waves(2));
    check_races(p, {{1, 0xffffffffull, "ds_read2_b32", "ds_write_b64", "wave 0",
                     "reads LDS 0x0, written by wave 0 with no s_barrier between"}});
}

TEST_CASE("LDS race: different bytes of one dword by two waves are no race", "[check][lds]") {
    // Wave 0 writes byte 0, wave 1 byte 1 of each dword; then wave 1 writes
    // bytes 2-3 with a 16-bit store and reads them back.
    const Planted p = check_body(wave_number + lane_offset +
                                     "  v_add_u32 v2, s20, v2\n  ds_write_b8 v2, v0\n  s_waitcnt lgkmcnt(0)\n"
                                     "  s_cmp_eq_u32 s20, 1\n  s_cbranch_scc0 .Ldone\n"
                                     "  ds_write_b16 v2, v0 offset:1\n  ds_read_u16 v3, v2 offset:1\n"
                                     "  s_waitcnt lgkmcnt(0)\n.Ldone:",
                                 waves(2));
    INFO(p.checked.text());
    CHECK(p.checked.result.ok());
    CHECK(p.checked.findings.empty());
}

TEST_CASE("LDS race: the same byte of one dword by two waves", "[check][lds]") {
    // Wave 0 writes bytes 0-1 of each dword, wave 1 byte 1 (lane l: 4 l + 1).
    const Planted p = check_body(wave_number + lane_offset +
                                     "  s_cmp_eq_u32 s20, 0\n  s_cbranch_scc0 .Lsecond\n"
                                     "  ds_write_b16 v2, v0\n  s_waitcnt lgkmcnt(0)\n  s_branch .Ldone\n"
                                     ".Lsecond:\n  ds_write_b8 v2, v0 offset:1\n  s_waitcnt lgkmcnt(0)\n.Ldone:",
                                 waves(2));
    check_races(p, {{1, all_lanes, "ds_write_b8", "ds_write_b16", "wave 0",
                     "writes LDS 0x1, written by wave 0 with no s_barrier between"}});
}

TEST_CASE("LDS race: bytes after whole dwords in one barrier interval", "[check][lds]") {
    // Wave 0 writes dwords 0..63 and reads dwords 64..127; wave 1 reads
    // byte 2 of each of the first ones (a race with the write) and writes
    // byte 3 of lanes 0-31's dword 64 + l (with the read): the whole-dword
    // state so far stands for those bytes too.
    const Planted p = check_body(wave_number + lane_offset +
                                     "  s_cmp_eq_u32 s20, 0\n  s_cbranch_scc0 .Lsecond\n"
                                     "  ds_write_b32 v2, v0\n  ds_read_b32 v3, v2 offset:256\n"
                                     "  s_waitcnt lgkmcnt(0)\n  s_branch .Ldone\n"
                                     ".Lsecond:\n  ds_read_u8 v3, v2 offset:2\n  s_waitcnt lgkmcnt(0)\n"
                                     "  v_cmp_gt_u32 vcc, 0x80, v2\n  s_and_saveexec_b64 s[22:23], vcc\n"
                                     "  ds_write_b8 v2, v0 offset:259\n  s_waitcnt lgkmcnt(0)\n.Ldone:",
                                 waves(2));
    check_races(p, {{1, all_lanes, "ds_read_u8", "ds_write_b32", "wave 0",
                     "reads LDS 0x2, written by wave 0 with no s_barrier between"},
                    {1, 0xffffffffull, "ds_write_b8", "ds_read_b32", "wave 0",
                     "writes LDS 0x103, read by wave 0 with no s_barrier between"}});
}

TEST_CASE("LDS race: an unaligned dword overlaps the next dword's bytes", "[check][lds]") {
    // Wave 0 writes byte 4 l + 7 in lane l. Wave 1 writes 4 unaligned bytes
    // elsewhere (from then on the shadow is in bytes), then bytes 4 l + 5 ..
    // 4 l + 8 in lane l: each lane's third byte is wave 0's.
    const Planted p = check_body(wave_number + lane_offset +
                                     "  s_cmp_eq_u32 s20, 0\n  s_cbranch_scc0 .Lsecond\n"
                                     "  ds_write_b8 v2, v0 offset:7\n  s_waitcnt lgkmcnt(0)\n  s_branch .Ldone\n"
                                     ".Lsecond:\n  v_add_u32 v4, 0x200, v2\n  ds_write_b32 v4, v0 offset:3\n"
                                     "  ds_write_b32 v2, v0 offset:5\n  s_waitcnt lgkmcnt(0)\n.Ldone:",
                                 waves(2));
    check_races(p, {{1, all_lanes, "ds_write_b32 v2", "ds_write_b8", "wave 0",
                     "writes LDS 0x7, written by wave 0 with no s_barrier between"}});
}

TEST_CASE("LDS race: a broadcast read of another wave's write, and atomics", "[check][lds]") {
    // Wave 0 writes dwords 0..63; wave 1 reads dword 5 in every lane.
    const Planted p =
        check_body(wave_number +
                       "  s_cmp_eq_u32 s20, 0\n  s_cbranch_scc0 .Lread\n"
                       "  ds_write_b32 v1, v0\n  s_waitcnt lgkmcnt(0)\n  s_branch .Ldone\n"
                       ".Lread:\n  v_mov_b32 v4, 20\n  ds_read_b32 v3, v4\n  s_waitcnt lgkmcnt(0)\n.Ldone:",
                   waves(2));
    check_races(p, {{1, all_lanes, "ds_read_b32", "ds_write_b32", "wave 0",
                     "reads LDS 0x14, written by wave 0 with no s_barrier between"}});
    // Atomics on the same dword from both waves are meant to be shared.
    const Planted atomics =
        check_body("  v_mov_b32 v4, 0\n  v_mov_b32 v3, 1\n  ds_add_u32 v4, v3\n  s_waitcnt lgkmcnt(0)", waves(2));
    INFO(atomics.checked.text());
    CHECK(atomics.checked.findings.empty());
}

TEST_CASE("LDS race: a long barrier interval still names the first reader and the last writer", "[check][lds]") {
    // Wave 0 reads dwords 0..63 (first), writes 64..127, then 20000 times
    // reads 0..63 again and writes 64..127 with other instructions: more
    // accesses than the shadow logs before writing out who touched what.
    // Wave 1 then reads 64..127 and writes 0..63.
    const Planted p = check_body(wave_number + lane_offset +
                                     "  v_mov_b32 v5, v0\n  v_mov_b32 v7, v0\n"
                                     "  s_cmp_eq_u32 s20, 1\n  s_cbranch_scc1 .Lsecond\n"
                                     "  ds_read_b32 v3, v2\n  ds_write_b32 v2, v0 offset:256\n  s_waitcnt lgkmcnt(0)\n"
                                     "  s_mov_b32 s21, 20000\n"
                                     ".Lloop:\n  ds_read_b32 v4, v2\n  ds_write_b32 v2, v7 offset:256\n"
                                     "  s_waitcnt lgkmcnt(0)\n  s_sub_u32 s21, s21, 1\n  s_cmp_lg_u32 s21, 0\n"
                                     "  s_cbranch_scc1 .Lloop\n  s_branch .Ldone\n"
                                     ".Lsecond:\n  ds_read_b32 v6, v2 offset:256\n  ds_write_b32 v2, v5\n"
                                     "  s_waitcnt lgkmcnt(0)\n.Ldone:",
                                 waves(2));
    check_races(p, {{1, all_lanes, "ds_read_b32 v6", "ds_write_b32 v2, v7", "wave 0",
                     "reads LDS 0x100, written by wave 0 with no s_barrier between"},
                    {1, all_lanes, "ds_write_b32 v2, v5", "ds_read_b32 v3", "wave 0",
                     "writes LDS 0x0, read by wave 0 with no s_barrier between"}});
}

TEST_CASE("LDS race: counted once per instruction pair across workgroups and barrier intervals", "[check][lds]") {
    // The racy exchange twice, with a barrier between the rounds: each round
    // races again.
    const std::string round =
        "  ds_write_b32 v1, v0\n  s_waitcnt lgkmcnt(0)\n"
        "  v_xor_b32 v3, 0x100, v1\n  ds_read_b32 v2, v3\n  s_waitcnt lgkmcnt(0)\n";
    const Planted p =
        check_body("  s_mov_b32 s21, 0\n.Lround:\n" + round +
                       "  s_barrier\n  s_add_u32 s21, s21, 1\n  s_cmp_lt_u32 s21, 2\n  s_cbranch_scc1 .Lround",
                   waves(2, 512));
    check_races(p, {{1, all_lanes, "ds_write_b32", "ds_read_b32", "wave 0",
                     "writes LDS 0x100, read by wave 0 with no s_barrier between", 2},
                    {1, all_lanes, "ds_read_b32", "ds_write_b32", "wave 0",
                     "reads LDS 0x0, written by wave 0 with no s_barrier between", 2}});
}
