// dppgemm-tune: for a grid of problems and a target, model every kernel
// Variant::best may run (the cycle model on the emulator, only the traced
// workgroups) and write the tuning table of the winners (docs/tuning.md).
// With --check N: N random held-out shapes, each kernel modeled in full, the
// table's choice against the best kernel and the fixed rule.
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
    std::string limit;  // the largest component of the modeled cycles
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
    Modeled out{r.modeled->milliseconds, ""};
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

// K region i of a sorted grid: from just above the geometric mean with value
// i - 1 to the geometric mean with value i + 1 (the first from 1, the last open).
std::vector<TuningRange> regions(const std::vector<int>& grid) {
    std::vector<TuningRange> out;
    std::int64_t low = 1;
    for (std::size_t i = 0; i < grid.size(); ++i) {
        TuningRange r;
        r.low = low;
        if (i + 1 < grid.size()) {
            r.high = std::int64_t(std::floor(std::sqrt(double(grid[i]) * double(grid[i + 1]))));
            low = r.high + 1;
        }
        out.push_back(r);
    }
    return out;
}

int geometric_mean(int a, int b) { return int(std::floor(std::sqrt(double(a) * double(b)))); }

// One dimension (M or N) of a box: the sizes the table's rule covers and the
// sizes modeled for it, its two ends and the geometric mean between them (one
// end only for the boxes below the grid's first value and above its last).
struct Span {
    TuningRange range;
    std::vector<int> samples;
    bool splittable(int min_width) const { return samples.size() == 3 && samples[2] - samples[0] > min_width; }
    // The halves at the middle sample, each with its own middle.
    std::pair<Span, Span> split() const {
        const int a = samples[0], c = samples[1], b = samples[2];
        return {Span{{range.low, c}, {a, geometric_mean(a, c), c}},
                Span{{c + 1, range.high}, {c, geometric_mean(c, b), b}}};
    }
};

// The spans of a sorted grid: one from 1 to the first value, one between
// each pair of neighbours, one open above the last value.
std::vector<Span> spans(const std::vector<int>& grid) {
    std::vector<Span> out;
    out.push_back({{1, grid.front()}, {grid.front()}});
    for (std::size_t i = 1; i < grid.size(); ++i)
        out.push_back({{grid[i - 1] + 1, grid[i]}, {grid[i - 1], geometric_mean(grid[i - 1], grid[i]), grid[i]}});
    TuningRange last;
    last.low = grid.back() + 1;
    out.push_back({last, {grid.back()}});
    return out;
}

// A box of (M, N) for one layout: the kernels compared in it and, per K
// region, the one chosen.
struct Box {
    char ta, tb;
    Span m, n;
    int depth = 0;
    std::vector<Variant> contenders;
    std::vector<Variant> chosen;
    // The box's corners and its middle.
    std::vector<std::pair<int, int>> samples() const {
        std::vector<std::pair<int, int>> out;
        for (int sm : {m.samples.front(), m.samples.back()})
            for (int sn : {n.samples.front(), n.samples.back()}) out.emplace_back(sm, sn);
        out.emplace_back(m.samples[m.samples.size() / 2], n.samples[n.samples.size() / 2]);
        std::sort(out.begin(), out.end());
        out.erase(std::unique(out.begin(), out.end()), out.end());
        return out;
    }
};

std::vector<int> sorted_unique(std::vector<int> v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
}

int run(int argc, char** argv) {
    CLI::App app{"dppgemm-tune: the kernel Variant::best runs per problem, chosen on the cycle model (modeled)",
                 "dppgemm-tune"};
    std::string arch = default_emu_target, sizes = "128:4096:x2", sizes_m, sizes_n, sizes_k, layouts = "NN,NT,TN,TT";
    std::string output, table_file;
    unsigned jobs = 1, check = 0, seed = 1;
    int extrapolate_above = 512;
    double tolerance = 0.04, margin = 0.1;
    int max_splits = 1;
    bool ranking = false;
    app.add_option("--arch", arch, "target (default " + std::string(default_emu_target) + ")");
    app.add_option("--sizes", sizes,
                   "M, N and K values: START:END:xFACTOR, START:END:+STEP or a list (default "
                   "128:4096:x2)");
    app.add_option("-m", sizes_m, "M values (default: --sizes)");
    app.add_option("-n", sizes_n, "N values (default: --sizes)");
    app.add_option("-k", sizes_k, "K values (default: --sizes)");
    app.add_option("--layouts", layouts, "layouts, of NN,NT,TN,TT (default all four)");
    app.add_option("-o,--output", output, "write the table to FILE (default: stdout)");
    app.add_option("-j,--jobs", jobs, "launches modeled at once, one host thread each (default 1)")
        ->check(CLI::Range(1u, 64u));
    app.add_option("--extrapolate-above", extrapolate_above,
                   "K above this is modeled at K/2 and K and extended linearly (0: model every K; default 512)")
        ->check(CLI::Range(0, 1 << 30));
    app.add_option("--tolerance", tolerance,
                   "split a box while its choice models more than this share above the fastest kernel at one of "
                   "its samples (default 0.04)")
        ->check(CLI::Range(0.0, 1.0));
    app.add_option("--margin", margin,
                   "another kernel than the fixed rule's only where it models faster by this share at every sample of "
                   "the box (default 0.1)")
        ->check(CLI::Range(0.0, 1.0));
    app.add_option("--max-splits", max_splits, "times a box may be split (default 1)")->check(CLI::Range(0, 8));
    app.add_flag("--ranking", ranking, "print every kernel's modeled time per problem on stdout");
    app.add_option("--check", check,
                   "held-out check: N random shapes, every kernel modeled in full (no table written)");
    app.add_option("--seed", seed, "--check: the shapes' seed (default 1)");
    app.add_option("--table", table_file, "--check: the table to check (default: the one Variant::best uses)");
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

    if (check) {
        // Held out: sizes log-uniform in [100, 4000], none a multiple of 32.
        std::mt19937 rng(seed);
        std::uniform_real_distribution<double> log_size(std::log(100.0), std::log(4000.0));
        std::uniform_int_distribution<std::size_t> pick_layout(0, layout_list.size() - 1);
        const auto size = [&] {
            int s = int(std::exp(log_size(rng)));
            return s % 32 == 0 ? s + 1 : s;
        };
        std::vector<Shape> shapes;
        std::vector<Key> keys;
        for (unsigned i = 0; i < check; ++i) {
            const auto [ta, tb] = layout_list[pick_layout(rng)];
            const int m = size(), n = size(), k = size();
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
    // K above the cap: the model at cap / 2 and cap, extended linearly (the
    // modeled time grows linearly with K: docs/performance-model.md, "Validation").
    const int cap = extrapolate_above;
    const int low_k = std::max(1, cap / 2);
    const auto extrapolated = [&](int k) { return cap > 0 && k > cap; };
    // The keys that model (ta, tb, m, n, k) for `variant`: K itself, or the two K it is extended from.
    const auto keys_of = [&](char ta, char tb, int m, int n, int k, Variant v, std::vector<Key>& keys) {
        if (!extrapolated(k)) {
            keys.emplace_back(ta, tb, m, n, k, v);
            return;
        }
        keys.emplace_back(ta, tb, m, n, low_k, v);
        keys.emplace_back(ta, tb, m, n, cap, v);
    };
    std::map<Key, Modeled> times;
    const auto model_missing = [&](std::vector<Key> keys) {
        std::sort(keys.begin(), keys.end());
        keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
        keys.erase(std::remove_if(keys.begin(), keys.end(), [&](const Key& key) { return times.count(key) != 0; }),
                   keys.end());
        for (auto& [key, t] : model_all(arch, keys, jobs)) times.emplace(key, t);
    };
    const auto time_of = [&](char ta, char tb, int m, int n, int k, Variant v) {
        if (!extrapolated(k)) return times.at({ta, tb, m, n, k, v}).ms;
        const double at_cap = times.at({ta, tb, m, n, cap, v}).ms, at_low = times.at({ta, tb, m, n, low_k, v}).ms;
        return at_cap + (at_cap - at_low) * double(k - cap) / double(cap - low_k);
    };

    // Every candidate on the grid.
    {
        std::vector<Key> keys;
        for (const auto& [ta, tb] : layout_list)
            for (int m : ms)
                for (int n : ns)
                    for (int k : ks)
                        for (Variant v : candidates) keys_of(ta, tb, m, n, k, v, keys);
        model_missing(keys);
    }
    if (ranking)
        for (const auto& [ta, tb] : layout_list)
            for (int m : ms)
                for (int n : ns)
                    for (int k : ks) {
                        Variant best = candidates[0];
                        for (Variant v : candidates)
                            if (time_of(ta, tb, m, n, k, v) < time_of(ta, tb, m, n, k, best)) best = v;
                        std::printf("%s:", shape_text({ta, tb, m, n, k}).c_str());
                        for (Variant v : candidates)
                            std::printf(" %s %.4f ms%s%s", to_string(v), time_of(ta, tb, m, n, k, v),
                                        v == best ? " (best)" : "", v == fixed ? " (fixed rule)" : "");
                        std::printf("%s\n", extrapolated(k) ? " [K extrapolated]" : "");
                    }

    // Boxes between grid values. A box's contenders are the fixed rule's
    // kernel and, per macro tile, each kernel that is the tile's fastest at a
    // grid point of the box: kernels of one macro tile have the same tile
    // counts, so their order at the grid points holds between them, while
    // kernels of different tiles trade places with the tile counts.
    std::vector<Box> pending;
    for (const auto& [ta, tb] : layout_list)
        for (const Span& m : spans(ms))
            for (const Span& n : spans(ns)) {
                Box box{ta, tb, m, n, 0, {}, {}};
                box.contenders.push_back(fixed);
                for (int gm : {m.samples.front(), m.samples.back()})
                    for (int gn : {n.samples.front(), n.samples.back()})
                        for (int k : ks) {
                            std::map<unsigned, Variant> fastest;
                            for (Variant v : candidates) {
                                const unsigned tile = variant_info(v)->macro_tile;
                                const auto it = fastest.find(tile);
                                if (it == fastest.end() ||
                                    time_of(ta, tb, gm, gn, k, v) < time_of(ta, tb, gm, gn, k, it->second))
                                    fastest[tile] = v;
                            }
                            for (const auto& [tile, v] : fastest)
                                if (std::find(box.contenders.begin(), box.contenders.end(), v) == box.contenders.end())
                                    box.contenders.push_back(v);
                        }
                pending.push_back(box);
            }

    // Per box and K region, the fixed rule's kernel, or among the contenders
    // faster than it by --margin at every sample of the box (its corners and
    // middle), the one whose largest ratio to the fastest contender over the
    // samples is least. The samples are multiples of the tiles or not, and
    // tile counts quantise the time between them: the margin keeps the fixed
    // rule where another kernel's gain is thin. A box where the choice's ratio
    // exceeds 1 + tolerance at some K is split at its middle samples, down to
    // --max-splits times.
    unsigned max_tile = 0;
    for (Variant v : candidates) max_tile = std::max(max_tile, variant_info(v)->macro_tile);
    std::vector<Box> leaves;
    while (!pending.empty()) {
        std::vector<Key> keys;
        for (const Box& box : pending)
            for (const auto& [m, n] : box.samples())
                for (int k : ks)
                    for (Variant v : box.contenders) keys_of(box.ta, box.tb, m, n, k, v, keys);
        model_missing(keys);
        std::vector<Box> next;
        for (Box& box : pending) {
            bool within = true;
            for (int k : ks) {
                Variant chosen = fixed;
                double chosen_worst = 0;
                for (Variant v : box.contenders) {
                    bool clearly_faster = true;
                    double worst = 0;
                    for (const auto& [m, n] : box.samples()) {
                        const double t = time_of(box.ta, box.tb, m, n, k, v);
                        double fastest = t;
                        for (Variant w : box.contenders)
                            fastest = std::min(fastest, time_of(box.ta, box.tb, m, n, k, w));
                        worst = std::max(worst, t / fastest);
                        clearly_faster = clearly_faster && t <= (1 - margin) * time_of(box.ta, box.tb, m, n, k, fixed);
                    }
                    if (v == fixed || (clearly_faster && worst < chosen_worst)) chosen = v, chosen_worst = worst;
                }
                box.chosen.push_back(chosen);
                within = within && chosen_worst <= 1 + tolerance;
            }
            const bool split_m = box.m.splittable(2 * int(max_tile)), split_n = box.n.splittable(2 * int(max_tile));
            if (within || box.depth >= max_splits || (!split_m && !split_n)) {
                leaves.push_back(box);
                continue;
            }
            box.chosen.clear();
            ++box.depth;
            const auto [m_low, m_high] = split_m ? box.m.split() : std::pair{box.m, box.m};
            const auto [n_low, n_high] = split_n ? box.n.split() : std::pair{box.n, box.n};
            for (const Span* m : {&m_low, &m_high}) {
                if (!split_m && m == &m_high) continue;
                for (const Span* n : {&n_low, &n_high}) {
                    if (!split_n && n == &n_high) continue;
                    Box part = box;
                    part.m = *m;
                    part.n = *n;
                    next.push_back(part);
                }
            }
        }
        pending = std::move(next);
    }
    std::sort(leaves.begin(), leaves.end(), [](const Box& x, const Box& y) {
        return std::tuple(x.ta, x.tb, x.m.range.low, x.n.range.low) <
               std::tuple(y.ta, y.tb, y.m.range.low, y.n.range.low);
    });

    TuningTable table;
    table.target = arch;
    const std::vector<TuningRange> k_regions = regions(ks);
    for (const Box& box : leaves)
        for (std::size_t ik = 0; ik < ks.size(); ++ik) {
            // Neighbouring K regions with the same choice are one rule.
            if (ik > 0 && box.chosen[ik] == box.chosen[ik - 1]) {
                table.rules.back().k.high = k_regions[ik].high;
                continue;
            }
            table.rules.push_back(
                {std::string{box.ta, box.tb}, box.m.range, box.n.range, k_regions[ik], box.chosen[ik]});
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
    if (margin != 0.1) command += " --margin " + share(margin);
    if (tolerance != 0.04) command += " --tolerance " + share(tolerance);
    if (max_splits != 1) command += " --max-splits " + std::to_string(max_splits);
    const std::string text = format_tuning_table(
        table, {"Written by: " + command,
                "Chosen on the cycle model (modeled, not measured: docs/performance-model.md): per box of M and N",
                "between grid values, sampled at its corners and middle, the fixed rule's " +
                    std::string(to_string(fixed)) + " or, among the kernels",
                "faster than it by " + share(100 * margin) +
                    " % at every sample, the one with the least worst ratio to the fastest; boxes split while",
                "that ratio exceeds 1 + " + share(tolerance) + ", to depth " + std::to_string(max_splits) + ".",
                "K regions reach to the geometric means of neighbouring grid values; K above " + std::to_string(cap) +
                    " modeled at K = " + std::to_string(low_k) + " and " + std::to_string(cap) +
                    " and extended linearly (0: none).",
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
