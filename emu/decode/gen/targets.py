"""The target table (include/dppgemm/targets.def) as the prober and generator read it.

rows() -> [(name, llvm)] in table order: the processor LLVM probes (also its
-mcpu) and the LLVM major version whose llvm-mc/llvm-objdump is its oracle.
The order is the Target enum's, hence the op tables' target columns.
features() -> {name: set of DPPGEMM_FEATURE names} of each row.
"""
import os, re

TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "include", "dppgemm", "targets.def")
ROW = re.compile(r"^DPPGEMM_TARGET\((gfx[0-9a-f]+), *0x[0-9a-f]+, *([0-9]+), *[01], *\"([^\"]*)\"")


def _matches():
    found = [m for m in map(ROW.match, open(TABLE)) if m]
    if not found:
        raise SystemExit(f"{TABLE}: no DPPGEMM_TARGET rows")
    return found


def rows():
    return [(m.group(1), int(m.group(2))) for m in _matches()]


def features():
    return {m.group(1): set(m.group(3).split()) for m in _matches()}
