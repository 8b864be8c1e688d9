// dppgemm-tune: for a target, model every kernel Variant::best may run (the
// cycle model on the emulator, only the traced workgroups) per layout and K
// at counts of workgroups on the busiest compute unit, and write the tuning
// table the library estimates each kernel's time from (docs/tuning.md).
// With --check N: N random held-out shapes, each kernel modeled in full, the
// table's choice against the best kernel and the fixed rule. With --census N:
// the share of each kernel in the table's choice over N random shapes
// (nothing modeled).
#include "model.hpp"
#include "options.hpp"

#include "dppgemm/dppgemm.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <sstream>
#include <thread>
#include <tuple>

namespace {

using namespace dppgemm;
using Clock = std::chrono::steady_clock;

struct Shape {
    char ta, tb;
    int m, n, k;
};

struct Modeled {
    double ms = 0;
    std::string limit;        // the largest component of the modeled cycles
    unsigned resident = 0;    // workgroups at once on a compute unit
    std::uint64_t on_cu = 0;  // workgroups on the busiest compute unit
};

// Buffers of one worker, grown as needed; the model does not look at values.
struct Buffers {
    std::vector<float> a, b, c;
};

Modeled model(const std::string& target, Variant variant, const Shape& s, Buffers& buffers) {
    const bool a_t = s.ta == 'T', b_t = s.tb == 'T';
    const int lda = a_t ? s.k : s.m, ldb = b_t ? s.n : s.k;
    buffers.a.resize(std::max(buffers.a.size(), std::size_t(s.m) * s.k));
    buffers.b.resize(std::max(buffers.b.size(), std::size_t(s.k) * s.n));
    buffers.c.resize(std::max(buffers.c.size(), std::size_t(s.m) * s.n));
    Options options;
    options.variant = variant;
    options.backend = Backend::emu;
    options.emu_target = target;
    options.threads = 1;
    options.model = true;
    options.model_only = true;
    const Result r = sgemm(s.ta, s.tb, s.m, s.n, s.k, 1.0f, buffers.a.data(), lda, buffers.b.data(), ldb, 0.0f,
                           buffers.c.data(), s.m, options);
    if (!r || !r.modeled)
        throw std::runtime_error("dppgemm-tune: " + std::string(to_string(variant)) + " " + s.ta + s.tb + " " +
                                 std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k) + ": " +
                                 r.message);
    Modeled out{r.modeled->milliseconds, "", r.modeled->resident_workgroups, r.modeled->workgroups_on_cu};
    double largest = -1;
    for (const auto& [name, cycles] : r.modeled->components)
        if (cycles > largest) largest = cycles, out.limit = name;
    return out;
}

using Key = std::tuple<char, char, int, int, int, Variant>;

// Models every key on `jobs` threads, with a progress line on stderr.
std::map<Key, Modeled> model_all(const std::string& target, const std::vector<Key>& keys, unsigned jobs) {
    std::map<Key, Modeled> out;
    std::mutex mutex;
    std::atomic<std::size_t> next{0}, done{0};
    std::exception_ptr failure;
    const auto start = Clock::now();
    // Longest first: the sweep's tail is then short ones.
    std::vector<Key> order = keys;
    std::stable_sort(order.begin(), order.end(), [](const Key& x, const Key& y) {
        return double(std::get<2>(x)) * std::get<4>(x) > double(std::get<2>(y)) * std::get<4>(y);
    });
    const auto worker = [&] {
        Buffers buffers;
        for (std::size_t i; (i = next++) < order.size();) {
            const auto& [ta, tb, m, n, k, variant] = order[i];
            try {
                const Modeled t = model(target, variant, {ta, tb, m, n, k}, buffers);
                std::lock_guard<std::mutex> lock(mutex);
                out[order[i]] = t;
            } catch (...) {
                std::lock_guard<std::mutex> lock(mutex);
                if (!failure) failure = std::current_exception();
                next = order.size();
            }
            const std::size_t finished = ++done;
            const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
            std::lock_guard<std::mutex> lock(mutex);
            std::fprintf(stderr, "\rdppgemm-tune: %s: %zu/%zu launches modeled, %.0f s", target.c_str(), finished,
                         order.size(), seconds);
        }
    };
    std::vector<std::thread> threads;
    for (unsigned j = 0; j < jobs; ++j) threads.emplace_back(worker);
    for (std::thread& t : threads) t.join();
    std::fprintf(stderr, "\n");
    if (failure) std::rethrow_exception(failure);
    return out;
}

std::string shape_text(const Shape& s) {
    return std::string{s.ta, s.tb} + " " + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
}

// The tile counts (x, y) of a grid of full tiles that puts `w` workgroups
// on the busiest of `cus` compute units: the fewest workgroups that do,
// as square as it goes (the least data to copy).
std::pair<int, int> grid_for(int w, int cus) {
    const std::int64_t low = std::int64_t(cus) * (w - 1) + 1, high = std::int64_t(cus) * w;
    for (std::int64_t x = std::int64_t(std::ceil(std::sqrt(double(low))));; ++x) {
        const std::int64_t y = (low + x - 1) / x;
        if (x * y <= high) return {int(x), int(y)};
    }
}

std::vector<int> sorted_unique(std::vector<int> v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
}

// Sizes log-uniform in [low, high], none a multiple of 32 (off the tuning
// grid's powers of two): the shapes of --check and --census.
struct SizeRange {
    int low = 0, high = 0;
};

std::optional<SizeRange> parse_size_range(const std::string& text) {
    SizeRange r;
    char colon = 0;
    std::istringstream range(text);
    if (!(range >> r.low >> colon >> r.high) || colon != ':' || !range.eof() || r.low < 1 || r.high < r.low)
        return std::nullopt;
    return r;
}

int draw_size(std::mt19937& rng, const SizeRange& r) {
    std::uniform_real_distribution<double> log_size(std::log(double(r.low)), std::log(double(r.high)));
    // exp(log(x)) may land a hair below x: clamped, the ends stay in the range.
    const int s = std::clamp(int(std::exp(log_size(rng))), r.low, r.high);
    return s % 32 == 0 ? s + (s < r.high ? 1 : -1) : s;
}

int run(int argc, char** argv) {
    CLI::App app{"dppgemm-tune: the kernel Variant::best runs per problem, chosen on the cycle model (modeled)",
                 "dppgemm-tune"};
    std::string arch = default_emu_target, sizes = "128:4096:x2", sizes_m, sizes_n, sizes_k, layouts = "NN,NT,TN,TT";
    std::string output, table_file, check_sizes = "100:4000", census_sizes = "100:4000";
    unsigned jobs = 1, check = 0, census = 0, seed = 1;
    int extrapolate_above = 512;
    double tie = 0.02;
    bool ranking = false;
    app.add_option("--arch", arch, "target (default " + std::string(default_emu_target) + ")");
    app.add_option("--sizes", sizes,
                   "M, N and K values: START:END:xFACTOR, START:END:+STEP or a list (default "
                   "128:4096:x2)");
    app.add_option("-m", sizes_m,
                   "M values (default: --sizes); the largest M x N sets the most workgroups per CU modeled, the "
                   "M x N grid is the one --ranking prints");
    app.add_option("-n", sizes_n, "N values (default: --sizes)");
    app.add_option("-k", sizes_k, "K values (default: --sizes): the table's K points, up to --extrapolate-above");
    app.add_option("--layouts", layouts, "layouts, of NN,NT,TN,TT (default all four)");
    app.add_option("-o,--output", output, "write the table to FILE (default: stdout)");
    app.add_option("-j,--jobs", jobs, "launches modeled at once, one host thread each (default 1)")
        ->check(CLI::Range(1u, 64u));
    app.add_option("--extrapolate-above", extrapolate_above,
                   "K above this is not modeled: the table holds K = this / 2 and this, and the library extends "
                   "linearly (0: model every K; default 512)")
        ->check(CLI::Range(0, 1 << 30));
    app.add_option(
           "--tie", tie,
           "times within this share of the least count as equal: the fixed rule's kernel if among them, else the "
           "fewest multiply-adds (default "
           "0.02)")
        ->check(CLI::Range(0.0, 0.5));
    app.add_flag("--ranking", ranking, "print every kernel's estimate from the table per grid point on stdout");
    app.add_option("--check", check,
                   "held-out check: N random shapes, every kernel modeled in full (no table written)");
    app.add_option("--check-sizes", check_sizes,
                   "--check: M, N and K log-uniform in LOW:HIGH, none a multiple of 32 (default 100:4000)");
    app.add_option("--census", census,
                   "census: the share of each kernel in the table's choice (Variant::best) over N random shapes, "
                   "the layouts of --layouts in turn (nothing modeled; no table written)");
    app.add_option("--census-sizes", census_sizes,
                   "--census: M, N and K log-uniform in LOW:HIGH, none a multiple of 32 (default 100:4000)");
    app.add_option("--seed", seed, "--check, --census: the shapes' seed (default 1)");
    app.add_option("--table", table_file, "--check, --census: the table to ask (default: the one Variant::best uses)");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    }
    const std::vector<Variant> candidates = best_candidates(arch);
    if (candidates.empty()) {
        std::cerr << "dppgemm-tune: --arch " << arch << ": no kernels for this target in the library\n";
        return 2;
    }
    const Variant fixed = *best_variant(arch);
    std::vector<std::pair<char, char>> layout_list;
    {
        std::stringstream stream(layouts);
        for (std::string l; std::getline(stream, l, ',');) {
            if (l != "NN" && l != "NT" && l != "TN" && l != "TT") {
                std::cerr << "dppgemm-tune: --layouts " << l << ": must be NN, NT, TN or TT\n";
                return 2;
            }
            layout_list.emplace_back(l[0], l[1]);
        }
    }

    if (check && census) {
        std::cerr << "dppgemm-tune: --check and --census: one at a time\n";
        return 2;
    }
    if (census) {
        const std::optional<SizeRange> range = parse_size_range(census_sizes);
        if (!range) {
            std::cerr << "dppgemm-tune: --census-sizes " << census_sizes
                      << ": must be LOW:HIGH with 1 <= LOW <= HIGH\n";
            return 2;
        }
        std::mt19937 rng(seed);
        std::map<Variant, unsigned> chosen;
        for (unsigned i = 0; i < census; ++i) {
            const auto [ta, tb] = layout_list[i % layout_list.size()];
            const int m = draw_size(rng, *range), n = draw_size(rng, *range), k = draw_size(rng, *range);
            ++chosen[*best_variant(arch, ta, tb, m, n, k, table_file)];
        }
        // Most chosen first; equal counts in candidate order.
        std::vector<Variant> order;
        for (Variant v : candidates)
            if (chosen.count(v)) order.push_back(v);
        std::stable_sort(order.begin(), order.end(), [&](Variant x, Variant y) { return chosen[x] > chosen[y]; });
        std::printf(
            "Variant::best on %s (table: %s), %u shapes: M, N and K log-uniform in [%d, %d], none a multiple "
            "of 32, seed %u; layouts %s in turn\n",
            arch.c_str(), table_file.empty() ? "the one Variant::best uses" : table_file.c_str(), census, range->low,
            range->high, seed, layouts.c_str());
        for (Variant v : order)
            std::printf("%-16s %9u %6.1f %%\n", to_string(v), chosen[v], 100.0 * chosen[v] / census);
        return 0;
    }
    if (check) {
        // Held out: off the grid, each layout drawn at random.
        const std::optional<SizeRange> range = parse_size_range(check_sizes);
        if (!range) {
            std::cerr << "dppgemm-tune: --check-sizes " << check_sizes << ": must be LOW:HIGH with 1 <= LOW <= HIGH\n";
            return 2;
        }
        std::mt19937 rng(seed);
        std::uniform_int_distribution<std::size_t> pick_layout(0, layout_list.size() - 1);
        std::vector<Shape> shapes;
        std::vector<Key> keys;
        for (unsigned i = 0; i < check; ++i) {
            const auto [ta, tb] = layout_list[pick_layout(rng)];
            const int m = draw_size(rng, *range), n = draw_size(rng, *range), k = draw_size(rng, *range);
            shapes.push_back({ta, tb, m, n, k});
            for (Variant v : candidates) keys.emplace_back(ta, tb, m, n, k, v);
        }
        const std::map<Key, Modeled> times = model_all(arch, keys, jobs);
        std::printf("%-22s %-16s %10s %-16s %10s %8s %-16s %10s %8s\n", "shape", "table's choice", "ms", "best", "ms",
                    "+%", "fixed rule", "ms", "-%");
        double worst = 0;
        int slower_than_fixed = 0;
        for (const Shape& s : shapes) {
            const Variant chosen = *best_variant(arch, s.ta, s.tb, s.m, s.n, s.k, table_file);
            Variant best = candidates[0];
            const auto t = [&](Variant v) { return times.at({s.ta, s.tb, s.m, s.n, s.k, v}).ms; };
            for (Variant v : candidates)
                if (t(v) < t(best)) best = v;
            const double over = 100 * (t(chosen) / t(best) - 1), under = 100 * (1 - t(chosen) / t(fixed));
            worst = std::max(worst, over);
            slower_than_fixed += t(chosen) > t(fixed);
            std::printf("%-22s %-16s %10.4f %-16s %10.4f %8.2f %-16s %10.4f %8.2f\n", shape_text(s).c_str(),
                        to_string(chosen), t(chosen), to_string(best), t(best), over, to_string(fixed), t(fixed),
                        under);
        }
        // How far the table's estimates are from the full model, every
        // candidate on every shape: the choice is only as good as these.
        std::string table_error;
        if (const std::optional<TuningTable> table = tuning_table_in_use(arch, table_file, table_error)) {
            std::vector<std::pair<double, std::string>> off;  // estimate / modeled - 1, in %
            for (const Shape& s : shapes)
                for (Variant v : candidates)
                    if (const std::optional<double> e = table->estimate(v, s.ta, s.tb, s.m, s.n, s.k))
                        off.emplace_back(100 * (*e / times.at({s.ta, s.tb, s.m, s.n, s.k, v}).ms - 1),
                                         shape_text(s) + " " + to_string(v));
            std::sort(off.begin(), off.end());
            if (!off.empty())
                std::printf(
                    "estimates: %zu kernel times, median %+.2f %% against the full model's, from %+.2f %% (%s) "
                    "to %+.2f %% (%s)\n",
                    off.size(), off[off.size() / 2].first, off.front().first, off.front().second.c_str(),
                    off.back().first, off.back().second.c_str());
        } else {
            std::printf("estimates: not compared (%s)\n", table_error.c_str());
        }
        const bool pass = worst <= 5.0 && slower_than_fixed == 0;
        std::printf(
            "%s: %u shapes on %s (modeled, cycle model): the table's choice at most %.2f %% above the best "
            "kernel (limit 5 %%), slower than the fixed rule on %d\n",
            pass ? "PASS" : "FAIL", check, arch.c_str(), worst, slower_than_fixed);
        return pass ? 0 : 1;
    }

    const std::vector<int> ms = sorted_unique(bench::parse_sweep(sizes_m.empty() ? sizes : sizes_m));
    const std::vector<int> ns = sorted_unique(bench::parse_sweep(sizes_n.empty() ? sizes : sizes_n));
    const std::vector<int> ks = sorted_unique(bench::parse_sweep(sizes_k.empty() ? sizes : sizes_k));
    for (const std::vector<int>* grid : {&ms, &ns, &ks})
        if (grid->front() < 1) {
            std::cerr << "dppgemm-tune: sizes must be at least 1\n";
            return 2;
        }
    const auto spec = bench::gpu_spec(arch);
    if (!spec) {
        std::cerr << "dppgemm-tune: --arch " << arch << ": no board figures for this target\n";
        return 2;
    }
    const int cus = spec->compute_units;
    // The K points: the grid's K up to the cap; above it the table's rows are
    // extended linearly from cap / 2 and cap (the modeled time grows linearly
    // with K: docs/performance-model.md, "Validation").
    const int cap = extrapolate_above;
    std::vector<int> k_points;
    for (int k : ks)
        if (cap == 0 || k <= cap) k_points.push_back(k);
    if (cap > 0 && ks.back() > cap) {
        k_points.push_back(std::max(1, cap / 2));
        k_points.push_back(cap);
    }
    k_points = sorted_unique(k_points);

    // Per candidate, the workgroups on the busiest CU to model: every count
    // up to two rounds and two more (where the rounds settle into steps of
    // equal time), then growing by half up to the grid's largest M x N,
    // which the table then holds without extension. A first launch per
    // candidate gives its workgroups at once on a CU.
    const auto layout0 = layout_list.front();
    const auto key_at = [&](char ta, char tb, int w, int k, Variant v) {
        const int tile = int(variant_info(v)->macro_tile);
        const auto [x, y] = grid_for(w, cus);
        return Key{ta, tb, x * tile, y * tile, k, v};
    };
    std::map<Variant, std::vector<int>> counts;
    {
        std::vector<Key> first;
        for (Variant v : candidates) first.push_back(key_at(layout0.first, layout0.second, 1, k_points.front(), v));
        const std::map<Key, Modeled> once = model_all(arch, first, jobs);
        for (std::size_t i = 0; i < candidates.size(); ++i) {
            const Variant v = candidates[i];
            const std::int64_t tile = variant_info(v)->macro_tile;
            const std::int64_t tiles = ((ms.back() + tile - 1) / tile) * ((ns.back() + tile - 1) / tile);
            const int largest = int(std::max<std::int64_t>(2, (tiles + cus - 1) / cus));
            const int dense = std::min(largest, 2 * int(once.at(first[i]).resident) + 2);
            std::vector<int>& c = counts[v];
            for (int w = 1; w <= dense; ++w) c.push_back(w);
            while (c.back() < largest) c.push_back(std::min(largest, (3 * c.back() + 1) / 2));
        }
    }
    std::map<Key, Modeled> times;
    {
        std::vector<Key> keys;
        for (const auto& [ta, tb] : layout_list)
            for (Variant v : candidates)
                for (int k : k_points)
                    for (int w : counts[v]) keys.push_back(key_at(ta, tb, w, k, v));
        times = model_all(arch, keys, jobs);
    }

    TuningTable table;
    table.target = arch;
    table.compute_units = cus;
    table.tie = tie;
    for (const auto& [ta, tb] : layout_list)
        for (Variant v : candidates)
            for (int k : k_points) {
                TuningRow row;
                row.variant = v;
                row.layout = std::string{ta, tb};
                row.k = k;
                for (int w : counts[v]) {
                    const Modeled& t = times.at(key_at(ta, tb, w, k, v));
                    if (t.on_cu != std::uint64_t(w))
                        throw std::runtime_error("dppgemm-tune: " + std::string(to_string(v)) + " put " +
                                                 std::to_string(t.on_cu) + " workgroups on the busiest CU, not " +
                                                 std::to_string(w));
                    row.points.push_back({w, t.ms});
                }
                table.rows.push_back(row);
            }
    if (ranking)
        for (const auto& [ta, tb] : layout_list)
            for (int m : ms)
                for (int n : ns)
                    for (int k : ks) {
                        const Variant chosen = *table.choose(ta, tb, m, n, k);
                        std::printf("%s:", shape_text({ta, tb, m, n, k}).c_str());
                        for (Variant v : candidates)
                            std::printf(" %s %.4f ms%s%s", to_string(v), *table.estimate(v, ta, tb, m, n, k),
                                        v == chosen ? " (chosen)" : "", v == fixed ? " (fixed rule)" : "");
                        std::printf("\n");
                    }

    std::string candidate_names;
    for (Variant v : candidates) candidate_names += (candidate_names.empty() ? "" : " ") + std::string(to_string(v));
    std::string command = "dppgemm-tune --arch " + arch;
    command += " --sizes " + sizes;
    if (!sizes_m.empty()) command += " -m " + sizes_m;
    if (!sizes_n.empty()) command += " -n " + sizes_n;
    if (!sizes_k.empty()) command += " -k " + sizes_k;
    command += " --layouts " + layouts;
    if (cap != 512) command += " --extrapolate-above " + std::to_string(cap);
    const auto share = [](double x) {
        std::ostringstream out;
        out << x;
        return out.str();
    };
    if (tie != 0.02) command += " --tie " + share(tie);
    const std::string text = format_tuning_table(
        table, {"Written by: " + command,
                "Modeled on the cycle model (not measured: docs/performance-model.md): per kernel, layout and K, the",
                "busiest compute unit's time in ms at w workgroups on it (w:ms). Variant::best estimates each kernel's",
                "time from its tile counts, w = ceil(tiles_m x tiles_n / compute-units), and runs the least; within",
                "the tie share of it, the fixed rule's kernel, else the fewest multiply-adds (docs/tuning.md).",
                "candidates: " + candidate_names});
    if (output.empty()) {
        std::cout << text;
    } else {
        std::ofstream out(output, std::ios::binary);
        out << text;
        if (!out.flush()) {
            std::cerr << "dppgemm-tune: -o " << output << ": cannot write\n";
            return 1;
        }
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {
        std::cerr << e.what() << "\n";
        return 1;
    }
}
