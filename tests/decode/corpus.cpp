#include "corpus.hpp"

#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>

#include "emu/decode/encoding_rules.hpp"
#include "test_toolchain.hpp"

namespace dppgemm::emu::test {
namespace {

using detail::Form;

// Random operand fields of every kind; one instance per generated instruction.
class Fields {
public:
    Fields(std::mt19937& rng, Target target) : rng_(rng), target_(target) {}

    unsigned below(unsigned n) { return static_cast<unsigned>(rng_() % n); }
    bool chance(unsigned percent) { return below(100) < percent; }

    unsigned vgpr(int dwords) {
        unsigned n = 256 - static_cast<unsigned>(dwords);
        unsigned index = below(n + 1);
        if (dwords > 1) index &= ~1u;  // gfx90a+ require even tuples; keep all targets valid
        return index;
    }

    unsigned sgpr(int dwords) {
        unsigned align = dwords >= 4 ? 4 : dwords == 2 ? 2 : 1;
        unsigned index = below(102 - static_cast<unsigned>(dwords) + 1);
        return index / align * align;
    }

    // A scalar-capable source code (8 or 9 bits).  `literal` receives the
    // literal dword when the code is 255.
    unsigned scalar_source(int dwords, bool vector_ok, bool literal_ok, std::vector<std::uint32_t>& literal) {
        for (;;) {
            switch (below(vector_ok ? 7 : 6)) {
            case 0: return sgpr(dwords);
            case 1: {
                static constexpr unsigned single[] = {102, 103, 104, 105, 106, 107, 124, 125, 126, 127,
                                                      235, 236, 237, 238, 239, 251, 252, 253, 254};
                static constexpr unsigned pair[] = {102, 104, 106, 126, 235, 236, 237, 238};
                if (chance(30)) return 108 + (dwords > 1 ? below(8) * 2 : below(16));  // ttmp
                return dwords > 1 ? pair[below(std::size(pair))] : single[below(std::size(single))];
            }
            case 2: return 128 + below(81);  // inline integers 0..64, -1..-16
            case 3: return 240 + below(9);   // inline floats
            case 4:
            case 5:
                if (!literal_ok) continue;
                if (literal.empty()) literal.push_back(literal_value());
                return 255;
            default: return 256 + vgpr(dwords);
            }
        }
    }

    std::uint32_t literal_value() {
        static constexpr std::uint32_t interesting[] = {
            0x3f800000, 0xbf800000, 0x3e22f983, 0x3c00,     0xbc00, 0x3118, 0x3ff00000, 0xfffffff0,
            0x40,       0x41,       0xffff,     0x12345678, 0x8000, 0x7fff, 0x3800,     0x0001fff0};
        if (chance(50)) return interesting[below(std::size(interesting))];
        return static_cast<std::uint32_t>(rng_());
    }

    // Random subset of the accepted modifier bits.
    std::uint64_t modifier_bits(std::uint64_t accepted, std::uint64_t within) {
        std::uint64_t bits = 0;
        for (int b = 0; b < 64; ++b)
            if (((accepted & within) >> b) & 1 && chance(25)) bits |= 1ull << b;
        return bits;
    }

    Target target() const { return target_; }

private:
    std::mt19937& rng_;
    Target target_;
};

std::vector<std::uint32_t> words64(std::uint64_t w, const std::vector<std::uint32_t>& literal) {
    std::vector<std::uint32_t> out = {static_cast<std::uint32_t>(w), static_cast<std::uint32_t>(w >> 32)};
    out.insert(out.end(), literal.begin(), literal.end());
    return out;
}

std::uint64_t u(unsigned v) { return v; }

// ---- one encoder per encoding family ----

Sample scalar(Fields& f, const OpInfo& i, int opcode) {
    std::vector<std::uint32_t> lit;
    auto dst = [&](int dwords) {
        unsigned code;
        do {
            code = f.scalar_source(dwords, false, false, lit);
        } while (code >= 128);
        return code;
    };
    std::uint32_t w = 0;
    switch (i.family) {
    case Family::SOP1:
        w = 0xBE800000u | u(opcode) << 8;
        if (i.dwords[F_DST]) w |= dst(i.dwords[F_DST]) << 16;
        if (i.dwords[F_SRC0]) w |= f.scalar_source(i.dwords[F_SRC0], false, true, lit);
        break;
    case Family::SOP2:
        w = 0x80000000u | u(opcode) << 23;
        if (i.dwords[F_DST]) w |= dst(i.dwords[F_DST]) << 16;
        w |= f.scalar_source(std::max<int>(1, i.dwords[F_SRC0]), false, true, lit);
        w |= f.scalar_source(std::max<int>(1, i.dwords[F_SRC1]), false, true, lit) << 8;
        break;
    case Family::SOPK:
        w = 0xB0000000u | u(opcode) << 23 | f.below(0x10000);
        if (i.dwords[F_DST]) w |= dst(i.dwords[F_DST]) << 16;
        break;
    case Family::SOPC:
        w = 0xBF000000u | u(opcode) << 16;
        w |= f.scalar_source(std::max<int>(1, i.dwords[F_SRC0]), false, true, lit);
        if (i.imm_kind() == ImmKind::gpr_idx) w |= f.below(20) << 8;
        else w |= f.scalar_source(std::max<int>(1, i.dwords[F_SRC1]), false, true, lit) << 8;
        break;
    default: {  // SOPP
        w = 0xBF800000u | u(opcode) << 16;
        if (i.imm_kind() != ImmKind::none) {
            unsigned v = f.below(0x10000);
            if (i.imm_kind() == ImmKind::waitcnt && f.chance(50)) v &= 0xc07f;  // plausible counters
            if (i.imm_kind() == ImmKind::sendmsg) v &= f.chance(70) ? 0x3ff : 0xffff;
            if (i.imm_kind() == ImmKind::dec_opt && f.chance(50)) v = 0;
            w |= v;
        }
        break;
    }
    }
    std::vector<std::uint32_t> words = {w};
    words.insert(words.end(), lit.begin(), lit.end());
    return {words, family_name(i.family)};
}

Sample smem(Fields& f, const OpInfo& i, int opcode, const detail::FormBits& fb) {
    std::vector<std::uint32_t> lit;
    std::uint64_t w = 0xC0000000ull | u(opcode) << 18;
    if (i.dwords[F_DST]) w |= u(f.sgpr(i.dwords[F_DST])) << 6;
    if (i.dwords[F_SRC0]) w |= u(f.sgpr(i.dwords[F_SRC0]) / 2) << 0;
    w |= f.modifier_bits(fb.accepted, 0x1c000);
    if (i.dwords[F_SRC2]) {
        bool imm = f.chance(70);
        if (imm) {
            w |= 1ull << 17;
            w |= u(f.chance(50) ? f.below(0x200) : f.below(0x200000)) << 32;
            if ((w >> 14) & 1) w |= u(f.sgpr(1)) << 57;
        } else {
            w &= ~(1ull << 14);
            w |= u(f.chance(80) ? f.sgpr(1) : 124) << 32;
        }
    } else {
        w &= ~(1ull << 14);
    }
    return {words64(w, lit), "SMEM"};
}

void vop_sources(Fields& f, const OpInfo& i, std::uint64_t& w, int first_bit, bool literal_ok,
                 std::vector<std::uint32_t>& lit) {
    for (int s = 0; s < 3; ++s) {
        int dwords = i.dwords[F_SRC0 + s];
        if (!dwords) continue;
        w |= u(f.scalar_source(dwords, true, literal_ok, lit)) << (first_bit + 9 * s);
    }
}

Sample vop_native(Fields& f, const OpInfo& i, int opcode) {
    std::vector<std::uint32_t> lit;
    std::uint32_t w = 0;
    unsigned src0 = f.scalar_source(std::max<int>(1, i.dwords[F_SRC0]), true, true, lit);
    if (i.family == Family::VOP1) {
        w = 0x7E000000u | u(opcode) << 9;
        if (!i.dwords[F_SRC0]) src0 = 0, lit.clear();
        w |= src0;
        if (i.dwords[F_DST]) w |= (i.has(OF_SCALAR_DST) ? f.sgpr(1) : f.vgpr(i.dwords[F_DST])) << 17;
    } else if (i.family == Family::VOP2) {
        w = u(opcode) << 25 | src0 | f.vgpr(i.dwords[F_SRC1]) << 9 | f.vgpr(i.dwords[F_DST]) << 17;
        if (i.has(OF_LITERAL_K)) {
            if (src0 == 255) src0 = 256 + f.vgpr(1), w = (w & ~0x1FFu) | src0;
            lit.assign(1, f.literal_value());
        }
    } else {
        w = 0x7C000000u | u(opcode) << 17 | src0 | f.vgpr(std::max<int>(1, i.dwords[F_SRC1])) << 9;
    }
    std::vector<std::uint32_t> words = {w};
    words.insert(words.end(), lit.begin(), lit.end());
    return {words, std::string(family_name(i.family)) + "_e32"};
}

Sample vop_dpp(Fields& f, const OpInfo& i, int opcode, const detail::FormBits& fb) {
    std::uint32_t w;
    unsigned src0 = 0xFA;
    if (i.family == Family::VOP1)
        w = 0x7E000000u | u(opcode) << 9 | src0 | (i.dwords[F_DST] ? f.vgpr(i.dwords[F_DST]) << 17 : 0);
    else if (i.family == Family::VOP2) w = u(opcode) << 25 | src0 | f.vgpr(1) << 9 | f.vgpr(i.dwords[F_DST]) << 17;
    else w = 0x7C000000u | u(opcode) << 17 | src0 | f.vgpr(1) << 9;
    static constexpr unsigned controls[] = {0x101, 0x10f, 0x111, 0x118, 0x121, 0x12f, 0x130, 0x134, 0x138,
                                            0x13c, 0x140, 0x141, 0x142, 0x143, 0x150, 0x155, 0x15f};
    unsigned ctrl = f.chance(40) ? f.below(256) : controls[f.below(std::size(controls))];
    std::uint64_t d = u(f.vgpr(1)) | u(ctrl) << 8 | u(f.below(16)) << 24 | u(f.below(16)) << 28;
    std::uint64_t full = w | d << 32;
    full |= f.modifier_bits(fb.accepted, 0xfcull << 48);
    return {words64(full, {}), std::string(family_name(i.family)) + "_dpp"};
}

Sample vop_sdwa(Fields& f, const OpInfo& i, int opcode, const detail::FormBits& fb) {
    std::uint32_t w;
    if (i.family == Family::VOP1) w = 0x7E000000u | u(opcode) << 9 | 0xF9 | (i.dwords[F_DST] ? f.vgpr(1) << 17 : 0);
    else if (i.family == Family::VOP2) w = u(opcode) << 25 | 0xF9 | f.vgpr(1) << 9 | f.vgpr(1) << 17;
    else w = 0x7C000000u | u(opcode) << 17 | 0xF9 | f.vgpr(1) << 9;
    std::uint64_t s = u(f.below(7)) << 16 | u(f.below(7)) << 24;
    if (i.family != Family::VOPC) s |= u(f.below(7)) << 8 | u(f.below(3)) << 11;
    std::uint64_t full = w | s << 32;
    full |= f.modifier_bits(fb.accepted, 0xf8f8f8ull << 40);
    unsigned src0 = f.vgpr(1);
    if ((full >> 55) & 1) {  // s0: src0 is a scalar
        std::vector<std::uint32_t> none;
        do {
            src0 = f.scalar_source(1, false, false, none);
        } while (src0 == 255);
    }
    full |= u(src0) << 32;
    if (i.family == Family::VOPC && ((full >> 47) & 1)) full |= u(f.sgpr(2)) << 40;
    return {words64(full, {}), std::string(family_name(i.family)) + "_sdwa"};
}

Sample vop3(Fields& f, const OpInfo& i, int opcode, const detail::FormBits& fb, bool promoted) {
    std::vector<std::uint32_t> lit;
    std::uint64_t w = 0xD0000000ull | u(opcode) << 16;
    if (i.family == Family::VOPC || i.has(OF_SCALAR_DST)) {
        std::vector<std::uint32_t> none;
        unsigned code;
        do {
            code = f.scalar_source(i.family == Family::VOPC ? 2 : 1, false, false, none);
        } while (code >= 128);
        w |= code;
    } else if (i.dwords[F_DST]) {
        w |= f.vgpr(i.dwords[F_DST]);
    }
    vop_sources(f, i, w, 32, false, lit);
    std::uint64_t mods = i.has(OF_VOP3B) ? 0x8000ull | (0x1full << 59) : 0xff00ull | (0x1full << 59);
    w |= f.modifier_bits(fb.accepted, mods);
    if (i.has(OF_VOP3B)) {
        std::vector<std::uint32_t> none;
        unsigned code;
        do {
            code = f.scalar_source(2, false, false, none);
        } while (code >= 128);
        w |= u(code) << 8;
    }
    return {words64(w, lit), promoted ? std::string(family_name(i.family)) + "_e64" : "VOP3"};
}

Sample vop3p(Fields& f, const OpInfo& i, int opcode, const detail::FormBits& fb) {
    std::vector<std::uint32_t> lit;
    std::uint64_t w = 0xD3800000ull | u(opcode) << 16;
    if (i.dwords[F_DST]) w |= f.vgpr(i.dwords[F_DST]);
    vop_sources(f, i, w, 32, false, lit);
    w |= f.modifier_bits(fb.accepted, 0xff00ull | (0x1full << 59));
    // Usually the default op_sel_hi (all ones) as compilers emit it.
    if (f.chance(50) && !i.has(OF_MFMA)) w |= (fb.accepted & ((1ull << 14) | (3ull << 59)));
    return {words64(w, lit), "VOP3P"};
}

Sample ds(Fields& f, Op op, const OpInfo& i, int opcode, const detail::FormBits& fb) {
    std::uint64_t w = 0xD8000000ull | u(opcode) << 17;
    if (detail::print_flag(op, f.target(), detail::PF_GDS_ONLY)) w |= 1ull << 16;
    w |= f.chance(30) ? 0 : f.chance(50) ? f.below(0x10000) : f.below(256) << 8 * f.below(2);
    w |= f.modifier_bits(fb.accepted, (1ull << 16) | (1ull << 25));
    const int lo[] = {56, 32, 40, 48};
    for (int s = 0; s < 4; ++s)
        if (i.dwords[s]) w |= u(f.vgpr(i.dwords[s])) << lo[s];
    return {words64(w, {}), "DS"};
}

Sample flat(Fields& f, const OpInfo& i, int opcode, const detail::FormBits& fb) {
    unsigned seg = i.family == Family::FLAT ? 0 : i.family == Family::SCRATCH ? 1 : 2;
    std::uint64_t w = 0xDC000000ull | u(opcode) << 18 | u(seg) << 14;
    unsigned offset = f.chance(30) ? 0 : f.below(seg == 0 ? 0x1000 : 0x2000);
    w |= offset;
    w |= f.modifier_bits(fb.accepted, (1ull << 13) | (1ull << 16) | (1ull << 17) | (1ull << 25) | (1ull << 55));
    bool saddr = seg != 0 && f.chance(50);
    std::vector<std::uint32_t> none;
    if (seg != 0) w |= u(saddr ? (seg == 2 ? f.sgpr(2) : f.sgpr(1)) : 0x7f) << 48;
    int addr_dwords = i.dwords[F_SRC0];
    if (saddr && seg == 2) addr_dwords = 1;
    if (!(saddr && seg == 1) && addr_dwords) w |= u(f.vgpr(addr_dwords)) << 32;
    if (i.dwords[F_SRC1]) w |= u(f.vgpr(i.dwords[F_SRC1])) << 40;
    int dst = i.dwords[F_DST];
    if (i.has(OF_ATOMIC) && ((w >> 16) & 1)) dst = std::max(1, i.dwords[F_SRC1] / 2);
    if (dst) w |= u(f.vgpr(std::max(dst, 2))) << 56;
    return {words64(w, {}), family_name(i.family)};
}

Sample mubuf(Fields& f, const OpInfo& i, int opcode, const detail::FormBits& fb) {
    std::uint64_t w = 0xE0000000ull | u(opcode) << 18;
    w |= f.chance(30) ? 0 : f.below(0x1000);
    if (i.dwords[F_SRC0]) w |= u(f.below(4)) << 12;  // offen, idxen
    w |= f.modifier_bits(fb.accepted, (0x3eull << 12) | (1ull << 25) | (1ull << 55));
    w |= u(f.vgpr(2)) << 32;
    if (i.dwords[F_DST]) w |= u(f.vgpr(std::max<int>(2, i.dwords[F_DST] + 1))) << 40;
    w |= u(f.below(25)) << 48;
    std::vector<std::uint32_t> none;
    unsigned soffset;
    do {
        soffset = f.scalar_source(1, false, false, none);
    } while (soffset == 255);
    w |= u(soffset) << 56;
    if (!i.dwords[F_SRC0]) w &= ~(0xffull << 32);
    return {words64(w, {}), "MUBUF"};
}

Sample mimg(Fields& f, const OpInfo& i, int opcode, const detail::FormBits& fb) {
    std::uint64_t w = 0xF0000000ull | u(opcode) << 18;
    w |= u(f.chance(10) ? 0 : 1 + f.below(15)) << 8;  // dmask
    // The modifiers (gfx90a: scc in bit 7), not the bits LLVM ignores.
    w |= f.modifier_bits(fb.accepted, (1ull << 7) | (0x3full << 12) | (1ull << 25) | (1ull << 63));
    w |= u(f.vgpr(i.dwords[F_SRC0])) << 32;
    w |= u(f.vgpr(5)) << 40;  // room for four components and the tfe dword
    w |= u(f.below(24)) << 48;
    if (i.dwords[F_SRC1]) w |= u(f.below(25)) << 53;
    return {words64(w, {}), "MIMG"};
}

}  // namespace

std::vector<Sample> generate_corpus(Target target, int per_form, std::uint32_t seed) {
    std::mt19937 rng(seed);
    Fields f(rng, target);
    std::vector<Sample> out;
    int t = target_index(target);
    for (std::size_t n = 1; n < op_count; ++n) {
        auto op = static_cast<Op>(n);
        const OpInfo& i = op_info(op);
        for (int k = 0; k < per_form; ++k) {
            int opcode = i.opcode[t];
            const detail::FormBits& native = detail::form_bits(op, target, Form::native);
            if (opcode >= 0) {
                switch (i.family) {
                case Family::SOP1:
                case Family::SOP2:
                case Family::SOPK:
                case Family::SOPC:
                case Family::SOPP: out.push_back(scalar(f, i, opcode)); break;
                case Family::SMEM: out.push_back(smem(f, i, opcode, native)); break;
                case Family::VOP1:
                case Family::VOP2:
                case Family::VOPC: out.push_back(vop_native(f, i, opcode)); break;
                case Family::VOP3: out.push_back(vop3(f, i, opcode, native, false)); break;
                case Family::VOP3P: out.push_back(vop3p(f, i, opcode, native)); break;
                case Family::DS: out.push_back(ds(f, op, i, opcode, native)); break;
                case Family::FLAT:
                case Family::SCRATCH:
                case Family::GLOBAL: out.push_back(flat(f, i, opcode, native)); break;
                case Family::MUBUF: out.push_back(mubuf(f, i, opcode, native)); break;
                case Family::MIMG: out.push_back(mimg(f, i, opcode, native)); break;
                }
            }
            if (i.vop3_opcode[t] >= 0)
                out.push_back(vop3(f, i, i.vop3_opcode[t], detail::form_bits(op, target, Form::vop3), true));
            if (opcode >= 0 && detail::form_bits(op, target, Form::dpp).available)
                out.push_back(vop_dpp(f, i, opcode, detail::form_bits(op, target, Form::dpp)));
            if (opcode >= 0 && detail::form_bits(op, target, Form::sdwa).available)
                out.push_back(vop_sdwa(f, i, opcode, detail::form_bits(op, target, Form::sdwa)));
        }
    }
    return out;
}

// The oracle's version is the target table's (include/dppgemm/targets.def).
Llvm llvm_for(Target target) {
    const test_support::LlvmTools& tools = test_support::llvm_for(target_label(target));
    return {tools.mc, tools.objdump, target_label(target)};
}

std::string target_label(Target target) { return target_name(target); }

std::optional<Target> target_from_label(const std::string& name) {
    for (Target t : all_targets)
        if (target_label(t) == name) return t;
    return std::nullopt;
}

std::string temp_dir() { return test_support::fresh_dir("corpus"); }

namespace {

std::string run(const std::string& command) { return test_support::run_command(command).output; }

}  // namespace

std::string assemble(const Llvm& llvm, const std::string& source, const std::string& object, bool& ok) {
    std::remove(object.c_str());
    std::string err = run(llvm.mc + " -arch=amdgcn -mcpu=" + llvm.mcpu + " -filetype=obj " + source + " -o " + object +
                          " 2>&1 >/dev/null");
    ok = std::ifstream(object).good() && err.find("error:") == std::string::npos;
    return err;
}

namespace {

// Appends the instruction line to `lines` when it is one ("text  // ADDRESS: WORDS").
void parse_instruction(const std::string& line, std::vector<DisasmLine>& lines) {
    static const std::regex pattern(R"(^\s+(.*?)\s*// ([0-9A-F]{12}):((?: [0-9A-F]{8})+))");
    std::smatch m;
    if (!std::regex_search(line, m, pattern)) return;
    DisasmLine d;
    d.text = m[1].str();
    d.address = std::stoull(m[2].str(), nullptr, 16);
    std::istringstream words(m[3].str());
    std::string word;
    while (words >> word) d.words.push_back(static_cast<std::uint32_t>(std::stoul(word, nullptr, 16)));
    lines.push_back(std::move(d));
}

}  // namespace

std::vector<DisasmLine> objdump(const Llvm& llvm, const std::string& object) {
    return objdump_each(llvm, {object}).at(object);
}

// One llvm-objdump process for all objects (its start-up dominates a small
// object's listing); the listing names each object before its code.
std::map<std::string, std::vector<DisasmLine>> objdump_each(const Llvm& llvm, const std::vector<std::string>& objects) {
    std::map<std::string, std::vector<DisasmLine>> listings;
    if (objects.empty()) return listings;
    std::string command = llvm.objdump + " -d --mcpu=" + llvm.mcpu;
    for (const std::string& object : objects) {
        command += " " + object;
        listings[object];
    }
    std::istringstream in(run(command + " 2>&1"));
    std::vector<DisasmLine>* current = nullptr;
    std::string line;
    const std::string header = ":\tfile format ";
    while (std::getline(in, line)) {
        const std::size_t at = line.find(header);
        if (at != std::string::npos) {
            auto found = listings.find(line.substr(0, at));
            current = found == listings.end() ? nullptr : &found->second;
            continue;
        }
        if (current) parse_instruction(line, *current);
    }
    return listings;
}

std::vector<std::uint8_t> text_bytes(const std::vector<DisasmLine>& lines) {
    std::vector<std::uint8_t> bytes;
    for (const DisasmLine& l : lines) {
        if (bytes.size() != l.address) bytes.resize(l.address);
        for (std::uint32_t w : l.words)
            for (int b = 0; b < 4; ++b) bytes.push_back(static_cast<std::uint8_t>(w >> (8 * b)));
    }
    return bytes;
}

}  // namespace dppgemm::emu::test
