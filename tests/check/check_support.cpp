#include "check_support.hpp"

#include <catch2/catch.hpp>

#include <cstring>
#include <stdexcept>

namespace check_test {

std::string Checked::text() const {
    std::string s;
    for (const Finding& f : findings) s += f.text() + "\n";
    if (result.fault) s += "fault: " + result.fault->message + "\n";
    return s;
}

Checked launch_checked(DeviceMemory& memory, const Program& program, LaunchConfig config, CheckOptions options) {
    Checker checker(program, options);
    config.observer = &checker;
    Checked c;
    c.result = launch(memory, program, config);
    c.findings = checker.findings(c.result);
    return c;
}

Checked run_checked(exec_test::TestRun& run, const Program& program, CheckOptions options) {
    Checker checker(program, options);
    run.observer = &checker;
    Checked c;
    c.result = run.run(program);
    run.observer = nullptr;
    c.findings = checker.findings(c.result);
    return c;
}

Checked planned_and_every(const std::function<Checked(CheckOptions)>& run, CheckOptions options) {
    const Checked planned = run(options);
    options.watch_every_instruction = true;
    options.compare_lds_patterns = true;
    const Checked every = run(options);
    INFO("watch plan:\n" << planned.text() << "every instruction:\n" << every.text());
    CHECK(planned.text() == every.text());
    return planned;
}

Planted check_body(const std::string& body, const PlantOptions& options) {
    const CodeObject co = exec_test::assemble_kernel(body, options.kernel);
    Kernel kernel = co.kernel("k");
    if (options.drop_final_endpgm) kernel = with_nop_at(kernel, static_cast<std::uint32_t>(kernel.code.size() - 4));
    Planted p{build_program(kernel, co.target.processor), {}};
    p.checked = planned_and_every([&](CheckOptions check) {
        exec_test::TestRun run;
        run.block = options.block;
        run.watchdog = options.watchdog;
        return run_checked(run, p.program, check);
    });
    return p;
}

std::uint32_t Planted::pc(const std::string& prefix, unsigned n) const { return pc_of(program, prefix, n); }

namespace {
// The disassembly without the _e32/_e64 encoding suffixes LLVM prints.
std::string plain_text(const Program& program, std::uint32_t index) {
    std::string text = program.disassemble(index);
    for (const char* suffix : {"_e32", "_e64"})
        for (std::size_t at = text.find(suffix); at != std::string::npos; at = text.find(suffix)) text.erase(at, 4);
    return text;
}
}  // namespace

std::uint32_t find_inst(const Program& program, const std::string& prefix, unsigned n) {
    for (std::uint32_t i = 0; i < program.insts.size(); ++i)
        if (plain_text(program, i).rfind(prefix, 0) == 0 && n-- == 0) return i;
    throw std::runtime_error("no instruction '" + prefix + "' in kernel " + program.kernel_name);
}

std::uint32_t pc_of(const Program& program, const std::string& prefix, unsigned n) {
    return static_cast<std::uint32_t>(program.code_address + program.insts[find_inst(program, prefix, n)].pc);
}

Kernel with_nop_at(const Kernel& kernel, std::uint32_t pc) {
    static constexpr std::uint32_t s_nop_0 = 0xBF800000u;
    if (pc + 4 > kernel.code.size()) throw std::runtime_error("pc " + std::to_string(pc) + " outside the code");
    Kernel mutated = kernel;
    std::memcpy(mutated.code.data() + pc, &s_nop_0, 4);
    return mutated;
}

}  // namespace check_test
