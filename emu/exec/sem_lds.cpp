// LDS (ds_*) instructions. Widths and address forms come from the mnemonic
// (ds_read2st64_b64: two addresses, offsets scaled by 64 elements of 8
// bytes). Every access is bounds-checked against the workgroup's LDS size;
// reads land at s_waitcnt lgkmcnt like other loads. Counters: one lane
// request per active lane, bytes moved, bank-conflict cycles (lds.hpp).

#include <cstring>
#include <memory>
#include <string_view>

#include "emu/exec/semantics.hpp"

namespace dppgemm::emu::sem {

std::uint32_t lds_atomic_apply(std::uint8_t* host, Op op, std::uint32_t data, std::uint32_t compare);
bool parse_atomic(std::string_view name, Op op);

namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;

struct DsFormat {
    std::uint8_t bytes = 4;       // element width in bytes (1, 2, 4, 8, 12, 16)
    bool two_addresses = false;   // read2/write2
    bool st64 = false;            // offsets in units of 64 elements
    bool sign = false;
    bool d16 = false, hi = false;
    unsigned dwords_per_element() const { return bytes <= 4 ? 1u : bytes / 4u; }
    unsigned result_dwords() const { return dwords_per_element() * (two_addresses ? 2u : 1u); }
};

std::array<DsFormat, op_count>& formats() {
    static std::array<DsFormat, op_count> table{};
    return table;
}

DsFormat parse(std::string_view name) {
    auto has = [&](std::string_view s) { return name.find(s) != std::string_view::npos; };
    DsFormat f;
    if (has("b128")) f.bytes = 16;
    else if (has("b96")) f.bytes = 12;
    else if (has("b64")) f.bytes = 8;
    else if (has("b32")) f.bytes = 4;
    else if (has("b16") || has("u16") || has("i16")) f.bytes = 2;
    else if (has("b8") || has("u8") || has("i8")) f.bytes = 1;
    f.two_addresses = has("read2") || has("write2");
    f.st64 = has("st64");
    f.sign = has("_i8") || has("_i16");
    f.d16 = has("d16");
    f.hi = has("d16_hi");
    return f;
}

u32 popcount(u64 x) { return u32(__builtin_popcountll(x)); }

// Dwords of one lane into the lane-contiguous planes out[0], out[64], ...
// (fixed-size copies: a variable-length memcpy per lane costs more than the rest).
inline void copy_dwords(const std::uint8_t* host, u32* out, unsigned dwords) {
    u32 value[4] = {0, 0, 0, 0};
    switch (dwords) {
    case 4: std::memcpy(value, host, 16); break;
    case 3: std::memcpy(value, host, 12); break;
    case 2: std::memcpy(value, host, 8); break;
    default: std::memcpy(value, host, 4); break;
    }
    for (unsigned d = 0; d < dwords; ++d) out[64 * d] = value[d];
}

// Byte address of element `which` (0 or 1) of lane l.
u32 element_address(Wave& w, const ExecInst& e, const DsFormat& f, unsigned l, unsigned which) {
    const u32 base = w.v[e.src[0].index][l];
    if (!f.two_addresses) return base + u32(e.inst->offset & 0xffff);
    const u32 scale = u32(f.bytes) * (f.st64 ? 64u : 1u);
    return base + scale * (which ? e.inst->offset1 : e.inst->offset0);
}

std::uint8_t* lds_at(Wave& w, u32 address, u32 width) {
    std::uint8_t* host = w.group->lds.at(address, width);
    if (!host)
        fault_at("LDS access outside the workgroup's " + std::to_string(w.group->lds.size()) + " bytes", address);
    return host;
}

// Dword addresses for the bank model, counters and the observer.
void account(Wave& w, const ExecInst& e, const DsFormat& f, u64 exec, bool write, const u32 (*addresses)[2]) {
    LdsLaneDwords lanes;
    const unsigned per_element = f.dwords_per_element();
    const unsigned elements = f.two_addresses ? 2 : 1;
    lanes.per_lane = per_element * elements;
    for (unsigned l = 0; l < 64; ++l)
        for (unsigned el = 0; el < elements; ++el)
            for (unsigned d = 0; d < per_element; ++d) lanes.dwords[l][el * per_element + d] = addresses[l][el] / 4 + d;
    Counters& c = w.group->counters;
    const u64 active = popcount(exec);
    const u64 bytes = active * f.bytes * elements;
    if (write) {
        c.lds_write_requests += active;
        c.lds_write_bytes += bytes;
    } else {
        c.lds_read_requests += active;
        c.lds_read_bytes += bytes;
    }
    c.lds_bank_conflict_cycles += lds_bank_conflict_cycles(lanes, exec, w.group->memo(e.index));
    if (WorkgroupObserver* o = w.group->observer) {
        auto access = std::make_unique<MemoryAccess>();
        access->space = MemoryAccess::Space::lds;
        access->write = write;
        access->read = !write;
        access->lanes = exec;
        access->bytes_per_lane = f.bytes;
        access->addresses_per_lane = elements;
        for (unsigned l = 0; l < 64; ++l)
            for (unsigned el = 0; el < elements; ++el) access->address[l][el] = addresses[l][el];
        o->memory_access(w, e, *access);
    }
}

PendingLoad& issue_read(Wave& w, const ExecInst& e, unsigned dwords, u32 keep_mask, u64 lanes) {
    PendingLoad entry;
    entry.counter = WaitCounter::lgkm_lds;
    entry.dest = e.dst.kind == Src::Kind::agpr ? PendingLoad::Dest::agpr : PendingLoad::Dest::vgpr;
    entry.dwords = static_cast<std::uint8_t>(dwords);
    entry.reg = e.dst.index;
    entry.keep_mask = keep_mask;
    entry.lanes = lanes;
    return issue(w, e, entry);
}

void ds_read(Wave& w, const ExecInst& e) {
    const DsFormat& f = formats()[static_cast<std::size_t>(e.inst->op)];
    const u64 exec = w.exec();
    u32 addresses[64][2];
    PendingLoad& p = issue_read(w, e, f.result_dwords(), f.d16 ? (f.hi ? 0x0000ffffu : 0xffff0000u) : 0u, exec);
    u32* data = w.pending.data(p);
    const unsigned elements = f.two_addresses ? 2 : 1;
    const unsigned per_element = f.dwords_per_element();
    for (unsigned el = 0; el < elements; ++el) {
        // Addresses of all lanes, then one bounds check over the active ones.
        u32 highest = 0;
        for (unsigned l = 0; l < 64; ++l) {
            const u32 address = element_address(w, e, f, l, el);
            addresses[l][el] = address;
            if (((exec >> l) & 1) && address >= highest) highest = address;
        }
        std::uint8_t* base = w.group->lds.at(0, 0);
        const u32 size = w.group->lds.size();
        if (exec && (u64(highest) + f.bytes > size)) {
            for (unsigned l = 0; l < 64; ++l)
                if ((exec >> l) & 1) lds_at(w, addresses[l][el], f.bytes);  // faults naming the first bad address
        }
        for (unsigned l = 0; l < 64; ++l) {
            if (!((exec >> l) & 1)) continue;
            const std::uint8_t* host = base + addresses[l][el];
            if (f.bytes >= 4) {
                u32* out = data + 64 * el * per_element + l;
                copy_dwords(host, out, per_element);
            } else {
                u32 value = f.bytes == 2 ? u32(host[0] | (host[1] << 8)) : host[0];
                if (f.sign) value = f.bytes == 2 ? u32(std::int32_t(std::int16_t(value))) : u32(std::int32_t(std::int8_t(value)));
                if (f.hi) value <<= 16;
                data[l] = value;
            }
        }
    }
    account(w, e, f, exec, false, addresses);
}

void ds_write(Wave& w, const ExecInst& e) {
    const DsFormat& f = formats()[static_cast<std::size_t>(e.inst->op)];
    const u64 exec = w.exec();
    u32 addresses[64][2] = {};
    const unsigned elements = f.two_addresses ? 2 : 1;
    for (unsigned l = 0; l < 64; ++l) {
        if (!((exec >> l) & 1)) continue;
        for (unsigned el = 0; el < elements; ++el) {
            const Src& data = el == 0 ? e.src[1] : e.src[2];
            const u32 address = element_address(w, e, f, l, el);
            addresses[l][el] = address;
            std::uint8_t* host = lds_at(w, address, f.bytes);
            if (f.bytes >= 4) {
                for (unsigned d = 0; d < f.dwords_per_element(); ++d) std::memcpy(host + 4 * d, &vreg(w, data, d)[l], 4);
            } else {
                u32 value = vreg(w, data, 0)[l];
                if (f.hi) value >>= 16;
                std::memcpy(host, &value, f.bytes);
            }
        }
    }
    PendingLoad entry;
    entry.counter = WaitCounter::lgkm_lds;
    issue(w, e, entry);
    account(w, e, f, exec, true, addresses);
}

// 32-bit LDS atomics; the _rtn forms return the old value. ds_cmpst: data0
// is the compare value, data1 the new one.
template <bool Returns>
void ds_atomic(Wave& w, const ExecInst& e) {
    const u64 exec = w.exec();
    const bool cmpst = mnemonic(e.inst->op).find("cmpst") != std::string_view::npos;
    u32 addresses[64][2] = {};
    u32 old[64] = {};
    for (unsigned l = 0; l < 64; ++l) {
        if (!((exec >> l) & 1)) continue;
        const u32 address = w.v[e.src[0].index][l] + u32(e.inst->offset & 0xffff);
        addresses[l][0] = address;
        std::uint8_t* host = lds_at(w, address, 4);
        const u32 data0 = vreg(w, e.src[1])[l];
        const u32 data1 = e.src[2].kind != Src::Kind::none ? vreg(w, e.src[2])[l] : 0;
        old[l] = cmpst ? lds_atomic_apply(host, e.inst->op, data1, data0) : lds_atomic_apply(host, e.inst->op, data0, 0);
    }
    DsFormat f;
    if (Returns) {
        PendingLoad& p = issue_read(w, e, 1, 0, exec);
        std::memcpy(w.pending.data(p), old, sizeof old);
    } else {
        PendingLoad entry;
        entry.counter = WaitCounter::lgkm_lds;
        issue(w, e, entry);
    }
    account(w, e, f, exec, !Returns, addresses);
}

// Lane exchanges through the LDS crossbar (no LDS memory). A lane whose
// source lane is inactive reads 0.
void finish_exchange(Wave& w, const ExecInst& e, const u32* value, u64 exec) {
    PendingLoad& p = issue_read(w, e, 1, 0, exec);
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

// offset[15] = 1: quad permute, offset[7:0] = four 2-bit lane selects.
// offset[15] = 0: within 32 lanes, source = ((lane & and) | or) ^ xor with
// and = offset[4:0], or = offset[9:5], xor = offset[14:10].
void ds_swizzle(Wave& w, const ExecInst& e) {
    const u64 exec = w.exec();
    const u32 pattern = u32(e.inst->offset) & 0xffff;
    const u32* data = vreg(w, e.src[0]);
    u32 out[64];
    for (unsigned l = 0; l < 64; ++l) {
        unsigned from;
        if (pattern & 0x8000) {
            from = (l & ~3u) | ((pattern >> (2 * (l & 3))) & 3);
        } else {
            const unsigned and_mask = pattern & 0x1f, or_mask = (pattern >> 5) & 0x1f, xor_mask = (pattern >> 10) & 0x1f;
            from = (l & 32u) | ((((l & 31u) & and_mask) | or_mask) ^ xor_mask);
        }
        out[l] = ((exec >> from) & 1) ? data[from] : 0;
    }
    finish_exchange(w, e, out, exec);
}

void no_effect(Wave&, const ExecInst&) {}

}  // namespace

void register_lds(Table& t) {
    for (std::size_t i = 1; i < op_count; ++i) {
        const Op op = static_cast<Op>(i);
        const OpInfo& info = op_info(op);
        if (info.family != Family::DS) continue;
        const std::string_view name = info.mnemonic;
        auto starts = [&](std::string_view p) { return name.substr(0, p.size()) == p; };
        if (starts("ds_read_addtid") || starts("ds_write_addtid") || name.find("src2") != std::string_view::npos)
            continue;
        if (starts("ds_read")) {
            formats()[i] = parse(name);
            set(t, op, ds_read, InstClass::lds_read);
        } else if (starts("ds_write_") || starts("ds_write2")) {
            formats()[i] = parse(name);
            set(t, op, ds_write, InstClass::lds_write);
        }
    }
    // 32-bit atomics.
    for (std::size_t i = 1; i < op_count; ++i) {
        const Op op = static_cast<Op>(i);
        const std::string_view name = op_info(op).mnemonic;
        if (op_info(op).family != Family::DS || t[i].fn) continue;
        const bool b32 = name.find("_u32") != std::string_view::npos || name.find("_i32") != std::string_view::npos ||
                         name.find("_b32") != std::string_view::npos || name == "ds_add_f32" || name == "ds_add_rtn_f32";
        if (!b32 || name.find("wrxchg2") != std::string_view::npos || name.find("mskor") != std::string_view::npos ||
            name.find("wrap") != std::string_view::npos || name.find("permute") != std::string_view::npos ||
            name.find("swizzle") != std::string_view::npos || name.find("condxchg") != std::string_view::npos)
            continue;
        if (!parse_atomic(name, op)) continue;
        const bool returns = name.find("_rtn") != std::string_view::npos;
        set(t, op, returns ? ds_atomic<true> : ds_atomic<false>, returns ? InstClass::lds_read : InstClass::lds_write);
    }
    set(t, Op::ds_bpermute_b32, ds_bpermute, InstClass::lds_read);
    set(t, Op::ds_permute_b32, ds_permute, InstClass::lds_read);
    set(t, Op::ds_swizzle_b32, ds_swizzle, InstClass::lds_read);
    set(t, Op::ds_nop, no_effect, InstClass::other);
}

}  // namespace dppgemm::emu::sem
