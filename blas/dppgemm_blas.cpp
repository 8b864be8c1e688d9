// libdppgemm-blas: SGEMM through the reference BLAS and CBLAS entry points,
// run by dppgemm; every other BLAS routine, and SGEMM calls below the size
// threshold, go to the next BLAS in the link chain (dlsym(RTLD_NEXT)).
//
// Environment (read once):
//   DPPGEMM_BLAS_BACKEND    auto | hip | emu        (default auto)
//   DPPGEMM_BLAS_VARIANT    dpp0 | dpp1 | dpp2 | best (default best)
//   DPPGEMM_BLAS_THRESHOLD  M*N*K below which the next BLAS runs (default 2097152)
//   DPPGEMM_BLAS_LOG        1: one line on stderr per SGEMM saying who ran it
#include "dppgemm/dppgemm.hpp"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

namespace {

enum Order { kRowMajor = 101, kColMajor = 102 };
enum Trans { kNoTrans = 111, kTrans = 112, kConjTrans = 113 };

using Sgemm = void (*)(const char*, const char*, const int*, const int*, const int*, const float*, const float*,
                       const int*, const float*, const int*, const float*, float*, const int*, std::size_t,
                       std::size_t);
using CblasSgemm = void (*)(int, int, int, int, int, int, float, const float*, int, const float*, int, float, float*,
                            int);

struct Config {
  dppgemm::Options options;
  long long threshold = 128LL * 128 * 128;
  bool log = false;
  Sgemm next_sgemm = nullptr;
  CblasSgemm next_cblas_sgemm = nullptr;
};

const Config& config() {
  static Config c;
  static std::once_flag once;
  std::call_once(once, [] {
    if (const char* b = std::getenv("DPPGEMM_BLAS_BACKEND"))
      if (auto parsed = dppgemm::parse_backend(b)) c.options.backend = *parsed;
      else std::fprintf(stderr, "dppgemm-blas: DPPGEMM_BLAS_BACKEND=%s is not auto, hip or emu; using auto\n", b);
    if (const char* v = std::getenv("DPPGEMM_BLAS_VARIANT"))
      if (auto parsed = dppgemm::parse_variant(v)) c.options.variant = *parsed;
      else std::fprintf(stderr, "dppgemm-blas: DPPGEMM_BLAS_VARIANT=%s is not dpp0, dpp1, dpp2 or best; using best\n", v);
    if (const char* t = std::getenv("DPPGEMM_BLAS_THRESHOLD")) {
      char* end = nullptr;
      const long long value = std::strtoll(t, &end, 10);
      if (end && *end == '\0' && value >= 0) c.threshold = value;
      else std::fprintf(stderr, "dppgemm-blas: DPPGEMM_BLAS_THRESHOLD=%s is not a count; using %lld\n", t, c.threshold);
    }
    if (const char* l = std::getenv("DPPGEMM_BLAS_LOG")) c.log = std::strcmp(l, "0") != 0;
    c.next_sgemm = reinterpret_cast<Sgemm>(dlsym(RTLD_NEXT, "sgemm_"));
    c.next_cblas_sgemm = reinterpret_cast<CblasSgemm>(dlsym(RTLD_NEXT, "cblas_sgemm"));
  });
  return c;
}

constexpr char kRoutine[] = "SGEMM ";

}  // namespace

extern "C" {

// The reference BLAS error handler; a program's own xerbla_ takes precedence.
#define DPPGEMM_EXPORT __attribute__((visibility("default")))

DPPGEMM_EXPORT __attribute__((weak)) void xerbla_(const char* name, const int* info, std::size_t name_length) {
  std::fprintf(stderr, " ** On entry to %.*s parameter number %2d had an illegal value\n", int(name_length), name,
               *info);
}

}  // extern "C"

namespace {

void report_illegal(int position) { xerbla_(kRoutine, &position, sizeof kRoutine - 1); }

// Column-major SGEMM after argument checking: dppgemm, or the next BLAS below
// the threshold or when dppgemm cannot take the call (said on stderr unless it
// is only the kernels' leading-dimension limit).
void column_major_sgemm(char ta, char tb, int m, int n, int k, float alpha, const float* a, int lda, const float* b,
                        int ldb, float beta, float* c, int ldc, const char* entry) {
  const Config& cfg = config();
  const long long work = 1LL * m * n * k;
  if (work < cfg.threshold && cfg.next_sgemm) {
    if (cfg.log)
      std::fprintf(stderr, "dppgemm-blas: %s %c%c %dx%dx%d below the threshold: next BLAS\n", entry, ta, tb, m, n, k);
    cfg.next_sgemm(&ta, &tb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc, 1, 1);
    return;
  }
  const dppgemm::Result r = dppgemm::sgemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, cfg.options);
  if (r) {
    if (cfg.log) {
      std::fprintf(stderr, "dppgemm-blas: %s %c%c %dx%dx%d on %s %s %s", entry, ta, tb, m, n, k,
                   dppgemm::to_string(r.backend), r.target.c_str(), r.kernel.c_str());
      if (r.counters)
        std::fprintf(stderr, ", %llu LDS read requests",
                     static_cast<unsigned long long>(r.counters->lds_read_requests));
      std::fprintf(stderr, "\n");
    }
    return;
  }
  if (!cfg.next_sgemm) {
    std::fprintf(stderr, "dppgemm-blas: %s: %s, and there is no next BLAS to run it\n", entry, r.message.c_str());
    return;
  }
  if (cfg.log || r.status != dppgemm::Status::unsupported)
    std::fprintf(stderr, "dppgemm-blas: %s: %s; the next BLAS runs it\n", entry, r.message.c_str());
  cfg.next_sgemm(&ta, &tb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc, 1, 1);
}

}  // namespace

extern "C" {

// Reference BLAS ABI: every argument by reference, hidden string lengths last.
DPPGEMM_EXPORT void sgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k, const float* alpha,
            const float* a, const int* lda, const float* b, const int* ldb, const float* beta, float* c,
            const int* ldc, std::size_t, std::size_t) {
  const dppgemm::Result checked =
      dppgemm::check_sgemm_arguments(*transa, *transb, *m, *n, *k, *alpha, *lda, *ldb, *beta, *ldc);
  if (checked.status == dppgemm::Status::invalid_argument) return report_illegal(checked.invalid_argument);
  if (checked.quick_return) return;
  column_major_sgemm(*transa, *transb, *m, *n, *k, *alpha, a, *lda, b, *ldb, *beta, c, *ldc, "sgemm_");
}

// CBLAS, checked as OpenBLAS does: Fortran positions, row-major calls checked
// as the column-major call they become (C^T = op(B)^T op(A)^T), a bad order
// reported as position 0.
DPPGEMM_EXPORT void cblas_sgemm(int order, int trans_a, int trans_b, int m, int n, int k, float alpha, const float* a, int lda,
                 const float* b, int ldb, float beta, float* c, int ldc) {
  const auto trans_char = [](int t) {
    return t == kNoTrans ? 'N' : (t == kTrans || t == kConjTrans) ? 'T' : '?';
  };
  if (order != kRowMajor && order != kColMajor) return report_illegal(0);
  const bool row_major = order == kRowMajor;
  const char ta = trans_char(row_major ? trans_b : trans_a), tb = trans_char(row_major ? trans_a : trans_b);
  const int cm = row_major ? n : m, cn = row_major ? m : n;
  const float* ca = row_major ? b : a;
  const float* cb = row_major ? a : b;
  const int clda = row_major ? ldb : lda, cldb = row_major ? lda : ldb;
  const dppgemm::Result checked = dppgemm::check_sgemm_arguments(ta, tb, cm, cn, k, alpha, clda, cldb, beta, ldc);
  if (checked.status == dppgemm::Status::invalid_argument) return report_illegal(checked.invalid_argument);
  if (checked.quick_return) return;
  column_major_sgemm(ta, tb, cm, cn, k, alpha, ca, clda, cb, cldb, beta, c, ldc, "cblas_sgemm");
}

}  // extern "C"
