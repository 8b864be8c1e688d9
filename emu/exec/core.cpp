// Shared pieces of the semantics: errors, output modifiers and the counter
// queue through which memory results reach registers.
//
// Landing rule: a load's data is read from memory when the instruction
// issues and written to its registers only when an s_waitcnt retires it (or
// when the counter overflows and the oldest entry must complete). vmcnt
// retires in issue order. lgkmcnt mixes LDS (in order) and SMEM (out of
// order): to leave a kernel that waits too little with stale data, as the
// hardware may, LDS entries retire first, oldest first, then SMEM entries;
// only lgkmcnt(0) guarantees SMEM results.

#include <cmath>

#include "emu/exec/semantics.hpp"
#include "emu/exec/weak_memory.hpp"

namespace dppgemm::emu::sem {

void fail(FaultKind kind, const std::string& what) { throw ExecError(kind, what); }
void fault_at(FaultKind kind, const std::string& what, std::uint64_t address) {
    throw ExecError(kind, what, true, address);
}

void not_implemented(Wave& w, const ExecInst& e) {
    (void)w;
    if (!e.inst) fail(FaultKind::past_end_of_code, "executed past the end of the code (no s_endpgm)");
    if (!e.inst->valid()) fail(FaultKind::invalid_instruction, "invalid instruction word");
    if (has_semantics(e.inst->op) && (e.inst->clamp || e.inst->omod))
        fail(FaultKind::not_implemented, "clamp/omod on this (integer) operation is not implemented");
    if (e.inst->dpp && !e.dpp) fail(FaultKind::invalid_instruction, "DPP control not available on this target");
    fail(FaultKind::not_implemented, "instruction not implemented");
}

void register_out_of_allocation(Wave& w, const ExecInst& e) {
    fail(FaultKind::invalid_operand, register_operand_error(*w.group->env->program, e));
}

// fetch()'s general case: scalars broadcast, DPP gathered, SDWA selects and
// abs/neg/flush applied in tmp.
const std::uint32_t* fetch_copy(Wave& w, const ExecInst& e, unsigned i, Lanes tmp, unsigned dword, std::uint8_t skip) {
    const Src& s = e.src[i];
    const std::uint8_t t = e.transform[i] & ~skip;
    const std::uint32_t* lanes;
    if (s.is_vector()) {
        lanes = vreg(w, s, dword);
        if (i == 0 && e.dpp) {
            dpp_gather(*e.dpp, e.dpp->valid_sources(w.exec()), lanes, tmp);
            lanes = tmp;
        }
        if (!t) return lanes;
    } else {
        const std::uint64_t wide = s.dwords > 1 ? read64(w, s) : read32(w, s);
        const std::uint32_t value = static_cast<std::uint32_t>(wide >> (32 * dword));
        for (unsigned l = 0; l < 64; ++l) tmp[l] = value;
        lanes = tmp;
        if (!t) return lanes;
    }
    if (t & ST_SDWA) {
        sdwa_select(e, i, lanes, tmp);
        lanes = tmp;
    }
    const std::uint32_t and_mask = (t & ST_ABS) ? 0x7fffffffu : 0xffffffffu;
    const std::uint32_t xor_mask = (t & ST_NEG) ? 0x80000000u : 0u;
    if (t & ST_FLUSH) {
        for (unsigned l = 0; l < 64; ++l) tmp[l] = (fp::flush(lanes[l]) & and_mask) ^ xor_mask;
    } else {
        for (unsigned l = 0; l < 64; ++l) tmp[l] = (lanes[l] & and_mask) ^ xor_mask;
    }
    return tmp;
}

void apply_output_modifiers(const ExecInst& e, std::uint32_t* value) {
    const Inst& inst = *e.inst;
    if (inst.omod) {
        static constexpr float scale[] = {1.0f, 2.0f, 4.0f, 0.5f};
        const float m = scale[inst.omod & 3];
        for (unsigned l = 0; l < 64; ++l) value[l] = fp::as_bits(fp::as_float(value[l]) * m);
    }
    if (inst.clamp) {
        // fp32 clamp to [0, 1]; NaN -> 0 (DX10 clamp).
        for (unsigned l = 0; l < 64; ++l) {
            const float f = fp::as_float(value[l]);
            value[l] = fp::as_bits(std::isnan(f) ? 0.0f : (f < 0.0f ? 0.0f : (f > 1.0f ? 1.0f : f)));
        }
    }
    if (e.flush_out)
        for (unsigned l = 0; l < 64; ++l) value[l] = fp::flush(value[l]);
}

namespace {
// SDWA selector -> (shift, width): BYTE_0..3, WORD_0..1, DWORD.
void field(unsigned sel, unsigned& shift, unsigned& width) {
    if (sel <= 3) shift = 8 * sel, width = 8;
    else if (sel <= 5) shift = 16 * (sel - 4), width = 16;
    else shift = 0, width = 32;
}
}  // namespace

void sdwa_select(const ExecInst& e, unsigned i, const std::uint32_t* lanes, std::uint32_t* out) {
    const Inst& inst = *e.inst;
    unsigned shift, width;
    field(i == 0 ? inst.sdwa_sel.src0_sel : inst.sdwa_sel.src1_sel, shift, width);
    const bool sext = (inst.mods.sext >> i) & 1;
    for (unsigned l = 0; l < 64; ++l) {
        std::uint32_t v = width == 32 ? lanes[l] : (lanes[l] >> shift) & ((1u << width) - 1);
        if (sext && width < 32 && ((v >> (width - 1)) & 1)) v |= ~0u << width;
        out[l] = v;
    }
}

void sdwa_place(const std::uint32_t* old, std::uint32_t* value, const Inst& inst) {
    unsigned shift, width;
    field(inst.sdwa_sel.dst_sel, shift, width);
    if (width == 32) return;
    const std::uint32_t mask = ((1u << width) - 1) << shift;
    for (unsigned l = 0; l < 64; ++l) {
        const std::uint32_t placed = (value[l] << shift) & mask;
        switch (inst.sdwa_sel.dst_unused) {
        case 0: value[l] = placed; break;  // UNUSED_PAD
        case 1: {                          // UNUSED_SEXT: the field's sign fills the bits above
            const bool negative = (value[l] >> (width - 1)) & 1;
            const std::uint32_t above = shift + width >= 32 ? 0u : ~0u << (shift + width);
            value[l] = placed | (negative ? above : 0u);
            break;
        }
        default: value[l] = (old[l] & ~mask) | placed; break;  // UNUSED_PRESERVE
        }
    }
}

void land(Wave& w, const InFlightMemoryOp& p) {
    const std::uint32_t* data = w.pending.data(p);
    switch (p.dest) {
    case InFlightMemoryOp::Dest::none: break;
    case InFlightMemoryOp::Dest::sgpr:
        for (unsigned d = 0; d < p.dwords; ++d) w.sreg[p.reg + d] = data[d];
        break;
    case InFlightMemoryOp::Dest::vgpr:
    case InFlightMemoryOp::Dest::agpr:
        for (unsigned d = 0; d < p.dwords; ++d) {
            std::uint32_t* reg = p.dest == InFlightMemoryOp::Dest::vgpr ? w.v[p.reg + d] : w.a[p.reg + d];
            const std::uint32_t* value = data + 64 * d;
            const std::uint32_t keep = p.keep_mask;
            if (keep == 0) {
                commit(reg, value, p.lanes);
            } else {
                for (unsigned l = 0; l < 64; ++l)
                    if ((p.lanes >> l) & 1) reg[l] = (reg[l] & keep) | (value[l] & ~keep);
            }
        }
        break;
    }
    // A store (or atomic) that s_waitcnt retires is complete: every later
    // access of any wave sees it. The memory model's release sequences rest
    // on that (LLVM AMDGPUUsage, "Memory Model GFX6-GFX9", "GFX90A",
    // "GFX942": s_waitcnt vmcnt(0) before the releasing store or atomic).
    // The store wrote memory at issue, but on the host it may still sit in
    // this core's store buffer, where a later load of this thread can pass
    // it (x86-TSO reorders stores with later loads): a full fence drains it.
    // Kernels retire few stores, so the fence costs nothing measurable.
    if (p.writes_memory) {
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        if (w.group->weak && p.counter == WaitCounter::vm) w.group->weak->store_retired(w);
    }
    if (WorkgroupObserver* o = w.group->observer) o->landed(w, p);
}

namespace {

bool is_lgkm(const InFlightMemoryOp& p) { return p.counter != WaitCounter::vm; }

// Retires the entry at position i.
void retire(Wave& w, std::size_t i) {
    land(w, w.pending.entries()[i]);
    w.pending.erase(i);
}

void retire_vm(Wave& w, unsigned keep) {
    unsigned outstanding = w.pending.vmcnt();
    for (std::size_t i = 0; outstanding > keep && i < w.pending.entries().size();) {
        if (w.pending.entries()[i].counter == WaitCounter::vm) {
            retire(w, i);
            --outstanding;
        } else {
            ++i;
        }
    }
}

void retire_lgkm(Wave& w, unsigned keep) {
    unsigned outstanding = w.pending.lgkmcnt();
    for (WaitCounter pass : {WaitCounter::lgkm_lds, WaitCounter::lgkm_smem}) {
        for (std::size_t i = 0; outstanding > keep && i < w.pending.entries().size();) {
            const InFlightMemoryOp& p = w.pending.entries()[i];
            if (is_lgkm(p) && p.counter == pass) {
                retire(w, i);
                --outstanding;
            } else {
                ++i;
            }
        }
    }
}

}  // namespace

void wait(Wave& w, unsigned vm, unsigned lgkm) {
    if (w.pending.empty()) return;
    retire_vm(w, vm);
    retire_lgkm(w, lgkm);
}

InFlightMemoryOp& issue(Wave& w, const ExecInst& e, const InFlightMemoryOp& entry) {
    // At the counter's limit the hardware stalls the issue until one completes.
    if (entry.counter == WaitCounter::vm) retire_vm(w, InFlightQueue::max_vm - 1);
    else retire_lgkm(w, InFlightQueue::max_lgkm - 1);
    InFlightMemoryOp& p = w.pending.push(entry);
    p.inst_index = e.index;
    if (WorkgroupObserver* o = w.group->observer) o->issued(w, e, p);
    return p;
}

}  // namespace dppgemm::emu::sem
