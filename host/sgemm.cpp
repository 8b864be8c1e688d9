// dppgemm::sgemm: check like reference BLAS, pick a backend, run.
#include "backend.hpp"
#include "emu/loader/read_file.hpp"

#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <stdexcept>
#include <tuple>

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

std::uint64_t sgemm_wave_instruction_bound(int k) {
    constexpr std::uint64_t kPerStep = 2048, kOutsideTheLoop = 1u << 20;
    return kOutsideTheLoop + kPerStep * ((std::uint64_t(k) + 7) / 8);
}

std::string base_arch(const std::string& gcn_arch_name) { return gcn_arch_name.substr(0, gcn_arch_name.find(':')); }

// Every SGEMM asks (a BLAS program makes millions of small ones): the
// embedded table is searched by name once per target, variant and layout.
const dppgemm_code_object* choose_code_object(const std::string& target, const Options& options, const Problem& p) {
    const std::optional<Variant> chosen =
        options.variant == Variant::best
            ? best_variant(target, p.trans_a, p.trans_b, p.m, p.n, p.k, options.tuning_table)
            : options.variant;
    if (!chosen) return nullptr;
    static std::mutex mutex;
    static std::map<std::tuple<std::string, Variant, std::string>, const dppgemm_code_object*> found;
    const std::string layout = p.layout();
    std::lock_guard<std::mutex> lock(mutex);
    const auto [slot, fresh] = found.try_emplace({target, *chosen, layout}, nullptr);
    if (fresh) slot->second = dppgemm_find_code_object(target.c_str(), to_string(*chosen), layout.c_str());
    return slot->second;
}

unsigned macro_tile_of(const dppgemm_code_object& co) {
    if (const unsigned tile = dppgemm_code_object_macro_tile(&co)) return tile;
    throw std::logic_error(std::string("code object ") + co.kernel_name + " names variant '" + co.variant +
                           "', which is not a row of the variant table");
}

}  // namespace detail

namespace {

// Offsets inside a tile are 32-bit and must stay below the buffer
// descriptors' 2^31-byte num_records clamp (docs/kernels.md, "Edges without
// branches"; past it a load reads 0 and the result is silently wrong). A tile
// is 128 (M or N) x 8 (K): the largest offset of an operand contiguous in k is
// (127 ld + 7) * 4 bytes, and of C (127 ldc + 127) * 4, both below 2^31 for
// ld < 2^22; of an operand contiguous in M or N (A not transposed, B
// transposed) it is (7 ld + 127) * 4.
constexpr long long kMaxStridedLeadingDimension = (1LL << 22) - 1;
constexpr long long kMaxContiguousLeadingDimension = ((1LL << 29) - 128) / 7;  // 76695826
static_assert((7 * kMaxContiguousLeadingDimension + 127) * 4 < (1LL << 31));
static_assert((7 * (kMaxContiguousLeadingDimension + 1) + 127) * 4 >= (1LL << 31));
static_assert((127 * kMaxStridedLeadingDimension + 127) * 4 < (1LL << 31));

Result unsupported_leading_dimension(int position, const char* name, int value, const char* limit) {
    Result r;
    r.status = Status::unsupported;
    r.invalid_argument = position;
    r.message = std::string("sgemm: ") + name + " = " + std::to_string(value) +
                " is legal but above the kernels' limit of " + limit + " for this layout";
    return r;
}

// The leading dimension the kernels cannot address, as an unsupported
// Result; success when all three fit.
Result check_kernel_reach(const detail::Problem& p) {
    const auto check = [](int position, const char* name, int ld, bool strided) {
        if (strided && ld > kMaxStridedLeadingDimension)
            return unsupported_leading_dimension(position, name, ld, "2^22 - 1");
        if (!strided && ld > kMaxContiguousLeadingDimension)
            return unsupported_leading_dimension(position, name, ld,
                                                 std::to_string(kMaxContiguousLeadingDimension).c_str());
        return Result{};
    };
    if (Result r = check(8, "lda", p.lda, p.a_transposed()); !r) return r;
    if (Result r = check(10, "ldb", p.ldb, !p.b_transposed()); !r) return r;
    return check(13, "ldc", p.ldc, true);
}

// Options values outside their enums (a cast from an integer) are refused,
// not run as something else.
Result check_options(const Options& options) {
    Result r;
    r.status = Status::invalid_argument;
    if (options.variant != Variant::best && !variant_info(options.variant)) {
        r.message = "sgemm: Options::variant = " + std::to_string(int(options.variant)) +
                    " is neither a row of the variant table nor Variant::best";
        return r;
    }
    if (options.backend != Backend::automatic && options.backend != Backend::hip && options.backend != Backend::emu) {
        r.message = "sgemm: Options::backend = " + std::to_string(int(options.backend)) +
                    " is not Backend::automatic, hip or emu";
        return r;
    }
    return {};
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
    Result checked = check_sgemm_arguments(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    if (!checked || checked.quick_return) return checked;
    const detail::Problem p{{trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc}};
    if (Result reach = check_kernel_reach(p); !reach) return reach;
    if (Result options_checked = check_options(options); !options_checked) return options_checked;

    if (options.backend == Backend::emu) return detail::run_emu(p, options);
    Result on_gpu = detail::run_hip(p, options);
    if (on_gpu.status != Status::no_device) return on_gpu;
    if (options.backend == Backend::hip && !options.allow_emu_fallback) return on_gpu;
    say_fallback_once(on_gpu.message);
    return detail::run_emu(p, options);
}

}  // namespace dppgemm
