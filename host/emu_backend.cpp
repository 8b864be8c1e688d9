// The emu backend: the embedded code object run on dppgemm's gfx9 emulator.
#include "emu_launch.hpp"

#include "emu/exec/dispatch.hpp"
#include "emu/loader/code_object.hpp"
#include "emu/timing/cu_model.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <utility>

namespace dppgemm::detail {

// Decoding is done once per code object and kernel for the life of the process.
const emu::Program& program_for(const dppgemm_code_object* co, const std::string& kernel) {
    static std::mutex mutex;
    static std::map<std::pair<const dppgemm_code_object*, std::string>, std::unique_ptr<emu::Program>> programs;
    std::lock_guard<std::mutex> lock(mutex);
    std::unique_ptr<emu::Program>& slot = programs[{co, kernel}];
    if (!slot) {
        const emu::CodeObject object =
            emu::load_code_object(co->data, co->size, std::string("embedded ") + co->target + " " + co->kernel_name);
        slot = std::make_unique<emu::Program>(emu::build_program(object, object.kernel(kernel)));
    }
    return *slot;
}

namespace {

std::array<std::uint32_t, 3> grid_position(const std::array<std::uint32_t, 3>& grid, std::uint64_t linear_id) {
    return {std::uint32_t(linear_id % grid[0]), std::uint32_t(linear_id / grid[0] % grid[1]),
            std::uint32_t(linear_id / grid[0] / grid[1])};
}

Counters public_counters(const emu::Counters& c) {
    Counters out;
#define DPPGEMM_INSTRUCTION_CLASS(name, counts) out.name = c[emu::InstClass::name];
#define DPPGEMM_COUNTER(name, counts) out.name = c.name;
#include "dppgemm/counters.def"
    return out;
}

// Where the kernel finds A and B. It only loads from them, so the caller's
// arrays are mapped where they are (DeviceMemory::map_host) instead of
// copied: a copy of each per call, and its zeroing, cost as much as a
// workgroup's start. A and B that share bytes (two blocks of one matrix, as
// LAPACK passes them) are one mapping of both ranges. Copies remain where a
// range cannot be mapped (at or above DeviceMemory::first_address). With
// alpha = 0 or K = 0 the BLAS contract lets A and B be anything, null
// included: they get zeroed allocations, of which the kernel reads only
// zeros (0 * 0 adds +0).
std::pair<std::uint64_t, std::uint64_t> input_addresses(emu::DeviceMemory& memory, const Problem& p,
                                                        std::size_t a_bytes, std::size_t b_bytes) {
    const auto zeroed = [&memory](std::size_t bytes, const char* name) {
        // Zero-sized operands still get an allocation: the kernel never
        // touches them, but their address must be a valid one.
        return memory.allocate(bytes ? bytes : 4, name);
    };
    if (!p.reads_a_and_b()) return {zeroed(a_bytes, "A"), zeroed(b_bytes, "B")};
    const auto a = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(p.a));
    const auto b = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(p.b));
    const auto mappable = [](std::uint64_t address, std::uint64_t bytes) {
        return bytes != 0 && address != 0 && address < emu::DeviceMemory::first_address &&
               bytes <= emu::DeviceMemory::first_address - address;
    };
    if (!mappable(a, a_bytes) || !mappable(b, b_bytes)) {
        const std::uint64_t a_copy = zeroed(a_bytes, "A"), b_copy = zeroed(b_bytes, "B");
        memory.write(a_copy, p.a, a_bytes);
        memory.write(b_copy, p.b, b_bytes);
        return {a_copy, b_copy};
    }
    // The kernel never stores to A or B (its stores go through C's buffer
    // descriptor), so the const arrays may be mapped.
    auto* const host_a = const_cast<float*>(p.a);
    auto* const host_b = const_cast<float*>(p.b);
    if (a < b + b_bytes && b < a + a_bytes) {
        const std::uint64_t first = std::min(a, b), end = std::max(a + a_bytes, b + b_bytes);
        memory.map_host(a <= b ? static_cast<void*>(host_a) : static_cast<void*>(host_b), end - first, "A and B");
    } else {
        memory.map_host(host_a, a_bytes, "A");
        memory.map_host(host_b, b_bytes, "B");
    }
    return {a, b};
}

ModeledTime public_modeled(const emu::timing::CuModelResult& m, emu::Target target,
                           const emu::timing::LaunchShape& shape) {
    ModeledTime out;
    out.vgprs = shape.vgprs;
    out.lds_bytes = shape.lds_bytes;
    out.gpu = emu::board(target).model_label;
    out.milliseconds = m.milliseconds;
    out.cycles = m.cycles;
    for (std::size_t i = 0; i < emu::timing::stall_count; ++i)
        out.components.emplace_back(emu::timing::stall_name(static_cast<emu::timing::Stall>(i)), m.components[i]);
    out.lds_port_utilisation = m.lds_port_utilisation;
    out.resident_workgroups = m.resident_workgroups;
    out.occupancy_limit = m.occupancy_limit;
    out.workgroups_on_cu = m.workgroups_on_cu;
    return out;
}

}  // namespace

}  // namespace dppgemm::detail

namespace dppgemm {

const std::vector<std::string>& modeled_time_components() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> list;
        for (std::size_t i = 0; i < emu::timing::stall_count; ++i)
            list.push_back(emu::timing::stall_name(static_cast<emu::timing::Stall>(i)));
        return list;
    }();
    return names;
}

std::string model_parameters_error(const std::string& text) {
    emu::timing::Parameters parameters = emu::timing::parameters(emu::default_target);
    try {
        emu::timing::apply_overrides(parameters, text);
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return {};
}

}  // namespace dppgemm

namespace dppgemm::detail {

bool launch_modeled(const emu::Program& program, emu::DeviceMemory& memory, emu::LaunchConfig& config,
                    const Options& options, Result& r) {
    const auto fail = [&r](Status status, std::string message) {
        r.status = status;
        r.message = std::move(message);
        return false;
    };
    std::optional<emu::timing::Parameters> parameters;
    std::optional<emu::timing::TraceRecorder> recorder;
    if (options.model) {
        parameters = emu::timing::parameters(program.target);
        try {
            emu::timing::apply_overrides(*parameters, options.model_parameters);
        } catch (const std::invalid_argument& e) {
            return fail(Status::invalid_argument, std::string("emu: Options::model_parameters: ") + e.what());
        }
        recorder.emplace(emu::timing::representative_workgroups(config.grid));
        config.observer = &*recorder;
        if (options.model_only) config.only_workgroups = emu::timing::representative_workgroups(config.grid);
    }
    const emu::DispatchResult dispatch = emu::launch(memory, program, config);
    r.counters = public_counters(dispatch.counters);
    if (dispatch.fault) return fail(Status::kernel_fault, "emu: " + dispatch.fault->message);
    if (recorder) {
        const emu::timing::LaunchShape shape = emu::timing::launch_shape(program, config.grid, config.block);
        const std::vector<emu::timing::WorkgroupTrace> traces = recorder->traces();
        r.modeled = public_modeled(emu::timing::model_cu(program, shape, traces, *parameters), program.target, shape);
        for (const emu::timing::WorkgroupTrace& trace : traces)
            r.modeled->traced_workgroups.push_back(grid_position(config.grid, trace.linear_id));
        for (const std::string& set : options.model_parameter_sets) {
            emu::timing::Parameters varied = *parameters;
            try {
                emu::timing::apply_overrides(varied, set);
            } catch (const std::invalid_argument& e) {
                return fail(Status::invalid_argument, std::string("emu: Options::model_parameter_sets: ") + e.what());
            }
            r.modeled_sets.push_back(
                public_modeled(emu::timing::model_cu(program, shape, traces, varied), program.target, shape));
        }
    }
    return true;
}

Result run_emu(const Problem& p, const Options& options) {
    Result r;
    r.backend = Backend::emu;
    r.target = base_arch(options.emu_target);
    const auto fail = [&r](Status status, std::string message) {
        r.status = status;
        r.message = std::move(message);
        return r;
    };
    const dppgemm_code_object* co = choose_code_object(r.target, options, p);
    if (!co) {
        const std::string why = variant_unavailable_reason(options.variant, r.target);
        return fail(Status::unsupported,
                    "emu: " + (why.empty() ? "no dppgemm kernel for target '" + options.emu_target + "' (variant " +
                                                 to_string(options.variant) + ", layout " + p.layout() + ")"
                                           : why));
    }
    r.kernel = co->kernel_name;

    const auto start = std::chrono::steady_clock::now();
    try {
        const emu::Program& program = program_for(co, co->kernel_name);
        emu::DeviceMemory memory;
        const std::size_t a_bytes = p.a_elements() * 4, b_bytes = p.b_elements() * 4, c_bytes = p.c_elements() * 4;
        const auto [a, b] = input_addresses(memory, p, a_bytes, b_bytes);
        const std::uint64_t c = memory.allocate(c_bytes ? c_bytes : 4, "C");
        // model_only runs some workgroups: C keeps its values where the others would write.
        if (c_bytes && (p.beta != 0.0f || options.model_only)) memory.write(c, p.c, c_bytes);

        const dppgemm_sgemm_kernargs args = make_kernargs(p, a, b, c);
        emu::LaunchConfig config;
        config.grid = {p.tiles_m(macro_tile_of(*co)), p.tiles_n(macro_tile_of(*co)), 1};
        config.block = {DPPGEMM_SGEMM_BLOCK_SIZE, 1, 1};
        config.kernarg.assign(reinterpret_cast<const std::uint8_t*>(&args),
                              reinterpret_cast<const std::uint8_t*>(&args) + sizeof args);
        config.threads = options.threads;
        config.watchdog = std::max(emu::default_watchdog, sgemm_wave_instruction_bound(p.k));
        config.progress = options.progress;
        if (!launch_modeled(program, memory, config, options, r)) return r;
        // beta == 0: the kernel wrote every element of op(C) it owns and C's
        // padding rows (ld > m) were never part of the matrix; copy back only
        // the m rows of each column so the caller's padding stays untouched.
        for (int j = 0; j < p.n; ++j)
            memory.read(c + std::uint64_t(j) * p.ldc * 4, p.c + std::size_t(j) * p.ldc, std::size_t(p.m) * 4);
    } catch (const std::exception& e) {
        return fail(Status::launch_failure, std::string("emu: ") + e.what());
    } catch (...) {
        // Only the caller's Options::progress can throw something else; sgemm
        // throws nothing (docs/reliability.md).
        return fail(Status::launch_failure, "emu: an exception that is no std::exception (from Options::progress?)");
    }
    r.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return r;
}

}  // namespace dppgemm::detail
