#pragma once
// The gfx9 processors dppgemm supports: the rows of include/dppgemm/targets.def
// (names, ELF mach, LLVM version, features, LDS passes, board figures) as C++.

#include <array>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>

namespace dppgemm::emu {

// One enumerator per row of include/dppgemm/targets.def, in its order.
enum class Target : std::uint8_t {
#define DPPGEMM_TARGET(name, mach, llvm, kernels, features, lds_banks) name,
#include "include/dppgemm/targets.def"
};

inline constexpr Target all_targets[] = {
#define DPPGEMM_TARGET(name, mach, llvm, kernels, features, lds_banks) Target::name,
#include "include/dppgemm/targets.def"
};

// The GPU the emulator plays when none is named.
#define DPPGEMM_DEFAULT_TARGET(name) inline constexpr Target default_target = Target::name;
#include "include/dppgemm/targets.def"

// What a target has (DPPGEMM_FEATURE rows of targets.def, with their meaning).
// Every target decision asks has(target, Feature::...), never which target it is.
enum class Feature : std::uint8_t {
#define DPPGEMM_FEATURE(name, meaning) name,
#include "include/dppgemm/targets.def"
};

namespace detail {

inline constexpr std::string_view feature_names[] = {
#define DPPGEMM_FEATURE(name, meaning) #name,
#include "include/dppgemm/targets.def"
};

// Reached only while parsing a row's feature list at compile time: the row
// names a feature no DPPGEMM_FEATURE row declares, and the build stops here.
inline std::uint32_t unknown_feature_in_targets_def() { return 0; }

constexpr std::uint32_t parse_features(std::string_view list) {
    std::uint32_t bits = 0;
    while (!list.empty()) {
        const std::size_t space = list.find(' ');
        const std::string_view word = list.substr(0, space);
        list = space == std::string_view::npos ? std::string_view() : list.substr(space + 1);
        if (word.empty()) continue;
        std::size_t i = 0;
        while (i < std::size(feature_names) && feature_names[i] != word) ++i;
        bits |= i < std::size(feature_names) ? 1u << i : unknown_feature_in_targets_def();
    }
    return bits;
}

struct TargetRow {
    const char* name;
    std::uint32_t mach;
    int llvm;
    bool kernels;
    std::uint32_t features;
};

inline constexpr TargetRow target_rows[] = {
#define DPPGEMM_TARGET(name, mach, llvm, kernels, features, lds_banks) \
    {#name, mach, llvm, kernels != 0, parse_features(features)},
#include "include/dppgemm/targets.def"
};
static_assert(std::size(feature_names) <= 32, "features are bits of a std::uint32_t");

constexpr const TargetRow& row(Target target) { return target_rows[static_cast<std::size_t>(target)]; }

}  // namespace detail

constexpr bool has(Target target, Feature feature) {
    return (detail::row(target).features >> static_cast<unsigned>(feature)) & 1;
}
const char* feature_name(Feature feature);

// "gfx906" etc.
constexpr const char* target_name(Target target) { return detail::row(target).name; }
std::optional<Target> target_from_name(std::string_view name);
// The table's targets, "gfx900, gfx906, ..." (for messages listing them).
std::string target_names(bool with_kernels_only = false);

// EF_AMDGPU_MACH value (low 8 bits of e_flags) <-> Target.
std::optional<Target> target_from_mach(std::uint32_t mach);
std::uint32_t mach_of(Target target);

// The LLVM major version that assembles the target's code and whose
// llvm-objdump is the disassembler's oracle (15 or 19).
constexpr int llvm_version(Target target) { return detail::row(target).llvm; }
// Whether the build assembles dppgemm's kernels for the target.
constexpr bool has_kernels(Target target) { return detail::row(target).kernels; }

// The largest s_waitcnt vmcnt, which waits for nothing: 6 bits on gfx9, 4 on
// GCN3 (LLVM's AMDGPUBaseInfo getVmcntBitMask).
constexpr unsigned vmcnt_limit(Target target) { return has(target, Feature::gfx9_insts) ? 63 : 15; }

// Shorthands for the features the loader asks most.
constexpr bool has_unified_vgpr_file(Target target) { return has(target, Feature::unified_vgpr_file); }
constexpr bool has_packed_workitem_ids(Target target) { return has(target, Feature::packed_workitem_ids); }
constexpr bool has_architected_flat_scratch(Target target) { return has(target, Feature::architected_flat_scratch); }

// One real board with the target (DPPGEMM_BOARD rows): what hipemu reports
// and the performance model computes with.
struct Board {
    const char* device_name;  // as ROCm reports it ("AMD Instinct MI50")
    const char* model_label;  // the bench's name ("Instinct MI50")
    int gcn_arch;
    int compute_units;
    int clock_mhz;
    int memory_clock_mhz;
    int memory_bus_bits;
    int memory_gb_per_s;
    int l2_mib;
    int memory_gib;
    int waves_per_simd;
    int vgprs_per_simd_lane;
    int lds_kib;
};

namespace detail {
inline constexpr Board boards[] = {
#define DPPGEMM_BOARD(name, device_name, model_label, gcn_arch, compute_units, clock_mhz, memory_clock_mhz,            \
                      memory_bus_bits, memory_gb_per_s, l2_mib, memory_gib, waves_per_simd, vgprs_per_simd_lane,       \
                      lds_kib)                                                                                         \
    {device_name,     model_label, gcn_arch,   compute_units,  clock_mhz,           memory_clock_mhz, memory_bus_bits, \
     memory_gb_per_s, l2_mib,      memory_gib, waves_per_simd, vgprs_per_simd_lane, lds_kib},
#include "include/dppgemm/targets.def"
};
inline constexpr std::string_view board_targets[] = {
#define DPPGEMM_BOARD(name, ...) #name,
#include "include/dppgemm/targets.def"
};
constexpr bool boards_follow_targets() {
    if (std::size(board_targets) != std::size(target_rows)) return false;
    for (std::size_t i = 0; i < std::size(target_rows); ++i)
        if (board_targets[i] != target_rows[i].name) return false;
    return true;
}
static_assert(boards_follow_targets(), "targets.def: one DPPGEMM_BOARD row per DPPGEMM_TARGET row, in the same order");
}  // namespace detail

constexpr const Board& board(Target target) { return detail::boards[static_cast<std::size_t>(target)]; }

// The LDS one workgroup may allocate on the target (all of a CU's on gfx9),
// and the most any target allows (for checks made before the target is known).
constexpr std::uint32_t lds_bytes(Target target) { return std::uint32_t(board(target).lds_kib) * 1024; }
constexpr std::uint32_t largest_lds_bytes() {
    std::uint32_t most = 0;
    for (Target target : all_targets) most = lds_bytes(target) > most ? lds_bytes(target) : most;
    return most;
}

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
// Passes of 32 dwords over consecutive lanes, every width and direction (the
// older GCN rule; gfx900..gfx90a's groupings): for callers without a target.
const LdsBankModel& consecutive_lds_bank_model();

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
