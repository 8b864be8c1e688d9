// Executor components tested directly: allocation table, buffer range rule,
// LDS bank-conflict model, DPP lane maps, counters.

#include <catch2/catch.hpp>

#include <cstring>
#include <utility>
#include <vector>

#include "emu/exec/address_space.hpp"
#include "emu/exec/counters.hpp"
#include "emu/exec/dpp.hpp"
#include "emu/exec/lds.hpp"

using namespace dppgemm::emu;

TEST_CASE("allocations get fake, non-canonical, guarded addresses", "[memory]") {
    DeviceMemory memory;
    const std::uint64_t a = memory.allocate(100, "a");
    const std::uint64_t b = memory.allocate(4096, "b");
    CHECK(a >= (std::uint64_t{1} << 47));
    CHECK(a % DeviceMemory::alignment == 0);
    CHECK(b >= a + 100 + DeviceMemory::guard_gap);
    // Neither is a host pointer: the host heap and stack live below 2^47.
    int local = 0;
    CHECK(reinterpret_cast<std::uintptr_t>(&local) < (std::uintptr_t{1} << 47));
    CHECK(memory.find(a) != nullptr);
    CHECK(memory.find(a + 99) != nullptr);
    CHECK(memory.find(a + 100) == nullptr);
    CHECK(memory.find(a + 96, 4) != nullptr);
    CHECK(memory.find(a + 97, 4) == nullptr);  // straddles the end
    CHECK(memory.find(a - 1) == nullptr);
    CHECK(memory.find(0) == nullptr);
    CHECK(memory.find(~std::uint64_t{0}, 8) == nullptr);  // no wrap-around
}

TEST_CASE("host copies are bounds-checked and faults name the address", "[memory]") {
    DeviceMemory memory;
    const std::uint64_t a = memory.allocate(16);
    const std::uint32_t in[4] = {1, 2, 3, 4};
    memory.write(a, in, 16);
    std::uint32_t out[4] = {};
    memory.read(a, out, 16);
    CHECK(std::memcmp(in, out, 16) == 0);
    try {
        memory.write(a + 8, in, 16);
        FAIL("no fault");
    } catch (const MemoryFault& fault) {
        CHECK(fault.address() == a + 8);
        CHECK(fault.size() == 16);
    }
    CHECK_THROWS_AS(memory.release(a + 4), MemoryFault);
    memory.release(a);
    CHECK(memory.find(a) == nullptr);
    CHECK_THROWS_AS(memory.read(a, out, 4), MemoryFault);
}

TEST_CASE("the translator's cached lookup and the step guess of each instruction and wave", "[memory]") {
    DeviceMemory memory;
    const std::uint64_t a = memory.allocate(4096), b = memory.allocate(4096);
    Translator t(memory);
    CHECK(t.cached(a, 4) == nullptr);  // nothing translated yet
    std::uint8_t* const host_a = t.translate(a, 4);
    REQUIRE(host_a != nullptr);
    CHECK(t.cached(a + 4092, 4) == host_a + 4092);
    CHECK(t.cached(a + 4093, 4) == nullptr);  // past the end of the allocation
    CHECK(t.cached(b, 4) == nullptr);         // another allocation: no lookup
    CHECK(t.cached(a + 8, 4) == host_a + 8);  // and the cache still holds a

    // The last two allocations hit are kept: loads alternating between two
    // (A and B of a GEMM) find both, a third replaces the older one, and
    // every translation gives the allocation's own bytes.
    const std::uint64_t c = memory.allocate(4096);
    const Allocation* const alloc_b = memory.find(b);
    const Allocation* const alloc_c = memory.find(c);
    REQUIRE(alloc_b != nullptr);
    REQUIRE(alloc_c != nullptr);
    for (int round = 0; round < 3; ++round) {
        CHECK(t.translate(b + 12, 4) == alloc_b->bytes.get() + 12);
        CHECK(t.cached(b + 16, 4) == alloc_b->bytes.get() + 16);  // the last hit
        CHECK(t.translate(a + 40, 8) == host_a + 40);
        CHECK(t.cached(a + 16, 4) == host_a + 16);
        CHECK(t.cached(b, 4) == nullptr);  // only the last one answers cached()
    }
    CHECK(t.translate(c, 4096) == alloc_c->bytes.get());  // c and a now
    CHECK(t.translate(a + 4092, 8) == nullptr);           // past a's end, in no allocation
    CHECK(t.translate(a + 4, 4) == host_a + 4);
    CHECK(t.translate(c + 8, 4) == alloc_c->bytes.get() + 8);
    CHECK(t.translate(b + 4, 4) == alloc_b->bytes.get() + 4);
    CHECK(t.translate(b + 4090, 8) == nullptr);  // across b's end

    // Two instructions of two waves, interleaved as a workgroup's waves run.
    const int inst[2] = {}, wave[2] = {};
    CHECK(t.step_since_last(&inst[0], &wave[0], a) == 0);  // first time: no step
    CHECK(t.step_since_last(&inst[0], &wave[1], a + 256) == 0);
    CHECK(t.step_since_last(&inst[1], &wave[0], b) == 0);
    CHECK(t.step_since_last(&inst[0], &wave[0], a + 1024) == 1024);
    CHECK(t.step_since_last(&inst[0], &wave[1], a + 1280) == 1024);
    CHECK(t.step_since_last(&inst[1], &wave[0], b + 32) == 32);
    CHECK(t.step_since_last(&inst[0], &wave[0], a) == std::uint64_t(0) - 1024);  // a step back
}

TEST_CASE("buffer range rule is per dword, raw and structured", "[memory][buffer]") {
    // ISA "Range Checking": raw out of range iff offset >= num_records (the
    // offset of each dword), structured (idxen) iff index >= num_records.
    const std::uint32_t words[4] = {0x1000, 0x8000 | (0u << 16), 20, 0};  // base 0x8000'00001000, stride 0
    const BufferResource raw = BufferResource::from_sgprs(words);
    CHECK(raw.base == 0x800000001000ull);
    CHECK(raw.stride == 0);
    CHECK(raw.num_records == 20);
    CHECK(raw.in_range(false, 0, 16));
    CHECK(raw.in_range(false, 0, 19));  // dword 19..22 starts inside: in range
    CHECK_FALSE(raw.in_range(false, 0, 20));
    CHECK_FALSE(raw.in_range(false, 7, 20));          // the index plays no part without idxen
    CHECK(raw.address(0, 8, 100) == raw.base + 108);  // soffset adds to the address, not to the check
    const std::uint32_t structured_words[4] = {0, 16u << 16, 3, 0};
    const BufferResource s = BufferResource::from_sgprs(structured_words);
    CHECK(s.stride == 16);
    CHECK(s.in_range(true, 2, 12));
    CHECK_FALSE(s.in_range(true, 3, 0));  // index past num_records
    CHECK(s.in_range(true, 0, 16));       // the offset is not checked against the stride
    CHECK(s.in_range(false, 0, 2));       // stride without idxen: a raw buffer, offset < num_records
    CHECK_FALSE(s.in_range(false, 0, 3));
    CHECK(s.address(2, 4, 0) == 36);
}

namespace {
LdsLaneDwords lanes_b32(std::uint32_t (*byte_address)(unsigned lane)) {
    LdsLaneDwords a;
    a.per_lane = 1;
    for (unsigned l = 0; l < 64; ++l) a.dwords[l][0] = byte_address(l) / 4;
    return a;
}
LdsLaneDwords lanes_wide(unsigned dwords, std::uint32_t (*byte_address)(unsigned lane)) {
    LdsLaneDwords a;
    a.per_lane = dwords;
    for (unsigned l = 0; l < 64; ++l)
        for (unsigned d = 0; d < dwords; ++d) a.dwords[l][d] = byte_address(l) / 4 + d;
    return a;
}
}  // namespace

TEST_CASE("LDS bank conflicts on known patterns", "[lds]") {
    const std::uint64_t all = ~0ull;
    // Consecutive dwords: every bank once per 32-lane half.
    CHECK(lds_bank_conflict_cycles(lanes_b32([](unsigned l) { return 4 * l; }), all) == 0);
    // Everyone reads the same dword: broadcast.
    CHECK(lds_bank_conflict_cycles(lanes_b32([](unsigned) { return 64u; }), all) == 0);
    // Stride 2 dwords: 16 banks, two addresses each -> 1 extra cycle per half.
    CHECK(lds_bank_conflict_cycles(lanes_b32([](unsigned l) { return 8 * l; }), all) == 2);
    // Stride 32 dwords: all 32 lanes of a half in bank 0 -> 31 extra cycles per half.
    CHECK(lds_bank_conflict_cycles(lanes_b32([](unsigned l) { return 128 * l; }), all) == 62);
    // Only lanes 0 and 1 active, same bank, different addresses: 1.
    CHECK(lds_bank_conflict_cycles(lanes_b32([](unsigned l) { return 128 * l; }), 0x3) == 1);
    // b128, consecutive 16-byte vectors: 8 lanes per pass cover 32 banks.
    CHECK(lds_bank_conflict_cycles(lanes_wide(4, [](unsigned l) { return 16 * l; }), all) == 0);
    // b128 with a 128-byte stride: the 8 lanes of a pass share banks 0-3 -> 7 per pass, 8 passes.
    CHECK(lds_bank_conflict_cycles(lanes_wide(4, [](unsigned l) { return 128 * l; }), all) == 56);
    // b128, lanes in groups of 4 reading the same vector (broadcast) at a 528-byte row pitch.
    CHECK(lds_bank_conflict_cycles(lanes_wide(4, [](unsigned l) { return 528 * (l / 4); }), all) == 0);
    // b64 misaligned (odd dword start) goes through the general model: 16 lanes x 2 dwords, consecutive -> none.
    CHECK(lds_bank_conflict_cycles(lanes_wide(2, [](unsigned l) { return 4 + 8 * l; }), all) == 0);
    // b64 with a 256-byte stride: 16 lanes per pass on banks {0,1} -> 15 per pass, 4 passes.
    CHECK(lds_bank_conflict_cycles(lanes_wide(2, [](unsigned l) { return 256 * l; }), all) == 60);
    // No active lane, no cost.
    CHECK(lds_bank_conflict_cycles(lanes_b32([](unsigned l) { return 128 * l; }), 0) == 0);
}

TEST_CASE("LDS bounds", "[lds]") {
    Lds lds;
    lds.reset(64);
    CHECK(lds.at(60, 4) != nullptr);
    CHECK(lds.at(61, 4) == nullptr);
    CHECK(lds.at(64, 1) == nullptr);
    CHECK(lds.at(~0ull, 4) == nullptr);
}

TEST_CASE("counters add up and compare", "[counters]") {
    Counters a, b;
    a[InstClass::valu] = 3;
    a.lds_read_requests = 64;
    b[InstClass::valu] = 4;
    b[InstClass::vmem_atomic] = 1;
    b.valu_dpp = 2;
    b.waves = 1;
    a += b;
    CHECK(a[InstClass::valu] == 7);
    CHECK(a.valu_dpp == 2);
    CHECK(a.wave_instructions() == 8);  // the classes; valu_dpp is part of valu
    CHECK(a.waves == 1);
    CHECK(a != b);
    b += a;
    CHECK(b.lds_read_requests == 64);
    CHECK(a.to_json() == R"({
  "wave_instructions": 8,
  "salu": 0,
  "valu": 7,
  "smem": 0,
  "vmem_load": 0,
  "vmem_store": 0,
  "vmem_atomic": 1,
  "mfma": 0,
  "lds_read": 0,
  "lds_write": 0,
  "branch": 0,
  "waitcnt": 0,
  "barrier": 0,
  "nop": 0,
  "other": 0,
  "valu_dpp": 2,
  "valu_multiply_add": 0,
  "mfma_passes": 0,
  "mfma_flops": 0,
  "lds_read_requests": 64,
  "lds_read_bytes": 0,
  "lds_write_requests": 0,
  "lds_write_bytes": 0,
  "lds_bank_conflict_cycles": 0,
  "global_read_bytes": 0,
  "global_write_bytes": 0,
  "scalar_read_bytes": 0,
  "waves": 1,
  "workgroups": 0
}
)");
}

TEST_CASE("the LDS conflict memo gives the plain model's counts", "[lds]") {
    std::uint32_t seed = 12345;
    auto next = [&] { return seed = seed * 1664525u + 1013904223u; };
    LdsConflictMemo memo;
    for (int round = 0; round < 300; ++round) {
        LdsLaneAddresses a;
        a.dwords_per_element = 1u << (round % 3);                             // 1, 2, 4
        a.elements = (round % 13 == 0 && a.dwords_per_element <= 2) ? 2 : 1;  // read2_b32, read2_b64
        // Often the same pattern shifted (memo hits), sometimes by a byte
        // count that is not a multiple of 4, sometimes a new pattern.
        const std::uint32_t shift = (round % 5 == 0) ? next() % 4096 : 0;
        const std::uint32_t stride = 1 + (round / 7) % 9, group = 1 + (round / 3) % 4;
        for (unsigned el = 0; el < a.elements; ++el)
            for (unsigned l = 0; l < 64; ++l)
                a.byte[el][l] = shift + 4 * ((l / group) * stride * a.dwords_per_element) + 2 * (l % 2) + 512 * el;
        if (round % 11 == 0) a.byte[0][5] = next() % 8192;  // an odd lane out
        const std::uint64_t active = (round % 4 == 0) ? (std::uint64_t(next()) << 32 | next()) : ~0ull;
        INFO("round " << round);
        // Both groupings, switching now and then: the memo must not reuse a
        // count made under the other one.
        const Target target = (round / 2) % 2 ? Target::gfx942 : Target::gfx906;
        const LdsLaneGrouping& passes = lds_bank_model(target).passes(false, a.elements * a.dwords_per_element);
        CHECK(lds_bank_conflict_cycles(a, active, passes, memo) ==
              lds_bank_conflict_cycles(a.dwords(), active, passes));
    }
}

namespace {
// 16-byte vectors: lanes 4g..4g+3 read 64 contiguous bytes (16 banks) of
// their own 1 KiB block, in the lower (banks 0-15) or upper half (16-31).
LdsLaneDwords quads_in_halves(bool (*upper_half)(unsigned quad)) {
    LdsLaneDwords a;
    a.per_lane = 4;
    for (unsigned l = 0; l < 64; ++l)
        for (unsigned d = 0; d < 4; ++d)
            a.dwords[l][d] = (1024 * (l / 4) + 64 * upper_half(l / 4) + 16 * (l % 4)) / 4 + d;
    return a;
}
}  // namespace

TEST_CASE("LDS lane groupings per target: gfx942 ds_read_b128 passes as measured on MI300X", "[lds]") {
    const std::uint64_t all = ~0ull;
    const LdsBankModel& gfx906 = lds_bank_model(Target::gfx906);
    const LdsBankModel& gfx942 = lds_bank_model(Target::gfx942);
    for (Target t : {Target::gfx900, Target::gfx908, Target::gfx90a}) CHECK(&lds_bank_model(t) == &gfx906);
    CHECK(&lds_bank_model(Target::gfx940) == &gfx942);
    // Every grouping is a permutation of the 64 lanes, 32 dwords per pass.
    for (const LdsBankModel* model : {&gfx906, &gfx942})
        for (unsigned dwords : {1u, 2u, 4u})
            for (bool write : {false, true}) {
                const LdsLaneGrouping& g = model->passes(write, dwords);
                CHECK(g.lanes_per_pass * dwords == 32);
                std::uint64_t seen = 0;
                for (std::uint8_t lane : g.lane_order) seen |= 1ull << lane;
                CHECK(seen == all);
            }
    // gfx942 b128 reads, published phases: {0-3,20-23}, {32-35,52-55}, {4-7,16-19}, ...
    const LdsLaneGrouping& read_b128 = gfx942.passes(false, 4);
    CHECK(std::vector<int>(read_b128.lane_order.begin(), read_b128.lane_order.begin() + 16) ==
          std::vector<int>{0, 1, 2, 3, 20, 21, 22, 23, 32, 33, 34, 35, 52, 53, 54, 55});

    // Quad pairs (2k, 2k+1) in the same half, (0,5), (1,4), (2,7), (3,6) in
    // different halves: one conflict per pass with consecutive lanes, none on gfx942.
    const LdsLaneDwords consecutive_pairs_clash = quads_in_halves([](unsigned q) { return (q % 8) >= 4; });
    CHECK(lds_bank_conflict_cycles(consecutive_pairs_clash, all, gfx906.passes(false, 4)) == 8);
    CHECK(lds_bank_conflict_cycles(consecutive_pairs_clash, all, gfx942.passes(false, 4)) == 0);
    // Writes keep passes of 8 consecutive lanes on gfx942 (ds_write_b128).
    CHECK(lds_bank_conflict_cycles(consecutive_pairs_clash, all, gfx942.passes(true, 4)) == 8);
    // The opposite: quads q and q^1 in different halves, gfx942's pairs in the same.
    const LdsLaneDwords measured_pairs_clash =
        quads_in_halves([](unsigned q) { return bool(((q >> 0) ^ (q >> 2)) & 1); });
    CHECK(lds_bank_conflict_cycles(measured_pairs_clash, all, gfx906.passes(false, 4)) == 0);
    CHECK(lds_bank_conflict_cycles(measured_pairs_clash, all, gfx942.passes(false, 4)) == 8);
    CHECK(lds_bank_conflict_cycles(measured_pairs_clash, all, gfx942.passes(true, 4)) == 0);
    // Two active lanes on the same banks, different addresses: lanes 0 and 20
    // share a gfx942 read pass, lanes 0 and 4 share a consecutive one.
    const LdsLaneDwords stride_128 = lanes_wide(4, [](unsigned l) { return 128 * l; });
    CHECK(lds_bank_conflict_cycles(stride_128, (1ull << 0) | (1ull << 20), gfx942.passes(false, 4)) == 1);
    CHECK(lds_bank_conflict_cycles(stride_128, (1ull << 0) | (1ull << 20), gfx906.passes(false, 4)) == 0);
    CHECK(lds_bank_conflict_cycles(stride_128, (1ull << 0) | (1ull << 4), gfx942.passes(false, 4)) == 0);
    CHECK(lds_bank_conflict_cycles(stride_128, (1ull << 0) | (1ull << 4), gfx906.passes(false, 4)) == 1);
    // Fully conflicted strides: the saturated counts measured on MI300X
    // (62 per ds_read_b32, 60 per b64, 56 per b128), on both groupings.
    for (const LdsBankModel* model : {&gfx906, &gfx942}) {
        CHECK(lds_bank_conflict_cycles(lanes_b32([](unsigned l) { return 128 * l; }), all, model->passes(false, 1)) ==
              62);
        CHECK(lds_bank_conflict_cycles(lanes_wide(2, [](unsigned l) { return 128 * l; }), all,
                                       model->passes(false, 2)) == 60);
        CHECK(lds_bank_conflict_cycles(stride_128, all, model->passes(false, 4)) == 56);
        // ... and b128 at strides of 32 and 64 bytes: 2 or 4 distinct vectors per
        // bank group and pass (measured: 512 and 1536 per 64 reads).
        CHECK(lds_bank_conflict_cycles(lanes_wide(4, [](unsigned l) { return 32 * l; }), all,
                                       model->passes(false, 4)) == 8);
        CHECK(lds_bank_conflict_cycles(lanes_wide(4, [](unsigned l) { return 64 * l; }), all,
                                       model->passes(false, 4)) == 24);
    }
    // b96 reads pass like b128 (the general path): on gfx942 with the b128 grouping.
    LdsLaneDwords b96 = consecutive_pairs_clash;
    b96.per_lane = 3;
    CHECK(lds_bank_conflict_cycles(b96, all, gfx906.passes(false, 3)) == 8);
    CHECK(lds_bank_conflict_cycles(b96, all, gfx942.passes(false, 3)) == 0);
}

// dpp_gather's row permutes (AVX-512, row-local patterns) against the lane by
// lane gather, for every gfx9 control, with all lanes and random lanes active.
TEST_CASE("DPP row gather equals the lane by lane gather", "[dpp][fast_paths]") {
    std::vector<Dpp> controls;
    auto add = [&](DppKind kind, std::uint8_t arg) {
        Dpp d;
        d.kind = kind;
        d.arg = arg;
        controls.push_back(d);
    };
    for (unsigned perm : {0x00u, 0x50u, 0xfau, 0x1bu, 0xe4u, 0x55u}) add(DppKind::quad_perm, std::uint8_t(perm));
    for (std::uint8_t n = 1; n <= 15; ++n)
        for (DppKind k : {DppKind::row_shl, DppKind::row_shr, DppKind::row_ror}) add(k, n);
    for (DppKind k : {DppKind::wave_shl, DppKind::wave_rol, DppKind::wave_shr, DppKind::wave_ror, DppKind::row_mirror,
                      DppKind::row_half_mirror, DppKind::row_bcast15, DppKind::row_bcast31})
        add(k, 0);
    for (std::uint8_t n : {0, 7, 15}) add(DppKind::row_newbcast, n);
    std::uint32_t src[64];
    for (unsigned l = 0; l < 64; ++l) src[l] = 0x1000u + l;
    std::uint64_t random = 0x9e3779b97f4a7c15ull;
    unsigned row_local = 0, quad = 0, broadcast = 0;
    for (const Dpp& d : controls) {
        const DppPattern p = make_dpp_pattern(d, Target::gfx90a);
        row_local += p.row_local;
        quad += p.full_exec == DppPattern::FullExec::quad;
        broadcast += p.full_exec == DppPattern::FullExec::broadcast;
        for (int trial = 0; trial < 8; ++trial) {
            random = random * 6364136223846793005ull + 1442695040888963407ull;
            const std::uint64_t exec = trial == 0 ? ~0ull : random;
            const std::uint64_t valid = p.valid_sources(exec);  // what the executor passes
            std::uint32_t fast[64], lanes[64];
            dpp_gather(p, valid, src, fast);
            dpp_gather_lanes(p, valid, src, lanes);
            INFO("kind " << int(d.kind) << " arg " << int(d.arg) << " exec " << std::hex << exec);
            for (unsigned l = 0; l < 64; ++l) REQUIRE(fast[l] == lanes[l]);
        }
    }
    // quad_perm x6, row shifts/rotates x45, mirrors x2, row_newbcast x3 are row-local.
    CHECK(row_local == 56);
    // With full masks, the quad_perms permute within quads and the
    // row_newbcasts broadcast: every lane sourced and written.
    CHECK(quad == 6);
    CHECK(broadcast == 3);
    // A lane a mask disables is not written: the masked rows take those.
    for (const auto& [row_mask, bank_mask] : {std::pair{0xe, 0xf}, std::pair{0xf, 0x7}}) {
        Dpp d;
        d.kind = DppKind::quad_perm;
        d.arg = 0x50;
        d.row_mask = std::uint8_t(row_mask);
        d.bank_mask = std::uint8_t(bank_mask);
        CHECK(make_dpp_pattern(d, Target::gfx90a).full_exec == DppPattern::FullExec::rows);
        d.kind = DppKind::row_newbcast;
        d.arg = 3;
        CHECK(make_dpp_pattern(d, Target::gfx90a).full_exec == DppPattern::FullExec::rows);
    }
}
