// The progression steps (dppgemm/progression.hpp): hipcc-compiled kernels
// from the embedded table progression/CMakeLists.txt generates, launched on
// the emulator like the assembly kernels.
#include "dppgemm/progression.hpp"

#include "emu/loader/code_object.hpp"
#include "emu_launch.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>

extern "C" const dppgemm_code_object dppgemm_progression_code_objects[];
extern "C" const size_t dppgemm_progression_code_object_count;

namespace dppgemm {

namespace {

const char* const sgemm_source = "sgemm_steps";
const char* const transpose_source = "transpose_steps";

// The code object compiled from `source` for `target`; nullptr when the
// progression is not built for it.
const dppgemm_code_object* progression_code_object(const std::string& target, const char* source) {
    for (size_t i = 0; i < dppgemm_progression_code_object_count; ++i) {
        const dppgemm_code_object& co = dppgemm_progression_code_objects[i];
        if (target == co.target && !std::strcmp(co.kernel_name, source)) return &co;
    }
    return nullptr;
}

Result failed(Status status, std::string message) {
    Result r;
    r.status = status;
    r.message = std::move(message);
    return r;
}

std::string joined(const std::vector<std::string>& names) {
    std::string text;
    for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
    return text;
}

// The emu setup both kinds of step share: backend, target, code object, kernel.
struct StepLaunch {
    Result result;
    const emu::Program* program = nullptr;
};

StepLaunch prepare(const char* source, const char* step, const Options& options) {
    StepLaunch launch;
    Result& r = launch.result;
    if (options.backend == Backend::hip)
        return {failed(Status::unsupported,
                       std::string("progression: ") + step + " runs on the emu backend only (Options::backend = hip)"),
                nullptr};
    r.backend = Backend::emu;
    r.target = detail::base_arch(options.emu_target);
    const dppgemm_code_object* co = progression_code_object(r.target, source);
    if (!co)
        return {failed(Status::unsupported, "progression: built for " + joined(progression_targets()) + ", not for '" +
                                                options.emu_target + "'"),
                nullptr};
    r.kernel = std::string("dppgemm_progression_") + step;
    try {
        launch.program = &detail::program_for(co, r.kernel);
    } catch (const std::exception& e) {
        r.status = Status::launch_failure;
        r.message = std::string("progression: ") + e.what();
    }
    return launch;
}

std::uint32_t tiles(int size, unsigned tile) { return std::uint32_t((std::int64_t(size) + tile - 1) / tile); }

// Runs a step on `grid` and reads its rows x cols output (leading dimension
// ld_out) back into `out`.
bool run_step(const emu::Program& program, emu::DeviceMemory& memory, const emu::Kernargs& args, unsigned block,
              std::array<std::uint32_t, 3> grid, std::uint64_t watchdog, std::uint64_t d_out, float* out, int rows,
              int cols, int ld_out, const Options& options, Result& r) {
    emu::LaunchConfig config;
    config.grid = grid;
    config.block = {block, 1, 1};
    config.kernarg = args.bytes();
    config.threads = options.threads;
    config.progress = options.progress;
    config.watchdog = watchdog;
    if (!detail::launch_modeled(program, memory, config, options, r)) return false;
    for (int j = 0; j < cols; ++j)
        memory.read(d_out + std::uint64_t(j) * ld_out * 4, out + std::size_t(j) * ld_out, std::size_t(rows) * 4);
    return true;
}

double milliseconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

const std::vector<SgemmStep>& sgemm_steps() {
    static const std::vector<SgemmStep> rows = {
#define DPPGEMM_SGEMM_STEP(name, block, tile_m, tile_n, tile_k, vector_width, idea) \
    {#name, block, tile_m, tile_n, tile_k, vector_width, idea},
#include "dppgemm/progression.def"
    };
    return rows;
}

const std::vector<TransposeStep>& transpose_steps() {
    static const std::vector<TransposeStep> rows = {
#define DPPGEMM_TRANSPOSE_STEP(name, block, tile, padded, idea) {#name, block, tile, padded != 0, idea},
#include "dppgemm/progression.def"
    };
    return rows;
}

const SgemmStep* find_sgemm_step(std::string_view name) {
    for (const SgemmStep& step : sgemm_steps())
        if (name == step.name) return &step;
    return nullptr;
}

const TransposeStep* find_transpose_step(std::string_view name) {
    for (const TransposeStep& step : transpose_steps())
        if (name == step.name) return &step;
    return nullptr;
}

std::vector<std::string> progression_targets() {
    std::vector<std::string> targets;
    for (size_t i = 0; i < dppgemm_progression_code_object_count; ++i) {
        const std::string target = dppgemm_progression_code_objects[i].target;
        if (std::find(targets.begin(), targets.end(), target) == targets.end()) targets.push_back(target);
    }
    return targets;
}

std::string sgemm_step_restriction(const SgemmStep& step, int m, int n, int k, int lda, int ldb) {
    const std::string name = step.name;
    if (step.tile_k > 1) {
        const auto off = [](int size, unsigned tile) { return size % int(tile) != 0; };
        const std::string tiles =
            std::to_string(step.tile_m) + ", " + std::to_string(step.tile_n) + " and " + std::to_string(step.tile_k);
        if (off(m, step.tile_m) || off(n, step.tile_n) || off(k, step.tile_k))
            return name + " needs M, N and K to be multiples of " + tiles + " (M = " + std::to_string(m) +
                   ", N = " + std::to_string(n) + ", K = " + std::to_string(k) + ")";
    }
    if (lda % int(step.vector_width) || ldb % int(step.vector_width))
        return name + " loads " + std::to_string(step.vector_width) +
               " floats at once: lda and ldb must be multiples of " + std::to_string(step.vector_width) +
               " (lda = " + std::to_string(lda) + ", ldb = " + std::to_string(ldb) + ")";
    return {};
}

Result progression_sgemm(std::string_view step_name, int m, int n, int k, float alpha, const float* a, int lda,
                         const float* b, int ldb, float beta, float* c, int ldc, const Options& options) {
    const SgemmStep* step = find_sgemm_step(step_name);
    if (!step) return failed(Status::invalid_argument, "progression: no SGEMM step '" + std::string(step_name) + "'");
    Result checked = check_sgemm_arguments('N', 'N', m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    if (!checked || checked.quick_return) return checked;
    if (const std::string why = sgemm_step_restriction(*step, m, n, k, lda, ldb); !why.empty())
        return failed(Status::unsupported, "progression: " + why);
    StepLaunch launch = prepare(sgemm_source, step->name, options);
    Result& r = launch.result;
    if (!launch.program) return r;

    const detail::Problem p{{'N', 'N', m, n, k, alpha, a, lda, b, ldb, beta, c, ldc}};
    const auto start = std::chrono::steady_clock::now();
    try {
        emu::DeviceMemory memory;
        const std::size_t a_bytes = p.a_elements() * 4, b_bytes = p.b_elements() * 4, c_bytes = p.c_elements() * 4;
        const std::uint64_t da = memory.allocate(a_bytes ? a_bytes : 4, "A");
        const std::uint64_t db = memory.allocate(b_bytes ? b_bytes : 4, "B");
        const std::uint64_t dc = memory.allocate(c_bytes, "C");
        // alpha = 0 or K = 0 lets A and B be anything (null too): the kernel reads zeros.
        if (p.reads_a_and_b()) {
            if (a_bytes) memory.write(da, a, a_bytes);
            if (b_bytes) memory.write(db, b, b_bytes);
        }
        // model_only runs some workgroups: C keeps its values where the others would write.
        if (beta != 0.0f || options.model_only) memory.write(dc, c, c_bytes);
        emu::Kernargs args(*launch.program);
        args.set(0, da).set(1, db).set(2, dc);
        args.set(3, std::uint32_t(m)).set(4, std::uint32_t(n)).set(5, std::uint32_t(k));
        args.set(6, std::uint32_t(lda)).set(7, std::uint32_t(ldb)).set(8, std::uint32_t(ldc));
        args.set(9, alpha).set(10, beta);
        // The naive steps run a handful of instructions per k and work-item.
        const std::uint64_t watchdog = std::max(emu::default_watchdog, std::uint64_t(k) * 64 + (1u << 20));
        if (!run_step(*launch.program, memory, args, step->block, {tiles(m, step->tile_m), tiles(n, step->tile_n), 1},
                      watchdog, dc, c, m, n, ldc, options, r))
            return r;
    } catch (const std::exception& e) {
        return failed(Status::launch_failure, std::string("progression: ") + e.what());
    }
    r.milliseconds = milliseconds_since(start);
    return r;
}

Result progression_transpose(std::string_view step_name, int rows, int cols, const float* in, int ld_in, float* out,
                             int ld_out, const Options& options) {
    const TransposeStep* step = find_transpose_step(step_name);
    if (!step)
        return failed(Status::invalid_argument, "progression: no transpose step '" + std::string(step_name) + "'");
    if (rows < 0) return failed(Status::invalid_argument, "progression: rows = " + std::to_string(rows) + " < 0");
    if (cols < 0) return failed(Status::invalid_argument, "progression: cols = " + std::to_string(cols) + " < 0");
    if (ld_in < std::max(1, rows))
        return failed(Status::invalid_argument, "progression: ld_in = " + std::to_string(ld_in) +
                                                    " < max(1, rows = " + std::to_string(rows) + ")");
    if (ld_out < std::max(1, cols))
        return failed(Status::invalid_argument, "progression: ld_out = " + std::to_string(ld_out) +
                                                    " < max(1, cols = " + std::to_string(cols) + ")");
    if (rows == 0 || cols == 0) {
        Result r;
        r.quick_return = true;
        return r;
    }
    if (!in || !out)
        return failed(Status::invalid_argument, std::string("progression: ") + (in ? "out" : "in") + " is null");
    StepLaunch launch = prepare(transpose_source, step->name, options);
    Result& r = launch.result;
    if (!launch.program) return r;

    const auto start = std::chrono::steady_clock::now();
    try {
        emu::DeviceMemory memory;
        const std::size_t in_bytes = detail::Problem::extent(rows, cols, ld_in) * 4;
        const std::size_t out_bytes = detail::Problem::extent(cols, rows, ld_out) * 4;
        const std::uint64_t din = memory.allocate(in_bytes, "in");
        const std::uint64_t dout = memory.allocate(out_bytes, "out");
        memory.write(din, in, in_bytes);
        // model_only runs some workgroups: out keeps its values where the others would write.
        if (options.model_only)
            for (int j = 0; j < rows; ++j)
                memory.write(dout + std::uint64_t(j) * ld_out * 4, out + std::size_t(j) * ld_out,
                             std::size_t(cols) * 4);
        emu::Kernargs args(*launch.program);
        args.set(0, din).set(1, dout).set(2, std::uint32_t(rows)).set(3, std::uint32_t(cols));
        args.set(4, std::uint32_t(ld_in)).set(5, std::uint32_t(ld_out));
        // out = in^T: the grid tiles `in`, rows x cols; `out` is cols x rows.
        if (!run_step(*launch.program, memory, args, step->block, {tiles(rows, step->tile), tiles(cols, step->tile), 1},
                      emu::default_watchdog, dout, out, cols, rows, ld_out, options, r))
            return r;
    } catch (const std::exception& e) {
        return failed(Status::launch_failure, std::string("progression: ") + e.what());
    }
    r.milliseconds = milliseconds_since(start);
    return r;
}

}  // namespace dppgemm
