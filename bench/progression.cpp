#include "progression.hpp"

#include "dppgemm/kernargs.h"
#include "dppgemm/progression.hpp"
#include "dppgemm/reference.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <ostream>
#include <random>
#include <sstream>

namespace dppgemm::bench {

namespace {

std::string format(const char* pattern, double value) {
    char text[64];
    std::snprintf(text, sizeof text, pattern, value);
    return text;
}

std::string element(const char* name, int row, int col, float got, float expected) {
    char text[160];
    std::snprintf(text, sizeof text, "%s(%d,%d) = %.9g but the same-order reference gives %.9g", name, row, col, got,
                  expected);
    return text;
}

// The C tile of each traced workgroup, bit for bit against the same-order
// reference computed for that tile alone.
StepCheck check_traced_tiles(const Problem& p, const std::vector<float>& c, const Result& r, MacKind mac,
                             unsigned tile_m, unsigned tile_n) {
    StepCheck check;
    if (!r.modeled) return check;
    std::vector<float> expected = p.c0;
    for (const auto& wg : r.modeled->traced_workgroups) {
        const int m0 = int(wg[0] * tile_m), n0 = int(wg[1] * tile_n);
        const int rows = std::min(int(tile_m), p.m - m0), cols = std::min(int(tile_n), p.n - n0);
        if (rows <= 0 || cols <= 0) continue;
        reference_sgemm(mac, 'N', 'N', rows, cols, p.k, p.alpha, p.a.data() + m0, p.lda,
                        p.b.data() + std::size_t(n0) * p.ldb, p.ldb, p.beta, expected.data() + p.at(m0, n0), p.ldc);
        for (int j = n0; j < n0 + cols; ++j)
            for (int i = m0; i < m0 + rows; ++i) {
                ++check.checked;
                if (std::memcmp(&c[p.at(i, j)], &expected[p.at(i, j)], 4) == 0) continue;
                if (!check.mismatches++) check.first_mismatch = element("C", i, j, c[p.at(i, j)], expected[p.at(i, j)]);
            }
    }
    return check;
}

Options step_options(const BenchOptions& o, const std::string& target) {
    Options options;
    options.backend = Backend::emu;
    options.emu_target = target;
    options.threads = o.threads;
    options.model = true;
    options.model_only = true;
    options.model_parameters = o.model_params;
    return options;
}

std::uint64_t tiles(int size, unsigned tile) { return (std::uint64_t(size) + tile - 1) / tile; }

// A step's row before it runs: its grid over M x N, and whether every tile is whole (the counts then exact).
StepRow step_row(const char* name, const char* idea, const Problem& p, unsigned tile_m, unsigned tile_n) {
    StepRow row;
    row.step = name;
    row.idea = idea;
    row.grid_workgroups = tiles(p.m, tile_m) * tiles(p.n, tile_n);
    row.exact_counts = p.m % int(tile_m) == 0 && p.n % int(tile_n) == 0;
    return row;
}

std::vector<StepRow> sgemm_rows(const BenchOptions& o, const Problem& p, const std::string& target) {
    std::vector<StepRow> rows;
    const Options options = step_options(o, target);
    for (const SgemmStep& step : sgemm_steps()) {
        StepRow row = step_row(step.name, step.idea, p, step.tile_m, step.tile_n);
        std::vector<float> c = p.c0;
        row.result = progression_sgemm(step.name, p.m, p.n, p.k, p.alpha, p.a.data(), p.lda, p.b.data(), p.ldb, p.beta,
                                       c.data(), p.ldc, options);
        if (row.result)
            row.check = check_traced_tiles(p, c, row.result, MacKind::fmac_f32_denormals, step.tile_m, step.tile_n);
        rows.push_back(std::move(row));
    }
    std::vector<Variant> variants = {Variant::dpp0};
    if (const std::optional<Variant> best = best_variant(target); best && *best != Variant::dpp0)
        variants.push_back(*best);
    for (Variant variant : variants) {
        StepRow row;
        row.step = to_string(variant);
        row.idea = variant_info(variant)->idea;
        row.assembly = true;
        row.grid_workgroups = tiles(p.m, DPPGEMM_SGEMM_MACRO_TILE) * tiles(p.n, DPPGEMM_SGEMM_MACRO_TILE);
        row.exact_counts = p.m % DPPGEMM_SGEMM_MACRO_TILE == 0 && p.n % DPPGEMM_SGEMM_MACRO_TILE == 0;
        Options asm_options = options;
        asm_options.variant = variant;
        std::vector<float> c = p.c0;
        row.result = sgemm('N', 'N', p.m, p.n, p.k, p.alpha, p.a.data(), p.lda, p.b.data(), p.ldb, p.beta, c.data(),
                           p.ldc, asm_options);
        if (row.result)
            row.check = check_traced_tiles(p, c, row.result, kernel_mac_kind(variant, target), DPPGEMM_SGEMM_MACRO_TILE,
                                           DPPGEMM_SGEMM_MACRO_TILE);
        rows.push_back(std::move(row));
    }
    return rows;
}

// out = in^T for an M x N `in`, checked exactly in the traced tiles.
std::vector<StepRow> transpose_rows(const BenchOptions& o, const Problem& p, const std::string& target) {
    std::vector<StepRow> rows;
    std::vector<float> in(std::size_t(p.m) * p.n);
    std::mt19937_64 random(o.seed);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    for (float& x : in) x = uniform(random);
    const Options options = step_options(o, target);
    for (const TransposeStep& step : transpose_steps()) {
        StepRow row = step_row(step.name, step.idea, p, step.tile, step.tile);
        std::vector<float> out(in.size(), 0.0f);
        row.result = progression_transpose(step.name, p.m, p.n, in.data(), p.m, out.data(), p.n, options);
        if (row.result && row.result.modeled)
            for (const auto& wg : row.result.modeled->traced_workgroups)
                for (int r = int(wg[0] * step.tile); r < std::min(p.m, int((wg[0] + 1) * step.tile)); ++r)
                    for (int c = int(wg[1] * step.tile); c < std::min(p.n, int((wg[1] + 1) * step.tile)); ++c) {
                        const float got = out[c + std::size_t(r) * p.n], want = in[r + std::size_t(c) * p.m];
                        ++row.check.checked;
                        if (std::memcmp(&got, &want, 4) && !row.check.mismatches++)
                            row.check.first_mismatch = element("out", c, r, got, want);
                    }
        rows.push_back(std::move(row));
    }
    return rows;
}

double modeled_ms(const StepRow& row) {
    return row.result && row.result.modeled ? row.result.modeled->milliseconds : 0;
}

std::string check_text(const StepRow& row) {
    if (!row.result) return "refused";
    if (!row.check.passed()) return "FAILED";
    return "bitwise (" + std::to_string(row.check.checked) + ")";
}

// Millions, one decimal, "~" when the scaled count is not exact.
std::string millions(const StepRow& row, std::uint64_t Counters::*counter) {
    if (!row.result) return "-";
    return (row.exact_counts ? "" : "~") + format("%.1f", row.scaled(counter) / 1e6);
}

std::string whole(const StepRow& row, std::uint64_t Counters::*counter) {
    if (!row.result) return "-";
    return (row.exact_counts ? "" : "~") + format("%.0f", row.scaled(counter));
}

// Share of the modeled cycles in the named components, e.g. "valu".
std::string modeled_share(const StepRow& row, std::initializer_list<const char*> names) {
    if (!row.result || !row.result.modeled || row.result.modeled->cycles <= 0) return "-";
    double cycles = 0;
    for (const auto& [component, value] : row.result.modeled->components)
        for (const char* name : names) cycles += component == name ? value : 0;
    return format("%.0f %%", 100 * cycles / row.result.modeled->cycles);
}

std::string occupancy(const StepRow& row) {
    if (!row.result || !row.result.modeled) return "-";
    return std::to_string(row.result.modeled->resident_workgroups) + " (" + row.result.modeled->occupancy_limit + ")";
}

// Columns padded to their widths, two spaces apart, no trailing blanks.
void print_line(std::ostream& out, const std::vector<std::string>& cells, const std::vector<std::size_t>& widths) {
    for (std::size_t i = 0; i < cells.size(); ++i) {
        out << cells[i];
        if (i + 1 < cells.size()) out << std::string(widths[i] - cells[i].size() + 2, ' ');
    }
    out << "\n";
}

void print_rows(std::ostream& out, const std::vector<std::string>& header,
                const std::vector<std::vector<std::string>>& rows) {
    std::vector<std::size_t> widths(header.size());
    for (std::size_t i = 0; i < header.size(); ++i) widths[i] = header[i].size();
    for (const auto& row : rows)
        for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
    print_line(out, header, widths);
    for (const auto& row : rows) print_line(out, row, widths);
}

}  // namespace

double StepRow::scaled(std::uint64_t Counters::*counter) const {
    if (!result.counters || !result.counters->workgroups) return 0;
    return double((*result.counters).*counter) * double(grid_workgroups) / double(result.counters->workgroups);
}

bool ProgressionReport::passed() const {
    for (const TargetProgression& t : targets) {
        for (const StepRow& row : t.sgemm)
            if (row.result && !row.check.passed()) return false;
        for (const StepRow& row : t.transpose)
            if (!row.result || !row.check.passed()) return false;
    }
    return true;
}

ProgressionReport run_progression(const BenchOptions& o) {
    ProgressionReport report{make_problem(o, o.shapes.front()), {}};
    fill_random(report.problem, o.seed);
    for (const std::string& target : o.archs)
        report.targets.push_back(
            {target, sgemm_rows(o, report.problem, target), transpose_rows(o, report.problem, target)});
    return report;
}

void print_progression(std::ostream& out, const ProgressionReport& report) {
    const Problem& p = report.problem;
    for (const TargetProgression& t : report.targets) {
        const std::string gpu =
            !t.sgemm.empty() && t.sgemm.front().result.modeled ? t.sgemm.front().result.modeled->gpu : t.target;
        out << "SGEMM NN M=" << p.m << " N=" << p.n << " K=" << p.k << " on " << t.target << " (emu, " << gpu
            << "): counts over the launch (emulator; M = millions), time and GFLOPS modeled (cycle model)\n";
        std::vector<std::vector<std::string>> rows;
        double previous = 0, naive = 0;
        for (const StepRow& row : t.sgemm) {
            const double ms = modeled_ms(row);
            if (row.step == "naive") naive = ms;
            const double valu = row.scaled(&Counters::valu);
            rows.push_back({row.assembly ? row.step + " (asm)" : row.step, millions(row, &Counters::global_read_bytes),
                            millions(row, &Counters::global_write_bytes), millions(row, &Counters::lds_read_requests),
                            whole(row, &Counters::lds_bank_conflict_cycles),
                            row.result ? format("%.1f", row.scaled(&Counters::valu) / 1e6) : "-",
                            valu > 0 ? format("%.0f %%", 100 * row.scaled(&Counters::valu_multiply_add) / valu) : "-",
                            row.result.modeled ? std::to_string(row.result.modeled->vgprs) : "-",
                            row.result.modeled ? std::to_string(row.result.modeled->lds_bytes) : "-", occupancy(row),
                            modeled_share(row, {"valu"}), modeled_share(row, {"lgkm_wait", "vm_wait", "barrier_wait"}),
                            ms > 0 ? format("%.3f", ms) : "-", ms > 0 ? format("%.0f", p.flops() / ms / 1e6) : "-",
                            ms > 0 && previous > 0 ? format("%.2fx", previous / ms) : "-",
                            ms > 0 && naive > 0 ? format("%.1fx", naive / ms) : "-", check_text(row)});
            if (ms > 0) previous = ms;
        }
        print_rows(out,
                   {"step", "global read MB", "global write MB", "LDS read requests M", "LDS conflict cycles", "VALU M",
                    "FMA share", "VGPRs", "LDS bytes", "workgroups/CU", "VALU busy", "waiting", "modeled ms",
                    "modeled GFLOPS", "vs previous", "vs naive", "check"},
                   rows);
        for (const StepRow& row : t.sgemm)
            if (!row.result) out << "  " << row.step << ": " << row.result.message << "\n";
        out << "\nTranspose " << p.m << "x" << p.n << " on " << t.target
            << ": counts over the launch (emulator), time and bandwidth modeled\n";
        rows.clear();
        for (const StepRow& row : t.transpose) {
            const double ms = modeled_ms(row);
            const double bytes = row.scaled(&Counters::global_read_bytes) + row.scaled(&Counters::global_write_bytes);
            rows.push_back({row.step, format("%.0f", row.scaled(&Counters::lds_read_requests)),
                            format("%.0f", row.scaled(&Counters::lds_write_requests)),
                            format("%.0f", row.scaled(&Counters::lds_bank_conflict_cycles)),
                            ms > 0 ? format("%.4f", ms) : "-", ms > 0 ? format("%.0f", bytes / ms / 1e6) : "-",
                            check_text(row)});
        }
        print_rows(out,
                   {"step", "LDS read requests", "LDS write requests", "LDS conflict cycles", "modeled ms",
                    "modeled GB/s", "check"},
                   rows);
        out << "\n";
    }
    out << "Steps:\n";
    if (!report.targets.empty())
        for (const auto* rows : {&report.targets.front().sgemm, &report.targets.front().transpose})
            for (const StepRow& row : *rows) out << "  " << row.step << ": " << row.idea << "\n";
}

nlohmann::json progression_json(const ProgressionReport& report) {
    using nlohmann::json;
    const Problem& p = report.problem;
    json out = {{"problem", {{"m", p.m}, {"n", p.n}, {"k", p.k}, {"alpha", p.alpha}, {"beta", p.beta}}},
                {"targets", json::array()}};
    const auto row_json = [](const StepRow& row) {
        json r = {{"step", row.step},
                  {"idea", row.idea},
                  {"assembly", row.assembly},
                  {"status", to_string(row.result.status)},
                  {"message", row.result.message},
                  {"grid_workgroups", row.grid_workgroups},
                  {"exact_counts", row.exact_counts},
                  {"checked_elements", row.check.checked},
                  {"bitwise_mismatches", row.check.mismatches}};
        if (row.result.counters) {
            json counters;
            for (const CounterInfo& info : counter_table) counters[info.name] = row.scaled(info.member);
            r["counters_over_launch"] = counters;
        }
        if (row.result.modeled) {
            r["is_modeled"] = true;
            r["modeled_milliseconds"] = row.result.modeled->milliseconds;
            r["modeled_resident_workgroups"] = row.result.modeled->resident_workgroups;
            r["modeled_occupancy_limit"] = row.result.modeled->occupancy_limit;
            r["vgprs"] = row.result.modeled->vgprs;
            r["lds_bytes"] = row.result.modeled->lds_bytes;
            json components;  // where the modeled cycles went (docs/performance-model.md, "Breakdown")
            for (const auto& [name, cycles] : row.result.modeled->components) components[name] = cycles;
            r["modeled_components"] = components;
        }
        return r;
    };
    for (const TargetProgression& t : report.targets) {
        json target = {{"target", t.target}, {"sgemm", json::array()}, {"transpose", json::array()}};
        for (const StepRow& row : t.sgemm) {
            json r = row_json(row);
            if (row.result.modeled) r["modeled_gflops"] = p.flops() / row.result.modeled->milliseconds / 1e6;
            target["sgemm"].push_back(r);
        }
        for (const StepRow& row : t.transpose) target["transpose"].push_back(row_json(row));
        out["targets"].push_back(target);
    }
    return out;
}

void write_progression_csv(std::ostream& out, const ProgressionReport& report) {
    out << "target,kind,step,m,n,k,status";
    for (const CounterInfo& info : counter_table) out << "," << info.name;
    out << ",modeled_milliseconds,modeled_resident_workgroups,checked_elements,bitwise_mismatches\n";
    const Problem& p = report.problem;
    for (const TargetProgression& t : report.targets)
        for (const auto& [kind, rows] : {std::pair{"sgemm", &t.sgemm}, std::pair{"transpose", &t.transpose}})
            for (const StepRow& row : *rows) {
                out << t.target << "," << kind << "," << row.step << "," << p.m << "," << p.n << "," << p.k << ","
                    << to_string(row.result.status);
                for (const CounterInfo& info : counter_table) out << "," << format("%.0f", row.scaled(info.member));
                out << "," << modeled_ms(row) << ","
                    << (row.result.modeled ? row.result.modeled->resident_workgroups : 0) << "," << row.check.checked
                    << "," << row.check.mismatches << "\n";
            }
}

std::string progression_plot_script(const std::string& path, const ProgressionReport& report) {
    const Problem& p = report.problem;
    const bool png = path.size() > 4 && path.compare(path.size() - 4, 4, ".png") == 0;
    std::ostringstream s;
    s << "set terminal "
      << (png ? "pngcairo size 1200,520 noenhanced font ',10'" : "svg size 1200,520 dynamic noenhanced font ',10'")
      << "\nset output '" << path << "'\n"
      << "set title 'dppgemm-bench --progression: SGEMM NN " << p.m << "x" << p.n << "x" << p.k
      << ", modeled GFLOPS per step (cycle model, not measured)'\n"
      << "set style data histograms\nset style histogram clustered gap 1\nset style fill solid 0.8 border -1\n"
      << "set boxwidth 0.9\nset logscale y 2\nset grid ytics\nset ylabel 'GFLOPS (modeled, log scale)'\n"
      << "set xtics rotate by -35 left\nset key top left\nset bmargin 7\nset rmargin 8\n"
      << "plot ";
    // The second assembly row is each target's best variant: one tick, the
    // variant named in the target's key.
    const auto best_name = [](const TargetProgression& t) {
        return t.sgemm.size() > 1 && t.sgemm.back().assembly && t.sgemm.back().step != "dpp0" ? t.sgemm.back().step
                                                                                              : std::string("dpp0");
    };
    for (std::size_t i = 0; i < report.targets.size(); ++i) {
        const TargetProgression& t = report.targets[i];
        s << (i ? ", " : "") << "'-' using 2:xtic(1) title '" << t.target << " ("
          << (t.sgemm.empty() || !t.sgemm.front().result.modeled ? std::string() : t.sgemm.front().result.modeled->gpu)
          << "; best = " << best_name(t) << ")'";
    }
    s << "\n";
    for (const TargetProgression& t : report.targets) {
        for (const StepRow& row : t.sgemm) {
            const double ms = modeled_ms(row);
            const std::string label = !row.assembly ? row.step : row.step == "dpp0" ? "dpp0 (asm)" : "best (asm)";
            s << '"' << label << "\" " << (ms > 0 ? p.flops() / ms / 1e6 : 0) << "\n";
        }
        s << "e\n";
    }
    return s.str();
}

}  // namespace dppgemm::bench
