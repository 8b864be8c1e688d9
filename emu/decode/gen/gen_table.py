#!/usr/bin/env python3
"""Turn probe.py's JSON into emu/decode/op_table.inc (one DPPGEMM_OP row per instruction).

Usage: python3 probe.py > probe.json && python3 gen_table.py probe.json ../op_forms.inc > ../op_table.inc

Row: DPPGEMM_OP(name, Family, MemClass,
                op_gfx803, op_gfx900, ..., op_gfx942 (one per target of targets.def),
                vop3_gfx803, ..., vop3_gfx942,
                dwords_dst, dwords_src0, dwords_src1, dwords_src2, ImmKind, flags,
                type_dst, type_src0, type_src1, type_src2, access_bytes, components, AtomicKind)
The probes give the encodings, operand widths and printing; op_semantics.txt
(hand-written, keyed by op name) gives what the disassembler cannot tell.
"""
import json, os, re, sys

import targets

TARGETS = [name for name, _ in targets.rows()]
# Targets that spell some ops by their GCN3 names (op_semantics.txt gfx8_name=).
GFX8_TARGETS = {name for name, features in targets.features().items() if "gfx9_insts" not in features}
# Register number each probed field carries, per family (see probe.py).
FIELD_BASE = {
    "SMEM": {"dst": 8, "src0": 16},
    "DS": {"dst": 32, "src0": 8, "src1": 16, "src2": 24},
    "FLAT": {"dst": 24, "src0": 8, "src1": 16},
    "MUBUF": {"dst": 16, "src0": 0, "src2": 8},
    "MIMG": {"dst": 8, "src0": 16, "src1": 32, "src2": 24},
}
DEFAULT_BASE = {"dst": 8, "src0": 16, "src1": 24, "src2": 32}
SLOT = {"dst": 0, "src0": 1, "src1": 2, "src2": 3}
# Probe families that are encodings of another family (probe.py).
FAMILY_OF = {"SCRATCH": "FLAT", "GLOBAL": "FLAT", "DS_GDS": "DS"}
# Not emulated (graphics-only or needing operand kinds of their own): LLVM
# prints them, our decoder prints `.long` for them.
SKIP = re.compile(r"^(v_interp_)")

REG = re.compile(r"\b([vsa])(?:\[(\d+):(\d+)\]|(\d+)(?!\w))")


def field_dwords(family, fields, text):
    base_of = FIELD_BASE.get(FAMILY_OF.get(family, family), DEFAULT_BASE)
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


def mem_class(family):
    return {"SMEM": "smem", "MUBUF": "vmem", "MIMG": "vmem", "GLOBAL": "vmem", "SCRATCH": "vmem", "FLAT": "flat", "DS": "lds",
            "DS_GDS": "lds"}.get(family, "none")


OPERAND_TYPES = {"none", "b16", "b32", "b64", "b128", "f16", "f32", "f64", "pk_b16", "pk_f16", "pk_f32", "mask", "mix"}
ATOMIC_KINDS = {"swap", "cmpswap", "add", "sub", "rsub", "smin", "umin", "smax", "umax", "and", "or", "xor", "inc", "dec",
                "add_f32", "add_f64", "min_f64", "max_f64", "pk_add_f16"}
CPP_KEYWORDS = {"and", "or", "xor"}  # AtomicKind::and_ ...


def read_semantics(path, header):
    """op_semantics.txt -> {name: {"types": [...], "bytes": n, "components": n, "atomic": kind, "flags": {OF_...}}}.
    Named facts are OpFlag enumerators of op_table.hpp (the one definition of each)."""
    known_flags = set(re.findall(r"\b(OF_[A-Z0-9_]+) = ", open(header).read()))
    facts = {}
    for number, line in enumerate(open(path), 1):
        line = line.split("#", 1)[0].split()
        if not line:
            continue
        name, tokens = line[0], line[1:]
        where = f"{path}:{number}: {name}"
        if name in facts:
            sys.exit(f"{where}: second row for the op")
        f = facts[name] = {"types": None, "bytes": 0, "components": 0, "atomic": "none", "flags": set(), "gfx8_name": None}
        for token in tokens:
            key, _, value = token.partition("=")
            if key == "types":
                f["types"] = value.split(",")
                if len(f["types"]) != 4 or not set(f["types"]) <= OPERAND_TYPES:
                    sys.exit(f"{where}: types= takes dst,src0,src1,src2 from {sorted(OPERAND_TYPES)}, not {value}")
            elif key == "gfx8_name" and value:
                f["gfx8_name"] = value
            elif key in ("bytes", "components"):
                f[key] = int(value)
            elif key == "atomic" and value:
                if value not in ATOMIC_KINDS:
                    sys.exit(f"{where}: unknown atomic kind {value}")
                f["atomic"] = value + "_" if value in CPP_KEYWORDS else value
                f["flags"].add("OF_ATOMIC")
            elif not value and "OF_" + key.upper() in known_flags:
                f["flags"].add("OF_" + key.upper())
            else:
                sys.exit(f"{where}: unknown fact {token} (named facts are the OpFlags of op_table.hpp)")
    return facts


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


def operand_printing(row):
    """Per-source printing facts of one probed row (DPPGEMM_PRINTING, named as in
    encoding_rules.hpp): neg bits printing as sext(...) (integer sources),
    16-bit integer sources (inline floats print as half bits), register-only
    sources, don't-care fields, op_sel entries, and PF_ flags."""
    p = {"sext": 0, "int16": 0, "register_only": 0, "ignored": 0, "op_sel": 0, "flags": set()}
    for entry in row.get("forms", {}).values():
        for bit, text in entry["bits"].items():
            if "sext(" in text and int(bit) in (52, 54, 61, 62, 63):  # DPP and VOP3 neg bits
                p["sext"] |= 1 << int(bit)
    for s, name in enumerate(("inline", "inline1", "inline2")):
        text = row.get("imm", {}).get(name)
        if text and "0x3c00" in text:
            p["int16"] |= 1 << s
        if text and "/*invalid immediate*/" in text.lower():
            p["register_only"] |= 1 << s
        if s == 0 and text and re.search(r", [va]242\b", text):
            p["flags"].add("PF_SRC0_VGPR_NUMBER")  # v_swap_b32
    # Fields LLVM decodes with any value but does not print: don't-care.
    dw = field_dwords(row["family"], row["fields"], row["text"])
    slots = {"dst": 0, "src0": 1, "src1": 2, "src2": 3}
    for f in row["fields"]:
        if f in slots and dw[slots[f]] == 0 and row["family"] != "MUBUF":
            p["ignored"] |= 1 << slots[f]
    kind16 = imm16_kind(row)
    if kind16 == "float":
        p["flags"].add("PF_F16_SOURCES")
    elif kind16 == "int":
        p["flags"].add("PF_I16_SRC0")
    mnemonic = row["text"].split(" ")[0]
    if mnemonic.startswith(("v_mfma", "v_smfmac")) and re.match(r"\S+ a", row["text"]):
        p["flags"].add("PF_MFMA_AGPR_DEFAULT")
    if mnemonic.startswith("v_mfma") and "neg:[" in row.get("forms", {}).get("native", {}).get("bits", {}).get("61", ""):
        p["flags"].add("PF_MFMA_NEG")  # gfx940 f64: the BLGP field holds neg bits
    ds = row["family"] in ("DS", "DS_GDS")
    if ds and "offset0:" in row["text"]:
        p["flags"].add("PF_DS_TWO_OFFSETS")
    if re.match(r"\S+ (hwreg|sendmsg)\(", row["text"]):
        p["flags"].add("PF_IMMEDIATE_FIRST")
    if row["family"] == "SMEM" and re.match(r"\S+ \d+,", row["text"]):
        p["flags"].add("PF_SDATA_NUMBER")
    if row["family"] == "VOP3P" and "op_sel_hi:[1,1,1]" in row["text"]:
        p["flags"].add("PF_MIXED_PRECISION")
    sdwa = row.get("forms", {}).get("sdwa", {})
    if sdwa.get("ok") and not sdwa["text"].split(" ")[0].endswith("_sdwa"):
        p["flags"].add("PF_SDWA_NO_SUFFIX")
    if mnemonic.endswith("_e32"):
        p["flags"].add("PF_E32_SUFFIX")
    if mnemonic.endswith("_e64"):
        p["flags"].add("PF_E64_SUFFIX")
    for entry in row.get("forms", {}).values():
        m = re.search(r"op_sel:\[([01,]+)\]", entry["bits"].get("11", ""))
        if m:
            p["op_sel"] |= m.group(1).count(",") + 1
    if "swizzle(" in row["text"]:
        p["flags"].add("PF_SWIZZLE_OFFSET")
    if row["family"] == "DS_GDS":
        p["flags"].add("PF_GDS_ONLY")
    if row["family"] == "MIMG" and " r128" in row.get("forms", {}).get("native", {}).get("bits", {}).get("15", ""):
        p["flags"].add("PF_MIMG_R128")  # GCN3 names bit 15 r128, GFX9 a16
    if ds and re.search(r"\ba8\b", row.get("forms", {}).get("native", {}).get("bits", {}).get("25", "")):
        p["flags"].add("PF_DS_ADDR_IS_DATA")  # the acc bit makes the address field's register an AGPR
    if ds:
        if "off" not in row["fields"]:
            p["flags"].add("PF_DS_NO_OFFSET")
        elif "offset" not in row["text"]:
            p["flags"].add("PF_DS_OFFSET_HIDDEN")
    return p


def mimg_width_nibbles(row):
    """The vdata widths probe.py's mimg_width forms printed, one nibble per
    (components - 1) | tfe << 2 | d16 << 3; 0 where LLVM printed .long."""
    packed = 0
    for index, text in row.get("mimg_width", {}).items():
        if text is None:
            continue
        kind, lo, hi, single = REG.findall(text.split(" ", 1)[1])[0]
        width = int(hi or single) - int(lo or single) + 1
        packed |= width << (4 * int(index))
    return packed


def merge_printing(old, new):
    """The native and the VOP3 row of one op on one target print under one entry."""
    if old is None:
        return new
    merged = {k: old[k] | new[k] for k in old}
    return merged


def op_row(name, fam, rec, facts):
    """One DPPGEMM_OP row: what the probes say, joined with op_semantics.txt's facts."""
    facts = facts or {"types": None, "bytes": 0, "components": 0, "atomic": "none", "flags": set()}
    flags = set(facts["flags"])
    if rec.get("literal_k"):
        flags.add("OF_LITERAL_K")
        if rec["literal_k"] == "mid":
            flags.add("OF_LITERAL_K_MID")
    if rec.get("acc_dst"):
        flags.add("OF_ACC_DST")
    if rec.get("acc_src") and "OF_MFMA" not in flags:
        flags.add("OF_ACC_SRC")
    if rec.get("scalar_dst"):
        flags.add("OF_SCALAR_DST")
    types = ", ".join(facts["types"] or ["undeclared"] * 4)
    opc = ", ".join(str(rec["opcode"].get(t, -1)) for t in TARGETS)
    v3 = ", ".join(str(rec["vop3"].get(t, -1)) for t in TARGETS)
    dw = ", ".join(str(d) for d in rec["dw"])
    family = "VOP3" if fam == "VOP3E64" else fam
    return (f"DPPGEMM_OP({name}, {family}, {mem_class(fam)}, {opc}, {v3}, {dw}, {rec.get('imm', 'none')}, "
            f"{' | '.join(sorted(flags)) or 0}, {types}, {facts['bytes']}, {facts['components']}, {facts['atomic']})")


def widen(rec, target, dw):
    """Operand widths of an op: the widest any target prints, kept apart for
    the GCN3 targets, whose widths differ where their encodings do (d16
    format buffer ops take one VGPR per component: LLVM's FeatureUnpackedD16VMem)."""
    key = "dw8" if target in GFX8_TARGETS else "dw"
    rec[key] = [max(a, b) for a, b in zip(rec.get(key, [0, 0, 0, 0]), dw)]


def settle_widths(name, rec, facts):
    """One width per field: the GFX9 targets' (the decoder derives the unpacked
    d16 widths from components=), or the GCN3 one for ops only GCN3 has."""
    dw8 = rec.pop("dw8", None)
    if dw8 is None:
        return
    if not any(t in rec["opcode"] for t in TARGETS if t not in GFX8_TARGETS):
        rec["dw"] = dw8
        return
    unpacked_d16 = facts and "OF_D16" in facts["flags"] and facts["components"] > 0
    if dw8 != rec["dw"] and not (unpacked_d16 and dw8[0] == facts["components"] and dw8[1:] == rec["dw"][1:]):
        sys.exit(f"{name}: operand widths {dw8} on {sorted(GFX8_TARGETS)} but {rec['dw']} on GFX9 targets")


def main():
    rows = json.load(open(sys.argv[1]))
    here = os.path.dirname(os.path.abspath(__file__))
    semantics = read_semantics(os.path.join(here, "op_semantics.txt"), os.path.join(here, "..", "op_table.hpp"))
    # GCN3 spelling -> the op's row name (its GFX9 spelling), and back per (name, target).
    gfx9_name = {f["gfx8_name"]: name for name, f in semantics.items() if f["gfx8_name"]}
    spellings = {}
    forms = {}  # (name, target) -> dict
    mimg_widths = {}  # (name, target) -> packed vdata widths (mimg_width_nibbles)
    printing = {}  # (name, target) -> operand_printing()
    ops = {}  # (name, family) -> record
    order = []
    vop3_rows = []
    for r in rows:
        name = r["text"].split(" ")[0]
        fam = r["family"]
        if r["target"] in GFX8_TARGETS:
            suffix = next((s for s in ("_e32", "_e64") if name.endswith(s)), "")
            base = name[:len(name) - len(suffix)]
            if base in gfx9_name:
                spellings[(gfx9_name[base], r["target"])] = base
                name = gfx9_name[base] + suffix
        if fam == "VOP3" and name.endswith("_e64"):
            vop3_rows.append((name[:-4], r))
            continue
        if fam == "VOP3" and any((name, f) in ops for f in ("VOP1", "VOP2", "VOPC")):
            vop3_rows.append((name, r))  # v_nop: LLVM prints the VOP3 form without _e64
            continue
        if name.endswith("_e32"):
            name = name[:-4]
        if fam == "DS_GDS":
            if r["target"] in ops.get((name, "DS"), {}).get("opcode", {}):
                continue  # decodes without gds as well: the DS row has it
            fam = "DS"
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
        f = forms.setdefault((name, r["target"]), {})
        f["native"] = form_masks(r, "native")
        printing[(name, r["target"])] = merge_printing(printing.get((name, r["target"])), operand_printing(r))
        for form in ("dpp", "sdwa"):
            if r.get("forms", {}).get(form, {}).get("ok"):
                f[form] = form_masks(r, form)
        if fam == "MIMG":
            mimg_widths[(name, r["target"])] = mimg_width_nibbles(r)
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
        widen(rec, r["target"], dw)
    for base, r in vop3_rows:
        if SKIP.match(base):
            continue
        for fam in ("VOP1", "VOP2", "VOPC"):
            if (base, fam) in ops:
                ops[(base, fam)]["vop3"][r["target"]] = r["opcode"]
                dw = field_dwords("VOP3", r["fields"], r["text"])
                widen(ops[(base, fam)], r["target"], dw)
                f = forms.setdefault((base, r["target"]), {})
                f["vop3"] = form_masks(r, "native")
                printing[(base, r["target"])] = merge_printing(printing.get((base, r["target"])), operand_printing(r))
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
            printing[(base, r["target"])] = merge_printing(printing.get((base, r["target"])), operand_printing(r))
            dw = field_dwords("VOP3", r["fields"], r["text"])
            widen(ops[key], r["target"], dw)
    fam_order = ["SOP1", "SOP2", "SOPK", "SOPC", "SOPP", "SMEM", "VOP1", "VOP2", "VOPC", "VOP3", "VOP3E64",
                 "VOP3P", "DS", "FLAT", "SCRATCH", "GLOBAL", "MUBUF", "MIMG"]
    order.sort(key=lambda k: (fam_order.index(k[1]), min(ops[k]["opcode"].values()), k[0]))
    unknown = set(semantics) - {name for name, _ in order}
    if unknown:
        sys.exit(f"op_semantics.txt names ops LLVM does not decode: {sorted(unknown)}")
    for key in order:
        settle_widths(key[0], ops[key], semantics.get(key[0]))
    # A GCN3 spelling names the GFX9 op at the same opcode, or the rename is wrong.
    for (name, target), spelled in sorted(spellings.items()):
        rec = next(ops[k] for k in order if k[0] == name)
        gfx9 = [t for t in TARGETS if t not in GFX8_TARGETS and t in rec["opcode"]]
        for column in ("opcode", "vop3"):
            if gfx9 and rec[column].get(target) != rec[column].get(gfx9[0]):
                sys.exit(f"{spelled} on {target} is {column} {rec[column].get(target)}, "
                         f"{name} on {gfx9[0]} is {rec[column].get(gfx9[0])}: gfx8_name= joins different ops")
    names = set()
    print("// Generated by emu/decode/gen/gen_table.py from llvm-objdump-15 (gfx803..gfx90a) and -19 (gfx940, gfx942) probes")
    print("// and op_semantics.txt. Do not edit.")
    print(f"// DPPGEMM_OP(name, Family, MemClass, opcode x{len(TARGETS)} targets, vop3 opcode x{len(TARGETS)}, dwords x4, "
          "ImmKind, flags,")
    print("//            OperandType dst, src0, src1, src2, access bytes, format components, AtomicKind)")
    print("// Targets: " + ", ".join(TARGETS) + "; -1 = not on that target.")
    # The target columns' order, for op_table.cpp to compare with the Target enum.
    print("#ifdef DPPGEMM_OP_TABLE_TARGETS")
    print("DPPGEMM_OP_TABLE_TARGETS(" + ", ".join(TARGETS) + ")")
    print("#endif")
    for key in order:
        if key[0] in names:
            sys.exit(f"duplicate mnemonic {key[0]}")
        names.add(key[0])
        print(op_row(*key, ops[key], semantics.get(key[0])))
    with open(sys.argv[2], "w") as out:
        out.write("// Generated by emu/decode/gen/gen_table.py. Do not edit.\n")
        out.write("// DPPGEMM_FORMS(name, target, form, accepted_bits, printed_bits): the modifier\n")
        out.write("// bits LLVM decodes in each form (native, vop3, dpp, sdwa) and those it prints.\n")
        out.write("// DPPGEMM_PRINTING(name, target, sext_neg_bits, int16_sources, register_only_sources,\n")
        out.write("// ignored_fields, op_sel_entries, PF_ flags): how LLVM prints the operands (see\n")
        out.write("// OperandPrinting in encoding_rules.hpp; masks: bit i = source i or field i).\n")
        out.write("// DPPGEMM_MIMG_WIDTHS(name, target, widths): the vdata dwords LLVM prints for an image op,\n")
        out.write("// nibble (components - 1) | tfe << 2 | d16 << 3 (0: LLVM refuses the encoding).\n")
        out.write("// DPPGEMM_SPELLING(name, target, spelling): the op's mnemonic on that target where it\n")
        out.write("// differs from its name (GCN3 names, op_semantics.txt gfx8_name=).\n")
        # A reader defines the row kinds it reads; the others expand to nothing.
        # All four are undefined at the end, ready for the next reader.
        row_kinds = ("DPPGEMM_FORMS", "DPPGEMM_PRINTING", "DPPGEMM_MIMG_WIDTHS", "DPPGEMM_SPELLING")
        for kind in row_kinds:
            out.write(f"#ifndef {kind}\n#define {kind}(...)\n#endif\n")
        for name, fam in order:
            for t in TARGETS:
                for form, (acc, prn) in sorted(forms.get((name, t), {}).items()):
                    if fam == "VOP3E64" and form == "vop3":
                        continue
                    out.write(f"DPPGEMM_FORMS({name}, {TARGETS.index(t)}, {form}, {acc:#x}ull, {prn:#x}ull)\n")
                p = printing.get((name, t))
                if p:
                    flags = " | ".join(sorted(p["flags"])) or "0"
                    out.write(f"DPPGEMM_PRINTING({name}, {TARGETS.index(t)}, {p['sext']:#x}ull, {p['int16']:#x}, "
                              f"{p['register_only']:#x}, {p['ignored']:#x}, {p['op_sel']}, {flags})\n")
                if (name, t) in mimg_widths:
                    out.write(f"DPPGEMM_MIMG_WIDTHS({name}, {TARGETS.index(t)}, {mimg_widths[(name, t)]:#x}ull)\n")
                if (name, t) in spellings:
                    out.write(f"DPPGEMM_SPELLING({name}, {TARGETS.index(t)}, {spellings[(name, t)]})\n")
        for kind in row_kinds:
            out.write(f"#undef {kind}\n")


main()
