/* The code objects built into libdppgemm: every (variant, layout, target) of
 * the SGEMM template, as the exact bytes ld.lld produced. Nothing is read from
 * files at run time. */
#ifndef DPPGEMM_CODE_OBJECTS_H
#define DPPGEMM_CODE_OBJECTS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dppgemm_code_object {
    const char* kernel_name; /* symbol of the kernel, e.g. "dppgemm_sgemm_dpp1_NT" */
    const char* target;      /* "gfx900", "gfx906", "gfx908", "gfx90a", "gfx942" */
    const char* variant;     /* "dpp0", "dpp1", "dpp2" */
    const char* layout;      /* "NN", "NT", "TN", "TT": op(A) then op(B) */
    const unsigned char* data;
    size_t size;
} dppgemm_code_object;

/* Number of embedded code objects, and the i-th (NULL when out of range). */
size_t dppgemm_code_object_count(void);
const dppgemm_code_object* dppgemm_code_object_at(size_t index);

/* The code object for exactly this target, variant and layout, or NULL. */
const dppgemm_code_object* dppgemm_find_code_object(const char* target, const char* variant, const char* layout);

/* The same for a device as HIP names it (hipDeviceProp_t::gcnArchName): the
 * target-id feature suffixes (":sramecc+:xnack-") are accepted, since every
 * embedded code object is built for "any" xnack/sramecc setting. */
const dppgemm_code_object* dppgemm_find_code_object_for_arch(const char* gcn_arch_name, const char* variant,
                                                             const char* layout);

#ifdef __cplusplus
}
#endif

#endif
