// dppgemm-bench: the dppgemm variants side by side on one SGEMM problem (or a
// sweep): LDS requests, instruction mix, time, verification. Uses only the
// public API (include/dppgemm) and OpenBLAS.
#include "dppgemm/dppgemm.hpp"
#include "dppgemm/reference.hpp"
#include "model.hpp"
#include "options.hpp"

#include <cblas.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <tuple>
#include <random>
#include <sstream>

namespace dppgemm::bench {
namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : (v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2);
}

struct Problem {
  char ta, tb;
  int m, n, k, lda, ldb, ldc;
  float alpha, beta;
  std::vector<float> a, b, c0;
  long long steps() const {  // 128x128x8 steps the kernels compute
    return (m + 127LL) / 128 * ((n + 127LL) / 128) * ((k + 7LL) / 8);
  }
  double flops() const { return 2.0 * m * n * k; }
};

Problem make_problem(const BenchOptions& o, const Shape& s, std::uint64_t seed) {
  Problem p{o.trans_a, o.trans_b, s.m, s.n, s.k, 0, 0, 0, o.alpha, o.beta, {}, {}, {}};
  const int rows_a = p.ta == 'N' ? p.m : p.k, cols_a = p.ta == 'N' ? p.k : p.m;
  const int rows_b = p.tb == 'N' ? p.k : p.n, cols_b = p.tb == 'N' ? p.n : p.k;
  p.lda = o.lda ? o.lda : std::max(1, rows_a);
  p.ldb = o.ldb ? o.ldb : std::max(1, rows_b);
  p.ldc = o.ldc ? o.ldc : std::max(1, p.m);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  const auto fill = [&](std::vector<float>& v, std::size_t count) {
    v.resize(std::max<std::size_t>(count, 1));
    for (float& x : v) x = uniform(rng);
  };
  fill(p.a, std::size_t(p.lda) * std::max(cols_a, 0));
  fill(p.b, std::size_t(p.ldb) * std::max(cols_b, 0));
  fill(p.c0, std::size_t(p.ldc) * std::max(p.n, 0));
  return p;
}

// Which flag a BLAS argument position came from, for usage errors.
const char* flag_of_position(int position) {
  switch (position) {
    case 1: return "--transposeA";
    case 2: return "--transposeB";
    case 3: return "-m";
    case 4: return "-n";
    case 5: return "-k";
    case 8: return "--lda";
    case 10: return "--ldb";
    case 13: return "--ldc";
  }
  return "?";
}

// Progress on stderr for runs longer than a second, only on a terminal.
class ProgressBar {
 public:
  explicit ProgressBar(std::string label) : label_(std::move(label)), start_(Clock::now()) {}
  ~ProgressBar() {
    if (shown_) std::fprintf(stderr, "\r%*s\r", 78, "");
  }
  void update(std::uint64_t done, std::uint64_t total) {
    if (!isatty(STDERR_FILENO) || total == 0) return;
    const double seconds = std::chrono::duration<double>(Clock::now() - start_).count();
    if (seconds < 1.0) return;
    const int width = 30, filled = int(width * done / total);
    std::fprintf(stderr, "\r%-28s [%.*s%*s] %3d%% %6.1fs", label_.c_str(), filled,
                 "##############################", width - filled, "", int(100 * done / total), seconds);
    std::fflush(stderr);
    shown_ = true;
  }

 private:
  std::string label_;
  Clock::time_point start_;
  bool shown_ = false;
};

struct Row {
  std::string variant, backend, target, kernel;
  Result result;
  std::vector<double> ms;        // emu: wall time; hip: GPU time (events)
  bool verified = false, bitwise = false, within_bound = false;
  std::string mismatch;          // first mismatch, if any
  double max_error_ratio = 0;    // max |C - C_openblas| / bound
  std::optional<Modeled> modeled;
};

// |C - C_blas| <= gamma(K+2) * (|alpha| sum |a||b| + |beta| |c|) per element:
// the classic dot-product bound, met by every summation order and by mac and fma.
double error_ratio(const Problem& p, const std::vector<float>& c, const std::vector<float>& c_blas, int i,
                   int j) {
  const auto op_a = [&](int r, int q) { return p.ta == 'N' ? p.a[r + std::size_t(q) * p.lda] : p.a[q + std::size_t(r) * p.lda]; };
  const auto op_b = [&](int r, int q) { return p.tb == 'N' ? p.b[r + std::size_t(q) * p.ldb] : p.b[q + std::size_t(r) * p.ldb]; };
  double magnitude = std::fabs(p.beta) * std::fabs(p.c0[i + std::size_t(j) * p.ldc]);
  for (int q = 0; q < p.k; ++q) magnitude += std::fabs(p.alpha) * std::fabs(op_a(i, q)) * std::fabs(op_b(q, j));
  const double u = std::ldexp(1.0, -24), gamma = (p.k + 3) * u / (1 - (p.k + 3) * u);
  const double bound = gamma * magnitude + 4 * std::numeric_limits<float>::min();
  return std::fabs(double(c[i + std::size_t(j) * p.ldc]) - c_blas[i + std::size_t(j) * p.ldc]) / bound;
}

void verify(const Problem& p, const std::vector<float>& c, const std::vector<float>& c_same_order,
            const std::vector<float>& c_blas, Row& row) {
  row.verified = true;
  row.bitwise = true;
  row.max_error_ratio = 0;
  for (int j = 0; j < p.n; ++j)
    for (int i = 0; i < p.m; ++i) {
      const std::size_t at = i + std::size_t(j) * p.ldc;
      if (std::memcmp(&c[at], &c_same_order[at], 4) != 0 && row.bitwise) {
        row.bitwise = false;
        std::ostringstream s;
        s << "C(" << i << "," << j << ") = " << c[at] << " but the same-order reference gives "
          << c_same_order[at];
        row.mismatch = s.str();
      }
      // a sample of the error bound (every element would cost O(MNK) again)
      if ((i * 7 + j * 13) % 61 == 0) row.max_error_ratio = std::max(row.max_error_ratio, error_ratio(p, c, c_blas, i, j));
    }
  row.within_bound = row.max_error_ratio <= 1.0;
}

std::string fixed(double v, int digits) {
  std::ostringstream s;
  s.setf(std::ios::fixed);
  s.precision(digits);
  s << v;
  return s.str();
}

struct ConfigReport {
  Problem problem;
  double openblas_ms = 0;
  std::vector<Row> rows;
};

void print_table(const ConfigReport& r) {
  const Problem& p = r.problem;
  std::cout << "\nSGEMM " << p.ta << p.tb << "  M=" << p.m << " N=" << p.n << " K=" << p.k << "  lda=" << p.lda
            << " ldb=" << p.ldb << " ldc=" << p.ldc << "  alpha=" << p.alpha << " beta=" << p.beta
            << "  (" << p.steps() << " steps of 128x128x8)\n";
  std::printf("%-6s %-7s %-4s %12s %14s %10s %10s %10s %6s %10s %10s %9s %10s %11s %13s %-6s %s\n", "target",
              "variant", "be", "LDSreq/step", "LDS req", "LDS MB", "conflicts", "VALU", "MAC%", "SALU", "wave inst",
              "time ms", "Minst/s", "GPU ms", "GFLOPS", "bound", "verify");
  for (const Row& row : r.rows) {
    const Result& res = row.result;
    const double ms = median(row.ms);
    if (!res) {
      std::printf("%-6s %-7s %-4s  FAILED: %s\n", row.target.c_str(), row.variant.c_str(), row.backend.c_str(),
                  res.message.c_str());
      continue;
    }
    std::string ldsreq = "-", ldsreq_total = "-", lds_mb = "-", conflicts = "-", valu = "-", mac = "-", salu = "-",
                insts = "-", rate = "-";
    if (res.counters) {
      const Counters& c = *res.counters;
      const std::uint64_t total = c.salu + c.valu + c.smem + c.vmem_load + c.vmem_store + c.lds_read +
                                  c.lds_write + c.branch + c.waitcnt + c.barrier + c.nop + c.other;
      ldsreq = p.steps() ? std::to_string(c.lds_read_requests / p.steps()) : "-";
      ldsreq_total = std::to_string(c.lds_read_requests);
      lds_mb = fixed((c.lds_read_bytes + c.lds_write_bytes) / 1e6, 1);
      conflicts = std::to_string(c.lds_bank_conflict_cycles);
      valu = std::to_string(c.valu);
      mac = c.valu ? fixed(100.0 * c.valu_fma / c.valu, 1) : "-";
      salu = std::to_string(c.salu);
      insts = std::to_string(total);
      rate = ms > 0 ? fixed(total / (ms * 1e3), 1) : "-";
    }
    std::string gpu_ms = "-", gflops = "-", bound = "-";
    if (row.backend == "hip") {
      gpu_ms = fixed(ms, 3);
      gflops = fixed(p.flops() / (ms * 1e6), 1);
    } else if (row.modeled) {
      gpu_ms = fixed(row.modeled->milliseconds, 3) + "*";
      gflops = fixed(row.modeled->gflops, 1) + "*";
      bound = row.modeled->bound;
    }
    const std::string verdict = !row.verified ? "off"
                                : row.bitwise && row.within_bound ? "ok"
                                                                  : "FAIL";
    std::printf("%-6s %-7s %-4s %12s %14s %10s %10s %10s %6s %10s %10s %9s %10s %11s %13s %-6s %s\n",
                row.target.c_str(), row.variant.c_str(), row.backend.c_str(), ldsreq.c_str(), ldsreq_total.c_str(),
                lds_mb.c_str(), conflicts.c_str(), valu.c_str(), mac.c_str(), salu.c_str(), insts.c_str(),
                fixed(ms, 1).c_str(), rate.c_str(), gpu_ms.c_str(), gflops.c_str(), bound.c_str(), verdict.c_str());
    if (!row.mismatch.empty()) std::printf("       first mismatch: %s\n", row.mismatch.c_str());
  }
  bool any_emu = false;
  double emu_ms = 0;
  for (const Row& row : r.rows)
    if (row.backend == "emu" && row.result) {
      any_emu = true;
      emu_ms = std::max(emu_ms, median(row.ms));
    }
  std::printf("OpenBLAS sgemm on this machine: %.3f ms", r.openblas_ms);
  if (any_emu && r.openblas_ms > 0) std::printf("; slowest emulation / OpenBLAS = %.1fx", emu_ms / r.openblas_ms);
  std::printf("\n");
  if (any_emu)
    std::printf("* modeled: GPU time and GFLOPS the performance model (docs/performance-model.md) derives from\n"
                "  the emulator's counts for the target; not measured on a GPU. 'time ms' is emulation wall time.\n");
}

nlohmann::json counters_json(const Counters& c) {
  return {{"workgroups", c.workgroups}, {"waves", c.waves}, {"salu", c.salu}, {"valu", c.valu},
          {"valu_dpp", c.valu_dpp}, {"valu_fma", c.valu_fma}, {"smem", c.smem}, {"vmem_load", c.vmem_load},
          {"vmem_store", c.vmem_store}, {"lds_read", c.lds_read}, {"lds_write", c.lds_write},
          {"branch", c.branch}, {"waitcnt", c.waitcnt}, {"barrier", c.barrier}, {"nop", c.nop},
          {"other", c.other}, {"lds_read_requests", c.lds_read_requests}, {"lds_read_bytes", c.lds_read_bytes},
          {"lds_write_requests", c.lds_write_requests}, {"lds_write_bytes", c.lds_write_bytes},
          {"lds_bank_conflict_cycles", c.lds_bank_conflict_cycles},
          {"global_bytes_read", c.global_bytes_read}, {"global_bytes_written", c.global_bytes_written}};
}

nlohmann::json report_json(const std::vector<ConfigReport>& reports) {
  nlohmann::json configs = nlohmann::json::array();
  for (const ConfigReport& r : reports) {
    const Problem& p = r.problem;
    nlohmann::json rows = nlohmann::json::array();
    for (const Row& row : r.rows) {
      nlohmann::json j = {{"variant", row.variant}, {"backend", row.backend}, {"target", row.target},
                          {"kernel", row.kernel}, {"status", to_string(row.result.status)},
                          {"message", row.result.message}};
      if (row.result.counters) {
        j["counters"] = counters_json(*row.result.counters);
        j["lds_read_requests_per_step"] = p.steps() ? row.result.counters->lds_read_requests / p.steps() : 0;
      }
      if (row.backend == "hip") {
        j["measured_gpu_ms"] = median(row.ms);
        j["measured_gflops"] = p.flops() / (median(row.ms) * 1e6);
      } else {
        j["emulation_wall_ms"] = median(row.ms);
      }
      if (row.modeled)
        j["modeled"] = {{"label", "modeled, not measured"}, {"modeled_gpu_ms", row.modeled->milliseconds},
                        {"modeled_gflops", row.modeled->gflops}, {"bound", row.modeled->bound},
                        {"valu_cycles", row.modeled->valu_cycles}, {"lds_cycles", row.modeled->lds_cycles},
                        {"memory_cycles", row.modeled->memory_cycles}, {"issue_cycles", row.modeled->issue_cycles},
                        {"quantization", row.modeled->quantization}};
      j["verification"] = {{"enabled", row.verified}, {"bitwise_same_order", row.bitwise},
                           {"max_error_over_bound_vs_openblas", row.max_error_ratio},
                           {"passed", !row.verified || (row.bitwise && row.within_bound)},
                           {"first_mismatch", row.mismatch}};
      rows.push_back(j);
    }
    configs.push_back({{"trans_a", std::string(1, p.ta)}, {"trans_b", std::string(1, p.tb)}, {"m", p.m},
                       {"n", p.n}, {"k", p.k}, {"lda", p.lda}, {"ldb", p.ldb}, {"ldc", p.ldc},
                       {"alpha", p.alpha}, {"beta", p.beta}, {"steps", p.steps()},
                       {"openblas_ms", r.openblas_ms}, {"variants", rows}});
  }
  return {{"tool", "dppgemm-bench"}, {"configs", configs}};
}

void write_csv(const std::string& path, const std::vector<ConfigReport>& reports) {
  std::ofstream out(path);
  out << "transA,transB,M,N,K,lda,ldb,ldc,alpha,beta,target,variant,backend,status,lds_read_requests_per_step,"
         "lds_read_requests,lds_read_bytes,lds_write_bytes,lds_bank_conflict_cycles,valu,valu_fma,valu_dpp,salu,"
         "wall_ms,measured_gpu_ms,measured_gflops,modeled_gpu_ms,modeled_gflops,openblas_ms,verified\n";
  for (const ConfigReport& r : reports)
    for (const Row& row : r.rows) {
      const Problem& p = r.problem;
      const Counters c = row.result.counters.value_or(Counters{});
      const bool hip = row.backend == "hip";
      out << p.ta << ',' << p.tb << ',' << p.m << ',' << p.n << ',' << p.k << ',' << p.lda << ',' << p.ldb << ','
          << p.ldc << ',' << p.alpha << ',' << p.beta << ',' << row.target << ',' << row.variant << ','
          << row.backend << ',' << to_string(row.result.status) << ','
          << (p.steps() ? c.lds_read_requests / p.steps() : 0) << ',' << c.lds_read_requests << ','
          << c.lds_read_bytes << ',' << c.lds_write_bytes << ',' << c.lds_bank_conflict_cycles << ',' << c.valu
          << ',' << c.valu_fma << ',' << c.valu_dpp << ',' << c.salu << ',' << median(row.ms) << ','
          << (hip ? std::to_string(median(row.ms)) : "") << ','
          << (hip ? std::to_string(p.flops() / (median(row.ms) * 1e6)) : "") << ','
          << (row.modeled ? std::to_string(row.modeled->milliseconds) : "") << ','
          << (row.modeled ? std::to_string(row.modeled->gflops) : "") << ',' << r.openblas_ms << ','
          << (row.verified ? (row.bitwise && row.within_bound ? "passed" : "FAILED") : "off") << '\n';
    }
}

// gnuplot: LDS read requests per step and GFLOPS (modeled on emu) per variant, across sizes.
bool write_plot(const std::string& path, const std::vector<ConfigReport>& reports) {
  std::map<std::string, std::vector<std::tuple<int, double, double>>> series;  // label -> (size, req, gflops)
  bool modeled = false;
  for (const ConfigReport& r : reports)
    for (const Row& row : r.rows) {
      if (!row.result || !row.result.counters) continue;
      const double gflops = row.backend == "hip" ? r.problem.flops() / (median(row.ms) * 1e6)
                                                  : row.modeled ? row.modeled->gflops : 0;
      modeled |= row.backend != "hip";
      const double req = r.problem.steps() ? double(row.result.counters->lds_read_requests) / r.problem.steps() : 0;
      series[row.target + " " + row.variant].emplace_back(r.problem.m, req, gflops);
    }
  if (series.empty()) return false;
  const bool png = path.size() > 4 && path.substr(path.size() - 4) == ".png";
  std::string script = std::string("set terminal ") + (png ? "pngcairo size 1100,450" : "svg size 1100,450") +
                       "\nset output '" + path + "'\nset multiplot layout 1,2\nset logscale x 2\nset key top left\n"
                       "set xlabel 'M = N = K'\nset ylabel 'LDS read requests per 128x128x8 step'\nset yrange [0:*]\n";
  const auto plot = [&](int column) {
    std::string cmd = "plot ";
    bool first = true;
    for (const auto& [label, points] : series) {
      cmd += std::string(first ? "" : ", ") + "'-' using 1:2 with linespoints title '" + label + "'";
      first = false;
    }
    cmd += "\n";
    for (const auto& [label, points] : series) {
      for (const auto& [size, req, gflops] : points)
        cmd += std::to_string(size) + " " + std::to_string(column == 0 ? req : gflops) + "\n";
      cmd += "e\n";
    }
    return cmd;
  };
  script += plot(0);
  script += std::string("set ylabel '") + (modeled ? "GFLOPS (modeled)" : "GFLOPS (measured)") + "'\n";
  script += plot(1) + "unset multiplot\n";
  FILE* gnuplot = popen("gnuplot", "w");
  if (!gnuplot) return false;
  std::fwrite(script.data(), 1, script.size(), gnuplot);
  return pclose(gnuplot) == 0;
}

int run(const BenchOptions& o) {
  std::vector<ConfigReport> reports;
  bool all_passed = true;
  std::uint64_t seed = o.seed;
  for (const Shape& shape : o.shapes) {
    ConfigReport report{make_problem(o, shape, seed++), 0, {}};
    Problem& p = report.problem;
    const Result checked = check_sgemm_arguments(p.ta, p.tb, p.m, p.n, p.k, p.alpha, p.lda, p.ldb, p.beta, p.ldc);
    if (checked.status == Status::invalid_argument)
      throw UsageError(std::string("dppgemm-bench: ") + flag_of_position(checked.invalid_argument) + ": " +
                       checked.message);

    // OpenBLAS: the accuracy reference and the speed yardstick on this machine.
    std::vector<float> c_blas = p.c0;
    std::vector<double> blas_ms;
    for (int it = 0; it < o.warmup + o.iterations; ++it) {
      c_blas = p.c0;
      const auto t0 = Clock::now();
      cblas_sgemm(CblasColMajor, p.ta == 'N' ? CblasNoTrans : CblasTrans, p.tb == 'N' ? CblasNoTrans : CblasTrans,
                  p.m, p.n, p.k, p.alpha, p.a.data(), p.lda, p.b.data(), p.ldb, p.beta, c_blas.data(), p.ldc);
      if (it >= o.warmup) blas_ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    report.openblas_ms = median(blas_ms);

    std::map<MacKind, std::vector<float>> same_order;  // computed once per MAC flavour
    const std::vector<std::string> targets = o.backend == Backend::hip ? std::vector<std::string>{"device"} : o.archs;
    for (const std::string& arch : targets)
      for (Variant variant : o.variants) {
        Row row;
        row.variant = to_string(variant);
        Options options;
        options.variant = variant;
        options.backend = o.backend;
        options.emu_target = arch;
        options.threads = o.threads;
        ProgressBar bar(arch + " " + row.variant);
        options.progress = [&bar](std::uint64_t done, std::uint64_t total) { bar.update(done, total); };
        std::vector<float> c;
        for (int it = 0; it < o.warmup + o.iterations; ++it) {
          c = p.c0;
          const auto t0 = Clock::now();
          row.result = sgemm(p.ta, p.tb, p.m, p.n, p.k, p.alpha, p.a.data(), p.lda, p.b.data(), p.ldb, p.beta,
                             c.data(), p.ldc, options);
          const double wall = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
          if (!row.result) break;
          if (it >= o.warmup) row.ms.push_back(row.result.backend == Backend::hip ? row.result.milliseconds : wall);
        }
        row.backend = to_string(row.result.backend);
        row.target = row.result.target.empty() ? arch : row.result.target;
        row.kernel = row.result.kernel;
        if (!row.result) {
          all_passed = false;
        } else {
          if (row.result.counters)
            if (auto gpu = gpu_spec(row.target))
              row.modeled = model_launch(*gpu, *row.result.counters, p.flops(), /*workgroups_per_cu=*/2);
          if (o.verify) {
            const MacKind mac = row.target.rfind("gfx94", 0) == 0 ? MacKind::fmac_f32 : MacKind::mac_f32;
            auto [it, fresh] = same_order.try_emplace(mac, p.c0);
            if (fresh)
              reference_sgemm(mac, p.ta, p.tb, p.m, p.n, p.k, p.alpha, p.a.data(), p.lda, p.b.data(), p.ldb,
                              p.beta, it->second.data(), p.ldc);
            verify(p, c, it->second, c_blas, row);
            all_passed &= row.bitwise && row.within_bound;
          }
        }
        report.rows.push_back(std::move(row));
      }
    print_table(report);
    reports.push_back(std::move(report));
  }
  if (!o.csv.empty()) write_csv(o.csv, reports);
  if (!o.json.empty()) std::ofstream(o.json) << report_json(reports).dump(2) << "\n";
  if (!o.plot.empty() && !write_plot(o.plot, reports)) {
    std::cerr << "dppgemm-bench: --plot " << o.plot << ": gnuplot failed\n";
    all_passed = false;
  }
  if (!all_passed) std::cerr << "dppgemm-bench: FAILED (see the rows marked FAIL/FAILED above)\n";
  return all_passed ? 0 : 1;
}

}  // namespace
}  // namespace dppgemm::bench

int main(int argc, char** argv) {
  using namespace dppgemm::bench;
  try {
    auto options = parse_options(argc, argv);
    if (!options) return 0;
    return run(*options);
  } catch (const UsageError& e) {
    std::cerr << e.what() << "\n";
    return 2;
  }
}
