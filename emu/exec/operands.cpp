// The operand helpers the instruction families share: fetching sources
// (scalars broadcast, DPP gathered, SDWA selects, abs/neg/flush), output
// modifiers, and placing SDWA results.

#include <cmath>

#include "emu/exec/semantics.hpp"

namespace dppgemm::emu::sem {

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

}  // namespace dppgemm::emu::sem
