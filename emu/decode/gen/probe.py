#!/usr/bin/env python3
"""Ask llvm-objdump which instruction every opcode number of every encoding is.

For each target and encoding family, template words are built per opcode
number with distinct, well-aligned register numbers in the operand fields
(8 for the destination, 16 for src0, 24 for src1, 32 for src2), so the printed
text tells the mnemonic, which fields the instruction uses and how many dwords
each one spans.  LLVM rejects an encoding whose unused fields are not zero, so
every subset of fields is tried, largest first; the first that decodes wins.
Output: JSON rows {target, family, opcode, fields, text} read by gen_table.py.

LLVM 16 as shipped by Debian does not know gfx942 (LLVM 17 added it); its
gfx940 is the closest, so "gfx942" here means gfx940 as decoded by LLVM 16.
"""
import itertools, json, os, re, subprocess, sys, tempfile

V = 256  # VGPR offset in a 9-bit source field
# family: (opcode count, base words, opcode (dword, shift), fields (name, dword, shift, used value))
FAMILIES = {
    "SOP2": (0x60, [0x80000000], (0, 23), [("dst", 0, 16, 8), ("src0", 0, 0, 16), ("src1", 0, 8, 24)]),
    "SOPK": (0x1d, [0xB0000000], (0, 23), [("dst", 0, 16, 8), ("imm", 0, 0, 0x1234)]),
    "SOP1": (0x100, [0xBE800000], (0, 8), [("dst", 0, 16, 8), ("src0", 0, 0, 16)]),
    "SOPC": (0x80, [0xBF000000], (0, 16), [("src0", 0, 0, 16), ("src1", 0, 8, 24)]),
    "SOPP": (0x80, [0xBF800000], (0, 16), [("imm", 0, 0, 3)]),
    "SMEM": (0x100, [0xC0020000, 0], (0, 18), [("dst", 0, 6, 8), ("src0", 0, 0, 8), ("imm", 1, 0, 0x10)]),
    "VOP2": (0x3e, [0x00000000], (0, 25), [("dst", 0, 17, 8), ("src0", 0, 0, V + 16), ("src1", 0, 9, 24)]),
    "VOP1": (0x100, [0x7E000000], (0, 9), [("dst", 0, 17, 8), ("src0", 0, 0, V + 16)]),
    "VOPC": (0x100, [0x7C000000], (0, 17), [("src0", 0, 0, V + 16), ("src1", 0, 9, 24)]),
    "VOP3": (0x380, [0xD0000000, 0], (0, 16), [("dst", 0, 0, 8), ("src0", 1, 0, V + 16), ("src1", 1, 9, V + 24), ("src2", 1, 18, V + 32)]),
    "VOP3P": (0x80, [0xD3804000, 0x18000000], (0, 16), [("dst", 0, 0, 8), ("src0", 1, 0, V + 16), ("src1", 1, 9, V + 24), ("src2", 1, 18, V + 32)]),
    "DS": (0x100, [0xD8000000, 0], (0, 17), [("dst", 1, 24, 32), ("src0", 1, 0, 8), ("src1", 1, 8, 16), ("src2", 1, 16, 24)]),
    "FLAT": (0x80, [0xDC000000, 0x7F0000], (0, 18), [("dst", 1, 24, 24), ("src0", 1, 0, 8), ("src1", 1, 8, 16)]),
    "SCRATCH": (0x80, [0xDC004000, 0x7F0000], (0, 18), [("dst", 1, 24, 24), ("src0", 1, 0, 8), ("src1", 1, 8, 16)]),
    "GLOBAL": (0x80, [0xDC008000, 0x7F0000], (0, 18), [("dst", 1, 24, 24), ("src0", 1, 0, 8), ("src1", 1, 8, 16)]),
    "MUBUF": (0x80, [0xE0000000, 0x80000000], (0, 18), [("src0", 0, 12, 1), ("dst", 1, 8, 16), ("src2", 1, 16, 2)]),
}
PAD = [0xBF800000, 0xBF800000]  # two s_nop 0: resynchronise after a garbage decode


def variants(fields):
    for n in range(len(fields), -1, -1):
        for subset in itertools.combinations(fields, n):
            yield subset


def probe(llvm, target, mcpu):
    probes, words = [], []
    for fam, (count, base, (od, osh), fields) in FAMILIES.items():
        for op in range(count):
            for subset in variants(fields):
                w = list(base)
                w[od] |= op << osh
                for _, d, sh, val in subset:
                    w[d] |= val << sh
                probes.append((fam, op, [f[0] for f in subset], len(words) * 4))
                words += w + PAD
    with tempfile.TemporaryDirectory() as tmp:
        src, obj = os.path.join(tmp, "p.s"), os.path.join(tmp, "p.o")
        with open(src, "w") as f:
            f.writelines(".long 0x%08x\n" % w for w in words)
        subprocess.run([f"llvm-mc-{llvm}", "-arch=amdgcn", f"-mcpu={mcpu}", "-filetype=obj", src, "-o", obj], check=True)
        out = subprocess.run([f"llvm-objdump-{llvm}", "-d", f"--mcpu={mcpu}", obj], check=True,
                             capture_output=True, text=True).stdout
    text_at = {}
    for line in out.splitlines():
        m = re.match(r"\s+(.*?)\s*// ([0-9A-F]{12}):", line)
        if m:
            text_at[int(m.group(2), 16)] = m.group(1)
    rows = {}
    for fam, op, fields, addr in probes:
        text = text_at.get(addr)
        if text is None:
            sys.exit(f"lost sync at {fam} {op:#x}")
        if text.startswith(".long"):
            continue
        row = rows.setdefault((fam, op), {"target": target, "family": fam, "opcode": op,
                                          "fields": fields, "text": text, "variants": {}})
        row["variants"][",".join(fields)] = text
    return list(rows.values())


if __name__ == "__main__":
    rows = []
    for target, llvm, mcpu in [("gfx900", 15, "gfx900"), ("gfx906", 15, "gfx906"), ("gfx908", 15, "gfx908"),
                               ("gfx90a", 15, "gfx90a"), ("gfx940", 15, "gfx940"), ("gfx942", 16, "gfx940")]:
        rows += probe(llvm, target, mcpu)
    json.dump(rows, sys.stdout, indent=0)
