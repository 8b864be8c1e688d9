// `dppgemm-emu disasm` until the decoder exists: loads the code object and
// checks the kernel name, then says it cannot disassemble yet.

#include <ostream>

#include "emu/loader/code_object.hpp"
#include "emu/tools/commands.hpp"

namespace dppgemm::emu::tools {

int disasm_command(const DisasmOptions& options, std::ostream&, std::ostream& err) {
    try {
        const CodeObject co = load_code_object(options.code_object);
        if (options.kernel) co.kernel(*options.kernel);
        err << "dppgemm-emu disasm: disassembly is not implemented yet (no decoder in this build)\n";
    } catch (const CodeObjectError& error) {
        err << "dppgemm-emu disasm: " << error.what() << "\n";
    }
    return exit_usage;
}

}  // namespace dppgemm::emu::tools
