#include "emu/check/hazards.hpp"

namespace dppgemm::emu::check {
namespace {

constexpr RegRange exec_range{static_cast<std::uint16_t>(slot_exec), 2};
constexpr RegRange vcc_range{static_cast<std::uint16_t>(slot_vcc), 2};

bool is_scalar(const RegRange& r) { return r.slot >= slot_sreg; }
bool is_exec(const RegRange& r) { return r.overlaps(exec_range); }

std::string shortfall(std::uint64_t since, unsigned needed) {
    return std::to_string(since) + " wait state" + (since == 1 ? "" : "s") + " before; needs " +
           std::to_string(needed) + " (add s_nop " + std::to_string(needed - since - 1) + ")";
}

}  // namespace

void HazardTracker::reset(Target target, bool mfma) {
    clock_ = 0;
    gfx94x_ = has_gfx94x_hazards(target);
    mfma_ = mfma;
    column_ = !has(target, Feature::gfx90a_insts)   ? MfmaColumn::gfx908
              : !has(target, Feature::gfx940_insts) ? MfmaColumn::gfx90a
                                                    : MfmaColumn::gfx94x;
    if (mfma)
        for (std::vector<MfmaEvent>* events : {&mfma_d_, &mfma_c_, &acc_write_, &acc_read_})
            events->assign(slot_sreg, MfmaEvent{});
    valu_.fill(Write{});
    m0_salu_ = Write{};
    setreg_.fill(Write{});
    store_ = Write{};
    store_data_ = RegRange{};
}

void HazardTracker::need_write(const Write& w, Rule rule, const std::string& what, std::vector<HazardHit>& hits) const {
    const unsigned needed = wait_states(rule, gfx94x_);
    if (w.clock == 0 || clock_ - w.clock >= needed) return;
    hits.push_back(HazardHit{rule, w.inst, what + " " + shortfall(clock_ - w.clock, needed)});
}

void HazardTracker::report_need(unsigned s, Rule rule, const char* reader, std::vector<HazardHit>& hits) const {
    const std::string reg = range_name(RegRange{static_cast<std::uint16_t>(s), 1});
    need_write(valu_[s], rule, std::string(reader) + " reads " + reg + ", written by a VALU instruction", hits);
}

void HazardTracker::check(const InstFacts& f, const ExecInst& e, std::vector<HazardHit>& hits) const {
    const RegRange* reads = f.reads.data();
    if (f.dpp) {
        for (unsigned i = 0; i < f.read_count; ++i)
            if (!is_scalar(reads[i])) need(reads[i], Rule::dpp_after_valu_write, "DPP instruction", hits);
        need(exec_range, Rule::dpp_after_exec_write, "DPP instruction (EXEC)", hits);
    }
    if (f.lane_select && f.lane_select_reg.count)
        need(f.lane_select_reg, Rule::lane_select_after_valu, "lane select", hits);
    if (f.vmem)  // EXEC included, as LLVM does (VMEM reads it like its SGPR operands)
        for (unsigned i = 0; i < f.read_count; ++i)
            if (is_scalar(reads[i])) need(reads[i], Rule::vmem_sgpr_after_valu, "VMEM", hits);
    if (f.reads_execz_vccz) {
        need(exec_range, Rule::execz_vccz_after_valu, "EXECZ/VCCZ source", hits);
        need(vcc_range, Rule::execz_vccz_after_valu, "EXECZ/VCCZ source", hits);
    }
    if (f.div_fmas) need(vcc_range, Rule::div_fmas_after_vcc, "v_div_fmas", hits);
    if (f.movrel) need_write(m0_salu_, Rule::movrel_after_m0, "s_movrel reads m0, written by SALU", hits);
    if (f.m0_message) need_write(m0_salu_, Rule::message_after_m0, "the message reads m0, written by SALU", hits);
    if (f.getreg || f.setreg)
        need_write(setreg_[f.hwreg], Rule::getreg_after_setreg,
                   "hardware register " + std::to_string(f.hwreg) + " written by s_setreg", hits);
    if (f.valu && store_data_.count)
        for (unsigned i = 0; i < f.write_count; ++i)
            if (f.writes[i].overlaps(store_data_))
                need_write(store_, Rule::store_data_overwrite,
                           "overwrites " + range_name(store_data_) + ", the data of a >64-bit store", hits);
    if (gfx94x_ && f.valu) check_gfx94x(f, e, hits);
    if (f.mfma) check_mfma(f, hits);
    if (mfma_ && f.mfma_passes) check_mfma_reader(f, hits);
    if (mfma_ && !f.mfma && (f.valu || f.vmem || f.ds)) check_mfma_consumer(f, hits);
}

const HazardTracker::MfmaEvent& HazardTracker::latest(const std::vector<MfmaEvent>& events,
                                                      const RegRange& range) const {
    static const MfmaEvent none{};
    const MfmaEvent* best = &none;
    for (unsigned s = range.slot; s < unsigned(range.slot) + range.count && s < slot_sreg; ++s)
        if (events[s].clock > best->clock) best = &events[s];
    return *best;
}

void HazardTracker::need_mfma(const MfmaEvent& event, Rule rule, MfmaColumn column, unsigned passes,
                              const std::string& what, std::vector<HazardHit>& hits) const {
    const unsigned needed = mfma_wait_states(rule, column, passes);
    if (event.clock == 0 || clock_ - event.clock >= needed) return;
    hits.push_back(HazardHit{rule, event.inst, what + " " + shortfall(clock_ - event.clock, needed)});
}

// An MFMA (not f64) reading what an earlier MFMA or v_accvgpr_write wrote
// (LLVM's checkMAIHazards908 / checkMAIHazards90A). As there, only the
// latest MFMA writing an operand's registers counts.
void HazardTracker::check_mfma_reader(const InstFacts& f, std::vector<HazardHit>& hits) const {
    if (f.mfma_c.count && f.mfma_c.slot < slot_sreg) {
        const MfmaEvent& w = latest(mfma_d_, f.mfma_c);
        const bool identical = w.range.slot == f.mfma_c.slot && w.range.count == f.mfma_c.count;
        const std::string what = "MFMA reads " + range_name(f.mfma_c) + " as C, written by the MFMA";
        if (identical) need_mfma(w, Rule::mfma_srcc_after_2pass, w.column, w.passes, what, hits);
        else if (!(w.column == MfmaColumn::gfx94x && f.mfma_column == MfmaColumn::gfx94x_xdl))
            need_mfma(w, Rule::mfma_srcc_overlap, w.column, w.passes, what, hits);
        if (column_ == MfmaColumn::gfx908)
            need_mfma(latest(acc_write_, f.mfma_c), Rule::mfma_srcc_after_accvgpr_write, column_, f.mfma_passes,
                      "MFMA reads " + range_name(f.mfma_c) + " as C, written by v_accvgpr_write", hits);
    }
    for (const RegRange* ab : {&f.mfma_a, &f.mfma_b}) {
        if (!ab->count || ab->slot >= slot_sreg) continue;
        const MfmaEvent& w = latest(mfma_d_, *ab);
        need_mfma(w, Rule::mfma_srcab_after_mfma, w.column, w.passes,
                  "MFMA reads " + range_name(*ab) + " as A/B, written by the MFMA", hits);
        if (column_ == MfmaColumn::gfx908)
            need_mfma(latest(acc_write_, *ab), Rule::mfma_srcab_after_accvgpr_write, column_, f.mfma_passes,
                      "MFMA reads " + range_name(*ab) + " as A/B, written by v_accvgpr_write", hits);
    }
}

// A VALU (not MFMA), VMEM or DS instruction after an MFMA (LLVM's
// checkMAIVALUHazards on gfx90a+, checkMAIHazards908's v_accvgpr_* rules
// and checkMAILdStHazards on gfx908).
void HazardTracker::check_mfma_consumer(const InstFacts& f, std::vector<HazardHit>& hits) const {
    if (column_ != MfmaColumn::gfx908) {
        for (unsigned i = 0; i < f.read_count; ++i) {
            if (f.reads[i].slot >= slot_sreg) continue;
            const MfmaEvent& w = latest(mfma_d_, f.reads[i]);
            need_mfma(w, Rule::valu_read_after_mfma, w.column, w.passes,
                      "reads " + range_name(f.reads[i]) + ", written by the MFMA", hits);
        }
        if (!f.valu) return;
        for (unsigned i = 0; i < f.write_count; ++i) {
            if (f.writes[i].slot >= slot_sreg) continue;
            const MfmaEvent& w = latest(mfma_d_, f.writes[i]);
            need_mfma(w, Rule::valu_write_after_mfma, w.column, w.passes,
                      "writes " + range_name(f.writes[i]) + ", written by the MFMA", hits);
            const MfmaEvent& c = latest(mfma_c_, f.writes[i]);
            need_mfma(c, Rule::valu_write_after_mfma_srcc, c.column, c.passes,
                      "writes " + range_name(f.writes[i]) + ", read as C by the MFMA", hits);
        }
        return;
    }
    if (f.accvgpr_read && f.read_count) {
        const RegRange& a = f.reads[0];
        const MfmaEvent& w = latest(mfma_d_, a);
        need_mfma(w, Rule::accvgpr_read_after_mfma, w.column, w.passes,
                  "v_accvgpr_read reads " + range_name(a) + ", written by the MFMA", hits);
        need_mfma(latest(acc_write_, a), Rule::accvgpr_read_after_accvgpr_write, column_, 2,
                  "v_accvgpr_read reads " + range_name(a) + ", written by v_accvgpr_write", hits);
    }
    if (f.accvgpr_write && f.write_count) {
        const RegRange& a = f.writes[0];
        const MfmaEvent& w = latest(mfma_d_, a);
        need_mfma(w, Rule::accvgpr_write_after_mfma, w.column, w.passes,
                  "v_accvgpr_write writes " + range_name(a) + ", written by the MFMA", hits);
        const MfmaEvent& c = latest(mfma_c_, a);
        need_mfma(c, Rule::accvgpr_write_after_mfma_srcc, c.column, c.passes,
                  "v_accvgpr_write writes " + range_name(a) + ", read as C by the MFMA", hits);
    }
    if (f.vmem || f.ds)
        for (unsigned i = 0; i < f.read_count; ++i) {
            if (f.reads[i].slot >= slot_agpr) continue;
            need_mfma(latest(acc_read_, f.reads[i]), Rule::memory_after_accvgpr_read, column_, 2,
                      "reads " + range_name(f.reads[i]) + ", written by v_accvgpr_read", hits);
        }
}

// An MFMA's ArchVGPR sources after a VALU write (an earlier MFMA's result and
// v_accvgpr_write's AGPRs have other wait states: not checked), and EXEC.
void HazardTracker::check_mfma(const InstFacts& f, std::vector<HazardHit>& hits) const {
    for (unsigned i = 0; i < f.read_count; ++i) {
        const RegRange& r = f.reads[i];
        if (is_scalar(r) || r.slot >= slot_agpr) continue;
        for (unsigned s = r.slot; s < unsigned(r.slot) + r.count && s < slot_count; ++s)
            if (!valu_[s].mfma && valu_[s].clock != 0 &&
                clock_ - valu_[s].clock < wait_states(Rule::mfma_after_valu_write, gfx94x_)) {
                need_write(valu_[s], Rule::mfma_after_valu_write,
                           "MFMA reads " + range_name(RegRange{static_cast<std::uint16_t>(s), 1}) +
                               ", written by a VALU instruction",
                           hits);
                break;
            }
    }
    need(exec_range, Rule::mfma_after_exec_write, "MFMA (EXEC)", hits);
}

void HazardTracker::check_gfx94x(const InstFacts& f, const ExecInst& e, std::vector<HazardHit>& hits) const {
    for (unsigned i = 0; i < f.read_count; ++i) {
        const RegRange& r = f.reads[i];
        if (is_scalar(r) && !is_exec(r)) need(r, Rule::valu_sgpr_after_valu, "VALU", hits);
        if (!f.trans && !is_scalar(r))
            for (unsigned s = r.slot; s < unsigned(r.slot) + r.count; ++s)
                if (valu_[s].trans) {
                    need_write(valu_[s], Rule::trans_forwarding,
                               "reads " + range_name(RegRange{static_cast<std::uint16_t>(s), 1}) +
                                   ", written by a transcendental instruction",
                               hits);
                    break;
                }
    }
    if (f.reads_lane_vgpr && e.src[0].kind == Src::Kind::vgpr)
        need(RegRange{e.src[0].index, 1}, Rule::readlane_after_valu, "v_readlane/v_readfirstlane", hits);
    if (f.rwlane) need(exec_range, Rule::rwlane_after_exec, "v_readlane/v_writelane (EXEC)", hits);
}

void HazardTracker::issue(const InstFacts& f, std::uint32_t index) {
    const Write now{clock_ + 1, index, f.trans, f.mfma};
    if (f.valu)
        for (unsigned i = 0; i < f.write_count; ++i)
            for (unsigned s = f.writes[i].slot; s < unsigned(f.writes[i].slot) + f.writes[i].count && s < slot_count;
                 ++s)
                valu_[s] = now;
    if (f.salu)
        for (unsigned i = 0; i < f.write_count; ++i)
            if (f.writes[i].contains(slot_m0)) m0_salu_ = now;
    if (f.setreg) setreg_[f.hwreg] = now;
    if (mfma_) {
        auto record = [&](std::vector<MfmaEvent>& events, const RegRange& r, const MfmaEvent& event) {
            for (unsigned s = r.slot; s < unsigned(r.slot) + r.count && s < slot_sreg; ++s) events[s] = event;
        };
        if (f.mfma_passes) {
            record(mfma_d_, f.mfma_d, MfmaEvent{clock_ + 1, index, f.mfma_passes, f.mfma_column, f.mfma_d});
            record(mfma_c_, f.mfma_c, MfmaEvent{clock_ + 1, index, f.mfma_passes, f.mfma_column, f.mfma_c});
        }
        if ((f.accvgpr_write || f.accvgpr_read) && f.write_count)
            record(f.accvgpr_write ? acc_write_ : acc_read_, f.writes[0],
                   MfmaEvent{clock_ + 1, index, 0, column_, f.writes[0]});
    }
    if (f.store_data.count) {
        store_ = now;
        store_data_ = f.store_data;
    }
    clock_ += f.wait_states;
}

}  // namespace dppgemm::emu::check
