// The assembled code objects, read back with llvm-objdump / llvm-readelf: the
// steady-state loop does what docs/kernels.md says, for every variant, layout
// and target, and the metadata matches include/dppgemm/kernargs.h.
#include <catch2/catch.hpp>

#include "dppgemm/kernargs.h"
#include "test_toolchain.hpp"

#include <cstddef>
#include <filesystem>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

namespace {

std::vector<std::string> split(const std::string& text, char sep) {
    std::vector<std::string> parts;
    std::stringstream stream(text);
    for (std::string part; std::getline(stream, part, sep);) parts.push_back(part);
    return parts;
}

// The target's row of include/dppgemm/targets.def: whether it has a feature
// (a word of the row's feature list).
bool target_has(const std::string& target, const std::string& feature) {
    std::string features;
#define DPPGEMM_TARGET(name, mach, llvm, kernels, feature_list, lds_banks) \
    if (target == #name) features = feature_list;
#include "dppgemm/targets.def"
    std::istringstream words(features);
    for (std::string word; words >> word;)
        if (word == feature) return true;
    return false;
}

std::string code_object_path(const std::string& target, const std::string& variant, const std::string& layout) {
    return std::string(DPPGEMM_CODE_OBJECT_DIR) + "/" + target + "/dppgemm_sgemm_" + variant + "_" + layout + ".co";
}

struct Instruction {
    uint64_t address;
    std::string mnemonic;
    std::string text;
    int64_t branch_target = -1;  // kernel-relative, for branches
};

// llvm-objdump -d: "\tmnemonic operands   // 000000001A2C: BF82FEBF <kernel+0x468>"
std::vector<Instruction> parse_disassembly(const std::string& text) {
    static const std::regex line(R"(^\s+(\S+)(.*?)\s*// ([0-9A-F]+):[^<]*(?:<[^+>]+\+0x([0-9a-f]+)>)?)");
    std::vector<Instruction> code;
    for (const std::string& l : split(text, '\n')) {
        std::smatch m;
        if (!std::regex_search(l, m, line)) continue;
        Instruction inst{std::stoull(m[3], nullptr, 16), m[1], m[1].str() + m[2].str()};
        if (m[4].matched) inst.branch_target = std::stoll(m[4], nullptr, 16);
        code.push_back(inst);
    }
    REQUIRE(!code.empty());
    return code;
}

struct LoopCounts {
    int macs = 0, dpp_macs = 0, packed_fmas = 0, other_valu = 0, lds_reads = 0, barriers = 0, branches_back = 0;
    int mfmas = 0, mfma_lane_fmas = 0;        // matrix-core instructions, and their FMAs per lane (M N K / 64 each)
    std::map<std::string, int> dpp_controls;  // "quad_perm", "row_ror", ... -> DPP macs and movs using it
};

// The MFMAs the kernels use (LLVM 15 and LLVM 19 spellings) and their FMAs per
// lane: 32 x 32 x 2 / 64.
const std::map<std::string, int> kMfmaLaneFmas = {{"v_mfma_f32_32x32x2f32", 32}, {"v_mfma_f32_32x32x2_f32", 32}};

bool is_mac(const std::string& mnemonic) {
    return mnemonic.rfind("v_mac_f32", 0) == 0 || mnemonic.rfind("v_fmac_f32", 0) == 0;
}

// The steady-state loop: from the target of the only backward s_branch to it.
LoopCounts count_main_loop(const std::vector<Instruction>& code) {
    const uint64_t base = code.front().address;
    LoopCounts counts;
    for (size_t end = 0; end < code.size(); ++end) {
        const Instruction& branch = code[end];
        if (branch.mnemonic != "s_branch" || branch.branch_target < 0 ||
            base + uint64_t(branch.branch_target) > branch.address)
            continue;
        ++counts.branches_back;
        for (const Instruction& inst : code) {
            if (inst.address < base + uint64_t(branch.branch_target) || inst.address > branch.address) continue;
            if (is_mac(inst.mnemonic)) {
                ++counts.macs;
                if (inst.mnemonic.find("_dpp") != std::string::npos) ++counts.dpp_macs;
            } else if (inst.mnemonic == "v_pk_fma_f32") {
                ++counts.packed_fmas;
            } else if (inst.mnemonic.rfind("v_mfma_", 0) == 0) {
                ++counts.mfmas;
                const auto fmas = kMfmaLaneFmas.find(inst.mnemonic);
                counts.mfma_lane_fmas += fmas == kMfmaLaneFmas.end() ? 0 : fmas->second;
            } else if (inst.mnemonic.rfind("v_", 0) == 0) {
                ++counts.other_valu;
            }
            static const std::regex control(R"( (quad_perm|row_ror|row_newbcast|row_shl|row_shr):)");
            std::smatch m;
            if (std::regex_search(inst.text, m, control)) ++counts.dpp_controls[m[1]];
            if (inst.mnemonic.rfind("ds_read", 0) == 0) ++counts.lds_reads;
            if (inst.mnemonic == "s_barrier") ++counts.barriers;
        }
    }
    return counts;
}

// The first kernel's entries from `llvm-readelf --notes` (YAML-like text).
struct Metadata {
    std::map<std::string, std::string> kernel;
    std::vector<std::map<std::string, std::string>> args;
};

Metadata parse_metadata(const std::string& text) {
    static const std::regex entry(R"(^(\s*)(- )?(\.[a-z_]+):\s*(\S*)\s*$)");
    Metadata meta;
    bool in_args = false;
    size_t args_indent = 0;
    for (const std::string& l : split(text, '\n')) {
        std::smatch m;
        if (!std::regex_match(l, m, entry)) continue;
        const size_t indent = m[1].length();
        if (m[3] == ".args") {
            in_args = true;
            args_indent = indent;
            continue;
        }
        if (in_args && indent > args_indent) {
            if (m[2].matched) meta.args.emplace_back();
            REQUIRE(!meta.args.empty());
            meta.args.back()[m[3]] = m[4];
        } else {
            in_args = false;
            meta.kernel[m[3]] = m[4];
        }
    }
    return meta;
}

// The rows of include/dppgemm/variants.def; a wave issues a 256th of the
// workgroup's lane requests per step, each ds_read (b128; the 2x2 micro
// tile's b64; the MFMA row's b32) serving its 64 lanes.
const std::vector<std::string> kVariants = {
#define DPPGEMM_VARIANT(name, template_file, defines, features, macro_tile, micro_tile, requests, extra_valu, idea) \
#name,
#include "dppgemm/variants.def"
#undef DPPGEMM_VARIANT
};
const std::vector<std::string> kLayouts = {"NN", "NT", "TN", "TT"};
const std::map<std::string, int> kLdsReadsPerStep = {
#define DPPGEMM_VARIANT(name, template_file, defines, features, macro_tile, micro_tile, requests, extra_valu, idea) \
    {#name, (requests) / 256},
#include "dppgemm/variants.def"
#undef DPPGEMM_VARIANT
};
// A wave's share of the row's extra VALU per step (the table counts 4 waves).
const std::map<std::string, int> kExtraValuPerWaveStep = {
#define DPPGEMM_VARIANT(name, template_file, defines, features, macro_tile, micro_tile, requests, extra_valu, idea) \
    {#name, (extra_valu) / 4},
#include "dppgemm/variants.def"
#undef DPPGEMM_VARIANT
};

// Each row's macro and micro tile.
const std::map<std::string, std::pair<int, int>> kTiles = {
#define DPPGEMM_VARIANT(name, template_file, defines, features, macro_tile, micro_tile, requests, extra_valu, idea) \
    {#name, {macro_tile, micro_tile}},
#include "dppgemm/variants.def"
#undef DPPGEMM_VARIANT
};

// Each row's template parameters, and whether it sets one ("PACKED=1").
const std::map<std::string, std::string> kDefines = {
#define DPPGEMM_VARIANT(name, template_file, defines, features, macro_tile, micro_tile, requests, extra_valu, idea) \
    {#name, defines},
#include "dppgemm/variants.def"
#undef DPPGEMM_VARIANT
};
bool sets(const std::string& variant, const std::string& assignment) {
    return (" " + kDefines.at(variant) + " ").find(" " + assignment + " ") != std::string::npos;
}

// Rows that need target features are not built for every target.
bool built(const std::string& target, const std::string& variant) {
    return std::filesystem::exists(code_object_path(target, variant, "NN"));
}

// Every built kernel of `target` and what an LLVM tool prints for it, the
// tool run once on all of them: `tool` picks llvm-objdump or llvm-readelf
// of the target's LLVM, `options` its options.
struct ToolOutput {
    std::string variant, layout, text;
};
std::vector<ToolOutput> tool_output(const std::string& target, std::string dppgemm::test_support::LlvmTools::*tool,
                                    const std::string& options) {
    namespace support = dppgemm::test_support;
    std::vector<ToolOutput> outputs;
    std::vector<std::string> paths;
    for (const std::string& variant : kVariants)
        for (const std::string& layout : kLayouts)
            if (built(target, variant)) {
                outputs.push_back({variant, layout, {}});
                paths.push_back(code_object_path(target, variant, layout));
            }
    const bool objdump = tool == &support::LlvmTools::objdump;
    const std::vector<std::string> texts =
        support::run_on_files(support::llvm_for(target).*tool + " " + options, paths,
                              objdump ? support::objdump_header : support::readelf_header);
    for (size_t i = 0; i < outputs.size(); ++i) outputs[i].text = texts[i];
    return outputs;
}
// What a kernel's loop and LDS are follows from its tile and its sharing
// parameters: the row's template parameters without the multiply-add kind
// (FMAC, FP32_DENORMALS), so a `_denorm` twin or any row reusing parameters
// needs no entry here.
std::string sharing_of(const std::string& variant) {
    std::istringstream in(kDefines.at(variant));
    std::string out;
    for (std::string p; in >> p;)
        if (p != "FMAC=1" && p != "FP32_DENORMALS=1") out += (out.empty() ? "" : " ") + p;
    return std::to_string(kTiles.at(variant).second) + "x " + out;
}
// The DPP control every mac (and the A movs: dpp3's 4 per k, dpp3half's 4 per odd k) uses, per step.
const std::map<std::string, std::map<std::string, int>> kDppControlsPerStep = {
    {"8x ", {}},
    {"8x B_QUAD_SHARED=1", {{"quad_perm", 512}}},
    {"8x B_QUAD_SHARED=1 B_TWO_K=1", {{"quad_perm", 512}}},
    {"8x B_QUAD_SHARED=1 B_TWO_K=1 A_ROW_SHARED=1", {{"quad_perm", 512}, {"row_ror", 32}}},
    {"8x B_QUAD_SHARED=1 B_TWO_K=1 A_ROW_SHARED=1 A_HALF_SHARED=1", {{"quad_perm", 512}, {"row_ror", 16}}},
    {"8x B_ROW_BROADCAST=1", {{"row_newbcast", 512}}},
    {"8x PACKED=1", {}},
    {"8x MFMA=1", {}},
    {"4x ", {}},
    {"4x B_QUAD_SHARED=1", {{"quad_perm", 128}}},
    {"4x B_QUAD_SHARED=1 B_TWO_K=1", {{"quad_perm", 128}}},
    {"2x ", {}}};
// Two stages of an A tile (8 rows of 128 + 4 floats) and a B tile (8 rows of
// 132, 144 or 136 floats); 64x64: 8 rows of 64 + 4 and of 72 floats; 32x32:
// 8 rows of 32 + 4 each (docs/kernels.md, "LDS layout", "The 64x64 family",
// "The 32x32 family").
const std::map<std::string, unsigned> kLdsBytes = {
    {"8x ", 2 * 8 * (132 + 132) * 4},
    {"8x B_QUAD_SHARED=1", 2 * 8 * (132 + 132) * 4},
    {"8x B_QUAD_SHARED=1 B_TWO_K=1", 2 * 8 * (132 + 144) * 4},
    {"8x B_QUAD_SHARED=1 B_TWO_K=1 A_ROW_SHARED=1", 2 * 8 * (132 + 144) * 4},
    {"8x B_QUAD_SHARED=1 B_TWO_K=1 A_ROW_SHARED=1 A_HALF_SHARED=1", 2 * 8 * (132 + 144) * 4},
    {"8x B_ROW_BROADCAST=1", 2 * 8 * (132 + 136) * 4},
    {"8x PACKED=1", 2 * 8 * (132 + 132) * 4},
    {"8x MFMA=1", 2 * 8 * (132 + 132) * 4},
    {"4x ", 2 * 8 * (68 + 72) * 4},
    {"4x B_QUAD_SHARED=1", 2 * 8 * (68 + 72) * 4},
    {"4x B_QUAD_SHARED=1 B_TWO_K=1", 2 * 8 * (68 + 72) * 4},
    {"2x ", 2 * 8 * (36 + 36) * 4}};

}  // namespace

TEST_CASE("every variant, layout and target has the documented steady-state loop") {
    for (const std::string& target : split(DPPGEMM_KERNEL_TARGETS_CSV, ','))
        for (const auto& [variant, layout, listing] :
             tool_output(target, &dppgemm::test_support::LlvmTools::objdump, "-d --mcpu=" + target)) {
            CAPTURE(target, variant, layout);
            const auto code = parse_disassembly(listing);
            const LoopCounts loop = count_main_loop(code);
            CHECK(loop.branches_back == 1);
            // 8 k x micro tile multiply-adds: one wave's share of a workgroup step
            // (128x128x8: 512); with PACKED=1 all of them as v_pk_fma_f32 (two each),
            // without DPP; with MFMA=1 all of them in 32x32x2 MFMAs (32 per lane each).
            const auto [macro_tile, micro_tile] = kTiles.at(variant);
            const int macs = 8 * micro_tile * micro_tile;
            const bool packed = sets(variant, "PACKED=1"), mfma = sets(variant, "MFMA=1");
            CHECK(loop.macs + 2 * loop.packed_fmas + loop.mfma_lane_fmas == macs);
            CHECK(loop.packed_fmas == (packed ? macs / 2 : 0));
            CHECK(loop.mfmas == (mfma ? macs / 32 : 0));
            CHECK(loop.lds_reads == kLdsReadsPerStep.at(variant));
            CHECK(loop.dpp_macs == (kDppControlsPerStep.at(sharing_of(variant)).empty() ? 0 : macs));
            CHECK(loop.dpp_controls == kDppControlsPerStep.at(sharing_of(variant)));
            // The plain loop besides its macs: 4 LDS address swaps and, per operand
            // contiguous in k (A of T*, B of *N), 1 v_cmp + 1 v_cndmask per global
            // load (macro tile x 8 / 256 of them: 4 at 128, 2 at 64, 1 at 32). A row has the
            // table's extra VALU on top (dpp3: 32 A movs; dpp3half: 16 movs and a
            // fifth address swap; packed: 256 fewer multiply-add instructions;
            // mfma: none of the 512, its MFMAs are not VALU).
            const int k_contiguous = (layout[0] == 'T') + (layout[1] == 'N');
            const int loads = macro_tile * 8 / 256;
            CHECK(loop.macs + loop.packed_fmas + loop.other_valu ==
                  macs + 4 + (1 + loads) * k_contiguous + kExtraValuPerWaveStep.at(variant));
            CHECK(loop.barriers == 1);

            int mac = 0, fmac = 0;
            for (const Instruction& inst : code) {
                mac += inst.mnemonic.rfind("v_mac_f32", 0) == 0;
                fmac += inst.mnemonic.rfind("v_fmac_f32", 0) == 0;
            }
            // Fused without v_mac_f32 (gfx942) and wherever the row sets FMAC=1 (packed:
            // the epilogue's blend is v_fmac_f32, fused like v_pk_fma_f32).
            // (the loop's macs and the epilogue's blend of the micro tile)
            if (!target_has(target, "mac_f32") || sets(variant, "FMAC=1")) {
                CHECK(mac == 0);
                CHECK(fmac >= micro_tile * micro_tile);
            } else {
                CHECK(fmac == 0);
                CHECK(mac > macs);
            }
        }
}

TEST_CASE("metadata matches the kernarg struct and the launch contract") {
    const std::vector<std::tuple<std::string, size_t, size_t, std::string>> expected = {
        {"a", offsetof(dppgemm_sgemm_kernargs, a), 8, "global_buffer"},
        {"b", offsetof(dppgemm_sgemm_kernargs, b), 8, "global_buffer"},
        {"c", offsetof(dppgemm_sgemm_kernargs, c), 8, "global_buffer"},
        {"size_m", offsetof(dppgemm_sgemm_kernargs, size_m), 4, "by_value"},
        {"size_n", offsetof(dppgemm_sgemm_kernargs, size_n), 4, "by_value"},
        {"size_k", offsetof(dppgemm_sgemm_kernargs, size_k), 4, "by_value"},
        {"lda", offsetof(dppgemm_sgemm_kernargs, lda), 4, "by_value"},
        {"ldb", offsetof(dppgemm_sgemm_kernargs, ldb), 4, "by_value"},
        {"ldc", offsetof(dppgemm_sgemm_kernargs, ldc), 4, "by_value"},
        {"alpha", offsetof(dppgemm_sgemm_kernargs, alpha), 4, "by_value"},
        {"beta", offsetof(dppgemm_sgemm_kernargs, beta), 4, "by_value"},
    };
    for (const std::string& target : split(DPPGEMM_KERNEL_TARGETS_CSV, ','))
        for (const auto& [variant, layout, notes] :
             tool_output(target, &dppgemm::test_support::LlvmTools::readelf, "--notes")) {
            CAPTURE(target, variant, layout);
            const Metadata meta = parse_metadata(notes);
            CHECK(meta.kernel.at(".name") == "dppgemm_sgemm_" + variant + "_" + layout);
            CHECK(meta.kernel.at(".symbol") == "dppgemm_sgemm_" + variant + "_" + layout + ".kd");
            CHECK(std::stoul(meta.kernel.at(".kernarg_segment_size")) == sizeof(dppgemm_sgemm_kernargs));
            CHECK(meta.kernel.at(".max_flat_workgroup_size") == "256");
            CHECK(meta.kernel.at(".wavefront_size") == "64");
            const unsigned lds = std::stoul(meta.kernel.at(".group_segment_fixed_size"));
            CHECK(lds == kLdsBytes.at(sharing_of(variant)));
            CHECK(lds <= 65536);
            CHECK(std::stoul(meta.kernel.at(".vgpr_count")) <= 128);  // 2 waves per SIMD
            // The MFMA row accumulates in 64 AGPRs where C/D must be AGPRs (gfx908,
            // no unified VGPR file), in VGPRs elsewhere; the other rows use none.
            const bool agpr_accumulators = sets(variant, "MFMA=1") && !target_has(target, "unified_vgpr_file");
            CHECK(std::stoul(meta.kernel.at(".agpr_count")) == (agpr_accumulators ? 64u : 0u));
            REQUIRE(meta.args.size() == expected.size());
            for (size_t i = 0; i < expected.size(); ++i) {
                const auto& [name, offset, size, kind] = expected[i];
                CAPTURE(name);
                CHECK(meta.args[i].at(".name") == name);
                CHECK(std::stoul(meta.args[i].at(".offset")) == offset);
                CHECK(std::stoul(meta.args[i].at(".size")) == size);
                CHECK(meta.args[i].at(".value_kind") == kind);
            }
        }
}
