// `dppgemm-emu run`: executes one kernel of a code object on the emulator
// with the buffers and arguments of the command line, then writes the
// requested buffer dumps and the counters.

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>

#include "emu/check/checker.hpp"
#include "emu/exec/dispatch.hpp"
#include "emu/timing/cu_model.hpp"
#include "emu/tools/commands.hpp"
#include "emu/tools/launch.hpp"
#include "emu/tools/open.hpp"

namespace dppgemm::emu::tools {
namespace {

using Clock = std::chrono::steady_clock;

struct DeviceBuffer {
    const BufferBinding* binding;
    std::uint64_t address;
};

std::string argument_label(const Kernel& kernel, std::size_t index) {
    const std::string& name = kernel.metadata.args[index].name;
    return name.empty() ? std::to_string(index) : name;
}

std::vector<DeviceBuffer> upload_buffers(const LaunchPlan& plan, DeviceMemory& memory,
                                         std::vector<std::uint8_t>& kernarg) {
    std::vector<DeviceBuffer> buffers;
    for (const BufferBinding& binding : plan.buffers) {
        const KernelArgument& arg = plan.kernel->metadata.args[binding.arg_index];
        const std::uint64_t address = memory.allocate(binding.size, argument_label(*plan.kernel, binding.arg_index));
        if (!binding.initial.empty()) memory.write(address, binding.initial.data(), binding.initial.size());
        std::memcpy(kernarg.data() + arg.offset, &address, sizeof address);
        buffers.push_back({&binding, address});
    }
    return buffers;
}

// A one-line bar on the terminal, redrawn in place; nothing for runs under a
// second or when stderr is not a terminal (pipes and log files stay clean).
class ProgressLine {
public:
    explicit ProgressLine(std::ostream& err) : enabled_(&err == &std::cerr && isatty(STDERR_FILENO)) {}
    ~ProgressLine() {
        if (shown_) std::fprintf(stderr, "\r%*s\r", 60, "");
    }
    void update(std::uint64_t done, std::uint64_t total) {
        const double seconds = std::chrono::duration<double>(Clock::now() - start_).count();
        if (!enabled_ || total == 0 || seconds < 1.0) return;
        std::fprintf(stderr, "\rrunning: %llu/%llu workgroups (%d%%), %.1f s", static_cast<unsigned long long>(done),
                     static_cast<unsigned long long>(total), static_cast<int>(100 * done / total), seconds);
        std::fflush(stderr);
        shown_ = true;
    }
    bool enabled() const { return enabled_; }

private:
    bool enabled_;
    bool shown_ = false;
    Clock::time_point start_ = Clock::now();
};

void write_file(const std::string& path, const char* data, std::size_t size, const std::string& option) {
    std::ofstream file(path, std::ios::binary);
    if (file) file.write(data, static_cast<std::streamsize>(size));
    if (!file.flush()) throw UsageError(option + ": cannot write '" + path + "': " + std::strerror(errno));
}

void write_dumps(const std::vector<DeviceBuffer>& buffers, const DeviceMemory& memory, const Kernel& kernel) {
    for (const DeviceBuffer& buffer : buffers) {
        if (!buffer.binding->dump_file) continue;
        std::vector<std::uint8_t> bytes(static_cast<std::size_t>(buffer.binding->size));
        memory.read(buffer.address, bytes.data(), bytes.size());
        write_file(*buffer.binding->dump_file, reinterpret_cast<const char*>(bytes.data()), bytes.size(),
                   "--dump " + argument_label(kernel, buffer.binding->arg_index));
    }
}

nlohmann::json fault_json(const Fault& fault) {
    nlohmann::json json = {{"what", fault.what},
                           {"kernel", fault.kernel},
                           {"pc", fault.pc},
                           {"instruction", fault.instruction},
                           {"workgroup", fault.workgroup},
                           {"wave", fault.wave},
                           {"message", fault.message}};
    json["address"] = fault.has_address ? nlohmann::json(fault.address) : nlohmann::json(nullptr);
    return json;
}

void write_json(const std::string& path, const RunOptions& options, const LaunchPlan& plan,
                const DispatchResult& result, double seconds) {
    nlohmann::json json = {{"code_object", options.code_object},
                           {"kernel", plan.kernel->name},
                           {"grid", plan.grid},
                           {"block", plan.block},
                           {"seconds", seconds},
                           {"counters", nlohmann::json::parse(result.counters.to_json())}};
    json["fault"] = result.fault ? fault_json(*result.fault) : nlohmann::json(nullptr);
    const std::string text = json.dump(2) + "\n";
    write_file(path, text.data(), text.size(), "--json");
}

void print_summary(const LaunchPlan& plan, const DispatchResult& result, double seconds, std::ostream& out) {
    const Counters& c = result.counters;
    const std::uint64_t workgroups = std::uint64_t(plan.grid[0]) * plan.grid[1] * plan.grid[2];
    out << "kernel " << plan.kernel->name << ": grid " << plan.grid[0] << "," << plan.grid[1] << "," << plan.grid[2]
        << " block " << plan.block[0] << "," << plan.block[1] << "," << plan.block[2] << "\n";
    out << "workgroups: " << c.workgroups << " of " << workgroups << " run, " << c.waves << " waves\n";
    out << "wave instructions: " << c.wave_instructions() << " (valu " << c[InstClass::valu] << ", valu_dpp "
        << c.valu_dpp << ", salu " << c[InstClass::salu] << ", lds " << c[InstClass::lds_read] + c[InstClass::lds_write]
        << ", vmem " << c[InstClass::vmem_load] + c[InstClass::vmem_store] + c[InstClass::vmem_atomic] << ", smem "
        << c[InstClass::smem] << ")\n";
    char time[64];
    std::snprintf(time, sizeof time, "%.3f s", seconds);
    out << "time: " << time << "\n";
    out << "result: " << (result.fault ? "fault: " + result.fault->message : std::string("ok")) << "\n";
}

// Prints the checkers' own findings (the fault is printed as before); returns how many.
std::size_t report_findings(const check::Checker& checker, std::ostream& err) {
    const std::vector<check::Finding> findings = checker.findings(DispatchResult{});
    for (const check::Finding& f : findings) err << "dppgemm-emu run: " << f.text() << "\n";
    return findings.size();
}

// The model's parameters for the program's target with --model-params applied.
timing::Parameters model_parameters(const RunOptions& options, const Program& program) {
    timing::Parameters parameters = timing::parameters(program.target);
    std::string text = options.model_params;
    if (!text.empty() && text[0] == '@') {
        std::ifstream file(text.substr(1));
        if (!file) throw UsageError("--model-params: cannot read '" + text.substr(1) + "'");
        text.assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
    }
    try {
        timing::apply_overrides(parameters, text);
    } catch (const std::invalid_argument& error) {
        throw UsageError(std::string("--model-params: ") + error.what());
    }
    return parameters;
}

// The launch `plan` describes, in `memory`: its buffers uploaded (returned),
// and the image as a HIP runtime maps it (relocations applied: variables
// initialised with addresses).
std::vector<DeviceBuffer> prepare_launch(const RunOptions& options, const CodeObject& code_object,
                                         const LaunchPlan& plan, DeviceMemory& memory, LaunchConfig& config) {
    config.grid = plan.grid;
    config.block = plan.block;
    config.kernarg = plan.kernarg;
    std::vector<DeviceBuffer> buffers = upload_buffers(plan, memory, config.kernarg);
    if (const std::uint64_t bytes = code_object.image_size()) {
        config.image_address = memory.allocate(bytes, "code object image");
        const std::vector<std::uint8_t> image = loaded_image(code_object, config.image_address);
        memory.write(config.image_address, image.data(), image.size());
    }
    config.threads = plan.threads;
    config.watchdog = options.watchdog;
    return buffers;
}

// Runs the representative workgroups again, on fresh copies of the buffers,
// with the trace recorder, and prints the modeled time.
int run_model(const RunOptions& options, const CodeObject& code_object, const Program& program, const LaunchPlan& plan,
              std::ostream& out, std::ostream& err) {
    const timing::Parameters parameters = model_parameters(options, program);
    DeviceMemory memory;
    LaunchConfig config;
    prepare_launch(options, code_object, plan, memory, config);
    config.only_workgroups = timing::representative_workgroups(plan.grid);
    timing::TraceRecorder recorder(config.only_workgroups);
    config.observer = &recorder;
    const DispatchResult traced = launch(memory, program, config);
    if (traced.fault) {
        err << "dppgemm-emu run: --model: " << traced.fault->message << "\n";
        return exit_kernel_fault;
    }
    const timing::LaunchShape shape = timing::launch_shape(program, plan.grid, plan.block);
    const timing::CuModelResult modeled = timing::model_cu(program, shape, recorder.traces(), parameters);
    out << "modeled on " << target_name(program.target) << " (" << board(program.target).model_label << ", "
        << parameters.compute_units << " CUs at " << parameters.clock_mhz << " MHz):\n"
        << timing::to_text(modeled);
    return exit_ok;
}

int run_plan(const RunOptions& options, const CodeObject& code_object, const LaunchPlan& plan, std::ostream& out,
             std::ostream& err) {
    const Program program = build_program(code_object, *plan.kernel);
    if (options.model_only) return run_model(options, code_object, program, plan, out, err);
    DeviceMemory memory;
    LaunchConfig config;
    const std::vector<DeviceBuffer> buffers = prepare_launch(options, code_object, plan, memory, config);
    config.schedule = options.schedule;
    if (options.schedule.kind == Schedule::Kind::random)
        err << "dppgemm-emu run: random schedule, seed " << options.schedule.seed << " (replay: --schedule "
            << options.schedule.name() << ")\n";
    std::optional<check::Checker> checker;  // --no-check: the executor's fast path
    if (options.check) checker.emplace(program);
    config.observer = checker ? &*checker : nullptr;
    ProgressLine progress(err);
    if (progress.enabled())
        config.progress = [&progress](std::uint64_t done, std::uint64_t total) { progress.update(done, total); };

    const Clock::time_point start = Clock::now();
    const DispatchResult result = launch(memory, program, config);
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();

    write_dumps(buffers, memory, *plan.kernel);
    if (plan.json) write_json(*plan.json, options, plan, result, seconds);
    print_summary(plan, result, seconds, out);
    const std::size_t findings = checker ? report_findings(*checker, err) : 0;
    if (!result.fault && options.model) {
        const int modeled = run_model(options, code_object, program, plan, out, err);
        if (modeled != exit_ok) return modeled;
    }
    if (!result.fault) return findings ? exit_kernel_fault : exit_ok;
    err << "dppgemm-emu run: " << result.fault->message << "\n";
    return exit_kernel_fault;
}

}  // namespace

int run_command(const RunOptions& options, std::ostream& out, std::ostream& err) {
    try {
        const CodeObject co = open_code_object(options.code_object, options.arch);
        const LaunchPlan plan = resolve_launch(options, co);
        for (const std::string& warning : co.warnings) err << "dppgemm-emu run: warning: " << warning << "\n";
        return run_plan(options, co, plan, out, err);
    } catch (const CodeObjectError& error) {
        err << "dppgemm-emu run: " << error.what() << "\n";
    } catch (const UsageError& error) {
        err << "dppgemm-emu run: " << error.what() << "\n";
    } catch (const LaunchError& error) {
        err << "dppgemm-emu run: " << error.what() << "\n";
    } catch (const MemoryFault& error) {  // a buffer the host cannot hold
        err << "dppgemm-emu run: buffers of kernel '" << options.kernel << "': " << error.what() << "\n";
    } catch (const std::bad_alloc&) {
        err << "dppgemm-emu run: out of host memory for the buffers of kernel '" << options.kernel << "'\n";
    } catch (const std::exception& error) {
        // Anything else a malformed code object provokes (e.g. the executor
        // refusing an image): a usage error with the reason, never an abort.
        err << "dppgemm-emu run: " << options.code_object << ": " << error.what() << "\n";
    }
    return exit_usage;
}

}  // namespace dppgemm::emu::tools
