// Matrix-core instructions (MFMA, SMFMAC, v_accvgpr_*) disassemble exactly as
// the target's oracle llvm-objdump prints them: LLVM 15 for gfx908/gfx90a,
// LLVM 19 for gfx940/gfx942. The expected lines are stored in
// tests/decode/mfma/<target>.expected, written by make_expected.py there (every
// op in every operand and modifier form: AGPR/VGPR A, B, C/D, cbsz, abid,
// blgp or neg, scalar and constant sources, misaligned and high tuples).

#include <catch2/catch.hpp>

#include <fstream>
#include <set>
#include <sstream>

#include "compare.hpp"

using namespace dppgemm::emu;
using namespace dppgemm::emu::test;

namespace {

std::vector<DisasmLine> read_expected(Target target) {
    std::ifstream in(std::string(DPPGEMM_MFMA_EXPECTED_DIR) + "/" + target_label(target) + ".expected");
    std::vector<DisasmLine> lines;
    std::string line;
    std::uint64_t address = 0;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::size_t bar = line.find(" | ");
        REQUIRE(bar != std::string::npos);
        DisasmLine d;
        d.address = address;
        d.text = line.substr(bar + 3);
        std::istringstream words(line.substr(0, bar));
        std::string word;
        while (words >> word) d.words.push_back(static_cast<std::uint32_t>(std::stoul(word, nullptr, 16)));
        address += 4 * d.words.size();
        lines.push_back(std::move(d));
    }
    return lines;
}

}  // namespace

TEST_CASE("matrix-core instructions disassemble as llvm-objdump prints them", "[decode][mfma]") {
    for (Target target : {Target::gfx908, Target::gfx90a, Target::gfx940, Target::gfx942}) {
        SECTION(target_label(target)) {
            std::vector<DisasmLine> lines = read_expected(target);
            REQUIRE(lines.size() > 1000);
            std::vector<Mismatch> bad = compare(target, lines);
            if (!bad.empty()) WARN(mismatch_text(bad, "mfma"));
            CHECK(bad.empty());
            // Every matrix op of the target is in the file.
            std::vector<std::uint8_t> bytes = text_bytes(lines);
            std::set<Op> seen;
            for (const DisasmLine& l : lines) seen.insert(decode_one(target, bytes.data(), bytes.size(), l.address).op);
            for (std::size_t i = 1; i < op_count; ++i) {
                Op op = static_cast<Op>(i);
                if (!op_info(op).on(target) || !op_info(op).has(OF_MFMA)) continue;
                INFO(std::string(mnemonic(op)));
                CHECK(seen.count(op) == 1);
            }
        }
    }
}

TEST_CASE("a gfx940 MFMA with the acc_cd bit clear keeps C and D in VGPRs", "[decode][mfma]") {
    // hipcc 5.2 --offload-arch=gfx940: v_mfma_f32_32x32x2f32 with C/D in ArchVGPRs.
    const std::uint8_t bytes[] = {0x00, 0x00, 0xC4, 0xD3, 0x00, 0x03, 0x02, 0x04};
    Inst inst = decode_one(Target::gfx940, bytes, sizeof bytes, 0);
    CHECK(inst.dst.kind == OperandKind::vgpr);
    CHECK(inst.src2.kind == OperandKind::vgpr);
    CHECK(disassemble(inst, Target::gfx940) == "v_mfma_f32_32x32x2_f32 v[0:15], v0, v1, v[0:15]");
}
