#pragma once
// Test-time corpus for the disassembler: random but well-formed instruction
// encodings built from the opcode table (every instruction of a target, in
// every form it has, with operands drawn from every operand kind), and the
// LLVM tools that turn them into text lines and back into bytes.

#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "emu/decode/inst.hpp"

namespace dppgemm::emu::test {

// One generated instruction: its words and a label of what it exercises.
struct Sample {
    std::vector<std::uint32_t> words;
    std::string what;  // encoding form, e.g. "VOP2_dpp", "MUBUF"
};

// `per_form` encodings for every (Op, form) the target has.
std::vector<Sample> generate_corpus(Target target, int per_form, std::uint32_t seed);

// The LLVM tool pair that is the oracle for a target.
struct Llvm {
    std::string mc, objdump, mcpu;
};
Llvm llvm_for(Target target);

// One line of llvm-objdump -d output.
struct DisasmLine {
    std::uint64_t address;
    std::string text;  // before `//`, trimmed
    std::vector<std::uint32_t> words;
};

// Assemble `source` with llvm-mc (-filetype=obj) into `object`; returns the
// assembler's stderr (empty on success); `ok` tells whether an object came out.
std::string assemble(const Llvm& llvm, const std::string& source, const std::string& object, bool& ok);
std::vector<DisasmLine> objdump(const Llvm& llvm, const std::string& object);
// Each object's listing, from one llvm-objdump run.
std::map<std::string, std::vector<DisasmLine>> objdump_each(const Llvm& llvm, const std::vector<std::string>& objects);
// The .text bytes of an object as llvm-objdump printed them.
std::vector<std::uint8_t> text_bytes(const std::vector<DisasmLine>& lines);

// A new directory in this process's work directory (test_toolchain.hpp).
std::string temp_dir();
std::string target_label(Target target);
std::optional<Target> target_from_label(const std::string& name);

}  // namespace dppgemm::emu::test
