#include "emu/exec/weak_memory.hpp"

#include <cstring>

#include "emu/exec/address_space.hpp"
#include "emu/exec/wave.hpp"

namespace dppgemm::emu {

namespace {
constexpr unsigned line_bytes = 64;
// 1 in this many non-bypassing loads drops the CU's cached bytes it reads.
constexpr unsigned drop_one_in = 16;

bool overlaps(std::uint64_t a_low, std::uint64_t a_high, std::uint64_t b_low, std::uint64_t b_high) {
    return a_low < b_high && b_low < a_high;
}
}  // namespace

WeakMemory::WeakMemory(std::uint64_t seed, unsigned compute_units)
    : rng_(seed), l1_(compute_units ? compute_units : 1), scalar_(l1_.size()) {}

unsigned WeakMemory::cu_of(const Wave& w) const { return w.group->resident_slot % l1_.size(); }

std::uint64_t WeakMemory::key_of(const Wave& w) { return w.group->linear_id << 8 | w.id; }

WeakMemory::WaveQueue& WeakMemory::queue_of(const Wave& w) {
    WaveQueue& q = waves_[key_of(w)];
    q.cu = cu_of(w);
    return q;
}

void WeakMemory::forget(unsigned cu, std::uint64_t address, unsigned bytes) {
    for (L1* cache : {&l1_[cu], &scalar_[cu]})
        for (std::uint64_t a = address; a < address + bytes; ++a) {
            auto it = cache->find(a / line_bytes);
            if (it == cache->end()) continue;
            it->second.valid &= ~(std::uint64_t{1} << (a % line_bytes));
            if (!it->second.valid) cache->erase(it);
        }
}

// A miss brings the whole line in, as the L1 does: the bytes of the line's
// allocation, each where the CU holds no copy yet.
void WeakMemory::fill(CachedLine& line, std::uint64_t line_address, const Wave& w) {
    const std::uint8_t* host = w.group->env->memory->translate(line_address, line_bytes);
    if (!host) return;  // the line straddles an allocation's end: bytes come in one by one
    for (unsigned b = 0; b < line_bytes; ++b)
        if (!(line.valid & (std::uint64_t{1} << b))) line.bytes[b] = host[b];
    line.valid = ~std::uint64_t{0};
}

void WeakMemory::load(const Wave& w, std::uint64_t address, const std::uint8_t* host, unsigned bytes, bool bypass_cache,
                      void* out, Cache which) {
    auto* to = static_cast<std::uint8_t*>(out);
    std::memcpy(to, host, bytes);
    const unsigned cu = cu_of(w);
    if (bypass_cache || rng_() % drop_one_in == 0) forget(cu, address, bytes);
    if (!bypass_cache) {
        L1& cache = which == Cache::scalar ? scalar_[cu] : l1_[cu];
        for (unsigned i = 0; i < bytes; ++i) {
            const std::uint64_t a = address + i;
            CachedLine& line = cache[a / line_bytes];
            const std::uint64_t bit = std::uint64_t{1} << (a % line_bytes);
            if (!(line.valid & bit)) fill(line, a / line_bytes * line_bytes, w);
            if (line.valid & bit) to[i] = line.bytes[a % line_bytes];
            else line.bytes[a % line_bytes] = to[i], line.valid |= bit;
        }
    }
    // The wave's own queued writes, oldest first: it sees its stores in order.
    auto it = waves_.find(key_of(w));
    if (it == waves_.end()) return;
    for (const StoreInstruction& s : it->second.queued) {
        if (!overlaps(s.lowest, s.highest, address, address + bytes)) continue;
        for (const LaneWrite& lane : s.lanes)
            for (unsigned i = 0; i < lane.bytes; ++i) {
                const std::uint64_t a = lane.address + i;
                if (a >= address && a < address + bytes) to[a - address] = lane.data[i];
            }
    }
}

void WeakMemory::store(const Wave& w, std::uint64_t address, std::uint8_t* host, unsigned bytes, const void* data) {
    StoreInstruction& open = queue_of(w).open;
    LaneWrite lane{address, host, static_cast<std::uint8_t>(bytes), {}};
    std::memcpy(lane.data, data, bytes);
    open.lanes.push_back(lane);
    open.lowest = std::min(open.lowest, address);
    open.highest = std::max(open.highest, address + bytes);
}

void WeakMemory::store_issued(const Wave& w) {
    WaveQueue& q = queue_of(w);
    q.open.sequence = ++q.issued;
    q.open.due = step_ + (rng_() % 4 == 0 ? rng_() % 4096 : rng_() % 64);
    if (!q.open.lanes.empty()) q.queued.push_back(std::move(q.open));
    q.open = StoreInstruction{};
}

void WeakMemory::store_retired(const Wave& w) {
    WaveQueue& q = queue_of(w);
    ++q.retired;
    while (!q.queued.empty() && q.queued.front().sequence <= q.retired) drain(q, 0);
}

void WeakMemory::drain(WaveQueue& q, std::size_t index) {
    for (std::size_t j = 0; j < index;) {
        if (overlaps(q.queued[j].lowest, q.queued[j].highest, q.queued[index].lowest, q.queued[index].highest)) {
            drain(q, j);
            --index;
        } else {
            ++j;
        }
    }
    for (const LaneWrite& lane : q.queued[index].lanes) {
        std::memcpy(lane.host, lane.data, lane.bytes);
        forget(q.cu, lane.address, lane.bytes);
    }
    q.queued.erase(q.queued.begin() + static_cast<std::ptrdiff_t>(index));
}

void WeakMemory::before_atomic(const Wave& w, std::uint64_t address, unsigned bytes) {
    WaveQueue& q = queue_of(w);
    for (std::size_t j = 0; j < q.queued.size();) {
        if (overlaps(q.queued[j].lowest, q.queued[j].highest, address, address + bytes)) drain(q, j);
        else ++j;
    }
    forget(q.cu, address, bytes);
}

void WeakMemory::invalidate(const Wave& w, Cache cache) { (cache == Cache::scalar ? scalar_ : l1_)[cu_of(w)].clear(); }

void WeakMemory::wave_ended(const Wave& w) {
    auto it = waves_.find(key_of(w));
    if (it == waves_.end()) return;
    if (it->second.queued.empty()) waves_.erase(it);
    else it->second.ended = true;
}

void WeakMemory::drain_some() {
    ++step_;
    for (auto it = waves_.begin(); it != waves_.end();) {
        WaveQueue& q = it->second;
        for (std::size_t j = 0; j < q.queued.size();) {
            if (q.queued[j].due <= step_) drain(q, j);  // drains older overlapping ones first: restart
            else ++j;
        }
        it = q.ended && q.queued.empty() ? waves_.erase(it) : std::next(it);
    }
}

void WeakMemory::drain_all() {
    for (auto& [key, q] : waves_)
        while (!q.queued.empty()) drain(q, 0);
    waves_.clear();
}

}  // namespace dppgemm::emu
