// What the target and variant tables (include/dppgemm/targets.def,
// variants.def) call for, computed from the tables themselves so that tests
// need no count typed again when a row is added.
#pragma once

#include <cstddef>
#include <sstream>
#include <string>

namespace dppgemm_test {

// Whether every space-separated feature of `needed` is one of `has`.
inline bool has_features(const std::string& has, const std::string& needed) {
    std::istringstream words(needed);
    for (std::string feature; words >> feature;)
        if ((" " + has + " ").find(" " + feature + " ") == std::string::npos) return false;
    return true;
}

// Code objects the build makes: per variant row, each kernel target with the
// row's features, 4 layouts each.
inline std::size_t expected_code_objects() {
    struct Target {
        const char* features;
        bool kernels;
    };
    const Target targets[] = {
#define DPPGEMM_TARGET(name, mach, llvm, kernels, features, lds_banks) {features, (kernels) != 0},
#include "dppgemm/targets.def"
    };
    const char* rows[] = {
#define DPPGEMM_VARIANT(name, template_file, defines, features, macro_tile, micro_tile, requests, extra_valu, idea) \
    features,
#include "dppgemm/variants.def"
#undef DPPGEMM_VARIANT
    };
    std::size_t count = 0;
    for (const char* row : rows)
        for (const Target& t : targets) count += t.kernels && has_features(t.features, row) ? 4 : 0;
    return count;
}

// Whether the row `variant` keeps fp32 denormals (sets FP32_DENORMALS=1).
inline bool keeps_denormals(const std::string& variant) {
    struct Row {
        const char* name;
        const char* defines;
    };
    const Row rows[] = {
#define DPPGEMM_VARIANT(name, template_file, defines, features, macro_tile, micro_tile, requests, extra_valu, idea) \
    {#name, defines},
#include "dppgemm/variants.def"
#undef DPPGEMM_VARIANT
    };
    for (const Row& row : rows)
        if (variant == row.name)
            return (std::string(" ") + row.defines + " ").find(" FP32_DENORMALS=1 ") != std::string::npos;
    return false;
}

}  // namespace dppgemm_test
