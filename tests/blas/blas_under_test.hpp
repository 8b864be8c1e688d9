// The SGEMM implementations the blas tests compare, each dlopen()ed with
// RTLD_LOCAL so that every one keeps its own sgemm_ and cblas_sgemm, and the
// recorder of the error handler calls they make (this executable's xerbla_
// and cblas_xerbla, which take precedence over every library's own).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace blas_test {

using FortranSgemm = void (*)(const char*, const char*, const int*, const int*, const int*, const float*, const float*,
                              const int*, const float*, const int*, const float*, float*, const int*, std::size_t,
                              std::size_t);
// The CBLAS enums as the ints they are in the ABI: cblas.h stays out of the
// file that defines cblas_xerbla, whose prototype differs between BLASes.
using CblasSgemm = void (*)(int, int, int, int, int, int, float, const float*, int, const float*, int, float, float*,
                            int);

struct Blas {
    std::string library;
    FortranSgemm sgemm = nullptr;
    CblasSgemm cblas_sgemm = nullptr;
};

// libdppgemm-blas with every call on dppgemm: emu backend, threshold 0.
const Blas& dppgemm_blas();
const Blas& openblas();
// Netlib's reference BLAS and CBLAS (Debian libblas3); nullptr if absent.
const Blas* reference_blas();

struct ErrorReport {
    std::string handler;  // "xerbla_" or "cblas_xerbla"
    std::string routine;  // trailing blanks and NULs removed
    int position = 0;
    bool operator==(const ErrorReport& other) const {
        return handler == other.handler && routine == other.routine && position == other.position;
    }
};

// Error handler calls since the last take_error_reports().
std::vector<ErrorReport> take_error_reports();

}  // namespace blas_test
