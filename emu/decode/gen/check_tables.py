#!/usr/bin/env python3
"""Regenerate op_table.inc and op_forms.inc from LLVM into a temporary directory
and compare them with the checked-in files: exit 0 when byte for byte equal,
else print the first differing lines of each and exit 1.

Run by ctest ("decode: regenerating the op tables ..."); by hand after editing
probe.py, gen_table.py or op_semantics.txt it says whether the checked-in
tables are current (then regenerate them as README.md says).
"""
import difflib, os, subprocess, sys, tempfile

here = os.path.dirname(os.path.abspath(__file__))
with tempfile.TemporaryDirectory() as tmp:
    probe, table, forms = (os.path.join(tmp, name) for name in ("probe.json", "op_table.inc", "op_forms.inc"))
    with open(probe, "w") as out:
        subprocess.run([sys.executable, os.path.join(here, "probe.py")], stdout=out, check=True)
    with open(table, "w") as out:
        subprocess.run([sys.executable, os.path.join(here, "gen_table.py"), probe, forms], stdout=out, check=True)
    differ = False
    for generated, name in ((table, "op_table.inc"), (forms, "op_forms.inc")):
        checked_in = os.path.join(here, "..", name)
        old, new = open(checked_in).read(), open(generated).read()
        if old != new:
            differ = True
            diff = list(difflib.unified_diff(old.splitlines(), new.splitlines(), f"checked-in {name}", f"regenerated {name}",
                                             lineterm="", n=0))
            print(f"emu/decode/{name} differs from what probe.py + gen_table.py generate ({len(diff)} diff lines):")
            print("\n".join(diff[:40]))
    sys.exit(1 if differ else 0)
