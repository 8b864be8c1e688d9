#include "emu/tools/cli.hpp"

#include <CLI/CLI.hpp>

#include <ostream>

#include "emu/tools/commands.hpp"
#include "emu/tools/launch.hpp"

namespace dppgemm::emu::tools {
namespace {

constexpr const char* exit_codes_help =
    "Exit codes: 0 success, 1 the kernel faulted (run), 2 usage error (bad option, unreadable or\n"
    "malformed code object, unknown kernel, arguments that do not match the kernel's metadata,\n"
    "buffers beyond the machine's memory, an output file that cannot be written).\n"
    "Files: at most 256 MiB; pipes and devices are read up to that, a FIFO without a writer is empty.";

constexpr const char* disasm_help =
    "Output: for each function (kernels and the functions they call), by address, a line 'NAME:',\n"
    "then one line per instruction: llvm-objdump -d's\n"
    "line without the raw words, i.e. a tab, the instruction text padded to 59 columns, '// ' and\n"
    "the instruction's address in the code object as 12 upper-case hex digits:\n"
    "  s_load_dwordx2 s[0:1], s[4:5], 0x0                         // 000000001500\n"
    "Functions are separated by an empty line. CODE_OBJECT may also be a clang offload bundle\n"
    "(hipcc --genco) or a HIP executable (its .hip_fatbin section); --arch picks the target.";

constexpr const char* run_help =
    "--grid counts workgroups (like hipModuleLaunchKernel's gridDim), --block work-items per\n"
    "workgroup. Arguments are named as in the kernel's metadata or by position (0, 1, ...; hipcc\n"
    "output has no names). --arg VALUE: an integer (decimal or 0x hex) or, with '.', an exponent,\n"
    "an 'f' suffix, inf or nan, a float (4-byte arguments) or double (8-byte). --buffer gives\n"
    "every global-buffer argument its memory: BYTES zeroed bytes, or @FILE for a file's contents.";

}  // namespace

int run_cli(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
    CLI::App app("dppgemm-emu: inspect, disassemble and run gfx9 code objects on the CPU", "dppgemm-emu");
    app.footer(exit_codes_help);
    app.require_subcommand(1);

    InfoOptions info;
    CLI::App* info_command_line = app.add_subcommand("info", "Targets, kernels, descriptors and metadata");
    info_command_line
        ->add_option("CODE_OBJECT", info.code_object, "AMDGPU code object, offload bundle or HIP executable")
        ->required()
        ->check(CLI::ExistingFile);

    std::string info_arch;
    CLI::Option* info_arch_option =
        info_command_line->add_option("--arch", info_arch, "Target in a bundle or HIP executable (e.g. gfx90a)");

    DisasmOptions disasm;
    std::string disasm_kernel;
    CLI::App* disasm_command_line = app.add_subcommand("disasm", "Disassemble kernels like llvm-objdump -d");
    disasm_command_line->footer(disasm_help);
    disasm_command_line
        ->add_option("CODE_OBJECT", disasm.code_object, "AMDGPU code object, offload bundle or HIP executable")
        ->required()
        ->check(CLI::ExistingFile);
    CLI::Option* disasm_kernel_option =
        disasm_command_line->add_option("--kernel", disasm_kernel, "Only this kernel (default: every function)");
    std::string disasm_arch;
    CLI::Option* disasm_arch_option =
        disasm_command_line->add_option("--arch", disasm_arch, "Target in a bundle or HIP executable (e.g. gfx90a)");

    RunOptions run;
    std::string grid_text, block_text;
    std::vector<std::string> arg_texts, buffer_texts, dump_texts;
    std::string json_file;
    CLI::App* run_command_line = app.add_subcommand("run", "Run one kernel on the emulator");
    run_command_line->footer(run_help);
    run_command_line->add_option("CODE_OBJECT", run.code_object, "AMDGPU code object, offload bundle or HIP executable")
        ->required()
        ->check(CLI::ExistingFile);
    run_command_line->add_option("--kernel", run.kernel, "Kernel name (metadata .name)")->required();
    std::string run_arch;
    CLI::Option* run_arch_option =
        run_command_line->add_option("--arch", run_arch, "Target in a bundle or HIP executable (e.g. gfx90a)");
    run_command_line->add_option("--grid", grid_text, "Workgroups: X[,Y[,Z]]")->required();
    run_command_line->add_option("--block", block_text, "Work-items per workgroup: X[,Y[,Z]]")->required();
    run_command_line->add_option("--arg", arg_texts, "NAME=VALUE for a by-value argument (repeatable)");
    run_command_line->add_option("--buffer", buffer_texts,
                                 "NAME=BYTES or NAME=@FILE for a buffer argument (repeatable)");
    run_command_line->add_option("--dump", dump_texts,
                                 "NAME=FILE: write the buffer to FILE after the run (repeatable)");
    CLI::Option* json_option = run_command_line->add_option("--json", json_file, "Write the counters to FILE as JSON");
    run_command_line->add_option("--threads", run.threads, "Host threads (default 0: all cores)")
        ->check(CLI::Range(0u, 1024u));
    std::string watchdog_text = std::to_string(default_watchdog);
    run_command_line->add_option("--watchdog", watchdog_text,
                                 "Instructions per wave before the run stops as an endless loop, 0..2^48 (0: never; "
                                 "default 2^28, a few seconds)");
    std::string schedule_text = "parallel";
    run_command_line->add_option("--schedule", schedule_text,
                                 "parallel (default), random or random:SEED: the random schedule interleaves the "
                                 "workgroups on one thread with memory as weak as the AMDGPU memory model allows "
                                 "(docs/host.md, \"Memory model\"); the seed is printed");
    bool no_check = false;
    run_command_line->add_flag("--no-check", no_check, "Run without the checkers");
    run_command_line->add_flag("--model", run.model,
                               "Also print the modeled GPU time (a cycle-approximate compute-unit model fed by "
                               "traces of the first and last workgroups; docs/performance-model.md)");
    run_command_line->add_flag("--model-only", run.model_only,
                               "Run only the workgroups the model traces and print the modeled time (buffers and "
                               "counters cover those workgroups alone)");
    run_command_line->add_option("--model-params", run.model_params,
                                 "Model parameters to override: NAME=VALUE[,NAME=VALUE...] or @FILE");

    ExecOptions exec;
    CLI::App* exec_command_line = app.add_subcommand(
        "exec", "Run a HIP program on libdppgemm-hipemu with the checkers, then count what they reported");
    exec_command_line->footer(
        "dppgemm-emu exec [--no-check] -- PROGRAM ARGS...\n"
        "DPPGEMM_EMU_SCHEDULE=random[:SEED] in the environment runs every launch under the random schedule.\n"
        "Preloads libdppgemm-hipemu (found beside dppgemm-emu, or $DPPGEMM_HIPEMU_LIBRARY), runs PROGRAM, and\n"
        "ends with 'dppgemm-emu exec: N findings; PROGRAM exited with C'. Exit status: the program's when not 0,\n"
        "else 1 when hipemu reported kernel faults or checker findings, else 0.");
    exec_command_line->add_option("PROGRAM", exec.command, "The program and its arguments (after --)")->required();
    bool exec_no_check = false;
    exec_command_line->add_flag("--no-check", exec_no_check, "Run without the checkers (faults are still reported)");

    // CLI11 would only say that a subcommand is required: name the word instead.
    if (argc > 1 && argv[1][0] != '-') {
        const std::string command = argv[1];
        bool known = false;
        for (const CLI::App* sub : app.get_subcommands({})) known = known || sub->get_name() == command;
        if (!known) {
            err << "dppgemm-emu: unknown command '" << command
                << "' (expected info, disasm, run or exec; see --help)\n";
            return exit_usage;
        }
    }

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& error) {
        const int code = app.exit(error, out, err);
        return code == 0 ? exit_ok : exit_usage;
    }

    try {
        if (info_command_line->parsed()) {
            if (*info_arch_option) info.arch = info_arch;
            return info_command(info, out, err);
        }
        if (exec_command_line->parsed()) {
            exec.check = !exec_no_check;
            return exec_command(exec, out, err);
        }
        if (disasm_command_line->parsed()) {
            if (*disasm_kernel_option) disasm.kernel = disasm_kernel;
            if (*disasm_arch_option) disasm.arch = disasm_arch;
            return disasm_command(disasm, out, err);
        }
        if (*run_arch_option) run.arch = run_arch;
        run.watchdog = parse_watchdog(watchdog_text);
        try {
            run.schedule = Schedule::parse(schedule_text);
        } catch (const std::invalid_argument& e) {
            throw UsageError(std::string("--schedule: ") + e.what());
        }
        run.grid = parse_dims(grid_text, "--grid");
        run.block = parse_dims(block_text, "--block");
        for (const std::string& text : arg_texts) run.args.push_back(parse_assignment(text, "--arg"));
        for (const std::string& text : buffer_texts) run.buffers.push_back(parse_assignment(text, "--buffer"));
        for (const std::string& text : dump_texts) run.dumps.push_back(parse_assignment(text, "--dump"));
        if (*json_option) run.json = json_file;
        run.check = !no_check;
        return run_command(run, out, err);
    } catch (const UsageError& error) {
        err << "dppgemm-emu: " << error.what() << "\n";
        return exit_usage;
    }
}

}  // namespace dppgemm::emu::tools
