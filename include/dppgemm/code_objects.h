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
    const char* variant;     /* a row of dppgemm/variants.def: "dpp0", "dpp1", "dpp2_64"... */
    const char* layout;      /* "NN", "NT", "TN", "TT": op(A) then op(B) */
    const unsigned char* data;
    size_t size;
} dppgemm_code_object;

/* Number of embedded code objects, and the i-th (NULL when out of range). */
size_t dppgemm_code_object_count(void);
const dppgemm_code_object* dppgemm_code_object_at(size_t index);

/* The code object for exactly this target, variant and layout, or NULL. */
const dppgemm_code_object* dppgemm_find_code_object(const char* target, const char* variant, const char* layout);

/* The square tile of C one workgroup of this code object computes: its
 * variant's macro_tile in dppgemm/variants.def (128, or 64 for the 64x64
 * family). Launch ceil(M / tile) x ceil(N / tile) workgroups of
 * DPPGEMM_SGEMM_BLOCK_SIZE (dppgemm/kernargs.h) work-items. 0 for NULL. */
unsigned dppgemm_code_object_macro_tile(const dppgemm_code_object* object);

/* The same for a device as HIP names it (hipDeviceProp_t::gcnArchName): the
 * target-id feature suffixes (":sramecc+:xnack-") are accepted, since every
 * embedded code object is built for "any" xnack/sramecc setting. */
const dppgemm_code_object* dppgemm_find_code_object_for_arch(const char* gcn_arch_name, const char* variant,
                                                             const char* layout);

#ifdef __cplusplus
}
#endif

#endif
