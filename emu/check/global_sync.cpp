#include "emu/check/global_sync.hpp"

#include <algorithm>

#include "emu/exec/memory_model.hpp"

namespace dppgemm::emu::check {

void join(Knowledge& a, const Knowledge& b) {
    if (b.empty()) return;
    Knowledge out;
    out.reserve(a.size() + b.size());
    auto i = a.cbegin();
    auto j = b.cbegin();
    while (i != a.cend() || j != b.cend()) {
        if (j == b.cend() || (i != a.cend() && i->first < j->first)) {
            out.push_back(*i++);
        } else if (i == a.cend() || j->first < i->first) {
            out.push_back(*j++);
        } else {
            out.emplace_back(i->first, std::max(i->second, j->second));
            ++i, ++j;
        }
    }
    a = std::move(out);
}

void WaveSync::reset(std::uint64_t wave_key) {
    key = wave_key;
    stores_issued = stores_completed = 0;
    acquired.clear();
    acquired_scalar.clear();
    pending.clear();
    published.reset();
}

const std::shared_ptr<const Knowledge>& WaveSync::release() {
    if (!published) {
        Knowledge k = acquired;
        join(k, Knowledge{{key, stores_completed}});
        published = std::make_shared<const Knowledge>(std::move(k));
    }
    return published;
}

std::uint64_t WaveSync::known(const Knowledge& k, std::uint64_t writer) {
    auto it = std::lower_bound(k.begin(), k.end(), std::make_pair(writer, std::uint64_t{0}));
    return it != k.end() && it->first == writer ? it->second : 0;
}

GlobalSync::GlobalSync(const Program& program) {
    for (const Inst& inst : program.insts) {
        const OpInfo& info = inst.info();
        const bool vmem = info.family == Family::MUBUF || info.family == Family::GLOBAL || info.family == Family::FLAT;
        if ((vmem && info.atomic != AtomicKind::none) || invalidates_l1(inst.op) || invalidates_scalar_cache(inst.op) ||
            (vmem && info.has(OF_LOAD) && load_bypasses_l1(program.target, inst)) || synchronizes_on_gws(inst.op))
            active_ = true;
    }
}

bool synchronizes_on_gws(Op op) {
    return op == Op::ds_gws_barrier || op == Op::ds_gws_sema_p || op == Op::ds_gws_sema_v || op == Op::ds_gws_sema_br ||
           op == Op::ds_gws_sema_release_all;
}

void GlobalSync::gws_release(unsigned resource, const Knowledge& k) {
    std::lock_guard<std::mutex> lock(gws_mutex_);
    join(gws_[resource % gws_.size()], k);
}

Knowledge GlobalSync::gws_released(unsigned resource) {
    std::lock_guard<std::mutex> lock(gws_mutex_);
    return gws_[resource % gws_.size()];
}

void GlobalSync::clear() {
    {
        std::lock_guard<std::mutex> lock(gws_mutex_);
        for (Knowledge& k : gws_) k.clear();
    }
    for (Shard& s : shards_) {
        std::lock_guard<std::mutex> lock(s.mutex);
        s.words.clear();
    }
}

namespace {
// Bit per byte of the word that [address, address + bytes) covers, for the word at `word` * 4.
std::uint8_t byte_mask(std::uint64_t word, std::uint64_t address, unsigned bytes) {
    std::uint8_t mask = 0;
    for (unsigned b = 0; b < 4; ++b) {
        const std::uint64_t a = word * 4 + b;
        if (a >= address && a < address + bytes) mask |= std::uint8_t(1u << b);
    }
    return mask;
}
}  // namespace

void GlobalSync::store(WaveSync& wave, const std::array<std::uint32_t, 3>& workgroup, std::uint32_t inst,
                       std::uint64_t address, unsigned bytes, bool read_modify_write) {
    const std::shared_ptr<const Knowledge>& mine = wave.release();
    for (std::uint64_t word = address / 4; word * 4 < address + bytes; ++word) {
        Shard& s = shard_of(word);
        std::lock_guard<std::mutex> lock(s.mutex);
        Store& st = s.words[word];
        // Another lane of this instruction got here first: the location holds
        // what this wave publishes already.
        const bool same_instruction = st.writer == wave.key && st.sequence == wave.stores_issued && st.published;
        std::shared_ptr<const Knowledge> published = same_instruction ? st.published : mine;
        if (read_modify_write && !same_instruction && st.published && st.published != mine) {
            Knowledge merged = *st.published;
            join(merged, *mine);
            published = std::make_shared<const Knowledge>(std::move(merged));
        }
        const std::uint8_t mask = byte_mask(word, address, bytes);
        st.bytes = st.writer == wave.key ? std::uint8_t(st.bytes | mask) : mask;
        st.writer = wave.key;
        st.workgroup = workgroup;
        st.inst = inst;
        st.sequence = wave.stores_issued;
        st.published = std::move(published);
    }
}

void GlobalSync::read_synchronizing(WaveSync& wave, std::uint64_t address, unsigned bytes) {
    for (std::uint64_t word = address / 4; word * 4 < address + bytes; ++word) {
        Shard& s = shard_of(word);
        std::shared_ptr<const Knowledge> published;
        {
            std::lock_guard<std::mutex> lock(s.mutex);
            auto it = s.words.find(word);
            if (it == s.words.end() || (it->second.writer >> 8) == (wave.key >> 8)) continue;
            published = it->second.published;
        }
        if (published) join(wave.pending, *published);
    }
}

std::optional<GlobalSync::Store> GlobalSync::unordered_store(const WaveSync& wave, const Knowledge& acquired,
                                                             std::uint64_t address, unsigned bytes) {
    for (std::uint64_t word = address / 4; word * 4 < address + bytes; ++word) {
        Shard& s = shard_of(word);
        std::lock_guard<std::mutex> lock(s.mutex);
        auto it = s.words.find(word);
        if (it == s.words.end()) continue;
        const Store& st = it->second;
        if ((st.writer >> 8) == (wave.key >> 8) || !(st.bytes & byte_mask(word, address, bytes))) continue;
        if (WaveSync::known(acquired, st.writer) < st.sequence) return st;
    }
    return std::nullopt;
}

}  // namespace dppgemm::emu::check
