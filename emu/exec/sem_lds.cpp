// LDS (ds_*) instructions. Widths and address forms come from the mnemonic
// (ds_read2st64_b64: two addresses, offsets scaled by 64 elements of 8
// bytes). Every access is bounds-checked against the workgroup's LDS size;
// reads land at s_waitcnt lgkmcnt like other loads. Counters: one lane
// request per active lane, bytes moved, bank-conflict cycles (lds.hpp).

#include <algorithm>
#include <cstring>
#include <memory>
#include <string_view>

#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

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

// All lanes' byte addresses (inactive lanes too: the loops stay branch-free)
// and the largest of them.
void lane_addresses(const Wave& w, const ExecInst& e, const DsFormat& f, LdsLaneAddresses& out) {
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
        fault_at("LDS access outside the workgroup's " + std::to_string(w.group->lds.size()) + " bytes", address);
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
void gather_all_lanes_x4(const std::uint8_t* lds, const u32* address, u32* out) {
#if defined(__SSE2__)
    for (unsigned l = 0; l < 64; l += 4) {
        __m128 row0 = _mm_loadu_ps(reinterpret_cast<const float*>(lds + address[l]));
        __m128 row1 = _mm_loadu_ps(reinterpret_cast<const float*>(lds + address[l + 1]));
        __m128 row2 = _mm_loadu_ps(reinterpret_cast<const float*>(lds + address[l + 2]));
        __m128 row3 = _mm_loadu_ps(reinterpret_cast<const float*>(lds + address[l + 3]));
        _MM_TRANSPOSE4_PS(row0, row1, row2, row3);
        _mm_storeu_ps(reinterpret_cast<float*>(out + l), row0);
        _mm_storeu_ps(reinterpret_cast<float*>(out + 64 + l), row1);
        _mm_storeu_ps(reinterpret_cast<float*>(out + 128 + l), row2);
        _mm_storeu_ps(reinterpret_cast<float*>(out + 192 + l), row3);
    }
#else
    gather<4>(lds, address, ~0ull, out);
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
        if (f.sign) value = f.bytes == 2 ? u32(std::int32_t(std::int16_t(value))) : u32(std::int32_t(std::int8_t(value)));
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
void account(Wave& w, const ExecInst& e, const DsFormat& f, u64 exec, bool write, const LdsLaneAddresses& a) {
    Counters& c = w.group->counters;
    const u64 active = popcount(exec);
    const u64 bytes = active * f.bytes * a.elements;
    if (write) {
        c.lds_write_requests += active;
        c.lds_write_bytes += bytes;
    } else {
        c.lds_read_requests += active;
        c.lds_read_bytes += bytes;
    }
    const LdsLaneGrouping& passes =
        lds_bank_model(w.group->env->program->target).passes(write, a.elements * a.dwords_per_element);
    c.lds_bank_conflict_cycles += lds_bank_conflict_cycles(a, exec, passes, w.group->memo(e.index));
    if (WorkgroupObserver* o = w.group->observer) {
        MemoryAccess& access = w.group->observed_access;
        access.space = MemoryAccess::Space::lds;
        access.write = write;
        access.read = !write;
        access.lanes = exec;
        access.bytes_per_lane = f.bytes;
        access.addresses_per_lane = a.elements;
        for (unsigned l = 0; l < 64; ++l)
            for (unsigned el = 0; el < a.elements; ++el) access.address[l][el] = a.byte[el][l];
        o->memory_access(w, e, access);
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
    LdsLaneAddresses a;
    lane_addresses(w, e, f, a);
    check_bounds(w, a, exec, f.bytes);
    PendingLoad& p = issue_read(w, e, f.result_dwords(), f.d16 ? (f.hi ? 0x0000ffffu : 0xffff0000u) : 0u, exec);
    u32* data = w.pending.data(p);
    const std::uint8_t* lds = w.group->lds.at(0, 0);
    for (unsigned el = 0; el < a.elements; ++el) {
        u32* out = data + 64 * el * a.dwords_per_element;
        if (f.bytes >= 4 && a.dwords_per_element == 4 && exec == ~0ull) gather_all_lanes_x4(lds, a.byte[el], out);
        else if (f.bytes >= 4) gathers[a.dwords_per_element](lds, a.byte[el], exec, out);
        else gather_sub_dword(lds, f, a.byte[el], exec, out);
    }
    account(w, e, f, exec, false, a);
}

void ds_write(Wave& w, const ExecInst& e) {
    const DsFormat& f = formats()[static_cast<std::size_t>(e.inst->op)];
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
    PendingLoad entry;
    entry.counter = WaitCounter::lgkm_lds;
    issue(w, e, entry);
    account(w, e, f, exec, true, a);
}

// 32-bit LDS atomics; the _rtn forms return the old value. ds_cmpst: data0
// is the compare value, data1 the new one.
template <bool Returns>
void ds_atomic(Wave& w, const ExecInst& e) {
    const u64 exec = w.exec();
    const bool cmpst = mnemonic(e.inst->op).find("cmpst") != std::string_view::npos;
    const DsFormat f;
    LdsLaneAddresses a;
    lane_addresses(w, e, f, a);
    u32 old[64] = {};
    for (unsigned l = 0; l < 64; ++l) {
        if (!((exec >> l) & 1)) continue;
        std::uint8_t* host = lds_at(w, a.byte[0][l], 4);
        const u32 data0 = vreg(w, e.src[1])[l];
        const u32 data1 = e.src[2].kind != Src::Kind::none ? vreg(w, e.src[2])[l] : 0;
        old[l] = cmpst ? lds_atomic_apply(host, e.inst->op, data1, data0) : lds_atomic_apply(host, e.inst->op, data0, 0);
    }
    if (Returns) {
        PendingLoad& p = issue_read(w, e, 1, 0, exec);
        std::memcpy(w.pending.data(p), old, sizeof old);
    } else {
        PendingLoad entry;
        entry.counter = WaitCounter::lgkm_lds;
        issue(w, e, entry);
    }
    account(w, e, f, exec, !Returns, a);
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
