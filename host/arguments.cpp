// Reference-BLAS argument rules for SGEMM, positions as in xerbla.
#include "backend.hpp"
#include "dppgemm/dppgemm.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <string>

namespace dppgemm {

namespace {

bool is_no_trans(char t) { return t == 'N' || t == 'n'; }
bool is_trans(char t) { return t == 'T' || t == 't' || t == 'C' || t == 'c'; }

// 'X', or the code of a character that would not show: '\0' would end the
// message early, and bytes past ASCII print as mojibake.
std::string quoted_char(char c) {
    if (std::isprint(static_cast<unsigned char>(c))) return std::string("'") + c + "'";
    char code[8];
    std::snprintf(code, sizeof code, "0x%02x", static_cast<unsigned char>(c));
    return code;
}

Result invalid(int position, const std::string& what) {
    Result r;
    r.status = Status::invalid_argument;
    r.invalid_argument = position;
    r.message = "sgemm: parameter " + std::to_string(position) + " (" + what + ") is illegal";
    return r;
}

}  // namespace

Result check_sgemm_arguments(char trans_a, char trans_b, int m, int n, int k, float alpha, int lda, int ldb, float beta,
                             int ldc) {
    const bool no_trans_a = is_no_trans(trans_a), no_trans_b = is_no_trans(trans_b);
    const int rows_a = no_trans_a ? m : k;
    const int rows_b = no_trans_b ? k : n;
    if (!no_trans_a && !is_trans(trans_a)) return invalid(1, "transA = " + quoted_char(trans_a));
    if (!no_trans_b && !is_trans(trans_b)) return invalid(2, "transB = " + quoted_char(trans_b));
    if (m < 0) return invalid(3, "M = " + std::to_string(m));
    if (n < 0) return invalid(4, "N = " + std::to_string(n));
    if (k < 0) return invalid(5, "K = " + std::to_string(k));
    if (lda < std::max(1, rows_a))
        return invalid(8, "lda = " + std::to_string(lda) + " < max(1, " + std::to_string(rows_a) + ")");
    if (ldb < std::max(1, rows_b))
        return invalid(10, "ldb = " + std::to_string(ldb) + " < max(1, " + std::to_string(rows_b) + ")");
    if (ldc < std::max(1, m))
        return invalid(13, "ldc = " + std::to_string(ldc) + " < max(1, " + std::to_string(m) + ")");

    Result r;
    if (m == 0 || n == 0 || ((alpha == 0.0f || k == 0) && beta == 1.0f)) r.quick_return = true;
    return r;
}

Result check_sgemm_arguments(char trans_a, char trans_b, int m, int n, int k, float alpha, const float* a, int lda,
                             const float* b, int ldb, float beta, const float* c, int ldc) {
    Result r = check_sgemm_arguments(trans_a, trans_b, m, n, k, alpha, lda, ldb, beta, ldc);
    if (!r || r.quick_return) return r;
    const detail::Problem p{{trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, nullptr, ldc}};
    const std::string read_because = ", read since alpha != 0 and K = " + std::to_string(k);
    if (p.reads_a_and_b() && !a) return invalid(7, "A = null" + read_because);
    if (p.reads_a_and_b() && !b) return invalid(9, "B = null" + read_because);
    if (!c) return invalid(12, "C = null with M = " + std::to_string(m) + ", N = " + std::to_string(n));
    return r;
}

const char* to_string(Status status) {
    switch (status) {
    case Status::success: return "success";
    case Status::invalid_argument: return "invalid argument";
    case Status::unsupported: return "unsupported";
    case Status::no_device: return "no device";
    case Status::launch_failure: return "launch failure";
    case Status::kernel_fault: return "kernel fault";
    }
    return "?";
}

const char* to_string(Variant variant) {
    if (variant == Variant::best) return "best";
    const VariantInfo* row = variant_info(variant);
    return row ? row->name : "?";
}

const char* to_string(Backend backend) {
    switch (backend) {
    case Backend::automatic: return "auto";
    case Backend::hip: return "hip";
    case Backend::emu: return "emu";
    }
    return "?";
}

std::optional<Variant> parse_variant(std::string_view name) {
    if (name == "best") return Variant::best;
    for (const VariantInfo& row : variant_table())
        if (name == row.name) return row.variant;
    return std::nullopt;
}

std::optional<Backend> parse_backend(std::string_view name) {
    for (Backend b : {Backend::automatic, Backend::hip, Backend::emu})
        if (name == to_string(b)) return b;
    return std::nullopt;
}

}  // namespace dppgemm
