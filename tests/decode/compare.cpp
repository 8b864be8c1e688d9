#include "compare.hpp"

#include <cstdio>
#include <sstream>

namespace dppgemm::emu::test {
namespace {

std::string encoding_label(const Inst& inst) {
    static const char* const names[] = {"invalid", "SOP1", "SOP2", "SOPK",  "SOPC", "SOPP", "SMEM",  "VOP1",
                                        "VOP2",    "VOPC", "VOP3", "VOP3P", "DS",   "FLAT", "MUBUF", "MIMG"};
    std::string label = names[static_cast<int>(inst.encoding)];
    if (!inst.valid()) return "invalid";
    if (inst.dpp) return label + "_dpp";
    if (inst.sdwa) return label + "_sdwa";
    Family family = inst.info().family;
    if (inst.encoding == Encoding::VOP3 && family != Family::VOP3) {
        std::string f = family_name(family);
        return "VOP3 (" + f + "_e64)";
    }
    if (inst.encoding == Encoding::VOP3 && inst.info().has(OF_VOP3B)) return "VOP3b";
    if (inst.encoding == Encoding::FLAT) return family_name(family);
    return label;
}

void count_operand_kinds(const Inst& inst, std::map<std::string, int>& kinds) {
    static const char* const names[] = {"none",       "sgpr",         "vgpr",    "agpr", "special",
                                        "inline_int", "inline_float", "literal", "off"};
    for (const Operand* op : {&inst.dst, &inst.sdst, &inst.src0, &inst.src1, &inst.src2, &inst.soffset})
        if (op->kind != OperandKind::none) ++kinds[names[static_cast<int>(op->kind)]];
}

}  // namespace

bool out_of_scope(const std::string& llvm_text) {
    for (const char* prefix : {"exp ", "v_interp_", "tbuffer_", "buffer_load_format_d16", "buffer_store_format_d16"})
        if (llvm_text.rfind(prefix, 0) == 0) return true;
    return false;
}

std::vector<Mismatch> compare(Target target, const std::vector<DisasmLine>& lines,
                              std::map<std::string, int>* encodings, std::map<std::string, int>* kinds) {
    std::vector<std::uint8_t> bytes = text_bytes(lines);
    std::vector<Mismatch> bad;
    for (const DisasmLine& line : lines) {
        if (out_of_scope(line.text)) continue;
        Inst inst = decode_one(target, bytes.data(), bytes.size(), line.address);
        std::string ours = disassemble(inst, target);
        if (ours != line.text || inst.size != 4 * line.words.size())
            bad.push_back({line.address, ours + " (" + std::to_string(inst.size) + " bytes)", line.text, line.words});
        if (encodings) ++(*encodings)[encoding_label(inst)];
        if (kinds) count_operand_kinds(inst, *kinds);
    }
    return bad;
}

static std::string hex_words(const std::vector<std::uint32_t>& words) {
    std::string s;
    char buf[12];
    for (std::uint32_t w : words) {
        std::snprintf(buf, sizeof buf, " %08X", w);
        s += buf;
    }
    return s;
}

std::string mismatch_text(const std::vector<Mismatch>& bad, const char* what) {
    std::ostringstream text;
    std::size_t shown = 0;
    for (const Mismatch& m : bad) {
        if (++shown > 60) break;
        text << what << " @" << m.address << hex_words(m.words) << "\n   ours: " << m.ours << "\n   llvm: " << m.llvm
             << "\n";
    }
    return text.str();
}

}  // namespace dppgemm::emu::test
