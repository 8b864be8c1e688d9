#!/usr/bin/env python3
"""Turn probe.py's JSON into emu/decode/op_table.inc (one DPPGEMM_OP row per instruction).

Usage: python3 probe.py > probe.json && python3 gen_table.py probe.json ../op_forms.inc > ../op_table.inc

Row: DPPGEMM_OP(name, Family, MemClass,
                op_gfx900, op_gfx906, op_gfx908, op_gfx90a, op_gfx940, op_gfx942,
                vop3_gfx900, ..., vop3_gfx942,
                dwords_dst, dwords_src0, dwords_src1, dwords_src2, flags)
"""
import json, re, sys

import targets

TARGETS = [name for name, _ in targets.rows()]
# Register number each probed field carries, per family (see probe.py).
FIELD_BASE = {
    "SMEM": {"dst": 8, "src0": 16},
    "DS": {"dst": 32, "src0": 8, "src1": 16, "src2": 24},
    "FLAT": {"dst": 24, "src0": 8, "src1": 16},
    "MUBUF": {"dst": 16, "src0": 0, "src2": 8},
}
DEFAULT_BASE = {"dst": 8, "src0": 16, "src1": 24, "src2": 32}
SLOT = {"dst": 0, "src0": 1, "src1": 2, "src2": 3}
# Not emulated (graphics-only or needing operand kinds of their own): LLVM
# prints them, our decoder prints `.long` for them.
SKIP = re.compile(r"^(v_interp_)")

REG = re.compile(r"\b([vsa])(?:\[(\d+):(\d+)\]|(\d+)(?!\w))")


def field_dwords(family, fields, text):
    base_of = FIELD_BASE.get("FLAT" if family in ("SCRATCH", "GLOBAL") else family, DEFAULT_BASE)
    regs = []
    for kind, lo, hi, single in REG.findall(text.split(" ", 1)[1] if " " in text else ""):
        lo = int(lo or single)
        hi = int(hi or single)
        regs.append((lo, hi - lo + 1))
    dw = [0, 0, 0, 0]
    for f in fields:
        if f in ("imm", "off"):
            if family == "SMEM" and re.search(r"(0x10|s16)$", text.split(" glc")[0]):
                dw[3] = 1
            continue
        base = base_of.get(f)
        for lo, n in regs:
            if lo == base:
                dw[SLOT[f]] = n
                break
    if family == "SMEM" and re.match(r"s_atc_probe", text) and "dst" in fields:
        dw[0] = 1  # sdata holds a probe mode number, printed as such
    return dw


def flags_for(name, family, dw):
    f = []
    mem = "none"
    if family == "SMEM":
        mem = "smem"
    elif family in ("MUBUF", "GLOBAL", "SCRATCH"):
        mem = "vmem"
    elif family == "FLAT":
        mem = "flat"
    elif family == "DS":
        mem = "lds"
    if mem != "none":
        if "atomic" in name or (family == "DS" and not re.match(r"ds_(read|write|nop|swizzle|permute|bpermute|gws|append|consume)", name)):
            f += ["OF_ATOMIC", "OF_LOAD", "OF_STORE"]
        elif re.search(r"(load|read)", name):
            f.append("OF_LOAD")
        elif re.search(r"(store|write)", name):
            f.append("OF_STORE")
    if (family == "SOPC" and name not in ("s_setvskip", "s_set_gpr_idx_on")) or name.startswith("s_cmpk_"):
        f.append("OF_WRITES_SCC")
    if family in ("SOP1", "SOP2", "SOPK") and re.match(
            r"s_(add|sub|addk|min|max|and|or|xor|andn2|orn2|nand|nor|xnor|lshl|lshr|ashr|bfe|absdiff|not|bcnt|quadmask|wqm|abs|lshl\d_add)", name):
        f.append("OF_WRITES_SCC")
    if re.match(r"s_(addc|subb|cselect|cmov|cmovk|cbranch_scc)", name):
        f.append("OF_READS_SCC")
    if "saveexec" in name or "wrexec" in name:
        f += ["OF_READS_EXEC", "OF_WRITES_EXEC", "OF_WRITES_SCC"]
    if name.startswith("v_cmpx_"):
        f.append("OF_WRITES_EXEC")
    if family == "VOPC":
        f.append("OF_WRITES_VCC")
    if re.match(r"v_(add|sub|subrev)_co_u32|v_(addc|subb|subbrev)_co_u32|v_div_scale_|v_mad_(u64_u32|i64_i32)", name):
        f.append("OF_VOP3B")
        if family == "VOP2":
            f.append("OF_WRITES_VCC")
    if re.match(r"v_(addc|subb|subbrev)_co_u32|v_cndmask_b32", name):
        f += ["OF_CARRY_IN", "OF_READS_VCC"]
    if name.startswith("v_div_fmas"):
        f.append("OF_READS_VCC")
    if name.startswith("s_cbranch_vcc"):
        f.append("OF_READS_VCC")
    if name.startswith("s_cbranch_exec"):
        f.append("OF_READS_EXEC")
    if re.match(r"s_(branch|cbranch_|setpc|swappc|call)", name):
        f.append("OF_BRANCH")
    if name == "s_barrier":
        f.append("OF_BARRIER")
    if name == "s_waitcnt":
        f.append("OF_WAITCNT")
    if name == "s_nop":
        f.append("OF_NOP")
    if name == "s_endpgm":
        f.append("OF_ENDPGM")
    if name.startswith("v_mfma") or name.startswith("v_smfmac"):
        f += ["OF_MFMA", "OF_ACC_DST"]
    return mem, (" | ".join(sorted(set(f))) or "0")


def form_masks(row, form):
    """(accepted, printed) bit masks of one probed form: bits LLVM decodes when set
    alone, and the subset of those that change the printed text."""
    entry = row.get("forms", {}).get(form)
    if not entry:
        return 0, 0
    base = entry.get("text") or row["text"]
    accepted = printed = 0
    for bit, text in entry["bits"].items():
        accepted |= 1 << int(bit)
        if text != base:
            printed |= 1 << int(bit)
    return accepted, printed


IMM_KINDS = ["none", "hex", "dec", "dec_opt", "hwreg", "sendmsg", "waitcnt", "gpr_idx"]


def imm_kind(family, variants):
    """How LLVM prints the SOPK/SOPP immediate (SOPC: src1), read off the probe texts."""
    if family not in ("SOPK", "SOPP", "SOPC"):
        return "none"
    full = variants.get("imm") or variants.get("dst,imm") or variants.get("src0,src1") or ""
    zero = variants.get("") or variants.get("dst") or ""
    last = full.split(", ")[-1].split(" ")[-1] if " " in full else ""
    if "gpr_idx(" in zero:
        return "gpr_idx"
    if family == "SOPC":
        return "none"
    if "hwreg(" in full:
        return "hwreg"
    if "sendmsg(" in full:
        return "sendmsg"
    if "vmcnt(" in full:
        return "waitcnt"
    if last.startswith("0x"):
        return "hex"
    if re.fullmatch(r"\d+", last):
        return "dec" if zero != full.split(" ")[0] else "dec_opt"
    return "none"


def imm16_kind(row):
    """16-bit VALU source types, from how src0 immediates printed (probe.py "imm")."""
    probes = row.get("imm", {})
    def operand(text):
        parts = (text or "").split(", ")
        return parts[1].split(" ")[0] if len(parts) > 1 else None
    if operand(probes.get("inline")) == "0x3c00":
        return "int"
    if operand(probes.get("lit16")) == "1.0":
        return "float"
    return None


def source_masks(row):
    """Per-source printing facts: which neg bits print as sext(...) (integer
    sources: bits as in the instruction) and which sources are 16-bit integers
    (bit i = src i: inline float constants print as half bits)."""
    sext = 0
    for entry in row.get("forms", {}).values():
        for bit, text in entry["bits"].items():
            if "sext(" in text and int(bit) in (52, 54, 61, 62, 63):  # DPP and VOP3 neg bits
                sext |= 1 << int(bit)
    int16 = 0
    for s, name in enumerate(("inline", "inline1", "inline2")):
        text = row.get("imm", {}).get(name)
        if text and "0x3c00" in text:
            int16 |= 1 << s
        if text and "/*invalid immediate*/" in text.lower():
            int16 |= 1 << (8 + s)  # register-only source
        if s == 0 and text and re.search(r", [va]242\b", text):
            int16 |= 1 << 12  # src0 is a plain VGPR number (v_swap_b32)
    # Fields LLVM decodes with any value but does not print: don't-care.
    dw = field_dwords(row["family"], row["fields"], row["text"])
    slots = {"dst": 0, "src0": 1, "src1": 2, "src2": 3}
    for f in row["fields"]:
        if f in slots and dw[slots[f]] == 0 and row["family"] != "MUBUF":
            int16 |= 1 << (16 + slots[f])
    kind16 = imm16_kind(row)
    if kind16 == "float":
        int16 |= 1 << 28  # 16-bit float sources on this target (literals as half constants)
    elif kind16 == "int":
        int16 |= 1 << 29  # 16-bit integer src0 on this target
    mnemonic = row["text"].split(" ")[0]
    if mnemonic.startswith(("v_mfma", "v_smfmac")) and re.match(r"\S+ a", row["text"]):
        int16 |= 1 << 30  # matrix op whose accumulators are AGPRs even with the acc_cd bit clear
    if row["family"] == "DS" and "offset0:" in row["text"]:
        int16 |= 1 << 3  # two 8-bit offsets (read2/write2 forms)
    if re.match(r"\S+ (hwreg|sendmsg)\(", row["text"]):
        int16 |= 1 << 4  # the immediate prints before the register (s_setreg_b32)
    if row["family"] == "SMEM" and re.match(r"\S+ \d+,", row["text"]):
        int16 |= 1 << 5  # sdata holds a number, not a register (s_atc_probe)
    if row["family"] == "VOP3P" and "op_sel_hi:[1,1,1]" in row["text"]:
        int16 |= 1 << 31  # v_*_mix*: op_sel_hi defaults to 0, neg_hi bits are abs
    if mnemonic.endswith("_e32"):
        int16 |= 1 << 22  # LLVM names the 32-bit form with _e32
    if mnemonic.endswith("_e64"):
        int16 |= 1 << 23  # ... and the VOP3 form with _e64
    for entry in row.get("forms", {}).values():
        m = re.search(r"op_sel:\[([01,]+)\]", entry["bits"].get("11", ""))
        if m:
            int16 |= (m.group(1).count(",") + 1) << 25  # op_sel entries LLVM prints (VOP3)
    if "swizzle(" in row["text"]:
        int16 |= 1 << 24  # offset printed as swizzle(...)
    if row["family"] == "DS":
        if "off" not in row["fields"]:
            int16 |= 1 << 20  # no offset: the field must be zero
        elif "offset" not in row["text"]:
            int16 |= 1 << 21  # offset decoded but not shown
    return sext, int16


def main():
    rows = json.load(open(sys.argv[1]))
    forms = {}  # (name, target) -> dict
    ops = {}  # (name, family) -> record
    order = []
    vop3_rows = []
    for r in rows:
        name = r["text"].split(" ")[0]
        fam = r["family"]
        if fam == "VOP3" and name.endswith("_e64"):
            vop3_rows.append((name[:-4], r))
            continue
        if fam == "VOP3" and any((name, f) in ops for f in ("VOP1", "VOP2", "VOPC")):
            vop3_rows.append((name, r))  # v_nop: LLVM prints the VOP3 form without _e64
            continue
        if name.endswith("_e32"):
            name = name[:-4]
        if SKIP.match(name):
            continue
        key = (name, fam)
        if key not in ops:
            ops[key] = {"opcode": {}, "vop3": {}, "dw": [0, 0, 0, 0]}
            order.append(key)
        rec = ops[key]
        if r["target"] in rec["opcode"]:
            continue  # an alias LLVM also decodes (e.g. buffer_wbinvl1 0x71): keep the first
        rec["opcode"][r["target"]] = r["opcode"]
        rec["imm"] = imm_kind(fam, r["variants"])
        rec["imm16"] = rec.get("imm16") or imm16_kind(r)
        f = forms.setdefault((name, r["target"]), {})
        f["native"] = form_masks(r, "native")
        f["operands"] = tuple(a | b for a, b in zip(f.get("operands", (0, 0)), source_masks(r)))
        for form in ("dpp", "sdwa"):
            if r.get("forms", {}).get(form, {}).get("ok"):
                f[form] = form_masks(r, form)
        dw = field_dwords(fam, r["fields"], r["text"])
        glc_text = r.get("forms", {}).get("native", {}).get("bits", {}).get("16", "")
        if fam in ("FLAT", "SCRATCH", "GLOBAL") and dw[0] == 0 and glc_text:
            # A returning atomic (glc set) writes vdst: take its width from that text.
            dw[0] = field_dwords(fam, r["fields"], glc_text)[0]
        operands = r["text"].split(" ", 1)[1].split(", ") if " " in r["text"] else []
        if fam in ("VOP1", "VOP2", "VOP3", "VOP3P") and operands and operands[0].startswith("a"):
            rec["acc_dst"] = True
        if fam in ("VOP1", "VOP2", "VOP3", "VOP3P") and len(operands) > 1 and operands[1].startswith("a"):
            rec["acc_src"] = True
        if fam == "VOP2" and "0xbf800000" in r["text"]:  # probe.py's s_nop padding read as K
            rec["literal_k"] = "mid" if r["text"].split(", ")[2] == "0xbf800000" else "last"
        if fam in ("VOP1", "VOP2", "VOP3") and re.match(r"\S+ s", r["text"]):
            rec["scalar_dst"] = True
        rec["dw"] = [max(a, b) for a, b in zip(rec["dw"], dw)]
    for base, r in vop3_rows:
        if SKIP.match(base):
            continue
        for fam in ("VOP1", "VOP2", "VOPC"):
            if (base, fam) in ops:
                ops[(base, fam)]["vop3"][r["target"]] = r["opcode"]
                dw = field_dwords("VOP3", r["fields"], r["text"])
                ops[(base, fam)]["dw"] = [max(a, b) for a, b in zip(ops[(base, fam)]["dw"], dw)]
                ops[(base, fam)]["imm16"] = ops[(base, fam)].get("imm16") or imm16_kind(r)
                f = forms.setdefault((base, r["target"]), {})
                f["vop3"] = form_masks(r, "native")
                f["operands"] = tuple(a | b for a, b in zip(f.get("operands", (0, 0)), source_masks(r)))
                break
        else:
            # Only the VOP3 form exists on this target: keep it as a VOP3 row
            # under its plain name (LLVM still prints the _e64 suffix).
            key = (base, "VOP3E64")
            if key not in ops:
                ops[key] = {"opcode": {}, "vop3": {}, "dw": [0, 0, 0, 0]}
                order.append(key)
            ops[key]["opcode"][r["target"]] = r["opcode"]
            f = forms.setdefault((base, r["target"]), {})
            f["native"] = form_masks(r, "native")
            f["operands"] = tuple(a | b for a, b in zip(f.get("operands", (0, 0)), source_masks(r)))
            ops[key]["imm16"] = ops[key].get("imm16") or imm16_kind(r)
            dw = field_dwords("VOP3", r["fields"], r["text"])
            ops[key]["dw"] = [max(a, b) for a, b in zip(ops[key]["dw"], dw)]
    fam_order = ["SOP1", "SOP2", "SOPK", "SOPC", "SOPP", "SMEM", "VOP1", "VOP2", "VOPC", "VOP3", "VOP3E64",
                 "VOP3P", "DS", "FLAT", "SCRATCH", "GLOBAL", "MUBUF"]
    order.sort(key=lambda k: (fam_order.index(k[1]), min(ops[k]["opcode"].values()), k[0]))
    names = set()
    print("// Generated by emu/decode/gen/gen_table.py from llvm-objdump-15 (gfx900..gfx940) and -19 (gfx942) probes. Do not edit.")
    print("// DPPGEMM_OP(name, Family, MemClass, opcode x6 targets, vop3 opcode x6, dwords x4, flags)")
    print("// Targets: " + ", ".join(TARGETS) + "; -1 = not on that target.")
    # The target columns' order, for op_table.cpp to compare with the Target enum.
    print("#ifdef DPPGEMM_OP_TABLE_TARGETS")
    print("DPPGEMM_OP_TABLE_TARGETS(" + ", ".join(TARGETS) + ")")
    print("#endif")
    for key in order:
        name, fam = key
        rec = ops[key]
        if name in names:
            sys.exit(f"duplicate mnemonic {name}")
        names.add(name)
        mem, flags = flags_for(name, fam, rec["dw"])
        if fam == "VOP3E64":
            fam = "VOP3"
            flags = flags if flags != "0" else ""
            flags = (flags + " | " if flags else "") + "OF_E64_ONLY"
        if rec.get("literal_k"):
            flags = (flags + " | " if flags != "0" else "") + "OF_LITERAL_K" + (" | OF_LITERAL_K_MID" if rec["literal_k"] == "mid" else "")
        if rec.get("imm16"):
            flags = (flags + " | " if flags != "0" else "") + ("OF_B16_FLOAT" if rec["imm16"] == "float" else "OF_B16_INT")
        if rec.get("acc_dst") and "OF_ACC_DST" not in flags:
            flags = (flags + " | " if flags != "0" else "") + "OF_ACC_DST"
        if rec.get("acc_src") and not name.startswith(("v_mfma", "v_smfmac")):
            flags = (flags + " | " if flags != "0" else "") + "OF_ACC_SRC"
        if rec.get("scalar_dst"):
            flags = (flags + " | " if flags != "0" else "") + "OF_SCALAR_DST"
        kind = IMM_KINDS.index(rec.get("imm", "none"))
        if kind:
            flags = (flags + " | " if flags != "0" else "") + f"({kind}u << OF_IMM_SHIFT)"
        opc = ", ".join(str(rec["opcode"].get(t, -1)) for t in TARGETS)
        v3 = ", ".join(str(rec["vop3"].get(t, -1)) for t in TARGETS)
        dw = ", ".join(str(d) for d in rec["dw"])
        print(f"DPPGEMM_OP({name}, {fam}, {mem}, {opc}, {v3}, {dw}, {flags})")
    with open(sys.argv[2], "w") as out:
        out.write("// Generated by emu/decode/gen/gen_table.py. Do not edit.\n")
        out.write("// DPPGEMM_FORMS(name, target, form, accepted_bits, printed_bits): the modifier\n")
        out.write("// bits LLVM decodes in each form (native, vop3, dpp, sdwa) and those it prints;\n")
        out.write("// form `operands`: accepted = neg bits printed as sext(); printed = bits 0..2: 16-bit\n")
        out.write("// integer sources, 8..10: register-only sources, 12: src0 a VGPR number, 16..19: don't-care\n")
        out.write("// operand fields, 20: DS without offset (must be zero), 21: DS offset ignored, 22: _e32\n")
        out.write("// suffix, 23: _e64 suffix, 24: offset printed as swizzle(), 25..27: VOP3 op_sel entries,\n")
        out.write("// 28: f16 sources, 29: i16 src0, 30: MFMA accumulators in AGPRs by default, 31: mixed-\n")
        out.write("// precision VOP3P (op_sel_hi defaults to 0, neg_hi bits are abs).\n")
        for name, fam in order:
            for t in TARGETS:
                for form, (acc, prn) in sorted(forms.get((name, t), {}).items()):
                    if fam == "VOP3E64" and form == "vop3":
                        continue
                    out.write(f"DPPGEMM_FORMS({name}, {TARGETS.index(t)}, {form}, {acc:#x}ull, {prn:#x}ull)\n")


main()
