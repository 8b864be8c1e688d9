// The wait-count model on its own (docs/checkers.md, "Memory counters"): which
// loads s_waitcnt certainly completes, in the cases the SGEMM kernels never
// reach (FLAT, SMEM, two loads into one register, a counter at its limit).
#include <array>

#include <catch2/catch.hpp>

#include "emu/check/scoreboard.hpp"

using namespace dppgemm::emu;
using namespace dppgemm::emu::check;

namespace {

constexpr unsigned no_vm_wait = 63, no_lgkm_wait = 15;  // the counters' limits: no wait

check::InFlightMemoryOp load(WaitCounter counter, std::uint32_t inst, std::uint16_t vgpr, std::uint8_t count,
                             bool flat = false) {
    check::InFlightMemoryOp e = entry_kind(counter, flat);
    e.inst = inst;
    e.dest = RegRange{vgpr, count};
    return e;
}

void issue(Scoreboard& s, const check::InFlightMemoryOp& e) { s.issue(e, s.any_pending(e.dest)); }

bool pending(const Scoreboard& s, std::uint16_t vgpr) { return s.any_pending(RegRange{vgpr, 1}); }

}  // namespace

TEST_CASE("scoreboard: vmcnt(n) leaves the newest n vm loads, LDS loads among themselves") {
    Scoreboard s;
    s.reset();
    issue(s, load(WaitCounter::vm, 0, 0, 4));
    issue(s, load(WaitCounter::lgkm_lds, 1, 4, 2));
    issue(s, load(WaitCounter::vm, 2, 8, 1));
    issue(s, load(WaitCounter::lgkm_lds, 3, 9, 1));
    s.wait(1, no_lgkm_wait);
    CHECK_FALSE(pending(s, 3));
    CHECK(pending(s, 8));
    CHECK(pending(s, 4));
    s.wait(no_vm_wait, 1);
    CHECK_FALSE(pending(s, 5));
    CHECK(pending(s, 9));
    s.wait(0, 0);
    CHECK(s.empty());
    CHECK_FALSE(pending(s, 8));
    CHECK_FALSE(pending(s, 9));
}

TEST_CASE("scoreboard: FLAT leaves at lgkmcnt(0) from behind older vm loads, SMEM only at lgkmcnt(0)") {
    Scoreboard s;
    s.reset();
    issue(s, load(WaitCounter::vm, 0, 0, 1));
    issue(s, load(WaitCounter::lgkm_lds, 1, 1, 1, true));  // FLAT: vmcnt and lgkmcnt
    issue(s, load(WaitCounter::vm, 2, 2, 1));
    issue(s, load(WaitCounter::lgkm_smem, 3, 512 + 20, 2));
    s.wait(no_vm_wait, 1);
    CHECK(pending(s, 1));
    CHECK(pending(s, 512 + 21));
    s.wait(no_vm_wait, 0);
    CHECK_FALSE(pending(s, 1));
    CHECK_FALSE(pending(s, 512 + 20));
    CHECK(pending(s, 0));
    CHECK(pending(s, 2));
    // What the FLAT load held of vmcnt is gone: vmcnt(1) completes the older load only.
    s.wait(1, no_lgkm_wait);
    CHECK_FALSE(pending(s, 0));
    CHECK(pending(s, 2));
}

TEST_CASE("scoreboard: two loads into one register keep it pending until both are done, the oldest named first") {
    Scoreboard s;
    s.reset();
    issue(s, load(WaitCounter::vm, 0, 6, 2));
    issue(s, load(WaitCounter::vm, 1, 7, 2));
    REQUIRE(s.pending_in(RegRange{7, 1}) != nullptr);
    CHECK(s.pending_in(RegRange{7, 1})->inst == 0);
    CHECK(s.pending_in(RegRange{8, 1})->inst == 1);
    s.wait(1, no_lgkm_wait);
    CHECK_FALSE(pending(s, 6));
    CHECK(pending(s, 7));
    CHECK(pending(s, 8));
    CHECK(s.pending_in(RegRange{7, 1})->inst == 1);
    s.mark_reported(*s.pending_in(RegRange{7, 1}));
    CHECK(s.pending_in(RegRange{7, 1}) == nullptr);
    CHECK(pending(s, 7));
    s.wait(0, no_lgkm_wait);
    CHECK(s.empty());
    CHECK_FALSE(pending(s, 7));
}

TEST_CASE("scoreboard: issuing past a counter's limit completes its oldest entry") {
    Scoreboard s;
    s.reset();
    for (std::uint16_t i = 0; i < 15; ++i) issue(s, load(WaitCounter::lgkm_lds, i, i, 1));
    CHECK(pending(s, 0));
    issue(s, load(WaitCounter::lgkm_lds, 15, 15, 1));
    CHECK_FALSE(pending(s, 0));
    CHECK(pending(s, 1));
    CHECK(pending(s, 15));
    for (std::uint16_t i = 0; i < 63; ++i) issue(s, load(WaitCounter::vm, 100 + i, 100 + i, 1));
    CHECK(pending(s, 100));
    issue(s, load(WaitCounter::vm, 163, 163, 1));
    CHECK_FALSE(pending(s, 100));
    CHECK(pending(s, 101));
}

TEST_CASE("scoreboard: the oldest unfinished LDS write, across the counters") {
    Scoreboard s;
    s.reset();
    CHECK(s.unfinished_lds_write() == nullptr);
    check::InFlightMemoryOp write = load(WaitCounter::lgkm_lds, 4, 0, 0);
    write.lds_write = true;
    issue(s, load(WaitCounter::vm, 3, 10, 1));
    issue(s, write);
    write.inst = 5;
    issue(s, write);
    REQUIRE(s.unfinished_lds_write() != nullptr);
    CHECK(s.unfinished_lds_write()->inst == 4);
    s.wait(no_vm_wait, 1);
    CHECK(s.unfinished_lds_write()->inst == 5);
    s.wait(no_vm_wait, 0);
    CHECK(s.unfinished_lds_write() == nullptr);
    CHECK(pending(s, 10));
}

TEST_CASE("scoreboard: a range's footprint is the bits for_slot_words gives, for every range it covers") {
    std::size_t compared = 0;
    for (unsigned slot = 0; slot < slot_count; ++slot)
        for (unsigned count = 0; count <= 64 && slot + count <= slot_count + 1; ++count) {
            const RegRange range{static_cast<std::uint16_t>(slot), static_cast<std::uint8_t>(count)};
            std::array<std::uint64_t, slot_count / 64 + 1> general{}, fast{};
            for_slot_words(range, [&](unsigned word, std::uint64_t bits) { general[word] |= bits; });
            const SlotFootprint f = footprint_of(range);
            if (f.general) {
                CHECK((count >= 64 || slot + count > slot_count));
                continue;
            }
            fast[f.word] |= f.low;
            fast[f.word + 1] |= f.high;
            REQUIRE(fast == general);
            ++compared;
        }
    // count 0 at each slot; counts 1..63 at slots 0..slot_count - count
    CHECK(compared == 768u + 63u * 769u - 63u * 64u / 2u);
}
