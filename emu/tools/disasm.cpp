// `dppgemm-emu disasm CODE_OBJECT [--kernel NAME] [--arch GFX]`: the machine
// code as llvm-objdump -d prints it, without the raw words: every function
// (kernels, and the functions they call such as __ockl_*) at its address in
// the code object, so that a fault's pc can be looked up.

#include <algorithm>
#include <cstdio>
#include <ostream>

#include "emu/decode/inst.hpp"
#include "emu/loader/code_object.hpp"
#include "emu/tools/commands.hpp"
#include "emu/tools/launch.hpp"
#include "emu/tools/open.hpp"

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

struct Listing {
    std::string name;
    std::uint64_t address;
    const std::vector<std::uint8_t>* code;
};

void print_listing(const Listing& l, Target target, std::ostream& out) {
    out << l.name << ":\n";
    for (const Inst& inst : decode_all(target, l.code->data(), l.code->size()))
        print_instruction(disassemble(inst, target), l.address + inst.pc, out);
}

// Every kernel and every other sized function, by address; a kernel is listed
// under its own name and extent (hand-written code objects may have no
// function symbol for it).
std::vector<Listing> listings(const CodeObject& co) {
    std::vector<Listing> all;
    for (const Kernel& k : co.kernels) all.push_back({k.name, k.code_address, &k.code});
    for (const Function& f : co.functions) {
        const bool is_kernel = std::any_of(co.kernels.begin(), co.kernels.end(),
                                           [&](const Kernel& k) { return k.code_address == f.address; });
        if (!is_kernel) all.push_back({f.name, f.address, &f.code});
    }
    std::stable_sort(all.begin(), all.end(), [](const Listing& a, const Listing& b) { return a.address < b.address; });
    return all;
}

}  // namespace

int disasm_command(const DisasmOptions& options, std::ostream& out, std::ostream& err) {
    try {
        const CodeObject co = open_code_object(options.code_object, options.arch);
        if (options.kernel) {
            const Kernel& k = co.kernel(*options.kernel);
            print_listing({k.name, k.code_address, &k.code}, co.target.processor, out);
            return exit_ok;
        }
        const std::vector<Listing> all = listings(co);
        for (std::size_t i = 0; i < all.size(); ++i) {
            if (i > 0) out << '\n';
            print_listing(all[i], co.target.processor, out);
        }
        return exit_ok;
    } catch (const CodeObjectError& error) {
        err << "dppgemm-emu disasm: " << error.what() << "\n";
    } catch (const UsageError& error) {
        err << "dppgemm-emu disasm: " << error.what() << "\n";
    } catch (const std::exception& error) {  // never an abort on a malformed code object
        err << "dppgemm-emu disasm: " << options.code_object << ": " << error.what() << "\n";
    }
    return exit_usage;
}

}  // namespace dppgemm::emu::tools
