/* A program that knows nothing of dppgemm: it links the system BLAS and calls
 * sgemm_, cblas_sgemm and cblas_sdot, checking each result against its own
 * double-precision loop. Started with LD_PRELOAD=libdppgemm-blas.so, its two
 * SGEMM calls go to dppgemm and cblas_sdot stays with the system BLAS. */
#include <cblas.h>
#include <math.h>
#include <stdio.h>

enum { M = 67, N = 61, K = 59, LD = 70 };

void sgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k, const float* alpha,
            const float* a, const int* lda, const float* b, const int* ldb, const float* beta, float* c,
            const int* ldc);

static float a[LD * K], b[LD * N], c[LD * N], c0[LD * N];

static float pseudo_random(int i) { return (float)((i * 7919) % 1000) / 500.0f - 1.0f; }

/* 0 when C = alpha A B + beta C0 (all column-major, no transposes) within rounding. */
static int check_product(const char* who, float alpha, float beta) {
    for (int j = 0; j < N; ++j)
        for (int i = 0; i < M; ++i) {
            double exact = beta * (double)c0[j * LD + i], magnitude = fabs(exact);
            for (int l = 0; l < K; ++l) {
                exact += alpha * (double)a[l * LD + i] * b[j * LD + l];
                magnitude += fabs(alpha * (double)a[l * LD + i] * b[j * LD + l]);
            }
            if (fabs(c[j * LD + i] - exact) > 4 * K * 1.2e-7 * magnitude) {
                printf("preload_program: %s C(%d, %d) = %.9g, expected %.9g\n", who, i, j, c[j * LD + i], exact);
                return 1;
            }
        }
    printf("preload_program: %s result correct\n", who);
    return 0;
}

static void reset_c(void) {
    for (int i = 0; i < LD * N; ++i) c[i] = c0[i];
}

int main(void) {
    for (int i = 0; i < LD * K; ++i) a[i] = pseudo_random(i);
    for (int i = 0; i < LD * N; ++i) b[i] = pseudo_random(i + 1);
    for (int i = 0; i < LD * N; ++i) c0[i] = pseudo_random(i + 2);
    const int m = M, n = N, k = K, ld = LD;
    const float alpha = 0.7f, beta = -1.0f;
    int failures = 0;

    reset_c();
    sgemm_("N", "N", &m, &n, &k, &alpha, a, &ld, b, &ld, &beta, c, &ld);
    failures += check_product("sgemm_", alpha, beta);

    reset_c();
    cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, M, N, K, alpha, a, LD, b, LD, beta, c, LD);
    failures += check_product("cblas_sgemm", alpha, beta);

    double dot = 0;
    for (int i = 0; i < K; ++i) dot += (double)a[i] * b[i];
    const float sdot = cblas_sdot(K, a, 1, b, 1);
    if (fabs(sdot - dot) > 1e-5) {
        printf("preload_program: cblas_sdot = %.9g, expected %.9g\n", sdot, dot);
        ++failures;
    }
    return failures == 0 ? 0 : 1;
}
