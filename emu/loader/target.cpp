#include "emu/loader/target.hpp"

namespace dppgemm::emu {
namespace {

// LDS lane groupings (32 banks of 4 bytes on every gfx9 target; 32 dwords per
// pass). Sources:
//  - b32 and b64 passes of 32 / 16 consecutive lanes, and b128 reads in the
//    swizzled groups below: measured on MI300X (gfx942), nod-ai/amd-shark-ai
//    docs/empirical-lds/cdna3info.md (rocprof bank-conflict counts per lane
//    pair); the same b128 phases are in triton-lang/triton PR #11365 ("For
//    MI300: Phase 0: T0-T3, T20-T23 ...").
//  - b128 writes in passes of 8 consecutive lanes (lanes 0-7, 8-15, ...):
//    ROCm Composable Kernel docs, "Understanding AMD GPU LDS and Bank
//    Conflicts" (ds_write_b128; no target named, used for every gfx9 target).
//  - Everything else is assumed, since no measurement is published: passes of
//    32 dwords over consecutive lanes (32 lanes for b32, 16 for b64, 8 for
//    b96/b128) on gfx900..gfx90a, the older GCN rule that conflicts are
//    checked per half wave (AMD OpenCL optimization guide); on gfx942 the
//    b128 read grouping also for b96 reads and ds_read2_b64 (same 16-byte
//    lane path), consecutive lanes for every write; gfx940 (the same CDNA3
//    compute unit) as gfx942.
constexpr std::array<std::uint8_t, 64> consecutive_lanes() {
    std::array<std::uint8_t, 64> order{};
    for (unsigned l = 0; l < 64; ++l) order[l] = std::uint8_t(l);
    return order;
}

constexpr LdsLaneGrouping passes_of_32_lanes{32, consecutive_lanes()};
constexpr LdsLaneGrouping passes_of_16_lanes{16, consecutive_lanes()};
constexpr LdsLaneGrouping passes_of_8_lanes{8, consecutive_lanes()};
// MI300X ds_read_b128: pass p = lanes {a..a+3, b..b+3}.
constexpr LdsLaneGrouping cdna3_read_b128{
    8, {0,  1,  2,  3,  20, 21, 22, 23, 32, 33, 34, 35, 52, 53, 54, 55, 4,  5,  6,  7,  16, 17,
        18, 19, 36, 37, 38, 39, 48, 49, 50, 51, 8,  9,  10, 11, 28, 29, 30, 31, 40, 41, 42, 43,
        60, 61, 62, 63, 12, 13, 14, 15, 24, 25, 26, 27, 44, 45, 46, 47, 56, 57, 58, 59}};

constexpr LdsBankModel consecutive_lds{{&passes_of_32_lanes, &passes_of_16_lanes, &passes_of_8_lanes},
                                       {&passes_of_32_lanes, &passes_of_16_lanes, &passes_of_8_lanes}};
constexpr LdsBankModel cdna3_lds{{&passes_of_32_lanes, &passes_of_16_lanes, &cdna3_read_b128},
                                 {&passes_of_32_lanes, &passes_of_16_lanes, &passes_of_8_lanes}};

// Each row's LDS groupings, by the lds_banks column of targets.def.
constexpr const LdsBankModel* lds_models[] = {
#define DPPGEMM_TARGET(name, mach, llvm, kernels, features, lds_banks) &lds_banks,
#include "include/dppgemm/targets.def"
};

const detail::TargetRow& info(Target target) { return detail::row(target); }

}  // namespace

const char* feature_name(Feature feature) { return detail::feature_names[static_cast<std::size_t>(feature)].data(); }

std::optional<Target> target_from_name(std::string_view name) {
    for (Target target : all_targets)
        if (name == info(target).name) return target;
    return std::nullopt;
}

std::string target_names(bool with_kernels_only) {
    std::string names;
    for (Target target : all_targets)
        if (!with_kernels_only || has_kernels(target))
            names += (names.empty() ? "" : ", ") + std::string(target_name(target));
    return names;
}

std::optional<Target> target_from_mach(std::uint32_t mach) {
    for (Target target : all_targets)
        if (mach == info(target).mach) return target;
    return std::nullopt;
}

std::uint32_t mach_of(Target target) { return info(target).mach; }

const LdsBankModel& lds_bank_model(Target target) { return *lds_models[static_cast<std::size_t>(target)]; }

const LdsBankModel& consecutive_lds_bank_model() { return consecutive_lds; }

const char* feature_setting_name(FeatureSetting setting) {
    switch (setting) {
    case FeatureSetting::unsupported: return "unsupported";
    case FeatureSetting::any: return "any";
    case FeatureSetting::off: return "off";
    case FeatureSetting::on: return "on";
    }
    return "?";
}

std::string TargetId::str() const {
    std::string id = target_name(processor);
    // LLVM orders the features alphabetically: sramecc before xnack.
    auto append = [&id](const char* feature, FeatureSetting setting) {
        if (setting == FeatureSetting::on) id += std::string(":") + feature + "+";
        if (setting == FeatureSetting::off) id += std::string(":") + feature + "-";
    };
    append("sramecc", sramecc);
    append("xnack", xnack);
    return id;
}

}  // namespace dppgemm::emu
