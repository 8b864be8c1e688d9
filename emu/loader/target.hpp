#pragma once
// The gfx9 processors dppgemm supports, as named in an AMDGPU ELF header.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dppgemm::emu {

enum class Target : std::uint8_t { gfx900, gfx906, gfx908, gfx90a, gfx940, gfx942 };

inline constexpr Target all_targets[] = {Target::gfx900, Target::gfx906, Target::gfx908,
                                         Target::gfx90a, Target::gfx940, Target::gfx942};

// "gfx906" etc.
const char* target_name(Target target);
std::optional<Target> target_from_name(std::string_view name);

// EF_AMDGPU_MACH value (low 8 bits of e_flags) <-> Target.
std::optional<Target> target_from_mach(std::uint32_t mach);
std::uint32_t mach_of(Target target);

// gfx90a and later: AGPRs share one register file with the VGPRs (split at
// accum_offset), workitem ids arrive packed in v0, SGPR/VGPR granules differ.
bool has_unified_vgpr_file(Target target);
bool has_packed_workitem_ids(Target target);
// gfx940/gfx942 use architected flat scratch: no private segment buffer.
bool has_architected_flat_scratch(Target target);

// How the LDS splits one ds instruction of a wave into passes. A pass moves
// up to 32 dwords (32 banks x 4 bytes) in one clock when its lanes hit no bank
// twice at different addresses; pass p serves the lanes
// lane_order[p * lanes_per_pass .. (p + 1) * lanes_per_pass - 1].
struct LdsLaneGrouping {
    unsigned lanes_per_pass = 64;
    std::array<std::uint8_t, 64> lane_order{};
};

// A target's groupings by direction and by the dwords each lane moves:
// index 0 = 1 dword (b32 and narrower), 1 = 2 dwords (b64, read2/write2_b32),
// 2 = 3 or 4 dwords (b96, b128, read2/write2_b64). Where each table comes
// from, measured or assumed: target.cpp and docs/performance-model.md.
struct LdsBankModel {
    const LdsLaneGrouping* read[3];
    const LdsLaneGrouping* write[3];

    const LdsLaneGrouping& passes(bool write_access, unsigned dwords_per_lane) const {
        const unsigned width = dwords_per_lane <= 1 ? 0 : dwords_per_lane == 2 ? 1 : 2;
        return write_access ? *write[width] : *read[width];
    }
};
const LdsBankModel& lds_bank_model(Target target);

// Code object v4/v5 target features, as encoded in e_flags bits 8..11.
enum class FeatureSetting : std::uint8_t { unsupported, any, off, on };
const char* feature_setting_name(FeatureSetting setting);

// A target plus its xnack/sramecc settings, printed like LLVM's target id:
// "gfx90a:sramecc+:xnack-" (a feature set to "any" or "unsupported" is omitted).
struct TargetId {
    Target processor = Target::gfx900;
    FeatureSetting xnack = FeatureSetting::unsupported;
    FeatureSetting sramecc = FeatureSetting::unsupported;

    std::string str() const;
    bool operator==(const TargetId& other) const {
        return processor == other.processor && xnack == other.xnack && sramecc == other.sramecc;
    }
};

}  // namespace dppgemm::emu
