// libdppgemm-blas: the reference BLAS sgemm_ and the CBLAS cblas_sgemm, run by
// dppgemm. Calls below the size threshold, calls dppgemm cannot take, and
// every other BLAS routine go to the next BLAS in the link chain. Behaviour,
// environment variables and error positions: docs/blas.md.
#include "dppgemm/dppgemm.hpp"

#include <cblas.h>
#include <dlfcn.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

namespace {

// The BLAS error handler, xerbla_(routine, position, routine length).
using Xerbla = void (*)(const char*, const int*, std::size_t);

// Fortran SGEMM as gfortran calls it: every argument by reference, then the
// hidden lengths of the two CHARACTER arguments.
using FortranSgemm = void (*)(const char*, const char*, const int*, const int*, const int*, const float*, const float*,
                              const int*, const float*, const int*, const float*, float*, const int*, std::size_t,
                              std::size_t);

// One SGEMM in reference-BLAS (column-major) terms: what both entry points
// hand on after turning a row-major CBLAS call into its column-major twin.
using ColumnMajorCall = dppgemm::SgemmCall;

struct NextBlas {
    FortranSgemm sgemm = nullptr;
    std::string library;  // file that defines it, for the log
};

struct Settings {
    dppgemm::Options options;
    double threshold = 128.0 * 128.0 * 128.0;  // M*N*K below which the next BLAS runs the call
    bool log = false;
    NextBlas next;
    Xerbla xerbla = nullptr;  // nullptr: none found, the message is printed here
};

std::optional<double> parse_count(std::string_view text) {
    if (text.empty() || text.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
    return std::strtod(std::string(text).c_str(), nullptr);
}

std::optional<bool> parse_flag(std::string_view text) {
    if (text == "0") return false;
    if (text == "1") return true;
    return std::nullopt;
}

// The value of an environment variable, or the fallback when it is unset or
// not understood (said on stderr, since a typo would otherwise go unnoticed).
template <typename T, typename Parse>
T environment_setting(const char* variable, T fallback, Parse parse, const std::string& expected) {
    const char* text = std::getenv(variable);
    if (!text) return fallback;
    if (const auto parsed = parse(text)) return *parsed;
    std::fprintf(stderr, "dppgemm-blas: ignoring %s=%s (expected %s)\n", variable, text, expected.c_str());
    return fallback;
}

void* own_base_address() {
    Dl_info self{};
    dladdr(reinterpret_cast<void*>(&own_base_address), &self);
    return self.dli_fbase;
}

// The BLAS of last resort, opened RTLD_LOCAL on first need: this library
// links no BLAS, so that preloading it adds no BLAS symbols (sgemm_'s
// neighbours, xerbla_ that LAPACK calls) to the process's global scope, where
// they would take precedence over the program's own, e.g. those numpy and its
// LAPACK load with RTLD_LOCAL.
void* fallback_blas() {
    static void* const handle = dlopen(DPPGEMM_BLAS_FALLBACK, RTLD_NOW | RTLD_LOCAL);
    return handle;
}

NextBlas blas_at(void* found) {
    NextBlas next;
    Dl_info where{};
    if (!found || !dladdr(found, &where) || where.dli_fbase == own_base_address()) return next;
    next.sgemm = reinterpret_cast<FortranSgemm>(found);
    next.library = where.dli_fname ? where.dli_fname : "?";
    return next;
}

// The sgemm_ after this library in the lookup order, else the fallback BLAS's.
// Never this library's own: calling it would recurse forever.
NextBlas find_next_blas() {
    NextBlas next = blas_at(dlsym(RTLD_NEXT, "sgemm_"));
    if (!next.sgemm && fallback_blas()) next = blas_at(dlsym(fallback_blas(), "sgemm_"));
    return next;
}

// The program's own xerbla_ when it exports one (that is how programs catch
// BLAS errors), else its BLAS's, else the fallback BLAS's.
Xerbla find_xerbla() {
    void* found = dlsym(RTLD_DEFAULT, "xerbla_");
    if (!found && fallback_blas()) found = dlsym(fallback_blas(), "xerbla_");
    return reinterpret_cast<Xerbla>(found);
}

// "dpp0, dpp1, dpp2 or best": the rows of the variant table.
std::string variant_choices() {
    std::string choices;
    for (const dppgemm::VariantInfo& row : dppgemm::variant_table()) choices += std::string(row.name) + ", ";
    return choices.substr(0, choices.size() - 2) + " or best";
}

Settings read_settings() {
    Settings s;
    s.options.backend =
        environment_setting("DPPGEMM_BLAS_BACKEND", s.options.backend, dppgemm::parse_backend, "auto, hip or emu");
    s.options.variant =
        environment_setting("DPPGEMM_BLAS_VARIANT", s.options.variant, dppgemm::parse_variant, variant_choices());
    s.threshold = environment_setting("DPPGEMM_BLAS_THRESHOLD", s.threshold, parse_count, "a count M*N*K");
    s.log = environment_setting("DPPGEMM_BLAS_LOG", s.log, parse_flag, "0 or 1");
    s.next = find_next_blas();
    s.xerbla = find_xerbla();
    return s;
}

// Read on the first SGEMM (function-local statics are initialised once, even
// when threads race to the first call).
const Settings& settings() {
    static const Settings s = read_settings();
    return s;
}

void log_line(const char* entry, const ColumnMajorCall& call, const std::string& who) {
    std::fprintf(stderr, "dppgemm-blas: %s %c%c %dx%dx%d: %s\n", entry, call.trans_a, call.trans_b, call.m, call.n,
                 call.k, who.c_str());
}

std::string describe(const dppgemm::Result& r) {
    std::string who = std::string("dppgemm ") + dppgemm::to_string(r.backend) + " " + r.target + " " + r.kernel;
    if (r.counters) who += ", " + std::to_string(r.counters->lds_read_requests) + " LDS read requests";
    return who;
}

void run_on_next_blas(const NextBlas& next, const ColumnMajorCall& call) {
    next.sgemm(&call.trans_a, &call.trans_b, &call.m, &call.n, &call.k, &call.alpha, call.a, &call.lda, call.b,
               &call.ldb, &call.beta, call.c, &call.ldc, 1, 1);
}

// A legal call with work to do: dppgemm, or the next BLAS below the threshold
// or when dppgemm cannot take it (C is only written when dppgemm succeeds, so
// the next BLAS starts from the caller's C).
void run(const char* entry, const ColumnMajorCall& call) {
    const Settings& s = settings();
    const double work = double(call.m) * double(call.n) * double(call.k);
    if (s.next.sgemm && work < s.threshold) {
        if (s.log) log_line(entry, call, "next BLAS " + s.next.library + " (M*N*K below the threshold)");
        return run_on_next_blas(s.next, call);
    }
    const dppgemm::Result r = dppgemm::sgemm(call.trans_a, call.trans_b, call.m, call.n, call.k, call.alpha, call.a,
                                             call.lda, call.b, call.ldb, call.beta, call.c, call.ldc, s.options);
    if (r) {
        if (s.log) log_line(entry, call, describe(r));
        return;
    }
    if (!s.next.sgemm) return log_line(entry, call, r.message + "; no next BLAS to run it, C unchanged");
    // Leading dimensions past the kernels' limit are expected and not worth a
    // line unless asked; a fault or a failed launch always is; any other
    // unsupported call (a DPPGEMM_BLAS_VARIANT the GPU does not have) once,
    // since every call after it would say the same.
    static std::atomic<bool> said_unsupported{false};
    const bool quiet = r.status == dppgemm::Status::unsupported &&
                       (r.invalid_argument != 0 /* a leading dimension */ || said_unsupported.exchange(true));
    if (s.log || !quiet) log_line(entry, call, r.message + "; next BLAS " + s.next.library + " runs it");
    run_on_next_blas(s.next, call);
}

void report_illegal(int position) {
    static constexpr char kRoutine[] = "SGEMM ";
    if (const Xerbla xerbla = settings().xerbla) return xerbla(kRoutine, &position, sizeof kRoutine - 1);
    // Reference BLAS's words, without its STOP: no BLAS was found to say them.
    std::fprintf(stderr, " ** On entry to %s parameter number %2d had an illegal value\n", kRoutine, position);
}

// Reference BLAS rules: an illegal argument goes to xerbla_ and nothing else
// happens; quick returns touch nothing. A null matrix the call would read or
// write is illegal too (7, 9, 12), where reference BLAS would crash.
void check_and_run(const char* entry, const ColumnMajorCall& call) {
    const dppgemm::Result checked =
        dppgemm::check_sgemm_arguments(call.trans_a, call.trans_b, call.m, call.n, call.k, call.alpha, call.a, call.lda,
                                       call.b, call.ldb, call.beta, call.c, call.ldc);
    if (checked.status == dppgemm::Status::invalid_argument) return report_illegal(checked.invalid_argument);
    if (checked.quick_return) {
        if (settings().log) log_line(entry, call, "nothing to compute");
        return;
    }
    run(entry, call);
}

// '?' is no BLAS transpose character, so an illegal CBLAS value is reported at
// the position of the Fortran argument it becomes.
char fortran_transpose(CBLAS_TRANSPOSE t) {
    switch (t) {
    case CblasNoTrans: return 'N';
    case CblasTrans: return 'T';
    case CblasConjTrans: return 'C';  // real data: conjugation changes nothing
    default: return '?';
    }
}

// Row-major C = op(A) op(B) is column-major C^T = op(B)^T op(A)^T: the same
// memory, with A and B (and M and N) swapped.
ColumnMajorCall as_column_major(CBLAS_ORDER order, CBLAS_TRANSPOSE trans_a, CBLAS_TRANSPOSE trans_b, int m, int n,
                                int k, float alpha, const float* a, int lda, const float* b, int ldb, float beta,
                                float* c, int ldc) {
    if (order == CblasRowMajor)
        return {fortran_transpose(trans_b), fortran_transpose(trans_a), n, m, k, alpha, b, ldb, a, lda, beta, c, ldc};
    return {fortran_transpose(trans_a), fortran_transpose(trans_b), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc};
}

}  // namespace

// The two exported symbols (exports.map lists them; everything else is hidden).
extern "C" {

// Callers that pass the hidden CHARACTER lengths (gfortran) and callers that
// do not (C) both work: the lengths are never read.
[[gnu::visibility("default")]] void sgemm_(const char* trans_a, const char* trans_b, const int* m, const int* n,
                                           const int* k, const float* alpha, const float* a, const int* lda,
                                           const float* b, const int* ldb, const float* beta, float* c,
                                           const int* ldc) {
    check_and_run("sgemm_", {*trans_a, *trans_b, *m, *n, *k, *alpha, a, *lda, b, *ldb, *beta, c, *ldc});
}

[[gnu::visibility("default")]] void cblas_sgemm(CBLAS_ORDER order, CBLAS_TRANSPOSE trans_a, CBLAS_TRANSPOSE trans_b,
                                                int m, int n, int k, float alpha, const float* a, int lda,
                                                const float* b, int ldb, float beta, float* c, int ldc) {
    // Position 0, as OpenBLAS reports it: SGEMM has no argument for the order.
    if (order != CblasRowMajor && order != CblasColMajor) return report_illegal(0);
    check_and_run("cblas_sgemm",
                  as_column_major(order, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc));
}

}  // extern "C"
