#!/usr/bin/env python3
"""Ask llvm-objdump which instruction every opcode number of every encoding is.

For each target and encoding family, template words are built per opcode
number with distinct, well-aligned register numbers in the operand fields
(8 for the destination, 16 for src0, 24 for src1, 32 for src2), so the printed
text tells the mnemonic, which fields the instruction uses and how many dwords
each one spans.  LLVM rejects an encoding whose unused fields are not zero, so
every subset of fields is tried, largest first; the first that decodes wins.
Output: JSON rows {target, family, opcode, fields, text} read by gen_table.py.

gfx942 is probed with LLVM 19 (LLVM 16 as shipped by Debian does not know
gfx942; LLVM 17 added it): our gfx942 decodes like llvm-objdump-19.
"""
import itertools, json, os, re, subprocess, sys, tempfile

import targets

V = 256  # VGPR offset in a 9-bit source field
# family: (opcode count, base words, opcode (dword, shift), fields (name, dword, shift, used value))
FAMILIES = {
    "SOP2": (0x60, [0x80000000], (0, 23), [("dst", 0, 16, 8), ("src0", 0, 0, 16), ("src1", 0, 8, 24)]),
    "SOPK": (0x1d, [0xB0000000], (0, 23), [("dst", 0, 16, 8), ("imm", 0, 0, 0x1234)]),
    "SOP1": (0x100, [0xBE800000], (0, 8), [("dst", 0, 16, 8), ("src0", 0, 0, 16)]),
    "SOPC": (0x80, [0xBF000000], (0, 16), [("src0", 0, 0, 16), ("src1", 0, 8, 24)]),
    "SOPP": (0x80, [0xBF800000], (0, 16), [("imm", 0, 0, 3)]),
    "SMEM": (0x100, [0xC0000000, 0], (0, 18), [("dst", 0, 6, 8), ("src0", 0, 0, 8), ("imm", 0, 17, 1), ("off", 1, 0, 0x10)]),
    "VOP2": (0x3e, [0x00000000], (0, 25), [("dst", 0, 17, 8), ("src0", 0, 0, V + 16), ("src1", 0, 9, 24)]),
    "VOP1": (0x100, [0x7E000000], (0, 9), [("dst", 0, 17, 8), ("src0", 0, 0, V + 16)]),
    "VOPC": (0x100, [0x7C000000], (0, 17), [("src0", 0, 0, V + 16), ("src1", 0, 9, 24)]),
    "VOP3": (0x380, [0xD0000000, 0], (0, 16), [("dst", 0, 0, 8), ("src0", 1, 0, V + 16), ("src1", 1, 9, V + 24), ("src2", 1, 18, V + 32)]),
    "VOP3P": (0x80, [0xD3804000, 0x18000000], (0, 16), [("dst", 0, 0, 8), ("src0", 1, 0, V + 16), ("src1", 1, 9, V + 24), ("src2", 1, 18, V + 32)]),
    "DS": (0x100, [0xD8000000, 0], (0, 17), [("dst", 1, 24, 32), ("src0", 1, 0, 8), ("src1", 1, 8, 16), ("src2", 1, 16, 24),
                                             ("off", 0, 0, 0x0102)]),
    # The GDS-only instructions (ds_gws_*, ds_ordered_count): LLVM decodes
    # them only with the gds bit set.
    "DS_GDS": (0x100, [0xD8010000, 0], (0, 17), [("dst", 1, 24, 32), ("src0", 1, 0, 8), ("src1", 1, 8, 16),
                                                 ("src2", 1, 16, 24), ("off", 0, 0, 0x0102)]),
    "FLAT": (0x80, [0xDC000000, 0], (0, 18), [("dst", 1, 24, 24), ("src0", 1, 0, 8), ("src1", 1, 8, 16)]),
    "SCRATCH": (0x80, [0xDC004000, 0x7F0000], (0, 18), [("dst", 1, 24, 24), ("src0", 1, 0, 8), ("src1", 1, 8, 16)]),
    "GLOBAL": (0x80, [0xDC008000, 0x7F0000], (0, 18), [("dst", 1, 24, 24), ("src0", 1, 0, 8), ("src1", 1, 8, 16)]),
    "MUBUF": (0x80, [0xE0000000, 0x80000000], (0, 18), [("src0", 0, 12, 1), ("dst", 1, 8, 16), ("src2", 1, 16, 2)]),
    # dmask 0x1; vdata v8, vaddr v16, srsrc s[24:31] (field 6), ssamp s[32:35] (field 8).
    "MIMG": (0x80, [0xF0000100, 0], (0, 18), [("dst", 1, 8, 8), ("src0", 1, 0, 16), ("src1", 1, 21, 8),
                                               ("src2", 1, 16, 6)]),
}
# Modifier bits (bit i of the 64-bit instruction, word1 = bits 32..63) whose
# acceptance LLVM decides per instruction: each is flipped alone on top of a
# valid encoding; the ones LLVM still decodes are the instruction's free bits.
VOP3_MOD_BITS = list(range(8, 16)) + list(range(59, 64))
MOD_BITS = {
    "VOP3": VOP3_MOD_BITS, "VOP3P": VOP3_MOD_BITS,
    "DS": [16, 25], "DS_GDS": [16, 25], "FLAT": [13, 16, 17, 25, 55], "SCRATCH": [13, 16, 17, 25, 55], "GLOBAL": [13, 16, 17, 25, 55],
    "MUBUF": [13, 14, 15, 16, 17, 25, 55], "SMEM": [14, 15, 16],
    # unorm, glc, da, r128/a16, tfe (gfx90a: acc), lwe, slc, d16, and the
    # unused bits LLVM ignores or refuses.
    "MIMG": list(range(0, 8)) + list(range(12, 18)) + [25] + list(range(58, 64)),
}
# MIMG vdata is as wide as the components dmask enables, halved by packed
# d16, plus one for tfe, where LLVM has an instruction of that width (gather4:
# four components always): each (components, tfe, d16) is probed for the
# width LLVM prints.
MIMG_DMASKS = (0x1, 0x3, 0x7, 0xF)
MIMG_TFE_BIT, MIMG_D16_BIT = 16, 63
# The DPP and SDWA forms of VOP1/VOP2/VOPC: src0 = 0xFA / 0xF9 and a second dword.
DPP_WORD = 0xFF000000 | 0xE4 << 8 | 16
SDWA_WORD = 6 << 24 | 6 << 16 | 6 << 8 | 16
DPP_BITS = [32 + b for b in range(18, 24)]
SDWA_BITS = [32 + b for b in list(range(11, 16)) + list(range(19, 24)) + list(range(27, 32))]
PAD = [0xBF800000, 0xBF800000]  # two s_nop 0: resynchronise after a garbage decode


def variants(fields):
    for n in range(len(fields), -1, -1):
        for subset in itertools.combinations(fields, n):
            yield subset


def encode(fam, op, subset):
    count, base, (od, osh), fields = FAMILIES[fam]
    w = list(base)
    w[od] |= op << osh
    for _, d, sh, val in subset:
        w[d] |= val << sh
    return w


def flip(words, bit):
    w = list(words) + [0] * (bit // 32 + 1 - len(words))
    w[bit // 32] ^= 1 << (bit % 32)
    return w


def disassemble(llvm, mcpu, probes_words):
    """probes_words: list of word lists -> list of text (None when LLVM prints .long)."""
    words, starts = [], []
    for w in probes_words:
        starts.append(len(words) * 4)
        words += w + PAD
    with tempfile.TemporaryDirectory() as tmp:
        src, obj = os.path.join(tmp, "p.s"), os.path.join(tmp, "p.o")
        with open(src, "w") as f:
            f.writelines(".long 0x%08x\n" % w for w in words)
        subprocess.run([f"llvm-mc-{llvm}", "-arch=amdgcn", f"-mcpu={mcpu}", "-filetype=obj", src, "-o", obj], check=True)
        # Into a file, not a pipe: a pipe's listing (tens of MB) arrives in
        # 64 KiB reads, which cost more than the disassembly (check_tables.py).
        listing = os.path.join(tmp, "p.txt")
        with open(listing, "w") as f:
            subprocess.run([f"llvm-objdump-{llvm}", "-d", f"--mcpu={mcpu}", obj], check=True, stdout=f)
        with open(listing) as f:
            out = f.read()
    text_at = {}
    for line in out.splitlines():
        m = re.match(r"\s+(.*?)\s*// ([0-9A-F]{12}):", line)
        if m:
            text_at[int(m.group(2), 16)] = m.group(1)
    texts = []
    for addr in starts:
        text = text_at.get(addr)
        if text is None:
            sys.exit(f"lost sync at {addr:#x}")
        texts.append(None if text.startswith(".long") else text)
    return texts


def probe(llvm, target, mcpu):
    probes = []
    for fam, (count, base, (od, osh), fields) in FAMILIES.items():
        for op in range(count):
            for subset in variants(fields):
                probes.append((fam, op, subset))
    texts = disassemble(llvm, mcpu, [encode(*p) for p in probes])
    rows = {}
    for (fam, op, subset), text in zip(probes, texts):
        if text is None:
            continue
        fields = [f[0] for f in subset]
        row = rows.setdefault((fam, op), {"target": target, "family": fam, "opcode": op,
                                          "fields": fields, "text": text, "variants": {},
                                          "words": encode(fam, op, subset)})
        row["variants"][",".join(fields)] = text
    # Second round: which modifier bits and which DPP/SDWA forms each one accepts.
    forms = []
    for row in rows.values():
        fam, w = row["family"], row["words"]
        for bit in MOD_BITS.get(fam, []):
            forms.append((row, "native", bit, flip(w, bit)))
        if fam == "MIMG":
            for n, dmask in enumerate(MIMG_DMASKS):
                for tfe in (0, 1):
                    for d16 in (0, 1):
                        v = [(w[0] & ~0xF00) | dmask << 8 | tfe << MIMG_TFE_BIT, w[1] | d16 << (MIMG_D16_BIT - 32)]
                        forms.append((row, "mimg_width", n | tfe << 2 | d16 << 3, v))
        if fam in ("SOP1", "SOP2", "SOPC"):
            # Does a constant print, or "/*invalid immediate*/" (register-only source)?
            if "src0" in row["fields"]:
                forms.append((row, "imm", "inline", [(w[0] & ~0xFF) | 0x80]))
            if "src1" in row["fields"]:
                forms.append((row, "imm", "inline1", [(w[0] & ~0xFF00) | 0x80 << 8]))
        if fam in ("VOP3", "VOP3P"):
            for s, src in enumerate(("src0", "src1", "src2")):
                if src in row["fields"]:
                    name = "inline" if s == 0 else f"inline{s}"
                    forms.append((row, "imm", name, [w[0], (w[1] & ~(0x1FF << (9 * s))) | 242 << (9 * s)]))
        if fam in ("VOP1", "VOP2", "VOPC"):
            dpp = [(w[0] & ~0x1FF) | 0xFA, DPP_WORD]
            sdwa_word = SDWA_WORD & ~0xFF00 if fam == "VOPC" else SDWA_WORD & ~(7 << 24) if fam == "VOP1" else SDWA_WORD
            sdwa = [(w[0] & ~0x1FF) | 0xF9, sdwa_word]
            forms.append((row, "dpp", None, dpp))
            if "src0" in row["fields"]:
                # How src0 immediates print: inline 1.0, and literals 1.0 as f16 and as f32.
                forms.append((row, "imm", "inline", [(w[0] & ~0x1FF) | 242] + w[1:]))
                forms.append((row, "imm", "lit16", [(w[0] & ~0x1FF) | 255, 0x3C00]))
                forms.append((row, "imm", "lit32", [(w[0] & ~0x1FF) | 255, 0x3F800000]))
            forms.append((row, "sdwa", None, sdwa))
            forms += [(row, "dpp", bit, flip(dpp, bit)) for bit in DPP_BITS]
            forms += [(row, "sdwa", bit, flip(sdwa, bit)) for bit in SDWA_BITS]
    texts = disassemble(llvm, mcpu, [f[3] for f in forms])
    for (row, form, bit, _), text in zip(forms, texts):
        if form == "imm":
            row.setdefault("imm", {})[bit] = text
            continue
        if form == "mimg_width":
            row.setdefault("mimg_width", {})[str(bit)] = text
            continue
        entry = row.setdefault("forms", {}).setdefault(form, {"ok": False, "bits": {}})
        if bit is None:
            entry["ok"] = text is not None
            entry["text"] = text
        elif text is not None:
            entry["bits"][str(bit)] = text
    return list(rows.values())


if __name__ == "__main__":
    rows = []
    for target, llvm in targets.rows():  # include/dppgemm/targets.def
        rows += probe(llvm, target, target)
    # One write: json.dump writes each token separately (a million writes).
    sys.stdout.write(json.dumps(rows, indent=0))
