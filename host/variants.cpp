// The variant table (dppgemm/variants.def) as the host API sees it, and which
// rows the embedded code objects provide per target.
#include "backend.hpp"
#include "dppgemm/reference.hpp"
#include "emu/loader/target.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>

namespace dppgemm {

namespace {

// `assignment` ("FMAC=1") is one of the row's space-separated template parameters.
bool sets_parameter(const char* defines, std::string_view assignment) {
    std::string_view rest(defines);
    while (!rest.empty()) {
        const std::size_t space = rest.find(' ');
        if (rest.substr(0, space) == assignment) return true;
        rest = space == std::string_view::npos ? std::string_view() : rest.substr(space + 1);
    }
    return false;
}

}  // namespace

const std::vector<VariantInfo>& variant_table() {
    static const std::vector<VariantInfo> table = {
#define DPPGEMM_VARIANT(name, template_file, defines, features, macro_tile, micro_tile, requests, extra_valu, idea) \
    {Variant::name, #name,    defines,    features, macro_tile,                                                     \
     micro_tile,    requests, extra_valu, idea,     sets_parameter(defines, "FP32_DENORMALS=1")},
#include "dppgemm/variants.def"
#undef DPPGEMM_VARIANT
    };
    return table;
}

const VariantInfo* variant_info(Variant variant) {
    for (const VariantInfo& row : variant_table())
        if (row.variant == variant) return &row;
    return nullptr;
}

namespace {

bool has_code_object(const std::string& target, const char* variant) {
    for (std::size_t i = 0; const dppgemm_code_object* co = dppgemm_code_object_at(i); ++i)
        if (target == co->target && !std::strcmp(variant, co->variant)) return true;
    return false;
}

// The rows built for each target, in variant-table order. The embedded code
// objects are fixed for the life of the process, and Variant::best asks at
// every call: scanning every code object per row took about a third of the
// host instructions of a 16^3 SGEMM through the BLAS (callgrind).
const std::map<std::string, std::vector<Variant>, std::less<>>& variants_by_target() {
    static const auto by_target = [] {
        std::map<std::string, std::vector<Variant>, std::less<>> out;
        for (std::size_t i = 0; const dppgemm_code_object* co = dppgemm_code_object_at(i); ++i) out[co->target];
        for (auto& [target, variants] : out)
            for (const VariantInfo& row : variant_table())
                if (has_code_object(target, row.name)) variants.push_back(row.variant);
        return out;
    }();
    return by_target;
}

}  // namespace

std::vector<Variant> available_variants(std::string_view target) {
    const auto& by_target = variants_by_target();
    const auto it = by_target.find(detail::base_arch(std::string(target)));
    return it == by_target.end() ? std::vector<Variant>{} : it->second;
}

std::vector<Variant> best_candidates(std::string_view target) {
    const std::vector<Variant> available = available_variants(target);
    bool any_keeps_denormals = false;
    for (Variant v : available) any_keeps_denormals |= variant_info(v)->keeps_denormals;
    std::vector<Variant> out;
    for (Variant v : available)
        if (!any_keeps_denormals || variant_info(v)->keeps_denormals) out.push_back(v);
    return out;
}

std::optional<Variant> best_variant(std::string_view target) {
    const std::vector<Variant> candidates = best_candidates(target);
    unsigned largest_tile = 0;
    for (Variant v : candidates) largest_tile = std::max(largest_tile, variant_info(v)->macro_tile);
    // Extra VALU and requests per step compare rows of one tile only; the
    // largest tile does the least work per FMA outside the macs.
    const VariantInfo* best = nullptr;
    for (Variant v : candidates) {
        const VariantInfo* row = variant_info(v);
        if (row->macro_tile != largest_tile) continue;
        if (!best || row->extra_valu_per_step < best->extra_valu_per_step ||
            (row->extra_valu_per_step == best->extra_valu_per_step &&
             row->lds_read_requests_per_step < best->lds_read_requests_per_step))
            best = row;
    }
    if (!best) return std::nullopt;
    return best->variant;
}

MacKind kernel_mac_kind(Variant variant, std::string_view target) {
    const std::string base = detail::base_arch(std::string(target));
    // The fixed rule's choice multiplies and adds as any row a tuning table
    // may pick: `best`'s candidates keep denormals wherever a row does, and
    // on gfx900, where none does, every row uses v_mac_f32.
    if (variant == Variant::best)
        if (const auto chosen = best_variant(base)) variant = *chosen;
    // The template's FMAC: the row's own, else the target's (cmake/DppgemmKernels.cmake:
    // the kernels keep v_mac_f32 where the target has it). A target outside the
    // table has no kernels; mac_f32 is as good an answer as any there.
    const VariantInfo* row = variant_info(variant);
    if (row && row->keeps_denormals) return MacKind::fmac_f32_denormals;
    if (row && sets_parameter(row->defines, "FMAC=1")) return MacKind::fmac_f32;
    const std::optional<emu::Target> t = emu::target_from_name(base);
    return t && !emu::has(*t, emu::Feature::mac_f32) ? MacKind::fmac_f32 : MacKind::mac_f32;
}

std::string variant_unavailable_reason(Variant variant, std::string_view target) {
    const std::string base = detail::base_arch(std::string(target));
    const VariantInfo* row = variant_info(variant);
    if (!row) return "";  // best: the caller says there is no kernel at all
    if (has_code_object(base, row->name)) return "";
    std::set<std::string> built_for;
    for (std::size_t i = 0; const dppgemm_code_object* co = dppgemm_code_object_at(i); ++i)
        if (!std::strcmp(row->name, co->variant)) built_for.insert(co->target);
    std::string reason = std::string(row->name) + " is not available on " + base + " (";
    if (*row->features) reason += std::string("needs ") + row->features + "; ";
    if (built_for.empty()) return reason + "not built into this library)";
    reason += "built for";
    const char* separator = " ";
    for (const std::string& t : built_for) reason += separator + t, separator = ", ";
    return reason + ")";
}

}  // namespace dppgemm
