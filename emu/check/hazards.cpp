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

void HazardTracker::reset(bool gfx94x) {
    clock_ = 0;
    gfx94x_ = gfx94x;
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
    if (f.store_data.count) {
        store_ = now;
        store_data_ = f.store_data;
    }
    clock_ += f.wait_states;
}

}  // namespace dppgemm::emu::check
