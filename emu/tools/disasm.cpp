// `dppgemm-emu disasm CODE_OBJECT [--kernel NAME]`: each kernel's machine
// code as llvm-objdump -d prints it, without the raw words.

#include <cstdio>
#include <ostream>

#include "emu/decode/inst.hpp"
#include "emu/loader/code_object.hpp"
#include "emu/tools/commands.hpp"

namespace dppgemm::emu::tools {
namespace {

// llvm-objdump's line without the raw words: a tab, the text padded to 59
// columns (a longer text is followed directly by the comment, as there), then
// the address as llvm-objdump prints it: "// 000000001A00".
void print_instruction(const std::string& text, std::uint64_t address, std::ostream& out) {
    constexpr std::size_t comment_column = 59;
    char comment[32];
    std::snprintf(comment, sizeof comment, "// %012llX", static_cast<unsigned long long>(address));
    out << '\t' << text;
    for (std::size_t column = text.size(); column < comment_column; ++column) out << ' ';
    out << comment << '\n';
}

void print_kernel(const Kernel& kernel, Target target, std::ostream& out) {
    out << kernel.name << ":\n";
    for (const Inst& inst : decode_all(target, kernel.code.data(), kernel.code.size()))
        print_instruction(disassemble(inst, target), kernel.code_address + inst.pc, out);
}

}  // namespace

int disasm_command(const DisasmOptions& options, std::ostream& out, std::ostream& err) {
    try {
        const CodeObject co = load_code_object(options.code_object);
        if (options.kernel) {
            print_kernel(co.kernel(*options.kernel), co.target.processor, out);
            return exit_ok;
        }
        for (std::size_t i = 0; i < co.kernels.size(); ++i) {
            if (i > 0) out << '\n';
            print_kernel(co.kernels[i], co.target.processor, out);
        }
        return exit_ok;
    } catch (const CodeObjectError& error) {
        err << "dppgemm-emu disasm: " << error.what() << "\n";
        return exit_usage;
    } catch (const std::exception& error) {  // never an abort on a malformed code object
        err << "dppgemm-emu disasm: " << options.code_object << ": " << error.what() << "\n";
        return exit_usage;
    }
}

}  // namespace dppgemm::emu::tools
