#!/usr/bin/env python3
"""Writes <target>.expected: every matrix-core instruction of the target
(MFMA, SMFMAC, v_accvgpr_read/write/mov) in every operand and modifier form
the encoding can hold, as llvm-objdump of that target's oracle LLVM prints it
(include/dppgemm/targets.def: 15 for gfx908/gfx90a, 19 for gfx940/gfx942).
test_mfma_disasm.cpp compares the emulator's disassembler with these lines.

    python3 tests/decode/mfma/make_expected.py     # rewrites the four files

The encodings come from the op table (emu/decode/op_table.inc: each op's
opcode on the target and its operand widths); which of them LLVM decodes and
how it prints them is LLVM's answer. Words LLVM refuses are left out (the
count is printed).
"""
import os, re, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..", "..")
sys.path.insert(0, os.path.join(ROOT, "emu", "decode", "gen"))
import targets  # noqa: E402

ROW = re.compile(r"^DPPGEMM_OP\((\w+), (\w+), \w+, ((?:-?\d+, ){6})((?:-?\d+, ){6})(\d+), (\d+), (\d+), (\d+), \w+, ([^,]+),")
VGPR = 256  # operand code of v0 in a 9-bit source field


def ops():
    """(name, family, opcodes per target, dwords dst/src0/src1/src2, flags)"""
    out = []
    for line in open(os.path.join(ROOT, "emu", "decode", "op_table.inc")):
        m = ROW.match(line)
        if not m:
            continue
        flags = m.group(9)
        if "OF_MFMA" not in flags and not m.group(1).startswith("v_accvgpr_"):
            continue
        opcodes = [int(x) for x in m.group(3).split(",")[:6]]
        dwords = [int(m.group(i)) for i in (5, 6, 7, 8)]
        out.append((m.group(1), m.group(2), opcodes, dwords, flags))
    return out


def vop3p(op, vdst, src0, src1, src2, cbsz=0, abid=0, acc_cd=0, acc=0, blgp=0):
    w0 = 0xD3800000 | (op << 16) | (acc_cd << 15) | (abid << 11) | (cbsz << 8) | vdst
    w1 = (blgp << 29) | (acc << 27) | (src2 << 18) | (src1 << 9) | src0
    return [w0, w1]


def mfma_forms(op, dwords):
    d, a, b, c = dwords
    forms = []
    base = dict(vdst=0, src0=VGPR + 40, src1=VGPR + 42, src2=VGPR + 0)
    for acc_cd in (0, 1):
        for acc in range(4):
            forms.append(vop3p(op, **dict(base, acc_cd=acc_cd, acc=acc)))
    for cbsz in range(8):
        forms.append(vop3p(op, **base, cbsz=cbsz))
    for abid in range(16):
        forms.append(vop3p(op, **base, abid=abid))
    for blgp in range(8):
        forms.append(vop3p(op, **dict(base, acc_cd=1), blgp=blgp))
    forms.append(vop3p(op, **dict(base, acc_cd=1), cbsz=2, abid=3, blgp=1))
    forms.append(vop3p(op, **dict(base, acc_cd=1), cbsz=7, abid=15, blgp=7, acc=3))
    # Other register numbers: C and D apart, high registers, odd (misaligned) tuples.
    for vdst, s0, s1, s2 in ((d, VGPR + 1, VGPR + 3, VGPR + 64), (256 - d, VGPR + 255, VGPR + 254, VGPR + 256 - c),
                             (1, VGPR + 3, VGPR + 5, VGPR + 7), (128, VGPR + 100, VGPR + 101, VGPR + 128)):
        for acc_cd in (0, 1):
            forms.append(vop3p(op, vdst, s0, s1, s2, acc_cd=acc_cd))
    # Scalar and constant sources: SGPRs, inline constants (0, 1.0, -1, 0.5), a literal.
    for s2 in (128, 242, 193, 240, 2, 106):
        for acc_cd in (0, 1):
            forms.append(vop3p(op, 0, VGPR + 40, VGPR + 42, s2, acc_cd=acc_cd))
    for s0, s1 in ((4, 6), (128, 242), (VGPR + 40, 2)):
        forms.append(vop3p(op, 0, s0, s1, VGPR + 0, acc_cd=1))
    return forms


def accvgpr_forms(name, family, op):
    forms = []
    if family == "VOP1":  # v_accvgpr_mov_b32
        for vdst, src0 in ((0, VGPR + 1), (255, VGPR + 254), (7, VGPR + 7), (3, 2), (3, 128)):
            forms.append([(0x3F << 25) | (vdst << 17) | (op << 9) | src0])
        return forms
    for vdst, src0 in ((0, VGPR + 1), (255, VGPR + 254), (7, VGPR + 7), (3, 2), (3, 128), (3, 242), (3, 106), (3, 255)):
        w = vop3p(op, vdst, src0, 0, 0)
        if src0 == 255 and name == "v_accvgpr_write_b32":
            w.append(0x3F800000)
        forms.append(w)
    return forms


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def llvm_tool(tool, version):
    return f"/usr/lib/llvm-{version}/bin/{tool}"


def accepted(candidates, mcpu, version, tmp):
    """The candidates LLVM decodes (llvm-mc --disassemble reads one per line)."""
    path = os.path.join(tmp, "bytes.txt")
    with open(path, "w") as f:
        for words in candidates:
            f.write(",".join(f"0x{(w >> (8 * i)) & 0xff:02x}" for w in words for i in range(4)) + "\n")
    r = run([llvm_tool("llvm-mc", version), "--disassemble", "-triple=amdgcn-amd-amdhsa", f"-mcpu={mcpu}", path])
    refused = {int(m.group(1)) - 1 for m in re.finditer(r"bytes\.txt:(\d+):\d+: warning: invalid instruction encoding", r.stderr)}
    return [c for i, c in enumerate(candidates) if i not in refused]


def objdump_lines(candidates, mcpu, version, tmp):
    src, obj = os.path.join(tmp, "c.s"), os.path.join(tmp, "c.o")
    with open(src, "w") as f:
        for words in candidates:
            f.write(".long " + ", ".join(f"0x{w:08x}" for w in words) + "\n")
    r = run([llvm_tool("llvm-mc", version), "-triple=amdgcn-amd-amdhsa", f"-mcpu={mcpu}", "-filetype=obj", src, "-o", obj])
    if r.returncode:
        raise SystemExit(r.stderr)
    out = run([llvm_tool("llvm-objdump", version), "-d", f"--mcpu={mcpu}", obj]).stdout
    pattern = re.compile(r"^\s+(.*?)\s*// ([0-9A-F]{12}):((?: [0-9A-F]{8})+)")
    lines = [m for m in map(pattern.match, out.splitlines()) if m]
    address, result = 0, []
    for words, m in zip(candidates, lines):
        got = [int(w, 16) for w in m.group(3).split()]
        if int(m.group(2), 16) != address or got != words:
            raise SystemExit(f"{mcpu}: objdump out of step at {address:#x}: {m.group(0)}")
        address += 4 * len(words)
        result.append((got, m.group(1)))
    if len(result) != len(candidates):
        raise SystemExit(f"{mcpu}: {len(candidates)} encodings, {len(result)} lines")
    # LLVM marks operands no assembler accepts ("/*Invalid register ...*/",
    # "/*Invalid immediate*/"); the generated corpus (test_corpus.cpp) bounds
    # those. Kept here: what an assembler can produce.
    return [r for r in result if "/*Invalid" not in r[1]]


def main():
    table = ops()
    with tempfile.TemporaryDirectory() as tmp:
        for t, (mcpu, version) in enumerate(targets.rows()):
            candidates = []
            for name, family, opcodes, dwords, flags in table:
                if opcodes[t] < 0:
                    continue
                forms = accvgpr_forms(name, family, opcodes[t]) if name.startswith("v_accvgpr_") else mfma_forms(opcodes[t], dwords)
                for words in forms:
                    if words not in candidates:
                        candidates.append(words)
            if not candidates:
                continue
            kept = accepted(candidates, mcpu, version, tmp)
            lines = objdump_lines(kept, mcpu, version, tmp)
            path = os.path.join(HERE, f"{mcpu}.expected")
            with open(path, "w") as f:
                f.write(f"# llvm-objdump-{version} --mcpu={mcpu}; written by make_expected.py, do not edit\n")
                for words, text in lines:
                    f.write(" ".join(f"{w:08X}" for w in words) + " | " + text + "\n")
            print(f"{mcpu}: {len(lines)} lines (LLVM {version}), {len(candidates) - len(kept)} encodings refused, "
                  f"{len(kept) - len(lines)} with operands LLVM marks invalid")


if __name__ == "__main__":
    main()
