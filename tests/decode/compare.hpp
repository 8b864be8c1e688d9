#pragma once
// Our disassembler against llvm-objdump's listing of the same bytes.

#include <map>
#include <string>
#include <vector>

#include "corpus.hpp"

namespace dppgemm::emu::test {

struct Mismatch {
    std::uint64_t address;
    std::string ours, llvm;
    std::vector<std::uint32_t> words;
};

// Encodings outside the emulator's scope (exports, interpolation, images,
// typed buffers): LLVM prints them, we print `.long`; not compared.
bool out_of_scope(const std::string& llvm_text);

// Decode every listed instruction at its address and compare text and size;
// optionally count encodings and operand kinds of what was compared.
std::vector<Mismatch> compare(Target target, const std::vector<DisasmLine>& lines,
                              std::map<std::string, int>* encodings = nullptr,
                              std::map<std::string, int>* kinds = nullptr);

// The first mismatches, readable.
std::string mismatch_text(const std::vector<Mismatch>& bad, const char* what);

}  // namespace dppgemm::emu::test
