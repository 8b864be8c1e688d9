// Lookup over the table that cmake/EmbedCodeObjects.cmake generates.
#include "dppgemm/code_objects.h"

#include <cstring>
#include <string>

extern "C" const dppgemm_code_object dppgemm_embedded_code_objects[];
extern "C" const size_t dppgemm_embedded_code_object_count;

extern "C" size_t dppgemm_code_object_count(void) { return dppgemm_embedded_code_object_count; }

extern "C" const dppgemm_code_object* dppgemm_code_object_at(size_t index) {
    return index < dppgemm_embedded_code_object_count ? &dppgemm_embedded_code_objects[index] : nullptr;
}

extern "C" const dppgemm_code_object* dppgemm_find_code_object(const char* target, const char* variant,
                                                               const char* layout) {
    if (!target || !variant || !layout) return nullptr;
    for (size_t i = 0; i < dppgemm_embedded_code_object_count; ++i) {
        const dppgemm_code_object& co = dppgemm_embedded_code_objects[i];
        if (!std::strcmp(co.target, target) && !std::strcmp(co.variant, variant) && !std::strcmp(co.layout, layout))
            return &co;
    }
    return nullptr;
}

extern "C" const dppgemm_code_object* dppgemm_find_code_object_for_arch(const char* gcn_arch_name, const char* variant,
                                                                        const char* layout) {
    if (!gcn_arch_name) return nullptr;
    const std::string arch(gcn_arch_name);
    return dppgemm_find_code_object(arch.substr(0, arch.find(':')).c_str(), variant, layout);
}

extern "C" unsigned dppgemm_code_object_macro_tile(const dppgemm_code_object* object) {
    if (!object || !object->variant) return 0;
#define DPPGEMM_VARIANT(name, template_file, defines, features, macro_tile, micro_tile, requests, extra_valu, idea) \
    if (!std::strcmp(object->variant, #name)) return macro_tile;
#include "dppgemm/variants.def"
#undef DPPGEMM_VARIANT
    return 0;
}
