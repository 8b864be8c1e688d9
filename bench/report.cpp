#include "report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <sstream>
#include <tuple>

namespace dppgemm::bench {

namespace {

std::string fixed(double v, int digits) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", digits, v);
    return text;
}

bool succeeded(const Row& row) { return bool(row.result); }

// "min-max" of the timed runs, short enough for a column (whole
// milliseconds from 100 ms on).
std::string spread(const std::vector<double>& ms) {
    if (ms.empty()) return "";
    const auto [low, high] = std::minmax_element(ms.begin(), ms.end());
    const auto shown = [](double v) { return fixed(v, v >= 100 ? 0 : 1); };
    return shown(*low) + "-" + shown(*high);
}

double measured_gflops(const Problem& p, const Row& row) {
    const double ms = median(row.ms);
    return ms > 0 ? p.flops() / (ms * 1e6) : 0;
}

std::string verdict(const Row& row) {
    if (!row.check.enabled) return "off";
    return row.check.passed() ? "passed" : "FAILED";
}

// Per 128x128x8 workgroup step: what the variants trade (docs/kernels.md, "Pareto front").
struct PerStep {
    double lds_read_requests = 0;
    double valu = 0;        // wave VALU instructions = VALU clocks of the CU (4 SIMDs x 4 clocks each)
    double lds_cycles = 0;  // LDS busy clocks: bytes / 128 + bank-conflict cycles
    double lds_share_of_valu() const { return valu > 0 ? lds_cycles / valu : 0; }
};

std::optional<PerStep> per_step(const Problem& p, const Row& row) {
    const auto& c = row.result.counters;
    const auto gpu = gpu_spec(row.target);
    if (!row.result || !c || !p.steps() || !gpu) return std::nullopt;
    const double steps = double(p.steps());
    return PerStep{double(c->lds_read_requests) / steps, double(c->valu) / steps, lds_busy_cycles(*gpu, *c) / steps};
}

// A figure of the table: its label and how to print it for one row ("" when it does not apply).
struct Figure {
    std::string label;
    std::function<std::string(const Problem&, const ConfigReport&, const Row&)> cell;
};

template <typename Field>
Figure counted(std::string label, Field field) {
    return {std::move(label), [field](const Problem&, const ConfigReport&, const Row& row) {
                return row.result.counters ? std::to_string(field(*row.result.counters)) : std::string();
            }};
}

const std::vector<Figure>& figures() {
    using C = Counters;
    static const std::vector<Figure> list = {
        {"LDS read requests / 128x128x8 step",
         [](const Problem& p, const ConfigReport&, const Row& row) {
             return row.result.counters && p.steps()
                        ? std::to_string(row.result.counters->lds_read_requests / p.steps())
                        : std::string();
         }},
        counted("LDS read requests (lanes), total", [](const C& c) { return c.lds_read_requests; }),
        counted("LDS bytes read + written", [](const C& c) { return c.lds_read_bytes + c.lds_write_bytes; }),
        counted("LDS bank-conflict cycles", [](const C& c) { return c.lds_bank_conflict_cycles; }),
        {"LDS cycles / step (bytes/128+conflicts)",
         [](const Problem& p, const ConfigReport&, const Row& row) {
             const auto s = per_step(p, row);
             return s ? fixed(s->lds_cycles, 1) : std::string();
         }},
        {"VALU cycles / step (VALU instructions)",
         [](const Problem& p, const ConfigReport&, const Row& row) {
             const auto s = per_step(p, row);
             return s ? fixed(s->valu, 1) : std::string();
         }},
        {"  LDS cycles / VALU cycles",
         [](const Problem& p, const ConfigReport&, const Row& row) {
             const auto s = per_step(p, row);
             return s ? fixed(100.0 * s->lds_share_of_valu(), 1) + " %" : std::string();
         }},
        counted("wave instructions, all classes", [](const C& c) { return wave_instructions(c); }),
        counted("  VALU", [](const C& c) { return c.valu; }),
        counted("    of which DPP", [](const C& c) { return c.valu_dpp; }),
        {"    multiply-add share of VALU",
         [](const Problem&, const ConfigReport&, const Row& row) {
             const auto& c = row.result.counters;
             return c && c->valu ? fixed(100.0 * c->valu_multiply_add / c->valu, 1) + " %" : std::string();
         }},
        counted("  SALU", [](const C& c) { return c.salu; }),
        counted("  SMEM", [](const C& c) { return c.smem; }),
        counted("  VMEM load + store", [](const C& c) { return c.vmem_load + c.vmem_store; }),
        counted("  LDS read + write", [](const C& c) { return c.lds_read + c.lds_write; }),
        counted("  branch, waitcnt, barrier, nop, other",
                [](const C& c) { return c.branch + c.waitcnt + c.barrier + c.nop + c.other; }),
        {"emulation wall time, ms",
         [](const Problem&, const ConfigReport&, const Row& row) {
             return row.on_gpu() ? std::string() : fixed(median(row.ms), 1);
         }},
        {"emulated wave instructions / s",
         [](const Problem&, const ConfigReport&, const Row& row) {
             const double ms = median(row.ms);
             return row.result.counters && ms > 0
                        ? fixed(wave_instructions(*row.result.counters) / (ms * 1e3), 1) + " M"
                        : std::string();
         }},
        {"emulation time / OpenBLAS time",
         [](const Problem&, const ConfigReport& r, const Row& row) {
             const double ratio = emulation_over_openblas(r, row);
             return !row.on_gpu() && ratio > 0 ? fixed(ratio, 1) + " x" : std::string();
         }},
        {"  emulation wall time, min-max, ms",
         [](const Problem&, const ConfigReport&, const Row& row) { return row.on_gpu() ? "" : spread(row.ms); }},
        {"  OpenBLAS in the same rounds, min-max, ms",
         [](const Problem&, const ConfigReport&, const Row& row) {
             return row.on_gpu() ? "" : spread(row.openblas_ms);
         }},
        {"modeled GPU time, ms",
         [](const Problem&, const ConfigReport&, const Row& row) {
             return row.modeled ? fixed(row.modeled->milliseconds, 3) : std::string();
         }},
        {"modeled GFLOPS", [](const Problem&, const ConfigReport&,
                              const Row& row) { return row.modeled ? fixed(row.modeled->gflops, 1) : std::string(); }},
        {"modeled bound",
         [](const Problem&, const ConfigReport&, const Row& row) { return row.modeled ? row.modeled->bound : ""; }},
        {"measured GPU time, ms (HIP events)",
         [](const Problem&, const ConfigReport&, const Row& row) {
             return row.on_gpu() ? fixed(median(row.ms), 3) : std::string();
         }},
        {"measured GFLOPS",
         [](const Problem& p, const ConfigReport&, const Row& row) {
             return row.on_gpu() ? fixed(measured_gflops(p, row), 1) : std::string();
         }},
        {"verification", [](const Problem&, const ConfigReport&, const Row& row) { return verdict(row); }},
    };
    return list;
}

// Rows grouped by target, in the order they ran.
std::vector<std::vector<const Row*>> by_target(const ConfigReport& report) {
    std::vector<std::vector<const Row*>> groups;
    for (const Row& row : report.rows) {
        if (groups.empty() || groups.back().front()->target != row.target) groups.emplace_back();
        groups.back().push_back(&row);
    }
    return groups;
}

std::string target_title(const Row& row) {
    if (row.on_gpu()) return row.target + " (hip, measured)";
    const auto gpu = gpu_spec(row.target);
    return row.target + " (emu; modeled as " + (gpu ? gpu->product : "?") + ")";
}

void print_block(std::ostream& out, const ConfigReport& report, const std::vector<const Row*>& rows) {
    const std::string title = target_title(*rows.front());
    const int label_width = std::max<int>(40, int(title.size()) + 1), cell_width = 14;
    char text[256];
    std::snprintf(text, sizeof text, "%-*s", label_width, title.c_str());
    out << text;
    for (const Row* row : rows) {
        std::snprintf(text, sizeof text, "%*s", cell_width, row->variant.c_str());
        out << text;
    }
    out << "\n";
    for (const Figure& figure : figures()) {
        std::vector<std::string> cells;
        bool any = false;
        for (const Row* row : rows) {
            cells.push_back(succeeded(*row) ? figure.cell(report.problem, report, *row) : "");
            any |= !cells.back().empty();
        }
        if (!any) continue;
        std::snprintf(text, sizeof text, "%-*s", label_width, figure.label.c_str());
        out << text;
        for (const std::string& cell : cells) {
            std::snprintf(text, sizeof text, "%*s", cell_width, cell.empty() ? "-" : cell.c_str());
            out << text;
        }
        out << "\n";
    }
    for (const Row* row : rows) {
        if (!succeeded(*row)) out << "  " << row->variant << " FAILED: " << row->result.message << "\n";
        const std::string why = failure_message(row->variant, row->target, row->check);
        if (!why.empty()) out << "  verification FAILED: " << why << "\n";
    }
}

}  // namespace

double emulation_over_openblas(const ConfigReport& r, const Row& row) {
    if (row.openblas_ms.size() == row.ms.size() && !row.ms.empty()) {
        std::vector<double> ratios;
        for (std::size_t i = 0; i < row.ms.size(); ++i)
            if (row.openblas_ms[i] > 0) ratios.push_back(row.ms[i] / row.openblas_ms[i]);
        return median(ratios);
    }
    return r.openblas_ms > 0 ? median(row.ms) / r.openblas_ms : 0.0;
}

void print_table(std::ostream& out, const ConfigReport& r) {
    const Problem& p = r.problem;
    out << "\nSGEMM " << p.ta << p.tb << "  M=" << p.m << " N=" << p.n << " K=" << p.k << "  lda=" << p.lda
        << " ldb=" << p.ldb << " ldc=" << p.ldc << "  alpha=" << p.alpha << " beta=" << p.beta << "  (" << p.steps()
        << " steps of 128x128x8)\n";
    out << "OpenBLAS sgemm on this machine: " << fixed(r.openblas_ms, 3) << " ms\n\n";
    for (const auto& rows : by_target(r)) {
        print_block(out, r, rows);
        out << "\n";
    }
    bool modeled = false;
    for (const Row& row : r.rows) modeled |= row.modeled.has_value();
    if (modeled)
        out << "modeled: derived from the emulator's counts by docs/performance-model.md for the named GPU;\n"
               "not measured on any GPU. Wall times and OpenBLAS times are measured on this machine.\n";
}

namespace {

nlohmann::json counters_json(const Counters& c) {
    return {{"workgroups", c.workgroups},
            {"waves", c.waves},
            {"salu", c.salu},
            {"valu", c.valu},
            {"valu_dpp", c.valu_dpp},
            {"valu_multiply_add", c.valu_multiply_add},
            {"smem", c.smem},
            {"vmem_load", c.vmem_load},
            {"vmem_store", c.vmem_store},
            {"lds_read", c.lds_read},
            {"lds_write", c.lds_write},
            {"branch", c.branch},
            {"waitcnt", c.waitcnt},
            {"barrier", c.barrier},
            {"nop", c.nop},
            {"other", c.other},
            {"wave_instructions", wave_instructions(c)},
            {"lds_read_requests", c.lds_read_requests},
            {"lds_read_bytes", c.lds_read_bytes},
            {"lds_write_requests", c.lds_write_requests},
            {"lds_write_bytes", c.lds_write_bytes},
            {"lds_bank_conflict_cycles", c.lds_bank_conflict_cycles},
            {"global_read_bytes", c.global_read_bytes},
            {"global_write_bytes", c.global_write_bytes}};
}

nlohmann::json difference_json(const std::optional<Difference>& d) {
    if (!d) return nullptr;
    return {{"row", d->row}, {"col", d->col}, {"got", d->got}, {"expected", d->expected}};
}

nlohmann::json row_json(const ConfigReport& r, const Row& row) {
    const Problem& p = r.problem;
    nlohmann::json j = {{"variant", row.variant},
                        {"backend", to_string(row.result.backend)},
                        {"target", row.target},
                        {"kernel", row.result.kernel},
                        {"status", to_string(row.result.status)},
                        {"message", row.result.message},
                        {"runs_ms", row.ms}};
    if (const auto& c = row.result.counters) {
        j["counters"] = counters_json(*c);
        j["lds_read_requests_per_step"] = p.steps() ? c->lds_read_requests / p.steps() : 0;
        j["lds_bytes"] = c->lds_read_bytes + c->lds_write_bytes;
        j["multiply_add_share_of_valu"] = c->valu ? double(c->valu_multiply_add) / c->valu : 0.0;
    }
    if (const auto s = per_step(p, row)) {
        j["valu_per_step"] = s->valu;
        j["lds_cycles_per_step"] = s->lds_cycles;
        j["lds_share_of_valu_cycles"] = s->lds_share_of_valu();
    }
    if (const auto variant = parse_variant(row.variant))
        if (const VariantInfo* info = variant_info(*variant)) {
            j["expected_lds_read_requests_per_step"] = info->lds_read_requests_per_step;
            j["idea"] = info->idea;
        }
    if (row.on_gpu()) {
        j["measured"] = {{"gpu_ms", median(row.ms)},
                         {"gflops", measured_gflops(p, row)},
                         {"how", "HIP events, median of the timed runs, warm-up excluded"}};
    } else {
        const double ms = median(row.ms);
        j["emulation_wall_ms"] = ms;
        j["wave_instructions_per_second"] =
            row.result.counters && ms > 0 ? wave_instructions(*row.result.counters) / (ms * 1e-3) : 0.0;
        j["emulation_over_openblas"] = emulation_over_openblas(r, row);
        j["openblas_runs_ms"] = row.openblas_ms;  // each right before the run_ms entry of its round
    }
    if (row.modeled) {
        const Modeled& m = *row.modeled;
        j["modeled"] = {{"is_modeled", true},
                        {"label", "modeled by docs/performance-model.md, not measured"},
                        {"gpu", gpu_spec(row.target) ? gpu_spec(row.target)->product : ""},
                        {"gpu_ms", m.milliseconds},
                        {"gflops", m.gflops},
                        {"bound", m.bound},
                        {"busiest_cu_workgroups", m.busiest_cu_workgroups},
                        {"valu_cycles", m.valu_cycles},
                        {"lds_cycles", m.lds_cycles},
                        {"memory_cycles", m.memory_cycles},
                        {"issue_cycles", m.issue_cycles},
                        {"cycles", m.cycles}};
    }
    j["verification"] = {{"enabled", row.check.enabled},
                         {"passed", row.check.passed()},
                         {"bitwise_same_order", row.check.enabled && row.check.bitwise_mismatches == 0},
                         {"bitwise_mismatches", row.check.bitwise_mismatches},
                         {"first_bitwise_mismatch", difference_json(row.check.first_bitwise_mismatch)},
                         {"max_error_over_bound_vs_openblas", row.check.max_error_over_bound},
                         {"worst_vs_openblas", difference_json(row.check.worst_vs_openblas)},
                         {"message", failure_message(row.variant, row.target, row.check)}};
    return j;
}

nlohmann::json options_json(const BenchOptions& o) {
    std::vector<std::string> variants;
    for (Variant v : o.variants) variants.push_back(to_string(v));
    return {{"iterations", o.iterations},
            {"warmup", o.warmup},
            {"backend", to_string(o.backend)},
            {"arch", o.archs},
            {"variant", variants},
            {"seed", o.seed},
            {"verify", o.verify},
            {"threads", o.threads}};
}

}  // namespace

nlohmann::json report_json(const BenchOptions& options, const std::vector<ConfigReport>& reports) {
    nlohmann::json configs = nlohmann::json::array();
    for (const ConfigReport& r : reports) {
        const Problem& p = r.problem;
        nlohmann::json rows = nlohmann::json::array();
        for (const Row& row : r.rows) rows.push_back(row_json(r, row));
        configs.push_back({{"trans_a", std::string(1, p.ta)},
                           {"trans_b", std::string(1, p.tb)},
                           {"m", p.m},
                           {"n", p.n},
                           {"k", p.k},
                           {"lda", p.lda},
                           {"ldb", p.ldb},
                           {"ldc", p.ldc},
                           {"alpha", p.alpha},
                           {"beta", p.beta},
                           {"steps", p.steps()},
                           {"flops", p.flops()},
                           {"openblas_ms", r.openblas_ms},
                           {"variants", rows}});
    }
    return {{"tool", "dppgemm-bench"}, {"options", options_json(options)}, {"configs", configs}};
}

void write_csv(std::ostream& out, const std::vector<ConfigReport>& reports) {
    out << "transA,transB,M,N,K,alpha,lda,ldb,beta,ldc,target,variant,backend,status,"
           "lds_read_requests_per_step,lds_read_requests,lds_bytes,lds_bank_conflict_cycles,wave_instructions,"
           "salu,valu,valu_dpp,valu_multiply_add,smem,vmem_load,vmem_store,lds_read,lds_write,branch,waitcnt,barrier,"
           "nop,other,multiply_add_share_of_valu,emulation_wall_ms,wave_instructions_per_second,openblas_ms,"
           "emulation_over_openblas,"
           "measured_gpu_ms,measured_gflops,modeled_gpu_ms,modeled_gflops,modeled_bound,verification,"
           "valu_per_step,lds_cycles_per_step,lds_share_of_valu_cycles\n";
    for (const ConfigReport& r : reports)
        for (const Row& row : r.rows) {
            const nlohmann::json j = row_json(r, row);
            const Problem& p = r.problem;
            const Counters c = row.result.counters.value_or(Counters{});
            const auto field = [&](const char* key) { return j.contains(key) ? j[key].dump() : std::string(); };
            const auto sub = [&](const char* object, const char* key) {
                return j.contains(object) ? j[object][key].dump() : std::string();
            };
            out << p.ta << ',' << p.tb << ',' << p.m << ',' << p.n << ',' << p.k << ',' << p.alpha << ',' << p.lda
                << ',' << p.ldb << ',' << p.beta << ',' << p.ldc << ',' << row.target << ',' << row.variant << ','
                << to_string(row.result.backend) << ',' << to_string(row.result.status) << ','
                << field("lds_read_requests_per_step") << ',' << c.lds_read_requests << ','
                << c.lds_read_bytes + c.lds_write_bytes << ',' << c.lds_bank_conflict_cycles << ','
                << wave_instructions(c) << ',' << c.salu << ',' << c.valu << ',' << c.valu_dpp << ','
                << c.valu_multiply_add << ',' << c.smem << ',' << c.vmem_load << ',' << c.vmem_store << ','
                << c.lds_read << ',' << c.lds_write << ',' << c.branch << ',' << c.waitcnt << ',' << c.barrier << ','
                << c.nop << ',' << c.other << ',' << field("multiply_add_share_of_valu") << ','
                << field("emulation_wall_ms") << ',' << field("wave_instructions_per_second") << ',' << r.openblas_ms
                << ',' << field("emulation_over_openblas") << ',' << sub("measured", "gpu_ms") << ','
                << sub("measured", "gflops") << ',' << sub("modeled", "gpu_ms") << ',' << sub("modeled", "gflops")
                << ',' << (row.modeled ? row.modeled->bound : "") << ',' << verdict(row) << ','
                << field("valu_per_step") << ',' << field("lds_cycles_per_step") << ','
                << field("lds_share_of_valu_cycles") << '\n';
        }
}

namespace {

// One point of the Pareto chart: a variant on a target, per step, from the
// configuration with the most steps (edges matter least there).
struct ParetoPoint {
    std::string target, variant;
    long long steps = 0;  // Problem::steps() of the largest problem seen
    PerStep figures;
};

std::vector<ParetoPoint> pareto_points(const std::vector<ConfigReport>& reports) {
    std::vector<ParetoPoint> points;
    for (const ConfigReport& r : reports)
        for (const Row& row : r.rows) {
            const auto s = per_step(r.problem, row);
            if (!s) continue;
            auto same = std::find_if(points.begin(), points.end(), [&](const ParetoPoint& q) {
                return q.target == row.target && q.variant == row.variant;
            });
            if (same == points.end()) same = points.insert(points.end(), ParetoPoint{row.target, row.variant, 0, {}});
            if (r.problem.steps() > same->steps) {
                same->steps = r.problem.steps();
                same->figures = *s;
            }
        }
    return points;
}

// Points at the same place share one label: "dpp0, dpp1 (gfx906, gfx942);
// dpp2 (gfx942)". The same place: less than one instruction and one cycle
// apart (setup code spreads a fraction of an instruction over the steps).
std::vector<std::tuple<double, double, std::string>> labelled(const std::vector<ParetoPoint>& points,
                                                              double PerStep::*y) {
    struct Place {
        double x, y;
        std::vector<std::pair<std::string, std::vector<std::string>>> variants;  // variant -> targets, in run order
    };
    std::vector<Place> places;
    for (const ParetoPoint& p : points) {
        const double px = p.figures.valu, py = p.figures.*y;
        auto place = std::find_if(places.begin(), places.end(),
                                  [&](const Place& q) { return std::abs(q.x - px) < 1 && std::abs(q.y - py) < 1; });
        if (place == places.end()) place = places.insert(places.end(), Place{px, py, {}});
        auto v = std::find_if(place->variants.begin(), place->variants.end(),
                              [&](const auto& e) { return e.first == p.variant; });
        if (v == place->variants.end()) v = place->variants.insert(place->variants.end(), {p.variant, {}});
        v->second.push_back(p.target);
    }
    std::vector<std::tuple<double, double, std::string>> out;
    for (const Place& place : places) {
        std::vector<std::pair<std::string, std::string>> groups;  // (variants, targets)
        for (const auto& [variant, targets] : place.variants) {
            std::string target_list;
            for (const std::string& t : targets) target_list += (target_list.empty() ? "" : ", ") + t;
            auto g = std::find_if(groups.begin(), groups.end(), [&](const auto& e) { return e.second == target_list; });
            if (g == groups.end()) groups.emplace_back(variant, target_list);
            else g->first += ", " + variant;
        }
        std::string label;
        for (const auto& [variant_list, target_list] : groups)
            label += (label.empty() ? "" : "; ") + variant_list + " (" + target_list + ")";
        out.emplace_back(place.x, place.y, label);
    }
    return out;
}

}  // namespace

std::string plot_script(const std::string& path, const std::vector<ConfigReport>& reports) {
    const std::vector<ParetoPoint> points = pareto_points(reports);
    // label -> (size, GFLOPS): the third panel, across a --sizes sweep
    std::map<std::string, std::vector<std::pair<int, double>>> series;
    bool modeled = false, measured = false;
    for (const ConfigReport& r : reports)
        for (const Row& row : r.rows) {
            if (!succeeded(row) || !row.result.counters || !r.problem.steps()) continue;
            const double gflops = row.on_gpu()  ? measured_gflops(r.problem, row)
                                  : row.modeled ? row.modeled->gflops
                                                : 0;
            modeled |= !row.on_gpu();
            measured |= row.on_gpu();
            series[row.target + " " + row.variant].emplace_back(r.problem.m, gflops);
        }
    const bool png = path.size() > 4 && path.compare(path.size() - 4, 4, ".png") == 0;
    std::ostringstream s;
    s << "set terminal " << (png ? "pngcairo size 1800,560 font ',10'" : "svg size 1800,560 dynamic font ',10'") << "\n"
      << "set output '" << path << "'\n"
      << "set multiplot layout 1,3 title 'dppgemm-bench: SGEMM " << (reports.empty() ? ' ' : reports[0].problem.ta)
      << (reports.empty() ? ' ' : reports[0].problem.tb)
      << ", per 128x128x8 workgroup step (counted on the emulator)'\n"
      << "set grid\nset key off\nset yrange [0:*]\n"
      << "set xlabel 'VALU instructions per step (= VALU clocks of the CU)'\n";
    if (!points.empty()) {  // from 0.9x the least VALU, with room for the labels on the right
        double least = points.front().figures.valu, most = least;
        for (const ParetoPoint& p : points)
            least = std::min(least, p.figures.valu), most = std::max(most, p.figures.valu);
        s << "set xrange [" << std::floor(0.9 * least) << ":" << std::ceil(1.1 * most + 0.3 * (most - least)) << "]\n";
    }
    const auto pareto = [&](const std::string& ylabel, double PerStep::*y) {
        s << "set ylabel '" << ylabel << "'\n"
          << "plot '-' using 1:2 with points pt 7 ps 1.5, '-' using 1:2:3 with labels left offset char 1,0.5\n";
        const auto data = labelled(points, y);
        for (const auto& [x, value, label] : data) s << x << ' ' << value << "\n";
        s << "e\n";
        for (const auto& [x, value, label] : data) s << x << ' ' << value << " \"" << label << "\"\n";
        s << "e\n";
    };
    pareto("LDS read requests per step (lanes)", &PerStep::lds_read_requests);
    pareto("LDS busy cycles per step (bytes/128 + conflicts)", &PerStep::lds_cycles);
    s << "set autoscale x\nset logscale x 2\nset key outside bottom center horizontal maxrows 3\n"
      << "set xlabel 'M (= N = K in a --sizes sweep)'\n";
    if (reports.size() == 1)  // one size: give the lone points some room instead of an empty range
        s << "set xrange [" << std::max(1, reports[0].problem.m / 2) << ":" << 2 * std::max(1, reports[0].problem.m)
          << "]\n";
    const std::string gflops_label = modeled && measured ? "GFLOPS (emu: modeled, hip: measured)"
                                     : modeled           ? "GFLOPS (modeled, not measured)"
                                                         : "GFLOPS (measured)";
    s << "set ylabel '" << gflops_label << "'\nplot ";
    const char* separator = "";
    for (const auto& entry : series) {
        s << separator << "'-' using 1:2 with linespoints lw 2 title '" << entry.first << "'";
        separator = ", ";
    }
    s << "\n";
    for (const auto& entry : series) {
        for (const auto& [size, gflops] : entry.second) s << size << ' ' << gflops << "\n";
        s << "e\n";
    }
    s << "unset multiplot\n";
    return s.str();
}

}  // namespace dppgemm::bench
