// Decoded fields of hand-checked encodings (bytes from llvm-mc-15 -show-encoding).

#include <catch2/catch.hpp>

#include <cstring>

#include "emu/decode/inst.hpp"

using namespace dppgemm::emu;

namespace {

Inst decode_words(Target target, std::initializer_list<std::uint32_t> words) {
    std::vector<std::uint8_t> bytes(words.size() * 4);
    std::size_t i = 0;
    for (std::uint32_t w : words) std::memcpy(&bytes[4 * i++], &w, 4);
    return decode_one(target, bytes.data(), bytes.size(), 0);
}

}  // namespace

TEST_CASE("the table knows which targets have v_mac_f32, v_fmac_f32 and v_pk_fma_f32", "[decode]") {
    const OpInfo& mac = op_info(Op::v_mac_f32);
    const OpInfo& fmac = op_info(Op::v_fmac_f32);
    const OpInfo& pk_fma = op_info(Op::v_pk_fma_f32);
    CHECK(mac.on(Target::gfx900));
    CHECK(mac.on(Target::gfx90a));
    CHECK_FALSE(mac.on(Target::gfx940));
    CHECK_FALSE(fmac.on(Target::gfx900));
    CHECK(fmac.on(Target::gfx906));
    CHECK(fmac.on(Target::gfx942));
    CHECK(mac.opcode[target_index(Target::gfx906)] == 0x16);
    CHECK(fmac.opcode[target_index(Target::gfx906)] == 0x3b);
    CHECK_FALSE(pk_fma.on(Target::gfx908));
    CHECK(pk_fma.on(Target::gfx90a));
    CHECK(pk_fma.dwords[F_DST] == 2);
    CHECK(op_info(Op::ds_read_b128).dwords[F_DST] == 4);
    CHECK(op_info(Op::ds_read_b128).mem == MemClass::lds);
    CHECK(op_info(Op::s_waitcnt).has(OF_WAITCNT));
}

TEST_CASE("v_mac_f32 with DPP decodes src0 from the DPP word", "[decode]") {
    // v_mac_f32_dpp v4, v2, v3 quad_perm:[0,0,2,2] row_mask:0xf bank_mask:0xf
    Inst inst = decode_words(Target::gfx906, {0x2C0806FA, 0xFF00A002});
    REQUIRE(inst.op == Op::v_mac_f32);
    CHECK(inst.size == 8);
    CHECK(inst.dpp);
    CHECK(inst.dst.kind == OperandKind::vgpr);
    CHECK(inst.dst.index == 4);
    CHECK(inst.src0.index == 2);
    CHECK(inst.src1.index == 3);
    CHECK(inst.dpp_ctrl.kind == DppKind::quad_perm);
    CHECK(inst.dpp_ctrl.arg == 0xA0);
    CHECK(inst.dpp_ctrl.row_mask == 0xf);
    CHECK(inst.dpp_ctrl.bank_mask == 0xf);
    CHECK(disassemble(inst, Target::gfx906) ==
          "v_mac_f32_dpp v4, v2, v3 quad_perm:[0,0,2,2] row_mask:0xf bank_mask:0xf");
    // gfx940 has no v_mac_f32: LLVM prints the word as data.
    CHECK(decode_words(Target::gfx940, {0x2C0806FA, 0xFF00A002}).op == Op::invalid);
}

TEST_CASE("s_waitcnt, literals and inline constants decode to values", "[decode]") {
    Inst wait = decode_words(Target::gfx906, {0xBF8C0070});
    CHECK(wait.waitcnt.vmcnt == 0);
    CHECK(wait.waitcnt.lgkmcnt == 0);
    CHECK(wait.waitcnt.expcnt == 7);
    CHECK(disassemble(wait, Target::gfx906) == "s_waitcnt vmcnt(0) lgkmcnt(0)");

    Inst mov = decode_words(Target::gfx906, {0x7E0202FF, 0x12345678});
    CHECK(mov.size == 8);
    CHECK(mov.src0.kind == OperandKind::literal);
    CHECK(mov.src0.value == 0x12345678);
    CHECK(disassemble(mov, Target::gfx906) == "v_mov_b32_e32 v1, 0x12345678");

    Inst add = decode_words(Target::gfx906, {0x020204F0});  // v_add_f32_e32 v1, 0.5, v2
    CHECK(add.src0.kind == OperandKind::inline_float);
    CHECK(add.src0.value == 0x3f000000);

    Inst load = decode_words(Target::gfx906, {0xDC509FF0, 0x017F0002});  // global_load_dword v1, v[2:3], off offset:-16
    CHECK(load.op == Op::global_load_dword);
    CHECK(load.offset == -16);
    CHECK(load.src0.dwords == 2);
    CHECK(load.soffset.kind == OperandKind::off);
}

TEST_CASE("a literal cut off by the end of the code is a .long", "[decode]") {
    Inst inst = decode_words(Target::gfx906, {0xBE8001FF});
    CHECK(inst.op == Op::invalid);
    CHECK(inst.size == 4);
    CHECK(disassemble(inst, Target::gfx906) == ".long 0xbe8001ff");
}

TEST_CASE("carry and compare operands sit in the same place in e32 and e64", "[decode]") {
    Inst e32 = decode_words(Target::gfx906, {0x38020702});              // v_addc_co_u32_e32 v1, vcc, v2, v3, vcc
    Inst e64 = decode_words(Target::gfx906, {0xD11C0401, 0x001A0702});  // ..._e64 v1, s[4:5], v2, v3, s[6:7]
    REQUIRE(e32.op == Op::v_addc_co_u32);
    REQUIRE(e64.op == Op::v_addc_co_u32);
    CHECK(e32.sdst.kind == OperandKind::special);
    CHECK(e32.sdst.code == 106);  // vcc
    CHECK(e32.src2.code == 106);
    CHECK(e64.sdst.kind == OperandKind::sgpr);
    CHECK(e64.sdst.index == 4);
    CHECK(e64.src2.kind == OperandKind::sgpr);
    CHECK(e64.src2.index == 6);
    CHECK(e64.src2.dwords == 2);
    CHECK(disassemble(e64, Target::gfx906) == "v_addc_co_u32_e64 v1, s[4:5], v2, v3, s[6:7]");

    Inst cmp32 = decode_words(Target::gfx906, {0x7C820501});              // v_cmp_lt_f32_e32 vcc, v1, v2
    Inst cmp64 = decode_words(Target::gfx906, {0xD0410008, 0x00020501});  // v_cmp_lt_f32_e64 s[8:9], v1, v2
    CHECK(cmp32.sdst.code == 106);
    CHECK(cmp64.sdst.kind == OperandKind::sgpr);
    CHECK(cmp64.sdst.index == 8);
    CHECK(cmp64.dst.kind == OperandKind::none);
    CHECK(disassemble(cmp64, Target::gfx906) == "v_cmp_lt_f32_e64 s[8:9], v1, v2");
}
