// dppgemm::sgemm: check like reference BLAS, pick a backend, run.
#include "backend.hpp"
#include "emu/loader/read_file.hpp"

#include <atomic>
#include <cstdio>
#include <cstring>

namespace dppgemm {

namespace detail {

dppgemm_sgemm_kernargs make_kernargs(const Problem& p, std::uint64_t a, std::uint64_t b, std::uint64_t c) {
    dppgemm_sgemm_kernargs args{};
    args.a = a;
    args.b = b;
    args.c = c;
    args.size_m = std::uint32_t(p.m);
    args.size_n = std::uint32_t(p.n);
    args.size_k = std::uint32_t(p.k);
    args.lda = std::uint32_t(p.lda);
    args.ldb = std::uint32_t(p.ldb);
    args.ldc = std::uint32_t(p.ldc);
    args.alpha = p.alpha;
    args.beta = p.beta;
    return args;
}

std::string base_arch(const std::string& gcn_arch_name) { return gcn_arch_name.substr(0, gcn_arch_name.find(':')); }

const dppgemm_code_object* choose_code_object(const std::string& target, Variant variant, const Problem& p) {
    const std::optional<Variant> chosen = variant == Variant::best ? best_variant(target) : variant;
    if (!chosen) return nullptr;
    return dppgemm_find_code_object(target.c_str(), to_string(*chosen), p.layout().c_str());
}

}  // namespace detail

namespace {

// Offsets inside a tile are 32-bit (docs/kernels.md): the leading dimension of
// an operand contiguous in k, and ldc, must stay below 2^22.
constexpr long long kMaxStridedLeadingDimension = 1LL << 22;

Result unsupported_leading_dimension(int position, const char* name, int value) {
    Result r;
    r.status = Status::unsupported;
    r.invalid_argument = position;
    r.message = std::string("sgemm: ") + name + " = " + std::to_string(value) +
                " is legal but above the kernels' limit of 2^22 - 1 for this layout";
    return r;
}

void say_fallback_once(const std::string& why) {
    static std::atomic<bool> said{false};
    if (!said.exchange(true))
        std::fprintf(stderr, "dppgemm: %s; running on the emulator (emu backend) instead\n", why.c_str());
}

}  // namespace

std::optional<std::uint64_t> available_host_memory() { return emu::available_host_memory(); }

Result sgemm(char trans_a, char trans_b, int m, int n, int k, float alpha, const float* a, int lda, const float* b,
             int ldb, float beta, float* c, int ldc, const Options& options) {
    Result checked = check_sgemm_arguments(trans_a, trans_b, m, n, k, alpha, lda, ldb, beta, ldc);
    if (!checked || checked.quick_return) return checked;
    const detail::Problem p{trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc};
    if (p.a_transposed() && lda >= kMaxStridedLeadingDimension) return unsupported_leading_dimension(8, "lda", lda);
    if (!p.b_transposed() && ldb >= kMaxStridedLeadingDimension) return unsupported_leading_dimension(10, "ldb", ldb);
    if (ldc >= kMaxStridedLeadingDimension) return unsupported_leading_dimension(13, "ldc", ldc);

    if (options.backend == Backend::emu) return detail::run_emu(p, options);
    Result on_gpu = detail::run_hip(p, options);
    if (on_gpu.status != Status::no_device) return on_gpu;
    if (options.backend == Backend::hip && !options.allow_emu_fallback) return on_gpu;
    say_fallback_once(on_gpu.message);
    return detail::run_emu(p, options);
}

}  // namespace dppgemm
