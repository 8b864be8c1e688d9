#include "blas_under_test.hpp"

#include <dlfcn.h>

#include <cstdarg>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>

namespace blas_test {

namespace {

std::mutex reports_mutex;
std::vector<ErrorReport> reports;

void record(const char* handler, const char* routine, std::size_t length, int position) {
    std::string name(routine, length);
    name = name.substr(0, name.find('\0'));
    name.erase(name.find_last_not_of(' ') + 1);
    const std::lock_guard<std::mutex> lock(reports_mutex);
    reports.push_back({handler, name, position});
}

template <typename Function>
Function symbol(void* handle, const char* path, const char* name) {
    void* found = dlsym(handle, name);
    if (!found) throw std::runtime_error(std::string(path) + " has no " + name);
    return reinterpret_cast<Function>(found);
}

Blas load(const char* path) {
    void* handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) throw std::runtime_error(std::string("dlopen ") + path + ": " + dlerror());
    return {path, symbol<FortranSgemm>(handle, path, "sgemm_"), symbol<CblasSgemm>(handle, path, "cblas_sgemm")};
}

}  // namespace

const Blas& dppgemm_blas() {
    static const Blas blas = [] {
        // Read by the library on its first call.
        setenv("DPPGEMM_BLAS_BACKEND", "emu", 1);
        setenv("DPPGEMM_BLAS_THRESHOLD", "0", 1);
        setenv("DPPGEMM_BLAS_LOG", "0", 1);
        return load(DPPGEMM_BLAS_LIBRARY);
    }();
    return blas;
}

const Blas& openblas() {
    static const Blas blas = load(OPENBLAS_LIBRARY);
    return blas;
}

const Blas* reference_blas() {
#ifdef REFERENCE_BLAS_LIBRARY
    static const Blas blas = load(REFERENCE_BLAS_LIBRARY);
    return &blas;
#else
    return nullptr;
#endif
}

std::vector<ErrorReport> take_error_reports() {
    const std::lock_guard<std::mutex> lock(reports_mutex);
    return std::exchange(reports, {});
}

}  // namespace blas_test

// Exported from the executable (ENABLE_EXPORTS), so the libraries' calls land
// here. Neither stops the program, unlike the reference handlers.
extern "C" void xerbla_(const char* routine, const int* position, std::size_t routine_length) {
    blas_test::record("xerbla_", routine, routine_length, *position);
}

extern "C" void cblas_xerbla(int position, const char* routine, const char*, ...) {
    blas_test::record("cblas_xerbla", routine, std::char_traits<char>::length(routine), position);
}
