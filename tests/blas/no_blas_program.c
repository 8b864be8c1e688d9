/* A program that links no BLAS, as Python is: it reaches BLAS only through
   libraries it dlopen()s with RTLD_LOCAL (numpy and its LAPACK do so). With
   libdppgemm-blas preloaded, the process's global scope must gain sgemm_ and
   cblas_sgemm and nothing else a BLAS defines: a xerbla_ or dgemm_ there
   would take precedence over the one the program's own BLAS and LAPACK
   bring. An illegal call then has no xerbla_ to go to but the fallback
   BLAS's (docs/blas.md), and a legal one is computed. */
#include <dlfcn.h>
#include <stdio.h>

typedef void (*Sgemm)(const char*, const char*, const int*, const int*, const int*, const float*, const float*,
                      const int*, const float*, const int*, const float*, float*, const int*);

int main(void) {
    const char* absent[] = {"xerbla_", "dgemm_", "cblas_sdot", "sgemv_", "openblas_get_config"};
    int failed = 0;
    for (unsigned i = 0; i < sizeof absent / sizeof *absent; ++i)
        if (dlsym(RTLD_DEFAULT, absent[i])) {
            printf("no_blas_program: %s is in the global scope\n", absent[i]);
            failed = 1;
        }
    Sgemm sgemm = (Sgemm)dlsym(RTLD_DEFAULT, "sgemm_");
    if (!sgemm || !dlsym(RTLD_DEFAULT, "cblas_sgemm")) {
        printf("no_blas_program: sgemm_ or cblas_sgemm missing (run with libdppgemm-blas preloaded)\n");
        return 1;
    }
    const float a[4] = {1, 2, 3, 4}, b[4] = {1, 0, 0, 1}, one = 1, zero = 0;
    float c[4] = {9, 9, 9, 9};
    const int two = 2, bad_lda = 1;
    sgemm("N", "N", &two, &two, &two, &one, a, &bad_lda, b, &two, &zero, c, &two);
    sgemm("N", "N", &two, &two, &two, &one, a, &two, b, &two, &zero, c, &two);
    printf("no_blas_program: C = %g %g %g %g\n", c[0], c[1], c[2], c[3]);
    if (!failed) printf("no_blas_program: global scope has sgemm_ and cblas_sgemm only\n");
    return failed;
}
