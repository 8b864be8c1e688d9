#!/bin/sh
# fault_pc_in_disasm.sh DPPGEMM_EMU HIPEMU_LIBRARY PROGRAM ARCH
# The pc and instruction hipemu reports for a kernel fault must be a line of
# `dppgemm-emu disasm --arch ARCH PROGRAM`: the same instruction at that address.
emu=$1 library=$2 program=$3 arch=$4
report=$(DPPGEMM_HIPEMU_ARCH="$arch" LD_PRELOAD="$library" "$program" 2>&1 | grep 'hipemu: kernel fault:' | head -1)
pc=$(echo "$report" | sed -E 's/.* pc 0x([0-9a-f]+): .*/\1/')
instruction=$(echo "$report" | sed -E 's/.* pc 0x[0-9a-f]+: (.*): [^:]*$/\1/')
[ -n "$pc" ] && [ "$pc" != "$report" ] || { echo "no fault reported: $report"; exit 1; }
address=$(printf '%012X' "0x$pc")
line=$("$emu" disasm --arch "$arch" "$program" | grep "// $address\$")
case "$line" in
  "$(printf '\t')$instruction "*) echo "pc 0x$pc: $instruction"; exit 0 ;;
esac
echo "reported '$instruction' at 0x$pc; disasm has: '$line'"; exit 1
