#include "emu/check/inst_facts.hpp"

#include <algorithm>

#include "emu/exec/mfma.hpp"

namespace dppgemm::emu::check {

RegRange range_of(const Src& s) {
    RegRange r;
    switch (s.kind) {
    case Src::Kind::vgpr: r.slot = s.index; break;
    case Src::Kind::agpr: r.slot = static_cast<std::uint16_t>(slot_agpr + s.index); break;
    case Src::Kind::sreg: r.slot = static_cast<std::uint16_t>(slot_sreg + s.index); break;
    default: return r;
    }
    r.count = s.dwords ? s.dwords : 1;
    return r;
}

namespace {

void add(std::uint8_t& count, RegRange* list, std::size_t capacity, const RegRange& r) {
    if (r.count == 0 || count >= capacity) return;
    for (unsigned i = 0; i < count; ++i)
        if (list[i].slot == r.slot && list[i].count == r.count) return;
    list[count++] = r;
}
void add_read(InstFacts& f, const RegRange& r) { add(f.read_count, f.reads.data(), f.reads.size(), r); }
void add_write(InstFacts& f, const RegRange& r) { add(f.write_count, f.writes.data(), f.writes.size(), r); }

void classify(InstFacts& f, const Inst& inst) {
    const OpInfo& info = inst.info();
    switch (info.family) {
    case Family::VOP1:
    case Family::VOP2:
    case Family::VOPC:
    case Family::VOP3:
    case Family::VOP3P: f.valu = true; break;
    case Family::SOP1:
    case Family::SOP2:
    case Family::SOPK:
    case Family::SOPC: f.salu = true; break;
    case Family::MUBUF:
    case Family::MIMG:
    case Family::GLOBAL: f.vmem = true; break;
    case Family::FLAT: f.vmem = f.flat = true; break;
    case Family::SCRATCH: f.vmem = f.scratch = true; break;
    case Family::SMEM: f.smem = true; break;
    case Family::DS: f.ds = true; break;
    case Family::SOPP: break;
    }
    f.dpp = inst.dpp;
    f.atomic = info.has(OF_ATOMIC);
    f.waitcnt = info.has(OF_WAITCNT);
    f.barrier = info.has(OF_BARRIER);
    f.wait_states = info.has(OF_NOP) ? static_cast<std::uint8_t>((inst.simm16 & 0xf) + 1) : 1;
    f.movrel = info.has(OF_M0_RELATIVE);
    f.m0_message = info.has(OF_M0_MESSAGE);
    f.setreg = info.has(OF_HWREG_WRITE);
    f.getreg = info.has(OF_HWREG_READ);
    f.hwreg = static_cast<std::uint8_t>(inst.simm16 & 0x3f);
    f.div_fmas = info.has(OF_VCC_SCALE);
    f.trans = info.has(OF_TRANS);
    f.lane_select = info.has(OF_LANE_SELECT);
    f.reads_lane_vgpr = info.has(OF_SCALAR_DST);  // v_readlane/v_readfirstlane: src0 is read as a scalar
    f.rwlane = f.lane_select || f.reads_lane_vgpr;
}

void collect_reads(InstFacts& f, const ExecInst& e) {
    const Inst& inst = *e.inst;
    const OpInfo& info = inst.info();
    for (const Src& s : e.src) add_read(f, range_of(s));
    add_read(f, range_of(e.soffset));
    const bool vdata_read = info.family == Family::MUBUF || info.family == Family::MIMG;
    const bool stores_dst = (vdata_read && (info.has(OF_STORE) || info.has(OF_ATOMIC))) ||
                            (info.family == Family::SMEM && info.has(OF_STORE));
    if (stores_dst || info.has(OF_READS_DST)) add_read(f, range_of(e.dst));
    // Carry-in ops (v_cndmask, v_addc, ...) have their lane mask among the
    // sources: VCC in e32 (the decoder puts it there), any SGPR pair in e64.
    if (info.has(OF_READS_VCC) && !info.has(OF_CARRY_IN))
        add_read(f, RegRange{static_cast<std::uint16_t>(slot_vcc), 2});
    if (info.has(OF_READS_EXEC) || f.valu || f.vmem || f.ds)
        add_read(f, RegRange{static_cast<std::uint16_t>(slot_exec), 2});
    if (f.movrel || f.m0_message) add_read(f, RegRange{static_cast<std::uint16_t>(slot_m0), 1});
    for (const Src& s : e.src)
        if (f.valu && (s.kind == Src::Kind::vccz || s.kind == Src::Kind::execz)) f.reads_execz_vccz = true;
}

void collect_writes(InstFacts& f, const ExecInst& e) {
    const OpInfo& info = e.inst->info();
    if (!f.valu && !f.salu) return;  // memory results are written when they land (scoreboard)
    add_write(f, range_of(e.dst));
    add_write(f, range_of(e.sdst));
    if (info.has(OF_WRITES_EXEC)) add_write(f, RegRange{static_cast<std::uint16_t>(slot_exec), 2});
}

void collect_hazard_operands(InstFacts& f, const ExecInst& e) {
    const OpInfo& info = e.inst->info();
    if (f.lane_select && e.src[1].kind == Src::Kind::sreg) f.lane_select_reg = range_of(e.src[1]);
    // Stores of more than 64 bits read their data late; a register offset
    // (soffset SGPR) on MUBUF avoids it (ISA wait-state table).
    const bool writes_memory = info.has(OF_STORE) || info.has(OF_ATOMIC);
    if (!writes_memory) return;
    if (info.family == Family::MUBUF && e.soffset.kind != Src::Kind::sreg && e.dst.dwords > 2)
        f.store_data = range_of(e.dst);
    if ((info.family == Family::FLAT || info.family == Family::GLOBAL || info.family == Family::SCRATCH) &&
        e.src[1].dwords > 2)
        f.store_data = range_of(e.src[1]);
}

void add_touched(InstFacts& f, const RegRange& r) {
    for (unsigned slot = r.slot; slot < unsigned(r.slot) + r.count && slot < slot_count; ++slot) {
        const auto word = static_cast<std::uint16_t>(slot / 64);
        unsigned i = 0;
        while (i < f.touched_words && f.touched[i].word != word) ++i;
        if (i == f.touched.size()) return;  // cannot happen: at most 12 operands of 2 words
        if (i == f.touched_words) f.touched[f.touched_words++].word = word;
        f.touched[i].bits |= std::uint64_t{1} << (slot % 64);
    }
}

void collect_mfma(InstFacts& f, const ExecInst& e, Target target) {
    f.accvgpr_read = e.inst->op == Op::v_accvgpr_read_b32;
    f.accvgpr_write = e.inst->op == Op::v_accvgpr_write_b32;
    if (!f.mfma) return;
    const MfmaShape& shape = mfma_shape(e.inst->op);
    if (!shape.valid() || shape.input == MfmaInput::f64) return;
    f.mfma_passes = static_cast<std::uint8_t>(shape.passes(target));
    f.mfma_column = !has(target, Feature::gfx90a_insts)   ? MfmaColumn::gfx908
                    : !has(target, Feature::gfx940_insts) ? MfmaColumn::gfx90a
                    : shape.input == MfmaInput::f32       ? MfmaColumn::gfx94x
                                                          : MfmaColumn::gfx94x_xdl;
    f.mfma_a = range_of(e.src[0]);
    f.mfma_b = range_of(e.src[1]);
    f.mfma_c = range_of(e.src[2]);
    f.mfma_d = range_of(e.dst);
}

void collect_summaries(InstFacts& f, bool gfx94x, bool has_mfma) {
    for (unsigned i = 0; i < f.read_count; ++i) add_touched(f, f.reads[i]);
    for (unsigned i = 0; i < f.write_count; ++i) add_touched(f, f.writes[i]);
    f.hazard_reader = f.mfma || f.dpp || f.lane_select || f.vmem || f.reads_execz_vccz || f.div_fmas || f.movrel ||
                      f.m0_message || f.getreg || f.setreg || (gfx94x && f.valu) ||
                      (has_mfma && (f.valu || f.vmem || f.ds));
}

}  // namespace

namespace {
// Scalar operand codes with names of their own (102..127).
std::string special_sreg_name(unsigned code, unsigned count) {
    const bool pair = count == 2;
    auto half = [&](const char* base) { return std::string(base) + (pair ? "" : (code % 2 ? "_hi" : "_lo")); };
    if (code < 104) return half("flat_scratch");
    if (code < 106) return half("xnack_mask");
    if (code < 108) return half("vcc");
    if (code < 124) return "ttmp" + std::to_string(code - 108);
    if (code == 124) return "m0";
    if (code == 126 || code == 127) return half("exec");
    return "src_" + std::to_string(code);
}
}  // namespace

std::string range_name(const RegRange& r) {
    std::string file = "v";
    unsigned index = r.slot;
    if (r.slot >= slot_sreg) {
        file = "s";
        index = r.slot - slot_sreg;
        if (index >= 102) return special_sreg_name(index, r.count);
    } else if (r.slot >= slot_agpr) {
        file = "a";
        index = r.slot - slot_agpr;
    }
    if (r.count <= 1) return file + std::to_string(index);
    return file + "[" + std::to_string(index) + ":" + std::to_string(index + r.count - 1) + "]";
}

std::vector<InstFacts> inst_facts(const Program& program) {
    std::vector<InstFacts> facts(program.code.size());
    // In a program with matrix-core ops (MFMA, v_accvgpr_read/write) any VALU
    // or memory instruction may break an MFMA rule.
    const bool has_mfma = std::any_of(program.code.begin(), program.code.end(), [](const ExecInst& e) {
        return e.cls == InstClass::mfma ||
               (e.inst && (e.inst->op == Op::v_accvgpr_read_b32 || e.inst->op == Op::v_accvgpr_write_b32));
    });
    for (std::size_t i = 0; i < program.code.size(); ++i) {
        const ExecInst& e = program.code[i];
        InstFacts& f = facts[i];
        if (!e.inst) {
            f.end_of_code = true;
            continue;
        }
        classify(f, *e.inst);
        f.mfma = e.cls == InstClass::mfma;
        collect_reads(f, e);
        collect_writes(f, e);
        collect_hazard_operands(f, e);
        collect_mfma(f, e, program.target);
        collect_summaries(f, has(program.target, Feature::gfx940_insts), has_mfma);
    }
    return facts;
}

}  // namespace dppgemm::emu::check
