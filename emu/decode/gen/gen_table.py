#!/usr/bin/env python3
"""Turn probe.py's JSON into emu/decode/op_table.inc (one DPPGEMM_OP row per instruction).

Usage: python3 probe.py > probe.json && python3 gen_table.py probe.json > ../op_table.inc

Row: DPPGEMM_OP(name, Family, MemClass,
                op_gfx900, op_gfx906, op_gfx908, op_gfx90a, op_gfx940, op_gfx942,
                vop3_gfx900, ..., vop3_gfx942,
                dwords_dst, dwords_src0, dwords_src1, dwords_src2, flags)
"""
import json, re, sys

TARGETS = ["gfx900", "gfx906", "gfx908", "gfx90a", "gfx940", "gfx942"]
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
SKIP = re.compile(r"^(v_interp_|s_cbranch_[ig]_fork|s_cbranch_join|s_setreg_imm32)")

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
        if f == "imm":
            if family == "SMEM":
                dw[3] = 1
            continue
        base = base_of.get(f)
        for lo, n in regs:
            if lo == base:
                dw[SLOT[f]] = n
                break
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
    if family == "SOPC" or name.startswith("s_cmpk_") or name.startswith("s_bitcmp"):
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
    if name.startswith("v_mfma"):
        f += ["OF_MFMA", "OF_ACC_DST"]
    if name == "v_accvgpr_write_b32":
        f.append("OF_ACC_DST")
    if name == "v_accvgpr_read_b32":
        f.append("OF_ACC_SRC")
    return mem, (" | ".join(sorted(set(f))) or "0")


def main():
    rows = json.load(open(sys.argv[1]))
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
        dw = field_dwords(fam, r["fields"], r["text"])
        rec["dw"] = [max(a, b) for a, b in zip(rec["dw"], dw)]
    for base, r in vop3_rows:
        if SKIP.match(base):
            continue
        for fam in ("VOP1", "VOP2", "VOPC"):
            if (base, fam) in ops:
                ops[(base, fam)]["vop3"][r["target"]] = r["opcode"]
                break
        else:
            # Only the VOP3 form exists on this target: keep it as a VOP3 row
            # under its plain name (LLVM still prints the _e64 suffix).
            key = (base, "VOP3E64")
            if key not in ops:
                ops[key] = {"opcode": {}, "vop3": {}, "dw": [0, 0, 0, 0]}
                order.append(key)
            ops[key]["opcode"][r["target"]] = r["opcode"]
            dw = field_dwords("VOP3", r["fields"], r["text"])
            ops[key]["dw"] = [max(a, b) for a, b in zip(ops[key]["dw"], dw)]
    fam_order = ["SOP1", "SOP2", "SOPK", "SOPC", "SOPP", "SMEM", "VOP1", "VOP2", "VOPC", "VOP3", "VOP3E64",
                 "VOP3P", "DS", "FLAT", "SCRATCH", "GLOBAL", "MUBUF"]
    order.sort(key=lambda k: (fam_order.index(k[1]), min(ops[k]["opcode"].values()), k[0]))
    names = set()
    print("// Generated by emu/decode/gen/gen_table.py from llvm-objdump-15/16 probes. Do not edit.")
    print("// DPPGEMM_OP(name, Family, MemClass, opcode x6 targets, vop3 opcode x6, dwords x4, flags)")
    print("// Targets: " + ", ".join(TARGETS) + "; -1 = not on that target.")
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
        opc = ", ".join(str(rec["opcode"].get(t, -1)) for t in TARGETS)
        v3 = ", ".join(str(rec["vop3"].get(t, -1)) for t in TARGETS)
        dw = ", ".join(str(d) for d in rec["dw"])
        print(f"DPPGEMM_OP({name}, {fam}, {mem}, {opc}, {v3}, {dw}, {flags})")


main()
