// bench/openblas.hpp: OpenBLAS must load only when first used, after the
// benchmark has set OPENBLAS_THREAD_TIMEOUT (a library linked at build time
// reads its environment before main, and the setting would be lost).
#include "openblas.hpp"

#include <catch2/catch.hpp>

#include <dlfcn.h>

#include <cstdlib>
#include <string>

using dppgemm::bench::openblas;

TEST_CASE("OpenBLAS loads on first use, with the short thread timeout set before it loads") {
    unsetenv("OPENBLAS_THREAD_TIMEOUT");
    unsetenv("GOTO_THREAD_TIMEOUT");
    REQUIRE(dlopen(DPPGEMM_OPENBLAS_LIBRARY, RTLD_NOW | RTLD_NOLOAD) == nullptr);
    const dppgemm::bench::OpenBlas& blas = openblas();
    REQUIRE(std::getenv("OPENBLAS_THREAD_TIMEOUT") != nullptr);
    CHECK(std::string(std::getenv("OPENBLAS_THREAD_TIMEOUT")) == "4");
    CHECK(dlopen(DPPGEMM_OPENBLAS_LIBRARY, RTLD_NOW | RTLD_NOLOAD) != nullptr);

    // The loaded functions are OpenBLAS's: [1 2; 3 4] x [5 6; 7 8] (column-major) + 0.5 C.
    const float a[] = {1, 3, 2, 4}, b[] = {5, 7, 6, 8};
    float c[] = {2, 2, 2, 2};
    blas.sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, 1.0f, a, 2, b, 2, 0.5f, c, 2);
    CHECK(c[0] == 20.0f);  // 1*5 + 2*7 + 1
    CHECK(c[1] == 44.0f);  // 3*5 + 4*7 + 1
    CHECK(c[2] == 23.0f);  // 1*6 + 2*8 + 1
    CHECK(c[3] == 51.0f);  // 3*6 + 4*8 + 1
}

TEST_CASE("a thread timeout the user set is kept") {
    setenv("OPENBLAS_THREAD_TIMEOUT", "7", 1);
    openblas();
    CHECK(std::string(std::getenv("OPENBLAS_THREAD_TIMEOUT")) == "7");
}
