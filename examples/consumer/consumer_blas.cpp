// Links the installed libdppgemm-blas (dppgemm::blas) as a BLAS program would
// and calls its sgemm_: every call runs on dppgemm (DPPGEMM_BLAS_THRESHOLD=0,
// DPPGEMM_BLAS_BACKEND=emu from the package test). Prints one line.
#include <cstdio>
#include <cstring>
#include <vector>

extern "C" void sgemm_(const char* trans_a, const char* trans_b, const int* m, const int* n, const int* k,
                       const float* alpha, const float* a, const int* lda, const float* b, const int* ldb,
                       const float* beta, float* c, const int* ldc);

int main() {
    const int m = 3, n = 2, k = 2;
    const float a[] = {1, 2, 3, 4, 5, 6};  // 3x2, column-major
    const float b[] = {1, 0, 0.5f, 2};     // 2x2
    std::vector<float> c(6, 1.0f);
    const float alpha = 2.0f, beta = 1.0f;
    sgemm_("N", "N", &m, &n, &k, &alpha, a, &m, b, &k, &beta, c.data(), &m);
    // C = 2 A B + 1: exact in fp32.
    const float expected[] = {3, 5, 7, 18, 23, 28};
    const bool equal = std::memcmp(c.data(), expected, sizeof expected) == 0;
    std::printf("consumer-blas: sgemm_ through dppgemm::blas %s\n", equal ? "correct" : "WRONG");
    return equal ? 0 : 1;
}
