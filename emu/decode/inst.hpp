#pragma once
// A decoded instruction: what the executor consumes and the disassembler
// prints.  Plain data, no pointers into the code bytes, cheap to copy (the
// executor pre-decodes a whole code object once into a std::vector<Inst>).

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "emu/decode/op_table.hpp"

namespace dppgemm::emu {

// How the instruction was actually encoded (an Op of family VOP2 may arrive as
// VOP2, VOP3, DPP or SDWA): the encodings of op_table.hpp's family list.
#define DPPGEMM_EMU_ENCODING(name) name,
#define DPPGEMM_EMU_SEGMENT(name)
enum class Encoding : std::uint8_t { invalid, DPPGEMM_EMU_FAMILIES(DPPGEMM_EMU_ENCODING, DPPGEMM_EMU_SEGMENT) };
#undef DPPGEMM_EMU_ENCODING
#undef DPPGEMM_EMU_SEGMENT

// Operand kinds.  `code` keeps the raw 9-bit source encoding for scalar-ish
// operands (SGPR 0-101, flat_scratch 102-103, xnack_mask 104-105, vcc 106-107,
// ttmp 108-123, m0 124, exec 126-127, inline constants 128-208 and 240-248,
// vccz 251, execz 252, scc 253, literal 255, VGPR 256-511) so that an
// executor can switch on it; `index` is the register number within its file.
enum class OperandKind : std::uint8_t {
    none,
    sgpr,          // s[index : index+dwords-1]
    vgpr,          // v[index : ...]
    agpr,          // a[index : ...]
    special,       // vcc, exec, m0, flat_scratch, xnack_mask, ttmp, scc, vccz, execz, ... (see code)
    inline_int,    // value = sign-extended integer (-16..64)
    inline_float,  // value = the 32-bit pattern the constant stands for (f32 view)
    literal,       // value = the 32-bit literal dword
    off,           // the `off` placeholder (no SGPR / no VGPR address)
};

struct Operand {
    OperandKind kind = OperandKind::none;
    std::uint8_t dwords = 0;  // register count (1 = v4, 4 = v[4:7]); 0 for none
    std::uint16_t code = 0;   // raw encoding value (see above)
    std::uint16_t index = 0;  // register number (sgpr/vgpr/agpr/ttmp)
    std::uint32_t value = 0;  // inline constant / literal bits

    bool is_reg() const { return kind == OperandKind::sgpr || kind == OperandKind::vgpr || kind == OperandKind::agpr; }
};

// Source modifiers of VOP3/VOP3P/DPP/SDWA, one bit per source (bit i = src i).
// For an integer source of VOP3/DPP the neg bit means sign-extend (LLVM
// prints sext(...)); SDWA has sext bits of its own.
struct SrcMods {
    std::uint8_t neg = 0;        // VOP3P: neg_lo
    std::uint8_t abs = 0;        // also v_fma_mix*/v_mad_mix*, whose neg_hi bits are abs
    std::uint8_t neg_hi = 0;     // VOP3P
    std::uint8_t op_sel = 0;     // VOP3 (bit 3 = dst) / VOP3P
    std::uint8_t op_sel_hi = 0;  // VOP3P (bits 0..2)
    std::uint8_t sext = 0;       // SDWA
};

// DPP control word (the second dword of a DPP instruction).
enum class DppKind : std::uint8_t {
    quad_perm,
    row_shl,
    row_shr,
    row_ror,
    wave_shl,
    wave_rol,
    wave_shr,
    wave_ror,
    row_mirror,
    row_half_mirror,
    row_bcast15,
    row_bcast31,
    row_newbcast,
    invalid,
};
struct Dpp {
    std::uint16_t ctrl = 0;  // raw dpp_ctrl (9 bits)
    DppKind kind = DppKind::quad_perm;
    std::uint8_t arg = 0;  // quad_perm: packed 4x2 bits; shifts/rotates/newbcast: amount/lane
    std::uint8_t row_mask = 0xf;
    std::uint8_t bank_mask = 0xf;
    bool bound_ctrl = false;  // raw bit: invalid lanes read 0
    bool fi = false;          // fetch inactive (gfx10+ only; kept raw)
};

// SDWA selectors: 0..3 BYTE_0..3, 4..5 WORD_0..1, 6 DWORD.
struct Sdwa {
    std::uint8_t dst_sel = 6;
    std::uint8_t dst_unused = 0;  // 0 pad, 1 sext, 2 preserve
    std::uint8_t src0_sel = 6;
    std::uint8_t src1_sel = 6;
};

// The scalar operand code of ttmp0: 108 on gfx9 (ttmp0..15); 112 on GCN3,
// whose 108..111 are tba_lo, tba_hi, tma_lo, tma_hi and 112..123 ttmp0..11
// (GCN3 ISA manual, "SGPR and special register codes").
constexpr unsigned first_ttmp_code(Target target) { return has(target, Feature::gfx9_insts) ? 108 : 112; }

// s_waitcnt simm16, split: vmcnt is 6 bits in two places on gfx9, 4 bits on GCN3.
struct Waitcnt {
    std::uint8_t vmcnt = 63;
    std::uint8_t expcnt = 7;
    std::uint8_t lgkmcnt = 15;
};

struct Inst {
    std::uint32_t pc = 0;   // byte offset in the code
    std::uint8_t size = 4;  // 4, 8 or 12 bytes (including the literal)
    Encoding encoding = Encoding::invalid;
    bool dpp = false;   // VOP1/VOP2/VOPC with the DPP word
    bool sdwa = false;  // VOP1/VOP2/VOPC with the SDWA word
    Op op = Op::invalid;
    std::uint32_t word0 = 0;  // first dword, kept for `.long` and checkers

    // Operands.  The same instruction has the same layout in every encoding
    // (e32, e64, DPP, SDWA); implicit vcc is spelled out as a special operand.
    //   SOP*:  dst = sdst, src0/src1 = ssrc0/ssrc1 (SOPK/SOPP: simm16).
    //   VALU:  dst = vdst (an SGPR for v_readlane/v_readfirstlane), src0..src2;
    //          sdst = carry-out of VOP3b ops (vcc in e32) and the lane mask a
    //          VOPC writes (vcc in e32, any SGPR pair in e64/SDWA);
    //          src2 = carry-in / v_cndmask lane mask (vcc in e32); for
    //          v_madmk/v_madak (OF_LITERAL_K) src2 is the literal K.
    //   SMEM:  dst = sdata (loaded or stored), src0 = sbase, offset / soffset.
    //   DS:    dst = vdst, src0 = addr, src1 = data0, src2 = data1, offset*.
    //   FLAT/GLOBAL/SCRATCH: dst = vdst, src0 = vaddr (or `off`), src1 = data,
    //          soffset = saddr (or `off`), offset.
    //   MUBUF: dst = vdata (loaded or stored), src0 = vaddr (or `off`),
    //          src2 = srsrc, soffset, offset.
    //   MIMG:  dst = vdata (as wide as dmask, tfe and d16 make it), src0 =
    //          vaddr (as wide as LLVM prints it: the address's real dwords
    //          follow from the op, da and a16), src1 = ssamp (samplers
    //          only), src2 = srsrc (the T#, always 8 SGPRs wide in the text).
    Operand dst, sdst, src0, src1, src2, soffset;

    SrcMods mods;
    bool clamp = false;
    std::uint8_t omod = 0;  // 0 none, 1 mul:2, 2 mul:4, 3 div:2

    Dpp dpp_ctrl;
    Sdwa sdwa_sel;

    // Memory.  `offset` is the immediate byte offset as the instruction uses
    // it: DS offset16 (or offset0 | offset1 << 8), FLAT 12/13-bit (signed for
    // GLOBAL/SCRATCH), MUBUF 12-bit, SMEM 20/21-bit (signed on gfx9 SMEM).
    std::int32_t offset = 0;
    std::uint8_t offset0 = 0, offset1 = 0;  // DS two-address forms
    bool gds = false;
    bool glc = false, slc = false, dlc = false;  // gfx940: sc0 = glc, nt = slc
    bool sc1 = false;                            // gfx90a: scc, gfx940: sc1
    bool lds = false, tfe = false;               // tfe: before gfx90a (where that bit means AGPR data)
    bool offen = false, idxen = false, addr64 = false;
    // MIMG: enabled components, unnormalized coordinates, array (da),
    // 16-bit addresses (gfx9 a16; GCN3 r128: a 128-bit T#), LOD warning
    // enable, 16-bit data.
    std::uint8_t dmask = 0;
    bool unorm = false, da = false, a16 = false, lwe = false, d16 = false;
    bool smem_imm = true;  // SMEM offset is an immediate (else soffset SGPR)

    // MFMA (gfx908+) and packed math.
    std::uint8_t cbsz = 0, abid = 0, blgp = 0;

    std::uint16_t simm16 = 0;  // SOPK/SOPP immediate (raw)
    Waitcnt waitcnt;           // decoded s_waitcnt fields

    const OpInfo& info() const { return op_info(op); }
    bool valid() const { return op != Op::invalid; }
    // Branch target (SOPP s_branch/s_cbranch_*): pc + 4 + 4 * simm16.
    std::int64_t branch_target() const {
        return static_cast<std::int64_t>(pc) + 4 + 4 * static_cast<std::int16_t>(simm16);
    }
};

// Decode one instruction at `offset` of `code[0, size)`.  Never reads outside
// the buffer and never throws: a word it cannot decode (or a truncated
// instruction at the end) yields an Inst with op == Op::invalid and size 4
// (LLVM's `.long` fallback).  Requires offset + 4 <= size.
Inst decode_one(Target target, const std::uint8_t* code, std::size_t size, std::size_t offset);

// Decode a whole code range from start to end.  Trailing bytes shorter than a
// dword are ignored.
std::vector<Inst> decode_all(Target target, const std::uint8_t* code, std::size_t size);

// The text llvm-objdump -d prints for the instruction (part before `//`,
// trimmed).  Branch targets print as LLVM does: the signed word offset.
std::string disassemble(const Inst& inst, Target target);

}  // namespace dppgemm::emu
