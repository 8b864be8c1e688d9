// Tuning tables: the one reader and writer of the format (docs/tuning.md),
// the shipped tables, and what Variant::best runs per problem.
#include "backend.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <mutex>
#include <sstream>
#include <tuple>

namespace dppgemm {

namespace {

constexpr std::string_view kMagic = "dppgemm-tuning-table";
constexpr std::string_view kVersion = "2";
constexpr std::int64_t kMaxCount = std::numeric_limits<int>::max();

struct ShippedTable {
    const char* target;
    const char* text;
};
// host/tuning/<target>.tune, embedded by host/CMakeLists.txt.
constexpr ShippedTable kShipped[] = {
#include "tuning_tables.inc"
    {nullptr, nullptr}};

std::vector<std::string_view> fields_of(std::string_view line) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
        std::size_t j = i;
        while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != '\r') ++j;
        if (j > i) out.push_back(line.substr(i, j - i));
        i = j;
    }
    return out;
}

// 1 .. 2147483647, decimal digits only.
std::optional<std::int64_t> parse_count(std::string_view text) {
    if (text.empty() || text.size() > 10) return std::nullopt;
    std::int64_t value = 0;
    for (char c : text) {
        if (c < '0' || c > '9') return std::nullopt;
        value = value * 10 + (c - '0');
    }
    if (value < 1 || value > kMaxCount) return std::nullopt;
    return value;
}

// A finite decimal number >= 0 ("0.0263", "1e-3").
std::optional<double> parse_number(std::string_view text) {
    if (text.empty() || text.size() > 40 || text[0] == '-' || text[0] == '+') return std::nullopt;
    for (char c : text)
        if (!((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '-' || c == '+')) return std::nullopt;
    const std::string copy(text);
    char* end = nullptr;
    const double value = std::strtod(copy.c_str(), &end);
    if (end != copy.c_str() + copy.size() || !std::isfinite(value) || value < 0) return std::nullopt;
    return value;
}

std::string format_number(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", value);
    return text;
}

bool is_layout(std::string_view layout) { return layout == "NN" || layout == "NT" || layout == "TN" || layout == "TT"; }

std::string names_of(const std::vector<Variant>& variants) {
    std::string out;
    for (Variant v : variants) out += (out.empty() ? "" : ", ") + std::string(to_string(v));
    return out;
}

// Linear through (x0, y0) and (x1, y1), at x.
double line_through(double x0, double y0, double x1, double y1, double x) {
    return x1 == x0 ? y0 : y0 + (y1 - y0) * (x - x0) / (x1 - x0);
}

// The row's time at `workgroups` on the busiest compute unit: linear between
// its points, extended from the nearest two outside them.
double time_at(const TuningRow& row, double workgroups) {
    const std::vector<TuningPoint>& p = row.points;
    if (p.size() == 1) return p[0].milliseconds;
    std::size_t i = 1;
    while (i + 1 < p.size() && double(p[i].workgroups) < workgroups) ++i;
    return line_through(double(p[i - 1].workgroups), p[i - 1].milliseconds, double(p[i].workgroups), p[i].milliseconds,
                        workgroups);
}

char layout_letter(char trans) { return trans == 'N' || trans == 'n' ? 'N' : 'T'; }

std::int64_t tiles(std::int64_t size, std::int64_t tile) { return (size + tile - 1) / tile; }

}  // namespace

std::optional<double> TuningTable::estimate(Variant variant, char trans_a, char trans_b, std::int64_t m, std::int64_t n,
                                            std::int64_t k) const {
    const VariantInfo* info = variant_info(variant);
    if (!info) return std::nullopt;
    const char layout[3] = {layout_letter(trans_a), layout_letter(trans_b), 0};
    // The rows of the variant and layout, by K.
    std::vector<const TuningRow*> by_k;
    for (const TuningRow& row : rows)
        if (row.variant == variant && row.layout == layout) by_k.push_back(&row);
    if (by_k.empty()) return std::nullopt;
    std::sort(by_k.begin(), by_k.end(), [](const TuningRow* x, const TuningRow* y) { return x->k < y->k; });
    const std::int64_t tile = info->macro_tile;
    const std::int64_t workgroups =
        tiles(std::max<std::int64_t>(m, 1), tile) * tiles(std::max<std::int64_t>(n, 1), tile);
    const double on_cu = double((workgroups + compute_units - 1) / compute_units);
    if (by_k.size() == 1) return std::max(0.0, time_at(*by_k[0], on_cu));
    std::size_t i = 1;
    while (i + 1 < by_k.size() && by_k[i]->k < k) ++i;
    const double t = line_through(double(by_k[i - 1]->k), time_at(*by_k[i - 1], on_cu), double(by_k[i]->k),
                                  time_at(*by_k[i], on_cu), double(k));
    return std::max(0.0, t);
}

std::optional<Variant> TuningTable::choose(char trans_a, char trans_b, std::int64_t m, std::int64_t n,
                                           std::int64_t k) const {
    std::vector<std::pair<Variant, double>> estimated;
    double least = std::numeric_limits<double>::infinity();
    for (Variant v : best_candidates(target))
        if (const auto t = estimate(v, trans_a, trans_b, m, n, k)) {
            estimated.emplace_back(v, *t);
            least = std::min(least, *t);
        }
    if (estimated.empty()) return std::nullopt;
    // Equal within `tie`: the fixed rule's kernel (a table never trades it for
    // one it cannot tell apart from it), else the least work, then the fixed
    // rule's order.
    const std::optional<Variant> fixed = best_variant(target);
    for (const auto& [v, t] : estimated)
        if (v == fixed && t <= least * (1 + tie)) return v;
    const auto work = [&](Variant v) {
        const std::int64_t tile = variant_info(v)->macro_tile;
        return double(tiles(std::max<std::int64_t>(m, 1), tile) * tiles(std::max<std::int64_t>(n, 1), tile)) *
               double(tile * tile);
    };
    std::optional<Variant> chosen;
    for (const auto& [v, t] : estimated) {
        if (t > least * (1 + tie)) continue;
        if (!chosen) {
            chosen = v;
            continue;
        }
        const VariantInfo *x = variant_info(v), *y = variant_info(*chosen);
        if (std::tuple(work(v), x->extra_valu_per_step, x->lds_read_requests_per_step) <
            std::tuple(work(*chosen), y->extra_valu_per_step, y->lds_read_requests_per_step))
            chosen = v;
    }
    return chosen;
}

std::optional<TuningTable> parse_tuning_table(std::string_view text, std::string_view origin, std::string& error) {
    TuningTable table;
    std::vector<Variant> candidates;
    int line_number = 0, header_lines = 0;
    const auto fail = [&](const std::string& why) {
        error = std::string(origin) + ":" + std::to_string(line_number) + ": " + why;
        return std::nullopt;
    };
    const char* header[] = {"", "target <processor>", "compute-units <count>", "tie <share>"};
    const char* ordinal[] = {"first", "second", "third", "fourth"};
    while (!text.empty()) {
        const std::size_t end = text.find('\n');
        std::string_view line = text.substr(0, end);
        text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
        ++line_number;
        if (const std::size_t hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
        const std::vector<std::string_view> f = fields_of(line);
        if (f.empty()) continue;
        if (header_lines == 0) {
            if (f.size() != 2 || f[0] != kMagic)
                return fail("expected '" + std::string(kMagic) + " " + std::string(kVersion) + "' first, found '" +
                            std::string(line) + "'");
            if (f[1] != kVersion)
                return fail("format version '" + std::string(f[1]) + "' is not " + std::string(kVersion));
            ++header_lines;
            continue;
        }
        if (header_lines < 4) {
            const std::string_view key =
                std::string_view(header[header_lines]).substr(0, std::string_view(header[header_lines]).find(' '));
            if (f.size() != 2 || f[0] != key)
                return fail("expected '" + std::string(header[header_lines]) + "' " + ordinal[header_lines] +
                            ", found '" + std::string(line) + "'");
            if (header_lines == 1) {
                table.target = std::string(f[1]);
                candidates = best_candidates(table.target);
                if (candidates.empty()) return fail("target '" + table.target + "' has no kernels in this library");
            } else if (header_lines == 2) {
                const auto units = parse_count(f[1]);
                if (!units) return fail("compute-units '" + std::string(f[1]) + "' is not a count 1..2147483647");
                table.compute_units = *units;
            } else {
                const auto tie = parse_number(f[1]);
                if (!tie || *tie >= 1) return fail("tie '" + std::string(f[1]) + "' is not a share 0 <= x < 1");
                table.tie = *tie;
            }
            ++header_lines;
            continue;
        }
        if (f.size() < 4)
            return fail("expected a row 'variant layout k workgroups:ms ...', found " + std::to_string(f.size()) +
                        " fields: '" + std::string(line) + "'");
        TuningRow row;
        row.line = line_number;
        const auto variant = parse_variant(f[0]);
        if (!variant || *variant == Variant::best)
            return fail("variant '" + std::string(f[0]) + "' is not a row of the variant table");
        if (std::find(candidates.begin(), candidates.end(), *variant) == candidates.end())
            return fail("variant '" + std::string(f[0]) + "' is not one Variant::best may run on " + table.target +
                        " (" + names_of(candidates) + ")");
        row.variant = *variant;
        row.layout = std::string(f[1]);
        if (!is_layout(row.layout)) return fail("layout '" + row.layout + "' is not NN, NT, TN or TT");
        const auto k = parse_count(f[2]);
        if (!k) return fail("k '" + std::string(f[2]) + "' is not a count 1..2147483647");
        row.k = *k;
        for (const TuningRow& other : table.rows)
            if (other.variant == row.variant && other.layout == row.layout && other.k == row.k)
                return fail("a second row for " + std::string(f[0]) + " " + row.layout + " k " + std::string(f[2]) +
                            " (the first is line " + std::to_string(other.line) + ")");
        for (std::size_t i = 3; i < f.size(); ++i) {
            const std::size_t colon = f[i].find(':');
            const auto workgroups = colon == std::string_view::npos ? std::nullopt : parse_count(f[i].substr(0, colon));
            const auto ms = colon == std::string_view::npos ? std::nullopt : parse_number(f[i].substr(colon + 1));
            if (!workgroups || !ms)
                return fail("point '" + std::string(f[i]) +
                            "' is not workgroups:ms (a count 1..2147483647, a number >= 0)");
            if (!row.points.empty() && *workgroups <= row.points.back().workgroups)
                return fail("point '" + std::string(f[i]) + "': workgroups must ascend (after " +
                            std::to_string(row.points.back().workgroups) + ")");
            row.points.push_back({*workgroups, *ms});
        }
        table.rows.push_back(row);
    }
    if (header_lines < 4) {
        error = std::string(origin) + ": " +
                (header_lines == 0 ? "no '" + std::string(kMagic) + " " + std::string(kVersion) + "' line"
                                   : "no '" + std::string(header[header_lines]) + "' line");
        return std::nullopt;
    }
    return table;
}

std::string format_tuning_table(const TuningTable& table, const std::vector<std::string>& comments) {
    std::ostringstream out;
    for (const std::string& c : comments) out << "# " << c << "\n";
    out << kMagic << " " << kVersion << "\n";
    out << "target " << table.target << "\n";
    out << "compute-units " << table.compute_units << "\n";
    out << "tie " << format_number(table.tie) << "\n";
    const auto padded = [](std::string text, std::size_t width) {
        text.resize(std::max(width, text.size() + 1), ' ');
        return text;
    };
    out << padded("# variant", 18) << padded("layout", 7) << padded("k", 7) << "workgroups:ms\n";
    for (const TuningRow& row : table.rows) {
        out << padded(to_string(row.variant), 18) << padded(row.layout, 7) << padded(std::to_string(row.k), 7);
        for (std::size_t i = 0; i < row.points.size(); ++i)
            out << (i ? " " : "") << row.points[i].workgroups << ":" << format_number(row.points[i].milliseconds);
        out << "\n";
    }
    return out.str();
}

std::string_view shipped_tuning_table(std::string_view target) {
    const std::string base = detail::base_arch(std::string(target));
    for (const ShippedTable* t = kShipped; t->target; ++t)
        if (base == t->target) return t->text;
    return {};
}

namespace {

struct LoadedTable {
    std::optional<TuningTable> table;
    std::string error;
};

void warn_once(const std::string& why) {
    static std::atomic<bool> said{false};
    if (!said.exchange(true))
        std::fprintf(stderr, "dppgemm: tuning table %s; Variant::best runs the fixed rule (best_variant) instead\n",
                     why.c_str());
}

// Each table is read and parsed once per process.
const LoadedTable& load(const std::string& file, const std::string& target) {
    static std::mutex mutex;
    static std::map<std::string, LoadedTable> loaded;
    const std::string key = file.empty() ? "\n" + target : file;
    std::lock_guard<std::mutex> lock(mutex);
    const auto [slot, fresh] = loaded.try_emplace(key);
    if (!fresh) return slot->second;
    LoadedTable& t = slot->second;
    if (file.empty()) {
        const std::string_view text = shipped_tuning_table(target);
        if (!text.empty()) t.table = parse_tuning_table(text, "shipped " + target + ".tune", t.error);
        return t;
    }
    std::ifstream in(file, std::ios::binary);
    std::stringstream text;
    if (in) text << in.rdbuf();
    if (!in || in.bad()) {
        t.error = "'" + file + "' cannot be read";
        return t;
    }
    t.table = parse_tuning_table(text.str(), file, t.error);
    return t;
}

// The table Variant::best asks for `base` (Options::tuning_table, else
// $DPPGEMM_TUNING_TABLE, else the shipped one), or null with `error` saying
// why it is not used (empty when the target ships none).
const TuningTable* table_in_use(const std::string& base, const std::string& tuning_table, std::string& error) {
    std::string file = tuning_table;
    if (file.empty())
        if (const char* env = std::getenv("DPPGEMM_TUNING_TABLE")) file = env;
    const LoadedTable& loaded = load(file, base);
    if (!loaded.table) {
        error = loaded.error;
        return nullptr;
    }
    if (loaded.table->target != base) {
        error = "'" + file + "' is for " + loaded.table->target + ", not " + base;
        return nullptr;
    }
    return &*loaded.table;
}

}  // namespace

std::optional<TuningTable> tuning_table_in_use(std::string_view target, const std::string& tuning_table,
                                               std::string& error) {
    const std::string base = detail::base_arch(std::string(target));
    const TuningTable* table = table_in_use(base, tuning_table, error);
    if (!table) {
        if (error.empty()) error = "no tuning table for " + base;
        return std::nullopt;
    }
    return *table;
}

std::optional<Variant> best_variant(std::string_view target, char trans_a, char trans_b, std::int64_t m, std::int64_t n,
                                    std::int64_t k, const std::string& tuning_table) {
    const std::string base = detail::base_arch(std::string(target));
    std::string error;
    const TuningTable* table = table_in_use(base, tuning_table, error);
    if (!table) {
        if (!error.empty()) warn_once(error);
        return best_variant(base);
    }
    // A BLAS program repeats a few shapes millions of times (LAPACK's
    // testers: 2.3 million SGEMM calls), and a table's estimate of every
    // row cost about 7% of a 1x1x1 call's host instructions: each thread
    // keeps its last choices. Tables are never unloaded, so their address
    // names them.
    struct Recent {
        const TuningTable* table = nullptr;
        char trans_a = 0, trans_b = 0;
        std::int64_t m = 0, n = 0, k = 0;
        std::optional<Variant> chosen;
    };
    thread_local std::array<Recent, 64> recent;
    const std::size_t slot =
        std::size_t(m * 31 + n * 17 + k * 7 + trans_a * 3 + trans_b) % recent.size();  // any spread will do
    Recent& r = recent[slot];
    if (r.table == table && r.trans_a == trans_a && r.trans_b == trans_b && r.m == m && r.n == n && r.k == k)
        return r.chosen;
    std::optional<Variant> chosen = table->choose(trans_a, trans_b, m, n, k);
    if (!chosen) chosen = best_variant(base);
    r = {table, trans_a, trans_b, m, n, k, chosen};
    return chosen;
}

}  // namespace dppgemm
