// Inst -> the text llvm-objdump-15 prints.  Printers per operand kind and
// per encoding family; what differs between instructions (operand widths,
// which modifiers LLVM shows) comes from the opcode table and op_forms.inc.

#include <cstdio>
#include <string>

#include "emu/decode/encoding_rules.hpp"
#include "emu/decode/inst.hpp"
#include "emu/util.hpp"

namespace dppgemm::emu {
namespace {

using detail::Form;

std::string dec(long long value) { return std::to_string(value); }

std::string reg_range(char prefix, unsigned index, unsigned dwords) {
    if (dwords <= 1) return prefix + std::to_string(index);
    return std::string(1, prefix) + "[" + std::to_string(index) + ":" + std::to_string(index + dwords - 1) + "]";
}

std::string special_name(const Operand& op, Target target) {
    unsigned code = op.code;
    bool wide = op.dwords > 1;
    const unsigned ttmp0 = first_ttmp_code(target);
    if (code >= 108 && code < ttmp0) {
        const char* base = code < 110 ? "tba" : "tma";
        return std::string(base) + (wide ? "" : code % 2 ? "_hi" : "_lo");
    }
    if (code >= ttmp0 && code <= 123) {
        unsigned t = code - ttmp0;
        return wide ? "ttmp[" + std::to_string(t) + ":" + std::to_string(t + op.dwords - 1) + "]"
                    : "ttmp" + std::to_string(t);
    }
    switch (code) {
    case 102: return wide ? "flat_scratch" : "flat_scratch_lo";
    case 103: return "flat_scratch_hi";
    case 104: return wide ? "xnack_mask" : "xnack_mask_lo";
    case 105: return "xnack_mask_hi";
    case 106: return wide ? "vcc" : "vcc_lo";
    case 107: return "vcc_hi";
    case 124: return "m0";
    case 125: return "null";
    case 126: return wide ? "exec" : "exec_lo";
    case 127: return "exec_hi";
    case 235: return "src_shared_base";
    case 236: return "src_shared_limit";
    case 237: return "src_private_base";
    case 238: return "src_private_limit";
    case 239: return "src_pops_exiting_wave_id";
    case 251: return "src_vccz";
    case 252: return "src_execz";
    case 253: return "src_scc";
    case 254: return "src_lds_direct";
    }
    return "<special " + std::to_string(code) + ">";
}

// How an immediate operand value is interpreted when printed.
enum class ImmType { b16_float, b16_int, b32, b64 };

// The inline constants LLVM prints by name, per operand width.
struct NamedConstant {
    std::uint64_t bits;
    const char* text;
};
constexpr NamedConstant f32_names[] = {{0x3f000000, "0.5"},  {0xbf000000, "-0.5"}, {0x3f800000, "1.0"},
                                       {0xbf800000, "-1.0"}, {0x40000000, "2.0"},  {0xc0000000, "-2.0"},
                                       {0x40800000, "4.0"},  {0xc0800000, "-4.0"}, {0x3e22f983, "0.15915494"}};
constexpr NamedConstant f16_names[] = {{0x3800, "0.5"},  {0xb800, "-0.5"}, {0x3c00, "1.0"},
                                       {0xbc00, "-1.0"}, {0x4000, "2.0"},  {0xc000, "-2.0"},
                                       {0x4400, "4.0"},  {0xc400, "-4.0"}, {0x3118, "0.15915494"}};
constexpr NamedConstant f64_names[] = {
    {0x3fe0000000000000, "0.5"},  {0xbfe0000000000000, "-0.5"}, {0x3ff0000000000000, "1.0"},
    {0xbff0000000000000, "-1.0"}, {0x4000000000000000, "2.0"},  {0xc000000000000000, "-2.0"},
    {0x4010000000000000, "4.0"},  {0xc010000000000000, "-4.0"}, {0x3fc45f306dc9c882, "0.15915494309189532"}};

template <std::size_t N>
const char* constant_name(const NamedConstant (&names)[N], std::uint64_t bits) {
    for (const NamedConstant& c : names)
        if (c.bits == bits) return c.text;
    return nullptr;
}

// LLVM's printImmediate16/32/64: small integers in decimal, the float inline
// constants by name, anything else in hex.  `llvm19`: LLVM 19 (our gfx940/gfx942
// oracle) neither truncates 16-bit literals nor sign-extends i16 ones, as
// LLVM 15 does.
std::string immediate(std::uint64_t value, ImmType type, bool llvm19 = false) {
    switch (type) {
    case ImmType::b16_float:
    case ImmType::b16_int: {
        if (llvm19 && type == ImmType::b16_int) return value <= 64 ? dec(static_cast<long long>(value)) : hex(value);
        auto v16 = static_cast<std::int16_t>(value & 0xffff);
        if (v16 >= -16 && v16 <= 64) return dec(v16);
        if (type == ImmType::b16_float)
            if (const char* name = constant_name(f16_names, value & 0xffff)) return name;
        return hex(value & 0xffff);
    }
    case ImmType::b32: {
        auto v32 = static_cast<std::int32_t>(value);
        if (v32 >= -16 && v32 <= 64) return dec(v32);
        if (const char* name = constant_name(f32_names, value & 0xffffffff)) return name;
        return hex(value & 0xffffffff);
    }
    case ImmType::b64: {
        auto v64 = static_cast<std::int64_t>(value);
        if (v64 >= -16 && v64 <= 64) return dec(v64);
        if (const char* name = constant_name(f64_names, value)) return name;
        return hex(value);
    }
    }
    return hex(value);
}

// An inline float constant as the bits of the operand's width.
std::uint64_t widen_inline_float(std::uint32_t f32, ImmType type) {
    for (std::size_t i = 0; i < sizeof f32_names / sizeof f32_names[0]; ++i) {
        if (f32_names[i].bits != f32) continue;
        if (type == ImmType::b64) return f64_names[i].bits;
        if (type == ImmType::b16_float || type == ImmType::b16_int) return f16_names[i].bits;
        return f32;
    }
    return f32;
}

class Printer {
public:
    Printer(const Inst& inst, Target target) : inst_(inst), target_(target), info_(inst.info()) {}
    std::string run();

private:
    const Inst& inst_;
    Target target_;
    const OpInfo& info_;
    std::string out_;
    bool first_operand_ = true;

    const detail::FormBits& form(Form f) const { return detail::form_bits(inst_.op, target_, f); }
    bool printed(Form f, int bit) const { return (form(f).printed >> bit) & 1; }
    bool gfx940() const { return has(target_, Feature::gfx940_insts); }
    // The oracle's llvm-objdump version (targets.def) decides some spellings.
    bool llvm19() const { return llvm_version(target_) >= 19; }

    ImmType imm_type(const Operand& op, int src) const;
    std::string operand(const Operand& op, int src = 0) const;
    std::string plain_operand(const Operand& op, int src) const;
    std::string with_mods(const Operand& op, int src, bool float_mods, bool sext) const;
    bool neg_is_sext(int bit) const { return detail::neg_is_sext(inst_.op, target_, bit); }
    void add(const std::string& text) {
        out_ += first_operand_ ? " " : ", ";
        out_ += text;
        first_operand_ = false;
    }
    void flag(const std::string& text) { out_ += " " + text; }

    void scalar();
    void smem();
    void vop();
    void vop3p();
    void ds();
    void flat();
    void mubuf();
    void mimg();
    void cache_bits();
    void cache_bits_into(std::string& out) {
        out_.swap(out);
        cache_bits();
        out_.swap(out);
    }
    void dpp_controls();
    void sdwa_controls(bool vopc, bool vop1);
    std::string simm16_text() const;
    std::string bit_list(unsigned bits, int count) const;
};

ImmType Printer::imm_type(const Operand& op, int src) const {
    Encoding e = inst_.encoding;
    if (e == Encoding::VOP3P && op.dwords > 1) return ImmType::b32;  // packed 2 x 32-bit
    if (op.dwords > 1) return ImmType::b64;
    if (e == Encoding::SOP1 || e == Encoding::SOP2 || e == Encoding::SOPC || e == Encoding::SOPK) return ImmType::b32;
    if (detail::int16_source(inst_.op, target_, src)) return ImmType::b16_int;
    // LLVM 19 prints a literal of a packed-16-bit source (v_pk_*, v_dot2c_*) whole.
    const OperandType type = src >= 0 && src < 3 ? info_.types[F_SRC0 + src] : OperandType::undeclared;
    const bool packed16 = type == OperandType::pk_f16 || type == OperandType::pk_b16;
    if (llvm19() && op.kind == OperandKind::literal && packed16) return ImmType::b32;
    if (detail::print_flag(inst_.op, target_, detail::PF_F16_SOURCES)) return ImmType::b16_float;
    if (detail::print_flag(inst_.op, target_, detail::PF_I16_SRC0) && src == 0) return ImmType::b16_int;
    return ImmType::b32;
}

std::string Printer::operand(const Operand& op, int src) const {
    bool constant =
        op.kind == OperandKind::inline_int || op.kind == OperandKind::inline_float || op.kind == OperandKind::literal;
    if (constant && detail::register_only_source(inst_.op, target_, src)) {
        // LLVM 15 replaces the value; LLVM 19 (gfx940/gfx942 oracle) appends a note.
        if (!llvm19()) return "/*invalid immediate*/";
        Operand plain = op;
        return plain_operand(plain, src) + "/*Invalid immediate*/";
    }
    return plain_operand(op, src);
}

std::string Printer::plain_operand(const Operand& op, int src) const {
    switch (op.kind) {
    case OperandKind::none: return "";
    case OperandKind::sgpr: return reg_range('s', op.index, op.dwords);
    case OperandKind::vgpr: return reg_range('v', op.index, op.dwords);
    case OperandKind::agpr: return reg_range('a', op.index, op.dwords);
    case OperandKind::special: return special_name(op, target_);
    case OperandKind::inline_int: return dec(static_cast<std::int32_t>(op.value));
    case OperandKind::inline_float: {
        ImmType t = imm_type(op, src);
        std::uint64_t bits = widen_inline_float(op.value, t);
        return t == ImmType::b16_int ? hex(bits) : immediate(bits, t);  // i16 sources show the half bits
    }
    case OperandKind::literal: {
        ImmType t = imm_type(op, src);
        return immediate(op.value, t, llvm19());  // a 64-bit operand's literal is zero-extended
    }
    case OperandKind::off: return "off";
    }
    return "";
}

std::string Printer::with_mods(const Operand& op, int src, bool float_mods, bool sext) const {
    std::string text = operand(op, src);
    // SDWA has sext bits of its own; VOP3 and DPP reuse the neg bit.
    unsigned sext_bits = inst_.sdwa ? inst_.mods.sext : inst_.mods.neg;
    if (sext && ((sext_bits >> src) & 1)) return "sext(" + text + ")";
    if (!float_mods) return text;
    bool neg = (inst_.mods.neg >> src) & 1, abs = (inst_.mods.abs >> src) & 1;
    if (inst_.encoding == Encoding::VOP3) {
        // Integer VOP3 ops take the abs/neg bits but do not show them.
        Form f = info_.family == Family::VOP3 ? Form::native : Form::vop3;
        neg = neg && printed(f, 61 + src);
        abs = abs && printed(f, 8 + src);
    }
    if (abs) text = "|" + text + "|";
    if (neg) {
        bool is_imm = op.kind == OperandKind::inline_int || op.kind == OperandKind::inline_float ||
                      op.kind == OperandKind::literal;
        text = (is_imm && !abs) ? "neg(" + text + ")" : "-" + text;
    }
    return text;
}

std::string Printer::bit_list(unsigned bits, int count) const {
    std::string s = "[";
    for (int i = 0; i < count; ++i) s += (i ? "," : "") + std::to_string((bits >> i) & 1);
    return s + "]";
}

// ---- scalar ----

// gfx940 names ids 20..24 too (22 prints as ..._DATA as well, as LLVM does).
std::string hwreg_text(std::uint16_t simm16, bool gfx940) {
    static const char* const names[] = {nullptr,
                                        "HW_REG_MODE",
                                        "HW_REG_STATUS",
                                        "HW_REG_TRAPSTS",
                                        "HW_REG_HW_ID",
                                        "HW_REG_GPR_ALLOC",
                                        "HW_REG_LDS_ALLOC",
                                        "HW_REG_IB_STS",
                                        nullptr,
                                        nullptr,
                                        nullptr,
                                        nullptr,
                                        nullptr,
                                        nullptr,
                                        nullptr,
                                        "HW_REG_SH_MEM_BASES",
                                        "HW_REG_TBA_LO",
                                        "HW_REG_TBA_HI",
                                        "HW_REG_TMA_LO",
                                        "HW_REG_TMA_HI",
                                        "HW_REG_XCC_ID",
                                        "HW_REG_SQ_PERF_SNAPSHOT_DATA",
                                        "HW_REG_SQ_PERF_SNAPSHOT_DATA",
                                        "HW_REG_SQ_PERF_SNAPSHOT_PC_LO",
                                        "HW_REG_SQ_PERF_SNAPSHOT_PC_HI"};
    constexpr unsigned first_gfx940_id = 20;
    unsigned id = simm16 & 0x3f, offset = (simm16 >> 6) & 0x1f, size = ((simm16 >> 11) & 0x1f) + 1;
    const bool named = id < sizeof names / sizeof names[0] && names[id] && (gfx940 || id < first_gfx940_id);
    std::string name = named ? names[id] : std::to_string(id);
    if (offset == 0 && size == 32) return "hwreg(" + name + ")";
    return "hwreg(" + name + ", " + std::to_string(offset) + ", " + std::to_string(size) + ")";
}

std::string gpr_idx_text(unsigned mask) {
    static const char* const modes[] = {"SRC0", "SRC1", "SRC2", "DST"};
    std::string s = "gpr_idx(";
    bool first = true;
    for (int i = 0; i < 4; ++i)
        if ((mask >> i) & 1) {
            s += (first ? "" : ",") + std::string(modes[i]);
            first = false;
        }
    return s + ")";
}

std::string sendmsg_text(std::uint16_t simm16) {
    unsigned id = simm16 & 0xf, op = (simm16 >> 4) & 7, stream = (simm16 >> 8) & 3;
    static const char* const msgs[] = {nullptr,
                                       "MSG_INTERRUPT",
                                       "MSG_GS",
                                       "MSG_GS_DONE",
                                       "MSG_SAVEWAVE",
                                       "MSG_STALL_WAVE_GEN",
                                       "MSG_HALT_WAVES",
                                       "MSG_ORDERED_PS_DONE",
                                       "MSG_EARLY_PRIM_DEALLOC",
                                       "MSG_GS_ALLOC_REQ",
                                       "MSG_GET_DOORBELL",
                                       nullptr,
                                       nullptr,
                                       nullptr,
                                       nullptr,
                                       "MSG_SYSMSG"};
    static const char* const gs_ops[] = {"GS_OP_NOP", "GS_OP_CUT", "GS_OP_EMIT", "GS_OP_EMIT_CUT"};
    static const char* const sys_ops[] = {nullptr, "SYSMSG_OP_ECC_ERR_INTERRUPT", "SYSMSG_OP_REG_RD",
                                          "SYSMSG_OP_HOST_TRAP_ACK", "SYSMSG_OP_TTRACE_PC"};
    bool gs = id == 2 || id == 3;
    bool known = msgs[id] != nullptr && (simm16 >> 10) == 0;
    if (known && gs && (op < 4) && (op != 0 || id == 3) && (op != 0 || stream == 0)) {
        std::string s = std::string("sendmsg(") + msgs[id] + ", " + gs_ops[op];
        if (op != 0) s += ", " + std::to_string(stream);
        return s + ")";
    }
    if (known && id == 15 && op >= 1 && op <= 4 && stream == 0)
        return std::string("sendmsg(") + msgs[id] + ", " + sys_ops[op] + ")";
    if (known && !gs && id != 15 && op == 0 && stream == 0) return std::string("sendmsg(") + msgs[id] + ")";
    // Not a message LLVM knows: the raw fields if they are all there is, else the number.
    if ((simm16 & ~0x37fu) != 0) return std::to_string(simm16);
    return "sendmsg(" + std::to_string(id) + ", " + std::to_string(op) + ", " + std::to_string(stream) + ")";
}

// ds_swizzle_b32's offset, as LLVM's printSwizzle spells it.
std::string swizzle_text(std::uint16_t imm) {
    if ((imm & 0xff00) == 0x8000) {
        std::string s = "swizzle(QUAD_PERM";
        for (int lane = 0; lane < 4; ++lane) s += "," + std::to_string((imm >> (2 * lane)) & 3);
        return s + ")";
    }
    if (imm & 0x8000) return std::to_string(imm);
    unsigned and_mask = imm & 0x1f, or_mask = (imm >> 5) & 0x1f, xor_mask = (imm >> 10) & 0x1f;
    auto pow2 = [](unsigned v) { return v && !(v & (v - 1)); };
    if (and_mask == 0x1f && or_mask == 0 && pow2(xor_mask)) return "swizzle(SWAP," + std::to_string(xor_mask) + ")";
    if (and_mask == 0x1f && or_mask == 0 && xor_mask > 0 && pow2(xor_mask + 1))
        return "swizzle(REVERSE," + std::to_string(xor_mask + 1) + ")";
    unsigned group = 0x1f - and_mask + 1;
    if (group > 1 && pow2(group) && or_mask < group && xor_mask == 0)
        return "swizzle(BROADCAST," + std::to_string(group) + "," + std::to_string(or_mask) + ")";
    unsigned probe0 = (0 | or_mask) ^ xor_mask, probe1 = ((0x1f & and_mask) | or_mask) ^ xor_mask;
    std::string s = "swizzle(BITMASK_PERM,\"";
    for (unsigned mask = 0x10; mask; mask >>= 1) {
        unsigned p0 = probe0 & mask, p1 = probe1 & mask;
        s += p0 == p1 ? (p0 ? '1' : '0') : (p0 ? 'i' : 'p');
    }
    return s + "\")";
}

std::string Printer::simm16_text() const {
    std::uint16_t v = inst_.simm16;
    switch (info_.imm_kind()) {
    case ImmKind::none: return "";
    case ImmKind::hex: return hex(v);
    // Branch offsets print as unsigned decimals; other small immediates like
    // an integer operand: decimal when inline-sized, else hex.
    case ImmKind::dec: return info_.has(OF_BRANCH) ? dec(v) : immediate(v, ImmType::b16_int);
    case ImmKind::dec_opt: return v ? dec(v) : "";
    case ImmKind::hwreg: return hwreg_text(v, gfx940());
    case ImmKind::sendmsg: return sendmsg_text(v);
    case ImmKind::gpr_idx: return v <= 15 ? gpr_idx_text(v) : hex(v);
    case ImmKind::waitcnt: {
        const Waitcnt& w = inst_.waitcnt;
        const unsigned vm_max = vmcnt_limit(target_);
        bool all_default = w.vmcnt == vm_max && w.expcnt == 7 && w.lgkmcnt == 15;
        std::string s;
        auto field = [&](const char* name, unsigned value, unsigned max) {
            if (value == max && !all_default) return;
            s += (s.empty() ? "" : " ") + std::string(name) + "(" + std::to_string(value) + ")";
        };
        field("vmcnt", w.vmcnt, vm_max);
        field("expcnt", w.expcnt, 7);
        field("lgkmcnt", w.lgkmcnt, 15);
        return s;
    }
    }
    return "";
}

void Printer::scalar() {
    bool setreg = detail::print_flag(inst_.op, target_, detail::PF_IMMEDIATE_FIRST);  // s_setreg_b32 hwreg(...), s0
    if (setreg) add(simm16_text());
    if (inst_.dst.kind != OperandKind::none) add(operand(inst_.dst));
    if (inst_.src0.kind != OperandKind::none) add(operand(inst_.src0));
    if (inst_.src1.kind != OperandKind::none) add(operand(inst_.src1));
    if (!setreg) {
        std::string imm = simm16_text();
        if (!imm.empty()) add(imm);
    }
}

void Printer::smem() {
    const OpInfo& i = info_;
    if (inst_.dst.kind != OperandKind::none) {
        // s_atc_probe's sdata is a number, not a register.
        bool number = detail::print_flag(inst_.op, target_, detail::PF_SDATA_NUMBER);
        add(number ? immediate(inst_.dst.code, ImmType::b16_int) : operand(inst_.dst));
    }
    if (inst_.src0.kind != OperandKind::none) add(operand(inst_.src0));
    if (i.dwords[F_SRC2]) {
        if (!inst_.smem_imm) add(operand(inst_.soffset));
        else if (inst_.soffset.kind != OperandKind::none) {
            add(operand(inst_.soffset));
            flag("offset:" +
                 (inst_.offset < 0 ? "-" + hex(-static_cast<std::int64_t>(inst_.offset)) : hex(inst_.offset)));
        } else {
            add(inst_.offset < 0 ? "-" + hex(-static_cast<std::int64_t>(inst_.offset)) : hex(inst_.offset));
        }
    }
    if (inst_.glc && printed(Form::native, 16)) flag("glc");
}

// ---- vector ALU ----

void Printer::dpp_controls() {
    const Dpp& d = inst_.dpp_ctrl;
    const bool dpp64_newbcast_only = has(target_, Feature::gfx90a_insts);
    if (llvm19() && (inst_.src0.dwords > 1 || inst_.dst.dwords > 1) && d.kind != DppKind::row_newbcast) {
        flag(" /* DP ALU dpp only supports row_newbcast */");
    } else if (dpp64_newbcast_only && inst_.src0.dwords > 1 && d.kind != DppKind::row_newbcast) {
        flag(" /* 64 bit dpp only supports row_newbcast */");
    } else switch (d.kind) {
        case DppKind::quad_perm: {
            std::string s = "quad_perm:[";
            for (int i = 0; i < 4; ++i) s += (i ? "," : "") + std::to_string((d.arg >> (2 * i)) & 3);
            flag(s + "]");
            break;
        }
        case DppKind::row_shl: flag("row_shl:" + dec(d.arg)); break;
        case DppKind::row_shr: flag("row_shr:" + dec(d.arg)); break;
        case DppKind::row_ror: flag("row_ror:" + dec(d.arg)); break;
        case DppKind::wave_shl: flag("wave_shl:1"); break;
        case DppKind::wave_rol: flag("wave_rol:1"); break;
        case DppKind::wave_shr: flag("wave_shr:1"); break;
        case DppKind::wave_ror: flag("wave_ror:1"); break;
        case DppKind::row_mirror: flag("row_mirror"); break;
        case DppKind::row_half_mirror: flag("row_half_mirror"); break;
        case DppKind::row_bcast15: flag("row_bcast:15"); break;
        case DppKind::row_bcast31: flag("row_bcast:31"); break;
        case DppKind::row_newbcast: flag("row_newbcast:" + dec(d.arg)); break;
        case DppKind::invalid:
            // LLVM's own words, including its odd spacing.
            if (d.ctrl >= 0x150 && d.ctrl <= 0x15f)
                flag(" /* row_newbcast/row_share is not supported on ASICs earlier than GFX90A/GFX10 */");
            else if (d.ctrl >= 0x160 && d.ctrl <= 0x16f)
                flag("/* row_xmask is not supported on ASICs earlier than GFX10 */");
            else flag("/* Invalid dpp_ctrl value */");
            break;
        }
    flag("row_mask:" + hex(d.row_mask));
    flag("bank_mask:" + hex(d.bank_mask));
    if (d.bound_ctrl) flag("bound_ctrl:1");
}

void Printer::sdwa_controls(bool vopc, bool vop1) {
    static const char* const sel[] = {"BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD"};
    // dst_unused 3 is no value LLVM knows; its printer falls into UNUSED_PAD.
    static const char* const unused[] = {"UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE", "UNUSED_PAD"};
    const Sdwa& s = inst_.sdwa_sel;
    if (inst_.clamp && printed(Form::sdwa, 45)) flag("clamp");
    if (inst_.omod && printed(Form::sdwa, 46)) flag(inst_.omod == 1 ? "mul:2" : inst_.omod == 2 ? "mul:4" : "div:2");
    if (!vopc) {
        flag(std::string("dst_sel:") + sel[s.dst_sel]);
        flag(std::string("dst_unused:") + unused[s.dst_unused]);
    }
    flag(std::string("src0_sel:") + sel[s.src0_sel]);
    if (!vop1) flag(std::string("src1_sel:") + sel[s.src1_sel]);
}

void Printer::vop() {
    const OpInfo& i = info_;
    bool vop3 = inst_.encoding == Encoding::VOP3;
    Form f = inst_.dpp    ? Form::dpp
             : inst_.sdwa ? Form::sdwa
             : vop3       ? (i.family == Family::VOP3 ? Form::native : Form::vop3)
                          : Form::native;
    bool vopc = i.family == Family::VOPC;
    // Which source modifiers print, per source: what LLVM showed for the
    // abs/neg/sext bits of this form.  An integer source's neg bit is sext.
    auto float_mods = [&](int s) {
        if (vop3) return !neg_is_sext(61 + s);
        if (inst_.dpp)
            return s < 2 && (printed(Form::dpp, 52 + 2 * s) || printed(Form::dpp, 53 + 2 * s)) &&
                   !neg_is_sext(52 + 2 * s);
        if (inst_.sdwa) return s < 2 && (printed(Form::sdwa, 52 + 8 * s) || printed(Form::sdwa, 53 + 8 * s));
        return false;
    };
    auto sext = [&](int s) {
        if (vop3) return neg_is_sext(61 + s);
        if (inst_.dpp) return s < 2 && neg_is_sext(52 + 2 * s);
        if (inst_.sdwa) return s < 2 && printed(Form::sdwa, 51 + 8 * s);
        return false;
    };
    if (vopc) {
        add(operand(inst_.sdst));
    } else if (inst_.dst.kind != OperandKind::none) {
        add(operand(inst_.dst));
    }
    if (i.has(OF_VOP3B)) add(operand(inst_.sdst));
    const Operand* srcs[] = {&inst_.src0, &inst_.src1, &inst_.src2};
    int count = 0;
    for (int s = 0; s < 3; ++s) {
        if (srcs[s]->kind == OperandKind::none) continue;
        if (i.has(OF_LITERAL_K) && s == 2) break;
        if (i.has(OF_LITERAL_K_MID) && s == 1) add(hex(inst_.src2.value));
        add(with_mods(*srcs[s], s, float_mods(s), sext(s)));
        ++count;
    }
    if (i.has(OF_LITERAL_K) && !i.has(OF_LITERAL_K_MID)) add(hex(inst_.src2.value));
    if (vop3) {
        // op_sel: one bit per source plus the destination, shown when LLVM shows it.
        // op_sel: entries for the sources (and tied operands) LLVM lists, the
        // destination's bit (op_sel bit 3) last.
        int entries = detail::op_sel_entries(inst_.op, target_);
        if (entries == 0) entries = count + 1;
        if (inst_.mods.op_sel && (form(f).printed & (0xfull << 11))) {
            unsigned bits = inst_.mods.op_sel & ((1u << (entries - 1)) - 1);
            if ((inst_.mods.op_sel >> 3) & 1) bits |= 1u << (entries - 1);
            flag("op_sel:" + bit_list(bits, entries));
        }
        if (inst_.clamp && printed(f, 15)) flag("clamp");
        if (inst_.omod && printed(f, 59)) flag(inst_.omod == 1 ? "mul:2" : inst_.omod == 2 ? "mul:4" : "div:2");
    }
    if (inst_.dpp) dpp_controls();
    if (inst_.sdwa) sdwa_controls(vopc, i.family == Family::VOP1);
}

void Printer::vop3p() {
    const OpInfo& i = info_;
    if (inst_.dst.kind != OperandKind::none) add(operand(inst_.dst));
    const Operand* srcs[] = {&inst_.src0, &inst_.src1, &inst_.src2};
    int count = 0;
    bool mfma = i.has(OF_MFMA);
    // v_fma_mix*/v_mad_mix*: per-source neg and abs like VOP3.
    bool mix = detail::print_flag(inst_.op, target_, detail::PF_MIXED_PRECISION);
    for (int s = 0; s < 3; ++s) {
        if (srcs[s]->kind == OperandKind::none) continue;
        add(mix ? with_mods(*srcs[s], s, true, false) : operand(*srcs[s], s));
        ++count;
    }
    if (mfma) {
        if (inst_.cbsz) flag("cbsz:" + dec(inst_.cbsz));
        if (inst_.abid) flag("abid:" + dec(inst_.abid));
        if (inst_.blgp) flag("blgp:" + dec(inst_.blgp));
        if (inst_.mods.neg) flag("neg:" + bit_list(inst_.mods.neg, 3));
        return;
    }
    unsigned all = (1u << count) - 1;
    // Each modifier group shows only if LLVM shows any of its bits for this op.
    std::uint64_t shown = form(Form::native).printed;
    bool op_sel_shown = shown & (7ull << 11), op_sel_hi_shown = shown & ((1ull << 14) | (3ull << 59));
    bool neg_shown = shown & (7ull << 61), neg_hi_shown = shown & (7ull << 8);
    if (op_sel_shown && (inst_.mods.op_sel & all)) flag("op_sel:" + bit_list(inst_.mods.op_sel, count));
    unsigned hi = inst_.mods.op_sel_hi & all;
    if (op_sel_hi_shown && (mix ? hi != 0 : hi != all)) flag("op_sel_hi:" + bit_list(inst_.mods.op_sel_hi, count));
    if (!mix && neg_shown && (inst_.mods.neg & all)) flag("neg_lo:" + bit_list(inst_.mods.neg, count));
    if (!mix && neg_hi_shown && (inst_.mods.neg_hi & all)) flag("neg_hi:" + bit_list(inst_.mods.neg_hi, count));
    if (inst_.clamp && printed(Form::native, 15)) flag("clamp");
}

// ---- memory ----

void Printer::ds() {
    if (inst_.dst.kind != OperandKind::none) add(operand(inst_.dst));
    if (inst_.src0.kind != OperandKind::none) add(operand(inst_.src0));
    if (inst_.src1.kind != OperandKind::none) add(operand(inst_.src1));
    if (inst_.src2.kind != OperandKind::none) add(operand(inst_.src2));
    bool two = detail::print_flag(inst_.op, target_, detail::PF_DS_TWO_OFFSETS);
    if (detail::print_flag(inst_.op, target_, detail::PF_DS_OFFSET_HIDDEN)) {
    } else if (detail::print_flag(inst_.op, target_, detail::PF_SWIZZLE_OFFSET)) {
        if (inst_.offset) flag("offset:" + swizzle_text(static_cast<std::uint16_t>(inst_.offset)));
    } else if (two) {
        if (inst_.offset0) flag("offset0:" + dec(inst_.offset0));
        if (inst_.offset1) flag("offset1:" + dec(inst_.offset1));
    } else if (inst_.offset) {
        flag("offset:" + dec(inst_.offset));
    }
    if (inst_.gds) flag("gds");
}

void Printer::flat() {
    // With lds the data goes to LDS: no register operand.
    if (inst_.dst.kind != OperandKind::none && !inst_.lds) add(operand(inst_.dst));
    add(operand(inst_.src0));
    if (inst_.src1.kind != OperandKind::none) add(operand(inst_.src1));
    if (inst_.soffset.kind != OperandKind::none) add(operand(inst_.soffset));
    if (inst_.offset) flag("offset:" + dec(inst_.offset));
    cache_bits();
    if (inst_.lds && printed(Form::native, 13)) flag("lds");
}

// Cache-policy bits: glc/slc (gfx90a adds scc), renamed sc0/sc1/nt on gfx940.
void Printer::cache_bits() {
    if (gfx940()) {
        if (inst_.glc) flag("sc0");
        if (inst_.slc) flag("nt");
        if (inst_.sc1) flag("sc1");
    } else {
        if (inst_.glc) flag("glc");
        if (inst_.slc) flag("slc");
        if (inst_.sc1) flag("scc");
    }
}

void Printer::mubuf() {
    if (!info_.dwords[F_SRC2]) {  // buffer_wbinvl1, buffer_wbl2: no operands, maybe cache bits
        Inst shown = inst_;
        shown.glc = inst_.glc && printed(Form::native, 14);
        shown.sc1 = inst_.sc1 && printed(Form::native, 15);
        shown.slc = inst_.slc && printed(Form::native, 17);
        Printer(shown, target_).cache_bits_into(out_);
        return;
    }
    if (inst_.dst.kind != OperandKind::none && !inst_.lds) add(operand(inst_.dst));
    add(operand(inst_.src0));
    add(operand(inst_.src2));
    add(operand(inst_.soffset));
    if (inst_.idxen) flag("idxen");
    if (inst_.offen) flag("offen");
    if (inst_.offset) flag("offset:" + dec(inst_.offset));
    cache_bits();
    if (inst_.lds && printed(Form::native, 16)) flag("lds");
    else if (inst_.tfe && printed(Form::native, 55)) flag("tfe");
}

void Printer::mimg() {
    add(operand(inst_.dst));
    add(operand(inst_.src0));
    add(operand(inst_.src2));
    if (inst_.src1.kind != OperandKind::none) add(operand(inst_.src1));
    if (inst_.dmask) {
        char buf[16];
        std::snprintf(buf, sizeof buf, "dmask:0x%x", inst_.dmask);
        flag(buf);
    }
    if (inst_.unorm) flag("unorm");
    cache_bits();
    if (inst_.a16) flag(detail::print_flag(inst_.op, target_, detail::PF_MIMG_R128) ? "r128" : "a16");
    if (inst_.tfe) flag("tfe");
    if (inst_.lwe) flag("lwe");
    if (inst_.da) flag("da");
    if (inst_.d16) flag("d16");
}

std::string Printer::run() {
    if (!inst_.valid())
        return ".long " + [&] {
            char buf[16];
            std::snprintf(buf, sizeof buf, "0x%08x", inst_.word0);
            return std::string(buf);
        }();
    out_ = std::string(detail::spelling(inst_.op, target_));
    switch (inst_.encoding) {
    case Encoding::VOP1:
    case Encoding::VOP2:
    case Encoding::VOPC:
        // _e32 only tells it apart from an _e64 form; operand-less VOP1
        // (v_nop, v_clrexcp) print bare.
        if (inst_.dpp) out_ += "_dpp";
        else if (inst_.sdwa) out_ += detail::print_flag(inst_.op, target_, detail::PF_SDWA_NO_SUFFIX) ? "" : "_sdwa";
        else if (detail::print_flag(inst_.op, target_, detail::PF_E32_SUFFIX)) out_ += "_e32";
        vop();
        break;
    case Encoding::VOP3:
        if (detail::print_flag(inst_.op, target_, detail::PF_E64_SUFFIX)) out_ += "_e64";
        vop();
        break;
    case Encoding::VOP3P: vop3p(); break;
    case Encoding::SMEM: smem(); break;
    case Encoding::DS: ds(); break;
    case Encoding::FLAT: flat(); break;
    case Encoding::MUBUF: mubuf(); break;
    case Encoding::MIMG: mimg(); break;
    default: scalar(); break;
    }
    return out_;
}

}  // namespace

std::string disassemble(const Inst& inst, Target target) { return Printer(inst, target).run(); }

}  // namespace dppgemm::emu
