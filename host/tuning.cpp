// Tuning tables: the one reader and writer of the format (docs/tuning.md),
// the shipped tables, and what Variant::best runs per problem.
#include "backend.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <mutex>
#include <sstream>

namespace dppgemm {

namespace {

constexpr std::string_view kMagic = "dppgemm-tuning-table";
constexpr std::string_view kVersion = "1";
constexpr std::int64_t kMaxDimension = std::numeric_limits<int>::max();

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

std::optional<std::int64_t> parse_dimension(std::string_view text) {
    if (text.empty() || text.size() > 10) return std::nullopt;
    std::int64_t value = 0;
    for (char c : text) {
        if (c < '0' || c > '9') return std::nullopt;
        value = value * 10 + (c - '0');
    }
    if (value < 1 || value > kMaxDimension) return std::nullopt;
    return value;
}

// "*", "A", "A..", "A..B"
std::optional<TuningRange> parse_range(std::string_view text) {
    if (text == "*") return TuningRange{};
    const std::size_t dots = text.find("..");
    if (dots == std::string_view::npos) {
        const auto value = parse_dimension(text);
        if (!value) return std::nullopt;
        return TuningRange{*value, *value};
    }
    const auto low = parse_dimension(text.substr(0, dots));
    const std::string_view rest = text.substr(dots + 2);
    const auto high = rest.empty() ? std::optional<std::int64_t>(kMaxDimension) : parse_dimension(rest);
    if (!low || !high || *low > *high) return std::nullopt;
    return TuningRange{*low, *high};
}

std::string format_range(const TuningRange& r) {
    if (r.low == 1 && r.high == kMaxDimension) return "*";
    if (r.high == kMaxDimension) return std::to_string(r.low) + "..";
    if (r.low == r.high) return std::to_string(r.low);
    return std::to_string(r.low) + ".." + std::to_string(r.high);
}

std::string names_of(const std::vector<Variant>& variants) {
    std::string out;
    for (Variant v : variants) out += (out.empty() ? "" : ", ") + std::string(to_string(v));
    return out;
}

}  // namespace

const TuningRule* TuningTable::find(char trans_a, char trans_b, std::int64_t m, std::int64_t n, std::int64_t k) const {
    const char layout[3] = {trans_a == 'N' || trans_a == 'n' ? 'N' : 'T', trans_b == 'N' || trans_b == 'n' ? 'N' : 'T',
                            0};
    for (const TuningRule& rule : rules)
        if ((rule.layout == "*" || rule.layout == layout) && rule.m.contains(m) && rule.n.contains(n) &&
            rule.k.contains(k))
            return &rule;
    return nullptr;
}

std::optional<TuningTable> parse_tuning_table(std::string_view text, std::string_view origin, std::string& error) {
    TuningTable table;
    std::vector<Variant> candidates;
    int line_number = 0, header_lines = 0;
    const auto fail = [&](const std::string& why) {
        error = std::string(origin) + ":" + std::to_string(line_number) + ": " + why;
        return std::nullopt;
    };
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
        if (header_lines == 1) {
            if (f.size() != 2 || f[0] != "target")
                return fail("expected 'target <processor>' second, found '" + std::string(line) + "'");
            table.target = std::string(f[1]);
            candidates = best_candidates(table.target);
            if (candidates.empty()) return fail("target '" + table.target + "' has no kernels in this library");
            ++header_lines;
            continue;
        }
        if (f.size() != 5)
            return fail("expected 5 fields (layout m n k variant), found " + std::to_string(f.size()) + ": '" +
                        std::string(line) + "'");
        TuningRule rule;
        rule.line = line_number;
        rule.layout = std::string(f[0]);
        if (rule.layout != "NN" && rule.layout != "NT" && rule.layout != "TN" && rule.layout != "TT" &&
            rule.layout != "*")
            return fail("layout '" + rule.layout + "' is not NN, NT, TN, TT or *");
        const char* names[3] = {"m", "n", "k"};
        TuningRange* ranges[3] = {&rule.m, &rule.n, &rule.k};
        for (int d = 0; d < 3; ++d) {
            const auto range = parse_range(f[1 + d]);
            if (!range)
                return fail(std::string(names[d]) + " range '" + std::string(f[1 + d]) +
                            "' is not *, A, A.. or A..B with 1 <= A <= B <= 2147483647");
            *ranges[d] = *range;
        }
        const auto variant = parse_variant(f[4]);
        if (!variant || *variant == Variant::best)
            return fail("variant '" + std::string(f[4]) + "' is not a row of the variant table");
        bool candidate = false;
        for (Variant v : candidates) candidate |= v == *variant;
        if (!candidate)
            return fail("variant '" + std::string(f[4]) + "' is not one Variant::best may run on " + table.target +
                        " (" + names_of(candidates) + ")");
        rule.variant = *variant;
        table.rules.push_back(rule);
    }
    if (header_lines < 2) {
        error = std::string(origin) + ": " +
                (header_lines == 0 ? "no '" + std::string(kMagic) + " " + std::string(kVersion) + "' line"
                                   : "no 'target <processor>' line");
        return std::nullopt;
    }
    return table;
}

std::string format_tuning_table(const TuningTable& table, const std::vector<std::string>& comments) {
    std::ostringstream out;
    for (const std::string& c : comments) out << "# " << c << "\n";
    out << kMagic << " " << kVersion << "\n";
    out << "target " << table.target << "\n";
    const auto padded = [](std::string text, std::size_t width) {
        text.resize(std::max(width, text.size() + 1), ' ');
        return text;
    };
    out << padded("# layout", 10) << padded("m", 13) << padded("n", 13) << padded("k", 13) << "variant\n";
    for (const TuningRule& rule : table.rules)
        out << padded(rule.layout, 10) << padded(format_range(rule.m), 13) << padded(format_range(rule.n), 13)
            << padded(format_range(rule.k), 13) << to_string(rule.variant) << "\n";
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

}  // namespace

std::optional<Variant> best_variant(std::string_view target, char trans_a, char trans_b, std::int64_t m, std::int64_t n,
                                    std::int64_t k, const std::string& tuning_table) {
    const std::string base = detail::base_arch(std::string(target));
    std::string file = tuning_table;
    if (file.empty())
        if (const char* env = std::getenv("DPPGEMM_TUNING_TABLE")) file = env;
    const LoadedTable& loaded = load(file, base);
    if (!loaded.table) {
        if (!loaded.error.empty()) warn_once(loaded.error);
        return best_variant(base);
    }
    if (loaded.table->target != base) {
        warn_once("'" + file + "' is for " + loaded.table->target + ", not " + base);
        return best_variant(base);
    }
    if (const TuningRule* rule = loaded.table->find(trans_a, trans_b, m, n, k)) return rule->variant;
    return best_variant(base);
}

}  // namespace dppgemm
