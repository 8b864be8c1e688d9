// `dppgemm-emu run` until the executor exists: every option is parsed and
// checked against the kernel's metadata, then the command says honestly that
// it cannot run anything yet. Wiring the executor means replacing this file
// by one whose run_command() executes the LaunchPlan (see emu/tools/CMakeLists.txt).

#include <ostream>

#include "emu/tools/commands.hpp"
#include "emu/tools/launch.hpp"

namespace dppgemm::emu::tools {

int run_command(const RunOptions& options, std::ostream&, std::ostream& err) {
    try {
        const CodeObject co = load_code_object(options.code_object);
        const LaunchPlan plan = resolve_launch(options, co);
        err << "dppgemm-emu run: kernel '" << plan.kernel->name
            << "' checked, but running is not implemented yet (no executor in this build)\n";
    } catch (const CodeObjectError& error) {
        err << "dppgemm-emu run: " << error.what() << "\n";
    } catch (const UsageError& error) {
        err << "dppgemm-emu run: " << error.what() << "\n";
    }
    return exit_usage;
}

}  // namespace dppgemm::emu::tools
