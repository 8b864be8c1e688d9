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

double cycle_model_gflops(const Problem& p, const Row& row) {
    const double ms = row.result.modeled ? row.result.modeled->milliseconds : 0;
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

// The variant table's row of a bench row's variant (nullptr for an unknown name).
const VariantInfo* table_row(const Row& row) {
    const std::optional<Variant> v = parse_variant(row.variant);
    return v ? variant_info(*v) : nullptr;
}

// The 128x128x8 steps of work the row's kernel did (Problem::steps_of its
// macro tile); 0 for a name the table lacks.
double work_steps(const Problem& p, const Row& row) {
    const VariantInfo* info = table_row(row);
    return info ? p.steps_of(info->macro_tile) : 0;
}

std::optional<PerStep> per_step(const Problem& p, const Row& row) {
    const auto& c = row.result.counters;
    const auto gpu = gpu_spec(row.target);
    const double steps = work_steps(p, row);
    if (!row.result || !c || !steps || !gpu) return std::nullopt;
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
    static const std::vector<Figure> list = {
        {"LDS read requests / 128x128x8 step",
         [](const Problem& p, const ConfigReport&, const Row& row) {
             const double steps = work_steps(p, row);
             return row.result.counters && steps
                        ? std::to_string(std::llround(double(row.result.counters->lds_read_requests) / steps))
                        : std::string();
         }},
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
        {"multiply-add share of VALU",
         [](const Problem&, const ConfigReport&, const Row& row) {
             const auto& c = row.result.counters;
             return c && c->valu ? fixed(100.0 * c->valu_multiply_add / c->valu, 1) + " %" : std::string();
         }},
        {"emulation wall time, ms",
         [](const Problem&, const ConfigReport&, const Row& row) {
             return row.on_gpu() ? std::string() : fixed(median(row.ms), 1);
         }},
        {"emulated wave instructions / s",
         [](const Problem&, const ConfigReport&, const Row& row) {
             const double ms = median(row.ms);
             return row.result.counters && ms > 0
                        ? fixed(row.result.counters->wave_instructions() / (ms * 1e3), 1) + " M"
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
        {"  run with the cycle model (untimed), ms",
         [](const Problem&, const ConfigReport&, const Row& row) {
             return !row.on_gpu() && row.result.modeled && row.model_run_ms > 0 ? fixed(row.model_run_ms, 1)
                                                                                : std::string();
         }},
        {"modeled GPU time, ms (cycle model)",
         [](const Problem&, const ConfigReport&, const Row& row) {
             return row.result.modeled ? fixed(row.result.modeled->milliseconds, 3) : std::string();
         }},
        {"modeled GFLOPS (cycle model)",
         [](const Problem& p, const ConfigReport&, const Row& row) {
             return row.result.modeled ? fixed(cycle_model_gflops(p, row), 1) : std::string();
         }},
        {"modeled LDS port utilisation",
         [](const Problem&, const ConfigReport&, const Row& row) {
             return row.result.modeled ? fixed(100.0 * row.result.modeled->lds_port_utilisation, 1) + " %"
                                       : std::string();
         }},
        {"modeled workgroups per CU at once",
         [](const Problem&, const ConfigReport&, const Row& row) {
             return row.result.modeled ? std::to_string(row.result.modeled->resident_workgroups) + " (" +
                                             row.result.modeled->occupancy_limit + ")"
                                       : std::string();
         }},
        {"modeled lower bound (roofline), ms",
         [](const Problem&, const ConfigReport&, const Row& row) {
             return row.modeled ? fixed(row.modeled->milliseconds, 3) : std::string();
         }},
        {"modeled roofline GFLOPS (upper bound)",
         [](const Problem&, const ConfigReport&, const Row& row) {
             return row.modeled ? fixed(row.modeled->gflops, 1) : std::string();
         }},
        {"modeled roofline bound",
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

// Every counter of dppgemm/counters.def by its name, after wave_instructions
// (the classes, indented, add up to it).
const std::vector<Figure>& counter_figures() {
    static const std::vector<Figure> list = [] {
        std::vector<Figure> l = {counted("wave_instructions", [](const Counters& c) { return c.wave_instructions(); })};
        for (const CounterInfo& info : counter_table) {
            const auto member = info.member;
            l.push_back(counted(std::string(info.instruction_class ? "  " : "") + info.name,
                                [member](const Counters& c) { return c.*member; }));
        }
        return l;
    }();
    return list;
}

// The cycle model's breakdown, one figure per component, named by the result
// (docs/performance-model.md, "Breakdown").
std::vector<Figure> breakdown_figures(const std::vector<const Row*>& rows) {
    std::vector<Figure> list;
    for (const Row* row : rows) {
        if (!row->result.modeled) continue;
        for (std::size_t i = 0; i < row->result.modeled->components.size(); ++i)
            list.push_back({"  modeled time: " + row->result.modeled->components[i].first,
                            [i](const Problem&, const ConfigReport&, const Row& r) {
                                const auto& m = r.result.modeled;
                                return m && i < m->components.size() && m->cycles > 0
                                           ? fixed(100.0 * m->components[i].second / m->cycles, 1) + " %"
                                           : std::string();
                            }});
        break;
    }
    return list;
}

// The table's figures for these rows: figures(), the cycle model's
// breakdown after its GFLOPS.
std::vector<Figure> figures_for(const std::vector<const Row*>& rows) {
    std::vector<Figure> list = figures();
    const auto after = std::find_if(list.begin(), list.end(),
                                    [](const Figure& f) { return f.label == "modeled GFLOPS (cycle model)"; });
    const std::vector<Figure> breakdown = breakdown_figures(rows);
    list.insert(after == list.end() ? list.end() : after + 1, breakdown.begin(), breakdown.end());
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
    const int label_width = std::max<int>(40, int(title.size()) + 1);
    int cell_width = 14;  // and one space more than the longest variant name
    for (const Row* row : rows) cell_width = std::max<int>(cell_width, int(row->variant.size()) + 1);
    char text[256];
    std::snprintf(text, sizeof text, "%-*s", label_width, title.c_str());
    out << text;
    for (const Row* row : rows) {
        std::snprintf(text, sizeof text, "%*s", cell_width, row->variant.c_str());
        out << text;
    }
    out << "\n";
    const std::vector<Figure> table = figures_for(rows);
    std::vector<const Figure*> lines;
    for (const std::vector<Figure>* list : {&table, &counter_figures()})
        for (const Figure& figure : *list) lines.push_back(&figure);
    for (const Figure* line : lines) {
        const Figure& figure = *line;
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
    for (const Row& row : r.rows) modeled |= row.modeled.has_value() || row.result.modeled.has_value();
    if (modeled)
        out << "modeled: the cycle model replays the emulator's traces of the first and last workgroups on a model\n"
               "of one compute unit of the named GPU; the roofline is a lower bound from the counts alone\n"
               "(docs/performance-model.md). Not measured on any GPU. Wall times and OpenBLAS times are measured\n"
               "on this machine.\n";
}

void print_model_grid(std::ostream& out, const ConfigReport& r) {
    for (const auto& rows : by_target(r)) {
        // Each row against its tile's plain kernel: the table's first row of
        // the same macro and micro tile (dpp0 for 128x128, dpp0_64 for 64x64).
        const auto base_of = [&rows](const Row& row) -> const Row* {
            const VariantInfo* info = table_row(row);
            if (!info) return nullptr;
            for (const VariantInfo& first : variant_table())
                if (first.macro_tile == info->macro_tile && first.micro_tile == info->micro_tile) {
                    for (const Row* candidate : rows)
                        if (candidate->variant == first.name && candidate->result.modeled) return candidate;
                    return nullptr;
                }
            return nullptr;
        };
        const Row* any_base = nullptr;
        for (const Row* row : rows)
            if (const Row* base = base_of(*row); base && !base->result.modeled_sets.empty()) any_base = base;
        if (!any_base) continue;
        out << rows.front()->target << ": modeled time vs the plain kernel of the same tile over "
            << any_base->result.modeled_sets.size()
            << " sets of the cycle model's unknown parameters (docs/performance-model.md, \"Results and "
               "sensitivity\")\n";
        for (const Row* row : rows) {
            const Row* base = base_of(*row);
            if (!base || base->result.modeled_sets.empty()) continue;
            const std::size_t points = base->result.modeled_sets.size();
            if (row == base || row->result.modeled_sets.size() != points) continue;
            double least = 1e300, most = -1e300;
            for (std::size_t i = 0; i < points; ++i) {
                const double change =
                    100.0 * (row->result.modeled_sets[i].milliseconds / base->result.modeled_sets[i].milliseconds - 1);
                least = std::min(least, change);
                most = std::max(most, change);
            }
            const char* sign = most < 0                  ? "faster on the whole grid"
                               : least > 0               ? "slower on the whole grid"
                               : least == 0 && most == 0 ? "the same on the whole grid"
                                                         : "mixed";
            char text[160];
            std::snprintf(text, sizeof text, "  %-15s vs %-8s %+7.2f%% .. %+7.2f%%  %s\n", row->variant.c_str(),
                          base->variant.c_str(), least, most, sign);
            out << text;
        }
    }
}

namespace {

nlohmann::json counters_json(const Counters& c) {
    nlohmann::json j = {{"wave_instructions", c.wave_instructions()}};
    for (const CounterInfo& info : counter_table) j[info.name] = c.*info.member;
    return j;
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
        const double steps = work_steps(p, row);
        j["lds_read_requests_per_step"] = steps ? std::llround(double(c->lds_read_requests) / steps) : 0;
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
            // The table counts per step of the row's own tile; the bench per
            // 128x128x8 of work (steps_of), which a 64x64 kernel does in 4 steps.
            const std::uint64_t tiles_per_128 = (128 / info->macro_tile) * (128 / info->macro_tile);
            j["expected_lds_read_requests_per_step"] = info->lds_read_requests_per_step * tiles_per_128;
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
            row.result.counters && ms > 0 ? row.result.counters->wave_instructions() / (ms * 1e-3) : 0.0;
        j["emulation_over_openblas"] = emulation_over_openblas(r, row);
        j["openblas_runs_ms"] = row.openblas_ms;  // each right before the run_ms entry of its round
        if (row.model_run_ms > 0) j["model_run_ms"] = row.model_run_ms;  // the untimed run with the cycle model
    }
    if (row.modeled || row.result.modeled) {
        nlohmann::json m = {{"is_modeled", true},
                            {"label", "modeled by docs/performance-model.md, not measured"},
                            {"gpu", gpu_spec(row.target) ? gpu_spec(row.target)->product : ""}};
        if (const auto& cycle = row.result.modeled) {
            m["gpu_ms"] = cycle->milliseconds;
            m["gflops"] = cycle_model_gflops(p, row);
            m["cycles"] = cycle->cycles;
            nlohmann::json components = nlohmann::json::object();
            for (const auto& [name, cycles] : cycle->components) components[name] = cycles;
            m["components"] = components;
            m["lds_port_utilisation"] = cycle->lds_port_utilisation;
            m["resident_workgroups"] = cycle->resident_workgroups;
            m["occupancy_limit"] = cycle->occupancy_limit;
            m["workgroups_on_busiest_cu"] = cycle->workgroups_on_cu;
        }
        if (!row.result.modeled_sets.empty()) {
            nlohmann::json grid = nlohmann::json::array();
            const std::vector<std::string>& sets = model_grid();
            for (std::size_t i = 0; i < row.result.modeled_sets.size(); ++i)
                grid.push_back({{"parameters", i < sets.size() ? sets[i] : ""},
                                {"gpu_ms", row.result.modeled_sets[i].milliseconds}});
            m["grid"] = grid;
        }
        if (row.modeled) {
            const Modeled& roof = *row.modeled;
            m["bound"] = roof.bound;
            m["roofline"] = {{"label", "lower bound: the largest of VALU, MFMA, LDS, DRAM and issue time"},
                             {"gpu_ms", roof.milliseconds},
                             {"gflops", roof.gflops},
                             {"bound", roof.bound},
                             {"busiest_cu_workgroups", roof.busiest_cu_workgroups},
                             {"valu_cycles", roof.valu_cycles},
                             {"mfma_cycles", roof.mfma_cycles},
                             {"lds_cycles", roof.lds_cycles},
                             {"memory_cycles", roof.memory_cycles},
                             {"issue_cycles", roof.issue_cycles},
                             {"cycles", roof.cycles}};
            if (!row.result.modeled) {
                m["gpu_ms"] = roof.milliseconds;
                m["gflops"] = roof.gflops;
            }
        }
        j["modeled"] = m;
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
           "lds_read_requests_per_step,lds_bytes,wave_instructions,";
    for (const CounterInfo& info : counter_table) out << info.name << ',';
    out << "multiply_add_share_of_valu,emulation_wall_ms,wave_instructions_per_second,openblas_ms,"
           "emulation_over_openblas,"
           "measured_gpu_ms,measured_gflops,modeled_gpu_ms,modeled_gflops,modeled_bound,verification,"
           "valu_per_step,lds_cycles_per_step,lds_share_of_valu_cycles,modeled_cycles";
    for (const std::string& name : modeled_time_components()) out << ",modeled_" << name;
    out << ",modeled_lds_port_utilisation,modeled_roofline_gpu_ms\n";
    for (const ConfigReport& r : reports)
        for (const Row& row : r.rows) {
            const nlohmann::json j = row_json(r, row);
            const Problem& p = r.problem;
            const Counters c = row.result.counters.value_or(Counters{});
            const auto field = [&](const char* key) { return j.contains(key) ? j[key].dump() : std::string(); };
            const auto sub = [&](const char* object, const char* key) {
                return j.contains(object) && j[object].contains(key) ? j[object][key].dump() : std::string();
            };
            out << p.ta << ',' << p.tb << ',' << p.m << ',' << p.n << ',' << p.k << ',' << p.alpha << ',' << p.lda
                << ',' << p.ldb << ',' << p.beta << ',' << p.ldc << ',' << row.target << ',' << row.variant << ','
                << to_string(row.result.backend) << ',' << to_string(row.result.status) << ','
                << field("lds_read_requests_per_step") << ',' << c.lds_read_bytes + c.lds_write_bytes << ','
                << c.wave_instructions() << ',';
            for (const CounterInfo& info : counter_table) out << c.*info.member << ',';
            out << field("multiply_add_share_of_valu") << ',' << field("emulation_wall_ms") << ','
                << field("wave_instructions_per_second") << ',' << r.openblas_ms << ','
                << field("emulation_over_openblas") << ',' << sub("measured", "gpu_ms") << ','
                << sub("measured", "gflops") << ',' << sub("modeled", "gpu_ms") << ',' << sub("modeled", "gflops")
                << ',' << (row.modeled ? row.modeled->bound : "") << ',' << verdict(row) << ','
                << field("valu_per_step") << ',' << field("lds_cycles_per_step") << ','
                << field("lds_share_of_valu_cycles") << ',' << sub("modeled", "cycles");
            for (const std::string& name : modeled_time_components())
                out << ','
                    << (j.contains("modeled") && j["modeled"].contains("components")
                            ? j["modeled"]["components"].value(name, nlohmann::json()).dump()
                            : std::string());
            out << ',' << sub("modeled", "lds_port_utilisation") << ','
                << (j.contains("modeled") && j["modeled"].contains("roofline")
                        ? j["modeled"]["roofline"]["gpu_ms"].dump()
                        : std::string())
                << '\n';
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
            const double gflops = row.on_gpu()         ? measured_gflops(r.problem, row)
                                  : row.result.modeled ? cycle_model_gflops(r.problem, row)
                                  : row.modeled        ? row.modeled->gflops
                                                       : 0;
            modeled |= !row.on_gpu();
            measured |= row.on_gpu();
            series[row.target + " " + row.variant].emplace_back(r.problem.m, gflops);
        }
    const bool png = path.size() > 4 && path.compare(path.size() - 4, 4, ".png") == 0;
    std::ostringstream s;
    // noenhanced: the underscores of variant names are text, not subscripts
    s << "set terminal "
      << (png ? "pngcairo size 1800,560 noenhanced font ',10'" : "svg size 1800,560 dynamic noenhanced font ',10'")
      << "\n"
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
