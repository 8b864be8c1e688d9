// dppgemm-emu-bench: SGEMM n x n x n (dpp0 NN gfx906 by default) on the
// emulator unchecked and checked, and OpenBLAS cblas_sgemm, with the ratios
// and wave instructions per second. The checkers' budget is 1.5x unchecked
// (docs/emulator-performance.md, "Checker cost").
//
//   dppgemm-emu-bench [--size 1024] [--threads 0] [--variant dpp0] [--target gfx906]
//                     [--only unchecked|idle|checked]

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "dppgemm/code_objects.h"
#include "dppgemm/kernargs.h"
#include "emu/check/checker.hpp"
#include "openblas.hpp"

using namespace dppgemm::emu;

namespace {

constexpr double checker_budget = 1.5;  // checked / unchecked time the checkers may cost (docs/emulator-performance.md)

struct Options {
    int size = 1024;
    unsigned threads = 0;
    std::string variant = "dpp0", target = target_name(default_target);
    std::string only;  // "unchecked", "idle" or "checked": that run alone (for profilers)
    int iters = 5;     // rounds of the four runs; each figure is the median over the rounds
};

struct Timed {
    double seconds = 0;      // wall clock
    double cpu_seconds = 0;  // this process's CPU time: less disturbed by other jobs on the machine
    std::uint64_t instructions = 0;
    std::size_t findings = 0;
};

using Clock = std::chrono::steady_clock;
double since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }
double cpu_now() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

class SgemmSetup {
public:
    SgemmSetup(int n, unsigned macro_tile, unsigned threads) : n_(n) {
        std::mt19937 rng(42);
        std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
        for (auto* m : {&a_, &b_, &c_}) {
            m->resize(std::size_t(n) * n);
            for (float& x : *m) x = dist(rng);
        }
        const std::uint32_t tiles = std::uint32_t((n + macro_tile - 1) / macro_tile);
        config_.grid = {tiles, tiles, 1};
        config_.block = {DPPGEMM_SGEMM_BLOCK_SIZE, 1, 1};
        config_.threads = threads;
    }

    // One emulated SGEMM (fresh device memory), with `observer` attached.
    Timed emulate(const Program& program, DispatchObserver* observer) {
        DeviceMemory memory;
        const std::uint64_t bytes = 4ull * a_.size();
        const std::uint64_t a = memory.allocate(bytes, "A"), b = memory.allocate(bytes, "B"),
                            c = memory.allocate(bytes, "C");
        memory.write(a, a_.data(), bytes);
        memory.write(b, b_.data(), bytes);
        memory.write(c, c_.data(), bytes);
        const std::uint32_t n = std::uint32_t(n_);
        const dppgemm_sgemm_kernargs args{a, b, c, n, n, n, n, n, n, 1.0f, 0.5f};
        LaunchConfig config = config_;
        config.kernarg.resize(sizeof args);
        std::memcpy(config.kernarg.data(), &args, sizeof args);
        config.observer = observer;
        const Clock::time_point start = Clock::now();
        const double cpu_start = cpu_now();
        const DispatchResult r = launch(memory, program, config);
        Timed t{since(start), cpu_now() - cpu_start, r.counters.wave_instructions(), 0};
        if (r.fault) throw std::runtime_error("emulated SGEMM faulted: " + r.fault->message);
        return t;
    }

    double openblas() {
        std::vector<float> c = c_;
        const Clock::time_point start = Clock::now();
        dppgemm::bench::openblas().sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n_, n_, n_, 1.0f, a_.data(), n_,
                                         b_.data(), n_, 0.5f, c.data(), n_);
        return since(start);
    }

private:
    int n_;
    std::vector<float> a_, b_, c_;
    LaunchConfig config_;
};

// Watches no instruction and no global memory: what the executor's hook
// sites cost by themselves (a byte test per instruction, LDS accesses listed
// for memory_access).
class IdleObserver : public DispatchObserver {
public:
    explicit IdleObserver(const Program& program) : none_(program.code.size(), 0) {}
    std::unique_ptr<WorkgroupObserver> start(std::uint64_t) override { return std::make_unique<Idle>(none_.data()); }
    void finish(std::uint64_t, std::unique_ptr<WorkgroupObserver>) override {}

private:
    struct Idle : WorkgroupObserver {
        explicit Idle(const std::uint8_t* none) : none(none) {}
        const std::uint8_t* none;
        const std::uint8_t* watched_instructions() const override { return none; }
        bool observes_global_memory() const override { return false; }
    };
    std::vector<std::uint8_t> none_;
};

Program load_program(const Options& o) {
    const dppgemm_code_object* object = dppgemm_find_code_object(o.target.c_str(), o.variant.c_str(), "NN");
    if (!object)
        throw std::runtime_error("no embedded kernel for --target '" + o.target + "' and --variant '" + o.variant +
                                 "' (targets: " + target_names(true) + ")");
    const CodeObject co = load_code_object(object->data, object->size, object->kernel_name);
    return build_program(co, co.kernels.at(0));
}

// The macro tile of the variant table's row `variant` (load_program found it).
unsigned macro_tile_of(const std::string& variant) {
    unsigned tile = 0;
#define DPPGEMM_VARIANT(name, template_file, defines, features, macro_tile, micro_tile, requests, extra_valu, idea) \
    if (variant == #name) tile = macro_tile;
#include "dppgemm/variants.def"
#undef DPPGEMM_VARIANT
    return tile;
}

// The run with the median wall time, with the median CPU time beside it.
Timed median(std::vector<Timed> runs) {
    const auto middle = runs.begin() + runs.size() / 2;
    std::nth_element(runs.begin(), middle, runs.end(),
                     [](const Timed& a, const Timed& b) { return a.cpu_seconds < b.cpu_seconds; });
    const double cpu = middle->cpu_seconds;
    std::nth_element(runs.begin(), middle, runs.end(),
                     [](const Timed& a, const Timed& b) { return a.seconds < b.seconds; });
    Timed t = *middle;
    t.cpu_seconds = cpu;
    return t;
}

double median_of(std::vector<double> values) {
    const auto middle = values.begin() + values.size() / 2;
    std::nth_element(values.begin(), middle, values.end());
    return *middle;
}

void print_row(const char* what, double seconds, const Timed* t) {
    std::printf("%-22s %10.3f s", what, seconds);
    if (t)
        std::printf(" (cpu %.3f s)   %8.2f M wave instructions/s", t->cpu_seconds,
                    double(t->instructions) / seconds / 1e6);
    std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    CLI::App app{"Checker overhead: SGEMM on the emulator without and with the checkers, and OpenBLAS"};
    app.add_option("--size", o.size, "M = N = K")->check(CLI::Range(1, 16384));
    app.add_option("--threads", o.threads, "Emulator and OpenBLAS host threads (0: all cores)")
        ->check(CLI::Range(0u, 1024u));
    std::string variants;
#define DPPGEMM_VARIANT(name, template_file, defines, features, macro_tile, micro_tile, requests, extra_valu, idea) \
    variants += std::string(variants.empty() ? "" : ", ") + #name;
#include "dppgemm/variants.def"
#undef DPPGEMM_VARIANT
    app.add_option("--variant", o.variant, "a row of include/dppgemm/variants.def: " + variants);
    app.add_option("--target", o.target, "a target with kernels: " + target_names(true));
    app.add_option("-i,--iters", o.iters,
                   "rounds of OpenBLAS, unchecked, idle-observer and checked runs; medians are reported")
        ->check(CLI::Range(1, 1000));
    app.add_option("--only", o.only, "Run only this configuration, once, without warm-up (to profile it)")
        ->check(CLI::IsMember({"unchecked", "idle", "checked"}));
    // Usage errors exit 2 with the tool's name, as dppgemm-emu and dppgemm-bench
    // do (CLI11_PARSE would exit with CLI11's own codes, 104 to 109).
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& help) {
        return app.exit(help);
    } catch (const CLI::ParseError& error) {
        std::fprintf(stderr, "dppgemm-emu-bench: %s (see --help)\n", error.what());
        return 2;
    }
    try {
        const Program program = load_program(o);
        SgemmSetup setup(o.size, macro_tile_of(o.variant), o.threads);
        if (o.threads)
            dppgemm::bench::openblas().set_num_threads(int(o.threads));  // the same cores for both sides of the ratio
        if (!o.only.empty()) {
            IdleObserver idle(program);
            check::Checker checker(program);
            DispatchObserver* observer = nullptr;
            if (o.only == "idle") observer = &idle;
            if (o.only == "checked") observer = &checker;
            const Timed t = setup.emulate(program, observer);
            print_row(("emulator, " + o.only).c_str(), t.seconds, &t);
            return 0;
        }
        setup.emulate(program, nullptr);  // warm-up: first-touch page faults, caches
        setup.openblas();                 // warm-up: OpenBLAS starts its threads
        // OpenBLAS and the three configurations take turns, round after round,
        // and each figure is the median of its rounds: a single run of each
        // swings the ratios by +-0.2 (OpenBLAS, threaded, by far more) on a
        // shared machine, and taking turns makes a load change hit all alike.
        // The ratio to OpenBLAS is the median of the rounds' ratios.
        std::vector<Timed> unchecked_runs, observed_runs, checked_runs;
        std::vector<double> blas_runs, blas_ratios;
        IdleObserver idle(program);
        for (int round = 0; round < o.iters; ++round) {
            blas_runs.push_back(setup.openblas());
            unchecked_runs.push_back(setup.emulate(program, nullptr));
            blas_ratios.push_back(unchecked_runs.back().seconds / blas_runs.back());
            observed_runs.push_back(setup.emulate(program, &idle));
            check::Checker checker(program);
            checked_runs.push_back(setup.emulate(program, &checker));
            checked_runs.back().findings = checker.findings(DispatchResult{}).size();
        }
        const Timed unchecked = median(unchecked_runs), observed = median(observed_runs);
        Timed checked = median(checked_runs);
        for (const Timed& t : checked_runs) checked.findings = std::max(checked.findings, t.findings);
        const double blas = median_of(blas_runs);
        std::printf("SGEMM %dx%dx%d, %s NN %s, %llu wave instructions, median of %d rounds\n", o.size, o.size, o.size,
                    o.variant.c_str(), o.target.c_str(), static_cast<unsigned long long>(unchecked.instructions),
                    o.iters);
        print_row("emulator, unchecked", unchecked.seconds, &unchecked);
        print_row("emulator, idle observer", observed.seconds, &observed);
        print_row("emulator, checked", checked.seconds, &checked);
        print_row("OpenBLAS cblas_sgemm", blas, nullptr);
        std::printf("checked / unchecked    %10.2f x wall, %.2f x cpu (budget %.2f x)\n",
                    checked.seconds / unchecked.seconds, checked.cpu_seconds / unchecked.cpu_seconds, checker_budget);
        std::printf("idle observer / unchecked %7.2f x cpu\n", observed.cpu_seconds / unchecked.cpu_seconds);
        std::printf("unchecked / OpenBLAS   %10.1f x (median of the rounds' ratios)\n", median_of(blas_ratios));
        const auto spread = [](const char* what, std::vector<double> seconds) {
            std::sort(seconds.begin(), seconds.end());
            std::printf("%-22s %10.3f - %.3f s over the rounds\n", what, seconds.front(), seconds.back());
        };
        std::vector<double> unchecked_seconds;
        for (const Timed& t : unchecked_runs) unchecked_seconds.push_back(t.seconds);
        spread("  unchecked spread", unchecked_seconds);
        spread("  OpenBLAS spread", blas_runs);
        std::printf("checker findings       %10zu\n", checked.findings);
        return checked.findings == 0 ? 0 : 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "dppgemm-emu-bench: %s\n", e.what());
        return 2;
    }
}
