#include "emu/loader/target.hpp"

namespace dppgemm::emu {
namespace {

struct TargetInfo {
    Target target;
    const char* name;
    std::uint32_t mach;  // EF_AMDGPU_MACH_AMDGCN_* (LLVM's BinaryFormat/ELF.h)
};

constexpr TargetInfo target_table[] = {
    {Target::gfx900, "gfx900", 0x02c}, {Target::gfx906, "gfx906", 0x02f},
    {Target::gfx908, "gfx908", 0x030}, {Target::gfx90a, "gfx90a", 0x03f},
    {Target::gfx940, "gfx940", 0x040}, {Target::gfx942, "gfx942", 0x04c},
};

const TargetInfo& info(Target target) {
    for (const TargetInfo& row : target_table)
        if (row.target == target) return row;
    return target_table[0];  // unreachable for valid enumerators
}

}  // namespace

const char* target_name(Target target) { return info(target).name; }

std::optional<Target> target_from_name(std::string_view name) {
    for (const TargetInfo& row : target_table)
        if (name == row.name) return row.target;
    return std::nullopt;
}

std::optional<Target> target_from_mach(std::uint32_t mach) {
    for (const TargetInfo& row : target_table)
        if (mach == row.mach) return row.target;
    return std::nullopt;
}

std::uint32_t mach_of(Target target) { return info(target).mach; }

bool has_unified_vgpr_file(Target target) {
    return target == Target::gfx90a || target == Target::gfx940 || target == Target::gfx942;
}

bool has_packed_workitem_ids(Target target) { return has_unified_vgpr_file(target); }

bool has_architected_flat_scratch(Target target) {
    return target == Target::gfx940 || target == Target::gfx942;
}

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
